//! Dumps the native decision of every fixture case to `target/native-decisions.json`, for the
//! JS runners (`tests/js/parity.test.mjs` in Node, `tests/browser/parity.test.mjs` in
//! Chromium) to compare the package's decisions against, whole.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/fixture.rs"]
mod fixture;

use std::path::{Path, PathBuf};

use fixture::Fixture;
use serde_json::{json, Map, Value};
use toolgate::Policy;

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    paths.sort();
    for p in paths {
        // `agents/` holds captured agent hook payloads, not decision tables.
        if p.is_dir() && !p.ends_with("agents") {
            json_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "json")
            && p.file_name().is_some_and(|n| n != "smoke.json")
        {
            out.push(p);
        }
    }
}

#[test]
fn dump_native_decisions() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixtures = root.join("tests/fixtures");
    let mut files = Vec::new();
    json_files(&fixtures, &mut files);
    let mut out = Map::new();
    let mut cases = 0;
    for file in &files {
        let name = file.strip_prefix(&fixtures).unwrap().display().to_string();
        let fx = Fixture::from_json(&std::fs::read_to_string(file).unwrap()).unwrap();
        let policy = Policy::from_document(fx.policy.clone()).unwrap();
        let decided: Vec<Value> = fx
            .cases
            .iter()
            .map(|c| {
                let request = fx.request(c);
                let decision = policy.evaluate(&request);
                json!({ "name": c.name, "request": request, "decision": decision })
            })
            .collect();
        cases += decided.len();
        out.insert(name, json!({ "policy": fx.policy, "cases": decided }));
    }
    assert!(cases > 100, "only {cases} fixture cases");
    let target = root.join("target");
    std::fs::create_dir_all(&target).unwrap();
    let text = serde_json::to_string(&Value::Object(out)).unwrap();
    std::fs::write(target.join("native-decisions.json"), text).unwrap();
}
