//! The browser client end to end: `npx playwright test` in `web/` runs the specs of
//! `web/e2e/` (on `@playwright/test`, in Debian's Chromium) against the `rumi` built
//! with this test (see web/README.md). `scripts/test` installs Chromium and builds
//! `web/dist` before `cargo test` runs this.

use std::path::Path;
use std::process::Command;

#[test]
#[ignore = "needs a browser"]
fn the_browser_client_plays_both_games_end_to_end() {
    let web = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
    assert!(
        web.join("dist/index.html").is_file()
            && web.join("node_modules/@playwright/test").is_dir(),
        "the browser client is not built: run scripts/test (or `cd web && npm ci && npm run build`)"
    );
    // Playwright runs the specs without checking their types: tsc does.
    let typecheck = Command::new("npx")
        .args(["--no-install", "tsc", "-p", "e2e"])
        .current_dir(&web)
        .output()
        .expect("npx (the machine's Node.js) type-checks the browser tests");
    assert!(
        typecheck.status.success(),
        "the browser tests do not type-check:\n{}",
        String::from_utf8_lossy(&typecheck.stdout)
    );
    let output = Command::new("npx")
        .args(["--no-install", "playwright", "test"])
        .env("RUMI_BIN", env!("CARGO_BIN_EXE_rumi"))
        .current_dir(&web)
        .output()
        .expect("npx (the machine's Node.js) runs the browser tests");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "browser tests failed (traces and screenshots in target/playwright/results/):\n{stdout}\n{stderr}"
    );
    println!("{stdout}");
}
