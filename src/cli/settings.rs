//! The agent's own permission settings, read as policy layers.
//!
//! Claude Code's `permissions` (`~/.claude/settings.json`, `<project>/.claude/settings.json`,
//! `<project>/.claude/settings.local.json`, `/etc/claude-code/managed-settings.json`): their
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

/// The settings files of `agent` for `project`, most authoritative first.
pub fn files(agent: Agent, project: &Path) -> Result<Vec<(Layer, PathBuf)>, Error> {
    Ok(match agent {
        Agent::Claude => vec![
            (
                Layer::Managed,
                PathBuf::from("/etc/claude-code/managed-settings.json"),
            ),
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

/// Adds the agent's permission rules to `doc` as layers.
pub fn add(
    doc: &mut PolicyDocument,
    agent: Agent,
    project: &Path,
    with_allow: bool,
) -> Result<AgentSettings, Error> {
    let mut out = AgentSettings::default();
    for (layer, path) in files(agent, project)? {
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
