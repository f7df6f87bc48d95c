//! `docs/layout.md` against the files: it names every Rust source file of
//! the workspace by its full path from the repository's top, and every
//! backquoted path ending in `.rs` that it names exists.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The folders whose `.rs` files the page must name, `crates/*/src` and
/// `crates/*/build.rs` added by `source_files`.
const FOLDERS: [&str; 4] = ["src", "tests", "benches", "examples"];

fn walk(dir: &Path, files: &mut BTreeSet<String>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(&path, files);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            let relative = path.strip_prefix(ROOT).unwrap();
            files.insert(relative.to_str().unwrap().replace('\\', "/"));
        }
    }
}

/// Every `.rs` file under `src/`, `crates/*/src/`, `tests/`, `benches/` and
/// `examples/`, and every `crates/*/build.rs`, relative to the top.
fn source_files() -> BTreeSet<String> {
    let root = Path::new(ROOT);
    let mut files = BTreeSet::new();
    for folder in FOLDERS {
        walk(&root.join(folder), &mut files);
    }
    for entry in fs::read_dir(root.join("crates")).unwrap() {
        let krate = entry.unwrap().path();
        walk(&krate.join("src"), &mut files);
        let build = krate.join("build.rs");
        if build.is_file() {
            let relative = build.strip_prefix(ROOT).unwrap();
            files.insert(relative.to_str().unwrap().replace('\\', "/"));
        }
    }
    files
}

/// The backquoted words of `text` that end in `.rs`.
fn quoted_rust_paths(text: &str) -> BTreeSet<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|word| word.ends_with(".rs") && !word.contains(char::is_whitespace))
        .map(str::to_string)
        .collect()
}

#[test]
fn layout_md_names_every_source_file() {
    let page = fs::read_to_string(format!("{ROOT}/docs/layout.md")).unwrap();
    let files = source_files();
    assert!(files.contains("crates/core/build.rs"), "{files:#?}");

    // Each file by its full path, backquoted: `crates/engine/src/search.rs`.
    let missing: Vec<&String> = files
        .iter()
        .filter(|file| !page.contains(&format!("`{file}`")))
        .collect();
    // Each backquoted path that names a folder is a file that exists; a bare
    // file name (`rng.rs`) is a shorthand for one the page names in full.
    let quoted = quoted_rust_paths(&page);
    let stale: Vec<&String> = quoted
        .iter()
        .filter(|word| {
            if word.contains('/') {
                !Path::new(ROOT).join(word).is_file()
            } else {
                !files.iter().any(|file| file.ends_with(&format!("/{word}")))
            }
        })
        .collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "docs/layout.md must name every source file by its full path, in backquotes, \
         and name no file that is gone.\nNot named: {missing:#?}\nNamed but missing: {stale:#?}"
    );
}
