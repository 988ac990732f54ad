//! The agent's own permission settings, read as policy layers.
//!
//! Claude Code's `permissions` (`~/.claude/settings.json`, `<project>/.claude/settings.json`,
//! `<project>/.claude/settings.local.json`, the managed settings of the platform
//! ([`claude_managed_settings`])): their
//! `deny` and `ask` rules are always added, so that toolgate's allow never skips a prompt or
//! a denial the agent's own settings ask for. Their `allow` rules are added only with
//! `--agent-settings`. A rule toolgate cannot parse is skipped and marks the settings
//! incomplete: the hook then passes no allow on, leaving the call to the agent.
//! Other agents keep their permissions outside files toolgate reads.

use std::path::{Path, PathBuf};

use serde_json::Value;
use toolgate::agents::Agent;
use toolgate::policy::{LayerDocument, Permissions, PolicyDocument};
use toolgate::{Error, Layer, Rule};

use super::files::read_optional;

/// What reading the agent's settings added.
#[derive(Debug, Default)]
pub struct AgentSettings {
    /// `(path, contents)` of the files read.
    pub read: Vec<(String, String)>,
    /// Rules that were skipped, as `path: list rule`.
    pub skipped: Vec<String>,
    /// Whether a deny or ask rule was skipped: toolgate's allows must then not be passed on.
    pub incomplete: bool,
}

/// Where Claude Code reads its managed settings on the operating system `os` (Rust's
/// `std::env::consts::OS` names: `linux`, `macos`, `windows`; anything else reads as Linux):
/// `/Library/Application Support/ClaudeCode/managed-settings.json` on macOS,
/// `C:\Program Files\ClaudeCode\managed-settings.json` on Windows (the older
/// `C:\ProgramData\ClaudeCode` is no longer read by Claude Code, and is writable by users),
/// `/etc/claude-code/managed-settings.json` on Linux and WSL.
pub fn claude_managed_settings(os: &str) -> PathBuf {
    PathBuf::from(match os {
        "macos" => "/Library/Application Support/ClaudeCode/managed-settings.json",
        "windows" => r"C:\Program Files\ClaudeCode\managed-settings.json",
        _ => "/etc/claude-code/managed-settings.json",
    })
}

/// The settings files of `agent` for `project` on the operating system `os`, most
/// authoritative first.
pub fn files(agent: Agent, project: &Path, os: &str) -> Result<Vec<(Layer, PathBuf)>, Error> {
    Ok(match agent {
        Agent::Claude => vec![
            (Layer::Managed, claude_managed_settings(os)),
            (Layer::Local, project.join(".claude/settings.local.json")),
            (Layer::Project, project.join(".claude/settings.json")),
            (
                Layer::User,
                super::files::home()?.join(".claude/settings.json"),
            ),
        ],
        Agent::Copilot | Agent::Codex | Agent::Gemini | Agent::Cursor => Vec::new(),
    })
}

/// Adds the agent's permission rules to `doc` as layers (`os` as for [`files`]).
pub fn add(
    doc: &mut PolicyDocument,
    agent: Agent,
    project: &Path,
    with_allow: bool,
    os: &str,
) -> Result<AgentSettings, Error> {
    let mut out = AgentSettings::default();
    for (layer, path) in files(agent, project, os)? {
        let Some(text) = read_optional(&path)? else {
            continue;
        };
        let where_ = path.display().to_string();
        let value: Value =
            toolgate::json::from_str(&text, "agent settings").map_err(|e| e.within(&where_))?;
        let perms = value.get("permissions");
        let mut p = Permissions::default();
        let mut list = |key: &str, into: &mut Vec<String>| {
            let items = perms.and_then(|v| v.get(key)).and_then(Value::as_array);
            for rule in items.into_iter().flatten() {
                match rule.as_str() {
                    Some(r) if Rule::parse(r).is_ok() => into.push(r.to_owned()),
                    _ => {
                        out.incomplete |= key != "allow";
                        out.skipped.push(format!("{where_}: {key} {rule}"));
                    }
                }
            }
        };
        list("deny", &mut p.deny);
        list("ask", &mut p.ask);
        if with_allow {
            list("allow", &mut p.allow);
        }
        out.read.push((where_, text));
        if p.deny.is_empty() && p.ask.is_empty() && p.allow.is_empty() {
            continue;
        }
        doc.layers.push(LayerDocument {
            source: layer,
            root: Some(project.to_string_lossy().into_owned()),
            permissions: p,
            allow_managed_permission_rules_only: false,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::claude_managed_settings;

    #[test]
    fn managed_settings_follow_the_platform() {
        let path = |os: &str| claude_managed_settings(os).to_string_lossy().into_owned();
        assert_eq!(
            path("macos"),
            "/Library/Application Support/ClaudeCode/managed-settings.json"
        );
        assert_eq!(
            path("windows"),
            r"C:\Program Files\ClaudeCode\managed-settings.json"
        );
        assert_eq!(path("linux"), "/etc/claude-code/managed-settings.json");
        assert_eq!(path("freebsd"), "/etc/claude-code/managed-settings.json");
    }
}
