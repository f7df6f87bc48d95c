//! Issue 52: no two source files use each other, directly or through others.
//!
//! The graph is "file A uses a name defined in file B" over every `.rs` file
//! of the workspace's crates (not the tests), and it must have no circles.
//! The files are read as text: comments, string literals and `#[cfg(test)]`
//! items are dropped (unit tests may use their parent), then the module trees
//! are built from the crate roots' `mod` declarations (`#[path]` honoured,
//! inline `mod name { … }` part of its file). Each `use` declaration and each
//! path in code (`crate::search::MATE`, `super::view::numbered`,
//! `catena_core::board::Square`) is walked module by module to the file that
//! defines its last name (`fn`, `struct`, `enum`, `const`, `static`, `type`,
//! `trait`, `union`, `macro_rules!`), following re-exports (`pub use`, with
//! `as` and `*`) to where the name is defined. Importing a module is no use
//! by itself, the paths through it are; a `pub use` is a use only if the file
//! mentions the name itself; a glob `use` uses the names it brings that the
//! file mentions. A file's use of itself does not count.

mod cycles;
mod resolve;
mod scan;
mod tokens;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use resolve::{CrateRoot, Uses, Workspace};

#[test]
fn source_files_use_each_other_in_one_direction_only() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let sources = source_files(root);
    let workspace = Workspace::load(crate_roots(root), &sources).unwrap();
    let reached = workspace.files();
    let unreached: Vec<&String> = sources.keys().filter(|f| !reached.contains(*f)).collect();
    assert!(
        unreached.is_empty(),
        "no crate root reaches these files through `mod` declarations, so the \
         check cannot place them (teach tests/it/architecture.rs): {unreached:?}"
    );
    let (uses, unknown) = workspace.uses();
    if !unknown.is_empty() {
        eprintln!("names not found where their paths lead (counted as defined there):");
        unknown.iter().for_each(|name| eprintln!("  {name}"));
    }
    let circles = cycles::circles(&uses);
    let report: Vec<String> = circles.iter().map(|c| cycles::describe(c, &uses)).collect();
    assert!(
        circles.is_empty(),
        "source files use each other (issue 52); each circle, with the names each \
         file uses from another in it:\n{}",
        report.join("\n")
    );
}

/// The resolver on a small workspace: the circle between `engine.rs` and
/// `uci.rs`, uses through `pub use` going to the defining file, not to
/// `board/mod.rs`, and nothing from comments, strings or unit tests.
#[test]
fn the_check_follows_reexports_and_finds_a_circle() {
    let files = [
        ("core/src/lib.rs", "pub mod board;"),
        (
            "core/src/board/mod.rs",
            "mod bitboard;\nmod square;\npub use bitboard::Bitboard;\npub use square::*;\n\
             pub fn empty() -> Bitboard { bitboard::Bitboard(0) }",
        ),
        (
            "core/src/board/bitboard.rs",
            "pub struct Bitboard(pub u64);",
        ),
        (
            "core/src/board/square.rs",
            "pub struct Square(u8);\npub const A1: Square = Square(0);",
        ),
        ("engine/src/lib.rs", "pub mod engine;\npub mod uci;"),
        (
            "engine/src/engine.rs",
            "use catena_core::board::Bitboard;\nuse crate::uci::{self, send};\n\
             /// Sends `crate::engine::Engine` through crate::uci::quote.\n\
             pub struct Engine(Bitboard);\n\
             fn go() { send(\"super::uci::quote\"); uci::bestmove_line(); }",
        ),
        (
            "engine/src/uci.rs",
            "use crate::engine::Engine;\npub fn send(_: &str) {}\n\
             pub fn bestmove_line() -> Engine { let _ = catena_core::board::A1; todo!() }\n\
             pub fn quote() {}\n\
             #[cfg(test)]\nmod tests {\n    use super::*;\n    use catena_core::board::Square;\n}",
        ),
    ];
    let sources = files
        .iter()
        .map(|(path, text)| (path.to_string(), text.to_string()))
        .collect();
    let crates = vec![
        crate_root("catena_core", "core/src/lib.rs", &[]),
        crate_root("catena_engine", "engine/src/lib.rs", &["catena_core"]),
    ];
    let (uses, unknown) = Workspace::load(crates, &sources).unwrap().uses();

    let expected: Uses = [
        (
            "core/src/board/mod.rs",
            "core/src/board/bitboard.rs",
            "Bitboard",
        ),
        (
            "engine/src/engine.rs",
            "core/src/board/bitboard.rs",
            "Bitboard",
        ),
        ("engine/src/engine.rs", "engine/src/uci.rs", "bestmove_line"),
        ("engine/src/engine.rs", "engine/src/uci.rs", "send"),
        ("engine/src/uci.rs", "core/src/board/square.rs", "A1"),
        ("engine/src/uci.rs", "engine/src/engine.rs", "Engine"),
    ]
    .into_iter()
    .fold(Uses::new(), |mut uses, (from, to, name)| {
        let names = uses.entry((from.to_string(), to.to_string())).or_default();
        names.insert(name.to_string());
        uses
    });
    assert_eq!(uses, expected);
    assert!(unknown.is_empty(), "{unknown:?}");
    let circle = vec![
        "engine/src/engine.rs".to_string(),
        "engine/src/uci.rs".to_string(),
    ];
    assert_eq!(cycles::circles(&uses), vec![circle.clone()]);
    assert_eq!(
        cycles::describe(&circle, &uses),
        "a circle of 2 files: engine/src/engine.rs, engine/src/uci.rs\n  \
         engine/src/engine.rs -> engine/src/uci.rs: bestmove_line, send\n  \
         engine/src/uci.rs -> engine/src/engine.rs: Engine\n"
    );
}

fn crate_root(name: &str, root: &str, externs: &[&str]) -> CrateRoot {
    CrateRoot {
        name: name.to_string(),
        root: root.to_string(),
        externs: externs.iter().map(|e| e.to_string()).collect(),
    }
}

/// The crates: the root package's library and binaries, and each member
/// under `crates/`. Any of them may name any library (Cargo checks which
/// it really depends on).
fn crate_roots(root: &Path) -> Vec<CrateRoot> {
    let mut libraries = vec![(package_name(&root.join("Cargo.toml")), "src".to_string())];
    for member in sorted_entries(&root.join("crates")) {
        let manifest = member.join("Cargo.toml");
        if manifest.exists() {
            let dir = format!("crates/{}/src", file_name(&member));
            libraries.push((package_name(&manifest), dir));
        }
    }
    let names: Vec<&str> = libraries.iter().map(|(name, _)| name.as_str()).collect();
    let mut crates = Vec::new();
    for (name, dir) in &libraries {
        let others: Vec<&str> = names.iter().copied().filter(|n| n != name).collect();
        if root.join(dir).join("lib.rs").exists() {
            crates.push(crate_root(name, &format!("{dir}/lib.rs"), &others));
        }
        for binary in binary_roots(root, dir) {
            crates.push(crate_root(&format!("{name}-{binary}"), &binary, &names));
        }
        let build_script = dir.replace("src", "build.rs");
        if root.join(&build_script).exists() {
            crates.push(crate_root(&format!("{name}-build"), &build_script, &[]));
        }
    }
    crates
}

/// `dir/main.rs` and `dir/bin/*.rs` (or `dir/bin/*/main.rs`), relative to `root`.
fn binary_roots(root: &Path, dir: &str) -> Vec<String> {
    let mut binaries = Vec::new();
    if root.join(dir).join("main.rs").exists() {
        binaries.push(format!("{dir}/main.rs"));
    }
    for entry in sorted_entries(&root.join(dir).join("bin")) {
        let name = file_name(&entry);
        if entry.join("main.rs").exists() {
            binaries.push(format!("{dir}/bin/{name}/main.rs"));
        } else if name.ends_with(".rs") {
            binaries.push(format!("{dir}/bin/{name}"));
        }
    }
    binaries
}

/// `name = "catena-core"` in a manifest, as paths spell it: `catena_core`.
fn package_name(manifest: &Path) -> String {
    let text = fs::read_to_string(manifest).unwrap();
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("name"))
        .unwrap();
    let name = line.split('"').nth(1).unwrap();
    name.replace('-', "_")
}

/// Every `.rs` file under `src/` and `crates/*/src/`, and the build scripts
/// (which may take a file from `src/` with `#[path]`): path from `root` -> text.
fn source_files(root: &Path) -> BTreeMap<String, String> {
    let mut dirs = vec!["src".to_string()];
    for member in sorted_entries(&root.join("crates")) {
        dirs.push(format!("crates/{}/src", file_name(&member)));
    }
    let mut files = BTreeMap::new();
    for dir in &dirs {
        let build_script = dir.replace("src", "build.rs");
        if let Ok(text) = fs::read_to_string(root.join(&build_script)) {
            files.insert(build_script, text);
        }
    }
    while let Some(dir) = dirs.pop() {
        for entry in sorted_entries(&root.join(&dir)) {
            let path = format!("{dir}/{}", file_name(&entry));
            if entry.is_dir() {
                dirs.push(path);
            } else if path.ends_with(".rs") {
                files.insert(path, fs::read_to_string(&entry).unwrap());
            }
        }
    }
    files
}

fn sorted_entries(dir: &Path) -> BTreeSet<std::path::PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return BTreeSet::new();
    };
    entries.map(|entry| entry.unwrap().path()).collect()
}

fn file_name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}
