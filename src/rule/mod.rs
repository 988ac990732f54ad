//! The rule language: `Tool` or `Tool(specifier)`, in the Claude Code and Copilot CLI
//! dialects and as plain tool-name globs.
//!
//! A [`Rule`] is parsed once, when a policy loads, and prints back (with [`Display`]) to text
//! that parses to the same rule:
//!
//! ```
//! use toolgate::rule::Rule;
//! for text in ["Bash(npm run test:*)", "Read(~/.ssh/**)", "WebFetch(domain:*.example.com)",
//!              "shell(git push)", "url(https://*.api.com)", "mcp__github__get_*",
//!              "github(create_issue)", "*_search_*"] {
//!     let rule: Rule = text.parse().unwrap();
//!     assert_eq!(rule.to_string(), text);
//!     assert_eq!(rule.to_string().parse::<Rule>().unwrap(), rule);
//! }
//! assert!("Bash(ls".parse::<Rule>().is_err());
//! ```
//!
//! [`Display`]: std::fmt::Display

mod command;
mod host;
mod path_pattern;
mod tool_name;
mod url_pattern;
mod url_target;

use std::fmt;
use std::str::FromStr;

pub use command::{CommandDialect, CommandMatch, CommandPattern};
pub(crate) use host::percent_decode;
pub use host::{host_readings, parse_ipv4, reaches_loopback};
pub use path_pattern::{Anchor, PathPattern, SegmentGlob};
pub(crate) use tool_name::SERVER_NAME_HINT;
pub use tool_name::{mcp_server_problem, split_mcp_name, star_match, ToolSelector};
pub use url_pattern::{DomainPattern, UrlPattern};
pub(crate) use url_target::default_port;
pub use url_target::{FetchTarget, RequestedUrl};

use crate::error::{Error, ErrorKind, Result};
use crate::tool::ToolKind;

/// What a rule's parenthesised part says, read according to the tool it follows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Specifier {
    /// A command pattern (shell tools).
    Command(CommandPattern),
    /// A path pattern (file tools).
    Path(PathPattern),
    /// `domain:host` (Claude Code fetch rules).
    Domain(DomainPattern),
    /// A URL pattern (Copilot CLI `url(...)`).
    Url(UrlPattern),
    /// A tool of an MCP server (Copilot CLI `ServerName(tool)`), `*` allowed.
    McpTool(String),
}

/// One parsed rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    tool: ToolSelector,
    specifier: Option<(Specifier, String)>,
}

impl Rule {
    /// Parses a rule; the same as [`str::parse`].
    pub fn parse(text: &str) -> Result<Self> {
        let text = text.trim();
        let (name, spec) = match text.find('(') {
            None => {
                if text.contains(')') {
                    return Err(invalid(text, "has `)` without `(`")
                        .with_hint("write `Tool` or `Tool(specifier)`"));
                }
                (text, None)
            }
            Some(open) => {
                let Some(inner) = text.get(open + 1..).and_then(|rest| rest.strip_suffix(')'))
                else {
                    return Err(invalid(text, "does not end with `)`")
                        .with_hint("close the specifier, e.g. `Bash(npm test)`"));
                };
                (text.get(..open).unwrap_or(""), Some(inner.trim()))
            }
        };
        let tool = ToolSelector::parse(name).map_err(|e| e.with_rule(text))?;
        let specifier = match spec {
            None => None,
            Some(spec) => {
                let parsed = parse_specifier(&tool, spec).map_err(|e| e.with_rule(text))?;
                Some((parsed, spec.to_owned()))
            }
        };
        Ok(Rule { tool, specifier })
    }

    /// The tool part.
    pub fn tool(&self) -> &ToolSelector {
        &self.tool
    }

    /// The parsed specifier, if the rule has one.
    pub fn specifier(&self) -> Option<&Specifier> {
        self.specifier.as_ref().map(|(s, _)| s)
    }

    /// Whether an allow rule of this form can approve anything: a tool-name glob that is not
    /// anchored to a literal MCP server (`*`, `mcp__*`, `*_search_*`) approves nothing.
    pub fn can_allow(&self) -> bool {
        match &self.tool {
            ToolSelector::Glob(g) => tool_name::anchored_to_server(g),
            _ => true,
        }
    }
}

fn parse_specifier(tool: &ToolSelector, spec: &str) -> Result<Specifier> {
    if spec.is_empty() {
        return Err(Error::new(ErrorKind::InvalidRule, "empty specifier `()`")
            .with_hint("drop the parentheses to match every call of the tool"));
    }
    match tool {
        ToolSelector::Builtin { name, tool } => match tool.defaults.kind {
            ToolKind::Shell => {
                let dialect = if name == "shell" {
                    CommandDialect::Copilot
                } else {
                    CommandDialect::Claude
                };
                CommandPattern::parse(spec, dialect).map(Specifier::Command)
            }
            ToolKind::Fetch => match spec.strip_prefix("domain:") {
                Some(d) => DomainPattern::parse(d).map(Specifier::Domain),
                None if name == "WebFetch" => Err(Error::new(
                    ErrorKind::InvalidRule,
                    format!("expected `domain:<host>` in `WebFetch({spec})`"),
                )
                .with_hint("write `WebFetch(domain:example.com)` or use `url(...)`")),
                None => UrlPattern::parse(spec).map(Specifier::Url),
            },
            ToolKind::Mcp | ToolKind::Other => Err(Error::new(
                ErrorKind::InvalidRule,
                format!("`{name}` takes no specifier"),
            )),
            _ => PathPattern::parse(spec).map(Specifier::Path),
        },
        ToolSelector::Mcp { name, .. } => Err(Error::new(
            ErrorKind::InvalidRule,
            format!("MCP rule `{name}` takes no specifier"),
        )
        .with_hint("name the tool in the rule instead: `mcp__server__tool`")),
        ToolSelector::Name(name) => {
            if let Some(problem) = tool_name::mcp_server_problem(name) {
                return Err(Error::new(
                    ErrorKind::InvalidRule,
                    format!(
                        "`{name}({spec})` names a tool of the MCP server `{name}`, but a server \
                         name {problem}"
                    ),
                )
                .with_hint(tool_name::SERVER_NAME_HINT));
            }
            tool_name::validate(spec, true).map_err(|e| {
                Error::new(
                    ErrorKind::InvalidRule,
                    format!(
                        "`{name}` is not a built-in tool, so `({spec})` would name a tool of the \
                         MCP server `{name}`, but {}",
                        e.message()
                    ),
                )
                .with_hint(
                    "check the spelling of the tool (`Bash`, `Read`, `Edit`, `Write`, \
                     `WebFetch`, `shell`, `read`, `write`, `url`, ...)",
                )
            })?;
            Ok(Specifier::McpTool(spec.to_owned()))
        }
        ToolSelector::Glob(g) => Err(Error::new(
            ErrorKind::InvalidRule,
            format!("tool-name glob `{g}` takes no specifier"),
        )
        .with_hint("glob rules match tool names only")),
    }
}

fn invalid(text: &str, what: &str) -> Error {
    Error::new(ErrorKind::InvalidRule, format!("rule `{text}` {what}"))
}

trait WithRule {
    fn with_rule(self, text: &str) -> Self;
}

impl WithRule for Error {
    fn with_rule(self, text: &str) -> Self {
        let mut e = Error::new(self.kind(), format!("in rule `{text}`: {}", self.message()));
        if let Some(h) = self.hint() {
            e = e.with_hint(h);
        }
        e.at(self.path())
    }
}

impl FromStr for Rule {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Rule::parse(s)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tool.as_written())?;
        if let Some((_, text)) = &self.specifier {
            write!(f, "({text})")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_and_errors() {
        for ok in [
            "Bash",
            "Bash(ls *)",
            "Bash(echo (x))",
            "Read(./.env)",
            "Edit(/src/**/*.ts)",
            "Read(//abs/path/**)",
            "Read(~/x)",
            "WebFetch(domain:example.com)",
            "mcp__server",
            "mcp__server__tool",
            "mcp__server__get_*",
            "shell",
            "shell(git:*)",
            "write(src/*.ts)",
            "read(.env)",
            "url(github.com)",
            "ServerName",
            "ServerName(tool)",
            "github-mcp:*",
            "*",
            "mcp__*",
        ] {
            let r: Rule = ok.parse().unwrap_or_else(|e| panic!("{ok}: {e}"));
            assert_eq!(r.to_string(), ok);
        }
        for bad in [
            "",
            "Bash(",
            "Bash)",
            "Bash()",
            "WebFetch(example.com)",
            "mcp__s(x)",
            "*(x)",
            "Read(../x)",
            "Ba sh",
            "url(https://exa mple.com)",
            "Secrets(./.env)",
            "mcp__a_",
            "a__b(c)",
            "srv_(tool)",
        ] {
            let e = bad.parse::<Rule>().unwrap_err();
            assert_eq!(e.code(), "INVALID_RULE", "{bad}");
        }
    }

    #[test]
    fn inert_allow_globs() {
        let can = |s: &str| s.parse::<Rule>().unwrap().can_allow();
        assert!(!can("*"));
        assert!(!can("mcp__*"));
        assert!(!can("*_search_*"));
        assert!(can("mcp__github__*"));
        assert!(can("github-mcp:*"));
        assert!(can("Bash"));
    }
}
