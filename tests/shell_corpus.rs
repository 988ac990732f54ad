//! The shell corpus (`tests/fixtures/shell/`) through the reference `LiteralRules`, so that
//! the bypass and ordinary tables are checked against the shell analysis on its own too.
#![cfg(not(target_arch = "wasm32"))]
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    reason = "a test harness: a malformed fixture should fail loudly"
)]
//! Runs the shell fixture tables through `judge` with the literal reference rules (only
//! `Bash(...)`, `Read(...)`, `Edit(...)` and `Write(...)` rules), mapping outcomes to the
//! decision the policy evaluator gives in each mode. The tables are shared with the
//! evaluator's own runner; this keeps them exercised by the shell analysis alone.

#[path = "support/literal_rules.rs"]
mod literal_rules;

use literal_rules::LiteralRules;
use serde_json::Value;
use toolgate::shell::{judge, Outcome};
use toolgate::RuleList;

const HOME: &str = "/home/ada";

fn rules(fixture: &Value) -> LiteralRules {
    let cwd = fixture["cwd"].as_str().unwrap();
    let mut rules = LiteralRules::new(cwd, HOME);
    let perms = &fixture["policy"]["permissions"];
    for (key, list) in [
        ("deny", RuleList::Deny),
        ("ask", RuleList::Ask),
        ("allow", RuleList::Allow),
    ] {
        for rule in perms[key].as_array().into_iter().flatten() {
            rules = rules.rule(list, rule.as_str().unwrap());
        }
    }
    for dir in perms["additionalDirectories"]
        .as_array()
        .into_iter()
        .flatten()
    {
        rules = rules.directory(dir.as_str().unwrap());
    }
    rules
}

/// The decision for one part in `mode`, as issue 3 describes the modes.
fn effect(outcome: &Outcome, mode: &str) -> &'static str {
    let asks = |m: &str| {
        if m == "dontAsk" || m == "plan" {
            "deny"
        } else {
            "ask"
        }
    };
    match (outcome, mode) {
        (Outcome::Denied(_), _) => "deny",
        (Outcome::AskRule(_), m) => asks(m),
        (Outcome::Critical { .. }, "dontAsk" | "plan") => "deny",
        (Outcome::Critical { .. }, _) => "ask",
        (Outcome::ReadOnly, _) => "allow",
        (_, "bypassPermissions") => "allow",
        (Outcome::Allowed(_), "plan") => "deny",
        (Outcome::Allowed(_), _) => "allow",
        (_, m) => asks(m),
    }
}

fn strictness(effect: &str) -> u8 {
    match effect {
        "allow" => 0,
        "ask" => 1,
        _ => 2,
    }
}

fn run(file: &str) -> usize {
    let path = format!("{}/tests/fixtures/shell/{file}", env!("CARGO_MANIFEST_DIR"));
    let fixture: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let rules = rules(&fixture);
    let mut failures = Vec::new();
    let mut slowest = (std::time::Duration::ZERO, String::new());
    let cases = fixture["cases"].as_array().unwrap();
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let command = case["command"].as_str().unwrap();
        let mode = case["mode"].as_str().unwrap_or("default");
        let expect = case["expect"].as_str().unwrap();
        let started = std::time::Instant::now();
        let parts = judge(command, &rules);
        slowest = slowest.max((started.elapsed(), name.to_owned()));
        assert!(!parts.is_empty(), "{name}: no parts");
        let got = parts
            .iter()
            .map(|p| effect(&p.outcome, mode))
            .max_by_key(|e| strictness(e))
            .unwrap();
        if got != expect {
            let shown: Vec<String> = parts
                .iter()
                .map(|p| {
                    let text: String = p.text.chars().take(60).collect();
                    format!("{text:?} → {:?}", p.outcome)
                })
                .take(6)
                .collect();
            let severity = if got == "allow" { "ALLOWED " } else { "" };
            failures.push(format!(
                "{severity}{name}: expected {expect}, got {got}\n    {}",
                shown.join("\n    ")
            ));
        }
    }
    println!("{file}: slowest case {:?} ({})", slowest.0, slowest.1);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    cases.len()
}

#[test]
fn bypass_attempts_are_never_allowed() {
    assert!(run("bypass.json") >= 150);
}

#[test]
fn ordinary_commands_are_not_over_blocked() {
    assert!(run("ordinary.json") >= 50);
}
