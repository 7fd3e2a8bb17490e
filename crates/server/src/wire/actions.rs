//! Actions: what a seat sends to play, read whole (in the engines' own notation) before any
//! game sees it.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

/// `POST /api/tables/{id}/actions`: an action made on a version of the table.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct ActionRequest {
    #[ts(as = "f64")]
    pub version: u64,
    pub action: GameAction,
}

/// A seat's action: a Rumis placement or a Rummikub turn. Read whole before any game
/// sees it (a malformed action is a 400 whosever turn it is); the table's game then
/// refuses an action of the other game (409). The log stores it in this same form.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
#[serde(untagged, try_from = "ActionFields")]
pub enum GameAction {
    Rummikub(RummikubAction),
    Rumis(RumisAction),
}

/// Rumis: a move in the project's notation (`L4 a1:1 b1:1 c1:1 a2:1`; R16 removals
/// `x L4`), or a stone and its cells `[x, y, z]` (0-based; z = 0 on the board).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
#[serde(untagged)]
pub enum RumisAction {
    Notation {
        #[serde(rename = "move")]
        #[ts(as = "String")]
        notation: RumisMove,
    },
    Cells {
        #[ts(as = "String")]
        stone: StoneCode,
        #[ts(as = "Vec<[u8; 3]>")]
        cells: Cells,
    },
}

/// Rummikub: the whole new table (K5), a draw (K6), a new deal for three pairs (K2),
/// or dealing the next round after one ended (K9). `timeout` is the server clock's
/// (K7), in the log; a seat that sends it is refused (409).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RummikubAction {
    Play {
        #[ts(as = "Vec<Vec<String>>")]
        table: Sets,
    },
    Draw,
    Redeal,
    NextRound,
    Timeout,
}

/// The type of a Rummikub action, as [`ActionFields`] reads it.
#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum RummikubType {
    Play,
    Draw,
    Redeal,
    NextRound,
    Timeout,
}

/// Every field an action may have, read first so that a malformed action gets a
/// message that says what is wrong (an untagged enum could only say "no variant").
#[derive(Deserialize)]
struct ActionFields {
    #[serde(rename = "type", default)]
    kind: Option<RummikubType>,
    #[serde(default)]
    table: Option<Sets>,
    #[serde(rename = "move", default)]
    notation: Option<RumisMove>,
    #[serde(default)]
    stone: Option<StoneCode>,
    #[serde(default)]
    cells: Option<Cells>,
}

impl TryFrom<ActionFields> for GameAction {
    type Error = String;

    fn try_from(fields: ActionFields) -> Result<GameAction, String> {
        let rumis = fields.notation.is_some() || fields.stone.is_some() || fields.cells.is_some();
        if let Some(kind) = fields.kind {
            if rumis {
                return Err("an action is a Rumis move (`move`, or `stone` and `cells`) or a Rummikub action (`type`), not both".into());
            }
            let action = match kind {
                RummikubType::Play => RummikubAction::Play {
                    table: fields
                        .table
                        .ok_or("a play needs `table`: the whole new table as lists of tiles")?,
                },
                RummikubType::Draw => RummikubAction::Draw,
                RummikubType::Redeal => RummikubAction::Redeal,
                RummikubType::NextRound => RummikubAction::NextRound,
                RummikubType::Timeout => RummikubAction::Timeout,
            };
            return Ok(GameAction::Rummikub(action));
        }
        if fields.table.is_some() {
            return Err("a Rummikub play needs `\"type\": \"play\"`".into());
        }
        match (fields.notation, fields.stone, fields.cells) {
            (Some(notation), None, None) => Ok(GameAction::Rumis(RumisAction::Notation { notation })),
            (Some(_), _, _) => Err("a Rumis action is a `move`, or a `stone` with its `cells`, not both".into()),
            (None, Some(stone), Some(cells)) => Ok(GameAction::Rumis(RumisAction::Cells { stone, cells })),
            (None, Some(_), None) => Err("the action needs `cells`: a list of [x, y, z] cells".into()),
            (None, None, Some(_)) => Err("the action needs `stone`: a stone code like \"L4\"".into()),
            (None, None, None) => Err("an action is {\"move\": \"L4 a1:1 …\"} or {\"stone\": \"L4\", \"cells\": [[x, y, z], …]} (Rumis), or {\"type\": \"play\", \"table\": [[…], …]}, {\"type\": \"draw\"}, {\"type\": \"redeal\"} or {\"type\": \"next_round\"} (Rummikub)".into()),
        }
    }
}

/// A string schema with a length limit and a pattern, for the types below.
fn string_schema(
    description: &str,
    max_length: Option<usize>,
    pattern: String,
) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(description))
        .max_length(max_length)
        .pattern(Some(pattern))
        .into()
}

/// A Rumis move in the engine's notation, read by the engine's parser
/// ([`rumis::notation::parse_written`]): a text it cannot read is refused with the
/// notation's own words. Written back as it was sent.
#[derive(Clone, Debug, PartialEq)]
pub struct RumisMove {
    text: String,
    written: rumis::notation::Written,
}

impl RumisMove {
    /// Longest move text, in characters.
    pub const MAX_CHARS: usize = 200;

    pub fn parse(text: &str) -> Result<RumisMove, String> {
        if text.chars().count() > Self::MAX_CHARS {
            return Err(format!("a move has at most {} characters", Self::MAX_CHARS));
        }
        let written = rumis::notation::parse_written(text).map_err(|e| e.to_string())?;
        Ok(RumisMove {
            text: text.to_string(),
            written,
        })
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn written(&self) -> &rumis::notation::Written {
        &self.written
    }
}

impl Serialize for RumisMove {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for RumisMove {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(d)?;
        RumisMove::parse(&text).map_err(serde::de::Error::custom)
    }
}

impl utoipa::PartialSchema for RumisMove {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        string_schema(
            "A move in the notation (`rumis::notation`): a stone and its cells, a drop, or (R16) a removal.",
            Some(Self::MAX_CHARS),
            rumis::notation::move_pattern(),
        )
    }
}

impl ToSchema for RumisMove {}

/// A Rumis stone by its code or alias (`L4`, `tripod`), as the engine reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoneCode(pub rumis::Stone);

impl Serialize for StoneCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.code())
    }
}

impl<'de> Deserialize<'de> for StoneCode {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let code = std::borrow::Cow::<str>::deserialize(d)?;
        rumis::Stone::from_code(&code)
            .map(StoneCode)
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "unknown stone `{}` (stones: D2 I3 L3 I4 O4 T4 L4 S4 Y4 A4 B4)",
                    code.chars().take(20).collect::<String>()
                ))
            })
    }
}

impl utoipa::PartialSchema for StoneCode {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        string_schema("A stone's code.", None, rumis::notation::stone_pattern())
    }
}

impl ToSchema for StoneCode {}

/// The cells `[x, y, z]` of a placed stone: at most 8, each coordinate 0 to 63.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cells(pub Vec<[u8; 3]>);

impl Cells {
    pub const MAX: usize = rumis::notation::MAX_WRITTEN_CELLS;
    /// Coordinates are below this.
    pub const LIMIT: u8 = 64;
}

impl<'de> Deserialize<'de> for Cells {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let cells = Vec::<[u8; 3]>::deserialize(d)?;
        if cells.len() > Self::MAX || cells.iter().flatten().any(|&n| n >= Self::LIMIT) {
            return Err(serde::de::Error::custom(format!(
                "`cells` must be a list of at most {} cells [x, y, z] of whole numbers 0 to {}",
                Self::MAX,
                Self::LIMIT - 1
            )));
        }
        Ok(Cells(cells))
    }
}

impl utoipa::PartialSchema for Cells {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Type};
        let coordinate = ObjectBuilder::new()
            .schema_type(Type::Integer)
            .minimum(Some(0))
            .maximum(Some(Self::LIMIT - 1));
        let cell = ArrayBuilder::new()
            .items(coordinate)
            .min_items(Some(3))
            .max_items(Some(3));
        ArrayBuilder::new()
            .items(cell)
            .max_items(Some(Self::MAX))
            .into()
    }
}

impl ToSchema for Cells {}

/// A Rummikub tile as the engine reads it (`r7`, `J`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileCode(pub rummikub::Tile);

impl Serialize for TileCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for TileCode {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(d)?;
        text.parse::<rummikub::Tile>().map(TileCode).map_err(|_| {
            let shown = text.chars().take(20).collect();
            serde::de::Error::custom(rummikub::tile::ParseTileError(shown))
        })
    }
}

/// A whole Rummikub table: its sets, at most the game's 106 tiles in all.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Sets(pub Vec<Vec<TileCode>>);

impl Sets {
    pub const MAX_TILES: usize = 106;

    pub fn from_sets(sets: &[rummikub::Set]) -> Sets {
        Sets(
            sets.iter()
                .map(|set| set.tiles().iter().copied().map(TileCode).collect())
                .collect(),
        )
    }

    pub fn to_sets(&self) -> Vec<rummikub::Set> {
        self.0
            .iter()
            .map(|set| rummikub::Set::new(set.iter().map(|t| t.0).collect()))
            .collect()
    }
}

impl<'de> Deserialize<'de> for Sets {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let sets = Vec::<Vec<TileCode>>::deserialize(d)?;
        let tiles: usize = sets.iter().map(Vec::len).sum();
        if tiles > Self::MAX_TILES {
            return Err(serde::de::Error::custom(format!(
                "a table holds at most the game's {} tiles, not {tiles}",
                Self::MAX_TILES
            )));
        }
        Ok(Sets(sets))
    }
}

impl utoipa::PartialSchema for Sets {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::ArrayBuilder;
        let tile = string_schema("A tile.", None, rummikub::Tile::PATTERN.to_string());
        ArrayBuilder::new()
            .description(Some(format!(
                "The sets, at most {} tiles in all.",
                Self::MAX_TILES
            )))
            .items(ArrayBuilder::new().items(tile))
            .max_items(Some(Self::MAX_TILES))
            .into()
    }
}

impl ToSchema for Sets {}
