//! Which tool a request is for: the policy's overrides, MCP tools (by name or `server`), the
//! built-in registry, or an unknown tool.

use crate::request::Request;
use crate::tool::{builtin, Level, ToolDefaults, ToolKind};
use crate::Risk;

use super::mcp::{self, McpCall};
use super::Policy;

/// The tool of a request, resolved against the policy's overrides, the built-in registry
/// and MCP annotations.
pub(crate) struct Tool {
    pub name: String,
    pub defaults: ToolDefaults,
    pub known: bool,
    pub mcp: Option<(String, String)>,
    /// The MCP identity with every reading of a doubtful one (see [`McpCall`]).
    pub identity: McpCall,
}

pub(crate) fn resolve_tool(policy: &Policy, request: &Request) -> Tool {
    let name = request.tool.clone();
    let identity = McpCall::of(request);
    let mcp = identity.primary();
    // A tool that comes from an MCP server never takes the defaults configured for a tool
    // of the same name (those are for the host's own tools).
    if let (Some(d), None) = (policy.tools.get(&name), &mcp) {
        return Tool {
            name,
            defaults: *d,
            known: true,
            mcp,
            identity,
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
            identity,
        };
    }
    if let Some((server, tool)) = &mcp {
        let a = mcp::counted_annotations(policy, server, request);
        let trusted = mcp::is_trusted(policy, server);
        let known = !server.is_empty() && !tool.is_empty() && identity.doubt().is_none();
        let (level, risk) = mcp::level_and_risk(&a, trusted, known);
        return Tool {
            name,
            defaults: ToolDefaults {
                kind: ToolKind::Mcp,
                level,
                risk,
                trustable: known,
            },
            known,
            mcp,
            identity,
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
        identity,
    }
}
