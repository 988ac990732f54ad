//! GitHub Copilot CLI: `preToolUse` and `permissionRequest` hooks.
//!
//! Payloads are camelCase: `{"sessionId","cwd","toolName","toolArgs"}` before a tool runs
//! (`toolArgs` is an object; a JSON string is accepted too), and `{"hookName":
//! "permissionRequest","toolName","toolInput"}` when Copilot would ask its user. Tool names
//! (`bash`/`shell`, `view`, `create`, `str_replace`, `edit`, `fetch`) are spellings toolgate's
//! rules know.
//!
//! Answers are flat: `{"permissionDecision":"allow"|"ask"|"deny","permissionDecisionReason"}`
//! before a tool (stderr is ignored on exit 2, so denials exit 0 with JSON), and
//! `{"behavior":"allow"}` or `{"behavior":"deny","message"}` for a permission request.
//!
//! ```
//! use toolgate::agents::{copilot, HookEvent, Verdict};
//! let a = copilot::render(HookEvent::PermissionRequest, &Verdict::Deny("no".into()));
//! assert_eq!(a.stdout, r#"{"behavior":"deny","message":"no"}"#);
//! ```

use serde_json::{json, Value};

use super::payload::{field_str, object_field, request, required_str};
use super::{json_text, Agent, HookAnswer, HookCall, HookEvent, Verdict};
use crate::error::Result;

/// Copilot CLI's own bookkeeping tools.
const INTERNAL_TOOLS: &[&str] = &["report_intent", "update_todo", "task"];

/// The event a Copilot CLI payload reports, if it is one: camelCase payloads only.
pub fn event(payload: &Value) -> Option<HookEvent> {
    payload.get("toolName")?;
    if payload.get("toolResult").is_some() {
        return Some(HookEvent::Observe);
    }
    match field_str(payload, "hookName") {
        Some("permissionRequest") => Some(HookEvent::PermissionRequest),
        Some("preToolUse") => Some(HookEvent::PreToolUse),
        Some("postToolUse") => Some(HookEvent::Observe),
        Some(_) => None,
        None if payload.get("toolInput").is_some() => Some(HookEvent::PermissionRequest),
        None => Some(HookEvent::PreToolUse),
    }
}

/// Reads a Copilot CLI payload.
pub fn call(event: HookEvent, payload: &Value) -> Result<HookCall> {
    let session_id = field_str(payload, "sessionId").unwrap_or("").to_owned();
    let cwd = field_str(payload, "cwd").map(str::to_owned);
    let tool = required_str(payload, "toolName")?.to_owned();
    let requests = match event {
        HookEvent::Observe => Vec::new(),
        HookEvent::PreToolUse => vec![request(&tool, object_field(payload, "toolArgs")?)],
        HookEvent::PermissionRequest => {
            vec![request(&tool, object_field(payload, "toolInput")?)]
        }
    };
    Ok(HookCall {
        agent: Agent::Copilot,
        event,
        internal: INTERNAL_TOOLS.contains(&tool.as_str()),
        tool,
        requests,
        session_id,
        cwd,
        project: None,
        can_ask: true,
        tool_input: None,
        readings: Vec::new(),
    })
}

/// Copilot CLI's answer for a verdict.
pub fn render(event: HookEvent, verdict: &Verdict) -> HookAnswer {
    let out = match (event, verdict) {
        (_, Verdict::Defer) | (HookEvent::Observe, _) => return HookAnswer::default(),
        (HookEvent::PreToolUse, Verdict::Allow(r)) => pre_tool("allow", r),
        (HookEvent::PreToolUse, Verdict::Ask(r)) => pre_tool("ask", r),
        (HookEvent::PreToolUse, Verdict::Deny(r)) => pre_tool("deny", r),
        (HookEvent::PermissionRequest, Verdict::Allow(_)) => json!({"behavior": "allow"}),
        (HookEvent::PermissionRequest, Verdict::Deny(r)) => {
            json!({"behavior": "deny", "message": r})
        }
        (HookEvent::PermissionRequest, Verdict::Ask(_)) => return HookAnswer::default(),
    };
    HookAnswer {
        stdout: json_text(&out),
        stderr: match verdict {
            Verdict::Deny(r) => r.clone(),
            _ => String::new(),
        },
        exit_code: 0,
    }
}

fn pre_tool(decision: &str, reason: &str) -> Value {
    json!({"permissionDecision": decision, "permissionDecisionReason": reason})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{captured, parse_call};

    #[test]
    fn reads_the_captured_payloads() {
        let call = parse_call(None, &captured("copilot-preToolUse")).unwrap();
        assert_eq!(
            (call.agent, call.event),
            (Agent::Copilot, HookEvent::PreToolUse)
        );
        assert_eq!(call.requests[0].tool, "bash");
        assert_eq!(call.requests[0].input_str("command"), Some("touch out.txt"));
        let call = parse_call(None, &captured("copilot-permissionRequest")).unwrap();
        assert_eq!(call.event, HookEvent::PermissionRequest);
        assert_eq!(call.requests[0].input_str("command"), Some("touch out.txt"));
    }

    #[test]
    fn tool_args_as_a_json_string_are_accepted() {
        let p = json!({"sessionId":"s","cwd":"/p","toolName":"view",
            "toolArgs":"{\"path\":\"/p/a.rs\"}"});
        let call = parse_call(Some(Agent::Copilot), &p.to_string()).unwrap();
        assert_eq!(call.requests[0].input_str("path"), Some("/p/a.rs"));
        let p = json!({"sessionId":"s","cwd":"/p","toolName":"view","toolArgs":"[1]"});
        assert!(parse_call(Some(Agent::Copilot), &p.to_string()).is_err());
    }

    #[test]
    fn answers_are_flat() {
        let a = render(HookEvent::PreToolUse, &Verdict::Ask("why".into()));
        assert_eq!(
            a.stdout,
            r#"{"permissionDecision":"ask","permissionDecisionReason":"why"}"#
        );
        assert_eq!(
            render(HookEvent::PermissionRequest, &Verdict::Allow("x".into())).stdout,
            r#"{"behavior":"allow"}"#
        );
        assert!(
            render(HookEvent::PermissionRequest, &Verdict::Ask("x".into()))
                .stdout
                .is_empty()
        );
    }
}
