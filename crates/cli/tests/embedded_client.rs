//! The browser client is inside the binary: a copy of `rumi` started far from the
//! checkout (its `web/dist` out of reach) serves the lobby and a Rumis table page with
//! every script they load, compressed as the browser asks and cached as before.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use serde_json::{json, Value};

/// A copy of the built `rumi` in a directory of its own, serving from an empty working
/// directory in the system's temporary directory.
struct Elsewhere {
    child: Child,
    base: String,
    dir: PathBuf,
}

impl Drop for Elsewhere {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn start_elsewhere() -> Elsewhere {
    let dir = std::env::temp_dir().join(format!("rumi-elsewhere-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let bin_dir = dir.join("bin");
    let work = dir.join("work");
    std::fs::create_dir_all(&bin_dir).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    let rumi = bin_dir.join("rumi");
    std::fs::copy(env!("CARGO_BIN_EXE_rumi"), &rumi).unwrap();
    assert!(!work.join("web/dist").exists());
    let mut child = Command::new(&rumi)
        .args(["serve", "--addr", "127.0.0.1:0", "--db", "sqlite://rumi.db"])
        .current_dir(&work)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the copied rumi starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let base = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected first line: {line}"))
        .to_string();
    Elsewhere { child, base, dir }
}

struct Answer {
    status: u16,
    headers: ureq::http::HeaderMap,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<String> {
        self.headers
            .get(name)
            .map(|v| v.to_str().unwrap_or_default().to_string())
    }
}

fn get(base: &str, path: &str, headers: &[(&str, &str)]) -> Answer {
    let mut request = ureq::get(format!("{base}{path}"));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let mut response = request
        .config()
        .http_status_as_error(false)
        .build()
        .call()
        .unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body = response.body_mut().read_to_vec().unwrap();
    Answer {
        status,
        headers,
        body,
    }
}

/// The hashed file names (`page-BHRcd5mK.js`) a page or script names.
fn hashed_names(text: &str) -> BTreeSet<String> {
    let name_char = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.';
    text.split(|c: char| !name_char(c))
        .filter(|word| word.ends_with(".js") || word.ends_with(".css"))
        .filter(|word| {
            // Vite's hash: 8 characters (`-` among them) after a `-`.
            let stem = word
                .rsplit_once('.')
                .map_or("", |(stem, _)| stem)
                .as_bytes();
            stem.len() > 9 && stem[stem.len() - 9] == b'-'
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn a_copy_started_far_from_the_checkout_serves_the_lobby_and_a_rumis_table() {
    let served = start_elsewhere();
    let base = served.base.as_str();
    // A Rumis table to open.
    let mut created = ureq::post(format!("{base}/api/tables"))
        .send_json(
            json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 4},
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"},
                      {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]}),
        )
        .unwrap();
    let table: Value = created.body_mut().read_json().unwrap();
    let id = table["id"].as_str().unwrap().to_string();

    let lobby = get(base, "/", &[]);
    let page = get(base, &format!("/t/{id}"), &[]);
    for (path, answer) in [("/", &lobby), ("/t/…", &page)] {
        assert_eq!(answer.status, 200, "{path}");
        assert!(
            answer
                .header("content-type")
                .is_some_and(|t| t.starts_with("text/html")),
            "{path}"
        );
        assert_eq!(answer.header("cache-control").as_deref(), Some("no-cache"));
    }
    assert_eq!(lobby.body, page.body, "the client routes itself");
    let html = String::from_utf8(lobby.body.clone()).unwrap();
    assert!(html.contains("<script type=\"module\""), "{html}");

    // Every script and style sheet reachable from the page, the Rumis view and
    // three.js (loaded by the table page) among them.
    let mut seen = BTreeSet::new();
    let mut queue: Vec<String> = hashed_names(&html).into_iter().collect();
    assert!(!queue.is_empty(), "{html}");
    while let Some(name) = queue.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        let asset = get(base, &format!("/assets/{name}"), &[]);
        assert_eq!(asset.status, 200, "{name}");
        assert_eq!(
            asset.header("cache-control").as_deref(),
            Some(server::client::IMMUTABLE),
            "{name}"
        );
        let kind = asset.header("content-type").unwrap_or_default();
        if name.ends_with(".js") {
            assert!(kind.contains("javascript"), "{name}: {kind}");
            queue.extend(hashed_names(&String::from_utf8_lossy(&asset.body)));
        } else {
            assert!(kind.starts_with("text/css"), "{name}: {kind}");
        }
    }
    for chunk in ["index-", "rumis-", "three-"] {
        assert!(
            seen.iter()
                .any(|n| n.starts_with(chunk) && n.ends_with(".js")),
            "{chunk}: {seen:?}"
        );
    }

    // three.js goes out as the browser prefers (the copies the build compressed), and
    // a browser that has it gets a 304.
    let three = seen.iter().find(|n| n.starts_with("three-")).unwrap();
    let path = format!("/assets/{three}");
    let plain = get(base, &path, &[]);
    assert_eq!(plain.header("content-encoding"), None);
    for (accept, coding) in [
        ("gzip, deflate, br", "br"),
        ("gzip", "gzip"),
        ("br;q=0.5, gzip", "gzip"),
    ] {
        let compressed = get(base, &path, &[("accept-encoding", accept)]);
        assert_eq!(compressed.status, 200);
        assert_eq!(
            compressed.header("content-encoding").as_deref(),
            Some(coding),
            "{accept}"
        );
        assert_eq!(
            compressed.header("vary").as_deref(),
            Some("accept-encoding")
        );
        assert!(
            compressed.body.len() * 3 < plain.body.len(),
            "{accept}: {} of {} bytes",
            compressed.body.len(),
            plain.body.len()
        );
        let etag = compressed.header("etag").expect("an ETag");
        let again = get(
            base,
            &path,
            &[("accept-encoding", accept), ("if-none-match", &etag)],
        );
        assert_eq!(again.status, 304, "{accept}");
        assert!(again.body.is_empty());
    }
    assert_ne!(
        get(base, &path, &[("accept-encoding", "br")]).header("etag"),
        plain.header("etag"),
        "each encoding is its own representation"
    );

    // A missing asset is a 404 (never the page), in JSON like every error.
    let gone = get(base, "/assets/gone-12345678.js", &[]);
    assert_eq!(gone.status, 404);
    let error: Value = serde_json::from_slice(&gone.body).unwrap();
    assert_eq!(error["code"], "not_found", "{error}");
    // The page and the manifest at the root.
    let manifest = get(base, "/manifest.webmanifest", &[]);
    assert_eq!(manifest.status, 200);
    assert_eq!(
        manifest.header("cache-control").as_deref(),
        Some("no-cache")
    );
}
