//! Gemini CLI's own names for MCP tools, `mcp_<server>_<tool>` (Gemini CLI's
//! `formatMcpToolName` and `parseMcpToolName`; the older `server__tool` is deprecated there),
//! read as toolgate rules.
//!
//! Gemini matches a rule's `toolName` against a call in three ways: `mcp_*` is every MCP tool,
//! `mcp_<server>_*` every tool of exactly that server, and any other name is compared as text
//! with the call's `mcp_<server>_<tool>`. A server name may itself hold `_`, so
//! `mcp_my_server_list` is tool `server_list` of `my` as well as tool `list` of `my_server`.

use crate::decision::RuleList;
use crate::rule::Rule;

/// The prefix of Gemini CLI's MCP tool names.
pub(crate) const MCP_PREFIX: &str = "mcp_";

/// The rule for every MCP tool.
const EVERY_MCP_TOOL: &str = "mcp__*";

/// How a Gemini MCP tool name reads in a rule list.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct McpRules {
    /// The toolgate rules; empty when an allow is left out.
    pub rules: Vec<String>,
    /// Why the rules differ from the name, when they do.
    pub warning: Option<String>,
}

/// The toolgate rules for a Gemini tool name that starts with `mcp_` (and not with the
/// deprecated `__` form), or `None` for any other name.
///
/// An allow takes Gemini's own reading (the server up to the first `_`), which allows one of
/// the calls Gemini allows; a deny or ask takes every reading. A name that no toolgate rule
/// can spell (a `*` elsewhere than `mcp_*` and `mcp_<server>_*`, no `_` after the server, a
/// server name toolgate refuses) is left out of an allow and covers every MCP tool in a deny
/// or ask.
pub(crate) fn mcp_tool_rules(name: &str, list: RuleList) -> Option<McpRules> {
    let rest = name.strip_prefix(MCP_PREFIX)?;
    if rest.starts_with('_') {
        return None;
    }
    if rest == "*" && list == RuleList::Allow {
        return Some(McpRules {
            rules: Vec::new(),
            warning: Some(format!(
                "allow of every MCP tool (`{name}`) is left out: toolgate allows MCP tools \
                 server by server, so those calls ask"
            )),
        });
    }
    let readings = readings(rest, list);
    let readable: Vec<String> = readings
        .into_iter()
        .filter(|r| Rule::parse(r).is_ok())
        .collect();
    Some(match (readable.is_empty(), list) {
        (false, _) => McpRules {
            warning: (list != RuleList::Allow && readable.len() > 1).then(|| {
                format!(
                    "MCP tool `{name}` may split into server and tool at any `_`; it covers \
                     every reading: {}",
                    readable.join(", ")
                )
            }),
            rules: readable,
        },
        (true, RuleList::Allow) => McpRules {
            rules: Vec::new(),
            warning: Some(format!(
                "allow of MCP tool `{name}` names no server and tool toolgate can read; it is \
                 left out, so those calls ask"
            )),
        },
        (true, _) => McpRules {
            rules: vec![EVERY_MCP_TOOL.to_owned()],
            warning: Some(format!(
                "MCP tool `{name}` names no server and tool toolgate can read; it is widened \
                 to every MCP tool"
            )),
        },
    })
}

/// The rule names `mcp_<rest>` may stand for: `mcp_*` every MCP tool, `mcp_<server>_*` the
/// server, otherwise one `mcp__<server>__<tool>` per `_` that may end the server (only the
/// first for an allow). Empty when there is none.
fn readings(rest: &str, list: RuleList) -> Vec<String> {
    if rest == "*" {
        return vec![EVERY_MCP_TOOL.to_owned()];
    }
    if let Some(server) = rest.strip_suffix("_*") {
        return if server.is_empty() || server.contains('*') {
            Vec::new()
        } else {
            vec![format!("mcp__{server}")]
        };
    }
    if rest.contains('*') {
        return Vec::new();
    }
    let splits = rest
        .match_indices('_')
        .filter_map(|(at, _)| Some((rest.get(..at)?, rest.get(at + 1..)?)))
        .filter(|(server, tool)| !server.is_empty() && !tool.is_empty());
    let splits: Vec<(&str, &str)> = if list == RuleList::Allow {
        splits.take(1).collect()
    } else {
        splits.collect()
    };
    splits
        .into_iter()
        .map(|(server, tool)| format!("mcp__{server}__{tool}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(name: &str, list: RuleList) -> Vec<String> {
        mcp_tool_rules(name, list).unwrap().rules
    }

    #[test]
    fn gemini_mcp_names_are_read_as_gemini_matches_them() {
        use RuleList::{Allow, Ask, Deny};
        assert_eq!(
            rules("mcp_github_delete_repository", Allow),
            ["mcp__github__delete_repository"]
        );
        assert_eq!(
            rules("mcp_github_delete_repository", Deny),
            [
                "mcp__github__delete_repository",
                "mcp__github_delete__repository"
            ]
        );
        assert_eq!(rules("mcp_github_*", Allow), ["mcp__github"]);
        assert_eq!(rules("mcp_my_server_*", Deny), ["mcp__my_server"]);
        assert_eq!(rules("mcp_*", Ask), ["mcp__*"]);
        assert!(rules("mcp_*", Allow).is_empty());
        for unreadable in ["mcp_github", "mcp_git*_x", "mcp__*", "mcp_x_"] {
            let deny = mcp_tool_rules(unreadable, Deny);
            if unreadable.starts_with("mcp__") {
                assert_eq!(deny, None);
                continue;
            }
            assert_eq!(rules(unreadable, Deny), ["mcp__*"], "{unreadable}");
            let allow = mcp_tool_rules(unreadable, Allow).unwrap();
            assert!(allow.rules.is_empty() && allow.warning.is_some());
        }
        assert_eq!(mcp_tool_rules("read_file", Deny), None);
    }
}
