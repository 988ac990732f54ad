//! `toolgate doctor [--agent NAME] [--dir PROJECT]`: checks that the hook will really run
//! for each agent, and says how to fix what will not. Exit 0 when nothing is wrong, 1 when
//! something is.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::Value;
use toolgate::agents::Agent;
use toolgate::Error;

use super::files::{read_optional, storage};
use super::install::{codex_home, copilot_home, target, Scope};
use super::{flag_value, parse_flags};

/// What the checks found.
#[derive(Default)]
struct Report {
    lines: Vec<String>,
    problems: usize,
}

impl Report {
    fn ok(&mut self, text: String) {
        self.lines.push(format!("ok      {text}"));
    }
    fn note(&mut self, text: String) {
        self.lines.push(format!("note    {text}"));
    }
    fn problem(&mut self, text: String, fix: &str) {
        self.problems += 1;
        self.lines
            .push(format!("PROBLEM {text}\n        fix: {fix}"));
    }
}

/// Runs `toolgate doctor`.
pub fn run(args: &[String]) -> Result<ExitCode, Error> {
    let flags = parse_flags(args, &[], &["--agent", "--dir"])?;
    let agents = match flag_value(&flags, "--agent") {
        Some(a) => vec![Agent::parse(a)?],
        None => Agent::ALL.to_vec(),
    };
    let project = match flag_value(&flags, "--dir") {
        Some(d) => PathBuf::from(d),
        None => std::env::current_dir().map_err(|e| storage(Path::new("."), "read", &e))?,
    };
    let mut r = Report::default();
    check_policy(&mut r, &project);
    for agent in agents {
        check_agent(&mut r, agent, &project);
    }
    for l in &r.lines {
        println!("{l}");
    }
    if r.problems == 0 {
        println!("no problems found");
        Ok(ExitCode::SUCCESS)
    } else {
        println!("{} problem(s) found", r.problems);
        Ok(ExitCode::from(1))
    }
}

fn check_policy(r: &mut Report, project: &Path) {
    let loaded = super::layers::sources(project, &[])
        .and_then(|s| super::layers::load(&s))
        .and_then(|m| {
            let n = m.read.len();
            toolgate::Policy::compile_unchecked(m.document).map(|p| (n, p))
        });
    match loaded {
        Ok((n, p)) => {
            r.ok(format!("toolgate policy: {n} file(s) read, they compile"));
            for w in p.warnings() {
                r.note(format!(
                    "policy warning {} at {}: {}",
                    w.code, w.path, w.message
                ));
            }
        }
        Err(e) => r.problem(
            format!("toolgate policy does not load: {e}"),
            "fix the file named above; until then every hook call is blocked",
        ),
    }
    match super::trust_file::path() {
        Ok(p) => match read_optional(&p) {
            Ok(_) => r.ok(format!("trust file {} is readable", p.display())),
            Err(e) => r.problem(format!("{e}"), "fix the trust file's permissions"),
        },
        Err(e) => r.problem(format!("{e}"), "set HOME"),
    }
}

/// Reads a JSON settings file; `None` when missing.
fn settings(r: &mut Report, path: &Path) -> Option<Value> {
    match read_optional(path) {
        Ok(None) => None,
        Ok(Some(text)) => match toolgate::json::from_str::<Value>(&text, "settings") {
            Ok(v) => Some(v),
            Err(e) => {
                r.problem(
                    format!("{} does not parse: {e}", path.display()),
                    "fix the JSON; the agent may ignore the whole file",
                );
                None
            }
        },
        Err(e) => {
            r.problem(format!("{e}"), "fix the file's permissions");
            None
        }
    }
}

/// The toolgate hook commands in a settings document.
fn hook_commands(doc: &Value) -> Vec<String> {
    let mut out = Vec::new();
    collect(doc.get("hooks").unwrap_or(&Value::Null), &mut out);
    out
}

fn collect(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, v) in m {
                match (k.as_str(), v.as_str()) {
                    ("command" | "bash", Some(c)) if c.contains(" hook") => out.push(c.to_owned()),
                    _ => collect(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|i| collect(i, out)),
        _ => {}
    }
}

fn check_agent(r: &mut Report, agent: Agent, project: &Path) {
    let name = agent.name();
    let mut found = Vec::new();
    for scope in [Scope::Project, Scope::User] {
        let Ok(t) = target(agent, scope, project) else {
            continue;
        };
        if let Some(doc) = settings(r, &t.file) {
            for c in hook_commands(&doc) {
                found.push((t.file.clone(), c));
            }
        }
    }
    found.sort();
    found.dedup();
    if agent == Agent::Claude {
        let _ = settings(r, &project.join(".claude/settings.local.json"));
    }
    if found.is_empty() {
        r.note(format!(
            "{name}: no toolgate hook installed (`toolgate install --agent {name}`)"
        ));
        return;
    }
    for (file, command) in &found {
        r.ok(format!("{name}: hook `{command}` in {}", file.display()));
        check_command(r, name, command);
    }
    match agent {
        Agent::Codex => check_codex(r),
        Agent::Copilot => check_copilot(r, project, &found),
        Agent::Gemini => {
            r.note("gemini: headless runs (`gemini -p`) offer the shell tool only with `--yolo` or `--allowed-tools run_shell_command`; without it no shell call reaches the hook".into());
            r.note("gemini: project settings (.gemini/settings.json) apply only in trusted folders when folder trust is on".into());
        }
        Agent::Claude => r.note(
            "claude: PermissionRequest hooks fire only where Claude Code would prompt (not in plain `claude -p`)".into(),
        ),
        Agent::Cursor => {}
    }
}

/// The program of a hook command exists and runs.
fn check_command(r: &mut Report, name: &str, command: &str) {
    let program = command
        .strip_prefix('\'')
        .and_then(|c| c.split('\'').next())
        .or_else(|| command.split_whitespace().next())
        .unwrap_or("");
    let exists = if program.contains('/') {
        Path::new(program).is_file()
    } else {
        std::env::var_os("PATH")
            .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(program).is_file()))
    };
    if exists {
        r.ok(format!("{name}: `{program}` exists"));
    } else {
        r.problem(
            format!("{name}: the hook program `{program}` is not found"),
            "reinstall with `toolgate install` from the toolgate you want to run",
        );
    }
}

fn check_codex(r: &mut Report) {
    let config = codex_home().map(|h| h.join("config.toml"));
    let text = config
        .as_ref()
        .ok()
        .and_then(|c| read_optional(c).ok().flatten())
        .unwrap_or_default();
    let enabled = super::install::codex_enable(&text).ok() == Some(None);
    if enabled {
        r.ok("codex: `[features] hooks = true` is set".into());
    } else {
        r.problem(
            "codex: hooks are not enabled in config.toml".into(),
            "add `hooks = true` under `[features]` (toolgate install does this)",
        );
    }
    if text.contains("[hooks.state.") && text.contains("trusted_hash") {
        r.ok("codex: config.toml records trusted hooks".into());
    } else {
        r.problem(
            "codex: no trusted hook recorded; Codex silently skips unmanaged hooks until they are trusted".into(),
            "open `codex`, run `/hooks` and trust the toolgate hook (or run with `--dangerously-bypass-hook-trust`, or install it as a managed hook)",
        );
    }
}

fn check_copilot(r: &mut Report, project: &Path, found: &[(PathBuf, String)]) {
    let in_project = found.iter().any(|(f, _)| f.starts_with(project));
    if !in_project {
        return;
    }
    let config = copilot_home().map(|h| h.join("config.json"));
    let trusted = config
        .as_ref()
        .ok()
        .and_then(|c| read_optional(c).ok().flatten())
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|v| v.get("trusted_folders").cloned())
        .and_then(|v| v.as_array().cloned())
        .unwrap_or_default();
    let ok = trusted
        .iter()
        .filter_map(Value::as_str)
        .any(|f| project.starts_with(f));
    if ok {
        r.ok("copilot: the project folder is trusted".into());
    } else {
        r.problem(
            format!(
                "copilot: {} is not in `trusted_folders`; Copilot CLI silently ignores the project's hooks",
                project.display()
            ),
            "trust the folder when Copilot CLI asks, add it to `trusted_folders` in $COPILOT_HOME/config.json, or install with `--user`",
        );
    }
}
