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
    #[schema(value_type = WireAction)]
    #[ts(as = "WireAction")]
    pub action: GameAction,
}

/// A seat's action as the server and its games hold it: a Rumis placement or a
/// Rummikub turn. On the wire (and in the log) it is a [`WireAction`], one object
/// named by its `"type"`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "WireAction", into = "WireAction")]
pub enum GameAction {
    Rummikub(RummikubAction),
    Rumis(RumisAction),
}

/// Rumis: a move in the project's notation (`L4 a1:1 b1:1 c1:1 a2:1`; R16 removals
/// `x L4`), or a stone and its cells `[x, y, z]` (0-based; z = 0 on the board).
#[derive(Clone, Debug, PartialEq)]
pub enum RumisAction {
    Notation { notation: RumisMove },
    Cells { stone: StoneCode, cells: Cells },
}

/// Rummikub: the whole new table (K5), a draw (K6), a new deal for three pairs (K2),
/// or dealing the next round after one ended (K9). `Timeout` is the server clock's
/// (K7), in the log; a seat that sends it is refused (409).
#[derive(Clone, Debug, PartialEq)]
pub enum RummikubAction {
    Play { table: Sets },
    Draw,
    Redeal,
    NextRound,
    Timeout,
}

/// An action on the wire: one object whose `"type"` names it (as boardgame.io names
/// its moves), read straight from the bytes. The table's game refuses an action of
/// the other game (409). The log stores actions in this same form.
///
/// - `rumis_move`: a Rumis move in the notation, `{"type": "rumis_move", "move": "L4 a1:1 b1:1 c1:1 a2:1"}`
///   (R16 removals `x L4 …`);
/// - `rumis_place`: a Rumis stone and its cells `[x, y, z]` (0-based, z = 0 on the
///   board), `{"type": "rumis_place", "stone": "L4", "cells": [[0, 0, 0], …]}`;
/// - `play`: Rummikub, the whole new table (K5), `{"type": "play", "table": [["r7", "r8", "r9"], …]}`;
/// - `draw` (K6), `redeal` (three pairs, K2), `next_round` (after a round ended, K9);
/// - `timeout`: the server clock's (K7), in the log only; a seat that sends it is
///   refused (409).
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
#[ts(rename = "GameAction")]
pub enum WireAction {
    RumisMove {
        #[serde(rename = "move")]
        #[ts(as = "String")]
        notation: RumisMove,
    },
    RumisPlace {
        #[ts(as = "String")]
        stone: StoneCode,
        #[ts(as = "Vec<[u8; 3]>")]
        cells: Cells,
    },
    Play {
        #[ts(as = "Vec<Vec<String>>")]
        table: Sets,
    },
    Draw,
    Redeal,
    NextRound,
    Timeout,
}

impl From<WireAction> for GameAction {
    fn from(action: WireAction) -> GameAction {
        match action {
            WireAction::RumisMove { notation } => {
                GameAction::Rumis(RumisAction::Notation { notation })
            }
            WireAction::RumisPlace { stone, cells } => {
                GameAction::Rumis(RumisAction::Cells { stone, cells })
            }
            WireAction::Play { table } => GameAction::Rummikub(RummikubAction::Play { table }),
            WireAction::Draw => GameAction::Rummikub(RummikubAction::Draw),
            WireAction::Redeal => GameAction::Rummikub(RummikubAction::Redeal),
            WireAction::NextRound => GameAction::Rummikub(RummikubAction::NextRound),
            WireAction::Timeout => GameAction::Rummikub(RummikubAction::Timeout),
        }
    }
}

impl From<GameAction> for WireAction {
    fn from(action: GameAction) -> WireAction {
        match action {
            GameAction::Rumis(RumisAction::Notation { notation }) => {
                WireAction::RumisMove { notation }
            }
            GameAction::Rumis(RumisAction::Cells { stone, cells }) => {
                WireAction::RumisPlace { stone, cells }
            }
            GameAction::Rummikub(RummikubAction::Play { table }) => WireAction::Play { table },
            GameAction::Rummikub(RummikubAction::Draw) => WireAction::Draw,
            GameAction::Rummikub(RummikubAction::Redeal) => WireAction::Redeal,
            GameAction::Rummikub(RummikubAction::NextRound) => WireAction::NextRound,
            GameAction::Rummikub(RummikubAction::Timeout) => WireAction::Timeout,
        }
    }
}

/// The document's `GameAction`: one object per type, each with exactly its fields (a
/// field of another type is refused, so the document must not admit it).
impl utoipa::PartialSchema for WireAction {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{AdditionalProperties, ObjectBuilder, OneOfBuilder, Type};
        use utoipa::openapi::Ref;
        let mut one_of = OneOfBuilder::new().description(Some(
            "An action: one object named by its `type`. `rumis_move`: a Rumis move in the \
             notation (R16 removals `x L4 …`); `rumis_place`: a Rumis stone and its cells \
             [x, y, z] (0-based, z = 0 on the board); `play`: the whole new Rummikub table \
             (K5); `draw` (K6); `redeal` (three pairs, K2); `next_round` (after a round ended, \
             K9); `timeout`: the server clock's (K7), in the log only, refused from a seat.",
        ));
        for kind in ActionType::ALL {
            let mut object = ObjectBuilder::new()
                .schema_type(Type::Object)
                .property(
                    "type",
                    ObjectBuilder::new()
                        .schema_type(Type::String)
                        .enum_values(Some([kind.name()])),
                )
                .required("type")
                .additional_properties(Some(
                    AdditionalProperties::<utoipa::openapi::schema::Schema>::FreeForm(false),
                ));
            for field in kind.fields() {
                let schema = match *field {
                    "move" => "RumisMove",
                    "stone" => "StoneCode",
                    "cells" => "Cells",
                    _ => "Sets",
                };
                object = object
                    .property(*field, Ref::from_schema_name(schema))
                    .required(*field);
            }
            one_of = one_of.item(object);
        }
        one_of.into()
    }
}

impl ToSchema for WireAction {
    fn name() -> std::borrow::Cow<'static, str> {
        "GameAction".into()
    }

    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        use utoipa::PartialSchema;
        schemas.push(("RumisMove".into(), RumisMove::schema()));
        schemas.push(("StoneCode".into(), StoneCode::schema()));
        schemas.push(("Cells".into(), Cells::schema()));
        schemas.push(("Sets".into(), Sets::schema()));
    }
}

/// The `"type"` of a [`WireAction`].
#[derive(Clone, Copy, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum ActionType {
    RumisMove,
    RumisPlace,
    Play,
    Draw,
    Redeal,
    NextRound,
    Timeout,
}

impl ActionType {
    const ALL: [ActionType; 7] = [
        ActionType::RumisMove,
        ActionType::RumisPlace,
        ActionType::Play,
        ActionType::Draw,
        ActionType::Redeal,
        ActionType::NextRound,
        ActionType::Timeout,
    ];

    fn name(self) -> &'static str {
        match self {
            ActionType::RumisMove => "rumis_move",
            ActionType::RumisPlace => "rumis_place",
            ActionType::Play => "play",
            ActionType::Draw => "draw",
            ActionType::Redeal => "redeal",
            ActionType::NextRound => "next_round",
            ActionType::Timeout => "timeout",
        }
    }

    /// The fields an action of this type has besides `type`.
    fn fields(self) -> &'static [&'static str] {
        match self {
            ActionType::RumisMove => &["move"],
            ActionType::RumisPlace => &["stone", "cells"],
            ActionType::Play => &["table"],
            _ => &[],
        }
    }
}

/// A field of a [`WireAction`]: each name has one type whatever the action, so that a
/// field is read (and refused, under its own name) where it stands, before or after
/// the `type`.
#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "snake_case")]
enum ActionField {
    Type,
    Move,
    Stone,
    Cells,
    Table,
}

/// Sets a field read once; a second one is refused.
fn once<T, E: serde::de::Error>(
    slot: &mut Option<T>,
    name: &'static str,
    value: T,
) -> Result<(), E> {
    if slot.replace(value).is_some() {
        return Err(E::duplicate_field(name));
    }
    Ok(())
}

impl<'de> Deserialize<'de> for WireAction {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(WireActionVisitor)
    }
}

struct WireActionVisitor;

impl<'de> serde::de::Visitor<'de> for WireActionVisitor {
    type Value = WireAction;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an action: an object with its `type` (rumis_move, rumis_place, play, draw, redeal, next_round)")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<WireAction, A::Error> {
        use serde::de::Error;
        let (mut kind, mut notation, mut stone, mut cells, mut table) =
            (None, None, None, None, None);
        while let Some(field) = map.next_key::<ActionField>()? {
            match field {
                ActionField::Type => once(&mut kind, "type", map.next_value::<ActionType>()?)?,
                ActionField::Move => once(&mut notation, "move", map.next_value::<RumisMove>()?)?,
                ActionField::Stone => once(&mut stone, "stone", map.next_value::<StoneCode>()?)?,
                ActionField::Cells => once(&mut cells, "cells", map.next_value::<Cells>()?)?,
                ActionField::Table => once(&mut table, "table", map.next_value::<Sets>()?)?,
            }
        }
        let kind = kind.ok_or_else(|| {
            A::Error::custom("an action needs its `type`: rumis_move, rumis_place, play, draw, redeal or next_round")
        })?;
        let present = [
            ("move", notation.is_some()),
            ("stone", stone.is_some()),
            ("cells", cells.is_some()),
            ("table", table.is_some()),
        ];
        for (name, here) in present {
            if here && !kind.fields().contains(&name) {
                return Err(A::Error::custom(format!(
                    "a `{}` action has no `{name}`",
                    kind.name()
                )));
            }
        }
        let needs =
            |what: &str| A::Error::custom(format!("a `{}` action needs {what}", kind.name()));
        Ok(match kind {
            ActionType::RumisMove => WireAction::RumisMove {
                notation: notation
                    .ok_or_else(|| needs("`move`: a move like \"L4 a1:1 b1:1 c1:1 a2:1\""))?,
            },
            ActionType::RumisPlace => WireAction::RumisPlace {
                stone: stone.ok_or_else(|| needs("`stone`: a stone code like \"L4\""))?,
                cells: cells.ok_or_else(|| needs("`cells`: a list of [x, y, z] cells"))?,
            },
            ActionType::Play => WireAction::Play {
                table: table
                    .ok_or_else(|| needs("`table`: the whole new table as lists of tiles"))?,
            },
            ActionType::Draw => WireAction::Draw,
            ActionType::Redeal => WireAction::Redeal,
            ActionType::NextRound => WireAction::NextRound,
            ActionType::Timeout => WireAction::Timeout,
        })
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
