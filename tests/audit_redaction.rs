//! Properties of redaction and of the trust document, over generated inputs.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, reason = "tests")]

use proptest::prelude::*;
use serde_json::Value;
use toolgate::audit::redact;
use toolgate::trust::{NewGrant, TrustStore};
use toolgate::TrustOverlay;
use toolgate::{Decision, Evaluate, Request};

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        ".{0,40}".prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 128, 24, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..24).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,8}", inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn leaves(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|i| leaves(i, out)),
        Value::Object(map) => map.values().for_each(|i| leaves(i, out)),
        Value::Number(n) => out.push(n.to_string()),
        Value::Bool(_) | Value::Null => {}
    }
}

fn is_marker(s: &str) -> bool {
    let Some(inner) = s.strip_prefix('<').and_then(|s| s.strip_suffix('>')) else {
        return false;
    };
    let counted = |prefix: &str| {
        inner
            .strip_prefix(prefix)
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    };
    inner == "number"
        || inner == "boolean"
        || counted("string:")
        || counted("array:")
        || counted("object:")
        || inner
            .strip_prefix('+')
            .and_then(|r| r.strip_suffix(" more"))
            .is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()))
}

struct AnyRule;
impl Evaluate for AnyRule {
    fn evaluate_with(&self, _: &Request, _: &TrustOverlay) -> Decision {
        unimplemented!("not needed")
    }
    fn check_rule(&self, _: &str) -> toolgate::Result<()> {
        Ok(())
    }
}

proptest! {
    #[test]
    fn redaction_keeps_only_shape_markers(v in json_value()) {
        let mut out = Vec::new();
        leaves(&redact(&v), &mut out);
        for leaf in out {
            prop_assert!(is_marker(&leaf), "content leaked: {leaf:?}");
        }
    }

    #[test]
    fn trust_documents_round_trip_and_detect_changes(
        rules in prop::collection::btree_set("(Write|Edit|Read|WebFetch)\\([a-z/*.]{1,12}\\)", 0..8),
        agents in prop::collection::btree_set("[a-z]{1,6}", 0..3),
        flip in any::<prop::sample::Index>(),
    ) {
        let mut store = TrustStore::new();
        for (i, rule) in rules.iter().enumerate() {
            let agent = agents.iter().nth(i % agents.len().max(1));
            store
                .grant(NewGrant::always(rule).for_agent(agent.map(String::as_str)), &AnyRule, i as u64)
                .unwrap();
        }
        for a in &agents {
            store.set_agent_bypass(a, true);
        }
        let text = store.export(0);
        let mut again = TrustStore::new();
        again.import(&text, &AnyRule).unwrap();
        prop_assert_eq!(again.export(0), text.clone());

        // Change one character inside a quoted value of the content: the import fails and
        // leaves the store as it was.
        let body_end = text.find("\"checksum\"").unwrap();
        let quoted: Vec<usize> = text[..body_end]
            .char_indices()
            .filter(|(_, c)| c.is_ascii_lowercase())
            .map(|(i, _)| i)
            .collect();
        if !quoted.is_empty() {
            let at = quoted[flip.index(quoted.len())];
            let mut changed = text.clone();
            let c = changed.as_bytes()[at];
            let replacement = if c == b'z' { "y" } else { "z" };
            changed.replace_range(at..=at, replacement);
            let before = again.clone();
            prop_assert!(again.import(&changed, &AnyRule).is_err());
            prop_assert_eq!(again, before);
        }
    }
}
