//! Bots for Rumis: a random bot and a greedy one.
//!
//! A bot chooses a stone for the colour to move ([`Position::to_move`]). In the
//! four-colour variant (R10) that colour belongs to a player who owns two; while the
//! ruin is built (R11, [`Position::building_ruin`]) it is the neutral colour, placed by
//! whichever player's turn it is ([`Position::actor`]).
//!
//! - [`RandomBot`]: a legal move drawn uniformly ([`Position::random_move`]).
//! - [`GreedyBot`]: the best immediate score. It maximises, in this order,
//!   1. the moving player's points after the move, as [`Position::score`] counts them
//!      (R9: own visible tops minus unplaced stones; R10: the player's best colour);
//!   2. the points of the colour being placed (this only decides anything in the
//!      four-colour variant, where the player's other colour may be the best one);
//!   3. the number of opponents' tops it covers (tops of colours owned by another
//!      player; covering one's own other colour or the neutral ruin does not count);
//!   4. then uniformly at random among the moves still tied.
//!
//!   While the ruin is built no player has a stone on the board, so no neutral stone
//!   changes anyone's points: the greedy bot then places the neutral stone uniformly at
//!   random, like the random bot.
//!
//!   In the dismantling phase of R16 a turn is two moves: take a stone off inside the
//!   red line, then place it outside. Taking off changes no points by itself (the stone
//!   in hand costs what it cost inside the red line), so the greedy bot looks one move
//!   further: it takes off the stone whose best placement afterwards scores best (a
//!   stone that cannot be placed is set aside and scores as such), then places it
//!   greedily as above.
//!
//! Every bot draws its chance from its own [`ChaCha8Rng`], seeded when it is built: the
//! same seed and the same positions give the same moves.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rumis::{Colour, Move, Position};

/// Something that chooses Rumis moves.
pub trait RumisBot {
    /// Short name, as on the command line (`random`, `greedy`).
    fn name(&self) -> &'static str;

    /// A legal move for the colour to move, or `None` when the game is over.
    fn choose(&mut self, position: &Position) -> Option<Move>;

    /// Search work carried over from earlier moves into the last choice (a kept MCTS
    /// tree's root visits); 0 for bots that keep none.
    fn carried_visits(&self) -> u32 {
        0
    }
}

/// Plays a uniformly random legal move.
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl RumisBot for RandomBot {
    fn name(&self) -> &'static str {
        "random"
    }

    fn choose(&mut self, position: &Position) -> Option<Move> {
        position.random_move(&mut self.rng)
    }
}

/// Plays the move with the best immediate score (see the module documentation).
pub struct GreedyBot {
    rng: ChaCha8Rng,
}

impl GreedyBot {
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

/// What the greedy bot compares, best first (larger is better, field by field).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct GreedyEval {
    /// The moving player's points after the move (R9, R10).
    pub player_points: i32,
    /// The placed colour's points after the move.
    pub colour_points: i32,
    /// Opponents' tops the stone covers.
    pub covered: u32,
}

/// How a move would change the score, without playing it: the stone's columns get the
/// moving colour on top (R3 keeps the build a height map, so a stone always ends on top
/// of every column it stands in) and the colour has one stone fewer unplaced.
///
/// Returns `None` when the game is over or the neutral ruin colour is to move (R11),
/// where no player's points can change.
pub fn greedy_eval(position: &Position, colour_points: &[i32], mv: Move) -> Option<GreedyEval> {
    let colour = position.to_move()?;
    let player = position.owner(colour)?;
    if position.building_ruin() {
        return None;
    }
    let mut points = colour_points.to_vec();
    // One stone fewer unplaced (R9).
    points[colour.index()] += 1;
    let mut covered = 0;
    for span in position.board().placement(mv).spans() {
        let below = position.top(span.column as usize);
        if below == Some(colour) {
            continue;
        }
        points[colour.index()] += 1;
        if let Some(other) = below {
            points[other.index()] -= 1;
            if matches!(position.owner(other), Some(p) if p != player) {
                covered += 1;
            }
        }
    }
    let player_points = position
        .colours_of(player)
        .iter()
        .map(|c: &Colour| points[c.index()])
        .max()
        .unwrap_or(0);
    Some(GreedyEval {
        player_points,
        colour_points: points[colour.index()],
        covered,
    })
}

impl RumisBot for GreedyBot {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn choose(&mut self, position: &Position) -> Option<Move> {
        position.to_move()?;
        if position.building_ruin() {
            // R11: neutral stones change no player's points; place one at random.
            return position.random_move(&mut self.rng);
        }
        let mut tied = Tied::default();
        if position.removing() {
            // R16: judge each stone to take off by its best placement afterwards.
            for mv in position.legal_moves() {
                let mut after = position.clone();
                after.play_unchecked(mv);
                tied.offer(removal_eval(position, &after), mv);
            }
        } else {
            let colour_points = position.score().colour_points;
            position.for_each_legal(|mv| {
                if let Some(eval) = greedy_eval(position, &colour_points, mv) {
                    tied.offer(eval, mv);
                }
            });
        }
        (!tied.moves.is_empty()).then(|| tied.moves[self.rng.gen_range(0..tied.moves.len())])
    }
}

/// The moves tied for the best evaluation so far.
#[derive(Default)]
struct Tied {
    best: Option<GreedyEval>,
    moves: Vec<Move>,
}

impl Tied {
    fn offer(&mut self, eval: GreedyEval, mv: Move) {
        match self.best {
            Some(b) if eval < b => {}
            Some(b) if eval == b => self.moves.push(mv),
            _ => {
                self.best = Some(eval);
                self.moves.clear();
                self.moves.push(mv);
            }
        }
    }
}

/// R16: the value of taking a stone off (`after` is the position once it is off): the
/// best greedy placement of it, or, when it was set aside, the score as it stands.
fn removal_eval(before: &Position, after: &Position) -> GreedyEval {
    let colour = before
        .to_move()
        .expect("a removal is made by the colour to move");
    let player = before.owner(colour).expect("players own their colours");
    if after.stone_in_hand().is_some() && after.to_move() == Some(colour) {
        let colour_points = after.score().colour_points;
        let mut best: Option<GreedyEval> = None;
        after.for_each_legal(|mv| {
            best = best.max(greedy_eval(after, &colour_points, mv));
        });
        if let Some(best) = best {
            return best;
        }
    }
    let score = after.score();
    GreedyEval {
        player_points: score.player_points[player as usize],
        colour_points: score.colour_points[colour.index()],
        covered: 0,
    }
}

/// Plays a game to its end through the match runner
/// ([`crate::match_runner::play_from`]): the bot of the player who places next
/// ([`Position::actor`]) chooses each move. `bots` has one bot per player.
pub fn play_out(position: Position, bots: Vec<Box<dyn RumisBot + Send>>) -> Position {
    let mut seats: Vec<_> = bots.into_iter().map(crate::bots::rumis_seat).collect();
    let game = crate::rumis_game::RumisGame::from_position(position);
    crate::match_runner::play_from(game, &mut seats, &mut |_, _, _| {})
        .expect("a colour to move has a legal move (R8), and bots choose among them")
        .position
}

#[cfg(test)]
mod tests {
    use super::*;
    use rumis::{Scenario, Setup, Variant};

    fn new_game(key: &str, players: u8, variant: Variant, seed: u64) -> Position {
        let setup = Setup::new(Scenario::builtin(key).expect("built-in scenario"), players)
            .with_variant(variant)
            .with_seed(seed);
        Position::new(setup).expect("valid setup")
    }

    /// The greedy bot or the random one.
    fn build(greedy: bool, seed: u64) -> Box<dyn RumisBot + Send> {
        if greedy {
            Box::new(GreedyBot::new(seed))
        } else {
            Box::new(RandomBot::new(seed))
        }
    }

    /// Win share of seat `seat`: 1 for a sole win, 1/n for a win shared by n (R9).
    fn share(position: &Position, seat: u8) -> f64 {
        let winners = position.score().winners;
        if winners.contains(&seat) {
            1.0 / winners.len() as f64
        } else {
            0.0
        }
    }

    /// Greedy against random over `games` two-player games, seats alternating; checks
    /// each end with `check` and returns greedy's share of the wins.
    fn greedy_against_random(
        games: u64,
        seed: u64,
        new: impl Fn(u64) -> Position,
        check: impl Fn(&Position),
    ) -> f64 {
        let mut greedy_share = 0.0;
        for g in 0..games {
            let greedy_seat = (g % 2) as u8;
            let bots = (0..2)
                .map(|p| build(p == greedy_seat, seed * g + p as u64))
                .collect();
            let end = play_out(new(g), bots);
            assert!(end.is_over());
            check(&end);
            greedy_share += share(&end, greedy_seat);
        }
        greedy_share / games as f64
    }

    #[test]
    fn greedy_beats_random_on_chullpa_two_players() {
        let rate = greedy_against_random(
            40,
            1000,
            |g| new_game("chullpa", 2, Variant::Standard, g),
            |_| {},
        );
        assert!(
            rate > 0.6,
            "greedy won only {:.0}% against random",
            rate * 100.0
        );
    }

    #[test]
    fn bots_only_return_legal_moves_in_every_variant() {
        let cases = [
            ("chullpa", 2, Variant::Standard),
            ("pirka", 3, Variant::Standard),
            ("coricancha", 4, Variant::Standard),
            ("pisac", 2, Variant::FourColours),
            ("tambo", 2, Variant::Ruinas),
            ("cucho", 3, Variant::RuinasRandom),
            // Rumis+: 5 and 6 players (R13, R14), inverse (R15), dismantling (R16).
            ("chaka", 5, Variant::Standard),
            ("huaca", 6, Variant::Inverse),
            ("colca", 2, Variant::Dismantle),
            ("puncu", 2, Variant::Dismantle),
            ("apachita", 2, Variant::Dismantle),
        ];
        for (i, (key, players, variant)) in cases.into_iter().enumerate() {
            for greedy in [false, true] {
                let mut position = new_game(key, players, variant, i as u64);
                let mut bot = build(greedy, i as u64);
                let mut moves = 0;
                while position.to_move().is_some() {
                    let mv = bot.choose(&position).expect("a colour to move can move");
                    assert!(
                        position.is_legal(mv),
                        "{} chose an illegal move on {key} {variant}",
                        bot.name()
                    );
                    position.play(mv).expect("legal");
                    moves += 1;
                }
                assert!(position.is_over(), "{key} {variant}: the game ends");
                assert!(moves > 0);
                assert_eq!(bot.choose(&position), None, "no move once the game is over");
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_game() {
        let game = |seed: u64| {
            let bots = vec![build(true, seed), build(false, seed + 1)];
            play_out(new_game("tambo", 2, Variant::Standard, 0), bots)
                .history()
                .to_vec()
        };
        assert_eq!(game(5), game(5));
        assert_ne!(game(5), game(6), "another seed breaks ties differently");
    }

    /// The greedy choice is checked against the engine itself: each legal move is
    /// played on a copy and scored with `Position::score`.
    #[test]
    fn greedy_picks_a_move_with_the_best_score_after_it() {
        for (key, players, variant) in [
            ("chullpa", 2, Variant::Standard),
            ("pirka", 4, Variant::Standard),
            ("chullpa", 2, Variant::FourColours),
        ] {
            let mut position = new_game(key, players, variant, 3);
            let mut random = RandomBot::new(11);
            let mut greedy = GreedyBot::new(12);
            let mut checked = 0;
            while let Some(colour) = position.to_move() {
                let player = position.owner(colour).expect("no ruin here");
                let owner_colours = position.colours_of(player);
                let after = |mv: Move| {
                    let mut copy = position.clone();
                    copy.play(mv).expect("legal");
                    let score = copy.score();
                    let covered = position
                        .board()
                        .placement(mv)
                        .spans()
                        .iter()
                        .filter(|s| {
                            matches!(position.top(s.column as usize),
                                Some(c) if !owner_colours.contains(&c))
                        })
                        .count() as u32;
                    GreedyEval {
                        player_points: score.player_points[player as usize],
                        colour_points: score.colour_points[colour.index()],
                        covered,
                    }
                };
                let best = position
                    .legal_moves()
                    .into_iter()
                    .map(after)
                    .max()
                    .expect("moves");
                let choice = greedy.choose(&position).expect("a move");
                assert_eq!(after(choice), best, "{key} {variant} ply {}", checked);
                checked += 1;
                // Walk on with random moves so that many kinds of positions are seen.
                let mv = random.choose(&position).expect("a move");
                position.play(mv).expect("legal");
            }
            assert!(checked > 10);
        }
    }

    /// R16: both bots play the dismantling game through both phases to its end, and the
    /// greedy one beats the random one more often than not.
    #[test]
    fn bots_play_the_dismantling_game_through() {
        let boards = ["colca", "puncu", "apachita"];
        let rate = greedy_against_random(
            16,
            10,
            |g| new_game(boards[g as usize % 3], 2, Variant::Dismantle, g),
            |end| {
                assert!(end.interim().is_some());
                assert!(end
                    .events()
                    .iter()
                    .any(|e| matches!(e, rumis::Event::Interim { .. })));
            },
        );
        assert!(rate > 0.5, "greedy won only {:.0}%", rate * 100.0);
    }
}
