//! The Rummikub puzzles over HTTP: the daily puzzle is the date's, the same on every
//! request; for every listed date the revealed solution is a legal table that the
//! check accepts, lays as many tiles as the solver's best, changes at least two sets,
//! and no play changing fewer sets lays as many (checked here with the slow reference
//! solver over every choice of k − 1 free sets, independently of the generator); wrong
//! tables are refused with the engine's reason; a date still to come is 404; malformed
//! and oversized tables and too many checks are refused.
//!
//! Every test runs on dates the test chooses through the server's clock, never on the
//! machine's date; one test runs the date-dependent checks on dates spread over two
//! years (a leap day and the turns of the years included), and one checks that the
//! system clock's date picks the same puzzle as the fixed-date path.

mod common;

use std::time::Duration;

use common::{start, start_on, start_with, temp_sqlite, TestServer};
use play::rummikub_puzzles::{daily, puzzle_rules, PuzzleDate};
use rummikub::notation::parse_tiles;
use rummikub::tile::TileCounts;
use rummikub::{Set, Tile};
use rummikub_solver::reference::best_play;
use rummikub_solver::{solve, Objective, TableAndRack};
use serde_json::{json, Value};
use server::clock::{noon_utc, Clock};
use server::puzzles::date_at;

/// The server's date (UTC) by its clock.
fn today(server: &TestServer) -> PuzzleDate {
    date_at(server.clock().now_ms())
}

fn sets_of(value: &Value) -> Vec<Set> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|set| {
            let text: Vec<&str> = set
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap())
                .collect();
            Set::new(parse_tiles(&text.join(" ")).unwrap())
        })
        .collect()
}

fn tiles_of(value: &Value) -> Vec<Tile> {
    let text: Vec<&str> = value
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    parse_tiles(&text.join(" ")).unwrap()
}

fn wire(sets: &[Set]) -> Value {
    json!({
        "table": sets
            .iter()
            .map(|s| s.tiles().iter().map(Tile::to_string).collect::<Vec<_>>())
            .collect::<Vec<_>>()
    })
}

async fn check(server: &TestServer, id: &str, body: &Value) -> Value {
    let (status, answer) = server
        .post(
            &format!("/api/puzzles/rummikub/{id}/check"),
            &body.to_string(),
        )
        .await;
    assert_eq!(status, 200, "{id}: {answer}");
    answer
}

/// Every choice of `k` of `0..n`.
fn choices(n: usize, k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    (0..n)
        .flat_map(|first| {
            choices(n, k - 1)
                .into_iter()
                .filter(move |rest| rest.first().is_none_or(|&r| r > first))
                .map(move |mut rest| {
                    rest.insert(0, first);
                    rest
                })
        })
        .collect()
}

#[tokio::test]
async fn every_listed_puzzle_is_solved_by_its_solution_which_is_best_and_needs_its_rearranging() {
    let server = start(&temp_sqlite("puzzles-listed"), 0).await;
    let rules = puzzle_rules();
    let today = today(&server).to_string();

    let (status, daily_view) = server.get("/api/puzzles/rummikub/daily").await;
    assert_eq!(status, 200, "{daily_view}");
    assert_eq!(daily_view["id"], today);
    assert!(
        daily_view.get("solution").is_none(),
        "no solution is given away"
    );
    // The date's puzzle, the same on every request and as the generator makes it.
    let made = daily(self::today(&server)).unwrap();
    assert_eq!(sets_of(&daily_view["table"]), made.table);
    assert_eq!(tiles_of(&daily_view["rack"]), made.rack);
    let (_, again) = server.get(&format!("/api/puzzles/rummikub/{today}")).await;
    assert_eq!(again, daily_view);

    let (status, list) = server.get("/api/puzzles/rummikub").await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["today"], today);
    let listed = list["puzzles"].as_array().unwrap();
    assert_eq!(listed.len(), 31, "today and 30 days back");
    assert_eq!(listed[0]["id"], today);

    for summary in listed.iter().take(30) {
        let id = summary["id"].as_str().unwrap();
        let (status, view) = server.get(&format!("/api/puzzles/rummikub/{id}")).await;
        assert_eq!(status, 200, "{view}");
        let (status, solution) = server
            .get(&format!("/api/puzzles/rummikub/{id}/solution"))
            .await;
        assert_eq!(status, 200, "{solution}");
        let table = sets_of(&view["table"]);
        let rack = tiles_of(&view["rack"]);
        let goal = view["goal"].as_u64().unwrap() as u32;
        let k = view["changed_sets"].as_u64().unwrap() as usize;
        assert_eq!(summary["goal"], view["goal"]);
        assert_eq!(summary["difficulty"], view["difficulty"]);

        // The check accepts the solution: it lays the goal.
        let answer = check(&server, id, &json!({ "table": solution["table"] })).await;
        assert_eq!(answer["solved"], true, "{id}: {answer}");
        assert_eq!(answer["code"], "solved");
        assert_eq!(answer["laid"], goal);

        // Exactly the old table's tiles and `goal` rack tiles, in valid sets.
        let new_table = sets_of(&solution["table"]);
        assert!(new_table.iter().all(|s| s.check(&rules).is_ok()), "{id}");
        let mut laid = TileCounts::from_tiles(new_table.iter().flat_map(Set::tiles));
        for t in table.iter().flat_map(Set::tiles) {
            assert!(laid.remove(*t), "{id}: {t} left the table");
        }
        assert_eq!(laid.len() as u32, goal, "{id}");
        assert!(laid.is_subset_of(&TileCounts::from_tiles(&rack)), "{id}");
        assert_eq!(tiles_of(&solution["laid"]).len() as u32, goal);

        // Best: the solver lays no more.
        let position = TableAndRack::with_sets(table.clone(), rack.clone(), true);
        let best = solve(&rules, &position, Objective::Tiles).unwrap().unwrap();
        assert_eq!(best.tiles, goal, "{id}");

        // At least two sets change, as many as stated, and fewer cannot do it.
        assert!(k >= 2, "{id}");
        assert_eq!(solution["changed"].as_array().unwrap().len(), k, "{id}");
        for free in choices(table.len(), k - 1) {
            let sets: Vec<Set> = free.iter().map(|&i| table[i].clone()).collect();
            let most =
                best_play(&rules, &sets, &rack, true, Objective::Tiles).map_or(0, |p| p.tiles);
            assert!(most < goal, "{id}: sets {free:?} alone lay {most}");
        }
    }
}

#[tokio::test]
async fn wrong_tables_are_refused_with_the_engines_reason() {
    let server = start(&temp_sqlite("puzzles-wrong"), 0).await;
    let (_, view) = server.get("/api/puzzles/rummikub/daily").await;
    assert!(check_wrong_tables(&server, view["id"].as_str().unwrap()).await);
}

/// Checks the puzzle `id` against tables that are wrong by construction, each refused
/// with the engine's reason, and the solution; and a legal shorter play ("short"), if
/// the puzzle has one: whether it had.
async fn check_wrong_tables(server: &TestServer, id: &str) -> bool {
    let rules = puzzle_rules();
    let (status, view) = server.get(&format!("/api/puzzles/rummikub/{id}")).await;
    assert_eq!(status, 200, "{id}: {view}");
    let (_, solution) = server
        .get(&format!("/api/puzzles/rummikub/{id}/solution"))
        .await;
    let table = sets_of(&view["table"]);
    let rack = tiles_of(&view["rack"]);
    let goal = view["goal"].as_u64().unwrap();
    let solved = sets_of(&solution["table"]);

    let refused = |answer: &Value, code: &str| {
        assert_eq!(answer["solved"], false, "{id}: {answer}");
        assert_eq!(answer["code"], "refused", "{id}: {answer}");
        assert_eq!(answer["why"]["code"], code, "{id}: {answer}");
        assert!(answer["reason"].as_str().is_some_and(|r| !r.is_empty()));
    };

    // The solution is accepted.
    let answer = check(server, id, &wire(&solved)).await;
    assert_eq!(answer["code"], "solved", "{id}: {answer}");

    // The table as it was: nothing laid (K5).
    let answer = check(server, id, &wire(&table)).await;
    refused(&answer, "play_one");

    // A changed set taken apart: its first tile alone is not a set (K3), and the
    // answer names the set.
    let changed = solution["changed"][0].as_u64().unwrap() as usize;
    let mut broken: Vec<Set> = solved.clone();
    let at = broken
        .iter()
        .position(|s| s.len() >= 3 && !table.contains(s))
        .unwrap();
    let lone = broken[at].tiles()[0];
    broken[at] = Set::new(broken[at].tiles()[1..].to_vec());
    broken.push(Set::new(vec![lone]));
    let answer = check(server, id, &wire(&broken)).await;
    refused(&answer, "set_problem");
    assert!(answer["why"]["params"]["set"].is_u64(), "{answer}");
    assert!(changed < table.len());

    // A table tile missing (K5): one copy of a tile that the solution holds exactly
    // as often as the old table (so no rack copy of it was laid) is taken away, which
    // leaves fewer of it than the old table had, however the rest is arranged.
    let old = TileCounts::from_tiles(table.iter().flat_map(Set::tiles));
    let new = TileCounts::from_tiles(solved.iter().flat_map(Set::tiles));
    let (at, gone) = solved
        .iter()
        .enumerate()
        .flat_map(|(i, s)| s.tiles().iter().map(move |t| (i, *t)))
        .find(|(_, t)| old.count(*t) > 0 && new.count(*t) == old.count(*t))
        .unwrap_or_else(|| panic!("{id}: every table tile has a laid copy"));
    let mut missing = solved.clone();
    let mut tiles = missing[at].tiles().to_vec();
    tiles.remove(tiles.iter().position(|t| *t == gone).unwrap());
    missing[at] = Set::new(tiles);
    let answer = check(server, id, &wire(&missing)).await;
    refused(&answer, "left_table");
    assert_eq!(
        answer["why"]["params"]["tile"],
        gone.to_string(),
        "{answer}"
    );

    // A tile neither on the table nor on the rack.
    let all = TileCounts::from_tiles(table.iter().flat_map(Set::tiles).chain(&rack));
    let stranger = Tile::kinds()
        .find(|t| !t.is_joker() && all.count(*t) == 0)
        .unwrap();
    let mut added = table.clone();
    added.push(Set::new(vec![stranger]));
    let answer = check(server, id, &wire(&added)).await;
    refused(&answer, "unknown_tile");

    // Legal but short: a best play of the solution's laid tiles less one lays fewer
    // than the goal by construction (another rack tile may not make up for it).
    let laid = tiles_of(&solution["laid"]);
    let short = (0..laid.len()).find_map(|skip| {
        let mut fewer = laid.clone();
        fewer.remove(skip);
        let position = TableAndRack::with_sets(table.clone(), fewer, true);
        solve(&rules, &position, Objective::Tiles).unwrap()
    });
    match short {
        Some(play) => {
            let answer = check(server, id, &wire(&play.table)).await;
            assert_eq!(answer["code"], "short", "{id}: {answer}");
            assert_eq!(answer["solved"], false);
            assert_eq!(answer["laid"], play.tiles);
            assert_eq!(answer["goal"], goal);
            true
        }
        None => false,
    }
}

/// The dates of the two-year run: every 11th day from 2026-01-01 to 2028-03-31, and
/// the days where a date is easy to get wrong.
fn dates_over_two_years() -> Vec<PuzzleDate> {
    let first = PuzzleDate::parse("2026-01-01").unwrap();
    let last = PuzzleDate::parse("2028-03-31").unwrap();
    let mut dates: Vec<PuzzleDate> = (0..)
        .map(|n| first.plus_days(11 * n))
        .take_while(|d| *d <= last)
        .collect();
    for special in [
        "2026-12-31",
        "2027-01-01",
        "2027-02-28",
        "2027-03-01",
        "2028-02-28",
        "2028-02-29",
        "2028-03-01",
    ] {
        dates.push(PuzzleDate::parse(special).unwrap());
    }
    dates.sort();
    dates.dedup();
    dates
}

/// Unix ms of noon (UTC) of `date`.
fn noon_of(date: PuzzleDate) -> i64 {
    let text = date.to_string();
    let part = |range: std::ops::Range<usize>| text[range].parse::<u32>().unwrap();
    noon_utc(part(0..4) as i32, part(5..7), part(8..10))
}

#[tokio::test]
async fn the_dated_checks_hold_on_dates_over_two_years_with_a_leap_day() {
    let dates = dates_over_two_years();
    assert!(dates.len() >= 70, "{} dates", dates.len());
    assert!(dates.contains(&PuzzleDate::parse("2028-02-29").unwrap()));
    let server = start_on(
        &temp_sqlite("puzzles-years"),
        Clock::manual(noon_of(dates[0])),
    )
    .await;
    let mut with_short_plays = 0;
    for &date in &dates {
        let now = server.clock().now_ms();
        server
            .clock()
            .advance(Duration::from_millis((noon_of(date) - now) as u64));
        assert_eq!(today(&server), date);
        let id = date.to_string();
        // Today's puzzle is the date's, as the generator makes it.
        let (status, view) = server.get("/api/puzzles/rummikub/daily").await;
        assert_eq!(status, 200, "{id}: {view}");
        assert_eq!(view["id"], id);
        let made = daily(date).unwrap();
        assert_eq!(sets_of(&view["table"]), made.table, "{id}");
        assert_eq!(tiles_of(&view["rack"]), made.rack, "{id}");
        // Tomorrow is not out yet; the oldest kept is 30 days back, the day before is gone.
        for (offset, status) in [(1, 404), (-30, 200), (-31, 404)] {
            let path = format!("/api/puzzles/rummikub/{}", date.plus_days(offset));
            assert_eq!(server.get(&path).await.0, status, "{id}: {path}");
        }
        with_short_plays += usize::from(check_wrong_tables(&server, &id).await);
    }
    assert!(
        with_short_plays * 2 > dates.len(),
        "a short play checked on {with_short_plays} of {} dates",
        dates.len()
    );
    // The date turns at midnight UTC, not a millisecond early.
    let last = *dates.last().unwrap();
    let before_midnight = noon_of(last) + 12 * 3_600_000 - 1 - server.clock().now_ms();
    server
        .clock()
        .advance(Duration::from_millis(before_midnight as u64));
    let (_, view) = server.get("/api/puzzles/rummikub/daily").await;
    assert_eq!(view["id"], last.to_string());
    server.clock().advance(Duration::from_millis(1));
    let (_, view) = server.get("/api/puzzles/rummikub/daily").await;
    assert_eq!(view["id"], last.plus_days(1).to_string());
}

#[tokio::test]
async fn the_system_clocks_date_picks_the_same_puzzle_as_the_fixed_date_path() {
    let server = start_on(&temp_sqlite("puzzles-system"), Clock::system()).await;
    // Asked again if midnight (UTC) passed during the request.
    let (date, view) = loop {
        let before = date_at(Clock::system().now_ms());
        let (status, view) = server.get("/api/puzzles/rummikub/daily").await;
        assert_eq!(status, 200, "{view}");
        if date_at(Clock::system().now_ms()) == before {
            break (before, view);
        }
    };
    assert_eq!(view["id"], date.to_string());
    let made = daily(date).unwrap();
    assert_eq!(sets_of(&view["table"]), made.table);
    assert_eq!(tiles_of(&view["rack"]), made.rack);
}

#[tokio::test]
async fn future_and_unknown_dates_are_not_found_and_bad_tables_are_refused() {
    let server = start(&temp_sqlite("puzzles-bad"), 0).await;
    let today = today(&server);
    let tomorrow = today.plus_days(1).to_string();
    for path in [
        format!("/api/puzzles/rummikub/{tomorrow}"),
        format!("/api/puzzles/rummikub/{tomorrow}/solution"),
        format!("/api/puzzles/rummikub/{}", today.plus_days(-400)),
        "/api/puzzles/rummikub/2026-02-30".into(),
        "/api/puzzles/rummikub/yesterday".into(),
    ] {
        let (status, answer) = server.get(&path).await;
        assert_eq!(status, 404, "{path}: {answer}");
        assert_eq!(answer["code"], "not_found", "{answer}");
    }
    let (status, answer) = server
        .post(
            &format!("/api/puzzles/rummikub/{tomorrow}/check"),
            &json!({ "table": [["r1", "r2", "r3"]] }).to_string(),
        )
        .await;
    assert_eq!(status, 404, "tomorrow's puzzle cannot be checked: {answer}");

    let id = today.to_string();
    let path = format!("/api/puzzles/rummikub/{id}/check");
    let too_many: Vec<Vec<&str>> = (0..36).map(|_| vec!["r1", "r2", "r3"]).collect();
    for (body, what) in [
        (
            "{\"table\": \"r1 r2 r3\"}".to_string(),
            "a table is lists of tiles",
        ),
        (json!({ "table": [["r14"]] }).to_string(), "no such tile"),
        (json!({ "sets": [] }).to_string(), "no table"),
        (json!({ "table": too_many }).to_string(), "108 tiles"),
        ("not json".to_string(), "not JSON"),
    ] {
        let (status, answer) = server.post(&path, &body).await;
        assert_eq!(status, 400, "{what}: {answer}");
        assert_eq!(answer["code"], "malformed_request", "{what}: {answer}");
    }
    let huge = format!("{{\"table\": [[{}]]}}", vec!["\"r1\""; 20_000].join(","));
    let (status, _) = server.post(&path, &huge).await;
    assert_eq!(status, 413, "a body past the size limit");
}

#[tokio::test]
async fn checks_past_the_rate_are_refused_with_retry_after() {
    // The public limits (120 checks a minute per address).
    let server = start_with(&temp_sqlite("puzzles-rate"), common::defaults()).await;
    let id = today(&server).to_string();
    let path = format!("/api/puzzles/rummikub/{id}/check");
    let body = json!({ "table": [] }).to_string();
    let mut refused = None;
    for _ in 0..200 {
        let response = server
            .client
            .post(format!("{}{path}", server.base))
            .header("content-type", "application/json")
            .body(body.clone())
            .send()
            .await
            .unwrap();
        if response.status() == 429 {
            refused = Some(response);
            break;
        }
        assert_eq!(response.status(), 200);
    }
    let response = refused.expect("a flood of checks is refused");
    assert!(response.headers().contains_key("retry-after"));
    let answer: Value = response.json().await.unwrap();
    assert_eq!(answer["code"], "too_many_puzzles", "{answer}");
}
