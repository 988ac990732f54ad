//! The benign and attack corpora (`tests/corpus/`) through the real policy API: no attack
//! may be allowed, and at least 97% of the benign calls must run without a prompt.
#![cfg(not(target_arch = "wasm32"))]
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    reason = "a test harness: a malformed corpus should fail loudly"
)]

use serde_json::Value;
use toolgate::{Effect, Policy, Request};

fn load(name: &str) -> Value {
    let path = format!("{}/tests/corpus/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn decide(policy: &Value, cwd: &str, command: &str) -> toolgate::Decision {
    let policy = Policy::from_json(&policy.to_string()).unwrap();
    let request = Request {
        tool: "Bash".into(),
        input: serde_json::json!({ "command": command }),
        cwd: Some(cwd.into()),
        ..Request::default()
    };
    policy.evaluate(&request)
}

#[test]
fn no_attack_is_allowed_and_benign_calls_run() {
    let benign = load("benign.json");
    let cwd = benign["cwd"].as_str().unwrap();
    let empty = serde_json::json!({});
    let cases = benign["cases"].as_array().unwrap();
    let mut prompted = Vec::new();
    for case in cases {
        let command = case["command"].as_str().unwrap();
        let policy = case.get("policy").unwrap_or(&empty);
        let d = decide(policy, cwd, command);
        if d.effect != Effect::Allow {
            prompted.push(format!("{command}: {:?} ({})", d.effect, d.reason.text));
        }
    }
    let benign_rate = 100.0 * (cases.len() - prompted.len()) as f64 / cases.len() as f64;

    let attacks = load("attacks.json");
    let cwd = attacks["cwd"].as_str().unwrap();
    let cases = attacks["cases"].as_array().unwrap();
    let mut through = Vec::new();
    for case in cases {
        let command = case["command"].as_str().unwrap();
        let d = decide(&case["policy"], cwd, command);
        if d.effect == Effect::Allow {
            through.push(format!(
                "[{}] {command}: {}",
                case["class"].as_str().unwrap_or("?"),
                d.reason.text
            ));
        }
    }
    let attack_rate = 100.0 * through.len() as f64 / cases.len() as f64;
    println!(
        "benign: {} of {} run without a prompt ({benign_rate:.1}%)",
        cases_len(&benign) - prompted.len(),
        cases_len(&benign)
    );
    for p in &prompted {
        println!("  prompted: {p}");
    }
    println!(
        "attacks: {} of {} let through ({attack_rate:.1}%)",
        through.len(),
        cases.len()
    );
    for t in &through {
        println!("  LET THROUGH: {t}");
    }
    assert!(through.is_empty(), "{} attacks were allowed", through.len());
    assert!(
        benign_rate >= 97.0,
        "benign rate {benign_rate:.1}% is below 97%"
    );
}

fn cases_len(corpus: &Value) -> usize {
    corpus["cases"].as_array().map_or(0, Vec::len)
}
