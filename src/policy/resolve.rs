//! Which tool a request is for: the policy's overrides, MCP tools (by name or `server`), the
//! built-in registry, or an unknown tool.

use crate::request::Request;
use crate::tool::{agent_tool, builtin, BuiltinTool, Level, ToolDefaults, ToolKind};
use crate::Risk;

use super::Policy;

/// The tool of a request, resolved against the policy's overrides, the built-in registry
/// and MCP annotations.
pub(crate) struct Tool {
    pub name: String,
    pub defaults: ToolDefaults,
    pub known: bool,
    pub mcp: Option<(String, String)>,
    /// The built-in tool the request names, when it is one (not an MCP tool that borrows a
    /// built-in name).
    pub builtin: Option<&'static BuiltinTool>,
}

/// The one place a request's tool is resolved: the policy's `tools` entries (which cannot
/// give a built-in name another kind: see `compile`), the built-ins, Claude Code's own tools,
/// MCP tools, or an unknown tool. The engine, the broker's cards and its checks all use
/// this result (through `Evaluate::tool_kind`).
pub(crate) fn resolve_tool(policy: &Policy, request: &Request) -> Tool {
    let name = request.tool.clone();
    let mcp = match name.strip_prefix("mcp__") {
        Some(rest) => {
            let (s, t) = rest.split_once("__").unwrap_or((rest, ""));
            Some((s.to_owned(), t.to_owned()))
        }
        None => request.server.clone().map(|s| (s, name.clone())),
    };
    let builtin_tool = builtin(&name).filter(|_| mcp.is_none());
    if let Some(d) = policy.tools.get(&name) {
        return Tool {
            name,
            defaults: *d,
            known: true,
            mcp,
            builtin: builtin_tool,
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
            builtin: Some(b),
        };
    }
    if let (Some(defaults), None) = (agent_tool(&name), &mcp) {
        return Tool {
            name,
            defaults,
            known: true,
            mcp: None,
            builtin: None,
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
            builtin: None,
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
        builtin: None,
    }
}
