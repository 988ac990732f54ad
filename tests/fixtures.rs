//! Runs every decision table under `tests/fixtures/` and reports each failing case with its
//! file and name.
#![cfg(not(target_arch = "wasm32"))]
// Test helpers may panic: a panic is a test failure.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/fixture.rs"]
mod fixture;

use std::path::{Path, PathBuf};

use fixture::Fixture;

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        // `agents/` holds captured agent hook payloads, not decision tables.
        if p.is_dir() && !p.ends_with("agents") {
            json_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "json") {
            out.push(p);
        }
    }
}

#[test]
fn every_fixture_case_passes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut files = Vec::new();
    json_files(&root, &mut files);
    assert!(!files.is_empty(), "no fixtures under {}", root.display());
    let (mut passed, mut failed) = (0usize, Vec::new());
    for file in &files {
        let shown = file
            .strip_prefix(&root)
            .unwrap_or(file)
            .display()
            .to_string();
        let text = std::fs::read_to_string(file).unwrap();
        let results = Fixture::from_json(&text).and_then(|fx| {
            let mut names = std::collections::HashSet::new();
            for c in &fx.cases {
                assert!(
                    names.insert(c.name.clone()),
                    "{shown}: duplicate case `{}`",
                    c.name
                );
            }
            fx.run()
        });
        match results {
            Err(e) => failed.push(format!("{shown}: does not load: {e}")),
            Ok(results) => {
                for r in results {
                    if r.passed() {
                        passed += 1;
                    } else {
                        failed.push(format!(
                            "{shown}: case `{}`: expected {}{}, got {} ({}): {}",
                            r.name,
                            r.expect.as_str(),
                            r.expect_decider
                                .as_deref()
                                .map(|d| format!(" by {d}"))
                                .unwrap_or_default(),
                            r.decision.effect.as_str(),
                            r.decider_kind(),
                            r.decision.reason.text
                        ));
                    }
                }
            }
        }
    }
    println!("{passed} passed, {} failed", failed.len());
    for f in &failed {
        println!("FAIL {f}");
    }
    assert!(
        failed.is_empty(),
        "{} fixture case(s) failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}
