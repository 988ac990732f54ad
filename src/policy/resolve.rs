//! Which tool a request is for: the policy's overrides, MCP tools (by name or `server`), the
//! built-in registry, or an unknown tool.

use crate::request::Request;
use crate::tool::{builtin, Level, ToolDefaults, ToolKind};
use crate::Risk;

use super::Policy;

/// The tool of a request, resolved against the policy's overrides, the built-in registry
/// and MCP annotations.
pub(crate) struct Tool {
    pub name: String,
    pub defaults: ToolDefaults,
    pub known: bool,
    pub mcp: Option<(String, String)>,
}

pub(crate) fn resolve_tool(policy: &Policy, request: &Request) -> Tool {
    let name = request.tool.clone();
    let mcp = match name.strip_prefix("mcp__") {
        Some(rest) => {
            let (s, t) = rest.split_once("__").unwrap_or((rest, ""));
            Some((s.to_owned(), t.to_owned()))
        }
        None => request.server.clone().map(|s| (s, name.clone())),
    };
    if let Some(d) = policy.tools.get(&name) {
        return Tool {
            name,
            defaults: *d,
            known: true,
            mcp,
        };
    }
    // A tool that comes from an MCP server is an MCP tool even when it borrows a built-in
    // name (`Read` from server `evil` must not get the built-in read's defaults).
    if let (Some(b), None) = (builtin(&name), &mcp) {
        return Tool {
            name,
            defaults: b.defaults,
            known: true,
            mcp: None,
        };
    }
    if let Some((server, tool)) = &mcp {
        let a = request.annotations.clone().unwrap_or_default();
        let trusted = policy.mcp_servers.get(server).is_some_and(|s| s.trusted);
        let safe = a.read_only() && !a.destructive();
        let known = !server.is_empty() && !tool.is_empty();
        return Tool {
            name,
            defaults: ToolDefaults {
                kind: ToolKind::Mcp,
                level: if safe && trusted && known {
                    Level::Allow
                } else {
                    Level::Prompt
                },
                risk: if a.read_only() {
                    Risk::Low
                } else if a.destructive() {
                    Risk::High
                } else {
                    Risk::Medium
                },
                trustable: known,
            },
            known,
            mcp,
        };
    }
    Tool {
        name,
        defaults: ToolDefaults {
            kind: ToolKind::Other,
            level: Level::Prompt,
            risk: Risk::High,
            trustable: false,
        },
        known: false,
        mcp: None,
    }
}
