//! The names a request gives: a scenario, a variant, a rule preset, a bot, a seat's
//! name. Each is its own type with its own schema, built from the engine where the
//! engine holds the list, so that the document says exactly which names the server
//! takes. They read as any text: a name the server does not know is refused by the
//! code that looks it up, in its own words.

use std::fmt;

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::RefOr;
use utoipa::ToSchema;

use crate::hub::MAX_NAME_CHARS;

/// Declares a name type: text on the wire (`string` in TypeScript), `str` in Rust.
macro_rules! name_type {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
        #[serde(transparent)]
        #[ts(as = "String")]
        pub struct $name(pub String);

        impl std::ops::Deref for $name {
            type Target = str;
            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl From<&str> for $name {
            fn from(name: &str) -> Self {
                $name(name.to_string())
            }
        }

        impl From<String> for $name {
            fn from(name: String) -> Self {
                $name(name)
            }
        }

        impl From<$name> for String {
            fn from(name: $name) -> String {
                name.0
            }
        }

        impl ToSchema for $name {}
    )*};
}

name_type! {
    /// A built-in Rumis scenario's key (`chullpa`); `/api/meta` lists them.
    ScenarioKey;
    /// A Rumis variant's name (`standard`, `dismantle`, …); `/api/meta` lists them.
    VariantName;
    /// A Rummikub rule preset: `current` or `old` (K10).
    RulesPreset;
    /// A bot's name as `/api/meta` lists it (`greedy`, `mcts:2000`).
    BotName;
    /// The name a person sits under.
    SeatName;
    /// A seat's new name: like [`SeatName`], and not empty.
    NewName;
    /// A table's id in an address: `t` and 12 hex digits (`hub::valid_table_id`).
    TableId;
    /// A seat's secret token (`X-Seat-Token`): 32 hex digits; empty is the same as none.
    SeatToken;
}

/// A string schema of this pattern.
fn pattern(description: &str, pattern: &str) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(description))
        .pattern(Some(pattern))
        .into()
}

impl TableId {
    pub const PATTERN: &str = "^t[0-9a-fA-F]{12}$";
}

impl utoipa::PartialSchema for TableId {
    fn schema() -> RefOr<Schema> {
        pattern("A table's id: `t` and 12 hex digits.", TableId::PATTERN)
    }
}

impl SeatToken {
    pub const PATTERN: &str = "^([0-9a-fA-F]{32})?$";
}

impl utoipa::PartialSchema for SeatToken {
    fn schema() -> RefOr<Schema> {
        pattern(
            "A seat's secret token (32 hex digits); empty is the same as none.",
            SeatToken::PATTERN,
        )
    }
}

/// A string schema of exactly these values.
fn one_of(description: &str, values: Vec<String>) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(description))
        .enum_values(Some(values))
        .into()
}

impl utoipa::PartialSchema for ScenarioKey {
    fn schema() -> RefOr<Schema> {
        let keys = rumis::Scenario::builtins().into_iter().map(|s| s.key);
        one_of(
            "A built-in scenario's key; see `/api/meta`.",
            keys.collect(),
        )
    }
}

impl utoipa::PartialSchema for VariantName {
    fn schema() -> RefOr<Schema> {
        let names = rumis::Variant::ALL.iter().map(|v| v.name().to_string());
        one_of("A Rumis variant; see `/api/meta`.", names.collect())
    }
}

impl utoipa::PartialSchema for RulesPreset {
    fn schema() -> RefOr<Schema> {
        let presets = rummikub::rules::PRESETS.iter().map(|p| p.to_string());
        one_of("A Rummikub rule preset (K10).", presets.collect())
    }
}

impl BotName {
    /// Every bot's name, of either game, each once.
    pub fn all() -> Vec<&'static str> {
        let mut names = Vec::new();
        for game in super::GameKind::ALL {
            for bot in crate::games::bots(game) {
                if !names.contains(&bot.spec) {
                    names.push(bot.spec);
                }
            }
        }
        names
    }
}

impl utoipa::PartialSchema for BotName {
    fn schema() -> RefOr<Schema> {
        let names = BotName::all().into_iter().map(str::to_string);
        one_of("A bot's name; see `/api/meta`.", names.collect())
    }
}

/// White space as Rust's `str::trim` sees it, less the control characters (which a
/// name may not hold at all).
const SPACE: &str = " \u{a0}\u{1680}\u{2000}-\u{200a}\u{2028}\u{2029}\u{202f}\u{205f}\u{3000}";

/// Characters that hide or reorder text, which `names::clean_name` refuses.
const HIDDEN: &str = "\u{e0000}-\u{e007f}\u{ad}\u{34f}\u{61c}\u{115f}\u{1160}\u{17b4}\u{17b5}\u{180b}-\u{180f}\u{200b}-\u{200f}\u{202a}-\u{202e}\u{2060}-\u{206f}\u{2800}\u{3164}\u{fe00}-\u{fe0f}\u{feff}\u{ffa0}";

impl SeatName {
    /// A seat name as `names::clean_name` takes it: no control or hidden characters,
    /// and at most [`MAX_NAME_CHARS`] characters once the white space around it is
    /// trimmed.
    pub fn pattern() -> String {
        format!("^[{SPACE}]*[^\\x00-\\x1F\\x7F-\\x9F{HIDDEN}]{{0,{MAX_NAME_CHARS}}}[{SPACE}]*$")
    }
}

impl utoipa::PartialSchema for SeatName {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(format!(
                "Up to {MAX_NAME_CHARS} characters (white space around it is trimmed), no \
                 control or hidden characters, not like another seat's name."
            )))
            .pattern(Some(SeatName::pattern()))
            .into()
    }
}

impl utoipa::PartialSchema for NewName {
    fn schema() -> RefOr<Schema> {
        // At least one character that is not white space.
        let pattern = format!(
            "^[{SPACE}]*[^\\x00-\\x1F\\x7F-\\x9F{HIDDEN}{SPACE}][^\\x00-\\x1F\\x7F-\\x9F{HIDDEN}]{{0,{}}}[{SPACE}]*$",
            MAX_NAME_CHARS - 1
        );
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(format!(
                "1 to {MAX_NAME_CHARS} characters that say something (white space around \
                 them is trimmed), no control or hidden characters."
            )))
            .pattern(Some(pattern))
            .into()
    }
}
