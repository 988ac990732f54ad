//! The native runner of the corpus (`tests/corpus/`, schema in `tests/corpus/README.md`):
//! every case of every file decided by the native engine and checked against its
//! expectations (decision tables: the exact effect and decider; benign: allowed without a
//! prompt; attacks: never allowed; dangerous: stopped, naming the danger class). It writes
//! the decisions to `tests/output/corpus.json`; the Node and Chromium runners
//! (`tests/differential/{node,chromium}.test.mjs`) decide the same cases with the wasm
//! package, check the same expectations and require the same decision JSON.
#![cfg(not(target_arch = "wasm32"))]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test harness: a malformed corpus should fail loudly"
)]

#[path = "corpus/schema.rs"]
mod schema;

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use serde_json::{json, Map, Value};
use toolgate::{Policy, Request};

/// The effects one file's decisions had.
#[derive(Default)]
struct Tally {
    cases: usize,
    allow: usize,
    ask: usize,
    deny: usize,
    named: usize,
}

impl Tally {
    fn add(&mut self, decision: &Value) {
        self.cases += 1;
        match decision["effect"].as_str() {
            Some("allow") => self.allow += 1,
            Some("ask") => self.ask += 1,
            _ => self.deny += 1,
        }
        if decision["dangers"]
            .as_array()
            .is_some_and(|d| !d.is_empty())
        {
            self.named += 1;
        }
    }
}

/// Decides every case of `loaded`, appending what fails its expectations to `failures`.
fn decide_file(loaded: &schema::Loaded, failures: &mut Vec<String>) -> (Vec<Value>, Tally) {
    let file = &loaded.file;
    let mut policies: HashMap<String, Policy> = HashMap::new();
    let mut decisions = Vec::with_capacity(file.cases.len());
    let mut tally = Tally::default();
    for case in &file.cases {
        let shown = format!("{}: `{}`", loaded.path, case.name());
        let document = file.policy_for(case).to_string();
        if !policies.contains_key(&document) {
            match Policy::from_json(&document) {
                Ok(policy) => {
                    policies.insert(document.clone(), policy);
                }
                Err(e) => {
                    failures.push(format!("{shown}: the policy does not load: {e}"));
                    decisions.push(Value::Null);
                    continue;
                }
            }
        }
        let request = match Request::from_json(&file.request_for(case).to_string()) {
            Ok(request) => request,
            Err(e) => {
                failures.push(format!("{shown}: the request does not load: {e}"));
                decisions.push(Value::Null);
                continue;
            }
        };
        let decision = serde_json::to_value(policies[&document].evaluate(&request)).unwrap();
        for problem in file.check(case, &decision) {
            failures.push(format!(
                "{shown}: {problem} ({})",
                decision["reason"]["text"].as_str().unwrap_or("")
            ));
        }
        tally.add(&decision);
        decisions.push(decision);
    }
    (decisions, tally)
}

#[test]
fn every_case_meets_its_expectations_and_the_decisions_are_written() {
    let files = schema::load_all();
    let started = Instant::now();
    let mut failures = Vec::new();
    let mut written = Map::new();
    let mut tallies = Vec::new();
    for loaded in &files {
        let (decisions, tally) = decide_file(loaded, &mut failures);
        written.insert(loaded.path.clone(), Value::Array(decisions));
        tallies.push((loaded.path.as_str(), tally));
    }
    let elapsed = started.elapsed();

    let total: usize = tallies.iter().map(|(_, t)| t.cases).sum();
    for (path, t) in &tallies {
        println!(
            "{path}: {} cases: {} allowed without a prompt, {} asked, {} denied; {} name a \
             danger class",
            t.cases, t.allow, t.ask, t.deny, t.named
        );
    }
    println!(
        "native: {total} cases in {} files decided in {:.1} ms ({} build)",
        files.len(),
        elapsed.as_secs_f64() * 1000.0,
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        }
    );

    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/output");
    std::fs::create_dir_all(&out).unwrap();
    let text = serde_json::to_string(&json!({ "cases": total, "files": written })).unwrap();
    std::fs::write(out.join("corpus.json"), text).unwrap();

    for f in &failures {
        println!("FAIL {f}");
    }
    assert!(
        failures.is_empty(),
        "{} case(s) fail their expectations:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Each purpose keeps enough cases that a lost or emptied file shows.
    let count = |prefix: &str| -> usize {
        tallies
            .iter()
            .filter(|(path, _)| path.starts_with(prefix))
            .map(|(_, t)| t.cases)
            .sum()
    };
    for (prefix, at_least) in [
        ("tables/", 250),
        ("shell/bypass.json", 150),
        ("shell/ordinary.json", 50),
        ("benign.json", 150),
        ("attacks.json", 150),
        ("dangerous.json", 140),
    ] {
        let n = count(prefix);
        assert!(
            n >= at_least,
            "{prefix} has {n} cases, fewer than {at_least}"
        );
    }
}

// The schema's own checks: what `tests/corpus/schema.rs` refuses, builds and reports.

fn file(text: &str) -> Result<schema::CorpusFile, String> {
    schema::CorpusFile::from_json(text)
}

#[test]
fn a_case_needs_one_request_and_an_expectation() {
    let both = r#"{"description":"d","expect":"stop","cases":[
        {"command":"ls","request":{"tool":"Read","input":{}}}]}"#;
    assert!(file(both).unwrap_err().contains("exactly one"));
    let none = r#"{"description":"d","cases":[{"command":"ls"}]}"#;
    assert!(file(none).unwrap_err().contains("no `expect`"));
    let twice =
        r#"{"description":"d","expect":"stop","cases":[{"command":"ls"},{"command":"ls"}]}"#;
    assert!(file(twice).unwrap_err().contains("second case named `ls`"));
    let unknown = r#"{"description":"d","cases":[{"command":"ls","expect":"allow","x":1}]}"#;
    assert!(file(unknown).is_err());
}

#[test]
fn requests_take_the_file_cwd_and_the_case_mode() {
    let f = file(
        r#"{"description":"d","cwd":"/p","expect":"allow","cases":[
        {"command":"ls","mode":"plan"},
        {"request":{"tool":"Read","input":{"file_path":"a"},"cwd":"/q"}}]}"#,
    )
    .unwrap();
    assert_eq!(
        f.request_for(&f.cases[0]),
        json!({"tool":"Bash","input":{"command":"ls"},"cwd":"/p","mode":"plan"})
    );
    assert_eq!(f.request_for(&f.cases[1])["cwd"], "/q");
    assert_eq!(f.policy_for(&f.cases[0]), json!({}));
}

#[test]
fn checks_name_what_differs() {
    let f = file(
        r#"{"description":"d","expect":"stop","cases":[
        {"command":"rm -rf x","danger":"recursive-delete","decider":"rule"}]}"#,
    )
    .unwrap();
    let decision = json!({"effect":"allow","reason":{"decider":{"kind":"mode"}}});
    let problems = f.check(&f.cases[0], &decision);
    assert_eq!(problems.len(), 3, "{problems:?}");
    let stopped = json!({"effect":"ask","reason":{"decider":{"kind":"rule"}},
        "dangers":[{"class":"recursive-delete"}]});
    assert!(f.check(&f.cases[0], &stopped).is_empty());
}
