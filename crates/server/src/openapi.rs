//! What no single type or route can say in the OpenAPI document. Routes are declared
//! once ([`crate::http`]) and each wire type carries its own schema, names and formats
//! included (`wire::names`: scenarios, variants, presets and bots from the engine); this
//! module adds only what spans several of them, so that a request the document admits
//! is one the server takes and one it forbids is one the server refuses
//! (`schemathesis` checks both ways):
//!
//! - rules across fields: a Rumis table has as many seats as players and takes the
//!   scenarios and variants made for that many, the creator's seat is a human one, a
//!   fixed seed is for practice tables only, a seat names a bot of its own game, each
//!   game takes only its own settings;
//! - links from a created or joined seat to the routes that take its id and token;
//! - the WebSocket upgrade's headers;
//! - the answers every route may give (408, 413, 415, 429, 500, 503), all `ErrorBody`.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use rumis::{Scenario, Setup, Variant};
use serde_json::{json, Value};

use crate::games;
use crate::live::WEBSOCKET_KEY_PATTERN;
use crate::wire::GameKind;

/// Seats are numbered from 0; a table has at most 6.
pub const MAX_SEAT: usize = 5;

/// The Rummikub rule presets (`rummikub::RuleSet::preset`).
pub const RUMMIKUB_PRESETS: [&str; 2] = rummikub::rules::PRESETS;

/// Rummikub tables seat 2 to 4 players.
pub const RUMMIKUB_PLAYERS: [usize; 3] = [2, 3, 4];

/// The variants a scenario can be played in, in the engine's order (standard first),
/// each with the player counts it takes on this board.
pub fn variant_players(scenario: &Scenario) -> Vec<(String, Vec<u8>)> {
    let playable = |variant: Variant, players: u8| {
        Setup::new(scenario.clone(), players)
            .with_variant(variant)
            .board_players()
            .is_ok_and(|p| match variant {
                Variant::Dismantle => scenario.dismantle_footprint().is_ok(),
                _ => scenario.footprint(p).is_ok(),
            })
    };
    Variant::ALL
        .iter()
        .map(|&v| {
            let counts: Vec<u8> = scenario
                .player_counts
                .keys()
                .copied()
                .filter(|&p| playable(v, p))
                .collect();
            (v.name().to_string(), counts)
        })
        .filter(|(_, counts)| !counts.is_empty())
        .collect()
}

/// The Rumis settings a table can be created with: for each player count and variant,
/// the scenarios that take them.
pub fn rumis_setups() -> &'static BTreeMap<(u8, String), Vec<String>> {
    static SETUPS: OnceLock<BTreeMap<(u8, String), Vec<String>>> = OnceLock::new();
    SETUPS.get_or_init(|| {
        let mut setups: BTreeMap<(u8, String), Vec<String>> = BTreeMap::new();
        for scenario in Scenario::builtins() {
            for (variant, counts) in variant_players(&scenario) {
                for players in counts {
                    setups
                        .entry((players, variant.clone()))
                        .or_default()
                        .push(scenario.key.clone());
                }
            }
        }
        setups
    })
}

fn bot_names(game: GameKind) -> Vec<&'static str> {
    games::bots(game).map(|b| b.spec).collect()
}

fn schema_ref(name: &str) -> Value {
    json!({ "$ref": format!("#/components/schemas/{name}") })
}

fn error_answer(description: &str) -> Value {
    json!({
        "description": description,
        "content": { "application/json": { "schema": schema_ref("ErrorBody") } }
    })
}

/// A seat request of one game: a person's seat (invited or open) or a bot's, with
/// that game's bot names.
fn seat_request(game: GameKind) -> Value {
    let name = json!({
        "description": "A default is given when missing.",
        "oneOf": [{ "type": "null" }, schema_ref("SeatName")],
    });
    let mut bots: Vec<Value> = bot_names(game).into_iter().map(Value::from).collect();
    bots.push(Value::Null);
    json!({
        "description": format!("A seat of a new {} table.", game.name()),
        "oneOf": [
            {
                "type": "object",
                "additionalProperties": false,
                "required": ["kind"],
                "properties": {
                    "kind": { "type": "string", "enum": ["human", "open"] },
                    "name": name,
                    "bot": { "type": "null" },
                },
            },
            {
                "type": "object",
                "additionalProperties": false,
                "required": ["kind"],
                "properties": {
                    "kind": { "type": "string", "const": "bot" },
                    "name": name,
                    "bot": {
                        "enum": bots,
                        "description": "The bot's name from `/api/meta`; `random` when missing.",
                    },
                },
            },
        ],
    })
}

/// `rumis` of a table with `players` seats: the scenarios and variants that take them.
fn rumis_settings_for(players: u8) -> Value {
    let choices: Vec<Value> = rumis_setups()
        .iter()
        .filter(|((p, _), _)| *p == players)
        .map(|((_, variant), scenarios)| {
            let mut choice = json!({
                "properties": {
                    "players": { "const": players },
                    "variant": { "const": variant },
                    "scenario": { "enum": scenarios },
                },
            });
            if variant != "standard" {
                choice["required"] = json!(["variant"]);
            }
            choice
        })
        .collect();
    json!({ "allOf": [schema_ref("RumisSettings")], "oneOf": choices })
}

/// `POST /api/tables`: the settings of one game, a seat per player, the creator's seat
/// a human one, and a fixed seed only where every other seat is a bot.
fn create_table_request(derived: &Value) -> Value {
    let mut games_and_seats: Vec<Value> = (2..=6u8)
        .filter(|&players| rumis_setups().keys().any(|(p, _)| *p == players))
        .map(|players| {
            json!({
                "required": ["rumis"],
                "properties": {
                    "game": { "const": "rumis" },
                    "rumis": rumis_settings_for(players),
                    "rummikub": { "type": "null" },
                    "seats": {
                        "minItems": players,
                        "maxItems": players,
                        "items": schema_ref("RumisSeatRequest"),
                    },
                },
            })
        })
        .collect();
    games_and_seats.push(json!({
        "properties": {
            "game": { "const": "rummikub" },
            "rumis": { "type": "null" },
            "seats": {
                "minItems": RUMMIKUB_PLAYERS[0],
                "maxItems": RUMMIKUB_PLAYERS[RUMMIKUB_PLAYERS.len() - 1],
                "items": schema_ref("RummikubSeatRequest"),
            },
        },
    }));
    let kind_is = |kind: &str| json!({ "properties": { "kind": { "const": kind } } });
    let mut rules = vec![json!({ "oneOf": games_and_seats })];
    // The creator's seat must be one of the human seats.
    for seat in 0..=MAX_SEAT {
        let mut prefix = vec![json!(true); seat];
        prefix.push(kind_is("human"));
        rules.push(json!({
            "if": { "required": ["creator_seat"], "properties": { "creator_seat": { "const": seat } } },
            "then": { "properties": { "seats": { "minItems": seat + 1, "prefixItems": prefix } } },
        }));
    }
    // A fixed seed: every seat but the creator's (given, or the first human seat) a bot.
    let mut practice: Vec<Value> = (0..=MAX_SEAT)
        .map(|seat| {
            let mut prefix = vec![kind_is("bot"); seat];
            prefix.push(json!(true));
            json!({
                "required": ["creator_seat"],
                "properties": {
                    "creator_seat": { "const": seat },
                    "seats": { "prefixItems": prefix, "items": kind_is("bot") },
                },
            })
        })
        .collect();
    practice.push(json!({
        "properties": {
            "creator_seat": { "type": "null" },
            "seats": {
                "items": { "properties": { "kind": { "enum": ["bot", "human"] } } },
                "contains": kind_is("human"),
                "minContains": 0,
                "maxContains": 1,
            },
        },
    }));
    rules.push(json!({
        "if": { "required": ["seed"], "properties": { "seed": { "type": "integer" } } },
        "then": { "anyOf": practice },
    }));
    let mut schema = derived.clone();
    schema["allOf"] = Value::Array(rules);
    schema
}

/// Tightens the derived document; see the module's documentation.
pub fn refine(doc: &mut Value) {
    let schemas = &mut doc["components"]["schemas"];
    schemas["RumisSeatRequest"] = seat_request(GameKind::Rumis);
    schemas["RummikubSeatRequest"] = seat_request(GameKind::Rummikub);
    schemas["CreateTableRequest"] = create_table_request(&schemas["CreateTableRequest"]);

    add_links(doc);
    for (path, item) in doc["paths"].as_object_mut().into_iter().flatten() {
        for (method, operation) in item.as_object_mut().into_iter().flatten() {
            refine_operation(path, method, operation);
        }
    }
}

/// Links from the answers that hand out a seat (creating a table, joining one) to the
/// operations that take its table id, seat and token.
fn add_links(doc: &mut Value) {
    let links = |id: &str, seat: &str, token: &str| {
        let operations = [
            ("View", "table_view", false, true),
            ("Join", "join", false, false),
            ("Act", "act", false, true),
            ("Check", "check", false, true),
            ("Hint", "hint", false, true),
            ("HandToBot", "hand_to_bot", true, true),
            ("TakeBack", "take_back", true, true),
            ("Rename", "rename", true, true),
            ("Replay", "replay", false, false),
            ("Review", "review", false, false),
        ];
        let mut links = serde_json::Map::new();
        for (name, operation, with_seat, with_token) in operations {
            let mut parameters = json!({ "path.id": id });
            if with_seat {
                parameters["path.seat"] = json!(seat);
            }
            if with_token {
                parameters["header.X-Seat-Token"] = json!(token);
            }
            links.insert(
                name.to_string(),
                json!({ "operationId": operation, "parameters": parameters }),
            );
        }
        Value::Object(links)
    };
    let paths = &mut doc["paths"];
    paths["/api/tables"]["post"]["responses"]["200"]["links"] = links(
        "$response.body#/id",
        "$response.body#/you/seat",
        "$response.body#/you/token",
    );
    paths["/api/tables/{id}/join"]["post"]["responses"]["200"]["links"] = links(
        "$request.path.id",
        "$response.body#/seat",
        "$response.body#/token",
    );
}

fn refine_operation(path: &str, method: &str, operation: &mut Value) {
    let has_body = operation.get("requestBody").is_some();
    let has_params = path.contains('{');
    if path.ends_with("/ws") {
        let header = |name: &str, schema: Value| json!({ "name": name, "in": "header", "required": true, "schema": schema });
        let params = operation["parameters"].as_array_mut().expect("parameters");
        // As axum's upgrade reads them: `Upgrade` is `websocket` and `Connection` holds
        // `upgrade`, in any case; the key is checked by `live::websocket`.
        params.push(header(
            "Upgrade",
            json!({ "type": "string", "pattern": format!("^{}$", rumis::notation::any_case("websocket")) }),
        ));
        params.push(header(
            "Connection",
            json!({ "type": "string", "pattern": rumis::notation::any_case("upgrade") }),
        ));
        params.push(header(
            "Sec-WebSocket-Version",
            json!({ "type": "string", "enum": ["13"] }),
        ));
        params.push(header(
            "Sec-WebSocket-Key",
            json!({
                "type": "string",
                "pattern": WEBSOCKET_KEY_PATTERN,
                "description": "16 random bytes in base64 (RFC 6455 §4.1)",
            }),
        ));
    }
    let responses = operation["responses"]
        .as_object_mut()
        .expect("every operation has responses");
    let mut add = |status: &str, description: &str| {
        let answer = responses
            .entry(status)
            .or_insert_with(|| error_answer(description));
        if answer.get("description").is_none_or(|d| d == "") {
            answer["description"] = json!(description);
        }
    };
    if has_body || has_params || method == "post" {
        add("400", "Malformed: the body, a parameter or the address");
    }
    if has_params {
        add("404", "No such table (or table id)");
    }
    if has_body {
        add(
            "413",
            "The body is over the server's limit (64 KiB by default)",
        );
    }
    if has_body || method == "post" {
        add(
            "415",
            "Not sent as JSON: a POST (and any body) needs Content-Type: application/json",
        );
    }
    add("408", "The request was not completed in time");
    add(
        "429",
        "Too many open connections (or requests) from this address",
    );
    add("500", "The server failed (a database error)");
    add("503", "The server has too many open connections");
    // OpenAPI requires a description of every answer.
    for (status, answer) in responses.iter_mut() {
        if answer.get("description").is_none_or(|d| d == "") {
            let reason = status
                .parse()
                .ok()
                .and_then(|s| axum::http::StatusCode::from_u16(s).ok())
                .and_then(|s| s.canonical_reason())
                .unwrap_or("An answer");
            answer["description"] = json!(reason);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{GameSettings, RumisSettings, TableSettings};

    /// The settings the document offers (and `/api/meta` lists) are exactly those a
    /// table can be created with.
    #[test]
    fn the_rumis_setups_are_those_the_engine_starts() {
        let setups = rumis_setups();
        for scenario in Scenario::builtins() {
            for variant in Variant::ALL {
                for players in 2..=6u8 {
                    let settings = TableSettings::new(
                        GameSettings::Rumis(RumisSettings {
                            scenario: scenario.key.as_str().into(),
                            players,
                            variant: variant.name().into(),
                            turn_seconds: None,
                        }),
                        usize::from(players),
                    );
                    let offered = setups
                        .get(&(players, variant.name().to_string()))
                        .is_some_and(|keys| keys.contains(&scenario.key));
                    assert_eq!(
                        games::new_game(&settings, 7).is_ok(),
                        offered,
                        "{} {} {players}",
                        scenario.key,
                        variant.name()
                    );
                }
            }
        }
    }
}
