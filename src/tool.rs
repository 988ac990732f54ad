//! The built-in tools: what each one does, how risky it is, and how it is spelled by the
//! agents whose rule syntax toolgate accepts.

use serde::{Deserialize, Serialize};

use crate::decision::Risk;

/// What a tool does, which decides which rules and defaults apply to it and which `input`
/// field carries its subject.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum ToolKind {
    /// Reads one file (`file_path` or `path`).
    Read,
    /// Lists files by pattern (`pattern`, optional `path`).
    Glob,
    /// Searches file contents (`pattern`, optional `path`).
    Grep,
    /// Creates or overwrites a file (`file_path` or `path`).
    Write,
    /// Changes part of a file (`file_path` or `path`).
    Edit,
    /// Deletes a file (`file_path` or `path`).
    Delete,
    /// Runs a shell command line (`command`).
    Shell,
    /// Fetches a URL (`url`).
    Fetch,
    /// A tool of an MCP server.
    Mcp,
    /// Anything else: matched by name only.
    Other,
}

impl ToolKind {
    /// The `input` keys that carry the call's subject, in the order they are looked up (for
    /// showing the call; every path a call names is judged: see [`input_paths`]).
    pub const fn subject_keys(self) -> &'static [&'static str] {
        match self {
            ToolKind::Read | ToolKind::Write | ToolKind::Edit | ToolKind::Delete => {
                &["file_path", "path", "notebook_path"]
            }
            ToolKind::Glob | ToolKind::Grep => &["pattern"],
            ToolKind::Shell => &["command"],
            ToolKind::Fetch => &["url"],
            ToolKind::Mcp | ToolKind::Other => &[],
        }
    }

    /// Whether calls of this kind change files.
    pub const fn writes_files(self) -> bool {
        matches!(self, ToolKind::Write | ToolKind::Edit | ToolKind::Delete)
    }
}

/// What happens to a call of a tool when no rule decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum Level {
    /// Runs without asking.
    Allow,
    /// Asks a person.
    Prompt,
    /// Never runs.
    Deny,
}

/// A tool's defaults: its kind, its level when no rule decides, its risk, and whether a
/// person's "remember" answer may apply to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ToolDefaults {
    /// What the tool does.
    pub kind: ToolKind,
    /// Its level when no rule decides.
    pub level: Level,
    /// Its risk.
    pub risk: Risk,
    /// Whether remembered trust may apply to it.
    pub trustable: bool,
}

/// A built-in tool: its canonical name, every spelling agents use for it, and its defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuiltinTool {
    /// The canonical (seed design) name.
    pub name: &'static str,
    /// Every name that refers to it: the canonical one, Claude Code's and Copilot CLI's.
    pub spellings: &'static [&'static str],
    /// Every `input` key that any of its spellings takes. For file tools an input with any
    /// other key cannot be analysed (it might name a path that is not judged).
    pub parameters: &'static [&'static str],
    /// Its defaults.
    pub defaults: ToolDefaults,
}

const fn tool(
    name: &'static str,
    spellings: &'static [&'static str],
    parameters: &'static [&'static str],
    kind: ToolKind,
    level: Level,
    risk: Risk,
    trustable: bool,
) -> BuiltinTool {
    BuiltinTool {
        name,
        spellings,
        parameters,
        defaults: ToolDefaults {
            kind,
            level,
            risk,
            trustable,
        },
    }
}

/// The built-in tools. Reads are allowed and low risk; writes and edits ask, are medium risk
/// and may be trusted for a session; deletes and shell commands ask, are high risk and are
/// never trusted wholesale; fetches ask and may be trusted.
pub const BUILTIN_TOOLS: &[BuiltinTool] = &[
    tool(
        "read",
        &["read", "Read", "view", "NotebookRead"],
        &[
            "file_path",
            "path",
            "notebook_path",
            "offset",
            "limit",
            "pages",
            "view_range",
            "cell_id",
        ],
        ToolKind::Read,
        Level::Allow,
        Risk::Low,
        true,
    ),
    tool(
        "glob",
        &["glob", "Glob", "LS", "ls"],
        &["pattern", "path", "ignore"],
        ToolKind::Glob,
        Level::Allow,
        Risk::Low,
        true,
    ),
    tool(
        "grep",
        &["grep", "Grep"],
        &[
            "pattern",
            "path",
            "include",
            "glob",
            "type",
            "output_mode",
            "-i",
            "-n",
            "-A",
            "-B",
            "-C",
            "head_limit",
            "offset",
            "multiline",
        ],
        ToolKind::Grep,
        Level::Allow,
        Risk::Low,
        true,
    ),
    tool(
        "write",
        &["write", "Write", "create"],
        &["file_path", "path", "content", "file_text"],
        ToolKind::Write,
        Level::Prompt,
        Risk::Medium,
        true,
    ),
    tool(
        "edit",
        &[
            "edit",
            "Edit",
            "MultiEdit",
            "NotebookEdit",
            "str_replace",
            "insert",
        ],
        &[
            "file_path",
            "path",
            "notebook_path",
            "old_string",
            "new_string",
            "replace_all",
            "edits",
            "old_str",
            "new_str",
            "insert_line",
            "new_source",
            "cell_id",
            "cell_type",
            "edit_mode",
        ],
        ToolKind::Edit,
        Level::Prompt,
        Risk::Medium,
        true,
    ),
    tool(
        "delete",
        &["delete", "Delete", "rm"],
        &["file_path", "path"],
        ToolKind::Delete,
        Level::Prompt,
        Risk::High,
        false,
    ),
    tool(
        "bash",
        &["bash", "Bash", "shell"],
        &["command", "timeout", "description", "run_in_background"],
        ToolKind::Shell,
        Level::Prompt,
        Risk::High,
        false,
    ),
    tool(
        "fetch",
        &["fetch", "WebFetch", "url", "web_fetch"],
        &["url", "prompt", "max_length", "start_index", "raw"],
        ToolKind::Fetch,
        Level::Prompt,
        Risk::Medium,
        true,
    ),
];

/// Looks up a built-in tool by any of its spellings (case-sensitive, as agents send them).
///
/// ```
/// let t = toolgate::tool::builtin("Bash").unwrap();
/// assert_eq!(t.name, "bash");
/// assert!(!t.defaults.trustable);
/// assert!(toolgate::tool::builtin("bash -c").is_none());
/// ```
pub fn builtin(name: &str) -> Option<&'static BuiltinTool> {
    BUILTIN_TOOLS.iter().find(|t| t.spellings.contains(&name))
}

/// Claude Code's own tools that are not file, shell or fetch tools, with their defaults:
/// keeping a to-do list, starting a subagent (whose own calls are checked one by one) and
/// reading a background shell's output run without asking; stopping a background shell,
/// leaving plan mode (the agent's plan review is this very prompt) and searching the web ask.
/// Rules name them literally (`TodoWrite`, `WebSearch`).
pub const AGENT_TOOLS: &[(&str, ToolDefaults)] = &[
    ("TodoWrite", harmless()),
    ("Task", harmless()),
    ("BashOutput", harmless()),
    ("KillShell", asks(Risk::Medium)),
    ("KillBash", asks(Risk::Medium)),
    ("ExitPlanMode", asks(Risk::Low)),
    ("WebSearch", asks(Risk::Medium)),
];

const fn harmless() -> ToolDefaults {
    ToolDefaults {
        kind: ToolKind::Other,
        level: Level::Allow,
        risk: Risk::Low,
        trustable: true,
    }
}

const fn asks(risk: Risk) -> ToolDefaults {
    ToolDefaults {
        kind: ToolKind::Other,
        level: Level::Prompt,
        risk,
        trustable: true,
    }
}

/// Whether a request's agent is one whose tools [`AGENT_TOOLS`] describes: Claude Code
/// (`claude`), a host that says it is Claude-like (`claude-code`, `claude-agent-sdk`), or a
/// request that names no agent (the rule language is Claude Code's). For any other agent a
/// tool named `Task` or `TodoWrite` is that agent's own, an extension's or an MCP server's,
/// and gets the unknown tool's defaults.
///
/// ```
/// use toolgate::tool::has_claude_tools;
/// assert!(has_claude_tools(None));
/// assert!(has_claude_tools(Some("claude")));
/// assert!(has_claude_tools(Some("Claude-Agent-SDK")));
/// assert!(!has_claude_tools(Some("gemini")));
/// assert!(!has_claude_tools(Some("copilot")));
/// assert!(!has_claude_tools(Some("claudette")));
/// ```
pub fn has_claude_tools(agent: Option<&str>) -> bool {
    agent.is_none_or(|a| {
        let a = a.to_ascii_lowercase();
        a == "claude" || a.starts_with("claude-") || a.starts_with("claude_")
    })
}

/// The defaults of one of Claude Code's own tools ([`AGENT_TOOLS`]).
///
/// ```
/// use toolgate::tool::{agent_tool, Level};
/// assert_eq!(agent_tool("TodoWrite").unwrap().level, Level::Allow);
/// assert_eq!(agent_tool("WebSearch").unwrap().level, Level::Prompt);
/// assert!(agent_tool("todowrite").is_none());
/// ```
pub fn agent_tool(name: &str) -> Option<ToolDefaults> {
    AGENT_TOOLS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, d)| *d)
}

/// The kind of a request's tool when no policy says otherwise: a tool that comes from an
/// MCP server (named `mcp__server__tool` or sent with a `server`) is an MCP tool even when it
/// borrows a built-in name; then the built-ins; anything else is [`ToolKind::Other`]. A
/// policy's `tools` entries come first: see `Evaluate::tool_kind`.
///
/// ```
/// use toolgate::tool::{kind_without_policy, ToolKind};
/// assert_eq!(kind_without_policy("Bash", false), ToolKind::Shell);
/// assert_eq!(kind_without_policy("Read", true), ToolKind::Mcp);
/// assert_eq!(kind_without_policy("mcp__x__y", false), ToolKind::Mcp);
/// assert_eq!(kind_without_policy("TodoWrite", false), ToolKind::Other);
/// ```
pub fn kind_without_policy(name: &str, has_server: bool) -> ToolKind {
    if has_server || name.starts_with("mcp__") {
        return ToolKind::Mcp;
    }
    builtin(name).map_or(ToolKind::Other, |b| b.defaults.kind)
}

/// `input` keys that name one file or directory, in the spellings of every agent (Claude
/// Code's `file_path` and `notebook_path`, Copilot CLI's `path`). A file tool's call is
/// judged on every one of them that is present.
pub const PATH_KEYS: &[&str] = &["file_path", "path", "notebook_path"];

/// `input` keys that hold a list of paths.
pub const PATH_LIST_KEYS: &[&str] = &["paths"];

/// `input` keys that hold a list of objects, each of which may name a path under one of
/// [`PATH_KEYS`] (`edits[].file_path`).
pub const NESTED_PATH_LISTS: &[&str] = &["edits"];

/// One path named by a call: where in the input (`input.edits[1].file_path`) and the path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedPath<'a> {
    /// Where in the input.
    pub key: String,
    /// The path as written.
    pub path: &'a str,
}

/// The globs a Grep `glob` (or `include`) value holds: Claude Code's Grep splits it at
/// whitespace, then each piece at commas unless it holds braces (`{a,b}` stays one glob),
/// and passes each as a glob of its own. The whole value is kept too, for the widest reading.
///
/// ```
/// use toolgate::tool::grep_globs;
/// assert_eq!(grep_globs(".env,*.rs"), [".env,*.rs", ".env", "*.rs"]);
/// assert_eq!(grep_globs("key.pem *.{rs,ts}"), ["key.pem *.{rs,ts}", "key.pem", "*.{rs,ts}"]);
/// assert_eq!(grep_globs("*.rs"), ["*.rs"]);
/// ```
pub fn grep_globs(value: &str) -> Vec<&str> {
    let mut out = vec![value];
    for piece in value.split_whitespace() {
        if piece.contains('{') && piece.contains('}') {
            out.push(piece);
        } else {
            out.extend(piece.split(',').filter(|p| !p.is_empty()));
        }
    }
    out.dedup();
    out
}

/// Every path a call's `input` names under [`PATH_KEYS`], [`PATH_LIST_KEYS`] and
/// [`NESTED_PATH_LISTS`], in that order. A path key whose value is not a string (or not a
/// list of strings) is an error that names the key and what was expected.
///
/// A path with white space at either end is named twice: as written, and as a host that
/// trims it opens it ([`crate::path::trimmed`]). Both are judged, so a deny, ask or
/// protected path that either reading meets decides, and an allow needs both.
///
/// ```
/// use serde_json::json;
/// use toolgate::tool::input_paths;
/// let input = json!({"file_path": "a", "path": "b", "edits": [{"file_path": "c"}]});
/// let paths: Vec<&str> = input_paths(&input).unwrap().iter().map(|p| p.path).collect();
/// assert_eq!(paths, ["a", "b", "c"]);
/// let input = json!({"file_path": " /etc/shadow"});
/// let paths: Vec<&str> = input_paths(&input).unwrap().iter().map(|p| p.path).collect();
/// assert_eq!(paths, [" /etc/shadow", "/etc/shadow"]);
/// let err = input_paths(&json!({"path": 3})).unwrap_err();
/// assert_eq!(err, "`input.path` must be a string path, got a number");
/// ```
pub fn input_paths(input: &serde_json::Value) -> Result<Vec<NamedPath<'_>>, String> {
    let mut out = Vec::new();
    let Some(map) = input.as_object() else {
        return Ok(out);
    };
    for key in PATH_KEYS {
        if let Some(v) = map.get(*key) {
            push_path(&mut out, v, format!("input.{key}"))?;
        }
    }
    for key in PATH_LIST_KEYS {
        let Some(v) = map.get(*key) else { continue };
        let Some(list) = v.as_array() else {
            return Err(format!(
                "`input.{key}` must be a list of string paths, got {}",
                json_type(v)
            ));
        };
        for (i, item) in list.iter().enumerate() {
            push_path(&mut out, item, format!("input.{key}[{i}]"))?;
        }
    }
    for key in NESTED_PATH_LISTS {
        let Some(v) = map.get(*key) else { continue };
        let Some(list) = v.as_array() else {
            return Err(format!(
                "`input.{key}` must be a list of objects, got {}",
                json_type(v)
            ));
        };
        for (i, item) in list.iter().enumerate() {
            let Some(obj) = item.as_object() else {
                return Err(format!(
                    "`input.{key}[{i}]` must be an object, got {}",
                    json_type(item)
                ));
            };
            for inner in PATH_KEYS {
                if let Some(p) = obj.get(*inner) {
                    push_path(&mut out, p, format!("input.{key}[{i}].{inner}"))?;
                }
            }
        }
    }
    Ok(out)
}

/// Adds the path `value` holds at `key` to `out`, and its trimmed reading when that differs.
fn push_path<'a>(
    out: &mut Vec<NamedPath<'a>>,
    value: &'a serde_json::Value,
    key: String,
) -> Result<(), String> {
    let Some(path) = value.as_str() else {
        return Err(format!(
            "`{key}` must be a string path, got {}",
            json_type(value)
        ));
    };
    if let Some(trimmed) = crate::path::trimmed(path) {
        out.push(NamedPath {
            key: key.clone(),
            path,
        });
        out.push(NamedPath { key, path: trimmed });
    } else {
        out.push(NamedPath { key, path });
    }
    Ok(())
}

fn json_type(value: &serde_json::Value) -> &'static str {
    use serde_json::Value;
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// For a built-in file tool (read, write, edit, delete, glob, grep), the first `input` key
/// that none of its spellings takes, as an error that names the key, the tool and what was
/// expected: such a key might name a path that would not be judged. `None` for other
/// tools and for inputs with only known keys.
///
/// ```
/// use serde_json::json;
/// let read = toolgate::tool::builtin("Read").unwrap();
/// assert!(toolgate::tool::unknown_parameter(read, "Read", &json!({"file_path": "a"})).is_none());
/// let e = toolgate::tool::unknown_parameter(read, "Read", &json!({"target": "/etc"})).unwrap();
/// assert!(e.starts_with("`input.target` is not a parameter of `Read`"));
/// ```
pub fn unknown_parameter(
    tool: &BuiltinTool,
    name: &str,
    input: &serde_json::Value,
) -> Option<String> {
    let file_tool = matches!(
        tool.defaults.kind,
        ToolKind::Read
            | ToolKind::Write
            | ToolKind::Edit
            | ToolKind::Delete
            | ToolKind::Glob
            | ToolKind::Grep
    );
    if !file_tool {
        return None;
    }
    let key = input
        .as_object()?
        .keys()
        .find(|k| !tool.parameters.contains(&k.as_str()))?;
    Some(format!(
        "`input.{key}` is not a parameter of `{name}` (expected one of: {})",
        tool.parameters.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_are_unique() {
        let mut all: Vec<&str> = BUILTIN_TOOLS
            .iter()
            .flat_map(|t| t.spellings.iter().copied())
            .collect();
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }

    #[test]
    fn agent_tools_are_not_builtin_spellings() {
        for (name, _) in AGENT_TOOLS {
            assert!(builtin(name).is_none(), "{name}");
        }
    }

    #[test]
    fn every_path_key_is_collected_and_bad_values_are_errors() {
        use serde_json::json;
        let input = json!({"path": "/a", "file_path": "/b", "notebook_path": "/c",
            "paths": ["/d"], "edits": [{"old_string": "x"}, {"file_path": "/e"}]});
        let got: Vec<(String, &str)> = input_paths(&input)
            .unwrap()
            .into_iter()
            .map(|p| (p.key, p.path))
            .collect();
        assert_eq!(got.len(), 5);
        assert_eq!(got[4], ("input.edits[1].file_path".to_owned(), "/e"));
        for bad in [
            json!({"file_path": null}),
            json!({"path": ["/a"]}),
            json!({"paths": "/a"}),
            json!({"paths": [1]}),
            json!({"edits": {"file_path": "/a"}}),
            json!({"edits": [{"file_path": {"x": 1}}]}),
        ] {
            assert!(input_paths(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_path_with_white_space_at_an_end_is_named_as_written_and_trimmed() {
        use serde_json::json;
        let input = json!({"file_path": " .claude/settings.json", "paths": ["a", "b\t"],
            "edits": [{"path": "\u{a0}c"}]});
        let got: Vec<(String, &str)> = input_paths(&input)
            .unwrap()
            .into_iter()
            .map(|p| (p.key, p.path))
            .collect();
        let want = [
            ("input.file_path", " .claude/settings.json"),
            ("input.file_path", ".claude/settings.json"),
            ("input.paths[0]", "a"),
            ("input.paths[1]", "b\t"),
            ("input.paths[1]", "b"),
            ("input.edits[0].path", "\u{a0}c"),
            ("input.edits[0].path", "c"),
        ];
        let want: Vec<(String, &str)> = want.iter().map(|(k, p)| ((*k).to_owned(), *p)).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn canonical_name_is_a_spelling() {
        for t in BUILTIN_TOOLS {
            assert!(t.spellings.contains(&t.name), "{}", t.name);
        }
    }
}
