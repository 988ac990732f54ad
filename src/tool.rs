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
    /// The `input` keys that carry the call's subject, in the order they are looked up.
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
    /// Its defaults.
    pub defaults: ToolDefaults,
}

const fn tool(
    name: &'static str,
    spellings: &'static [&'static str],
    kind: ToolKind,
    level: Level,
    risk: Risk,
    trustable: bool,
) -> BuiltinTool {
    BuiltinTool {
        name,
        spellings,
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
        ToolKind::Read,
        Level::Allow,
        Risk::Low,
        true,
    ),
    tool(
        "glob",
        &["glob", "Glob", "LS", "ls"],
        ToolKind::Glob,
        Level::Allow,
        Risk::Low,
        true,
    ),
    tool(
        "grep",
        &["grep", "Grep"],
        ToolKind::Grep,
        Level::Allow,
        Risk::Low,
        true,
    ),
    tool(
        "write",
        &["write", "Write", "create"],
        ToolKind::Write,
        Level::Prompt,
        Risk::Medium,
        true,
    ),
    tool(
        "edit",
        &["edit", "Edit", "MultiEdit", "NotebookEdit", "str_replace"],
        ToolKind::Edit,
        Level::Prompt,
        Risk::Medium,
        true,
    ),
    tool(
        "delete",
        &["delete", "Delete", "rm"],
        ToolKind::Delete,
        Level::Prompt,
        Risk::High,
        false,
    ),
    tool(
        "bash",
        &["bash", "Bash", "shell"],
        ToolKind::Shell,
        Level::Prompt,
        Risk::High,
        false,
    ),
    tool(
        "fetch",
        &["fetch", "WebFetch", "url", "web_fetch"],
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
    fn canonical_name_is_a_spelling() {
        for t in BUILTIN_TOOLS {
            assert!(t.spellings.contains(&t.name), "{}", t.name);
        }
    }
}
