//! Account names: 3 to 20 letters, digits, `_` and `-`; unique regardless of case
//! after Unicode normalisation, and no two that look alike (confusable skeletons,
//! UTS #39); reserved names are refused.

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
    if reserved(&key) {
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
