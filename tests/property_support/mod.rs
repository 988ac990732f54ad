//! Generators shared by the property tests (`tests/properties*.rs`).

use proptest::prelude::*;

/// A command word: a few that rules and the shell analysis care about, or anything short.
pub fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("git".to_owned()),
        Just("npm".to_owned()),
        Just("rm".to_owned()),
        Just("-rf".to_owned()),
        Just("push".to_owned()),
        Just("test".to_owned()),
        "[a-z0-9._=-]{1,6}",
    ]
}

/// One to three command words joined by spaces.
pub fn words() -> impl Strategy<Value = String> {
    prop::collection::vec(word(), 1..4).prop_map(|w| w.join(" "))
}

/// A host name, sometimes with a leading `*.` wildcard.
pub fn host() -> impl Strategy<Value = String> {
    (
        prop_oneof![Just(""), Just("*.")],
        prop::collection::vec("[a-z][a-z0-9-]{0,5}", 1..4),
        prop_oneof![Just("com"), Just("io"), Just("rs")],
    )
        .prop_map(|(w, labels, tld)| format!("{w}{}.{tld}", labels.join(".")))
}

/// How a path rule or request starts: filesystem root (`//`), home, policy root, cwd, bare.
pub fn path_anchor() -> impl Strategy<Value = &'static str> {
    prop_oneof![Just("//"), Just("~/"), Just("/"), Just("./"), Just("")]
}

/// One path segment: names the rules and protected paths care about, globs, or anything short.
pub fn path_segment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("src".to_owned()),
        Just(".env".to_owned()),
        Just("**".to_owned()),
        Just("*.ts".to_owned()),
        Just(".git".to_owned()),
        "[a-z][a-z0-9_.-]{0,5}",
    ]
}
