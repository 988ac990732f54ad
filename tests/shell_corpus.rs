//! The shell corpus (`tests/corpus/shell/`) through `judge` with the literal reference rules
//! (only `Bash(...)`, `Read(...)`, `Edit(...)` and `Write(...)` rules), mapping outcomes to
//! the decision the policy evaluator gives in each mode. The native corpus runner
//! (`tests/corpus.rs`) runs the same files through the whole policy; this keeps them
//! exercised by the shell analysis alone.
#![cfg(not(target_arch = "wasm32"))]
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    reason = "a test harness: a malformed corpus file should fail loudly"
)]

#[path = "corpus/schema.rs"]
mod schema;

#[path = "support/literal_rules.rs"]
mod literal_rules;

use literal_rules::LiteralRules;
use serde_json::Value;
use toolgate::shell::{judge, Outcome};
use toolgate::RuleList;

const HOME: &str = "/home/ada";

fn rules(file: &schema::CorpusFile) -> LiteralRules {
    let cwd = file.cwd.as_deref().unwrap();
    let mut rules = LiteralRules::new(cwd, HOME);
    let policy = file.policy.clone().unwrap_or(Value::Null);
    let perms = &policy["permissions"];
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

/// The decision for one part in `mode`, as `docs/rules.md` describes the modes.
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
    let loaded = schema::load(&format!("shell/{file}"));
    let fixture = &loaded.file;
    let rules = rules(fixture);
    let mut failures = Vec::new();
    let mut slowest = (std::time::Duration::ZERO, String::new());
    let cases = &fixture.cases;
    for case in cases {
        assert!(
            case.policy.is_none(),
            "shell tables hold one policy per file"
        );
        let name = case.name();
        let name = name.as_str();
        let command = case.command.as_deref().unwrap();
        let mode = case.mode.as_deref().unwrap_or("default");
        let expect = fixture.expect_for(case);
        let started = std::time::Instant::now();
        let parts = judge(command, &rules);
        slowest = slowest.max((started.elapsed(), name.to_owned()));
        assert!(!parts.is_empty(), "{name}: no parts");
        let got = parts
            .iter()
            .map(|p| effect(&p.outcome, mode))
            .max_by_key(|e| strictness(e))
            .unwrap();
        if !expect.admits(got) {
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
                "{severity}{name}: expected {}, got {got}\n    {}",
                expect.as_str(),
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
