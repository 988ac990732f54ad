//! Gemini CLI: the `BeforeTool` hook (`.gemini/settings.json`).
//!
//! Payload: `{"session_id","cwd","hook_event_name":"BeforeTool","tool_name","tool_input"}`.
//! Gemini's tools are mapped onto the names toolgate's rules use:
//!
//! | Gemini CLI | toolgate request |
//! |---|---|
//! | `run_shell_command {command, directory?}` | `Bash {command}` (cwd: `directory`) |
//! | `read_file {absolute_path}` | `Read {file_path}` |
//! | `write_file {file_path, content}` | `Write` |
//! | `replace {file_path, old_string, new_string}` | `Edit` |
//! | `glob {pattern, path?}` | `Glob` |
//! | `search_file_content`, `grep`, `grep_search {pattern, path?}` | `Grep` |
//! | `list_directory {path}` | `Glob {pattern: "*", path}` |
//! | `web_fetch {prompt}` with one URL in the prompt | `WebFetch {url}` |
//! | `server__tool` (MCP) | `mcp__server__tool` |
//!
//! Anything else keeps its name and is decided by rules naming it (or asks).
//!
//! Answers: `{"decision":"allow"}`, or `{"decision":"deny","reason"}` with exit 2 and the
//! reason on stderr. Gemini CLI ends a headless run silently on `ask`, so toolgate never
//! answers `ask`: a call that needs approval is denied with the reason "needs approval", and
//! the model is told to ask the user to allow it.
//!
//! ```
//! use toolgate::agents::{gemini, HookEvent, Verdict};
//! let a = gemini::render(HookEvent::PreToolUse, &Verdict::Ask("toolgate: shell".into()));
//! assert!(a.stdout.contains(r#""decision":"deny""#));
//! assert!(a.stdout.contains("needs approval"));
//! ```

use serde_json::{json, Value};

use super::payload::{field_str, mode, object, object_field, request, required_str};
use super::{json_text, Agent, HookAnswer, HookCall, HookEvent, Verdict};
use crate::error::Result;
use crate::request::Request;

/// Gemini CLI's own bookkeeping tools.
const INTERNAL_TOOLS: &[&str] = &["write_todos"];

/// The event a Gemini CLI payload reports, if it is one.
pub fn event(payload: &Value) -> Option<HookEvent> {
    match field_str(payload, "hook_event_name")? {
        "BeforeTool" => Some(HookEvent::PreToolUse),
        "AfterTool" | "BeforeAgent" | "AfterAgent" | "BeforeModel" | "AfterModel"
        | "SessionStart" | "SessionEnd" | "Notification" | "PreCompress" => {
            Some(HookEvent::Observe)
        }
        _ => None,
    }
}

/// Reads a Gemini CLI payload.
pub fn call(event: HookEvent, payload: &Value) -> Result<HookCall> {
    let session_id = field_str(payload, "session_id").unwrap_or("").to_owned();
    let cwd = field_str(payload, "cwd").map(str::to_owned);
    if event == HookEvent::Observe {
        return Ok(HookCall {
            agent: Agent::Gemini,
            event,
            tool: field_str(payload, "tool_name").unwrap_or("").to_owned(),
            requests: Vec::new(),
            session_id,
            cwd,
            internal: false,
            can_ask: true,
        });
    }
    let tool = required_str(payload, "tool_name")?.to_owned();
    let input = object_field(payload, "tool_input")?;
    let mut req = map_tool(&tool, &input);
    req.mode = mode(payload, "permission_mode");
    if let (Some(dir), Some(base)) = (req.cwd.as_deref(), cwd.as_deref()) {
        if !dir.starts_with('/') {
            req.cwd = Some(format!("{}/{dir}", base.trim_end_matches('/')));
        }
    }
    Ok(HookCall {
        agent: Agent::Gemini,
        event,
        internal: INTERNAL_TOOLS.contains(&tool.as_str()),
        tool,
        requests: vec![req],
        session_id,
        cwd,
        can_ask: true,
    })
}

/// A Gemini CLI tool call as the request toolgate's rules understand.
///
/// ```
/// let input = serde_json::json!({"absolute_path": "/p/a.rs"});
/// let r = toolgate::agents::gemini::map_tool("read_file", &input);
/// assert_eq!((r.tool.as_str(), r.input_str("file_path")), ("Read", Some("/p/a.rs")));
/// ```
pub fn map_tool(tool: &str, input: &Value) -> Request {
    let get = |k: &str| input.get(k);
    match tool {
        "run_shell_command" => {
            let mut r = request("Bash", object(&[("command", get("command"))]));
            r.cwd = input
                .get("directory")
                .and_then(Value::as_str)
                .map(str::to_owned);
            r
        }
        "read_file" => request(
            "Read",
            object(&[("file_path", get("absolute_path").or(get("file_path")))]),
        ),
        "write_file" => request(
            "Write",
            object(&[("file_path", get("file_path")), ("content", get("content"))]),
        ),
        "replace" => request(
            "Edit",
            object(&[
                ("file_path", get("file_path")),
                ("old_string", get("old_string")),
                ("new_string", get("new_string")),
            ]),
        ),
        "glob" => request(
            "Glob",
            object(&[("pattern", get("pattern")), ("path", get("path"))]),
        ),
        "search_file_content" | "grep" | "grep_search" => request(
            "Grep",
            object(&[
                ("pattern", get("pattern")),
                ("path", get("path").or(get("dir_path"))),
            ]),
        ),
        "list_directory" => {
            let star = json!("*");
            request(
                "Glob",
                object(&[
                    ("pattern", Some(&star)),
                    ("path", get("path").or(get("dir_path"))),
                ]),
            )
        }
        "web_fetch" => match single_url(get("prompt").and_then(Value::as_str).unwrap_or("")) {
            Some(url) => request("WebFetch", json!({"url": url})),
            None => request("web_fetch_prompt", input.clone()),
        },
        other => match other.split_once("__") {
            Some((server, name)) if !other.starts_with("mcp__") && !server.is_empty() => {
                request(&format!("mcp__{server}__{name}"), input.clone())
            }
            _ => request(other, input.clone()),
        },
    }
}

/// The one URL in a prompt, if there is exactly one.
fn single_url(prompt: &str) -> Option<String> {
    let mut urls = prompt
        .split_whitespace()
        .filter(|w| w.starts_with("http://") || w.starts_with("https://"))
        .map(|w| w.trim_end_matches(['.', ',', ')', ';', '"', '\'']));
    let first = urls.next()?;
    if urls.next().is_some() {
        return None;
    }
    Some(first.to_owned())
}

/// Gemini CLI's answer for a verdict.
pub fn render(event: HookEvent, verdict: &Verdict) -> HookAnswer {
    if event == HookEvent::Observe {
        return HookAnswer::default();
    }
    match verdict {
        Verdict::Defer => HookAnswer::default(),
        Verdict::Allow(r) => HookAnswer {
            stdout: json_text(&json!({"decision": "allow", "reason": r})),
            stderr: String::new(),
            exit_code: 0,
        },
        Verdict::Deny(r) => deny(r),
        Verdict::Ask(r) => deny(&format!(
            "Permission denied: this call needs approval ({r}) and Gemini CLI cannot ask here. \
             Do not retry it; tell the user what you wanted to run so they can run it or allow \
             it in the toolgate policy."
        )),
    }
}

fn deny(reason: &str) -> HookAnswer {
    HookAnswer {
        stdout: json_text(&json!({"decision": "deny", "reason": reason})),
        stderr: reason.to_owned(),
        exit_code: Agent::Gemini.blocking_exit_code(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::parse_call;

    #[test]
    fn reads_the_captured_payload() {
        let call = parse_call(None, &crate::agents::captured("gemini-BeforeTool")).unwrap();
        assert_eq!(
            (call.agent, call.event),
            (Agent::Gemini, HookEvent::PreToolUse)
        );
        assert_eq!(call.requests[0].tool, "Bash");
        assert_eq!(call.requests[0].input_str("command"), Some("touch out.txt"));
    }

    #[test]
    fn maps_tools() {
        let cases = [
            (
                "write_file",
                json!({"file_path":"a","content":"x"}),
                "Write",
            ),
            (
                "replace",
                json!({"file_path":"a","old_string":"x","new_string":"y"}),
                "Edit",
            ),
            ("glob", json!({"pattern":"*.rs"}), "Glob"),
            ("search_file_content", json!({"pattern":"x"}), "Grep"),
            ("list_directory", json!({"path":"/p"}), "Glob"),
            (
                "web_fetch",
                json!({"prompt":"summarise https://a.example/x."}),
                "WebFetch",
            ),
            (
                "web_fetch",
                json!({"prompt":"https://a.example https://b.example"}),
                "web_fetch_prompt",
            ),
            ("github__get_issue", json!({}), "mcp__github__get_issue"),
            (
                "mcp__github__get_issue",
                json!({}),
                "mcp__github__get_issue",
            ),
        ];
        for (tool, input, want) in cases {
            assert_eq!(map_tool(tool, &input).tool, want, "{tool}");
        }
        let r = map_tool(
            "web_fetch",
            &json!({"prompt":"summarise https://a.example/x."}),
        );
        assert_eq!(r.input_str("url"), Some("https://a.example/x"));
        let r = map_tool(
            "run_shell_command",
            &json!({"command":"ls","directory":"/p/sub"}),
        );
        assert_eq!(r.cwd.as_deref(), Some("/p/sub"));
    }

    #[test]
    fn a_relative_shell_directory_is_under_the_working_directory() {
        let p = json!({"session_id":"s","cwd":"/p","hook_event_name":"BeforeTool",
            "tool_name":"run_shell_command","tool_input":{"command":"ls","directory":"sub"}});
        let call = parse_call(None, &p.to_string()).unwrap();
        assert_eq!(call.requests[0].cwd.as_deref(), Some("/p/sub"));
    }

    #[test]
    fn never_answers_ask() {
        let a = render(HookEvent::PreToolUse, &Verdict::Ask("x".into()));
        assert_eq!(a.exit_code, 2);
        assert!(!a.stdout.contains("\"ask\""));
        let a = render(HookEvent::PreToolUse, &Verdict::Allow("x".into()));
        assert_eq!(a.exit_code, 0);
        assert!(a.stdout.contains(r#""decision":"allow""#));
    }
}
