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
                if let Some(problem) = mcp_server_problem(server) {
                    return Err(Error::new(
                        ErrorKind::InvalidRule,
                        format!("MCP rule `{name}` names server `{server}`, which {problem}"),
                    )
                    .with_hint(SERVER_NAME_HINT));
                }
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

/// How to name an MCP server, for error hints.
pub(crate) const SERVER_NAME_HINT: &str =
    "an MCP server name must not contain `__` or end with `_`, so that `mcp__<server>__<tool>` \
     names exactly one server; rename the server in the agent's MCP configuration";

/// Why `server` cannot be an MCP server name, or `None` when it can.
///
/// A server name must be non-empty, must not contain `__` and must not end with `_`: then
/// `mcp__<server>__<tool>` splits at its first `__` after the prefix into exactly one server
/// and one tool (`mcp__a__b__c` is tool `b__c` of server `a`, never tool `c` of `a__b`).
///
/// ```
/// use toolgate::rule::mcp_server_problem;
/// assert_eq!(mcp_server_problem("github"), None);
/// assert!(mcp_server_problem("a__b").is_some());
/// assert!(mcp_server_problem("a_").is_some());
/// assert!(mcp_server_problem("").is_some());
/// ```
pub fn mcp_server_problem(server: &str) -> Option<&'static str> {
    if server.is_empty() {
        Some("is empty")
    } else if server.contains("__") {
        Some("contains `__`")
    } else if server.ends_with('_') {
        Some("ends with `_`")
    } else if server.chars().any(|c| c.is_control() || c.is_whitespace()) {
        Some("contains a space or a control character")
    } else if server.contains('*') {
        Some("contains `*`")
    } else {
        None
    }
}

/// Splits a tool name of the form `mcp__<server>__<tool>` into its server and tool, at the
/// first `__` after the prefix (server names never contain `__`). `None` for names without
/// the prefix, and for names whose server or tool part is empty.
///
/// ```
/// use toolgate::rule::split_mcp_name;
/// assert_eq!(split_mcp_name("mcp__github__get_issue"), Some(("github", "get_issue")));
/// assert_eq!(split_mcp_name("mcp__a__b__c"), Some(("a", "b__c")));
/// assert_eq!(split_mcp_name("mcp__github"), None);
/// assert_eq!(split_mcp_name("Read"), None);
/// ```
pub fn split_mcp_name(name: &str) -> Option<(&str, &str)> {
    let (server, tool) = name.strip_prefix("mcp__")?.split_once("__")?;
    (!server.is_empty() && !tool.is_empty()).then_some((server, tool))
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
        // A server ending in `_` would make `mcp__a___b` name two servers.
        for bad in ["mcp__a_", "mcp___", "mcp__gh_"] {
            let e = ToolSelector::parse(bad).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::InvalidRule, "{bad}");
            assert!(e.hint().unwrap_or_default().contains("`__`"), "{e}");
        }
        // `mcp__a__b__c` is tool `b__c` of server `a`.
        assert_eq!(
            ToolSelector::parse("mcp__a__b__c").unwrap(),
            ToolSelector::Mcp {
                name: "mcp__a__b__c".into(),
                server: "a".into(),
                tool: Some("b__c".into())
            }
        );
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
