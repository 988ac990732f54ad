//! Gemini CLI: the policy engine's TOML rules (`[[rule]]` with `toolName`, `mcpName`,
//! `commandPrefix`, `commandRegex`, `argsPattern`, `decision`, `priority`, `modes`) and the
//! `tools.allowed` / `tools.exclude` settings of `settings.json`.
//!
//! Gemini lets the highest-priority matching rule win; toolgate lets any deny win over any
//! ask, and any ask over any allow. Where a Gemini allow outranks an overlapping deny or ask,
//! toolgate is therefore stricter, and the import says so.

use serde_json::Value;
use toml::Value as Toml;

use crate::decision::{Layer, RuleList};
use crate::error::{ErrorKind, Result};

use super::builder::{json_type, line_at, line_of_json_string, Builder, Origin};
use super::gemini_mcp::mcp_tool_rules;
use super::gemini_settings::{permission_keys, NARROWING_OUTRANKS};
use super::js_regex::has_end_anchor;
use super::jsonc;
use super::translate::{command_regex, js_allow_left_out, list_name, regex, text_prefix};

/// Gemini's built-in tool names and the toolgate spelling of each.
const TOOLS: &[(&str, &str)] = &[
    ("run_shell_command", "Bash"),
    ("read_file", "Read"),
    ("read_many_files", "Read"),
    ("write_file", "Write"),
    ("replace", "Edit"),
    ("edit", "Edit"),
    ("glob", "Glob"),
    ("search_file_content", "Grep"),
    ("grep_search", "Grep"),
    ("list_directory", "LS"),
    ("web_fetch", "WebFetch"),
];

/// Gemini's built-in tools a rule on a toolgate tool of `kind` covers, from the same table
/// the import reads: those of exactly that kind for an allow (the narrowest reading), every
/// tool that reads (`Read`, `Glob`, `Grep`) or every tool that writes (`Write`, `Edit`) for a
/// deny or ask (the widest).
///
pub(crate) fn gemini_tools(kind: crate::tool::ToolKind, widest: bool) -> Vec<&'static str> {
    use crate::tool::ToolKind as K;
    let family = |k: K| match k {
        K::Read | K::Glob | K::Grep => Some(0),
        K::Write | K::Edit => Some(1),
        _ => None,
    };
    TOOLS
        .iter()
        .filter(|(_, ours)| {
            let Some(k) = crate::tool::builtin(ours).map(|t| t.defaults.kind) else {
                return false;
            };
            k == kind || (widest && family(k).is_some() && family(k) == family(kind))
        })
        .map(|(g, _)| *g)
        .collect()
}

/// The class names Gemini CLI also accepts for its built-in tools in the `tools.core`,
/// `tools.exclude` and (for the shell) `tools.allowed` settings, with the tool name each
/// stands for (`ShellTool(rm)` is `run_shell_command(rm)`).
const CLASS_NAMES: &[(&str, &str)] = &[
    ("ShellTool", "run_shell_command"),
    ("ReadFileTool", "read_file"),
    ("ReadManyFilesTool", "read_many_files"),
    ("WriteFileTool", "write_file"),
    ("EditTool", "replace"),
    ("SmartEditTool", "replace"),
    ("GlobTool", "glob"),
    ("GrepTool", "search_file_content"),
    ("RipGrepTool", "grep_search"),
    ("LSTool", "list_directory"),
    ("WebFetchTool", "web_fetch"),
    ("WebSearchTool", "google_web_search"),
    ("MemoryTool", "save_memory"),
    ("WriteTodosTool", "write_todos"),
];

/// The Gemini tool name a class name stands for.
fn class_tool(name: &str) -> Option<&'static str> {
    CLASS_NAMES
        .iter()
        .find(|(c, _)| *c == name)
        .map(|(_, t)| *t)
}

const RULE_KEYS: &[&str] = &[
    "toolName",
    "mcpName",
    "argsPattern",
    "commandPrefix",
    "commandRegex",
    "decision",
    "priority",
    "modes",
    "denyMessage",
    "deny_message",
    "toolAnnotations",
    "subagent",
    "allowRedirection",
];

/// Imports one Gemini file. `narrowing` is where a settings file among those imported narrows
/// the shell ([`shell_narrowing`]), which outranks the user's shell allows.
///
/// [`shell_narrowing`]: super::gemini_settings::shell_narrowing
pub(crate) fn import(
    b: &mut Builder,
    name: &str,
    text: &str,
    narrowing: Option<&str>,
) -> Result<()> {
    if name.ends_with(".json") {
        settings(b, name, text)
    } else {
        policy(b, name, text, narrowing)
    }
}

/// The toolgate rule name for a Gemini tool name (`server__tool` is an MCP tool).
pub(crate) fn tool_rule(name: &str, mcp: Option<&str>) -> String {
    if let Some(server) = mcp {
        return if name.is_empty() || name == "*" {
            format!("mcp__{server}")
        } else {
            format!("mcp__{server}__{name}")
        };
    }
    if let Some((_, t)) = TOOLS.iter().find(|(g, _)| *g == name) {
        return (*t).to_owned();
    }
    if let Some((server, tool)) = name.split_once("__") {
        return if tool == "*" {
            format!("mcp__{server}")
        } else {
            format!("mcp__{server}__{tool}")
        };
    }
    name.to_owned()
}

/// The toolgate rules for a Gemini tool name in `list` ([`tool_rule`], and Gemini's own
/// `mcp_<server>_<tool>` names read by [`mcp_tool_rules`]), warning at `origin` where they
/// differ from the name. Empty when an allow is left out.
fn tool_rules(
    b: &mut Builder,
    name: &str,
    mcp: Option<&str>,
    list: RuleList,
    origin: &Origin,
) -> Vec<String> {
    let Some(read) = mcp.is_none().then(|| mcp_tool_rules(name, list)).flatten() else {
        return vec![tool_rule(name, mcp)];
    };
    if let Some(warning) = read.warning {
        b.approximated(origin, warning);
    }
    read.rules
}

/// One `[[rule]]`, read.
struct GeminiRule {
    origin: Origin,
    list: RuleList,
    priority: i64,
    tools: Vec<String>,
}

fn policy(b: &mut Builder, file: &str, text: &str, narrowing: Option<&str>) -> Result<()> {
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| line_at(text, s.start)).unwrap_or(1);
        Origin::new(file, line, "").error(
            ErrorKind::InvalidPolicy,
            format!("invalid TOML: {}", e.message().trim()),
        )
    })?;
    let headers: Vec<u32> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with("[[rule]]"))
        .map(|(i, _)| u32::try_from(i + 1).unwrap_or(u32::MAX))
        .collect();
    let layer = b.layer(if is_system(file) {
        Layer::Managed
    } else {
        Layer::User
    });
    let mut read = Vec::new();
    for (key, v) in &table {
        if key != "rule" {
            let o = Origin::new(file, line_of_key(text, key), key.clone());
            return Err(o
                .error(ErrorKind::UnknownField, format!("unknown table `{key}`"))
                .with_hint("a policy file holds `[[rule]]` tables"));
        }
        let Some(rules) = v.as_array() else {
            return Err(Origin::new(file, 1, "rule").error(
                ErrorKind::InvalidPolicy,
                "`rule` must be an array of tables",
            ));
        };
        for (i, r) in rules.iter().enumerate() {
            let line = headers.get(i).copied().unwrap_or(1);
            let lines: Vec<&str> = text
                .lines()
                .skip(usize::try_from(line).unwrap_or(1).saturating_sub(1))
                .take_while({
                    let mut first = true;
                    move |l| {
                        let keep = first || !l.trim_start().starts_with('[');
                        first = false;
                        keep
                    }
                })
                .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
                .collect();
            let origin = Origin::new(file, line, lines.join("\n"));
            read.push(rule(b, layer, r, &origin, narrowing)?);
        }
    }
    priorities(b, &read);
    Ok(())
}

/// Whether Gemini's shell narrowing (from the settings at `narrowing`) outranks a user's shell
/// allow of `priority`, warning at `origin` when it does. Gemini then denies what the allow
/// names: an allow that `names_commands` becomes a deny of those commands (which also denies
/// any of them a narrowed entry allows), an allow of the whole shell is left out (a deny of
/// the whole shell would deny the narrowed entries too), so those commands ask.
fn outranked_by_narrowing(
    b: &mut Builder,
    narrowing: Option<&str>,
    priority: i64,
    names_commands: bool,
    origin: &Origin,
) -> bool {
    let Some(at) = narrowing else {
        return false;
    };
    if is_system(&origin.file) || priority > NARROWING_OUTRANKS {
        return false;
    }
    let becomes = if names_commands {
        "this shell allow becomes a deny of the commands it names"
    } else {
        "this allow of the whole shell is left out, so those commands ask"
    };
    b.approximated(
        origin,
        format!(
            "the `run_shell_command(...)` entry of `tools.allowed` at {at} makes Gemini deny \
             every other shell command above user rules up to priority {NARROWING_OUTRANKS}: \
             {becomes}"
        ),
    );
    true
}

fn rule(
    b: &mut Builder,
    layer: usize,
    r: &Toml,
    origin: &Origin,
    narrowing: Option<&str>,
) -> Result<GeminiRule> {
    let Some(t) = r.as_table() else {
        return Err(origin.error(ErrorKind::InvalidPolicy, "a rule must be a table"));
    };
    for k in t.keys() {
        if !RULE_KEYS.contains(&k.as_str()) {
            return Err(origin
                .error(ErrorKind::UnknownField, format!("unknown rule key `{k}`"))
                .with_hint(format!("use one of {}", RULE_KEYS.join(", "))));
        }
    }
    let str_or_list = |key: &str| -> Result<Vec<String>> {
        match t.get(key) {
            None => Ok(Vec::new()),
            Some(Toml::String(s)) => Ok(vec![s.clone()]),
            Some(Toml::Array(a)) => a
                .iter()
                .map(|v| {
                    v.as_str().map(str::to_owned).ok_or_else(|| {
                        origin.error(
                            ErrorKind::InvalidPolicy,
                            format!("`{key}` must hold strings"),
                        )
                    })
                })
                .collect(),
            Some(_) => Err(origin.error(
                ErrorKind::InvalidPolicy,
                format!("`{key}` must be a string or an array of strings"),
            )),
        }
    };
    let one = |key: &str| -> Result<Option<String>> {
        match t.get(key) {
            None => Ok(None),
            Some(Toml::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(origin.error(
                ErrorKind::InvalidPolicy,
                format!("`{key}` must be a string"),
            )),
        }
    };
    let list = match one("decision")?.as_deref() {
        Some("allow") => RuleList::Allow,
        Some("deny") => RuleList::Deny,
        Some("ask_user") => RuleList::Ask,
        Some(other) => {
            return Err(origin
                .error(
                    ErrorKind::InvalidPolicy,
                    format!("unknown decision `{other}`"),
                )
                .with_hint("use `allow`, `deny` or `ask_user`"))
        }
        None => {
            return Err(origin
                .error(ErrorKind::InvalidPolicy, "a rule needs a `decision`")
                .with_hint("add `decision = \"allow\"`, `\"deny\"` or `\"ask_user\"`"))
        }
    };
    let priority = match t.get("priority") {
        None => 0,
        Some(Toml::Integer(p)) => *p,
        Some(_) => {
            return Err(origin.error(ErrorKind::InvalidPolicy, "`priority` must be an integer"))
        }
    };
    let modes = str_or_list("modes")?;
    if !modes.is_empty() {
        if list == RuleList::Allow && !modes.iter().any(|m| m == "default") {
            b.approximated(
                origin,
                format!(
                    "allow rule for modes {} only is left out, so those calls ask",
                    modes.join(", ")
                ),
            );
            return Ok(GeminiRule {
                origin: origin.clone(),
                list,
                priority,
                tools: Vec::new(),
            });
        }
        b.approximated(
            origin,
            format!(
                "the rule is for modes {} only; toolgate applies it in every mode",
                modes.join(", ")
            ),
        );
    }
    for key in ["toolAnnotations", "subagent"] {
        if t.contains_key(key) {
            if list == RuleList::Allow {
                b.approximated(
                    origin,
                    format!("allow rule with `{key}` is left out, so those calls ask"),
                );
                return Ok(GeminiRule {
                    origin: origin.clone(),
                    list,
                    priority,
                    tools: Vec::new(),
                });
            }
            b.approximated(
                origin,
                format!("`{key}` is ignored, which widens this {}", list_name(list)),
            );
        }
    }
    if one("denyMessage")?.is_some() || one("deny_message")?.is_some() {
        b.not_imported(
            origin,
            "the deny message is not imported (it is in the provenance)",
        );
    }
    let mcp = one("mcpName")?;
    let mut names = str_or_list("toolName")?;
    let prefixes = str_or_list("commandPrefix")?;
    let command_re = one("commandRegex")?;
    let args_re = one("argsPattern")?;
    if names.is_empty() && (!prefixes.is_empty() || command_re.is_some()) {
        names.push("run_shell_command".to_owned());
    }
    if names.is_empty() {
        names.push(if mcp.is_some() {
            String::new()
        } else {
            "*".to_owned()
        });
    }
    let mut tools = Vec::new();
    let read: Vec<(&String, String)> = names
        .iter()
        .flat_map(|name| {
            tool_rules(b, name, mcp.as_deref(), list, origin)
                .into_iter()
                .map(move |tool| (name, tool))
        })
        .collect();
    let names_commands = !prefixes.is_empty() || command_re.is_some() || args_re.is_some();
    for (name, tool) in read {
        let shell = tool == "Bash";
        let list = if shell
            && list == RuleList::Allow
            && outranked_by_narrowing(b, narrowing, priority, names_commands, origin)
        {
            if !names_commands {
                continue;
            }
            RuleList::Deny
        } else {
            list
        };
        tools.push(tool.clone());
        if (!prefixes.is_empty() || command_re.is_some()) && !shell {
            return Err(origin.error(
                ErrorKind::InvalidPolicy,
                format!(
                    "`commandPrefix` and `commandRegex` apply to `run_shell_command`, not `{name}`"
                ),
            ));
        }
        if !prefixes.is_empty() {
            // Gemini compares the prefix as text: `git` also covers `gitk`.
            for p in &prefixes {
                text_prefix(b, layer, list, p, origin)?;
            }
        } else if let Some(re) = &command_re {
            gemini_command_regex(b, layer, list, re, origin)?;
        } else if let Some(re) = &args_re {
            args_pattern(b, layer, list, &tool, re, origin)?;
        } else {
            b.checked_rule(layer, list, &tool, origin)?;
        }
    }
    Ok(GeminiRule {
        origin: origin.clone(),
        list,
        priority,
        tools,
    })
}

/// A command regex, which Gemini matches as JavaScript against the arguments as JSON, right
/// after `"command":"`. An allow is left out when that reading cannot be matched as narrowly:
/// a `^` (the JSON starts with `{`), an end anchor `$` (the JSON goes on with `"}` after the
/// command, so the regex never matches), or syntax JavaScript reads otherwise.
fn gemini_command_regex(
    b: &mut Builder,
    layer: usize,
    list: RuleList,
    re: &str,
    origin: &Origin,
) -> Result<()> {
    if list == RuleList::Allow {
        let never = if re.starts_with('^') {
            Some("starts with `^`")
        } else if has_end_anchor(re) {
            Some("holds an end anchor, which never matches before the `\"}` that follows the command")
        } else {
            None
        };
        if let Some(why) = never {
            regex(re, origin)?;
            b.approximated(
                origin,
                format!("allow regex `{re}` {why}: Gemini applies it to the JSON of the arguments; it is left out, so those commands ask"),
            );
            return Ok(());
        }
    }
    if js_allow_left_out(b, list, re, origin) {
        return Ok(());
    }
    command_regex(b, layer, list, re, true, origin)
}

/// `argsPattern` is a regex over the arguments as JSON. A pattern that starts with the
/// command key (`"command":"git `) is a command regex; any other is approximated.
fn args_pattern(
    b: &mut Builder,
    layer: usize,
    list: RuleList,
    tool: &str,
    re: &str,
    origin: &Origin,
) -> Result<()> {
    regex(re, origin)?;
    if tool == "Bash" {
        if let Some(rest) = re.strip_prefix("\"command\":\"") {
            return gemini_command_regex(b, layer, list, rest, origin);
        }
    }
    if list == RuleList::Allow {
        b.approximated(
            origin,
            format!("allow rule with `argsPattern = {re:?}` is left out, so those calls ask"),
        );
    } else {
        b.checked_rule(layer, list, tool, origin)?;
        b.approximated(
            origin,
            format!(
                "`argsPattern = {re:?}` is widened to every call of `{tool}` in this {}",
                list_name(list)
            ),
        );
    }
    Ok(())
}

/// Warns where Gemini's priorities would let an allow (or ask) win over an overlapping deny
/// or ask that toolgate lets win.
fn priorities(b: &mut Builder, rules: &[GeminiRule]) {
    let rank = |l: RuleList| match l {
        RuleList::Deny => 2,
        RuleList::Ask => 1,
        RuleList::Allow => 0,
    };
    for r in rules {
        let outranked = rules.iter().any(|o| {
            rank(o.list) > rank(r.list)
                && o.priority < r.priority
                && o.tools
                    .iter()
                    .any(|t| r.tools.contains(t) || t == "*" || r.tools.iter().any(|x| x == "*"))
        });
        if outranked {
            b.approximated(
                &r.origin,
                format!(
                    "this {} rule outranks a stricter rule for the same tool; toolgate lets \
                     deny win over ask and ask over allow whatever the priority",
                    list_name(r.list)
                ),
            );
        }
    }
}

fn is_system(file: &str) -> bool {
    file.starts_with("/etc/")
        || file.contains("ProgramData")
        || file.contains("Application Support")
        || file.starts_with("managed:")
}

fn line_of_key(text: &str, key: &str) -> u32 {
    text.lines()
        .position(|l| {
            let l = l.trim_start().trim_start_matches('[');
            l.starts_with(key)
        })
        .and_then(|i| u32::try_from(i + 1).ok())
        .unwrap_or(1)
}

/// `settings.json`: `tools.allowed` (and the older `allowedTools`) allow; `tools.exclude`
/// (`excludeTools`) deny; `tools.core` (`coreTools`) limits the tools to a list, which
/// toolgate cannot express, so it is refused.
fn settings(b: &mut Builder, file: &str, text: &str) -> Result<()> {
    let value = jsonc::parse(file, text)?;
    let layer = b.layer(Layer::User);
    let mut lists: Vec<(&str, &Value)> = Vec::new();
    if let Some(tools) = value.get("tools") {
        let Value::Object(tools) = tools else {
            return Err(
                Origin::new(file, line_of_json_string(text, "tools", 1), "tools").error(
                    ErrorKind::InvalidPolicy,
                    format!("`tools` must be an object, not {}", json_type(tools)),
                ),
            );
        };
        for (k, v) in tools {
            match k.as_str() {
                "allowed" | "exclude" | "core" => lists.push((k.as_str(), v)),
                "autoAccept" => {
                    if v.as_bool() == Some(true) {
                        let o = Origin::new(file, line_of_json_string(text, k, 1), k.clone());
                        b.not_imported(&o, "`tools.autoAccept` is not imported: toolgate decides what is safe on its own");
                    }
                }
                "sandbox"
                | "shell"
                | "discoveryCommand"
                | "callCommand"
                | "useRipgrep"
                | "enableToolOutputTruncation"
                | "truncateToolOutputThreshold"
                | "truncateToolOutputLines"
                | "enableMessageBusIntegration"
                | "enableHooks"
                | "usePty"
                | "approvalMode" => {}
                other => {
                    let o =
                        Origin::new(file, line_of_json_string(text, other, 1), other.to_owned());
                    return Err(o
                        .error(ErrorKind::UnknownField, format!("unknown setting `tools.{other}`"))
                        .with_hint("check the spelling; unknown keys are rejected so that a typo cannot weaken a policy"));
                }
            }
        }
    }
    for (old, new) in [
        ("allowedTools", "allowed"),
        ("excludeTools", "exclude"),
        ("coreTools", "core"),
    ] {
        if let Some(v) = value.get(old) {
            lists.push((new, v));
        }
    }
    permission_keys(b, layer, file, text, &value)?;
    let mut narrowing_told = false;
    for (kind, v) in lists {
        let origin = Origin::new(file, line_of_json_string(text, kind, 1), kind.to_owned());
        let items = v.as_array().ok_or_else(|| {
            origin.error(
                ErrorKind::InvalidPolicy,
                format!("`{kind}` must be an array, not {}", json_type(v)),
            )
        })?;
        if kind == "core" {
            return Err(origin
                .error(ErrorKind::InvalidPolicy, "`tools.core` limits the agent to a list of tools, which toolgate cannot express")
                .with_hint("remove `tools.core`, or deny the tools you do not want with `tools.exclude`"));
        }
        let list = if kind == "allowed" {
            RuleList::Allow
        } else {
            RuleList::Deny
        };
        let mut line = origin.line;
        for item in items {
            let Some(s) = item.as_str() else {
                return Err(origin.error(
                    ErrorKind::InvalidPolicy,
                    format!("`{kind}` must hold strings"),
                ));
            };
            line = line_of_json_string(text, s, line);
            let o = Origin::new(file, line, s.to_owned());
            let (name, spec) = match s.split_once('(') {
                Some((n, rest)) => (n, rest.strip_suffix(')')),
                None => (s, None),
            };
            // A class name excludes its tool; an allow names the shell that way only (Gemini
            // reads `ShellTool(...)` there), so another allowed class name is left out.
            let name = match class_tool(name) {
                Some(t) if list == RuleList::Deny || t == "run_shell_command" => t,
                Some(t) => {
                    b.approximated(
                        &o,
                        format!("`{s}` names `{t}` by its class name; it is left out, so those calls ask"),
                    );
                    continue;
                }
                None => name,
            };
            for tool in tool_rules(b, name, None, list, &o) {
                match spec {
                    Some(cmd) if tool == "Bash" => {
                        // Gemini: the command starts with this text.
                        text_prefix(b, layer, list, cmd, &o)?;
                        if list == RuleList::Allow && !std::mem::replace(&mut narrowing_told, true)
                        {
                            b.approximated(&o, "Gemini denies every shell command that no `run_shell_command(...)` entry names; toolgate cannot deny all but these, so other shell commands ask (unless toolgate knows them to be safe), and user shell allows up to priority 290 are left out");
                        }
                    }
                    Some(_) if list == RuleList::Allow => {
                        b.approximated(&o, format!("`{s}` is left out, so those calls ask"))
                    }
                    _ => b.checked_rule(layer, list, &tool, &o)?,
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tool_table_tests {
    use super::gemini_tools;
    use crate::tool::ToolKind;

    #[test]
    fn a_deny_covers_every_tool_of_its_kind_and_an_allow_only_its_own() {
        let read = gemini_tools(ToolKind::Read, true);
        for t in [
            "read_file",
            "read_many_files",
            "glob",
            "grep_search",
            "search_file_content",
            "list_directory",
        ] {
            assert!(read.contains(&t), "{t}: {read:?}");
        }
        assert_eq!(
            gemini_tools(ToolKind::Read, false),
            ["read_file", "read_many_files"]
        );
        assert_eq!(
            gemini_tools(ToolKind::Edit, true),
            ["write_file", "replace", "edit"]
        );
        assert_eq!(gemini_tools(ToolKind::Edit, false), ["replace", "edit"]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_names() {
        assert_eq!(tool_rule("run_shell_command", None), "Bash");
        assert_eq!(tool_rule("my-server__*", None), "mcp__my-server");
        assert_eq!(tool_rule("search", Some("gh")), "mcp__gh__search");
        assert_eq!(tool_rule("save_memory", None), "save_memory");
        for (_, tool) in CLASS_NAMES {
            let known = TOOLS.iter().any(|(t, _)| t == tool)
                || ["google_web_search", "save_memory", "write_todos"].contains(tool);
            assert!(known, "{tool}");
        }
    }
}
