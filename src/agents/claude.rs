//! Claude Code (and claude-code-acp): `PreToolUse` and `PermissionRequest` hooks.
//!
//! Payload: `{"session_id","cwd","hook_event_name","permission_mode","tool_name","tool_input"}`
//! (`prompt_id` and `effort` are optional: older versions omit them). Tools keep their names
//! (`Bash`, `Read`, `Edit`, `Write`, `MultiEdit`, `NotebookEdit`, `Grep`, `Glob`, `WebFetch`,
//! `WebSearch`, `mcp__server__tool`), which are the names toolgate's rules use.
//!
//! Answers: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":
//! "allow"|"ask"|"deny","permissionDecisionReason":…}}` on exit 0 (exit 2 would show the
//! hook's command line to the model); `PermissionRequest` gets `{"hookSpecificOutput":
//! {"hookEventName":"PermissionRequest","decision":{"behavior":"allow"|"deny","message":…}}}`.
//!
//! ```
//! use toolgate::agents::{claude, HookEvent, Verdict};
//! let a = claude::render(HookEvent::PreToolUse, &Verdict::Ask("why".into()));
//! assert!(a.stdout.contains(r#""permissionDecision":"ask""#));
//! assert_eq!(a.exit_code, 0);
//! ```

use serde_json::{json, Value};

use super::payload::{field_str, mode, object_field, request, required_str};
use super::{json_text, HookAnswer, HookCall, HookEvent, Verdict};
use crate::error::Result;

/// Claude Code's own bookkeeping tools: their effects are gated as their own calls.
const INTERNAL_TOOLS: &[&str] = &[
    "TodoWrite",
    "Task",
    "ExitPlanMode",
    "BashOutput",
    "KillShell",
    "KillBash",
];

/// The event a Claude Code payload reports, if it is one.
pub fn event(payload: &Value) -> Option<HookEvent> {
    snake_case_event(payload)
}

/// `hook_event_name` for the payload shape Claude Code and Codex share.
pub(crate) fn snake_case_event(payload: &Value) -> Option<HookEvent> {
    match field_str(payload, "hook_event_name")? {
        "PreToolUse" => Some(HookEvent::PreToolUse),
        "PermissionRequest" => Some(HookEvent::PermissionRequest),
        "PostToolUse" | "PostToolUseFailure" | "Notification" | "Stop" | "SubagentStop"
        | "SessionStart" | "SessionEnd" | "UserPromptSubmit" | "PreCompact" => {
            Some(HookEvent::Observe)
        }
        _ => None,
    }
}

/// Reads a Claude Code payload.
pub fn call(event: HookEvent, payload: &Value) -> Result<HookCall> {
    let mut call = snake_case_call(super::Agent::Claude, event, payload)?;
    call.internal = INTERNAL_TOOLS.contains(&call.tool.as_str());
    Ok(call)
}

/// The call of a snake_case payload (Claude Code's shape, which Codex shares).
pub(crate) fn snake_case_call(
    agent: super::Agent,
    event: HookEvent,
    payload: &Value,
) -> Result<HookCall> {
    let session_id = field_str(payload, "session_id").unwrap_or("").to_owned();
    let cwd = field_str(payload, "cwd").map(str::to_owned);
    if event == HookEvent::Observe {
        return Ok(HookCall {
            agent,
            event,
            tool: field_str(payload, "tool_name").unwrap_or("").to_owned(),
            requests: Vec::new(),
            session_id,
            cwd,
            project: None,
            internal: false,
            can_ask: true,
            tool_input: None,
            readings: Vec::new(),
        });
    }
    let tool = required_str(payload, "tool_name")?.to_owned();
    let input = object_field(payload, "tool_input")?;
    let mut req = request(&tool, input);
    req.mode = mode(payload, "permission_mode");
    Ok(HookCall {
        agent,
        event,
        tool,
        requests: vec![req],
        session_id,
        cwd,
        project: None,
        internal: false,
        can_ask: true,
        tool_input: None,
        readings: Vec::new(),
    })
}

/// Claude Code's answer for a verdict.
pub fn render(event: HookEvent, verdict: &Verdict) -> HookAnswer {
    hook_specific_output(event, verdict, true)
}

/// The `hookSpecificOutput` answer Claude Code and Codex share. `pre_tool_allow` is false
/// for Codex, which ignores a pre-tool allow or ask.
pub(crate) fn hook_specific_output(
    event: HookEvent,
    verdict: &Verdict,
    pre_tool_allow: bool,
) -> HookAnswer {
    let out = match (event, verdict) {
        (_, Verdict::Defer) | (HookEvent::Observe, _) => return HookAnswer::default(),
        (HookEvent::PreToolUse, Verdict::Deny(r)) => pre_tool("deny", r),
        (HookEvent::PreToolUse, Verdict::Ask(r)) if pre_tool_allow => pre_tool("ask", r),
        (HookEvent::PreToolUse, Verdict::Allow(r)) if pre_tool_allow => pre_tool("allow", r),
        (HookEvent::PreToolUse, _) => return HookAnswer::default(),
        (HookEvent::PermissionRequest, Verdict::Allow(_)) => json!({"hookSpecificOutput": {
            "hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}}),
        (HookEvent::PermissionRequest, Verdict::Deny(r)) => json!({"hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "deny", "message": r}}}),
        (HookEvent::PermissionRequest, Verdict::Ask(_)) => return HookAnswer::default(),
    };
    let stderr = match verdict {
        Verdict::Deny(r) => r.clone(),
        _ => String::new(),
    };
    HookAnswer {
        stdout: json_text(&out),
        stderr,
        exit_code: 0,
    }
}

fn pre_tool(decision: &str, reason: &str) -> Value {
    json!({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": decision,
        "permissionDecisionReason": reason,
    }})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{captured, parse_call, Agent};

    #[test]
    fn reads_the_captured_pre_tool_use_payload() {
        let call = parse_call(None, &captured("claude-PreToolUse")).unwrap();
        assert_eq!(call.agent, Agent::Claude);
        assert_eq!(call.event, HookEvent::PreToolUse);
        assert_eq!(call.session_id, "28692f64-9420-496c-a9e4-2e8f7e40f800");
        let r = &call.requests[0];
        assert_eq!(r.tool, "Bash");
        assert_eq!(r.input_str("command"), Some("touch out.txt"));
        assert_eq!(r.cwd.as_deref(), Some("$WORK/proj"));
        assert_eq!(r.agent.as_deref(), Some("claude"));
        assert_eq!(r.mode, Some(crate::Mode::Default));
    }

    #[test]
    fn reads_the_captured_permission_request_payload() {
        let call = parse_call(None, &captured("claude-PermissionRequest")).unwrap();
        assert_eq!(call.event, HookEvent::PermissionRequest);
        assert_eq!(call.requests[0].input_str("command"), Some("touch out.txt"));
    }

    #[test]
    fn acp_payloads_without_prompt_id_and_effort_read() {
        let p = json!({"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse",
            "permission_mode":"default","tool_name":"Read","tool_input":{"file_path":"/p/a"}});
        let call = parse_call(Some(Agent::Claude), &p.to_string()).unwrap();
        assert_eq!(call.tool, "Read");
    }

    #[test]
    fn missing_tool_input_is_an_error() {
        let p = json!({"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse",
            "tool_name":"Bash"});
        let e = parse_call(Some(Agent::Claude), &p.to_string()).unwrap_err();
        assert!(e.to_string().contains("`tool_input`"), "{e}");
    }

    #[test]
    fn answers_per_event() {
        let deny = render(HookEvent::PreToolUse, &Verdict::Deny("no".into()));
        let v: Value = serde_json::from_str(&deny.stdout).unwrap();
        assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny");
        assert_eq!(v["hookSpecificOutput"]["permissionDecisionReason"], "no");
        assert_eq!(deny.exit_code, 0);
        let allow = render(HookEvent::PermissionRequest, &Verdict::Allow("ok".into()));
        let v: Value = serde_json::from_str(&allow.stdout).unwrap();
        assert_eq!(v["hookSpecificOutput"]["decision"]["behavior"], "allow");
        let deny = render(HookEvent::PermissionRequest, &Verdict::Deny("no".into()));
        let v: Value = serde_json::from_str(&deny.stdout).unwrap();
        assert_eq!(v["hookSpecificOutput"]["decision"]["message"], "no");
        assert_eq!(
            render(HookEvent::PermissionRequest, &Verdict::Ask("?".into())),
            HookAnswer::default()
        );
        assert_eq!(
            render(HookEvent::PreToolUse, &Verdict::Defer),
            HookAnswer::default()
        );
    }
}
