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
    // `exec_command` may run in its own `workdir` (relative to the session's directory).
    let base = call.cwd.clone();
    for r in &mut call.requests {
        if let Some(dir) = r.input.get("workdir").and_then(Value::as_str) {
            r.cwd = Some(match &base {
                Some(b) if !dir.starts_with('/') => format!("{}/{dir}", b.trim_end_matches('/')),
                _ => dir.to_owned(),
            });
        }
    }
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
/// Codex's parser trims both ends of a line (Rust's `str::trim`, Unicode white space) before
/// it looks for a marker, so an indented `*** Update File:` is a header. A line that holds a
/// marker toolgate cannot read (`***Update File:`, `*** update file:`, an unknown `***`
/// line) becomes a request that cannot be analysed, which asks: the call is never judged on
/// fewer files than Codex may change.
///
/// ```
/// let reqs = toolgate::agents::codex::patch_requests(
///     "*** Begin Patch\n*** Update File: src/a.rs\n@@\n-x\n+y\n*** Delete File: b.txt\n*** End Patch",
/// ).unwrap();
/// assert_eq!(reqs[0].tool, "Edit");
/// assert_eq!(reqs[1].tool, "Delete");
/// ```
pub fn patch_requests(patch: &str) -> Result<Vec<crate::Request>> {
    const MARKERS: &[(&str, &str)] = &[
        ("*** Add File: ", "Write"),
        ("*** Update File: ", "Edit"),
        ("*** Delete File: ", "Delete"),
        ("*** Move to: ", "Write"),
    ];
    const PLAIN: &[&str] = &["*** Begin Patch", "*** End Patch", "*** End of File"];
    let mut out = Vec::new();
    for raw in patch.lines() {
        let line = raw.trim();
        if let Some((tool, path)) = MARKERS
            .iter()
            .find_map(|(m, tool)| line.strip_prefix(m).map(|p| (*tool, p)))
        {
            out.push(request(tool, json!({"file_path": path.trim()})));
            continue;
        }
        if PLAIN.contains(&line) {
            continue;
        }
        let lower = raw.to_lowercase();
        let names_a_marker = ["add file", "update file", "delete file", "move to"]
            .iter()
            .any(|m| lower.contains(m) && lower.contains("***"));
        if line.starts_with("***") || names_a_marker {
            // Not an object: the request cannot be analysed, and asks.
            out.push(request("Edit", Value::String(raw.to_owned())));
        }
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

    fn patch_verdict(policy: &str, patch: &str) -> Verdict {
        let p = json!({"session_id":"s","turn_id":"t","cwd":"/p","hook_event_name":"PreToolUse",
            "permission_mode":"bypassPermissions",
            "tool_name":"apply_patch","tool_input":{"input": patch}});
        let call = parse_call(None, &p.to_string()).unwrap();
        let policy = crate::Policy::from_json(policy).unwrap();
        crate::agents::decide(&call, &policy, &crate::decision::TrustOverlay::default()).verdict
    }

    #[test]
    fn an_indented_header_is_a_header() {
        // Codex trims both ends of each line before it matches a marker.
        let deny = r#"{"permissions":{"deny":["Edit(./.env)"]}}"#;
        for patch in [
            "*** Begin Patch\n*** Add File: notes.txt\n+hi\n *** Update File: .env\n@@\n-A\n+B\n*** End Patch",
            "*** Begin Patch\n*** Add File: notes.txt\n+hi\n\t*** Update File: .env  \n@@\n-A\n+B\n*** End Patch",
            "*** Begin Patch\n*** Add File: notes.txt\n+hi\n\u{3000}*** Delete File: .env\n*** End Patch",
            "*** Begin Patch\n*** Update File: a.rs\n\u{a0}*** Move to: .env\n@@\n-A\n+B\n*** End Patch",
        ] {
            let v = patch_verdict(deny, patch);
            assert!(matches!(v, Verdict::Deny(_)), "{patch:?}: {v:?}");
        }
    }

    #[test]
    fn a_marker_that_does_not_read_is_not_passed() {
        for patch in [
            "*** Begin Patch\n*** Add File: notes.txt\n+hi\n***Update File: .env\n*** End Patch",
            "*** Begin Patch\n*** Add File: notes.txt\n+hi\n*** update file: .env\n*** End Patch",
            "*** Begin Patch\n*** Add File: notes.txt\n+hi\n*** Rename File: .env\n*** End Patch",
        ] {
            let reqs = patch_requests(patch).unwrap();
            assert!(
                reqs.iter().any(|r| !r.input.is_object()),
                "{patch:?}: {reqs:?}"
            );
            let policy = crate::Policy::from_json("{}").unwrap();
            let r = reqs.iter().find(|r| !r.input.is_object()).unwrap();
            assert_ne!(policy.evaluate(r).effect, crate::decision::Effect::Allow);
        }
        // Content that merely mentions no marker is content.
        let reqs =
            patch_requests("*** Begin Patch\n*** Add File: a.md\n+*** not a header\n*** End Patch")
                .unwrap();
        assert_eq!(reqs.len(), 1);
    }

    #[test]
    fn a_command_runs_in_its_workdir() {
        let p = json!({"session_id":"s","turn_id":"t","cwd":"/p","hook_event_name":"PreToolUse",
            "tool_name":"Bash","tool_input":{"command":"cat notes.txt","workdir":"private"}});
        let call = parse_call(None, &p.to_string()).unwrap();
        assert_eq!(call.requests[0].cwd.as_deref(), Some("/p/private"));
        let deny = crate::Policy::from_json(r#"{"permissions":{"deny":["Read(//p/private/**)"]}}"#)
            .unwrap();
        let v = crate::agents::decide(&call, &deny, &Default::default()).verdict;
        assert!(matches!(v, Verdict::Deny(_)), "{v:?}");
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
