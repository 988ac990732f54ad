//! Fuzzes rule parsing: any text parses or is an error, never a panic, and a rule that
//! parses prints back to a rule that parses to itself. A policy with the rule in every list
//! compiles or fails with an error.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolgate::{Policy, Rule};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(rule) = Rule::parse(text) else {
        return;
    };
    let shown = rule.to_string();
    let again = Rule::parse(&shown).unwrap_or_else(|e| panic!("{shown:?} does not parse: {e}"));
    assert_eq!(again, rule, "round trip of {text:?}");
    assert_eq!(again.to_string(), shown);
    let doc = serde_json::json!({ "permissions": { "allow": [text], "ask": [text], "deny": [text] } });
    let _ = Policy::from_json(&doc.to_string());
});
