//! Conformance of both games to the `Game` trait, bot determinism, and the match runner
//! on a few tiny matches.

use play::bots::{Bot, WithBots};
use play::game::Game;
use play::match_runner::{play_game, run_match, summarize};
use play::mcts::{analyse, Budget, MctsConfig, Search};
use play::rumis_game::{RumisConfig, RumisGame};
use play::rummikub_game::{RummikubConfig, RummikubGame};
use rummikub::RuleSet;

/// Plays a whole game with `bots`, checking the trait's promises at every step.
fn conform<G: WithBots>(config: &G::Config, seed: u64, specs: &[&str]) -> G {
    let mut game = G::start(config, seed).expect("starts");
    assert_eq!(
        G::start(config, seed).unwrap().record(None),
        game.record(None)
    );
    let mut bots: Vec<Box<dyn Bot<G>>> = specs
        .iter()
        .enumerate()
        .map(|(i, s)| G::bot(s, i as u64).expect("bot"))
        .collect();
    let mut steps = 0;
    while let Some(seat) = game.to_act() {
        assert!(game.outcome().is_none());
        if let Some(actions) = game.legal_actions() {
            assert!(!actions.is_empty(), "a seat to act has an action");
            for a in actions.iter().take(20) {
                assert!(game.validate(seat, a).is_ok());
                let text = game.format_action(a);
                assert_eq!(&game.parse_action(&text).expect("reads back"), a);
            }
        }
        let action = bots[seat]
            .choose(&game.observe(seat), seat)
            .expect("a choice");
        assert!(game.validate(seat, &action).is_ok());
        let other = (seat + 1) % game.seats();
        let before = game.record(None);
        assert!(
            game.apply(other, &action).is_err(),
            "out of turn is refused"
        );
        assert_eq!(
            game.record(None),
            before,
            "a refused action changes nothing"
        );
        game.apply(seat, &action).expect("valid");
        steps += 1;
        assert!(steps < 10_000);
    }
    let outcome = game.outcome().expect("an outcome at the end");
    assert_eq!(outcome.scores.len(), game.seats());
    assert!(!outcome.winners.is_empty());
    game
}

#[test]
fn rumis_conforms() {
    let config = RumisConfig::builtin("chullpa", 3).unwrap();
    let game = conform::<RumisGame>(&config, 1, &["random", "greedy", "mcts:p=20"]);
    assert!(game.record(None).contains("result:"));
}

#[test]
fn rummikub_conforms_and_hides_racks() {
    let config = RummikubConfig::new(RuleSet::current(), 2);
    let game = RummikubGame::start(&config, 5).unwrap();
    let view = game.observe(0);
    assert_eq!(view.rack, game.series.round().rack(0));
    assert_eq!(view.rack_sizes, vec![14, 14]);
    assert!(game.legal_actions().is_none());
    conform::<RummikubGame>(&config, 5, &["greedy", "random"]);
}

fn rumis_history(seed: u64, spec: &str) -> Vec<rumis::Move> {
    let config = RumisConfig::builtin("chullpa", 2).unwrap();
    let mut bots = vec![
        RumisGame::bot(spec, seed).unwrap(),
        RumisGame::bot("greedy", seed + 1).unwrap(),
    ];
    let game = play_game::<RumisGame>(&config, 0, &mut bots).unwrap();
    game.position.history().to_vec()
}

#[test]
fn mcts_is_deterministic_for_a_seed_and_playout_budget() {
    assert_eq!(rumis_history(4, "mcts:p=60"), rumis_history(4, "mcts:p=60"));
    assert_eq!(rumis_history(4, "mcts:1"), rumis_history(4, "mcts:1"));
}

#[test]
fn rummikub_planner_is_deterministic() {
    use play::rummikub_bots::{PlannerBot, PlannerConfig};
    let config = RummikubConfig::new(RuleSet::current(), 2);
    let mut game = RummikubGame::start(&config, 2).unwrap();
    let mut greedy = RummikubGame::bot("greedy", 0).unwrap();
    let mut compared = 0;
    while let Some(seat) = game.to_act() {
        let view = game.observe(seat);
        if view.melded[seat]
            && compared < 3
            && game.series.round().history().len().is_multiple_of(4)
        {
            let a = PlannerBot::new(PlannerConfig::level(5), 9).act(&view);
            let b = PlannerBot::new(PlannerConfig::level(5), 9).act(&view);
            assert_eq!(a, b);
            assert!(game.validate(seat, &a).is_ok());
            compared += 1;
        }
        let action = greedy.choose(&view, seat).unwrap();
        game.apply(seat, &action).unwrap();
    }
    assert!(compared > 0);
}

#[test]
fn the_tree_is_reused_after_searched_moves() {
    let config = RumisConfig::builtin("chullpa", 2).unwrap();
    let start = RumisGame::start(&config, 0).unwrap().position;
    let mut search = Search::new(
        start.clone(),
        MctsConfig::with_budget(Budget::Playouts(200)),
        1,
    );
    search.run();
    let best = search.best_move().unwrap();
    let mut next = start.clone();
    next.play(best).unwrap();
    assert!(search.advance_to(&next), "a searched move keeps the tree");
    let other = RumisGame::start(&RumisConfig::builtin("pirka", 2).unwrap(), 0)
        .unwrap()
        .position;
    assert!(!search.advance_to(&other), "another game starts afresh");
    let stats = analyse(&start, MctsConfig::with_budget(Budget::Playouts(100)), 0, 3);
    assert_eq!(stats.len(), 3);
    assert!(stats[0].visits >= stats[1].visits);
    assert!(stats.iter().all(|s| (0.0..=1.0).contains(&s.win_chance)));
}

#[test]
fn bad_specs_are_errors() {
    for spec in [
        "",
        "mcts:0",
        "mcts:6",
        "mcts:p=0",
        "mcts:ms=x",
        "planner:2",
        "alpha",
    ] {
        assert!(RumisGame::bot(spec, 0).is_err(), "{spec}");
    }
    for spec in ["mcts:3", "planner:9", "level:0", "greedy:1"] {
        assert!(RummikubGame::bot(spec, 0).is_err(), "{spec}");
    }
    assert!(RumisConfig::builtin("nowhere", 2).is_err());
    assert!(RumisGame::start(&RumisConfig::builtin("chullpa", 9).unwrap(), 0).is_err());
}

#[test]
fn the_match_runner_rotates_seats_and_does_not_depend_on_threads() {
    let config = RumisConfig::builtin("chullpa", 2).unwrap();
    let entrants = vec!["greedy".to_string(), "random".to_string()];
    let make = |spec: &str, seed: u64| RumisGame::bot(spec, seed);
    let one = run_match::<RumisGame>(&config, &entrants, 6, 10, 1, &make, &|_| {}).unwrap();
    let two = run_match::<RumisGame>(&config, &entrants, 6, 10, 2, &make, &|_| {}).unwrap();
    assert_eq!(one.len(), 6);
    for (a, b) in one.iter().zip(&two) {
        assert_eq!(a.record, b.record);
    }
    // Each deal is played in both seatings.
    assert_eq!(one[0].seed, one[1].seed);
    assert_eq!(one[0].entrant_of_seat, vec![0, 1]);
    assert_eq!(one[1].entrant_of_seat, vec![1, 0]);
    let summary = summarize(&entrants, &one);
    assert_eq!(summary.bots.len(), 2);
    let total: f64 = summary.bots.iter().map(|b| b.win_share).sum();
    assert!((total - 1.0).abs() < 1e-9, "shares add up to one per game");
    assert_eq!(summary.elo.len(), 1);

    let config = RummikubConfig::new(RuleSet::current(), 2);
    let make = |spec: &str, seed: u64| RummikubGame::bot(spec, seed);
    let games = run_match::<RummikubGame>(&config, &entrants, 2, 0, 1, &make, &|_| {}).unwrap();
    assert_eq!(games.len(), 2);
    assert!(games[0].record.contains("seed"));
    assert!(run_match::<RummikubGame>(
        &config,
        &["bogus".into(), "greedy".into()],
        2,
        0,
        1,
        &make,
        &|_| {}
    )
    .is_err());
}
