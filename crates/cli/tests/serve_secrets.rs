//! `rumi serve` never prints a secret of its addresses: not the database password nor
//! its `sslpassword` (which sqlx warns about as an unknown parameter, value and all),
//! not the NATS password (which async-nats traces in its CONNECT), at any log level.

mod common;

use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::temp_postgres;

/// Collects everything a child writes to one of its pipes.
fn collect(mut pipe: impl Read + Send + 'static) -> Arc<Mutex<String>> {
    let text = Arc::new(Mutex::new(String::new()));
    let sink = text.clone();
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while let Ok(n) = pipe.read(&mut buf) {
            if n == 0 {
                break;
            }
            sink.lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    });
    text
}

#[test]
#[ignore = "needs PostgreSQL"]
fn no_secret_of_the_database_or_nats_address_reaches_the_output() {
    const SECRETS: [&str; 3] = ["S3cretDbPass", "S3cretSslKeyPass", "S3cretNatsPass"];
    // PostgreSQL of the machine trusts local connections: the password is ignored.
    let db = temp_postgres("secrets").replacen(
        "postgres://postgres@",
        &format!("postgres://postgres:{}@", SECRETS[0]),
        1,
    );
    let db = format!("{db}?sslpassword={}&application_name=rumi", SECRETS[1]);
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let binary = ["/usr/sbin/nats-server", "/usr/bin/nats-server"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .unwrap_or("nats-server");
    let mut nats = Command::new(binary)
        .args(["-a", "127.0.0.1", "-p", &port.to_string()])
        .args(["--user", "rumi", "--pass", SECRETS[2]])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nats-server is installed");
    let nats_url = format!("nats://rumi:{}@127.0.0.1:{port}", SECRETS[2]);
    let mut serve = Command::new(env!("CARGO_BIN_EXE_rumi"))
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--db",
            &db,
            "--nats",
            &nats_url,
        ])
        .env("RUST_LOG", "trace")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rumi serve starts");
    let out = collect(serve.stdout.take().unwrap());
    let err = collect(serve.stderr.take().unwrap());
    // Wait for what the libraries print about the addresses: sqlx's warning about the
    // unknown parameter, async-nats's CONNECT (with the password), our start line.
    let start = Instant::now();
    let printed = |text: &Arc<Mutex<String>>, what: &str| text.lock().unwrap().contains(what);
    while !(printed(&out, "listening on")
        && printed(&err, "ignoring unrecognized connect parameter")
        && printed(&err, "CONNECT")
        && printed(&err, "rumi serves on"))
    {
        assert!(
            start.elapsed() < Duration::from_secs(60) && serve.try_wait().unwrap().is_none(),
            "rumi serve did not print what was awaited: {}{}",
            out.lock().unwrap(),
            err.lock().unwrap()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = serve.kill();
    let _ = serve.wait();
    let _ = nats.kill();
    let _ = nats.wait();
    let all = format!("{}{}", out.lock().unwrap(), err.lock().unwrap());
    for secret in SECRETS {
        let at = all
            .find(secret)
            .map(|i| &all[i.saturating_sub(200)..(i + 50).min(all.len())]);
        assert!(at.is_none(), "{secret} was printed: …{}…", at.unwrap_or(""));
    }
    // What was printed names the addresses without their secrets.
    assert!(
        all.contains("postgres://postgres:***@127.0.0.1:5432/"),
        "no redacted database address"
    );
    assert!(all.contains("sslpassword=***"), "no redacted sslpassword");
    assert!(
        all.contains("nats://rumi:***@127.0.0.1"),
        "no redacted NATS address"
    );
}

#[test]
fn an_address_that_fails_is_printed_without_its_secrets() {
    // A port out of range: the error names the address, redacted.
    let (out, err, code) = common::rumi_status(
        &[
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--db",
            "postgres://rumi:FailS3cret@127.0.0.1:99999/rumi?password=FailS3cret2",
        ],
        "",
    );
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        err.contains("postgres://rumi:***@127.0.0.1:99999/rumi?password=***"),
        "{err}"
    );
    assert!(!format!("{out}{err}").contains("FailS3cret"), "{out}{err}");
}
