//! Shared by the binary tests: run the built `rumi` with arguments and piped input.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `rumi` with `args`, writes `stdin` to it, returns (stdout, stderr, success).
pub fn rumi(args: &[&str], stdin: &str) -> (String, String, bool) {
    let (stdout, stderr, code) = rumi_status(args, stdin);
    (stdout, stderr, code == Some(0))
}

/// Like [`rumi`], with the exit code (`None` if killed by a signal).
pub fn rumi_status(args: &[&str], stdin: &str) -> (String, String, Option<i32>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rumi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rumi runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        output.status.code(),
    )
}
