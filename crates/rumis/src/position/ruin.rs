//! R11, the ruin variant with a random ruin: the software builds the neutral colour's
//! ruin from the seed before the players' first move.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{Phase, Position};

impl Position {
    /// R11, random ruin: the neutral colour's stones are placed by random legal moves
    /// drawn from the setup's seed, until the neutral colour cannot place any more.
    pub(super) fn build_random_ruin(&mut self) {
        let mut rng = ChaCha8Rng::seed_from_u64(self.setup.seed);
        while self.phase == Phase::Ruin {
            let mv = self
                .random_move(&mut rng)
                .expect("the colour to move has a legal move");
            self.play_unchecked(mv);
        }
        self.generated = self.history.len();
    }
}
