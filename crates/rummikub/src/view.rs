//! Hidden information: what one player may know. A screen is drawn from a view alone;
//! the full [`Round`] (other racks, pool order, the generator) never leaves the engine.

use crate::round::{Round, RoundOutcome};
use crate::rules::RuleSet;
use crate::set::Set;
use crate::tile::Tile;

/// One player's view of a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerView {
    pub rules: RuleSet,
    /// Whose view this is (0-based).
    pub player: usize,
    /// The viewer's own rack, sorted.
    pub rack: Vec<Tile>,
    /// Tiles on every rack, by seat (sizes are public).
    pub rack_sizes: Vec<usize>,
    /// Which players have made their initial meld.
    pub melded: Vec<bool>,
    pub pool_size: usize,
    pub table: Vec<Set>,
    pub current_player: usize,
    /// Whether the viewer may demand a new deal now (K2).
    pub can_claim_redeal: bool,
    /// Set when the round is over: then every rack's value is public.
    pub outcome: Option<RoundOutcome>,
    /// Totals over the finished rounds of the game, by seat (empty for a lone round).
    pub totals: Vec<i32>,
}

impl Round {
    /// What `player` may see. Out-of-range players get an empty rack.
    pub fn view(&self, player: usize) -> PlayerView {
        PlayerView {
            rules: self.rules().clone(),
            player,
            rack: self.rack(player),
            rack_sizes: (0..self.players()).map(|p| self.rack_len(p)).collect(),
            melded: (0..self.players()).map(|p| self.has_melded(p)).collect(),
            pool_size: self.pool_len(),
            table: self.table().to_vec(),
            current_player: self.current_player(),
            can_claim_redeal: player < self.players() && self.can_claim_redeal(player),
            outcome: self.outcome().cloned(),
            totals: Vec::new(),
        }
    }
}

/// A view as `key: value` lines, what the engine protocol's `setview` sends to an
/// external bot: `rules` (current or old), `seat` (1-based), `rack`, `racks` (every
/// rack's size), `melded` (yes/no by seat), `pool`, `table`. Custom rule sets have no
/// name to send and are refused.
pub fn write_view(view: &PlayerView) -> Result<Vec<String>, String> {
    let rules = ["current", "old"]
        .into_iter()
        .find(|name| RuleSet::preset(name).as_ref() == Some(&view.rules))
        .ok_or("only the current and old rule sets can be sent by name")?;
    let join = |words: Vec<String>| words.join(" ");
    Ok(vec![
        format!("rules: {rules}"),
        format!("seat: {}", view.player + 1),
        format!("rack: {}", crate::notation::format_tiles(&view.rack)),
        format!(
            "racks: {}",
            join(view.rack_sizes.iter().map(|n| n.to_string()).collect())
        ),
        format!(
            "melded: {}",
            join(
                view.melded
                    .iter()
                    .map(|&m| if m { "yes" } else { "no" }.to_string())
                    .collect()
            )
        ),
        format!("pool: {}", view.pool_size),
        format!("table: {}", crate::notation::format_table(&view.table)),
    ])
}

/// Reads the lines of [`write_view`] back into the view of the seat to act.
pub fn parse_view(lines: &[String]) -> Result<PlayerView, String> {
    let mut fields = std::collections::HashMap::new();
    for line in lines.iter().map(|l| l.trim()).filter(|l| !l.is_empty()) {
        let (key, value) = line
            .split_once(':')
            .ok_or_else(|| format!("expected `key: value`, got `{line}`"))?;
        let key = key.trim().to_ascii_lowercase();
        const KEYS: [&str; 7] = ["rules", "seat", "rack", "racks", "melded", "pool", "table"];
        if !KEYS.contains(&key.as_str()) {
            return Err(format!(
                "a view has no `{key}` (it has {})",
                KEYS.join(", ")
            ));
        }
        fields.insert(key, value.trim().to_string());
    }
    let get = |key: &str| {
        fields
            .get(key)
            .map(String::as_str)
            .ok_or_else(|| format!("the view lacks `{key}:`"))
    };
    let number = |key: &str, text: &str| {
        text.parse::<usize>()
            .map_err(|_| format!("`{key}` takes whole numbers, not `{text}`"))
    };
    let rules = RuleSet::preset(get("rules")?).ok_or_else(|| {
        format!(
            "unknown rule set `{}` (current, old)",
            get("rules").unwrap_or("")
        )
    })?;
    let rack_sizes = get("racks")?
        .split_whitespace()
        .map(|n| number("racks", n))
        .collect::<Result<Vec<usize>, String>>()?;
    let melded = get("melded")?
        .split_whitespace()
        .map(|m| match m {
            "yes" => Ok(true),
            "no" => Ok(false),
            other => Err(format!("`melded` takes yes or no per seat, not `{other}`")),
        })
        .collect::<Result<Vec<bool>, String>>()?;
    let seat = number("seat", get("seat")?)?;
    if !(2..=4).contains(&rack_sizes.len()) || melded.len() != rack_sizes.len() {
        return Err(format!(
            "`racks` and `melded` need one entry per seat (2 to 4), got {} and {}",
            rack_sizes.len(),
            melded.len()
        ));
    }
    if seat == 0 || seat > rack_sizes.len() {
        return Err(format!("`seat` is 1 to {}, not {seat}", rack_sizes.len()));
    }
    let player = seat - 1;
    let rack = crate::notation::parse_tiles(get("rack")?).map_err(|e| e.to_string())?;
    if rack.len() != rack_sizes[player] {
        return Err(format!(
            "the rack holds {} tiles but `racks` says {} for seat {seat}",
            rack.len(),
            rack_sizes[player]
        ));
    }
    let table = crate::notation::parse_table(get("table")?).map_err(|e| e.to_string())?;
    Ok(PlayerView {
        rules,
        player,
        rack,
        rack_sizes,
        melded,
        pool_size: number("pool", get("pool")?)?,
        table,
        current_player: player,
        can_claim_redeal: false,
        outcome: None,
        totals: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::round::Round;

    #[test]
    fn a_view_survives_its_text_and_bad_views_are_refused() {
        let round = Round::new(RuleSet::current(), 3, 5).expect("a round");
        let view = round.view(1);
        let lines = write_view(&view).expect("preset rules");
        let back = parse_view(&lines).expect("its own text");
        assert_eq!(back.rack, view.rack);
        assert_eq!(back.rack_sizes, view.rack_sizes);
        assert_eq!(back.table, view.table);
        assert_eq!((back.player, back.pool_size), (1, view.pool_size));
        let without = |key: &str| -> Vec<String> {
            lines
                .iter()
                .filter(|l| !l.starts_with(key))
                .cloned()
                .collect()
        };
        assert!(parse_view(&without("racks")).unwrap_err().contains("racks"));
        let mut wrong = lines.clone();
        wrong[1] = "seat: 7".into();
        assert!(parse_view(&wrong).unwrap_err().contains("seat"));
        wrong[1] = "colour: red".into();
        assert!(parse_view(&wrong).unwrap_err().contains("no `colour`"));
    }
}
