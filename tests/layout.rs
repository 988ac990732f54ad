//! The README's Layout table matches the tree: every top-level path git tracks is named in
//! the table's first column (directories with a trailing `/`), and every path the table names
//! is tracked.
#![cfg(not(target_arch = "wasm32"))]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test harness"
)]

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The top-level paths git tracks, directories spelled with a trailing `/`.
fn tracked() -> BTreeSet<String> {
    let out = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(ROOT)
        .output()
        .unwrap_or_else(|e| panic!("cannot run `git ls-files`: {e}; this test needs git"));
    assert!(
        out.status.success(),
        "`git ls-files` failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .split('\0')
        .filter(|p| !p.is_empty())
        .map(|p| match p.split_once('/') {
            Some((dir, _)) => format!("{dir}/"),
            None => p.to_owned(),
        })
        .collect()
}

/// The backticked paths in the first column of the README's Layout table.
fn described(readme: &str) -> BTreeSet<String> {
    let section = readme
        .split("\n## ")
        .find(|s| s.starts_with("Layout\n"))
        .expect("README.md has no `## Layout` section");
    let mut paths = BTreeSet::new();
    for line in section.lines().filter(|l| l.starts_with("| `")) {
        let cell = line.split('|').nth(1).unwrap_or("");
        for (i, piece) in cell.split('`').enumerate() {
            if i % 2 == 1 {
                assert!(paths.insert(piece.to_owned()), "`{piece}` is named twice");
            }
        }
    }
    assert!(!paths.is_empty(), "the Layout table names no path");
    paths
}

/// What is on one side and not the other, for the message.
fn missing(from: &BTreeSet<String>, of: &BTreeSet<String>) -> Vec<String> {
    of.difference(from).cloned().collect()
}

#[test]
fn the_readme_layout_names_every_top_level_path_and_only_those() {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let described = described(&readme);
    let tracked = tracked();
    let undescribed = missing(&described, &tracked);
    let stale = missing(&tracked, &described);
    assert!(
        undescribed.is_empty(),
        "README.md's Layout table does not describe {undescribed:?}: add a row for each"
    );
    assert!(
        stale.is_empty(),
        "README.md's Layout table names {stale:?}, which git does not track at the top level \
         (directories are written with a trailing `/`): remove or fix those rows"
    );
    for path in &described {
        assert!(
            Path::new(ROOT).join(path).exists(),
            "`{path}` does not exist"
        );
    }
}

#[test]
fn the_table_reader_finds_each_backticked_path() {
    let readme = "# x\n\n## Layout\n\n| path | what |\n| --- | --- |\n\
                  | `src/` | code with `a` |\n| `Cargo.toml`, `Cargo.lock` | the crate |\n\n## Next\n| `no/` | x |\n";
    let found: Vec<String> = described(readme).into_iter().collect();
    assert_eq!(found, ["Cargo.lock", "Cargo.toml", "src/"]);
}

#[test]
fn there_is_one_benchmark_folder() {
    let tracked = tracked();
    let benches: Vec<&String> = tracked
        .iter()
        .filter(|p| p.to_lowercase().contains("bench"))
        .collect();
    assert_eq!(benches, ["bench/"], "benchmarks live in `bench/` only");
}
