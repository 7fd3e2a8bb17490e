//! Account names: 3 to 20 letters, digits, `_` and `-`; unique regardless of case
//! after Unicode normalisation, and no two that look alike (confusable skeletons,
//! UTS #39, with combining marks dropped); reserved names are refused, and so are
//! names with a reserved word as one of their `_`/`-` parts (`rumi_admin`).

use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

use crate::error::ApiError;
use crate::names::likeness;
use crate::wire::ErrorCode;

pub const MIN_CHARS: usize = 3;
pub const MAX_CHARS: usize = 20;

/// Names nobody may take: the site's roles, words that pose as the system, and the
/// bots' names (a player must not pass for a bot).
const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "root",
    "system",
    "rumi",
    "moderator",
    "mod",
    "support",
    "help",
    "staff",
    "official",
    "server",
    "bot",
    "guest",
    "anonymous",
    "deleted",
    "deleted-player",
    "deleted_player",
    "null",
    "undefined",
    "you",
    "me",
    "api",
];

/// Words that pose as the site or its staff: no part of a name may be one
/// (`Admin_`, `rumi_admin`, `Support_Team`), in any case or look-alike spelling.
const RESERVED_PARTS: &[&str] = &[
    "admin",
    "administrator",
    "support",
    "rumi",
    "moderator",
    "mod",
    "staff",
    "system",
    "official",
    "help",
];

/// Whether a part of a name (between `_` and `-`) is a reserved word, digits around it
/// set aside (`admin2`).
fn is_reserved_part(part: &str) -> bool {
    let looks = likeness(part);
    let looks = looks.trim_matches(|c: char| c.is_ascii_digit());
    !looks.is_empty() && RESERVED_PARTS.iter().any(|r| likeness(r) == looks)
}

/// The names the client gives bot seats (`BOT_NAMES` in web/src/names.ts).
const BOT_SEAT_NAMES: &[&str] = &["chaska", "inti", "killa", "wayra", "sumaq", "amaru"];

/// A name checked for an account: as written, its folded key (unique) and its
/// look-alike skeleton (unique too).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountName {
    pub name: String,
    pub key: String,
    pub skeleton: String,
}

/// The folded key of a name: NFKC, then lower case. Signing in uses it too, so that
/// "Ana" and "ANA" are one account.
pub fn name_key(name: &str) -> String {
    name.trim().nfkc().flat_map(char::to_lowercase).collect()
}

/// Checks a name for a new account.
pub fn account_name(name: &str) -> Result<AccountName, ApiError> {
    let name: String = name.trim().nfc().collect();
    let chars = name.chars().count();
    if !(MIN_CHARS..=MAX_CHARS).contains(&chars) {
        return Err(ApiError::bad_request(
            ErrorCode::BadAccountName,
            format!("a name has {MIN_CHARS} to {MAX_CHARS} characters, not {chars}"),
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|&c| !(c.is_alphanumeric() || c == '_' || c == '-'))
    {
        return Err(ApiError::bad_request(
            ErrorCode::BadAccountName,
            format!(
                "a name has only letters, digits, `_` and `-`, not `{}` (U+{:04X})",
                c.escape_default(),
                c as u32
            ),
        ));
    }
    // A combining mark left after NFC on an ASCII letter (or first) makes no letter
    // of any language: it only dresses up another name (`Ana_sec` + U+05B0).
    let mut on_ascii = true;
    for c in name.chars() {
        if is_combining_mark(c) {
            if on_ascii {
                return Err(ApiError::bad_request(
                    ErrorCode::BadAccountName,
                    format!(
                        "a name has no combining mark on a plain letter (U+{:04X})",
                        c as u32
                    ),
                ));
            }
        } else {
            on_ascii = c.is_ascii();
        }
    }
    let key = name_key(&name);
    let skeleton = likeness(&name);
    let reserved = |n: &str| {
        RESERVED
            .iter()
            .chain(BOT_SEAT_NAMES)
            .any(|r| likeness(r) == skeleton || *r == n)
            || [play::game::GameKind::Rumis, play::game::GameKind::Rummikub]
                .into_iter()
                .any(|game| crate::games::is_bot(game, n))
    };
    if reserved(&key) || key.split(['_', '-']).any(is_reserved_part) {
        return Err(ApiError::bad_request(
            ErrorCode::ReservedName,
            format!("`{name}` is reserved; choose another name"),
        ));
    }
    Ok(AccountName {
        name,
        key,
        skeleton,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_letters_digits_underscores_and_dashes_of_three_to_twenty() {
        assert_eq!(account_name(" Ana ").unwrap().name, "Ana");
        assert!(account_name("Ñandú_7-x").is_ok());
        assert!(account_name("Zoë").is_ok());
        for bad in [
            "Al",
            "a23456789012345678901",
            "Ana Bo",
            "ana!",
            "a\u{200b}na",
            "<b>x",
        ] {
            let e = account_name(bad).unwrap_err();
            assert_eq!(e.code, ErrorCode::BadAccountName, "{bad}");
        }
    }

    #[test]
    fn case_and_compatibility_forms_fold_to_one_key() {
        assert_eq!(name_key("ANA"), name_key("ana"));
        // Fullwidth letters are the same name.
        assert_eq!(name_key("ＡＮＡ"), "ana");
        assert_eq!(
            account_name("ANA").unwrap().key,
            account_name("ana").unwrap().key
        );
    }

    #[test]
    fn look_alikes_share_a_skeleton() {
        // Cyrillic а and Latin a.
        let latin = account_name("anabel").unwrap();
        let cyrillic = account_name("\u{0430}nabel").unwrap();
        assert_ne!(latin.key, cyrillic.key);
        assert_eq!(latin.skeleton, cyrillic.skeleton);
        assert_eq!(
            account_name("rn_ana").unwrap().skeleton,
            account_name("m_ana").unwrap().skeleton
        );
    }

    /// Issue 56: look-alikes through combining marks, and names that pose as staff.
    #[test]
    fn combining_marks_and_reserved_parts_are_refused() {
        for mark in [
            "\u{05B0}",
            "\u{0345}",
            "\u{0E31}",
            "\u{20DD}",
            "\u{0308}\u{0301}",
        ] {
            let e = account_name(&format!("Ana_sec{mark}")).unwrap_err();
            assert_eq!(e.code, ErrorCode::BadAccountName, "{mark:?}");
            assert!(account_name(&format!("{mark}Ana_sec")).is_err());
        }
        // A mark on a letter of a script that needs it is a letter; its look is the
        // name without the mark, so it cannot pose as that name.
        let thai = account_name("กัน_sec").unwrap();
        assert_eq!(thai.skeleton, account_name("กน_sec").unwrap().skeleton);
        // A mark that composes into a letter (NFC) makes a name, which looks like the
        // one without the mark.
        let accented = account_name("Ana_sec\u{0301}").unwrap();
        assert_eq!(accented.name, "Ana_seć");
        assert_eq!(accented.skeleton, account_name("Ana_sec").unwrap().skeleton);
        for name in [
            "Admin_",
            "rumi_admin",
            "Support_Team",
            "team-support",
            "HELP_desk",
            "mod_7",
            "staff2",
            "the-official-one",
            "System_x",
            "Administrator9",
            "moderator_Bo",
            "\u{0410}dmin_x",
        ] {
            let e = account_name(name).unwrap_err();
            assert_eq!(e.code, ErrorCode::ReservedName, "{name}");
        }
        for fine in ["Modesto", "Helper_Ana", "Rumina", "Adminta", "Bo_systems"] {
            assert!(account_name(fine).is_ok(), "{fine}");
        }
    }

    #[test]
    fn reserved_names_and_their_look_alikes_are_refused() {
        for name in [
            "admin",
            "ADMIN",
            "Admin",
            "rumi",
            "greedy",
            "deleted_player",
            "Inti",
        ] {
            let e = account_name(name).unwrap_err();
            assert_eq!(e.code, ErrorCode::ReservedName, "{name}");
        }
    }
}
