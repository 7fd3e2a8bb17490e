//! Rule sets as data (K10): every rule that differs between the `current` and `old`
//! presets of seed 002 is a field here, never a branch scattered through the code.

use std::fmt;
use std::str::FromStr;

/// When a game (a series of rounds) ends (K9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameLength {
    /// A fixed number of rounds.
    Rounds(u32),
    /// Play rounds until some player's total reaches this score.
    TargetScore(i32),
}

/// The values of every rule that a table may vary (K10).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleSet {
    /// What a joker left on a rack costs at scoring (K9): 50.
    pub joker_penalty: u32,
    /// Minimum value of the initial meld (K4): 30.
    pub initial_meld_minimum: u32,
    /// Old rules (K4): the initial meld may also add to and rearrange the table.
    pub initial_meld_may_use_table: bool,
    /// Turn time limit in seconds, `None` for no limit (K7): 60.
    pub turn_time_seconds: Option<u32>,
    /// Old rules (K3): runs may continue from 13 to 1 (12-13-1).
    pub run_wraps_around: bool,
    /// Most jokers allowed in one set (K3): 2, old rules 1.
    pub jokers_per_set: u8,
    /// Old rules (K5): a table set with a joker is frozen, except for a joker swap.
    pub frozen_joker_sets: bool,
    /// K2: a player dealt three pairs may demand a new deal (not in the old rules).
    pub redeal_on_three_pairs: bool,
    /// Rounds to play, or target score (K9).
    pub game_length: GameLength,
}

impl Default for RuleSet {
    fn default() -> Self {
        RuleSet::current()
    }
}

/// Names of the built-in presets.
pub const PRESETS: [&str; 2] = ["current", "old"];

impl RuleSet {
    /// The current (post-2005) rules of seed 002: the default.
    pub fn current() -> RuleSet {
        RuleSet {
            joker_penalty: 50,
            initial_meld_minimum: 30,
            initial_meld_may_use_table: false,
            turn_time_seconds: Some(60),
            run_wraps_around: false,
            jokers_per_set: 2,
            frozen_joker_sets: false,
            redeal_on_three_pairs: true,
            game_length: GameLength::Rounds(1),
        }
    }

    /// The old rules listed in seed 002.
    pub fn old() -> RuleSet {
        RuleSet {
            initial_meld_may_use_table: true,
            run_wraps_around: true,
            jokers_per_set: 1,
            frozen_joker_sets: true,
            redeal_on_three_pairs: false,
            ..RuleSet::current()
        }
    }

    /// A preset by name.
    pub fn preset(name: &str) -> Option<RuleSet> {
        match name {
            "current" => Some(RuleSet::current()),
            "old" => Some(RuleSet::old()),
            _ => None,
        }
    }

    /// The rule set's fields as `key=value` pairs, in a fixed order.
    fn fields(&self) -> Vec<(&'static str, String)> {
        let on_off = |b: bool| if b { "yes" } else { "no" }.to_string();
        vec![
            ("joker_penalty", self.joker_penalty.to_string()),
            ("initial_meld", self.initial_meld_minimum.to_string()),
            ("meld_uses_table", on_off(self.initial_meld_may_use_table)),
            (
                "turn_time",
                self.turn_time_seconds
                    .map_or("off".to_string(), |s| s.to_string()),
            ),
            ("wrap_runs", on_off(self.run_wraps_around)),
            ("jokers_per_set", self.jokers_per_set.to_string()),
            ("frozen_jokers", on_off(self.frozen_joker_sets)),
            ("redeal_three_pairs", on_off(self.redeal_on_three_pairs)),
            (
                "game",
                match self.game_length {
                    GameLength::Rounds(n) => format!("rounds:{n}"),
                    GameLength::TargetScore(t) => format!("target:{t}"),
                },
            ),
        ]
    }

    /// Sets one field from its `key=value` text form.
    pub fn set_field(&mut self, key: &str, value: &str) -> Result<(), ParseRulesError> {
        let bad = || ParseRulesError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
        };
        let yes_no = |v: &str| match v {
            "yes" | "on" | "true" => Ok(true),
            "no" | "off" | "false" => Ok(false),
            _ => Err(bad()),
        };
        match key {
            "joker_penalty" => self.joker_penalty = value.parse().map_err(|_| bad())?,
            "initial_meld" => self.initial_meld_minimum = value.parse().map_err(|_| bad())?,
            "meld_uses_table" => self.initial_meld_may_use_table = yes_no(value)?,
            "turn_time" => {
                self.turn_time_seconds = match value {
                    "off" | "none" => None,
                    v => Some(v.parse().ok().filter(|&s| s > 0).ok_or_else(bad)?),
                }
            }
            "wrap_runs" => self.run_wraps_around = yes_no(value)?,
            "jokers_per_set" => {
                self.jokers_per_set = value.parse().ok().filter(|&j| j <= 2).ok_or_else(bad)?
            }
            "frozen_jokers" => self.frozen_joker_sets = yes_no(value)?,
            "redeal_three_pairs" => self.redeal_on_three_pairs = yes_no(value)?,
            "game" => {
                self.game_length = match value.split_once(':') {
                    Some(("rounds", n)) => {
                        GameLength::Rounds(n.parse().ok().filter(|&n| n > 0).ok_or_else(bad)?)
                    }
                    Some(("target", t)) => {
                        GameLength::TargetScore(t.parse().ok().filter(|&t| t > 0).ok_or_else(bad)?)
                    }
                    _ => return Err(bad()),
                }
            }
            _ => return Err(ParseRulesError::UnknownKey(key.to_string())),
        }
        Ok(())
    }
}

/// Written as the nearest preset name followed by the fields that differ from it,
/// e.g. `current joker_penalty=30 turn_time=40`; [`FromStr`] reads it back.
impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mine = self.fields();
        let (name, base) = PRESETS
            .iter()
            .map(|&name| {
                let base = RuleSet::preset(name).unwrap_or_default().fields();
                (name, base)
            })
            .min_by_key(|(_, base)| base.iter().zip(&mine).filter(|(a, b)| a != b).count())
            .unwrap_or(("current", RuleSet::current().fields()));
        f.write_str(name)?;
        for ((key, value), (_, base_value)) in mine.iter().zip(&base) {
            if value != base_value {
                write!(f, " {key}={value}")?;
            }
        }
        Ok(())
    }
}

/// A rule set that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseRulesError {
    #[error("unknown rule preset '{0}': use current or old")]
    UnknownPreset(String),
    #[error("unknown rule '{0}': known rules are joker_penalty, initial_meld, meld_uses_table, turn_time, wrap_runs, jokers_per_set, frozen_jokers, redeal_three_pairs, game")]
    UnknownKey(String),
    #[error("bad value '{value}' for rule {key}")]
    BadValue { key: String, value: String },
    #[error("rule override '{0}' should look like key=value")]
    NotKeyValue(String),
}

impl FromStr for RuleSet {
    type Err = ParseRulesError;

    /// `current`, `old`, or either followed by `key=value` overrides.
    fn from_str(text: &str) -> Result<RuleSet, ParseRulesError> {
        let mut words = text.split_whitespace();
        let name = words.next().unwrap_or("current");
        let mut rules =
            RuleSet::preset(name).ok_or_else(|| ParseRulesError::UnknownPreset(name.into()))?;
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| ParseRulesError::NotKeyValue(word.to_string()))?;
            rules.set_field(key, value)?;
        }
        Ok(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k10_presets_differ_exactly_in_the_old_rules_of_seed_002() {
        let current = RuleSet::current();
        let old = RuleSet::old();
        assert!(!current.run_wraps_around && old.run_wraps_around);
        assert!(!current.frozen_joker_sets && old.frozen_joker_sets);
        assert_eq!((current.jokers_per_set, old.jokers_per_set), (2, 1));
        assert!(current.redeal_on_three_pairs && !old.redeal_on_three_pairs);
        assert!(!current.initial_meld_may_use_table && old.initial_meld_may_use_table);
        assert_eq!(current.joker_penalty, old.joker_penalty);
        assert_eq!(current.initial_meld_minimum, 30);
        assert_eq!(current.turn_time_seconds, Some(60));
        assert_eq!(RuleSet::default(), current);
    }

    #[test]
    fn k10_custom_rule_sets_read_and_write_as_text() {
        let custom: RuleSet = "current joker_penalty=30 turn_time=40 initial_meld=50"
            .parse()
            .unwrap();
        assert_eq!(custom.joker_penalty, 30);
        assert_eq!(custom.turn_time_seconds, Some(40));
        assert_eq!(custom.initial_meld_minimum, 50);
        assert_eq!(
            custom.to_string(),
            "current joker_penalty=30 initial_meld=50 turn_time=40"
        );
        assert_eq!(custom.to_string().parse::<RuleSet>().unwrap(), custom);
        assert_eq!(RuleSet::old().to_string(), "old");
        let untimed: RuleSet = "old turn_time=off game=target:200".parse().unwrap();
        assert_eq!(untimed.turn_time_seconds, None);
        assert_eq!(untimed.game_length, GameLength::TargetScore(200));
        assert_eq!(untimed.to_string().parse::<RuleSet>().unwrap(), untimed);
    }

    #[test]
    fn bad_rule_text_says_what_is_wrong() {
        let err = |t: &str| t.parse::<RuleSet>().unwrap_err().to_string();
        assert_eq!(err("new"), "unknown rule preset 'new': use current or old");
        assert!(err("current speed=3").starts_with("unknown rule 'speed'"));
        assert_eq!(
            err("current jokers_per_set=3"),
            "bad value '3' for rule jokers_per_set"
        );
        assert_eq!(
            err("old wrap_runs"),
            "rule override 'wrap_runs' should look like key=value"
        );
    }
}
