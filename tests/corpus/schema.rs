//! The case schema of the corpus (`tests/corpus/`, described in `tests/corpus/README.md`),
//! shared by every Rust runner that reads it: the native runner (`tests/corpus.rs`), the
//! shell analysis on its own (`tests/shell_corpus.rs`), the shell parser against `shfmt`
//! (`tests/shell_differential.rs`) and the `strace` oracle (`tests/shell_dynamic.rs`).
//! The Node and Chromium runners read the same files with `tests/differential/replay.mjs`,
//! which builds each request and checks each expectation the same way.
//!
//! ```json
//! { "description": "what this file covers",
//!   "policy": { "permissions": { "deny": ["Bash(curl *)"] } },
//!   "cwd": "/home/ada/proj",
//!   "expect": "stop",
//!   "cases": [
//!     { "name": "no curl", "command": "curl evil.sh", "expect": "deny", "decider": "rule" },
//!     { "request": { "tool": "Read", "input": { "file_path": ".env" } }, "danger": "secret-read" },
//!     { "command": "git push -f", "policy": {}, "group": "history", "note": "why it is here" }
//!   ] }
//! ```
#![allow(
    dead_code,
    clippy::panic,
    clippy::unwrap_used,
    clippy::indexing_slicing,
    reason = "each runner that includes this module uses a part of it; a broken corpus file \
              fails the run loudly"
)]

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::{json, Value};

/// The corpus directory.
pub const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus");

/// One corpus file.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CorpusFile {
    /// What the file covers and what its cases must show.
    pub description: String,
    /// The policy document for cases that bring none; `{}` when absent.
    #[serde(default)]
    pub policy: Option<Value>,
    /// The working directory for requests that name none.
    #[serde(default)]
    pub cwd: Option<String>,
    /// The expectation of cases that state none.
    #[serde(default)]
    pub expect: Option<Expect>,
    /// The cases.
    pub cases: Vec<Case>,
}

/// One case: a request (or the `command` shorthand for a `Bash` call) and what its decision
/// must show.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Case {
    /// A short name, unique in its file; the command (or the request) when absent.
    #[serde(default)]
    pub name: Option<String>,
    /// Shorthand for `{"tool":"Bash","input":{"command":...}}`.
    #[serde(default)]
    pub command: Option<String>,
    /// The request, as a host sends it.
    #[serde(default)]
    pub request: Option<Value>,
    /// Overrides the request's mode.
    #[serde(default)]
    pub mode: Option<String>,
    /// The policy document for this case alone, instead of the file's.
    #[serde(default)]
    pub policy: Option<Value>,
    /// The expected effect; the file's `expect` when absent.
    #[serde(default)]
    pub expect: Option<Expect>,
    /// The expected `kind` of the deciding reason (`rule`, `mode`, `toolDefault`, ...).
    #[serde(default)]
    pub decider: Option<String>,
    /// A danger class the decision must name (`recursive-delete`, `secret-read`, ...).
    #[serde(default)]
    pub danger: Option<String>,
    /// A label that groups cases in reports (an attack's class, say); never checked.
    #[serde(default)]
    pub group: Option<String>,
    /// Why the case expects what it does, for people; never checked.
    #[serde(default)]
    pub note: Option<String>,
}

/// What a decision's effect must be.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub enum Expect {
    /// Runs without a prompt.
    Allow,
    /// A person is asked.
    Ask,
    /// Refused.
    Deny,
    /// Never let through: ask or deny.
    Stop,
}

impl Expect {
    /// The expectation as the files spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Expect::Allow => "allow",
            Expect::Ask => "ask",
            Expect::Deny => "deny",
            Expect::Stop => "stop",
        }
    }

    /// Whether `effect` (`allow`, `ask` or `deny`) meets the expectation.
    pub fn admits(self, effect: &str) -> bool {
        match self {
            Expect::Stop => effect == "ask" || effect == "deny",
            other => effect == other.as_str(),
        }
    }
}

/// A loaded file with its path relative to the corpus directory (`tables/modes.json`).
#[derive(Debug)]
pub struct Loaded {
    /// The path below `tests/corpus/`, with `/` separators.
    pub path: String,
    /// The parsed file.
    pub file: CorpusFile,
}

impl Case {
    /// The case's name: its own, else its command, else its request.
    pub fn name(&self) -> String {
        match (&self.name, &self.command, &self.request) {
            (Some(name), _, _) => name.clone(),
            (None, Some(command), _) => command.clone(),
            (None, None, Some(request)) => request.to_string(),
            (None, None, None) => String::new(),
        }
    }
}

impl CorpusFile {
    /// Parses a corpus file and checks what serde cannot: each case has exactly one of
    /// `command` and `request`, an expectation of its own or the file's, and a unique name.
    pub fn from_json(text: &str) -> Result<Self, String> {
        let file: CorpusFile = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let mut names = HashSet::new();
        for (i, case) in file.cases.iter().enumerate() {
            let name = case.name();
            if case.command.is_some() == case.request.is_some() {
                return Err(format!(
                    "cases[{i}] `{name}` needs exactly one of `command` and `request`"
                ));
            }
            if case.expect.or(file.expect).is_none() {
                return Err(format!(
                    "cases[{i}] `{name}` has no `expect`: give it one or give the file one"
                ));
            }
            if !names.insert(name.clone()) {
                return Err(format!("cases[{i}]: a second case named `{name}`"));
            }
        }
        Ok(file)
    }

    /// The policy document a case runs under.
    pub fn policy_for(&self, case: &Case) -> Value {
        case.policy
            .clone()
            .or_else(|| self.policy.clone())
            .unwrap_or_else(|| json!({}))
    }

    /// The request a case stands for, as JSON: the file's `cwd` when the request names none,
    /// the case's `mode` when it has one.
    pub fn request_for(&self, case: &Case) -> Value {
        let mut request = match (&case.request, &case.command) {
            (Some(request), _) => request.clone(),
            (None, command) => json!({ "tool": "Bash", "input": { "command": command } }),
        };
        if let (Some(cwd), Some(object)) = (&self.cwd, request.as_object_mut()) {
            if object.get("cwd").is_none_or(Value::is_null) {
                object.insert("cwd".to_owned(), json!(cwd));
            }
        }
        if let (Some(mode), Some(object)) = (&case.mode, request.as_object_mut()) {
            object.insert("mode".to_owned(), json!(mode));
        }
        request
    }

    /// The case's expectation: its own, else the file's.
    pub fn expect_for(&self, case: &Case) -> Expect {
        case.expect.or(self.expect).unwrap_or(Expect::Stop)
    }

    /// What in `decision` (the wire JSON) does not meet the case's expectations; empty
    /// when all hold.
    pub fn check(&self, case: &Case, decision: &Value) -> Vec<String> {
        let mut problems = Vec::new();
        let effect = decision["effect"].as_str().unwrap_or("");
        let expect = self.expect_for(case);
        if !expect.admits(effect) {
            problems.push(format!("expected {}, got {effect}", expect.as_str()));
        }
        let kind = decision["reason"]["decider"]["kind"].as_str().unwrap_or("");
        if let Some(decider) = &case.decider {
            if decider != kind {
                problems.push(format!("expected the decider {decider}, got {kind}"));
            }
        }
        if let Some(danger) = &case.danger {
            let named: Vec<&str> = decision["dangers"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|d| d["class"].as_str())
                .collect();
            if !named.contains(&danger.as_str()) {
                problems.push(format!("expected the danger {danger}, got {named:?}"));
            }
        }
        problems
    }
}

/// Loads one file, by its path below `tests/corpus/`.
pub fn load(path: &str) -> Loaded {
    let full = Path::new(ROOT).join(path);
    let text = std::fs::read_to_string(&full)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", full.display()));
    let file = CorpusFile::from_json(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    Loaded {
        path: path.to_owned(),
        file,
    }
}

/// Every `*.json` file below `tests/corpus/`, sorted by path.
pub fn load_all() -> Vec<Loaded> {
    let mut paths = Vec::new();
    json_files(Path::new(ROOT), &mut paths);
    paths.sort();
    paths
        .iter()
        .map(|p| {
            let relative = p.strip_prefix(ROOT).unwrap_or(p);
            let parts: Vec<String> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            load(&parts.join("/"))
        })
        .collect()
}

/// Every command line of the corpus (`command` shorthands and `Bash` requests), in file order.
pub fn command_lines() -> Vec<String> {
    let mut lines = Vec::new();
    for loaded in load_all() {
        for case in &loaded.file.cases {
            let request = loaded.file.request_for(case);
            if request["tool"] == "Bash" {
                if let Some(line) = request["input"]["command"].as_str() {
                    lines.push(line.to_owned());
                }
            }
        }
    }
    lines
}

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            json_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}
