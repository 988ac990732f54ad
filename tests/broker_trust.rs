//! Grants through the broker: when they apply, and every case where they must not.
#![allow(clippy::unwrap_used, reason = "tests")]

mod broker_support;

use broker_support::{bash, broker, call, write};
use serde_json::json;
use toolgate::broker::{Answer, By, Status};
use toolgate::registry::{McpTool, ToolDefinition};
use toolgate::tool::ToolKind;
use toolgate::trust::{NewGrant, Scope};

fn grant(b: &mut toolgate::broker::Broker, g: NewGrant) {
    let (store, rules) = b.trust_and_rules();
    store.grant(g, rules, 0).unwrap();
}

#[test]
fn a_grant_never_beats_a_deny() {
    let mut b = broker();
    grant(&mut b, NewGrant::always("Bash(rm -rf build)"));
    grant(&mut b, NewGrant::always("Write"));
    let (_, f) = b.request_approval(bash("s", "rm -rf build"), 1).unwrap();
    assert_eq!(f.outcome().unwrap().status, Status::Denied);
    let (_, f) = b.request_approval(write("s", ".env", "KEY=1"), 1).unwrap();
    let o = f.outcome().unwrap();
    assert_eq!((o.status, o.by), (Status::Denied, By::Policy));
    grant(&mut b, NewGrant::always("Bash(npm test)"));
    let (_, f) = b
        .request_approval(bash("s", "npm test && rm -rf build"), 1)
        .unwrap();
    assert_eq!(f.outcome().unwrap().status, Status::Denied);
}

#[test]
fn grants_do_not_apply_to_untrustable_calls() {
    let mut b = broker();
    b.registry_mut()
        .register(ToolDefinition {
            name: "deploy".into(),
            title: None,
            description: None,
            parameters: json!({"type": "object"}),
            kind: ToolKind::Other,
            trustable: false,
            server: None,
            annotations: None,
        })
        .unwrap();
    // The store accepts a grant for a tool it does not know; the broker must not apply it,
    // because the policy's decision for the call is not trustable.
    grant(&mut b, NewGrant::always("deploy"));
    let (id, f) = b
        .request_approval(call("s", "deploy", json!({})), 1)
        .unwrap();
    assert!(!f.is_settled());
    assert!(!b.pending_approval(&id).unwrap().trustable);
}

#[test]
fn bare_tool_grants_need_a_tool_trusted_by_default() {
    let mut b = broker();
    let destructive: McpTool = serde_json::from_value(json!({
        "name": "drop_table", "inputSchema": {"type": "object"}
    }))
    .unwrap();
    let safe: McpTool = serde_json::from_value(json!({
        "name": "list_tables", "inputSchema": {"type": "object"},
        "annotations": {"readOnlyHint": true}
    }))
    .unwrap();
    let drop_name = b
        .registry_mut()
        .register_mcp("db", true, destructive)
        .unwrap();
    let list_name = b.registry_mut().register_mcp("db", true, safe).unwrap();
    grant(&mut b, NewGrant::session(&drop_name, "s"));
    grant(&mut b, NewGrant::session(&list_name, "s"));
    let (_, f) = b
        .request_approval(call("s", &drop_name, json!({})), 1)
        .unwrap();
    assert!(
        !f.is_settled(),
        "a destructive MCP tool is never trusted by its bare name"
    );
    let (_, f) = b
        .request_approval(call("s", &list_name, json!({})), 1)
        .unwrap();
    assert_eq!(f.outcome().unwrap().by, By::Trust);
}

#[test]
fn agent_bypass_allows_asks_but_not_denies() {
    let mut b = broker();
    b.trust_mut().set_agent_bypass("claude", true);
    let mut c = write("s", "a", "1");
    c.request.agent = Some("claude".into());
    let (_, f) = b.request_approval(c.clone(), 1).unwrap();
    let o = f.outcome().unwrap();
    assert_eq!(
        (o.status, o.by, o.scope),
        (Status::Approved, By::Trust, Some(Scope::Always))
    );
    c.request.agent = Some("copilot".into());
    let (_, f) = b.request_approval(c, 1).unwrap();
    assert!(!f.is_settled());
    let mut rm = bash("s", "rm -rf /");
    rm.request.agent = Some("claude".into());
    let (_, f) = b.request_approval(rm, 1).unwrap();
    assert_eq!(f.outcome().unwrap().status, Status::Denied);
}

#[test]
fn remembered_answers_are_bound_to_the_agent() {
    let mut b = broker();
    let mut c = write("s", "a", "1");
    c.request.agent = Some("claude".into());
    let (id, _) = b.request_approval(c.clone(), 1).unwrap();
    let answer = Answer::Allow {
        scope: Scope::Session,
        rules: None,
        edited_input: None,
    };
    b.respond(&id, answer, 2).unwrap();
    let (_, f) = b.request_approval(c.clone(), 3).unwrap();
    assert_eq!(f.outcome().unwrap().by, By::Trust);
    c.request.agent = Some("copilot".into());
    let (_, f) = b.request_approval(c, 3).unwrap();
    assert!(!f.is_settled());
}

#[test]
fn expired_and_revoked_grants_stop_applying() {
    let mut b = broker();
    let mut g = NewGrant::always("Write");
    g.expires_at = Some(100);
    grant(&mut b, g);
    let (_, f) = b.request_approval(write("s", "a", "1"), 99).unwrap();
    assert_eq!(f.outcome().unwrap().by, By::Trust);
    let (_, f) = b.request_approval(write("s", "a", "1"), 100).unwrap();
    assert!(!f.is_settled());

    let mut b = broker();
    grant(&mut b, NewGrant::always("Edit"));
    let id = b.trust().list(0)[0].id.clone();
    b.trust_mut().revoke(&id).unwrap();
    let edit = call(
        "s",
        "Edit",
        json!({"file_path": "a", "old_string": "x", "new_string": "y"}),
    );
    let (_, f) = b.request_approval(edit, 1).unwrap();
    assert!(!f.is_settled());
}

#[test]
fn narrow_shell_grants_cover_only_their_commands() {
    let mut b = broker();
    grant(&mut b, NewGrant::session("Bash(npm test *)", "s"));
    let (_, f) = b
        .request_approval(bash("s", "npm test -- --ci"), 1)
        .unwrap();
    assert_eq!(f.outcome().unwrap().by, By::Trust);
    let (_, f) = b.request_approval(bash("s", "npm testing"), 1).unwrap();
    assert!(!f.is_settled());
    let (_, f) = b
        .request_approval(bash("s", "npm test && npm publish"), 1)
        .unwrap();
    assert!(!f.is_settled(), "every command of a line needs a grant");
}

/// Denies everything: a policy edited to be stricter.
struct DenyAll;
impl toolgate::Evaluate for DenyAll {
    fn evaluate_with(
        &self,
        _: &toolgate::Request,
        _: &toolgate::TrustOverlay,
    ) -> toolgate::Decision {
        toolgate::Decision {
            effect: toolgate::Effect::Deny,
            risk: toolgate::Risk::High,
            trustable: false,
            reason: toolgate::Reason {
                decider: toolgate::Decider::Mode {
                    mode: toolgate::Mode::Plan,
                },
                text: "plan mode is read-only".into(),
            },
            parts: vec![],
            dangers: vec![],
        }
    }
    fn check_rule(&self, _: &str) -> toolgate::Result<()> {
        Ok(())
    }
}

#[test]
fn a_replaced_policy_decides_new_calls_and_edits() {
    let mut b = broker();
    grant(&mut b, NewGrant::always("Write"));
    let (id, _) = b.request_approval(write("s", "a", "1"), 0).unwrap();
    assert_eq!(b.state(&id), Some(toolgate::broker::State::Approved));
    let (pending, _) = b.request_approval(bash("s", "make"), 0).unwrap();
    b.set_policy(Box::new(DenyAll));
    let (_, f) = b.request_approval(write("s", "a", "1"), 1).unwrap();
    assert_eq!(
        f.outcome().unwrap().status,
        Status::Denied,
        "grants never beat a deny"
    );
    let edited = Answer::Allow {
        scope: Scope::Once,
        rules: None,
        edited_input: Some(json!({"command": "make all"})),
    };
    let o = b.respond(&pending, edited, 2).unwrap();
    assert_eq!((o.status, o.by), (Status::Denied, By::Policy));
}

/// A broker over a real policy whose default mode is `dontAsk`: nothing ever waits for a
/// person; remembered trust may still allow what would otherwise have asked.
fn dont_ask_broker() -> toolgate::broker::Broker {
    let policy = toolgate::Policy::from_json(
        &json!({
            "defaultMode": "dontAsk",
            "permissions": { "ask": ["Bash(git push *)"], "deny": ["Bash(rm *)"] }
        })
        .to_string(),
    )
    .unwrap();
    toolgate::broker::Broker::new(Box::new(policy))
}

#[test]
fn in_dont_ask_mode_remembered_trust_allows_what_would_ask() {
    let mut b = dont_ask_broker();
    let mut build = bash("s", "cargo build");
    build.request.cwd = Some("/home/ada/proj".into());
    let (_, f) = b.request_approval(build.clone(), 1).unwrap();
    assert_eq!(f.outcome().unwrap().status, Status::Denied, "no grant yet");

    grant(&mut b, NewGrant::always("Bash(cargo build)"));
    let (_, f) = b.request_approval(build.clone(), 2).unwrap();
    let o = f.outcome().unwrap();
    assert_eq!(
        (o.status, o.by, o.scope),
        (Status::Approved, By::Trust, Some(Scope::Always))
    );

    // A grant never turns an ask rule or a deny rule into an allow, and nothing waits.
    grant(&mut b, NewGrant::always("Bash(git push origin)"));
    grant(&mut b, NewGrant::always("Bash(rm x)"));
    for command in ["git push origin", "rm x"] {
        let (_, f) = b.request_approval(bash("s", command), 3).unwrap();
        let o = f.outcome().unwrap();
        assert_eq!((o.status, o.by), (Status::Denied, By::Policy), "{command}");
    }
}

#[test]
fn in_dont_ask_mode_agent_bypass_allows_defaults_and_denies_ask_rules() {
    let mut b = dont_ask_broker();
    b.trust_mut().set_agent_bypass("fixer", true);
    let mut build = bash("s", "cargo build");
    build.request.agent = Some("fixer".into());
    let (_, f) = b.request_approval(build, 1).unwrap();
    let o = f.outcome().unwrap();
    assert_eq!((o.status, o.by), (Status::Approved, By::Trust));

    let mut push = bash("s", "git push origin");
    push.request.agent = Some("fixer".into());
    let (_, f) = b.request_approval(push, 1).unwrap();
    let o = f.outcome().unwrap();
    assert_eq!((o.status, o.by), (Status::Denied, By::Policy));
    assert!(
        b.pending().is_empty(),
        "dontAsk never leaves a call waiting"
    );
}
