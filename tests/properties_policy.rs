//! Properties of the policy and its documents: adding an ask rule never loosens a decision,
//! remembered trust never beats a deny or an explicit ask rule, and every document (policy,
//! trust, request) survives serialize → parse → serialize unchanged.
#![cfg(not(target_arch = "wasm32"))]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod property_support;

use property_support::{host, path_anchor, path_segment, words};
use proptest::prelude::*;
use serde_json::{json, Value};
use toolgate::policy::PolicyDocument;
use toolgate::trust::{NewGrant, Scope};
use toolgate::{
    Decider, Effect, Evaluate, Mode, Policy, Request, RuleList, TrustOverlay, TrustStore,
};

fn path() -> impl Strategy<Value = String> {
    (path_anchor(), prop::collection::vec(path_segment(), 1..4))
        .prop_map(|(anchor, segs)| format!("{anchor}{}", segs.join("/")))
}

/// Rules of every form, including tool-wide ones and tool-name globs.
fn rule() -> impl Strategy<Value = String> {
    prop_oneof![
        (
            prop_oneof![Just("Bash"), Just("shell")],
            words(),
            prop_oneof![Just(""), Just(" *"), Just(":*")]
        )
            .prop_map(|(t, w, s)| format!("{t}({w}{s})")),
        (
            prop_oneof![Just("Read"), Just("Edit"), Just("Write"), Just("Delete")],
            path()
        )
            .prop_map(|(t, p)| format!("{t}({p})")),
        host().prop_map(|h| format!("WebFetch(domain:{h})")),
        prop_oneof![
            Just("Bash".to_owned()),
            Just("Read".to_owned()),
            Just("Edit".to_owned()),
            Just("WebFetch".to_owned()),
            Just("mcp__github".to_owned()),
            Just("mcp__github__*".to_owned()),
            Just("mcp__*".to_owned()),
            "mcp__[a-z]{1,4}__[a-z_]{1,5}\\*?",
        ],
    ]
}

fn mode() -> impl Strategy<Value = Mode> {
    prop_oneof![
        Just(Mode::Default),
        Just(Mode::AcceptEdits),
        Just(Mode::Plan),
        Just(Mode::DontAsk),
        Just(Mode::BypassPermissions),
    ]
}

fn request() -> impl Strategy<Value = Request> {
    let with = |tool: &str, input: Value| Request {
        tool: tool.to_owned(),
        input,
        cwd: Some("/home/ada/proj".to_owned()),
        ..Request::default()
    };
    (
        prop_oneof![
            words().prop_map(move |c| with("Bash", json!({ "command": c }))),
            (
                prop_oneof![Just("Read"), Just("Edit"), Just("Write"), Just("Delete")],
                path()
            )
                .prop_map(move |(t, p)| with(t, json!({ "file_path": p.replace('*', "x") }))),
            host().prop_map(move |h| with(
                "WebFetch",
                json!({ "url": format!("https://{}/x", h.trim_start_matches("*.")) })
            )),
            ("[a-z]{1,4}", "[a-z_]{1,5}")
                .prop_map(move |(s, t)| with(&format!("mcp__{s}__{t}"), json!({}))),
            Just(with("mcp__github__get_issue", json!({}))),
        ],
        mode(),
        prop::option::of(prop_oneof![
            Just("claude".to_owned()),
            Just("codex".to_owned())
        ]),
    )
        .prop_map(|(mut r, m, agent)| {
            r.mode = Some(m);
            r.agent = agent;
            r
        })
}

fn overlay() -> impl Strategy<Value = TrustOverlay> {
    (prop::collection::vec(rule(), 0..4), any::<bool>()).prop_map(|(allow_rules, bypass)| {
        TrustOverlay {
            allow_rules,
            agent_bypass: bypass,
        }
    })
}

fn policy(allow: &[String], ask: &[String], deny: &[String]) -> Policy {
    let doc = json!({ "permissions": { "allow": allow, "ask": ask, "deny": deny } });
    Policy::from_json(&doc.to_string()).unwrap()
}

fn explicit_ask(d: &toolgate::Decision) -> bool {
    matches!(
        d.reason.decider,
        Decider::Rule {
            list: RuleList::Ask,
            ..
        }
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn adding_an_ask_rule_never_loosens_a_decision(
        allow in prop::collection::vec(rule(), 0..6),
        ask in prop::collection::vec(rule(), 0..3),
        deny in prop::collection::vec(rule(), 0..3),
        extra in rule(),
        request in request(),
    ) {
        let before = policy(&allow, &ask, &deny).evaluate(&request);
        let mut more = ask.clone();
        more.push(extra);
        let after = policy(&allow, &more, &deny).evaluate(&request);
        prop_assert!(after.effect >= before.effect, "before {:?}, after {:?}", before, after);
    }

    #[test]
    fn trust_never_loosens_a_deny_or_an_explicit_ask(
        allow in prop::collection::vec(rule(), 0..4),
        ask in prop::collection::vec(rule(), 0..3),
        deny in prop::collection::vec(rule(), 0..3),
        trust in overlay(),
        request in request(),
    ) {
        let p = policy(&allow, &ask, &deny);
        let plain = p.evaluate(&request);
        let trusted = p.evaluate_with(&request, &trust);
        // A deny that `plan` or `dontAsk` made of an ask is what remembered answers and
        // bypass exist to answer (as allow rules would); a deny that stands in the default
        // mode always stands. (The broker consults trust only when the plain decision asks,
        // so it never loosens a mode's deny either.)
        let mut default_mode = request.clone();
        default_mode.mode = Some(Mode::Default);
        let hard = p.evaluate(&default_mode).effect == Effect::Deny;
        if plain.effect == Effect::Deny && hard {
            prop_assert_eq!(trusted.effect, Effect::Deny, "{:?} → {:?}", plain, trusted);
        }
        let asked = p.evaluate(&default_mode);
        if (plain.effect == Effect::Ask && explicit_ask(&plain))
            || (asked.effect == Effect::Ask && explicit_ask(&asked))
        {
            prop_assert_ne!(trusted.effect, Effect::Allow, "{:?} → {:?}", plain, trusted);
        }
        // Trust only ever loosens: it never makes a decision stricter than no trust at all.
        prop_assert!(trusted.effect <= plain.effect, "{:?} → {:?}", plain, trusted);
    }
}

/// Any JSON value of modest size (tool inputs are free-form).
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        "\\PC{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,6}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn any_request() -> impl Strategy<Value = Request> {
    (
        "\\PC{1,12}",
        json_value(),
        prop::option::of("/[a-z/]{0,12}"),
        prop::option::of(mode()),
        prop::option::of("[a-z]{1,6}"),
        prop::option::of("[a-z]{1,6}"),
        prop::option::of((any::<Option<bool>>(), any::<Option<bool>>())),
        prop::collection::btree_map("[a-z./]{1,8}", "/[a-z/]{1,8}", 0..3),
        prop::option::of("/[a-z/]{0,8}"),
    )
        .prop_map(
            |(tool, input, cwd, mode, agent, server, ann, realpaths, git_top)| {
                let annotations = ann.map(|(read_only, destructive)| {
                    serde_json::from_value(json!({
                        "readOnlyHint": read_only, "destructiveHint": destructive,
                    }))
                    .unwrap()
                });
                Request {
                    tool,
                    input,
                    cwd,
                    root: None,
                    mode,
                    agent,
                    server,
                    annotations,
                    realpaths,
                    git_top,
                }
            },
        )
}

fn permissions() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(rule(), 0..3),
        prop::collection::vec(rule(), 0..3),
        prop::collection::vec(rule(), 0..3),
        prop::collection::vec("/[a-z]{1,5}", 0..2),
        prop::option::of(mode()),
    )
        .prop_map(|(allow, ask, deny, dirs, mode)| {
            let mut p = json!({
                "allow": allow, "ask": ask, "deny": deny, "additionalDirectories": dirs,
            });
            if let Some(m) = mode {
                p["defaultMode"] = json!(m);
            }
            p
        })
}

fn policy_document() -> impl Strategy<Value = Value> {
    (
        prop::option::of(mode()),
        prop::option::of(permissions()),
        prop::collection::vec(
            (
                prop_oneof![
                    Just("managed"),
                    Just("cli"),
                    Just("local"),
                    Just("project"),
                    Just("user")
                ],
                prop::option::of("/[a-z]{1,5}"),
                permissions(),
                any::<bool>(),
            ),
            0..3,
        ),
        prop::collection::btree_map("[a-z]{1,5}", any::<bool>(), 0..3),
        prop::collection::vec((any_request(), prop_oneof![Just("allow"), Just("ask"), Just("deny")]), 0..2),
        any::<(bool, bool)>(),
    )
        .prop_map(|(mode, perms, layers, servers, examples, (allow_all, allow_urls))| {
            let mut doc = json!({});
            if let Some(m) = mode {
                doc["defaultMode"] = json!(m);
            }
            if let Some(p) = perms {
                doc["permissions"] = p;
            }
            doc["layers"] = layers
                .into_iter()
                .map(|(source, root, permissions, only)| {
                    json!({
                        "source": source, "root": root, "permissions": permissions,
                        "allowManagedPermissionRulesOnly": only,
                    })
                })
                .collect();
            doc["mcpServers"] = servers
                .into_iter()
                .map(|(name, trusted)| (name, json!({ "trusted": trusted })))
                .collect::<serde_json::Map<_, _>>()
                .into();
            doc["examples"] = examples
                .into_iter()
                .map(|(request, expect)| json!({ "request": request, "expect": expect }))
                .collect();
            doc["copilot"] = json!({ "allowAllTools": allow_all, "allowUrls": if allow_urls { vec!["x.io"] } else { vec![] } });
            doc
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn request_documents_round_trip(request in any_request()) {
        let text = serde_json::to_string(&request).unwrap();
        let parsed = Request::from_json(&text).unwrap();
        prop_assert_eq!(serde_json::to_string(&parsed).unwrap(), text);
    }

    #[test]
    fn policy_documents_round_trip(value in policy_document()) {
        let doc: PolicyDocument =
            toolgate::json::from_str(&value.to_string(), "policy").unwrap();
        let text = serde_json::to_string(&doc).unwrap();
        let again: PolicyDocument = toolgate::json::from_str(&text, "policy").unwrap();
        prop_assert_eq!(serde_json::to_string(&again).unwrap(), text);
        prop_assert_eq!(again, doc);
    }

    #[test]
    fn trust_documents_round_trip(
        grants in prop::collection::vec(
            (rule(), prop::option::of("[a-z]{1,5}"), prop::option::of(2_000u64..u64::MAX)),
            0..6,
        ),
        bypass in prop::collection::btree_set("[a-z]{1,5}", 0..3),
    ) {
        let rules = Policy::from_json("{}").unwrap();
        let mut store = TrustStore::new();
        for (rule, agent, expires_at) in grants {
            let new = NewGrant {
                rule,
                scope: Scope::Always,
                session_id: None,
                agent,
                expires_at,
            };
            // Grants the store refuses (tool-name globs that approve nothing) are skipped.
            let _ = store.grant(new, &rules, 1_000);
        }
        for agent in &bypass {
            store.set_agent_bypass(agent, true);
        }
        let text = store.export(1_000);
        let mut other = TrustStore::new();
        other.import(&text, &rules).unwrap();
        prop_assert_eq!(other.export(1_000), text);
    }
}

/// Found by `request_documents_round_trip`: without serde_json's `float_roundtrip`, a number
/// in a tool's input could come back one unit in the last place off, so a request (and the
/// audit record of it) did not survive a round trip.
#[test]
fn floats_in_tool_inputs_round_trip_exactly() {
    for text in [
        r#"{"tool":"A","input":{"a":{"_":-1.5500442418011689e57}}}"#,
        r#"{"tool":"a","input":{"a":[{"a":-1.2188803994949949e289}]}}"#,
    ] {
        let once = serde_json::to_string(&Request::from_json(text).unwrap()).unwrap();
        let twice = serde_json::to_string(&Request::from_json(&once).unwrap()).unwrap();
        assert_eq!(once, twice);
        assert_eq!(
            serde_json::from_str::<Value>(&once).unwrap(),
            serde_json::from_str::<Value>(text).unwrap()
        );
    }
}
