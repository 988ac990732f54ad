//! Importing the agents' own permission formats into a policy document, and exporting a
//! policy back to them.
//!
//! People who use several agents keep the same intent in several formats. [`import`] reads
//! Claude Code settings, Copilot CLI configuration and flags, Gemini CLI policies and
//! settings, Codex execpolicy rules and `config.toml`, VS Code chat settings and Zed agent
//! settings, and builds one [`PolicyDocument`] that decides like the agent does on its own
//! documented examples, or more strictly. Every imported rule keeps its provenance (file,
//! line, original text), which `toolgate explain` shows. What toolgate cannot express exactly
//! is never dropped silently: it is approximated in the stricter direction (an allow becomes
//! narrower or is left to ask, a deny or ask becomes wider) and listed as a warning.
//! [`export`] writes a policy in an agent's format and reports what the agent cannot express.
//!
//! Nothing here reads files: callers pass each file's name and text.
//!
//! ```
//! use toolgate::import::{import, Format};
//! let files = [(
//!     ".claude/settings.json".to_owned(),
//!     r#"{"permissions":{"allow":["Bash(npm test)"],"deny":["Read(./.env)"]}}"#.to_owned(),
//! )];
//! let imported = import(Format::Claude, &files).unwrap();
//! let policy = toolgate::Policy::from_document(imported.document).unwrap();
//! let request = toolgate::Request::from_json(
//!     r#"{"tool":"Bash","input":{"command":"npm test"},"cwd":"/home/ada/proj"}"#,
//! ).unwrap();
//! assert_eq!(policy.evaluate(&request).effect, toolgate::Effect::Allow);
//! ```

mod builder;
mod claude;
mod codex;
mod copilot;
mod copilot_cli;
mod export;
mod gemini;
mod gemini_mcp;
mod gemini_settings;
mod js_regex;
mod jsonc;
mod operators;
mod regex_rule;
mod spellings;
mod starlark;
mod translate;
mod vscode;
mod zed;

use crate::error::{Error, ErrorKind, Result};
use crate::policy::{PolicyDocument, Warning};

pub use copilot_cli::{
    copilot_cli_args, CopilotCliArgs, CopilotCliOptions, CopilotSkipped, ExtraAllow,
};
pub use export::{export, Exported};

/// An agent's configuration format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Claude Code `settings.json` (user, project, local and managed scopes).
    Claude,
    /// Copilot CLI `config.json` and its command-line flags.
    Copilot,
    /// Gemini CLI policy engine TOML and `settings.json` (`tools.allowed`, `tools.exclude`).
    Gemini,
    /// Codex execpolicy rules (`prefix_rule(...)`) and `config.toml`.
    Codex,
    /// VS Code chat settings (`chat.tools.terminal.autoApprove`, ...).
    Vscode,
    /// Zed `agent.tool_permissions`.
    Zed,
}

impl Format {
    /// Every format, in documentation order.
    pub const ALL: [Format; 6] = [
        Format::Claude,
        Format::Copilot,
        Format::Gemini,
        Format::Codex,
        Format::Vscode,
        Format::Zed,
    ];

    /// The format's name on the command line.
    ///
    /// ```
    /// assert_eq!(toolgate::import::Format::Vscode.as_str(), "vscode");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Format::Claude => "claude",
            Format::Copilot => "copilot",
            Format::Gemini => "gemini",
            Format::Codex => "codex",
            Format::Vscode => "vscode",
            Format::Zed => "zed",
        }
    }

    /// Parses a format name (`claude`, `copilot`, `gemini`, `codex`, `vscode`, `zed`).
    ///
    /// ```
    /// use toolgate::import::Format;
    /// assert_eq!(Format::parse("gemini").unwrap(), Format::Gemini);
    /// assert_eq!(Format::parse("cursor").unwrap_err().code(), "INVALID_REQUEST");
    /// ```
    pub fn parse(name: &str) -> Result<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.as_str() == name)
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::InvalidRequest,
                    format!("unknown format `{name}`"),
                )
                .with_hint("use one of claude, copilot, gemini, codex, vscode, zed")
            })
    }
}

/// One file of an agent's configuration, as JS passes it to `importPolicy` (the Rust
/// [`import`] takes `(name, text)` pairs). The name decides how it is read: a Claude Code
/// `settings.local.json` is the `local` layer, a Gemini `.toml` file is a policy and a
/// `.json` file settings, a Codex `.toml` file is `config.toml` and anything else rules, a
/// Copilot file that is not JSON holds command-line arguments.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct AgentFile {
    /// The file's name or path.
    pub name: String,
    /// The file's text.
    pub text: String,
}

/// An imported policy and what could not be carried over exactly (JS: `importPolicy`'s
/// `ImportResult`).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "ImportResult"))]
pub struct Imported {
    /// The policy document; `toolgate check --policy` and `new Policy(document)`
    /// accept it as is.
    pub document: PolicyDocument,
    /// Approximations (always in the stricter direction) and settings left out, each with
    /// the file and line (`path` is `file:line`).
    pub warnings: Vec<Warning>,
}

impl Imported {
    /// The document, or an error listing the warnings when there are any (`--strict`).
    ///
    /// ```
    /// use toolgate::import::{import, Format};
    /// let files = [("a.rules".to_owned(), "prefix_rule(pattern = [\"ls\"])".to_owned())];
    /// assert!(import(Format::Codex, &files).unwrap().strict().is_ok());
    /// ```
    pub fn strict(self) -> Result<PolicyDocument> {
        let Some(first) = self.warnings.first() else {
            return Ok(self.document);
        };
        let list: Vec<String> = self
            .warnings
            .iter()
            .map(|w| format!("{}: {}", w.path, w.message))
            .collect();
        Err(Error::new(
            ErrorKind::InvalidPolicy,
            format!(
                "the import is not exact ({} warning{}): {}",
                list.len(),
                if list.len() == 1 { "" } else { "s" },
                list.join("; ")
            ),
        )
        .at(first.path.clone())
        .with_hint("change the agent's configuration, or import without `--strict`"))
    }
}

/// Turns an agent's configuration files into one policy document.
///
/// `files` holds each file's name and text; the name decides how a file is read (a Claude
/// Code `settings.local.json` becomes the `local` layer, a Gemini `.toml` file is a policy and
/// a `.json` file settings, a Codex `.toml` file is `config.toml` and anything else rules,
/// a Copilot file that is not JSON holds command-line arguments). Bad input (bad JSON or
/// TOML, an unknown key, a Starlark construct outside the supported subset, a rule toolgate
/// cannot read in a deny list) is an error whose path is `file:line`.
pub fn import(format: Format, files: &[(String, String)]) -> Result<Imported> {
    if files.is_empty() {
        return Err(Error::new(ErrorKind::InvalidRequest, "no files to import")
            .with_hint("name at least one configuration file"));
    }
    let mut b = builder::Builder::new();
    let narrowing = (format == Format::Gemini)
        .then(|| gemini_settings::shell_narrowing(files))
        .flatten();
    for (name, text) in files {
        match format {
            Format::Claude => claude::import(&mut b, name, text)?,
            Format::Copilot => copilot::import(&mut b, name, text)?,
            Format::Gemini => gemini::import(&mut b, name, text, narrowing.as_deref())?,
            Format::Codex => codex::import(&mut b, name, text)?,
            Format::Vscode => vscode::import(&mut b, name, text)?,
            Format::Zed => zed::import(&mut b, name, text)?,
        }
    }
    b.finish()
}
