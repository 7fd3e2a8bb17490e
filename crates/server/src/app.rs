//! The state the router serves with: the core ([`Hub`]: tables, seats, the action log,
//! live sockets, clocks, drivers, the bus) and each feature's own state, made once
//! from the server's options. Each feature module exports its routes
//! (`routes() -> OpenApiRouter<AppState>`) and its handlers take the parts they need
//! (`State<Arc<Hub>>`, `State<Arc<Reviews>>`, …): no feature reaches another's state,
//! and the core calls no feature (they hear it on the bus, `events`).

use std::sync::Arc;

use axum::extract::FromRef;

use crate::analysis::Analysis;
use crate::hints::Hints;
use crate::hub::Hub;
use crate::puzzles::Puzzles;
use crate::replays::Replays;
use crate::reviews::Reviews;
use crate::solo::Solo;
use crate::tutorial::Tutorials;

/// The core and every feature's state, cheap to clone (one `Arc` each).
#[derive(Clone)]
pub struct AppState {
    pub hub: Arc<Hub>,
    /// Hints at tables (`hints`).
    pub hints: Arc<Hints>,
    /// Finished games' replays (`replays`).
    pub replays: Arc<Replays>,
    /// Finished games' reviews (`reviews`).
    pub reviews: Arc<Reviews>,
    /// The daily Rummikub puzzles (`puzzles`).
    pub puzzles: Arc<Puzzles>,
    /// The solo cube (`solo`).
    pub solo: Arc<Solo>,
    /// The analysis board (`analysis`).
    pub analysis: Arc<Analysis>,
    /// The tutorials' checks (`tutorial`).
    pub tutorials: Arc<Tutorials>,
}

impl AppState {
    /// Each feature's state from the hub's options; the features that keep something
    /// of the tables subscribe to the hub's bus.
    pub fn new(hub: Arc<Hub>) -> AppState {
        let options = hub.options();
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let app = AppState {
            hints: Arc::new(Hints::new(options.hints.clone())),
            replays: Arc::new(Replays::new(options.replays.clone())),
            reviews: Arc::new(Reviews::new(options.reviews.clone(), cores)),
            puzzles: Arc::new(Puzzles::new(options.puzzles.clone(), options.clock.clone())),
            solo: Arc::new(Solo::new(options.solo.clone())),
            analysis: Arc::new(Analysis::new(options.analysis.clone())),
            tutorials: Arc::new(Tutorials::new(options.tutorials.clone())),
            hub,
        };
        app.replays.subscribe(app.hub.events());
        app
    }

    /// The metrics as text, with the gauges read now.
    pub fn render_metrics(&self) -> String {
        let metrics = self.hub.metrics();
        metrics.hints_queued.set(self.hints.queued() as i64);
        self.hub.render_metrics()
    }
}

/// Lets a handler take one part of the state (`State<Arc<Reviews>>`).
macro_rules! parts {
    ($($field:ident: $part:ty),* $(,)?) => {
        $(impl FromRef<AppState> for Arc<$part> {
            fn from_ref(app: &AppState) -> Self {
                app.$field.clone()
            }
        })*
    };
}

parts!(
    hub: Hub,
    hints: Hints,
    replays: Replays,
    reviews: Reviews,
    puzzles: Puzzles,
    solo: Solo,
    analysis: Analysis,
    tutorials: Tutorials,
);
