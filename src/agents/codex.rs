//! Codex CLI: `PreToolUse` and `PermissionRequest` hooks (`$CODEX_HOME/hooks.json`).
//!
//! Payloads are Claude Code's shape plus `turn_id` and `model`. Codex reports its
//! `exec_command` tool as `Bash` with `tool_input.command`; `apply_patch` carries a patch
//! (`*** Add File:`, `*** Update File:`, `*** Delete File:`, `*** Move to:`), which becomes
//! one `Write`, `Edit` or `Delete` request per file.
//!
//! Answers: Codex ignores a pre-tool `allow` or `ask` ("unsupported permissionDecision"), so
//! `PreToolUse` is answered with a deny (non-empty reason, exit 2 with the reason on stderr
//! as well) or nothing, which leaves the call to Codex's sandbox and approval policy.
//! `PermissionRequest` is answered like Claude Code's (`behavior` allow or deny).
//!
//! ```
//! use toolgate::agents::{codex, HookEvent, Verdict};
//! assert!(codex::render(HookEvent::PreToolUse, &Verdict::Allow("ok".into())).stdout.is_empty());
//! assert_eq!(codex::render(HookEvent::PreToolUse, &Verdict::Deny("no".into())).exit_code, 2);
//! ```

use serde_json::{json, Value};

use super::claude::{hook_specific_output, snake_case_call, snake_case_event};
use super::payload::{bad_field, request};
use super::{Agent, HookAnswer, HookCall, HookEvent, Verdict};
use crate::error::Result;

/// The event a Codex payload reports, if it is one.
pub fn event(payload: &Value) -> Option<HookEvent> {
    snake_case_event(payload)
}

/// Reads a Codex payload.
pub fn call(event: HookEvent, payload: &Value) -> Result<HookCall> {
    let mut call = snake_case_call(Agent::Codex, event, payload)?;
    if call.tool == "apply_patch" {
        let patch = call
            .requests
            .first()
            .and_then(|r| {
                ["input", "patch", "command"]
                    .iter()
                    .find_map(|k| r.input.get(k).and_then(Value::as_str))
            })
            .map(str::to_owned)
            .ok_or_else(|| bad_field("tool_input", "an apply_patch input with the patch text"))?;
        let mode = call.requests.first().and_then(|r| r.mode);
        call.requests = patch_requests(&patch)?;
        for r in &mut call.requests {
            r.mode = mode;
        }
    }
    Ok(call)
}

/// One request per file a patch touches.
///
/// ```
/// let reqs = toolgate::agents::codex::patch_requests(
///     "*** Begin Patch\n*** Update File: src/a.rs\n@@\n-x\n+y\n*** Delete File: b.txt\n*** End Patch",
/// ).unwrap();
/// assert_eq!(reqs[0].tool, "Edit");
/// assert_eq!(reqs[1].tool, "Delete");
/// ```
pub fn patch_requests(patch: &str) -> Result<Vec<crate::Request>> {
    let mut out = Vec::new();
    for line in patch.lines() {
        let line = line.trim_end();
        let (tool, path) = if let Some(p) = line.strip_prefix("*** Add File: ") {
            ("Write", p)
        } else if let Some(p) = line.strip_prefix("*** Update File: ") {
            ("Edit", p)
        } else if let Some(p) = line.strip_prefix("*** Delete File: ") {
            ("Delete", p)
        } else if let Some(p) = line.strip_prefix("*** Move to: ") {
            ("Write", p)
        } else {
            continue;
        };
        out.push(request(tool, json!({"file_path": path.trim()})));
    }
    if out.is_empty() {
        return Err(bad_field(
            "tool_input",
            "a patch that names the files it changes",
        ));
    }
    Ok(out)
}

/// Codex's answer for a verdict.
pub fn render(event: HookEvent, verdict: &Verdict) -> HookAnswer {
    let mut answer = hook_specific_output(event, verdict, false);
    if event == HookEvent::PreToolUse && matches!(verdict, Verdict::Deny(_)) {
        answer.exit_code = Agent::Codex.blocking_exit_code();
    }
    answer
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{captured, parse_call};

    #[test]
    fn reads_the_captured_payloads() {
        let call = parse_call(None, &captured("codex-PreToolUse")).unwrap();
        assert_eq!(
            (call.agent, call.event),
            (Agent::Codex, HookEvent::PreToolUse)
        );
        assert_eq!(call.requests[0].tool, "Bash");
        assert_eq!(call.requests[0].input_str("command"), Some("touch out.txt"));
        let call = parse_call(None, &captured("codex-PermissionRequest")).unwrap();
        assert_eq!(call.event, HookEvent::PermissionRequest);
    }

    #[test]
    fn a_patch_is_one_request_per_file() {
        let p = json!({"session_id":"s","turn_id":"t","cwd":"/p","hook_event_name":"PreToolUse",
            "tool_name":"apply_patch","tool_input":{"input":
            "*** Begin Patch\n*** Add File: n.txt\n+x\n*** Update File: a.rs\n*** Move to: b.rs\n*** End Patch"}});
        let call = parse_call(None, &p.to_string()).unwrap();
        let tools: Vec<_> = call.requests.iter().map(|r| r.tool.as_str()).collect();
        assert_eq!(tools, ["Write", "Edit", "Write"]);
        assert_eq!(call.requests[2].input_str("file_path"), Some("b.rs"));
        assert_eq!(call.requests[2].cwd.as_deref(), Some("/p"));
    }

    #[test]
    fn a_patch_without_files_is_an_error() {
        assert!(patch_requests("hello").is_err());
    }

    #[test]
    fn pre_tool_use_answers_only_deny() {
        for v in [
            Verdict::Allow("a".into()),
            Verdict::Ask("b".into()),
            Verdict::Defer,
        ] {
            assert_eq!(render(HookEvent::PreToolUse, &v), HookAnswer::default());
        }
        let deny = render(HookEvent::PreToolUse, &Verdict::Deny("no".into()));
        assert!(deny.stdout.contains(r#""permissionDecisionReason":"no""#));
        assert_eq!(deny.stderr, "no");
        let allow = render(HookEvent::PermissionRequest, &Verdict::Allow("a".into()));
        assert!(allow.stdout.contains(r#""behavior":"allow""#));
    }
}
