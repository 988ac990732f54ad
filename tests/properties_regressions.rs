//! Regression tests for what the fuzzers and property tests found, one per finding, with the
//! input that found it.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use toolgate::path::normalize;
use toolgate::{Effect, Evaluate, Policy, Request};

/// `fuzz/fuzz_targets/path.rs`, input `0a 01 2f 71 00 7e 2f 01` (path `\n`, working directory
/// `/q\0~/`): a NUL byte in the working directory or the home directory passed through into
/// the normalised path, which then did not normalise to itself.
#[test]
fn a_nul_byte_in_a_base_directory_is_not_a_path() {
    assert_eq!(normalize("\n", Some("/q\0~/"), Some("")), None);
    assert_eq!(normalize("x", Some("/p\0"), None), None);
    assert_eq!(normalize("~/x", None, Some("/home/a\0")), None);
    assert_eq!(
        normalize("/abs", Some("/p\0"), None).as_deref(),
        Some("/abs")
    );
}

/// The same finding through a policy: a file call from a working directory with a NUL byte
/// is not allowed by a rule anchored to it.
#[test]
fn a_working_directory_with_a_nul_byte_allows_nothing_by_path() {
    let policy = Policy::from_json(r#"{"permissions":{"allow":["Read(./**)"]}}"#).unwrap();
    let request =
        Request::from_json(r#"{"tool":"Read","input":{"file_path":"src/a.rs"},"cwd":"/p\u0000"}"#)
            .unwrap();
    assert_ne!(policy.evaluate(&request).effect, Effect::Allow);
}

/// `tests/properties_policy.rs` (request and policy documents round trip), found with
/// `serde_json`'s `float_roundtrip` feature switched off: a float in a tool's arguments came
/// back one unit in the last place off. The feature stays on (see `docs/proof.md`).
#[test]
fn floats_in_arguments_round_trip_exactly() {
    for (text, input) in [
        (
            r#"{"tool":"A","input":[-1.3728958025436676e-281]}"#,
            "[-1.3728958025436676e-281]",
        ),
        (
            r#"{"tool":"a","input":{"_":{"a":-2.6236988486657612e154}}}"#,
            r#"{"_":{"a":-2.6236988486657612e+154}}"#,
        ),
    ] {
        let request = Request::from_json(text).unwrap();
        assert_eq!(request.input.to_string(), input);
        let again = Request::from_json(&serde_json::to_string(&request).unwrap()).unwrap();
        assert_eq!(again, request, "{text}");
    }
}

/// `tests/properties_policy.rs` (trust never tightens a decision), input `git -rf` in bypass
/// mode with a remembered `Bash` allow: the allow rule, which does not cover `git` with an
/// option toolgate cannot read, made the line unanalysable (asks), where without any rule
/// bypass allowed it. An allow rule that does not cover a command is now as if it were not
/// there.
#[test]
fn an_allow_rule_that_does_not_cover_a_command_is_never_stricter_than_none() {
    let policy = Policy::from_json("{}").unwrap();
    let request = Request::from_json(
        r#"{"tool":"Bash","input":{"command":"git -rf"},"cwd":"/home/ada/proj","mode":"bypassPermissions"}"#,
    )
    .unwrap();
    let trust = toolgate::TrustOverlay {
        allow_rules: vec!["Bash".to_owned()],
        agent_bypass: false,
    };
    let plain = policy.evaluate(&request).effect;
    assert_eq!(plain, Effect::Allow);
    assert_eq!(policy.evaluate_with(&request, &trust).effect, plain);
    // In the default mode both ask.
    let default_mode = Request::from_json(
        r#"{"tool":"Bash","input":{"command":"git -rf"},"cwd":"/home/ada/proj"}"#,
    )
    .unwrap();
    assert_eq!(
        policy.evaluate_with(&default_mode, &trust).effect,
        Effect::Ask
    );
}
