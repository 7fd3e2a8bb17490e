//! Ratings on one scale for people and bots: the Weng-Lin Bayesian model (OpenSkill's
//! Bradley-Terry model, from `skillratings`), updated from a game's final ranking, every
//! player their own team and tied players sharing a place.
//!
//! A rating is a mean `mu` and an uncertainty `sigma` on the model's scale (a new player
//! is 25 ± 25/3). People see it as `1500 + 30 (mu − 25)`: 30 shown points per unit of
//! `mu` makes a 400-point gap about 10:1 odds between settled players, as in Elo, and
//! starts everyone at 1500. A rating is provisional while its shown uncertainty is above
//! 110 (lichess's threshold for a provisional Glicko rating).

use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

use crate::game::Outcome;

/// Shown points per unit of the model's mean.
pub const SHOWN_PER_MU: f64 = 30.0;
/// A rating is provisional while its shown uncertainty is above this.
pub const PROVISIONAL_ABOVE: f64 = 110.0;

/// A rating on the model's scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub mu: f64,
    pub sigma: f64,
}

impl Default for Rating {
    fn default() -> Self {
        Rating::NEW
    }
}

impl Rating {
    /// A player who has not played yet.
    pub const NEW: Rating = Rating {
        mu: 25.0,
        sigma: 25.0 / 3.0,
    };

    /// The rating as people see it (1500 for a new player).
    pub fn shown(&self) -> f64 {
        1500.0 + SHOWN_PER_MU * (self.mu - 25.0)
    }

    /// The uncertainty (one standard deviation) as people see it.
    pub fn shown_uncertainty(&self) -> f64 {
        SHOWN_PER_MU * self.sigma
    }

    /// Whether the rating is still provisional.
    pub fn provisional(&self) -> bool {
        self.shown_uncertainty() > PROVISIONAL_ABOVE
    }
}

/// Each seat's place from a game's outcome (RT1), 1 for the best: the winners share place 1;
/// every other seat comes after them, by score (higher is better in both games: Rumis
/// points, R9, and Rummikub totals, K9), equal scores sharing a place.
pub fn places(outcome: &Outcome) -> Vec<usize> {
    let seats = outcome.scores.len();
    (0..seats)
        .map(|seat| {
            if outcome.winners.contains(&seat) {
                return 1;
            }
            let better = (0..seats)
                .filter(|&other| {
                    !outcome.winners.contains(&other)
                        && outcome.scores[other] > outcome.scores[seat]
                })
                .count();
            outcome.winners.len() + 1 + better
        })
        .collect()
}

/// The new ratings after one game: `players[i]` is a player's rating before the game
/// and their place (1 for the best; equal places are ties).
pub fn rate(players: &[(Rating, usize)]) -> Vec<Rating> {
    let teams: Vec<[WengLinRating; 1]> = players
        .iter()
        .map(|(r, _)| {
            [WengLinRating {
                rating: r.mu,
                uncertainty: r.sigma,
            }]
        })
        .collect();
    let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(players)
        .map(|(team, (_, place))| (&team[..], MultiTeamOutcome::new(*place)))
        .collect();
    weng_lin_multi_team(&ranked, &WengLinConfig::new())
        .into_iter()
        .map(|team| Rating {
            mu: team[0].rating,
            sigma: team[0].uncertainty,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(scores: &[f64], winners: &[usize]) -> Outcome {
        Outcome {
            scores: scores.to_vec(),
            winners: winners.to_vec(),
        }
    }

    #[test]
    fn places_follow_the_winners_then_the_scores() {
        assert_eq!(places(&outcome(&[3.0, 9.0, 5.0], &[1])), vec![3, 1, 2]);
        // A shared win, and a win by a tie-break over an equal score.
        assert_eq!(places(&outcome(&[9.0, 9.0, 1.0], &[0, 1])), vec![1, 1, 3]);
        assert_eq!(places(&outcome(&[7.0, 7.0, 7.0], &[2])), vec![2, 2, 1]);
    }

    #[test]
    fn the_winner_gains_what_the_loser_loses_and_both_grow_surer() {
        let after = rate(&[(Rating::NEW, 1), (Rating::NEW, 2)]);
        assert!(after[0].mu > 25.0 && after[1].mu < 25.0);
        assert!((after[0].mu - 25.0 - (25.0 - after[1].mu)).abs() < 1e-9);
        assert!(after.iter().all(|r| r.sigma < Rating::NEW.sigma));
    }

    #[test]
    fn a_tie_between_equals_moves_nobody() {
        let after = rate(&[(Rating::NEW, 1), (Rating::NEW, 1)]);
        assert!((after[0].mu - 25.0).abs() < 1e-9 && (after[1].mu - 25.0).abs() < 1e-9);
    }

    #[test]
    fn beating_a_stronger_player_gains_more() {
        let strong = Rating {
            mu: 35.0,
            sigma: 3.0,
        };
        let equal = rate(&[(Rating::NEW, 1), (Rating::NEW, 2)])[0].mu;
        let upset = rate(&[(Rating::NEW, 1), (strong, 2)])[0].mu;
        assert!(upset > equal);
    }

    #[test]
    fn a_new_rating_is_provisional_until_games_settle_it() {
        assert!(Rating::NEW.provisional());
        assert_eq!(Rating::NEW.shown(), 1500.0);
        let mut r = [Rating::NEW, Rating::NEW];
        for game in 0..40 {
            let first = game % 2;
            let places = [1 + first, 2 - first];
            r = rate(&[(r[0], places[0]), (r[1], places[1])])
                .try_into()
                .unwrap();
        }
        assert!(!r[0].provisional(), "{:?}", r[0]);
    }
}
