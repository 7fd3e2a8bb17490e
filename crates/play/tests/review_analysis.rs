//! The search a review uses: every player's chances after the best move, from a fixed
//! number of playouts (the same answer every time), consistent with the mover's own.

use play::game::Game;
use play::mcts::{analyse_players, Budget, MctsConfig};
use play::rumis_game::{RumisConfig, RumisGame};

#[test]
fn every_players_chances_are_reproducible_and_agree_with_the_movers() {
    for players in [2, 4] {
        let config = RumisConfig::builtin("chullpa", players).unwrap();
        let mut game = RumisGame::start(&config, 3).unwrap();
        // A few moves in, so that the chances differ from player to player.
        for _ in 0..3 {
            let mv = game.position.legal_moves()[0];
            game.position.play_unchecked(mv);
        }
        let position = &game.position;
        let search = MctsConfig::with_budget(Budget::Playouts(400));
        let first = analyse_players(position, search, 7);
        assert_eq!(first, analyse_players(position, search, 7));
        assert_eq!(first.players.len(), usize::from(players));
        let sum: f64 = first.players.iter().sum();
        assert!((sum - 1.0).abs() < 1e-9, "{:?}", first.players);
        let mover = usize::from(position.actor().unwrap());
        let best = &first.moves[0];
        assert!((first.players[mover] - best.win_chance).abs() < 1e-9);
        assert_eq!(first.moves.iter().map(|m| m.visits).sum::<u32>(), 400);
    }
}
