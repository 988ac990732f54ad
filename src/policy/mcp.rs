//! Which MCP server and tool a call is for, and whether the server's annotations may loosen
//! anything.
//!
//! The server comes from the request's `server` field when it has one; a tool name of the
//! form `mcp__<server>__<tool>` must then agree with it. Without `server`, the name alone
//! says it. A request whose server cannot be told for certain (a `server` that disagrees with
//! the name, a server name that is not a valid one) is *doubtful*: deny and ask rules are
//! matched against every reading of it, no allow rule or annotation can pass it, and it is
//! judged unanalysable.

use crate::request::{Request, ToolAnnotations};
use crate::rule::{mcp_server_problem, split_mcp_name};
use crate::tool::Level;
use crate::Risk;

use super::Policy;

/// The MCP identity of one call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum McpCall {
    /// Not an MCP call: no `server` field and no `mcp__` name.
    NotMcp,
    /// The server and the tool, certain.
    Known { server: String, tool: String },
    /// The server and tool cannot be told for certain: every way of reading the call, the
    /// first being the one shown in explanations, and why.
    Doubtful {
        readings: Vec<(String, String)>,
        why: String,
    },
}

impl McpCall {
    /// Reads the MCP identity of `request`.
    pub(crate) fn of(request: &Request) -> McpCall {
        identify(&request.tool, request.server.as_deref())
    }

    /// The reading rules see first: `(server, tool)`.
    pub(crate) fn primary(&self) -> Option<(String, String)> {
        match self {
            McpCall::NotMcp => None,
            McpCall::Known { server, tool } => Some((server.clone(), tool.clone())),
            McpCall::Doubtful { readings, .. } => readings.first().cloned(),
        }
    }

    /// The readings besides the first that deny and ask rules also look at: the other
    /// readings of a doubtful identity, and every reading in lower case (`mcp__GitHub__Delete`
    /// meets a deny rule on `mcp__github__delete_*`).
    pub(crate) fn other_readings(&self) -> Vec<(String, String)> {
        let all: &[(String, String)] = match self {
            McpCall::NotMcp => &[],
            McpCall::Known { server, tool } => {
                return lower_case(server, tool).into_iter().collect();
            }
            McpCall::Doubtful { readings, .. } => readings,
        };
        let mut out: Vec<(String, String)> = all.get(1..).unwrap_or(&[]).to_vec();
        for (server, tool) in all {
            if let Some(lower) = lower_case(server, tool) {
                if !all.contains(&lower) && !out.contains(&lower) {
                    out.push(lower);
                }
            }
        }
        out
    }

    /// Why the identity is doubtful, if it is.
    pub(crate) fn doubt(&self) -> Option<&str> {
        match self {
            McpCall::Doubtful { why, .. } => Some(why),
            _ => None,
        }
    }
}

/// `(server, tool)` in lower case, when that differs.
fn lower_case(server: &str, tool: &str) -> Option<(String, String)> {
    let already_lower = |s: &str| s.bytes().all(|b| b.is_ascii() && !b.is_ascii_uppercase());
    if already_lower(server) && already_lower(tool) {
        return None;
    }
    let lower = (server.to_lowercase(), tool.to_lowercase());
    (lower.0 != server || lower.1 != tool).then_some(lower)
}

/// The identity of a call named `name` with the `server` field `server`.
fn identify(name: &str, server: Option<&str>) -> McpCall {
    let from_name = split_mcp_name(name);
    let Some(server) = server else {
        return match from_name {
            Some((s, t)) => McpCall::Known {
                server: s.to_owned(),
                tool: t.to_owned(),
            },
            // `mcp__github` or `mcp__a__`: an MCP name that names no tool (unknown, asks).
            None => match name.strip_prefix("mcp__") {
                Some(rest) => {
                    let (s, t) = rest.split_once("__").unwrap_or((rest, ""));
                    McpCall::Known {
                        server: s.to_owned(),
                        tool: t.to_owned(),
                    }
                }
                None => McpCall::NotMcp,
            },
        };
    };
    let mut readings = vec![(server.to_owned(), tool_of(name, server).to_owned())];
    let mut push = |s: &str, t: &str| {
        if !readings.iter().any(|(rs, rt)| rs == s && rt == t) {
            readings.push((s.to_owned(), t.to_owned()));
        }
    };
    // The combined spelling an agent would show for this call, read back by the name rule.
    let combined = format!("mcp__{server}__{name}");
    if let Some((s, t)) = split_mcp_name(&combined) {
        push(s, t);
    }
    if let Some((s, t)) = from_name {
        push(s, t);
    }
    let why = if let Some(problem) = mcp_server_problem(server) {
        format!("MCP server name `{server}` {problem}")
    } else if let Some((s, _)) = from_name.filter(|(s, _)| *s != server) {
        format!("tool `{name}` names MCP server `{s}` but the call comes from server `{server}`")
    } else if name.starts_with("mcp__") && from_name.is_none() {
        format!("tool `{name}` names no tool of MCP server `{server}`")
    } else {
        return McpCall::Known {
            server: server.to_owned(),
            tool: tool_of(name, server).to_owned(),
        };
    };
    McpCall::Doubtful { readings, why }
}

/// The tool part of `name` for a call from `server`: `get_issue` for `mcp__github__get_issue`
/// from `github`, the name itself otherwise.
fn tool_of<'a>(name: &'a str, server: &str) -> &'a str {
    match split_mcp_name(name) {
        Some((s, t)) if s == server => t,
        _ => name,
    }
}

/// Checks that a request's MCP identity is certain, as a message for an
/// [`ErrorKind::InvalidRequest`](crate::ErrorKind::InvalidRequest) error.
pub(crate) fn identity_problem(request: &Request) -> Option<String> {
    // Without a `server` field the name alone says it, and is never doubtful.
    request.server.as_ref()?;
    McpCall::of(request).doubt().map(str::to_owned)
}

/// The annotations that count for a call from `server`: the request's own when the policy
/// marks the server `trusted`, the MCP specification's worst-case defaults otherwise (an
/// untrusted server's hints change nothing).
pub(crate) fn counted_annotations(
    policy: &Policy,
    server: &str,
    request: &Request,
) -> ToolAnnotations {
    if is_trusted(policy, server) {
        request.annotations.clone().unwrap_or_default()
    } else {
        ToolAnnotations::default()
    }
}

/// Whether the policy marks `server` trusted.
pub(crate) fn is_trusted(policy: &Policy, server: &str) -> bool {
    policy.mcp_servers.get(server).is_some_and(|s| s.trusted)
}

/// The default level and risk of a tool with the annotations `a` (already filtered by
/// [`counted_annotations`]): allowed only when read-only and not destructive.
pub(crate) fn level_and_risk(a: &ToolAnnotations, trusted: bool, known: bool) -> (Level, Risk) {
    let safe = a.read_only() && !a.destructive();
    let level = if safe && trusted && known {
        Level::Allow
    } else {
        Level::Prompt
    };
    let risk = if a.read_only() {
        Risk::Low
    } else if a.destructive() {
        Risk::High
    } else {
        Risk::Medium
    };
    (level, risk)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(s: &str, t: &str) -> McpCall {
        McpCall::Known {
            server: s.into(),
            tool: t.into(),
        }
    }

    #[test]
    fn name_alone() {
        assert_eq!(
            identify("mcp__github__get_x", None),
            known("github", "get_x")
        );
        assert_eq!(identify("mcp__a__b__c", None), known("a", "b__c"));
        assert_eq!(identify("mcp__github", None), known("github", ""));
        assert_eq!(identify("Read", None), McpCall::NotMcp);
    }

    #[test]
    fn server_field_decides() {
        assert_eq!(identify("lookup", Some("docs")), known("docs", "lookup"));
        assert_eq!(identify("Read", Some("web")), known("web", "Read"));
        assert_eq!(
            identify("mcp__docs__lookup", Some("docs")),
            known("docs", "lookup")
        );
    }

    #[test]
    fn disagreement_is_doubtful_with_every_reading() {
        let c = identify("mcp__github__get_x", Some("evil"));
        let McpCall::Doubtful { readings, why } = &c else {
            panic!("{c:?}");
        };
        assert!(why.contains("`github`") && why.contains("`evil`"), "{why}");
        assert!(readings.contains(&("evil".into(), "mcp__github__get_x".into())));
        assert!(readings.contains(&("github".into(), "get_x".into())));
    }

    #[test]
    fn bad_server_names_are_doubtful() {
        let c = identify("c", Some("a__b"));
        assert!(c.doubt().unwrap_or_default().contains("`__`"), "{c:?}");
        // Read as `mcp__a__b__c`, the call is tool `b__c` of server `a`: deny rules see it.
        assert!(c.other_readings().contains(&("a".into(), "b__c".into())));
        // Deny and ask rules also see the call in lower case.
        let c = identify("mcp__GitHub__Delete_Repo", None);
        assert_eq!(
            c.other_readings(),
            [("github".into(), "delete_repo".into())]
        );
        assert!(identify("mcp__github__get", None)
            .other_readings()
            .is_empty());
        assert!(identify("x", Some("a_")).doubt().is_some());
        assert!(identify("x", Some("")).doubt().is_some());
        assert!(identify("mcp__docs", Some("docs")).doubt().is_some());
    }

    #[test]
    fn untrusted_hints_do_not_lower_risk() {
        let ro = ToolAnnotations {
            read_only_hint: Some(true),
            destructive_hint: Some(false),
            ..ToolAnnotations::default()
        };
        assert_eq!(level_and_risk(&ro, true, true), (Level::Allow, Risk::Low));
        assert_eq!(level_and_risk(&ro, false, true).0, Level::Prompt);
        let worst = ToolAnnotations::default();
        assert_eq!(
            level_and_risk(&worst, false, true),
            (Level::Prompt, Risk::High)
        );
    }
}
