//! Cursor: the `beforeShellExecution`, `beforeMCPExecution` and `beforeReadFile` hooks
//! (`.cursor/hooks.json`).
//!
//! Not captured on this machine; the shapes follow Cursor's published hook documentation.
//! Payloads carry `hook_event_name`, `conversation_id`, `generation_id` and
//! `workspace_roots`, plus per event: `command` and `cwd` (shell), `tool_name` and
//! `tool_input` (MCP; `tool_input` may be a JSON string), `file_path` (read).
//! The call's project is the workspace root that holds `cwd` ([`workspace_root`]), not a
//! repository the shell has gone into.
//! They become `Bash {command}`, the MCP tool `mcp__cursor-mcp__<tool_name>` (whatever the
//! name: one of the form `mcp__<server>__<tool>` names no server that can be trusted), and
//! `Read {file_path}`.
//!
//! Answers: `{"permission":"allow"|"ask"|"deny","userMessage","agentMessage"}`. A deny also
//! exits 2 with the reason on stderr, which Cursor treats as a block whatever the output
//! says. `beforeReadFile` knows only allow and deny, so an ask is a deny there.
//!
//! ```
//! use toolgate::agents::{cursor, HookEvent, Verdict};
//! let a = cursor::render(HookEvent::PreToolUse, &Verdict::Ask("why".into()));
//! assert!(a.stdout.contains(r#""permission":"ask""#));
//! ```

use serde_json::{json, Value};

use super::payload::{field_str, object_field, request, required_str, unnamed_server_request};
use super::{json_text, Agent, HookAnswer, HookCall, HookEvent, Verdict};
use crate::error::Result;

/// The event a Cursor payload reports, if it is one.
pub fn event(payload: &Value) -> Option<HookEvent> {
    match field_str(payload, "hook_event_name")? {
        "beforeShellExecution" | "beforeMCPExecution" | "beforeReadFile" => {
            Some(HookEvent::PreToolUse)
        }
        "afterFileEdit"
        | "beforeSubmitPrompt"
        | "stop"
        | "afterShellExecution"
        | "afterMCPExecution"
        | "afterAgentResponse"
        | "afterAgentThought" => Some(HookEvent::Observe),
        _ => None,
    }
}

/// Reads a Cursor payload.
pub fn call(event: HookEvent, payload: &Value) -> Result<HookCall> {
    let session_id = field_str(payload, "conversation_id")
        .unwrap_or("")
        .to_owned();
    let roots: Vec<&str> = payload
        .get("workspace_roots")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let cwd = field_str(payload, "cwd")
        .or_else(|| roots.first().copied())
        .map(str::to_owned);
    let project = workspace_root(&roots, cwd.as_deref());
    let name = field_str(payload, "hook_event_name").unwrap_or("");
    let (tool, requests) = match (event, name) {
        (HookEvent::PreToolUse, "beforeShellExecution") => {
            let command = required_str(payload, "command")?;
            (
                "Bash".to_owned(),
                vec![request("Bash", json!({"command": command}))],
            )
        }
        (HookEvent::PreToolUse, "beforeReadFile") => {
            let path = required_str(payload, "file_path")?;
            (
                "Read".to_owned(),
                vec![request("Read", json!({"file_path": path}))],
            )
        }
        (HookEvent::PreToolUse, _) => {
            let tool = required_str(payload, "tool_name")?.to_owned();
            let input = object_field(payload, "tool_input")?;
            (
                tool.clone(),
                vec![unnamed_server_request(UNNAMED_SERVER, &tool, input)],
            )
        }
        _ => (String::new(), Vec::new()),
    };
    Ok(HookCall {
        agent: Agent::Cursor,
        event,
        tool,
        requests,
        session_id,
        cwd,
        project,
        internal: false,
        can_ask: name != "beforeReadFile",
        tool_input: None,
        readings: Vec::new(),
    })
}

/// The project of a call: the first absolute workspace root that holds the working
/// directory (compared after normalising), else the first absolute root. Cursor runs the
/// shell wherever the agent went (`cd`, a nested repository), and the workspace is the
/// project whose policy applies there.
///
/// ```
/// use toolgate::agents::cursor::workspace_root;
/// let root = |cwd| workspace_root(&["/q", "/p/"], Some(cwd));
/// assert_eq!(root("/p/vendor/lib").as_deref(), Some("/p"));
/// assert_eq!(root("/p/../q/x").as_deref(), Some("/q"));
/// assert_eq!(root("/tmp").as_deref(), Some("/q"));
/// assert_eq!(workspace_root(&["rel"], Some("/p")), None);
/// ```
pub fn workspace_root(roots: &[&str], cwd: Option<&str>) -> Option<String> {
    let absolute: Vec<String> = roots
        .iter()
        .filter_map(|r| crate::path::normalize(r, None, None))
        .collect();
    let cwd = cwd.and_then(|c| crate::path::normalize(c, None, None));
    let holding = cwd.and_then(|c| absolute.iter().find(|r| crate::path::contains(r, &c)));
    holding.or_else(|| absolute.first()).cloned()
}

/// The server name given to an MCP call whose payload names none (Cursor's
/// `beforeMCPExecution` carries the tool's name, not its server's): every name, as sent, is
/// a tool of this server, so a server's tool named like a built-in (`Read`, `Task`, `glob`)
/// never gets the built-in's defaults, and one named like another server's tool
/// (`mcp__github__create_issue`, from any server) never gets that server's rules.
pub const UNNAMED_SERVER: &str = "cursor-mcp";

/// Cursor's answer for a verdict, for any of its pre-tool events.
pub fn render(event: HookEvent, verdict: &Verdict) -> HookAnswer {
    if event == HookEvent::Observe {
        return HookAnswer::default();
    }
    match verdict {
        Verdict::Defer => HookAnswer::default(),
        Verdict::Allow(r) => answer("allow", r, 0),
        Verdict::Ask(r) => answer("ask", r, 0),
        Verdict::Deny(r) => answer("deny", r, Agent::Cursor.blocking_exit_code()),
    }
}

fn answer(permission: &str, reason: &str, exit_code: i32) -> HookAnswer {
    HookAnswer {
        stdout: json_text(&json!({
            "permission": permission,
            "userMessage": reason,
            "agentMessage": reason,
        })),
        stderr: if exit_code == 0 {
            String::new()
        } else {
            reason.to_owned()
        },
        exit_code,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::parse_call;

    #[test]
    fn reads_the_three_events() {
        let shell = json!({"hook_event_name":"beforeShellExecution","conversation_id":"c",
            "generation_id":"g","workspace_roots":["/p"],"command":"git status","cwd":"/p/sub"});
        let call = parse_call(None, &shell.to_string()).unwrap();
        assert_eq!(call.agent, Agent::Cursor);
        assert_eq!(call.requests[0].input_str("command"), Some("git status"));
        assert_eq!(call.requests[0].cwd.as_deref(), Some("/p/sub"));
        assert_eq!(call.project.as_deref(), Some("/p"));
        let read = json!({"hook_event_name":"beforeReadFile","conversation_id":"c",
            "workspace_roots":["/p"],"file_path":"/p/a.rs","content":"x"});
        let call = parse_call(None, &read.to_string()).unwrap();
        assert_eq!(call.requests[0].tool, "Read");
        assert_eq!(call.cwd.as_deref(), Some("/p"));
        let mcp = json!({"hook_event_name":"beforeMCPExecution","conversation_id":"c",
            "workspace_roots":["/p"],"tool_name":"mcp__gh__list","tool_input":"{\"a\":1}"});
        let call = parse_call(None, &mcp.to_string()).unwrap();
        assert_eq!(call.requests[0].tool, "mcp__cursor-mcp__mcp__gh__list");
    }

    #[test]
    fn mcp_names_of_other_servers_are_cursor_mcp_tools() {
        // Any server may call its tool `mcp__github__create_issue`; the payload's
        // `command`/`url` say which server it is, and cannot be trusted.
        let allow =
            crate::Policy::from_json(r#"{"permissions":{"allow":["mcp__github"]}}"#).unwrap();
        for name in ["mcp__github__create_issue", "create_issue"] {
            let p = json!({"hook_event_name":"beforeMCPExecution","conversation_id":"c",
                "workspace_roots":["/p"],"tool_name":name,"tool_input":"{}",
                "command":"npx evil-mcp-server"});
            let call = parse_call(None, &p.to_string()).unwrap();
            assert_eq!(call.requests[0].tool, format!("mcp__cursor-mcp__{name}"));
            let v = crate::agents::decide(&call, &allow, &Default::default()).verdict;
            assert!(
                !matches!(v, Verdict::Allow(_) | Verdict::Defer),
                "{name}: {v:?}"
            );
        }
    }

    #[test]
    fn mcp_tools_named_like_built_ins_are_mcp_tools() {
        let policy = crate::Policy::from_json("{}").unwrap();
        for tool in [
            "Task",
            "TodoWrite",
            "BashOutput",
            "read",
            "Read",
            "view",
            "glob",
            "ls",
        ] {
            let p = json!({"hook_event_name":"beforeMCPExecution","conversation_id":"c",
                "workspace_roots":["/p"],"tool_name":tool,
                "tool_input":{"file_path":"/p/a.rs","pattern":"*","path":"/p"}});
            let call = parse_call(None, &p.to_string()).unwrap();
            let v = crate::agents::decide(&call, &policy, &Default::default()).verdict;
            assert!(
                !matches!(v, Verdict::Allow(_) | Verdict::Defer),
                "{tool}: {v:?}"
            );
        }
        let allow =
            crate::Policy::from_json(r#"{"permissions":{"allow":["mcp__cursor-mcp__lookup"]}}"#)
                .unwrap();
        let p = json!({"hook_event_name":"beforeMCPExecution","conversation_id":"c",
            "workspace_roots":["/p"],"tool_name":"lookup","tool_input":{}});
        let call = parse_call(None, &p.to_string()).unwrap();
        let v = crate::agents::decide(&call, &allow, &Default::default()).verdict;
        assert!(matches!(v, Verdict::Allow(_)), "{v:?}");
    }

    #[test]
    fn answers() {
        let a = render(HookEvent::PreToolUse, &Verdict::Deny("no".into()));
        assert_eq!(a.exit_code, 2);
        assert!(a.stdout.contains(r#""permission":"deny""#));
        let read = json!({"hook_event_name":"beforeReadFile","conversation_id":"c",
            "workspace_roots":["/p"],"file_path":"/etc/shadow"});
        let call = parse_call(None, &read.to_string()).unwrap();
        assert!(!call.can_ask);
    }
}
