//! Seat names: what a name may contain, and when two names at a table are too alike.
//!
//! A name is shown to every player, so it must not pass for another: no characters
//! that reorder or hide text (bidirectional controls, zero-width and other invisible
//! characters, tag characters), and no name that looks the same as another seat's at
//! the same table once case, compatibility forms (NFKC) and confusable characters
//! (Unicode's UTS #39 skeleton, from `unicode-security`) are set aside.

use std::collections::BTreeMap;

use serde_json::json;
use unicode_normalization::UnicodeNormalization;
use unicode_security::general_security_profile::IdentifierType;
use unicode_security::GeneralSecurityProfile;

use crate::error::ApiError;
use crate::wire::{ErrorCode, Reason, RefusalCode};

/// Longest seat name, in characters.
pub const MAX_NAME_CHARS: usize = 40;

/// Why a character may not be in a name: the `why` code of the refusal and the words.
fn refused(c: char) -> Option<(RefusalCode, &'static str)> {
    let u = c as u32;
    if matches!(u, 0x061C | 0x200E | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069) {
        Some((RefusalCode::NameBidi, "a bidirectional control character"))
    } else if (0xE0000..=0xE007F).contains(&u) {
        Some((RefusalCode::NameTag, "a tag character"))
    } else if c.is_control() {
        Some((RefusalCode::NameControl, "a control character"))
    } else if c.identifier_type() == Some(IdentifierType::Default_Ignorable)
        // Blank-looking characters that Unicode does not count as ignorable.
        || matches!(u, 0x2800 | 0x3164 | 0xFFA0 | 0x115F | 0x1160)
    {
        Some((
            RefusalCode::NameInvisible,
            "an invisible (zero-width) character",
        ))
    } else {
        None
    }
}

fn bad_name(
    code: RefusalCode,
    message: String,
    params: BTreeMap<String, serde_json::Value>,
) -> ApiError {
    ApiError {
        why: Some(Reason {
            code,
            rule: None,
            params,
        }),
        ..ApiError::bad_request(ErrorCode::BadName, message)
    }
}

/// A seat name as people will see it: trimmed, at most [`MAX_NAME_CHARS`]
/// characters, none that hides or reorders text (a NUL byte never reaches the
/// database). `None` for a missing or blank name.
pub fn clean_name(name: Option<&str>) -> Result<Option<String>, ApiError> {
    let Some(name) = name else { return Ok(None) };
    if let Some((c, (code, what))) = name.chars().find_map(|c| Some((c, refused(c)?))) {
        let point = format!("U+{:04X}", c as u32);
        return Err(bad_name(
            code,
            format!("a name must not contain {what} ({point})"),
            BTreeMap::from([("char".to_string(), json!(point))]),
        ));
    }
    let name = name.trim();
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(bad_name(
            RefusalCode::NameTooLong,
            format!("a name has at most {MAX_NAME_CHARS} characters"),
            BTreeMap::from([("max".to_string(), json!(MAX_NAME_CHARS))]),
        ));
    }
    Ok((!name.is_empty()).then(|| name.to_string()))
}

/// What a name looks like, for telling look-alikes apart: combining marks dropped
/// (after NFKD: `Ana` with a mark above or below is `Ana`), compatibility forms folded
/// (NFKC), lower case, confusable characters mapped to their prototype (UTS #39
/// skeleton, which also drops ignorable characters), and runs of white space as one
/// (a page shows them so).
pub fn likeness(name: &str) -> String {
    let bare: String = name
        .nfkd()
        .filter(|&c| !unicode_normalization::char::is_combining_mark(c))
        .collect();
    let folded: String = bare.nfkc().flat_map(char::to_lowercase).collect();
    let skeleton: String = unicode_security::skeleton(&folded)
        .flat_map(char::to_lowercase)
        .collect();
    skeleton.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Refuses `name` if it looks the same as one of `others` (seat index, name): the
/// seats at the same table other than the one being named.
pub fn check_distinct<'a>(
    name: &str,
    others: impl IntoIterator<Item = (usize, &'a str)>,
) -> Result<(), ApiError> {
    let key = likeness(name);
    for (seat, other) in others {
        if likeness(other) == key {
            return Err(ApiError::conflict(
                ErrorCode::NameTaken,
                format!(
                    "the name `{name}` looks the same as `{other}` (seat {}) at this table; choose another",
                    seat + 1
                ),
            ));
        }
    }
    Ok(())
}

/// A default name (`random bot`, `Player 2`) that looks like none of `taken`:
/// `base`, else `base 2`, `base 3`, …
pub fn distinct_default(base: String, taken: &[String]) -> String {
    let keys: Vec<String> = taken.iter().map(|t| likeness(t)).collect();
    let free = |candidate: &str| !keys.contains(&likeness(candidate));
    if free(&base) {
        return base;
    }
    (2..)
        .map(|n| format!("{base} {n}"))
        .find(|candidate| free(candidate))
        .expect("some number is free")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn why(name: &str) -> Option<String> {
        clean_name(Some(name)).err().and_then(|e| e.why).map(|w| {
            serde_json::to_value(w.code)
                .unwrap()
                .as_str()
                .unwrap()
                .to_string()
        })
    }

    #[test]
    fn hiding_and_reordering_characters_are_refused_by_kind() {
        for c in [
            '\u{202E}', '\u{202A}', '\u{2066}', '\u{2069}', '\u{200E}', '\u{200F}', '\u{061C}',
        ] {
            assert_eq!(
                why(&format!("Ana{c}")).as_deref(),
                Some("name_bidi"),
                "{c:?}"
            );
        }
        for c in [
            '\u{200B}', '\u{200C}', '\u{200D}', '\u{2060}', '\u{FEFF}', '\u{00AD}', '\u{3164}',
        ] {
            assert_eq!(
                why(&format!("A{c}na")).as_deref(),
                Some("name_invisible"),
                "{c:?}"
            );
        }
        for c in ['\u{E0001}', '\u{E0041}', '\u{E007F}'] {
            assert_eq!(
                why(&format!("Ana{c}")).as_deref(),
                Some("name_tag"),
                "{c:?}"
            );
        }
        assert_eq!(why("A\u{0}na").as_deref(), Some("name_control"));
        assert_eq!(why(&"x".repeat(41)).as_deref(), Some("name_too_long"));
        assert_eq!(
            clean_name(Some("  Zoë 🎲 ")).unwrap().as_deref(),
            Some("Zoë 🎲")
        );
    }

    #[test]
    fn look_alikes_share_a_likeness() {
        let ana = likeness("Ana");
        for other in [
            "ana",
            "ANA",
            "Аna",    /* Cyrillic A */
            "Ａｎａ", /* full width */
            " Ana",
            "Ana",
        ] {
            assert_eq!(likeness(other), ana, "{other}");
        }
        assert_eq!(likeness("Bob"), likeness("B0b"));
        assert_eq!(likeness("Player  2"), likeness("player 2"));
        assert_ne!(likeness("Ana"), likeness("Anna"));
        assert_ne!(likeness("Bo"), likeness("Bob"));
    }

    #[test]
    fn default_names_step_aside() {
        let taken = vec!["random bot".to_string()];
        assert_eq!(
            distinct_default("random bot".into(), &taken),
            "random bot 2"
        );
        assert_eq!(distinct_default("greedy bot".into(), &taken), "greedy bot");
    }
}
