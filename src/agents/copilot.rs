//! GitHub Copilot CLI: `preToolUse` and `permissionRequest` hooks.
//!
//! Payloads are camelCase: `{"sessionId","cwd","toolName","toolArgs"}` before a tool runs
//! (`toolArgs` is an object; a JSON string is accepted too), and `{"hookName":
//! "permissionRequest","toolName","toolInput"}` when Copilot would ask its user. Tool names
//! (`bash`/`shell`, `view`, `create`, `str_replace`, `edit`, `fetch`) are spellings toolgate's
//! rules know. `view` shows a file, or lists a directory's names two levels deep, so it is
//! judged as a read of its `path` and as a listing of it, as the Glob tool is
//! ([`LISTING_TOOLS`]).
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
use crate::request::Request;

/// Copilot CLI's own bookkeeping tools.
const INTERNAL_TOOLS: &[&str] = &["report_intent", "update_todo", "task"];

/// Copilot CLI's tools that read a `path` which may be a directory, and then list it:
/// `view` shows the names in a directory two levels deep. toolgate cannot tell a directory
/// from a file, so each such call is also judged as that listing.
///
/// ```
/// use serde_json::json;
/// use toolgate::agents::{parse_call, Agent};
/// let p = json!({"sessionId":"s","cwd":"/p","toolName":"view","toolArgs":{"path":"/p/secrets"}});
/// let call = parse_call(Some(Agent::Copilot), &p.to_string()).unwrap();
/// let tools: Vec<_> = call.requests.iter().map(|r| r.tool.as_str()).collect();
/// assert_eq!(tools, ["view", "LS", "Glob"]);
/// ```
pub const LISTING_TOOLS: &[&str] = &["view"];

/// Copilot CLI's tools that type their `input` into a command `bash` started
/// (`"mode":"async"`): what they type runs where no other hook sees it, so each such call is
/// also judged as that text run as a shell line, by the rules and dangers of `bash`.
///
/// ```
/// use serde_json::json;
/// use toolgate::agents::{parse_call, Agent};
/// let p = json!({"sessionId":"s","cwd":"/p","toolName":"write_bash",
///     "toolArgs":{"shellId":"1","input":"cat secrets/k.txt\n"}});
/// let call = parse_call(Some(Agent::Copilot), &p.to_string()).unwrap();
/// assert_eq!(call.requests[1].tool, "bash");
/// assert_eq!(call.requests[1].input_str("command"), Some("cat secrets/k.txt\n"));
/// ```
pub const TYPING_TOOLS: &[&str] = &["write_bash"];

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
    let judged = match event {
        HookEvent::Observe => Vec::new(),
        HookEvent::PreToolUse => judged(&tool, object_field(payload, "toolArgs")?),
        HookEvent::PermissionRequest => judged(&tool, object_field(payload, "toolInput")?),
    };
    let (requests, readings) = judged.into_iter().unzip();
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
        readings,
    })
}

/// The requests a call of `tool` with `input` is judged by, each with how Copilot CLI reads
/// the call when that is not as written: the call itself, for a tool of [`LISTING_TOOLS`]
/// the listing of its `path`, and for one of [`TYPING_TOOLS`] the shell line it types.
fn judged(tool: &str, input: Value) -> Vec<(Request, Option<String>)> {
    let listed = if LISTING_TOOLS.contains(&tool) {
        listings(tool, &input)
    } else {
        Vec::new()
    };
    let typed = typed_line(tool, &input);
    let mut out = vec![(request(tool, input), None)];
    out.extend(listed);
    out.extend(typed);
    out
}

/// What a tool of [`TYPING_TOOLS`] types, as the shell line it runs when a shell reads it
/// (`bash {command: input}`). None for another tool, or when the input has no `input` text.
fn typed_line(tool: &str, input: &Value) -> Option<(Request, Option<String>)> {
    if !TYPING_TOOLS.contains(&tool) {
        return None;
    }
    let text = input.get("input")?.as_str()?;
    let how = format!(
        "Copilot CLI's `{tool}` types its input into a running command, which may be a shell"
    );
    Some((request("bash", json!({ "command": text })), Some(how)))
}

/// What a listing tool shows when its `path` is a directory, as the Glob tool's requests
/// toolgate judges a listing by: the names in it (`LS {path}`) and the names one level
/// further down (`Glob {path, pattern: "*/*"}`). None when the input has no `path`.
fn listings(tool: &str, input: &Value) -> Vec<(Request, Option<String>)> {
    let Some(path) = input.get("path") else {
        return Vec::new();
    };
    let how = format!("Copilot CLI's `{tool}` of a directory lists the names in it");
    [
        request("LS", json!({ "path": path })),
        request("Glob", json!({ "path": path, "pattern": "*/*" })),
    ]
    .into_iter()
    .map(|r| (r, Some(how.clone())))
    .collect()
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
    fn a_view_is_judged_also_as_a_listing_of_its_path() {
        // Copilot CLI's `view` of a directory lists the names in it, two levels deep.
        let policy =
            crate::Policy::from_json(r#"{"permissions":{"deny":["Read(./secrets/**)"]}}"#).unwrap();
        let verdict = |p: Value| {
            let call = parse_call(Some(Agent::Copilot), &p.to_string()).unwrap();
            crate::agents::decide(&call, &policy, &Default::default()).verdict
        };
        for path in ["/p/secrets", "secrets", "/p/secrets/"] {
            for p in [
                json!({"sessionId":"s","cwd":"/p","toolName":"view","toolArgs":{"path":path}}),
                json!({"hookName":"permissionRequest","sessionId":"s","cwd":"/p",
                    "toolName":"view","toolInput":{"path":path}}),
            ] {
                let v = verdict(p);
                let Verdict::Deny(why) = v else {
                    panic!("{path}: {v:?}")
                };
                assert!(why.contains("lists the names in it"), "{path}: {why}");
            }
        }
        // A file, and a directory no rule covers, are read as before.
        for path in ["/p/src/main.rs", "/p/src", "/p"] {
            let p = json!({"sessionId":"s","cwd":"/p","toolName":"view",
                "toolArgs":{"path":path,"view_range":[1,5]}});
            let v = verdict(p);
            assert!(matches!(v, Verdict::Allow(_)), "{path}: {v:?}");
        }
    }

    #[test]
    fn typed_input_is_judged_as_a_shell_line() {
        // `write_bash` types into a command `bash` started; no other hook sees what runs.
        let policy =
            crate::Policy::from_json(r#"{"permissions":{"deny":["Read(./secrets/**)"]}}"#).unwrap();
        let verdict = |input: &str| {
            let p = json!({"sessionId":"s","cwd":"/p","toolName":"write_bash",
                "toolArgs":{"shellId":"1","input":input}});
            let call = parse_call(Some(Agent::Copilot), &p.to_string()).unwrap();
            crate::agents::decide(&call, &policy, &Default::default()).verdict
        };
        for input in ["cat secrets/k.txt\n", "python3 -m code\n"] {
            let v = verdict(input);
            assert!(!matches!(v, Verdict::Allow(_)), "{input}: {v:?}");
        }
        assert!(matches!(verdict("cat secrets/k.txt\n"), Verdict::Deny(_)));
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
