//! The tool part of a rule: a built-in tool in any spelling, an MCP server or tool, a
//! literal name (a Copilot CLI server, or another host's tool), or a tool-name glob.

use crate::error::{Error, ErrorKind, Result};
use crate::tool::{builtin, BuiltinTool, ToolKind};

/// Which tools a rule is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToolSelector {
    /// A built-in tool in one of its spellings (`Bash`, `shell`, `Read`, `write`).
    Builtin {
        /// The spelling as written, which also picks the dialect of the specifier.
        name: String,
        /// The tool.
        tool: &'static BuiltinTool,
    },
    /// `mcp__server` (every tool of the server) or `mcp__server__tool` (`*` allowed in the
    /// tool part).
    Mcp {
        /// The rule's tool part as written.
        name: String,
        /// The server, literal.
        server: String,
        /// The tool pattern, or `None` for every tool of the server.
        tool: Option<String>,
    },
    /// A literal name: a tool with that name, or every tool of the MCP server with that name
    /// (Copilot CLI's `ServerName`).
    Name(String),
    /// A glob over tool names (`*_search_*`, `github-mcp:*`, `mcp__*`); `*` is the only
    /// wildcard.
    Glob(String),
}

impl ToolSelector {
    /// Parses the tool part of a rule.
    pub fn parse(name: &str) -> Result<Self> {
        validate(name, false)?;
        if let Some(tool) = builtin(name) {
            return Ok(ToolSelector::Builtin {
                name: name.to_owned(),
                tool,
            });
        }
        if let Some(rest) = name.strip_prefix("mcp__") {
            let (server, tool) = match rest.split_once("__") {
                Some((s, t)) => (s, Some(t)),
                None => (rest, None),
            };
            if !server.is_empty() && !server.contains('*') {
                if tool == Some("") {
                    return Err(Error::new(
                        ErrorKind::InvalidRule,
                        format!("MCP rule `{name}` ends with `__` but names no tool"),
                    )
                    .with_hint(format!(
                        "write `mcp__{server}` for every tool of the server"
                    )));
                }
                return Ok(ToolSelector::Mcp {
                    name: name.to_owned(),
                    server: server.to_owned(),
                    tool: tool.map(str::to_owned),
                });
            }
        }
        if name.contains('*') {
            Ok(ToolSelector::Glob(name.to_owned()))
        } else {
            Ok(ToolSelector::Name(name.to_owned()))
        }
    }

    /// The tool part as written.
    pub fn as_written(&self) -> &str {
        match self {
            ToolSelector::Builtin { name, .. }
            | ToolSelector::Mcp { name, .. }
            | ToolSelector::Name(name)
            | ToolSelector::Glob(name) => name,
        }
    }

    /// For built-in selectors, the kinds of call the rule covers: Read rules also cover the
    /// reads of Glob and Grep; Write and Edit rules cover both writes and edits, and in deny
    /// and ask lists deletes too.
    pub fn covered_kinds(&self, restrictive: bool) -> &'static [ToolKind] {
        let ToolSelector::Builtin { tool, .. } = self else {
            return &[];
        };
        match tool.defaults.kind {
            ToolKind::Read => &[ToolKind::Read, ToolKind::Glob, ToolKind::Grep],
            ToolKind::Write | ToolKind::Edit if restrictive => {
                &[ToolKind::Write, ToolKind::Edit, ToolKind::Delete]
            }
            ToolKind::Write | ToolKind::Edit => &[ToolKind::Write, ToolKind::Edit],
            ToolKind::Glob => &[ToolKind::Glob],
            ToolKind::Grep => &[ToolKind::Grep],
            ToolKind::Delete => &[ToolKind::Delete],
            ToolKind::Shell => &[ToolKind::Shell],
            ToolKind::Fetch => &[ToolKind::Fetch],
            ToolKind::Mcp => &[ToolKind::Mcp],
            ToolKind::Other => &[ToolKind::Other],
        }
    }
}

/// Checks the characters of a tool name or an MCP tool pattern.
pub(crate) fn validate(name: &str, in_specifier: bool) -> Result<()> {
    let what = if in_specifier { "tool" } else { "tool name" };
    if name.is_empty() {
        return Err(Error::new(ErrorKind::InvalidRule, format!("empty {what}"))
            .with_hint("start the rule with a tool name, e.g. `Bash` or `Read(./.env)`"));
    }
    // MCP tool names are letters, digits, `_`, `-` and `.`; other hosts' tool names may
    // also use `:`, `/` and `@`.
    let allowed = |c: char| {
        c.is_alphanumeric()
            || matches!(c, '_' | '-' | '.' | '*')
            || (!in_specifier && matches!(c, ':' | '/' | '@'))
    };
    if let Some(c) = name.chars().find(|c| !allowed(*c)) {
        let hint = if in_specifier {
            "an MCP tool name uses letters, digits and `_-.`; `*` is the only wildcard"
        } else {
            "tool names use letters, digits and `_-.:/@`; `*` is the only wildcard"
        };
        return Err(Error::new(
            ErrorKind::InvalidRule,
            format!("{what} `{name}` contains `{c}`"),
        )
        .with_hint(hint));
    }
    Ok(())
}

/// Whether a tool-name glob is anchored to a literal MCP server: `mcp__server__*` or
/// `server:*`, with no `*` before the separator.
pub(crate) fn anchored_to_server(glob: &str) -> bool {
    let literal = glob.split('*').next().unwrap_or("");
    if let Some(rest) = literal.strip_prefix("mcp__") {
        return rest.find("__").is_some_and(|i| i > 0);
    }
    literal.find(':').is_some_and(|i| i > 0)
}

/// Matches `text` against a pattern whose only wildcard is `*` (any run of characters).
///
/// ```
/// use toolgate::rule::star_match;
/// assert!(star_match("*_search_*", "github_search_issues"));
/// assert!(star_match("get_*", "get_"));
/// assert!(!star_match("get_*", "list_x"));
/// ```
pub fn star_match(pattern: &str, text: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for m in middle {
        match rest.find(m) {
            Some(i) => rest = rest.get(i + m.len()..).unwrap_or(""),
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors() {
        assert!(matches!(
            ToolSelector::parse("Bash").unwrap(),
            ToolSelector::Builtin { .. }
        ));
        assert!(matches!(
            ToolSelector::parse("mcp__gh__get_*").unwrap(),
            ToolSelector::Mcp { tool: Some(_), .. }
        ));
        assert!(matches!(
            ToolSelector::parse("mcp__*").unwrap(),
            ToolSelector::Glob(_)
        ));
        assert!(ToolSelector::parse("mcp__gh__").is_err());
        assert!(ToolSelector::parse("a b").is_err());
    }

    #[test]
    fn star_matching() {
        assert!(star_match("*", ""));
        assert!(star_match("a*b*c", "aXbYc"));
        assert!(!star_match("a*b*c", "aXbY"));
        assert!(!star_match("ab*ba", "aba"));
    }
}
