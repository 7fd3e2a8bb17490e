//! Secrets out of what the server prints. Database and NATS addresses carry
//! passwords (`postgres://user:PASS@…`, `nats://user:PASS@…`, a NATS token
//! `nats://TOKEN@…`) and secret parameters (`?password=…&sslpassword=…`), and the
//! libraries print them: sqlx warns `ignoring unrecognized connect parameter
//! key=sslpassword value=…`, async-nats traces its CONNECT with the password. So:
//! - [`redact_url`] for every address this crate prints;
//! - [`register_secrets_of`] remembers the secret values of the addresses the server
//!   was given, and [`LogWriter`] (the tracing subscriber's writer) replaces them, and
//!   every secret-looking part of an address, in every line any library logs;
//! - [`redact_text`] does the same for an error printed at exit.

use std::io::Write;
use std::sync::{OnceLock, RwLock};

use regex::Regex;

/// Whether a query parameter (or field) of this name holds a secret.
pub fn is_secret_key(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    [
        "password", "passwd", "pwd", "pass", "secret", "token", "sslkey", "jwt", "nkey", "creds",
        "apikey", "api_key", "auth",
    ]
    .iter()
    .any(|k| key.contains(k))
}

/// Schemes whose user part alone (no `:`) is a secret: a NATS token.
fn token_scheme(scheme: &str) -> bool {
    matches!(
        scheme.to_ascii_lowercase().as_str(),
        "nats" | "tls" | "ws" | "wss"
    )
}

/// The parts of an address: scheme, user info, the rest up to the query, the query.
fn split_url(url: &str) -> Option<(&str, Option<&str>, &str, Option<&str>)> {
    let start = url.find("://")?;
    let scheme = &url[..start];
    let rest = &url[start + 3..];
    let (before_query, query) = match rest.find('?') {
        Some(q) => (&rest[..q], Some(&rest[q + 1..])),
        None => (rest, None),
    };
    // The user info ends at the last `@` (a password may hold `@` and `/`).
    let (user_info, host_and_path) = match before_query.rfind('@') {
        Some(at) => (Some(&before_query[..at]), &before_query[at..]),
        None => (None, before_query),
    };
    Some((scheme, user_info, host_and_path, query))
}

/// An address fit for logs: `postgres://user:***@host/db?sslpassword=***`,
/// `nats://***@host` (a token). Several addresses separated by commas (a NATS server
/// list) are each redacted.
pub fn redact_url(url: &str) -> String {
    if url.contains(',') && url.matches("://").count() > 1 {
        return url.split(',').map(redact_url).collect::<Vec<_>>().join(",");
    }
    let Some((scheme, user_info, host_and_path, query)) = split_url(url) else {
        return url.to_string();
    };
    let mut out = format!("{scheme}://");
    match user_info {
        Some(info) => {
            match info.find(':') {
                Some(colon) => {
                    out.push_str(&info[..colon]);
                    out.push_str(":***");
                }
                None if token_scheme(scheme) => out.push_str("***"),
                None => out.push_str(info),
            }
            out.push_str(host_and_path);
        }
        None => out.push_str(host_and_path),
    }
    if let Some(params) = query {
        out.push('?');
        let params: Vec<String> = params
            .split('&')
            .map(|p| match p.split_once('=') {
                Some((key, _)) if is_secret_key(key) => format!("{key}=***"),
                _ => p.to_string(),
            })
            .collect();
        out.push_str(&params.join("&"));
    }
    out
}

/// The secret values in an address, as written and percent-decoded.
pub fn secrets_of(url: &str) -> Vec<String> {
    let mut found = Vec::new();
    for url in url.split(',') {
        let Some((scheme, user_info, _, query)) = split_url(url.trim()) else {
            continue;
        };
        if let Some(info) = user_info {
            match info.split_once(':') {
                Some((_, password)) => found.push(password.to_string()),
                None if token_scheme(scheme) => found.push(info.to_string()),
                None => {}
            }
        }
        for param in query.unwrap_or("").split('&') {
            if let Some((key, value)) = param.split_once('=') {
                if is_secret_key(key) {
                    found.push(value.to_string());
                }
            }
        }
    }
    let decoded: Vec<String> = found.iter().map(|s| percent_decode(s)).collect();
    found.extend(decoded);
    found.retain(|s| !s.is_empty());
    found.sort_by_key(|s| std::cmp::Reverse(s.len()));
    found.dedup();
    found
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(text.get(i + 1..i + 3).unwrap_or(""), 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(if bytes[i] == b'+' { b' ' } else { bytes[i] });
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn known() -> &'static RwLock<Vec<String>> {
    static KNOWN: OnceLock<RwLock<Vec<String>>> = OnceLock::new();
    KNOWN.get_or_init(|| RwLock::new(Vec::new()))
}

/// Remembers the secrets of an address the server was given, for [`LogWriter`] and
/// [`redact_text`].
pub fn register_secrets_of(url: &str) {
    let mut known = known().write().unwrap_or_else(|e| e.into_inner());
    known.extend(secrets_of(url));
    known.sort_by_key(|s| std::cmp::Reverse(s.len()));
    known.dedup();
}

/// A text (a log line, an error) without secrets: the registered secret values, the
/// passwords of addresses (`://user:PASS@`) and secret parameters (`password=…`).
pub fn redact_text(text: &str) -> String {
    static USER_INFO: OnceLock<Regex> = OnceLock::new();
    static PARAM: OnceLock<Regex> = OnceLock::new();
    let mut out = text.to_string();
    for secret in known().read().unwrap_or_else(|e| e.into_inner()).iter() {
        if out.contains(secret.as_str()) {
            out = out.replace(secret.as_str(), "***");
        }
    }
    let user_info = USER_INFO.get_or_init(|| {
        Regex::new(r"([A-Za-z][A-Za-z0-9+.-]*://[^\s:/@]*:)[^\s@/]+@").expect("a valid pattern")
    });
    let out = user_info.replace_all(&out, "$1***@");
    let param = PARAM.get_or_init(|| {
        Regex::new(r"(?i)([?&;]\s*[a-z_]*(?:password|passwd|pwd|secret|token|sslkey|jwt|nkey)[a-z_]*=)[^&\s]+")
            .expect("a valid pattern")
    });
    param.replace_all(&out, "${1}***").into_owned()
}

/// The log writer of `rumi serve`: standard error, every line through
/// [`redact_text`]. The formatter writes each event in one call, so a secret is never
/// split across two writes.
#[derive(Clone, Copy, Default)]
pub struct LogWriter;

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for LogWriter {
    type Writer = LogWriter;

    fn make_writer(&'a self) -> LogWriter {
        LogWriter
    }
}

impl Write for LogWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let text = redact_text(&String::from_utf8_lossy(buf));
        std::io::stderr().write_all(text.as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_secret_of_an_address_is_redacted() {
        assert_eq!(
            redact_url("postgres://rumi:hunter2@db:5432/rumi?sslmode=require&sslpassword=s3&password=p&sslkey=/k.pem&application_name=x"),
            "postgres://rumi:***@db:5432/rumi?sslmode=require&sslpassword=***&password=***&sslkey=***&application_name=x"
        );
        assert_eq!(
            redact_url("nats://user:pw@n1:4222"),
            "nats://user:***@n1:4222"
        );
        assert_eq!(redact_url("nats://tok3n@n1:4222"), "nats://***@n1:4222");
        assert_eq!(
            redact_url("nats://a:1@n1:4222,nats://b:2@n2:4222"),
            "nats://a:***@n1:4222,nats://b:***@n2:4222"
        );
        assert_eq!(
            redact_url("postgres://rumi@db/rumi"),
            "postgres://rumi@db/rumi"
        );
        assert_eq!(redact_url("sqlite://rumi.db"), "sqlite://rumi.db");
        assert_eq!(
            redact_url("nats://h:4222?auth_token=t0k"),
            "nats://h:4222?auth_token=***"
        );
    }

    #[test]
    fn registered_secrets_leave_any_text() {
        register_secrets_of("postgres://u:pa%24%24word@h/db?sslpassword=Zq9secretvalue");
        let line = r#"WARN sqlx: ignoring unrecognized connect parameter key=sslpassword value=Zq9secretvalue; password "pa$$word""#;
        let clean = redact_text(line);
        assert!(!clean.contains("Zq9secretvalue"), "{clean}");
        assert!(!clean.contains("pa$$word"), "{clean}");
        assert!(clean.contains("key=sslpassword"), "{clean}");
        // Addresses nobody registered still lose their passwords.
        let clean = redact_text("connecting to nats://me:other-secret@10.0.0.1:4222 now");
        assert_eq!(clean, "connecting to nats://me:***@10.0.0.1:4222 now");
        assert_eq!(
            redact_text("url ?a=1&password=x2 end"),
            "url ?a=1&password=*** end"
        );
    }
}
