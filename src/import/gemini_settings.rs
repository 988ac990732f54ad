//! Gemini CLI `settings.json` keys beyond `tools`: the shell narrowing that a
//! `run_shell_command(...)` entry of `tools.allowed` implies, `mcp`, `mcpServers` and
//! `security`.
//!
//! Gemini CLI's `createPolicyEngineConfig` turns these settings into policy rules at the
//! user tier: `tools.allowed` allows at priority 4.3 and, when it names the shell with a
//! command (`run_shell_command(git status)`), denies every other shell command at 4.29, above
//! the user's TOML rules up to priority 290; `mcp.excluded` denies a server's tools at 4.9.

use serde_json::Value;

use crate::decision::RuleList;
use crate::error::Result;

use super::builder::{line_of_json_string, Builder, Origin};
use super::jsonc;

/// The highest user TOML priority that Gemini's shell narrowing outranks (the narrowing is at
/// 4.29, a user rule of priority `p` at `4 + p / 1000`; a tie counts as outranked).
pub(crate) const NARROWING_OUTRANKS: i64 = 290;

/// Where a settings file among `files` names the shell with a command in `tools.allowed` (or
/// the older `allowedTools`), as `file:line`; `None` when none does. Files that do not parse
/// are left to the import, which reports them.
pub(crate) fn shell_narrowing(files: &[(String, String)]) -> Option<String> {
    files
        .iter()
        .filter(|(name, _)| name.ends_with(".json"))
        .find_map(|(name, text)| {
            let value = jsonc::parse(name, text).ok()?;
            let lists = [
                value.get("tools").and_then(|t| t.get("allowed")),
                value.get("allowedTools"),
            ];
            let entry = lists
                .into_iter()
                .flatten()
                .filter_map(Value::as_array)
                .flatten()
                .filter_map(Value::as_str)
                .find(|entry| names_shell_with_a_command(entry))?;
            Some(format!("{name}:{}", line_of_json_string(text, entry, 1)))
        })
}

/// Whether a `tools.allowed` entry is `run_shell_command(...)` (or `ShellTool(...)`).
fn names_shell_with_a_command(entry: &str) -> bool {
    entry
        .strip_suffix(')')
        .and_then(|e| e.split_once('('))
        .is_some_and(|(name, _)| matches!(name, "run_shell_command" | "ShellTool"))
}

/// Reads `mcp`, `mcpServers` and `security`: `mcp.excluded` and a server's `excludeTools`
/// deny; what allows (`mcp.allowed`, a server's `trust`) or limits to a list
/// (`includeTools`) is listed as not imported, which is stricter; `security` settings are
/// listed as not imported.
pub(crate) fn permission_keys(
    b: &mut Builder,
    layer: usize,
    file: &str,
    text: &str,
    value: &Value,
) -> Result<()> {
    let at = |key: &str, shown: String| Origin::new(file, line_of_json_string(text, key, 1), shown);
    if let Some(mcp) = value.get("mcp").and_then(Value::as_object) {
        for (k, v) in mcp {
            let o = at(k, format!("mcp.{k}: {v}"));
            match k.as_str() {
                "excluded" => {
                    for server in v.as_array().into_iter().flatten().filter_map(Value::as_str) {
                        let rule = if server == "*" {
                            "mcp__*".to_owned()
                        } else {
                            format!("mcp__{server}")
                        };
                        b.checked_rule(layer, RuleList::Deny, &rule, &o)?;
                    }
                }
                "serverCommand" => {}
                _ => b.not_imported(
                    &o,
                    format!("`mcp.{k}` is not imported: toolgate decides MCP calls by its rules"),
                ),
            }
        }
    }
    if let Some(servers) = value.get("mcpServers").and_then(Value::as_object) {
        for (server, config) in servers {
            for key in ["excludeTools", "includeTools", "trust"] {
                let Some(v) = config.get(key) else { continue };
                let o = at(key, format!("mcpServers.{server}.{key}: {v}"));
                if key == "excludeTools" {
                    for tool in v.as_array().into_iter().flatten().filter_map(Value::as_str) {
                        b.checked_rule(
                            layer,
                            RuleList::Deny,
                            &format!("mcp__{server}__{tool}"),
                            &o,
                        )?;
                    }
                } else if v != &Value::Bool(false) {
                    b.not_imported(
                        &o,
                        format!(
                            "`mcpServers.{server}.{key}` is not imported: the server's calls \
                             are decided by toolgate's rules, so those not allowed ask"
                        ),
                    );
                }
            }
        }
    }
    if let Some(security) = value.get("security").and_then(Value::as_object) {
        for k in security.keys() {
            b.not_imported(
                &at(k, format!("security.{k}")),
                format!("`security.{k}` is not imported: toolgate's decisions do not depend on it"),
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(text: &str) -> Vec<(String, String)> {
        vec![("settings.json".to_owned(), text.to_owned())]
    }

    #[test]
    fn a_shell_entry_with_a_command_narrows_the_shell() {
        let narrowed = r#"{"tools": {"allowed": ["read_file", "run_shell_command(git status)"]}}"#;
        assert_eq!(
            shell_narrowing(&files(narrowed)).as_deref(),
            Some("settings.json:1")
        );
        assert!(shell_narrowing(&files(r#"{"allowedTools": ["ShellTool(ls)"]}"#)).is_some());
        for plain in [
            r#"{"tools": {"allowed": ["run_shell_command", "read_file"]}}"#,
            r#"{"tools": {"exclude": ["run_shell_command(rm)"]}}"#,
            "not json",
        ] {
            assert_eq!(shell_narrowing(&files(plain)), None, "{plain}");
        }
    }
}
