//! Properties: every rule prints back to itself, parsing never panics, and adding a deny rule
//! never makes a decision less strict.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod property_support;

use property_support::{host, path_anchor, path_segment, word, words};
use proptest::prelude::*;
use toolgate::rule::Rule;
use toolgate::{Mode, Policy, Request};

fn command_rule() -> impl Strategy<Value = String> {
    (
        prop_oneof![Just("Bash"), Just("shell"), Just("bash")],
        words(),
        prop_oneof![Just(""), Just(" *"), Just(":*"), Just(" * x")],
    )
        .prop_map(|(tool, w, suffix)| format!("{tool}({w}{suffix})"))
}

fn path_spec() -> impl Strategy<Value = String> {
    (
        path_anchor(),
        prop::collection::vec(path_segment(), 1..4),
        prop_oneof![Just(""), Just("/")],
    )
        .prop_map(|(anchor, segs, tail)| format!("{anchor}{}{tail}", segs.join("/")))
}

fn path_rule() -> impl Strategy<Value = String> {
    (
        prop_oneof![
            Just("Read"),
            Just("Edit"),
            Just("Write"),
            Just("read"),
            Just("write"),
            Just("Delete")
        ],
        path_spec(),
    )
        .prop_map(|(t, p)| format!("{t}({p})"))
}

fn url_rule() -> impl Strategy<Value = String> {
    prop_oneof![
        host().prop_map(|h| format!("WebFetch(domain:{h})")),
        (
            prop_oneof![Just(""), Just("https://"), Just("http://")],
            host(),
            prop_oneof![Just(""), Just(":8080")],
            prop_oneof![Just(""), Just("/api"), Just("/a/b")],
        )
            .prop_map(|(s, h, port, p)| format!("url({s}{h}{port}{p})")),
    ]
}

fn tool_rule() -> impl Strategy<Value = String> {
    prop_oneof![
        "mcp__[a-z]{1,6}",
        "mcp__[a-z]{1,6}__[a-z_]{1,6}\\*?",
        "[a-z][a-z_-]{0,8}",
        // A server name never holds `__` nor ends with `_` (see `mcp_server_problem`).
        "[a-z](_?[a-z-]){0,6}\\([a-z_]{1,6}\\*?\\)",
        "\\*?[a-z_]{1,6}\\*",
        "[a-z]{1,6}:\\*",
        Just("Bash".to_owned()),
        Just("Read".to_owned()),
        Just("WebFetch".to_owned()),
    ]
}

fn any_rule() -> impl Strategy<Value = String> {
    prop_oneof![command_rule(), path_rule(), url_rule(), tool_rule()]
}

proptest! {
    #[test]
    fn display_round_trips_every_rule(text in any_rule()) {
        let rule: Rule = text.parse().unwrap_or_else(|e| panic!("`{text}`: {e}"));
        let shown = rule.to_string();
        let again: Rule = shown.parse().unwrap();
        prop_assert_eq!(&again, &rule);
        prop_assert_eq!(again.to_string(), shown);
    }

    #[test]
    fn parsing_arbitrary_text_never_panics(text in "\\PC{0,40}") {
        if let Ok(rule) = text.parse::<Rule>() {
            let again: Rule = rule.to_string().parse().unwrap();
            prop_assert_eq!(again, rule);
        }
    }

    #[test]
    fn adding_a_deny_rule_never_loosens_a_decision(
        allow in prop::collection::vec(any_rule(), 0..6),
        ask in prop::collection::vec(any_rule(), 0..3),
        deny in prop::collection::vec(any_rule(), 0..3),
        extra in any_rule(),
        request in request(),
        mode in prop_oneof![
            Just(Mode::Default), Just(Mode::AcceptEdits), Just(Mode::Plan),
            Just(Mode::DontAsk), Just(Mode::BypassPermissions)
        ],
    ) {
        let doc = |deny: &[String]| serde_json::json!({
            "permissions": {"allow": allow, "ask": ask, "deny": deny}
        }).to_string();
        let before = Policy::from_json(&doc(&deny)).unwrap();
        let mut more = deny.clone();
        more.push(extra);
        let after = Policy::from_json(&doc(&more)).unwrap();
        let mut request = request;
        request.mode = Some(mode);
        let (b, a) = (before.evaluate(&request), after.evaluate(&request));
        prop_assert!(a.effect >= b.effect, "before {:?}, after {:?}", b, a);
    }
}

fn request() -> impl Strategy<Value = Request> {
    let with = |tool: &str, input: serde_json::Value| Request {
        tool: tool.to_owned(),
        input,
        cwd: Some("/home/ada/proj".to_owned()),
        ..Request::default()
    };
    prop_oneof![
        words().prop_map(move |c| with("Bash", serde_json::json!({ "command": c }))),
        words().prop_map(move |c| with("shell", serde_json::json!({ "command": c }))),
        (
            prop_oneof![Just("Read"), Just("Edit"), Just("Write"), Just("Delete")],
            path_spec()
        )
            .prop_map(move |(t, p)| with(
                t,
                serde_json::json!({ "file_path": p.replace('*', "x") })
            )),
        (host(), prop_oneof![Just("/"), Just("/api/x")]).prop_map(move |(h, p)| with(
            "WebFetch",
            serde_json::json!({ "url": format!("https://{}{p}", h.trim_start_matches("*.")) })
        )),
        ("[a-z]{1,6}", "[a-z_]{1,8}")
            .prop_map(move |(s, t)| with(&format!("mcp__{s}__{t}"), serde_json::json!({}))),
        "[a-z_-]{1,8}".prop_map(move |t| with(&t, serde_json::json!({}))),
    ]
}

/// A direct reading of the command-rule semantics, to check the compiled, bucketed matchers
/// against: exact (with `*` spanning anything), or a prefix followed by a space or the end.
fn naive_command_match(rule: &str, command: &str) -> bool {
    let line = command.split_whitespace().collect::<Vec<_>>().join(" ");
    let spec = rule
        .strip_prefix("Bash(")
        .and_then(|r| r.strip_suffix(')'))
        .unwrap();
    let spec = spec.split_whitespace().collect::<Vec<_>>().join(" ");
    let prefix = spec
        .strip_suffix(":*")
        .map(|p| p.trim_end().to_owned())
        .or_else(|| {
            (spec != "*")
                .then(|| spec.strip_suffix(" *").map(|p| p.trim_end().to_owned()))
                .flatten()
        });
    match prefix {
        Some(p) if p.is_empty() => true,
        Some(p) => {
            toolgate::rule::star_match(&p, &line)
                || toolgate::rule::star_match(&format!("{p} *"), &line)
        }
        None => toolgate::rule::star_match(&spec, &line),
    }
}

/// Commands the shell analysis judges on grounds other than allow rules, which this property
/// leaves to the fixture tables: read-only built-ins (allowed without a rule), leading
/// assignments (not covered by allow rules unless harmless), and operands that are critical
/// paths for destructive commands (never allowed).
fn judged_beyond_rules(command: &str) -> bool {
    let words: Vec<&str> = command.split_whitespace().collect();
    let first = words.first().copied().unwrap_or_default();
    let two = words.get(..2).map(|w| w.join(" ")).unwrap_or_default();
    toolgate::shell::read_only_commands().any(|c| c == first || c == two)
        || first.contains('=')
        || words.iter().any(|w| matches!(*w, "." | ".."))
        // zsh expands a word starting with `=` to a program's path (`=ls`): only known at
        // run time, so no allow rule covers it.
        || words.iter().any(|w| w.starts_with('='))
        // A word or a piece of one starting with `.` may name a protected file, or begin
        // one (`.a` → `.aws`), which asks whatever the rules say.
        || words.iter().skip(1).any(|w| {
            w.starts_with('.')
                || w.contains("=.")
                || w.contains(",.")
                || (w.starts_with('-') && w.contains('.'))
        })
}

fn rule_word() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => word(),
        1 => Just("*".to_owned()),
        1 => Just("a?".to_owned()),
        1 => Just("[x]".to_owned()),
        1 => Just("{a,b}".to_owned()),
        1 => Just("gi*".to_owned()),
    ]
}

proptest! {
    #[test]
    fn compiled_command_rules_agree_with_a_direct_reading(
        rules in prop::collection::vec(
            (prop::collection::vec(rule_word(), 1..4), prop_oneof![Just(""), Just(" *"), Just(":*")])
                .prop_map(|(w, s)| format!("Bash({}{s})", w.join(" "))),
            1..8,
        ),
        command in words().prop_filter("judged beyond rules", |c| !judged_beyond_rules(c)),
    ) {
        let doc = serde_json::json!({ "permissions": { "allow": rules } }).to_string();
        let policy = Policy::from_json(&doc).unwrap();
        let request = Request {
            tool: "Bash".into(),
            input: serde_json::json!({ "command": command }),
            cwd: Some("/p".into()),
            ..Request::default()
        };
        let expected = rules.iter().any(|r| naive_command_match(r, &command));
        let got = policy.evaluate(&request).effect == toolgate::Effect::Allow;
        prop_assert_eq!(got, expected, "rules {:?} command {:?}", rules, command);
    }
}
