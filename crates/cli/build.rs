//! `rumi` embeds the built browser client (`web/dist`, see `src/serve.rs`): without it
//! the build stops and says how to make it.

use std::path::Path;

fn main() {
    let dist = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/dist");
    // A directory: cargo looks at every file in it.
    println!("cargo::rerun-if-changed={}", dist.display());
    if !dist.join("index.html").is_file() {
        println!(
            "cargo::error=the browser client is not built ({} has no index.html); `rumi` embeds it: run `cd web && npm ci && npm run build` (or scripts/build-client), then build again",
            dist.display()
        );
    }
}
