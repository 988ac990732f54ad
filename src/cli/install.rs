//! `toolgate install` and `toolgate uninstall`: add the hook to an agent's settings, or
//! remove exactly what was added.
//!
//! ```text
//! toolgate install   --agent NAME [--project|--user] [--dir PROJECT] [--command CMD]
//! toolgate uninstall --agent NAME [--project|--user] [--dir PROJECT] [--command CMD]
//! ```
//! The hook entries are recognised by their command, so installing twice changes nothing and
//! uninstalling removes only entries with that command (pass the same `--command` to both).
//! Before a file changes, its previous contents are kept beside it as `<file>.toolgate-backup`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::{json, Map, Value};
use toolgate::agents::Agent;
use toolgate::{Error, ErrorKind};

use super::files::{read_optional, storage, write_atomic};
use super::hook::INSTALLED_TIMEOUT_SECS;
use super::{flag_value, has_flag, parse_flags, usage_error};

/// Where the hook goes for one agent: a JSON settings file and the events in it.
#[derive(Clone, Debug)]
pub struct Target {
    /// The settings file.
    pub file: PathBuf,
    /// Codex only: its `config.toml`, where `[features] hooks = true` is needed.
    pub codex_config: Option<PathBuf>,
}

/// Whether the project's or the user's settings are meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The project's settings (committed with it, where the agent has such a file).
    Project,
    /// The user's settings.
    User,
}

/// `$CODEX_HOME` or `~/.codex`.
pub fn codex_home() -> Result<PathBuf, Error> {
    match std::env::var_os("CODEX_HOME") {
        Some(h) if !h.is_empty() => Ok(PathBuf::from(h)),
        _ => Ok(super::files::home()?.join(".codex")),
    }
}

/// `$COPILOT_HOME` or `~/.copilot`.
pub fn copilot_home() -> Result<PathBuf, Error> {
    match std::env::var_os("COPILOT_HOME") {
        Some(h) if !h.is_empty() => Ok(PathBuf::from(h)),
        _ => Ok(super::files::home()?.join(".copilot")),
    }
}

/// The settings file for `agent` in `scope`.
pub fn target(agent: Agent, scope: Scope, project: &Path) -> Result<Target, Error> {
    let home = super::files::home()?;
    let file = match (agent, scope) {
        (Agent::Claude, Scope::Project) => project.join(".claude/settings.json"),
        (Agent::Claude, Scope::User) => home.join(".claude/settings.json"),
        // Codex reads unmanaged hooks from `$CODEX_HOME`; `<repo>/.codex/` needs the project
        // trusted as well, so the user file is used for both scopes.
        (Agent::Codex, _) => codex_home()?.join("hooks.json"),
        (Agent::Gemini, Scope::Project) => project.join(".gemini/settings.json"),
        (Agent::Gemini, Scope::User) => home.join(".gemini/settings.json"),
        (Agent::Copilot, Scope::Project) => project.join(".github/hooks/toolgate.json"),
        (Agent::Copilot, Scope::User) => copilot_home()?.join("settings.json"),
        (Agent::Cursor, Scope::Project) => project.join(".cursor/hooks.json"),
        (Agent::Cursor, Scope::User) => home.join(".cursor/hooks.json"),
    };
    let codex_config = match agent {
        Agent::Codex => Some(codex_home()?.join("config.toml")),
        _ => None,
    };
    Ok(Target { file, codex_config })
}

/// The hook events of `agent` and the entry each gets for `command`.
pub fn entries(agent: Agent, command: &str) -> Vec<(&'static str, Value)> {
    let t = INSTALLED_TIMEOUT_SECS;
    let claude_like = json!({"matcher": "*", "hooks": [
        {"type": "command", "command": command, "timeout": t}]});
    match agent {
        Agent::Claude | Agent::Codex => vec![
            ("PreToolUse", claude_like.clone()),
            ("PermissionRequest", claude_like),
        ],
        Agent::Gemini => vec![(
            "BeforeTool",
            json!({"matcher": ".*", "hooks": [{"type": "command", "name": "toolgate",
                "command": command, "timeout": t * 1000}]}),
        )],
        Agent::Copilot => {
            let e = json!({"type": "command", "bash": command, "timeoutSec": t});
            vec![("preToolUse", e.clone()), ("permissionRequest", e)]
        }
        Agent::Cursor => {
            // Cursor's documented entry has only `command`.
            let e = json!({ "command": command });
            vec![
                ("beforeShellExecution", e.clone()),
                ("beforeMCPExecution", e.clone()),
                ("beforeReadFile", e),
            ]
        }
    }
}

/// Whether a hook entry (or a matcher group holding entries) runs `command`.
fn runs(entry: &Value, command: &str) -> bool {
    let direct = ["command", "bash"]
        .iter()
        .any(|k| entry.get(k).and_then(Value::as_str) == Some(command));
    let nested = entry
        .get("hooks")
        .and_then(Value::as_array)
        .is_some_and(|hs| hs.iter().any(|h| runs(h, command)));
    direct || nested
}

/// Whether the file is a hooks file of its own that needs `"version": 1` (Copilot's
/// `.github/hooks/*.json`, Cursor's `hooks.json`), rather than a settings file.
pub fn versioned(agent: Agent, file: &Path) -> bool {
    agent == Agent::Cursor || (agent == Agent::Copilot && !file.ends_with("settings.json"))
}

/// Adds the hook to a settings document; returns whether it changed.
pub fn add_hooks(
    doc: &mut Value,
    agent: Agent,
    command: &str,
    versioned: bool,
) -> Result<bool, Error> {
    let root = as_object(doc, "the settings file")?;
    if versioned && !root.contains_key("version") {
        root.insert("version".into(), json!(1));
    }
    let hooks = root.entry("hooks").or_insert_with(|| json!({}));
    let hooks = as_object(hooks, "`hooks`")?;
    let mut changed = false;
    for (event, entry) in entries(agent, command) {
        let list = hooks.entry(event).or_insert_with(|| json!([]));
        let Some(list) = list.as_array_mut() else {
            return Err(shape(&format!("`hooks.{event}`"), "an array"));
        };
        if !list.iter().any(|e| runs(e, command)) {
            list.push(entry);
            changed = true;
        }
    }
    Ok(changed)
}

/// Removes the hook entries that run `command`; returns whether it changed.
pub fn remove_hooks(
    doc: &mut Value,
    agent: Agent,
    command: &str,
    versioned: bool,
) -> Result<bool, Error> {
    let root = as_object(doc, "the settings file")?;
    let Some(hooks) = root.get_mut("hooks") else {
        return Ok(false);
    };
    let hooks = as_object(hooks, "`hooks`")?;
    let mut changed = false;
    for (event, _) in entries(agent, command) {
        let Some(list) = hooks.get_mut(event).and_then(Value::as_array_mut) else {
            continue;
        };
        let before = list.len();
        for e in list.iter_mut() {
            // A matcher group shared with other hooks keeps the others.
            if let Some(inner) = e.get_mut("hooks").and_then(Value::as_array_mut) {
                if inner.len() > 1 {
                    let n = inner.len();
                    inner.retain(|h| !runs(h, command));
                    changed |= inner.len() != n;
                }
            }
        }
        list.retain(|e| !runs(e, command));
        changed |= list.len() != before;
        if list.is_empty() {
            hooks.remove(event);
        }
    }
    if hooks.is_empty() {
        root.remove("hooks");
        if versioned && root.len() == 1 && root.get("version") == Some(&json!(1)) {
            root.remove("version");
        }
    }
    Ok(changed)
}

fn as_object<'a>(v: &'a mut Value, what: &str) -> Result<&'a mut Map<String, Value>, Error> {
    v.as_object_mut()
        .ok_or_else(|| shape(what, "a JSON object"))
}

fn shape(what: &str, expected: &str) -> Error {
    Error::new(ErrorKind::InvalidJson, format!("{what} is not {expected}"))
        .with_hint("fix the agent's settings file by hand, then run the command again")
}

const TOML_MARK: &str = "# added by toolgate install";

/// Turns on `[features] hooks = true` in a Codex `config.toml` text; `None` when already on.
pub fn codex_enable(text: &str) -> Result<Option<String>, Error> {
    let mut section = String::new();
    let mut features_at = None;
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim();
        if t.starts_with('[') {
            section = t.split('#').next().unwrap_or("").trim().to_owned();
            if section == "[features]" {
                features_at = Some(i);
            }
            continue;
        }
        let key = t.split('=').next().unwrap_or("").trim();
        if section == "[features]" && (key == "hooks" || key == "codex_hooks") {
            let value = t
                .split('=')
                .nth(1)
                .unwrap_or("")
                .split('#')
                .next()
                .unwrap_or("");
            if value.trim() == "true" {
                return Ok(None);
            }
            return Err(Error::new(
                ErrorKind::InvalidPolicy,
                format!("Codex's config.toml sets `{t}` under [features]"),
            )
            .with_hint("set `hooks = true` under [features] in config.toml, then install again"));
        }
    }
    let mut out: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
    match features_at {
        Some(i) => out.insert(i + 1, format!("hooks = true {TOML_MARK}")),
        None => {
            if out.last().is_some_and(|l| !l.trim().is_empty()) {
                out.push(String::new());
            }
            out.push(format!("[features] {TOML_MARK}"));
            out.push(format!("hooks = true {TOML_MARK}"));
        }
    }
    Ok(Some(out.join("\n") + "\n"))
}

/// Removes what [`codex_enable`] added; `None` when there is nothing to remove.
pub fn codex_disable(text: &str) -> Option<String> {
    if !text.contains(TOML_MARK) {
        return None;
    }
    let mut lines: Vec<&str> = text.lines().filter(|l| !l.ends_with(TOML_MARK)).collect();
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    if lines.is_empty() {
        return Some(String::new());
    }
    Some(lines.join("\n") + "\n")
}

/// The default hook command: this binary, `hook --agent NAME`.
pub fn default_command(agent: Agent) -> Result<String, Error> {
    let exe = std::env::current_exe().map_err(|e| storage(Path::new("toolgate"), "locate", &e))?;
    let exe = exe.to_string_lossy();
    let quoted = if exe
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+".contains(c))
    {
        exe.into_owned()
    } else {
        format!("'{}'", exe.replace('\'', r"'\''"))
    };
    Ok(format!("{quoted} hook --agent {}", agent.name()))
}

fn write_with_backup(path: &Path, old: Option<&str>, new: &str) -> Result<(), Error> {
    if let Some(old) = old {
        let mut b = path.as_os_str().to_owned();
        b.push(".toolgate-backup");
        write_atomic(Path::new(&b), old)?;
    }
    write_atomic(path, new)
}

fn remove_file(path: &Path) -> Result<(), Error> {
    std::fs::remove_file(path).map_err(|e| storage(path, "remove", &e))
}

/// Runs `install` (`adding`) or `uninstall`.
pub fn run(args: &[String], adding: bool) -> Result<ExitCode, Error> {
    let flags = parse_flags(
        args,
        &["--project", "--user"],
        &["--agent", "--command", "--dir"],
    )?;
    let agent = Agent::parse(
        flag_value(&flags, "--agent").ok_or_else(|| usage_error("`--agent` is required"))?,
    )?;
    let scope = if has_flag(&flags, "--user") {
        Scope::User
    } else {
        Scope::Project
    };
    let project = match flag_value(&flags, "--dir") {
        Some(d) => PathBuf::from(d),
        None => std::env::current_dir().map_err(|e| storage(Path::new("."), "read", &e))?,
    };
    let command = match flag_value(&flags, "--command") {
        Some(c) => c.to_owned(),
        None => default_command(agent)?,
    };
    let t = target(agent, scope, &project)?;
    let old = read_optional(&t.file)?;
    let mut doc: Value = match &old {
        Some(text) if !text.trim().is_empty() => toolgate::json::from_str(text, "settings")
            .map_err(|e| e.within(&t.file.display().to_string()))?,
        _ => json!({}),
    };
    let versioned = versioned(agent, &t.file);
    let changed = if adding {
        add_hooks(&mut doc, agent, &command, versioned)?
    } else {
        remove_hooks(&mut doc, agent, &command, versioned)?
    };
    if changed {
        if !adding && doc == json!({}) {
            remove_file(&t.file)?;
        } else {
            let text = serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n";
            write_with_backup(&t.file, old.as_deref(), &text)?;
        }
    }
    let what = match (adding, changed) {
        (true, true) => "installed",
        (true, false) => "already installed",
        (false, true) => "removed",
        (false, false) => "not installed, nothing removed:",
    };
    println!(
        "{what} `{command}` {} {}",
        if adding { "in" } else { "from" },
        t.file.display()
    );
    if let Some(config) = &t.codex_config {
        let text = read_optional(config)?.unwrap_or_default();
        let edit = if adding {
            codex_enable(&text)?
        } else if changed {
            codex_disable(&text)
        } else {
            None
        };
        if let Some(new) = edit {
            if new.is_empty() {
                remove_file(config)?;
            } else {
                write_with_backup(
                    config,
                    Some(&text).filter(|t| !t.is_empty()).map(|t| t.as_str()),
                    &new,
                )?;
            }
            println!(
                "{} `[features] hooks = true` {} {}",
                if adding { "set" } else { "removed" },
                if adding { "in" } else { "from" },
                config.display()
            );
        }
    }
    if adding {
        println!("next: run `toolgate doctor --agent {}`", agent.name());
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn install_is_idempotent_and_uninstall_exact() {
        for agent in Agent::ALL {
            let original = json!({"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[
                {"type":"command","command":"other"}]}]},"model":"x"});
            let mut doc = original.clone();
            let v = agent == Agent::Cursor;
            assert!(add_hooks(&mut doc, agent, "tg hook", v).unwrap());
            let once = doc.clone();
            assert!(!add_hooks(&mut doc, agent, "tg hook", v).unwrap());
            assert_eq!(doc, once);
            assert!(remove_hooks(&mut doc, agent, "tg hook", v).unwrap());
            let mut expected = original.clone();
            if v {
                expected["version"] = json!(1);
            }
            assert_eq!(doc, expected, "{agent:?}");
            assert!(!remove_hooks(&mut doc, agent, "tg hook", v).unwrap());
        }
    }

    #[test]
    fn codex_feature_flag_round_trips() {
        for text in ["", "model = \"x\"\n", "[features]\nother = 1\n"] {
            let on = codex_enable(text).unwrap().unwrap();
            assert!(on.contains("hooks = true"), "{on}");
            assert_eq!(codex_enable(&on).unwrap(), None);
            assert_eq!(codex_disable(&on).unwrap(), text, "{text:?}");
        }
        assert!(codex_enable("[features]\nhooks = false\n").is_err());
        assert_eq!(codex_enable("[features]\nhooks = true\n").unwrap(), None);
    }
}
