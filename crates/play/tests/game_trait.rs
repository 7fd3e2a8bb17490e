//! Conformance of both games to the `Game` trait, bot determinism, and the match runner
//! on a few tiny matches.

use play::bots::{Bot, WithBots};
use play::game::Game;
use play::match_runner::{play_from, play_game, run_match, summarize};
use play::mcts::{analyse, Budget, MctsConfig, Search};
use play::rumis_game::{RumisConfig, RumisGame};
use play::rummikub_game::{RummikubConfig, RummikubGame};
use rummikub::RuleSet;

/// Plays a whole game with `bots` through the match runner, checking the trait's
/// promises at every step.
fn conform<G: WithBots>(config: &G::Config, seed: u64, specs: &[&str]) -> G {
    let game = G::start(config, seed).expect("starts");
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
    let game = play_from(game, &mut bots, &mut |game: &G, seat, action| {
        assert!(game.outcome().is_none());
        if let Some(actions) = game.legal_actions() {
            assert!(!actions.is_empty(), "a seat to act has an action");
            for a in actions.iter().take(20) {
                assert!(game.validate(seat, a).is_ok());
                let text = game.format_action(a);
                assert_eq!(&game.parse_action(&text).expect("reads back"), a);
            }
        }
        assert!(game.validate(seat, action).is_ok());
        let other = (seat + 1) % game.seats();
        let mut copy = game.clone();
        let before = copy.record(None);
        assert!(copy.apply(other, action).is_err(), "out of turn is refused");
        assert_eq!(
            copy.record(None),
            before,
            "a refused action changes nothing"
        );
        steps += 1;
        assert!(steps < 10_000);
    })
    .expect("every choice is valid");
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
    let mut bots = vec![
        RummikubGame::bot("greedy", 0).unwrap(),
        RummikubGame::bot("greedy", 0).unwrap(),
    ];
    let mut compared = 0;
    play_from(
        RummikubGame::start(&config, 2).unwrap(),
        &mut bots,
        &mut |game: &RummikubGame, seat, _| {
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
        },
    )
    .unwrap();
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

/// A kept MCTS bot starts its next search from the subtree of the position it now
/// faces: the playouts through that position's node carry over (the other player's
/// move here is one the tree tried most), and a bot rebuilt each move starts from 0.
#[test]
fn a_kept_mcts_bot_carries_the_subtree_of_the_position_it_faces() {
    use play::mcts::MctsBot;
    use play::rumis_bots::RumisBot;
    let config = RumisConfig::builtin("chullpa", 2).unwrap();
    let start = RumisGame::start(&config, 0).unwrap().position;
    let mut bot = MctsBot::new(MctsConfig::with_budget(Budget::Playouts(400)), 1);
    let first = bot.choose(&start).unwrap();
    assert_eq!(bot.carried_visits(), 0, "the first search starts afresh");
    // After its own move the bot keeps only that move's subtree, within its bound.
    let kept = bot.search().unwrap();
    let mut after_own = start.clone();
    after_own.play(first).unwrap();
    assert_eq!(kept.position().history(), after_own.history());
    assert!(kept.tree_size().edges <= MctsConfig::with_budget(Budget::Playouts(1)).max_kept_edges);
    // The opponent answers with the reply the tree tried most.
    let reply = kept.root_stats()[0].clone();
    assert!(reply.visits > 1, "{reply:?}");
    let mut faced = after_own.clone();
    faced.play(reply.mv).unwrap();
    let mut expected = kept.clone();
    assert!(expected.advance_to(&faced));
    let carried = expected.root_visits();
    assert!(carried > 0);
    bot.choose(&faced).unwrap();
    assert_eq!(bot.carried_visits(), carried);

    // The same bot rebuilt for every move carries nothing over.
    let mut rebuilt = play::bots::RebuiltEachMove::<RumisGame>::new("mcts:p=400", 1).unwrap();
    let mut game = RumisGame::from_position(start);
    for _ in 0..3 {
        let seat = game.to_act().unwrap();
        let mv = rebuilt.choose(&game.position, seat).unwrap();
        assert_eq!(rebuilt.carried_visits(), 0);
        game.apply(seat, &mv).unwrap();
    }
}

/// Reuse is sound only within one game: another first-stone rule (R6/R14) with the
/// same moves, or a position that does not follow from the root (a move taken back),
/// starts a new tree; and a tiny bound keeps only the root.
#[test]
fn a_tree_is_reused_only_where_the_rule_allows() {
    use rumis::FirstStones;
    let face = RumisConfig::from_words(
        rumis::Scenario::builtin("chaka").unwrap(),
        5,
        "standard",
        Some("face"),
    )
    .unwrap();
    let edge = RumisConfig {
        first_stones: Some(FirstStones::Edge),
        ..face.clone()
    };
    let start = RumisGame::start(&face, 0).unwrap().position;
    let config = MctsConfig::with_budget(Budget::Playouts(200));
    let mut search = Search::new(start.clone(), config, 1);
    search.run();
    let other_rule = RumisGame::start(&edge, 0).unwrap().position;
    assert_eq!(other_rule.history(), start.history());
    assert!(!search.advance_to(&other_rule), "another first-stone rule");

    let mut search = Search::new(start.clone(), config, 1);
    search.run();
    let mut next = start.clone();
    next.play(search.best_move().unwrap()).unwrap();
    assert!(search.advance_to(&next));
    assert!(
        !search.advance_to(&start),
        "a move taken back starts afresh"
    );

    let tiny = MctsConfig {
        max_kept_edges: 0,
        ..config
    };
    let mut search = Search::new(start.clone(), tiny, 1);
    search.run();
    let best = search.root_stats()[0].clone();
    let mut next = start.clone();
    next.play(best.mv).unwrap();
    assert!(search.advance_to(&next));
    assert_eq!(search.tree_size().nodes, 1, "only the root is kept");
}

/// A long search stays within its tree bound (#56): the unbounded search of the same
/// budget grows far past it, the bounded one never holds more edges than the bound
/// (nor more nodes than edges and a root), on every move of a game, kept trees
/// included, and still answers a legal move.
#[test]
fn a_long_search_never_grows_its_tree_past_the_bound() {
    use play::mcts::{MctsBot, BYTES_PER_EDGE};
    use play::rumis_bots::RumisBot;
    let config = RumisConfig::builtin("chullpa", 4).unwrap();
    let start = RumisGame::start(&config, 0).unwrap().position;
    let budget = MctsConfig::with_budget(Budget::Playouts(3000));
    let mut unbounded = Search::new(start.clone(), budget, 1);
    unbounded.run();
    let bound = 20_000;
    assert!(
        unbounded.tree_size().edges > 3 * bound,
        "{:?}",
        unbounded.tree_size()
    );

    let bounded = MctsConfig {
        max_tree_edges: bound,
        max_kept_edges: bound / 4,
        ..budget
    };
    let mut bot = MctsBot::new(bounded, 1);
    let mut game = RumisGame::from_position(start);
    for _ in 0..8 {
        let Some(seat) = game.to_act() else { break };
        let mv = bot.choose(&game.position).expect("a move");
        let size = bot.search().unwrap().tree_size();
        assert!(size.edges <= bound / 4, "kept: {size:?}");
        game.apply(seat, &mv).unwrap();
        // Its search's tree, before the cut to the kept subtree.
        let mut search = Search::new(game.position.clone(), bounded, 2);
        search.run();
        let size = search.tree_size();
        assert!(size.edges <= bound, "{size:?}");
        assert!(size.nodes <= size.edges + 1, "{size:?}");
        assert!(
            size.bytes() <= BYTES_PER_EDGE * (size.edges + 1),
            "{size:?}"
        );
        if search.position().to_move().is_some() {
            assert!(search.best_move().is_some());
        }
    }
}
