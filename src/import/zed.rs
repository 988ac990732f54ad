//! Zed: `agent.tool_permissions` (`default`, and per tool `default`, `always_allow`,
//! `always_deny`, `always_confirm` lists of `{pattern}` regexes), and the older
//! `agent.always_allow_tool_actions`.
//!
//! Zed lets `always_deny` win over `always_confirm`, and that over `always_allow`, then the
//! tool's `default`, then the global `default`, which is toolgate's order too.

use serde_json::{Map, Value};

use crate::decision::{Layer, RuleList};
use crate::error::{ErrorKind, Result};
use crate::mode::Mode;

use super::builder::{json_type, line_of_json_string, Builder, Origin};
use super::jsonc;
use super::translate::{command_regex, path_regex, url_regex};

/// What a Zed tool's input is, and its toolgate spelling.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Input {
    Command,
    Path,
    Url,
    Other,
}

/// Zed's built-in tools that permissions apply to.
const TOOLS: &[(&str, &str, Input)] = &[
    ("terminal", "Bash", Input::Command),
    ("edit_file", "Edit", Input::Path),
    ("delete_path", "Delete", Input::Path),
    ("move_path", "move_path", Input::Other),
    ("copy_path", "copy_path", Input::Other),
    ("create_directory", "create_directory", Input::Other),
    (
        "restore_file_from_disk",
        "restore_file_from_disk",
        Input::Other,
    ),
    ("save_file", "save_file", Input::Other),
    ("fetch", "WebFetch", Input::Url),
    ("web_search", "web_search", Input::Other),
];

pub(crate) fn import(b: &mut Builder, name: &str, text: &str) -> Result<()> {
    let value = jsonc::parse(name, text)?;
    let Some(agent) = value.get("agent") else {
        return Ok(());
    };
    let agent_line = line_of_json_string(text, "agent", 1);
    let layer = b.layer(Layer::User);
    let Some(agent) = agent.as_object() else {
        return Err(Origin::new(name, agent_line, "agent")
            .error(ErrorKind::InvalidPolicy, "`agent` must be an object"));
    };
    if agent
        .get("always_allow_tool_actions")
        .and_then(Value::as_bool)
        == Some(true)
    {
        let o = Origin::new(
            name,
            line_of_json_string(text, "always_allow_tool_actions", agent_line),
            "\"always_allow_tool_actions\": true",
        );
        global_allow(b, layer, &o, &[])?;
    }
    let Some(perms) = agent.get("tool_permissions") else {
        return Ok(());
    };
    let origin = Origin::new(
        name,
        line_of_json_string(text, "tool_permissions", agent_line),
        "tool_permissions",
    );
    let perms = object(perms, &origin)?;
    let mut global = None;
    let mut tools = None;
    for (k, v) in perms {
        match k.as_str() {
            "default" => global = Some(level(v, &origin)?),
            "tools" => tools = Some(object(v, &origin)?),
            other => {
                return Err(origin
                    .error(
                        ErrorKind::UnknownField,
                        format!("unknown key `tool_permissions.{other}`"),
                    )
                    .with_hint("use `default` and `tools`"))
            }
        }
    }
    let mut own_default: Vec<String> = Vec::new();
    if let Some(tools) = tools {
        for (tool, settings) in tools {
            let line = line_of_json_string(text, tool, origin.line);
            let to = Origin::new(name, line, tool.clone());
            let (rule_name, input) = match TOOLS.iter().find(|(z, _, _)| z == tool) {
                Some((_, t, i)) => ((*t).to_owned(), *i),
                None => match tool.strip_prefix("mcp:").and_then(|r| r.split_once(':')) {
                    Some((server, t)) => (format!("mcp__{server}__{t}"), Input::Other),
                    None => (tool.clone(), Input::Other),
                },
            };
            let settings = object(settings, &to)?;
            for (k, v) in settings {
                let list = match k.as_str() {
                    "default" => {
                        own_default.push(tool.clone());
                        let o = Origin::new(
                            name,
                            line_of_json_string(text, k, line),
                            format!("{tool}.default: {v}"),
                        );
                        match level(v, &o)? {
                            Level::Allow => {
                                b.checked_rule(layer, RuleList::Allow, &rule_name, &o)?
                            }
                            Level::Deny => {
                                b.checked_rule(layer, RuleList::Deny, &rule_name, &o)?;
                                if settings
                                    .get("always_allow")
                                    .and_then(Value::as_array)
                                    .is_some_and(|a| !a.is_empty())
                                {
                                    b.approximated(&o, format!("the default `deny` of `{tool}` also wins over its `always_allow` patterns"));
                                }
                            }
                            Level::Confirm => {}
                        }
                        continue;
                    }
                    "always_allow" => RuleList::Allow,
                    "always_deny" => RuleList::Deny,
                    "always_confirm" => RuleList::Ask,
                    other => {
                        return Err(to
                            .error(ErrorKind::UnknownField, format!("unknown key `{other}`"))
                            .with_hint("use default, always_allow, always_deny or always_confirm"))
                    }
                };
                let Some(items) = v.as_array() else {
                    return Err(to.error(
                        ErrorKind::InvalidPolicy,
                        format!("`{k}` must be an array, not {}", json_type(v)),
                    ));
                };
                let mut pline = line_of_json_string(text, k, line);
                for item in items {
                    let (pattern, case_sensitive) = pattern_of(item, &to)?;
                    pline = line_of_json_string(text, "pattern", pline);
                    let o = Origin::new(name, pline, format!("{tool}.{k}: {item}"));
                    pline += 1;
                    if !case_sensitive && list != RuleList::Allow {
                        b.approximated(&o, "the pattern is case-insensitive in Zed; toolgate matches the rule's words case-sensitively (at most the program name is folded)");
                    }
                    match input {
                        Input::Command => command_regex(b, layer, list, pattern, false, &o)?,
                        Input::Path => path_regex(b, layer, list, &rule_name, pattern, &o)?,
                        Input::Url => url_regex(b, layer, list, pattern, &o)?,
                        Input::Other => {
                            super::translate::regex(pattern, &o)?;
                            if list == RuleList::Allow {
                                b.approximated(&o, format!("allow pattern `{pattern}` on `{tool}` is left out, so those calls ask"));
                            } else {
                                b.checked_rule(layer, list, &rule_name, &o)?;
                                b.approximated(
                                    &o,
                                    format!(
                                        "pattern `{pattern}` is widened to every call of `{tool}`"
                                    ),
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    match global {
        Some(Level::Allow) => global_allow(b, layer, &origin, &own_default)?,
        Some(Level::Deny) => {
            b.mode(Mode::DontAsk, &origin);
            b.approximated(&origin, "the global default `deny` becomes `dontAsk`: `always_confirm` patterns are denied instead of asked");
        }
        Some(Level::Confirm) | None => {}
    }
    Ok(())
}

/// The global `allow`: every permission-checked tool without its own default is allowed.
fn global_allow(
    b: &mut Builder,
    layer: usize,
    origin: &Origin,
    own_default: &[String],
) -> Result<()> {
    for (zed, rule, _) in TOOLS {
        if !own_default.iter().any(|d| d == zed) {
            b.checked_rule(layer, RuleList::Allow, rule, origin)?;
        }
    }
    b.approximated(
        origin,
        "the global default `allow` covers Zed's own tools; MCP tools without a rule still ask",
    );
    Ok(())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Allow,
    Confirm,
    Deny,
}

fn level(v: &Value, origin: &Origin) -> Result<Level> {
    match v.as_str() {
        Some("allow") => Ok(Level::Allow),
        Some("confirm") => Ok(Level::Confirm),
        Some("deny") => Ok(Level::Deny),
        _ => Err(origin.error(
            ErrorKind::InvalidPolicy,
            format!("expected `\"allow\"`, `\"confirm\"` or `\"deny\"`, not `{v}`"),
        )),
    }
}

fn object<'a>(v: &'a Value, origin: &Origin) -> Result<&'a Map<String, Value>> {
    v.as_object().ok_or_else(|| {
        origin.error(
            ErrorKind::InvalidPolicy,
            format!("`{}` must be an object, not {}", origin.text, json_type(v)),
        )
    })
}

fn pattern_of<'a>(item: &'a Value, origin: &Origin) -> Result<(&'a str, bool)> {
    let Some(m) = item.as_object() else {
        return Err(origin.error(
            ErrorKind::InvalidPolicy,
            format!("expected `{{\"pattern\": ...}}`, not {}", json_type(item)),
        ));
    };
    for k in m.keys() {
        if k != "pattern" && k != "case_sensitive" {
            return Err(origin
                .error(ErrorKind::UnknownField, format!("unknown key `{k}`"))
                .with_hint("use `pattern` and `case_sensitive`"));
        }
    }
    let Some(p) = m.get("pattern").and_then(Value::as_str) else {
        return Err(origin.error(ErrorKind::InvalidPolicy, "`pattern` must be a string"));
    };
    Ok((
        p,
        m.get("case_sensitive")
            .and_then(Value::as_bool)
            .unwrap_or(false),
    ))
}
