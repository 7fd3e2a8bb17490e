//! The server against its own OpenAPI document: `schemathesis` (PyPI) reads
//! `/api/openapi.json` from a running `rumi serve` and sends it what the document allows
//! and what it forbids, with every check: no server errors, only the statuses, bodies
//! and headers the document lists, requests the document admits accepted and those it
//! forbids refused, and the links between operations (a created table's id and seat
//! token) followed. `scripts/test` installs the pinned version before `cargo test`.
//!
//! The run is the same every time: seed [`SEED`] and no example database give the same
//! cases (`RUMI_SCHEMATHESIS_SEED=N` runs seed N instead). `RUMI_SCHEMATHESIS_RANDOM=1`
//! runs with a seed schemathesis draws, for new cases; its output names the seed, so
//! that a failure can be run again with `RUMI_SCHEMATHESIS_SEED`.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The schemathesis release this test is written for (`scripts/test` pins the same):
/// other releases bring other checks.
const VERSION: &str = "4.32.5";

/// Test cases per operation and phase: a run of about a minute or two.
const MAX_EXAMPLES: &str = "50";

/// The seed of the usual run: the same cases every run.
const SEED: &str = "55";

/// Longer than the server's own request timeout (30 s, then 408).
const REQUEST_TIMEOUT_SECS: &str = "35";

/// The whole run may not take longer than this.
const RUN_LIMIT: Duration = Duration::from_secs(600);

/// A child process that is killed when the test ends, however it ends.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn schemathesis() -> String {
    std::env::var("RUMI_SCHEMATHESIS").unwrap_or_else(|_| "schemathesis".into())
}

/// A fresh directory for this run's database, logs and reports.
fn work_dir() -> PathBuf {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let dir =
        std::env::temp_dir().join(format!("rumi-schemathesis-{}-{stamp}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `rumi serve` on a free port and a fresh database, without the per-address limits
/// that would turn most of a fuzzer's requests into 429s; returns it and its address.
fn serve(dir: &Path) -> (Killed, String) {
    let log = std::fs::File::create(dir.join("serve.log")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_rumi"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(format!("sqlite://{}", dir.join("rumi.db").display()))
        .args([
            "--bot-delay-ms",
            "0",
            "--max-open-tables-per-address",
            "0",
            "--tables-per-minute-per-address",
            "0",
            "--max-open-seats-per-address",
            "0",
            "--max-open-seats-per-table-per-address",
            "0",
            "--max-connections-per-ip",
            "10000",
            "--max-connections-per-network",
            "10000",
            "--sign-ins-per-minute-per-address",
            "0",
        ])
        .stdout(Stdio::piped())
        .stderr(log)
        .spawn()
        .expect("rumi serve starts");
    let base = common::listening_base(&mut child);
    (Killed(child), base)
}

#[test]
#[ignore = "needs schemathesis"]
fn the_server_keeps_to_its_openapi_document() {
    let version = Command::new(schemathesis()).arg("--version").output();
    let installed = version
        .as_ref()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    assert!(
        installed.trim().ends_with(&format!("version {VERSION}")),
        "schemathesis {VERSION} is needed (found: {}): run scripts/test, or \
         `python3 -m pip install schemathesis=={VERSION}`",
        if installed.is_empty() {
            "none".to_string()
        } else {
            installed.trim().to_string()
        }
    );

    let dir = work_dir();
    let (_server, base) = serve(&dir);
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemathesis.toml");
    let output = std::fs::File::create(dir.join("schemathesis.txt")).unwrap();
    let mut command = Command::new(schemathesis());
    // The hooks write whole floats in bodies as integers (see the file).
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    command
        .env("SCHEMATHESIS_HOOKS", "schemathesis_hooks")
        .env("PYTHONPATH", &tests)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .arg("--config-file")
        .arg(&config)
        .args(["run", &format!("{base}/api/openapi.json")])
        .args(["--checks", "all", "--max-examples", MAX_EXAMPLES])
        .args(["--request-timeout", REQUEST_TIMEOUT_SECS])
        // (Hypothesis's too_slow times the generation: a verdict on the machine's speed)
        .args(["--suppress-health-check", "too_slow", "--no-color"])
        // (schemathesis refuses an answer slower than 10 s by default: a verdict on the
        // machine's load; only a request that hangs, as long as the timeout, fails)
        .args(["--max-response-time", REQUEST_TIMEOUT_SECS])
        // Seat tokens of a test server are no secrets; failures show them to replay.
        .args(["--output-sanitize", "false"]);
    // No example database: nothing an earlier run found changes this one's cases.
    command.args(["--generation-database", "none"]);
    let random = std::env::var_os("RUMI_SCHEMATHESIS_RANDOM").is_some_and(|v| v != "0");
    if !random {
        let seed = std::env::var("RUMI_SCHEMATHESIS_SEED").unwrap_or_else(|_| SEED.into());
        command.args(["--seed", &seed]);
    }
    let run = command
        .current_dir(&dir)
        .stdout(output.try_clone().unwrap())
        .stderr(output)
        .spawn()
        .expect("schemathesis runs");
    let mut run = Killed(run);
    let start = Instant::now();
    let status = loop {
        if let Some(status) = run.0.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > RUN_LIMIT {
            break None;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let report = std::fs::read_to_string(dir.join("schemathesis.txt")).unwrap_or_default();
    match status {
        Some(status) if status.success() => {
            // The summary, for the test's output (`cargo test -- --nocapture`).
            let summary = report.rsplit("SUMMARY").next().unwrap_or_default();
            println!("schemathesis {VERSION} against {base}:{summary}");
            let _ = std::fs::remove_dir_all(&dir);
        }
        _ => {
            let server_log = std::fs::read_to_string(dir.join("serve.log")).unwrap_or_default();
            let tail: Vec<&str> = server_log.lines().rev().take(40).collect();
            panic!(
                "schemathesis found failures ({}; the run is kept in {}):\n{report}\n\
                 last lines of the server's log:\n{}",
                match status {
                    Some(status) => status.to_string(),
                    None => format!("stopped after {} s", RUN_LIMIT.as_secs()),
                },
                dir.display(),
                tail.into_iter().rev().collect::<Vec<_>>().join("\n")
            );
        }
    }
}
