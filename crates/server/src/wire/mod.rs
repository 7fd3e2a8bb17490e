//! The wire contract: every request, answer, view and WebSocket message as a Rust type.
//! The server builds and reads only these; the OpenAPI document (`/api/openapi.json`)
//! and the client's TypeScript types (`web/src/generated/api.ts`) are generated from
//! them, so the three cannot disagree (a test keeps the generated files current).
//!
//! `requests` (what a client asks), `names` (the names a request gives, each with
//! its schema), `actions` (what a seat plays), `codes` (errors,
//! refusals, events), `views` (what a seat sees), `messages` (the WebSocket),
//! `tutorial` (the tutorials' steps and checks), `analysis` (the analysis board),
//! `puzzles` (the Rummikub puzzles).

mod accounts;
mod actions;
mod analysis;
mod codes;
mod messages;
mod names;
mod puzzles;
mod requests;
mod reviews;
mod solo;
#[cfg(test)]
mod tests;
mod tutorial;
mod views;

pub use accounts::*;
pub use actions::*;
pub use analysis::*;
pub use codes::*;
pub use messages::*;
pub use names::*;
pub use puzzles::*;
pub use requests::*;
pub use reviews::*;
pub use solo::*;
pub use tutorial::*;
pub use views::*;

/// Which game a table plays (`rumis`, `rummikub`): the games' one list, `play`'s.
pub use play::game::GameKind;

/// Reads a wire type straight from JSON text; an error names the field it is about
/// (`action.cells[0]: invalid type: …`). A number where the document says `integer`
/// must be written as one (`2`, not `2.0`).
pub fn read<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    let mut json = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut json).map_err(|e| e.to_string())?;
    json.end().map_err(|e| e.to_string())?;
    Ok(value)
}
