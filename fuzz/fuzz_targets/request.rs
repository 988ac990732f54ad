//! Fuzzes request decoding: any text decodes or is a typed error, never a panic; a request
//! that decodes round-trips and is decided (with and without trust) without panicking, and a
//! denied request stays denied with trust.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use toolgate::{Effect, Evaluate, Policy, Request, TrustOverlay};

fn policy() -> &'static Policy {
    static POLICY: OnceLock<Policy> = OnceLock::new();
    POLICY.get_or_init(|| {
        Policy::from_json(
            r#"{"permissions":{
                "allow":["Bash(git *)","Read(./src/**)","WebFetch(domain:*.example.com)","mcp__github__get_*"],
                "ask":["Bash(git push *)","Edit(**/*.lock)"],
                "deny":["Bash(rm -rf *)","Read(./.env)","Read(~/.ssh/**)","WebFetch(domain:evil.com)"]
            }}"#,
        )
        .unwrap()
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(request) = Request::from_json(text) else {
        return;
    };
    let once = serde_json::to_string(&request).unwrap();
    let again = Request::from_json(&once).unwrap();
    assert_eq!(serde_json::to_string(&again).unwrap(), once, "round trip: {text:?}");
    let plain = policy().evaluate(&request);
    let trust = TrustOverlay {
        allow_rules: vec!["Bash".into(), "Read".into(), "Edit".into(), "WebFetch".into()],
        agent_bypass: true,
    };
    let trusted = policy().evaluate_with(&request, &trust);
    if plain.effect == Effect::Deny {
        assert_eq!(trusted.effect, Effect::Deny, "trust loosened a deny: {text:?}");
    }
});
