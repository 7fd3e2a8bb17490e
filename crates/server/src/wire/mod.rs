//! The wire contract: every request, answer, view and WebSocket message as a Rust type.
//! The server builds and reads only these; the OpenAPI document (`/api/openapi.json`)
//! and the client's TypeScript types (`web/src/generated/api.ts`) are generated from
//! them, so the three cannot disagree (a test keeps the generated files current).
//!
//! `requests` (what a client asks), `actions` (what a seat plays), `codes` (errors,
//! refusals, events), `views` (what a seat sees), `messages` (the WebSocket),
//! `tutorial` (the tutorials' steps and checks), `analysis` (the analysis board),
//! `puzzles` (the Rummikub puzzles).

mod accounts;
mod actions;
mod analysis;
mod codes;
mod messages;
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
pub use puzzles::*;
pub use requests::*;
pub use reviews::*;
pub use solo::*;
pub use tutorial::*;
pub use views::*;

/// Which game a table plays (`rumis`, `rummikub`): the games' one list, `play`'s.
pub use play::game::GameKind;

/// Reads a wire type from JSON text; an error names the field it is about
/// (`action.cells: invalid type: …`).
///
/// A whole number written as a float (`2.0`, `1e1`) is read as that integer: the
/// document is OpenAPI 3.1, whose JSON Schema `integer` admits it (and RFC 8259 has
/// one number type), so refusing it would refuse requests the document allows
/// (schemathesis sends them). Any other float is refused where an integer is expected.
pub fn read<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    let mut json = serde_json::Deserializer::from_slice(bytes);
    let mut number_line: serde_json::Value =
        serde::Deserialize::deserialize(&mut json).map_err(|e| e.to_string())?;
    json.end().map_err(|e| e.to_string())?;
    whole_numbers_as_integers(&mut number_line);
    serde_path_to_error::deserialize(number_line).map_err(|e| e.to_string())
}

/// Rewrites every whole-number float in `value` as the integer it spells.
fn whole_numbers_as_integers(value: &mut serde_json::Value) {
    use serde_json::Value as Json;
    match value {
        Json::Number(n) if n.is_f64() => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            // The bounds are exact powers of two: 2^64 and -2^63.
            if f.fract() == 0.0 && (0.0..18_446_744_073_709_551_616.0).contains(&f) {
                *value = Json::from(f as u64);
            } else if f.fract() == 0.0 && (-9_223_372_036_854_775_808.0..0.0).contains(&f) {
                *value = Json::from(f as i64);
            }
        }
        Json::Array(items) => items.iter_mut().for_each(whole_numbers_as_integers),
        Json::Object(fields) => fields.values_mut().for_each(whole_numbers_as_integers),
        _ => {}
    }
}
