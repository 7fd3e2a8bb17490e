//! docs/architecture.md describes every module of the server: a module added without
//! a word there fails here.

use std::path::{Path, PathBuf};

/// The modules under `src`, as paths without `.rs` (`hub/registry`, `app`); a folder
/// is a module of its own (`hub/`), its `mod.rs` is the folder's.
fn modules(src: &Path, prefix: &str, out: &mut Vec<String>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if path.is_dir() {
            out.push(format!("{prefix}{name}/"));
            modules(&path, &format!("{prefix}{name}/"), out);
        } else if let Some(stem) = name.strip_suffix(".rs") {
            if stem != "lib" && stem != "mod" {
                out.push(format!("{prefix}{stem}"));
            }
        }
    }
}

/// Whether the document names `module`: as `` `hub/registry` `` (or with `.rs`), or
/// by its own name on a line that names its folder (`` `hub/` … `registry` ``).
fn mentioned(doc: &str, module: &str) -> bool {
    let quoted = |name: &str| format!("`{name}`");
    if doc.contains(&quoted(module)) || doc.contains(&quoted(&format!("{module}.rs"))) {
        return true;
    }
    let trimmed = module.trim_end_matches('/');
    let Some((folder, name)) = trimmed.rsplit_once('/') else {
        return false;
    };
    let name = if module.ends_with('/') {
        format!("{name}/")
    } else {
        name.to_string()
    };
    doc.lines().any(|line| {
        line.contains(&quoted(&format!("{folder}/")))
            && (line.contains(&quoted(&name)) || line.contains(&quoted(&format!("{name}.rs"))))
    })
}

#[test]
fn the_architecture_describes_every_module_of_the_server() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("../../docs/architecture.md")).unwrap();
    let mut found = Vec::new();
    modules(&root.join("src"), "", &mut found);
    assert!(found.iter().any(|m| m == "hub/registry"), "{found:?}");
    let missing: Vec<&String> = found.iter().filter(|m| !mentioned(&doc, m)).collect();
    assert!(
        missing.is_empty(),
        "docs/architecture.md does not mention these modules of crates/server/src: {missing:?}"
    );
}

#[test]
fn a_module_counts_as_mentioned_only_by_its_path_or_on_its_folders_line() {
    let doc =
        "| `app.rs` | state |\n| `hub/` | `registry` (load), `view` |\n| `wire/names` | names |\n";
    assert!(mentioned(doc, "app"));
    assert!(mentioned(doc, "hub/"));
    assert!(mentioned(doc, "hub/registry"));
    assert!(mentioned(doc, "wire/names"));
    assert!(!mentioned(doc, "wire/"));
    assert!(!mentioned(doc, "hub/seats"));
    // A name on another folder's line is not this folder's.
    assert!(!mentioned(doc, "store/view"));
    assert!(!mentioned(doc, "cache"));
}
