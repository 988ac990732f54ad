//! Which tool a request is for: the policy's overrides, MCP tools (by name or `server`), the
//! built-in registry, or an unknown tool.

use crate::request::Request;
use crate::tool::{
    agent_tool, builtin, has_claude_tools, BuiltinTool, Level, ToolDefaults, ToolKind,
};
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
    let identity = McpCall::of(request);
    let mcp = identity.primary();
    let builtin_tool = builtin(&name).filter(|_| mcp.is_none());
    // A tool that comes from an MCP server never takes the defaults configured for a tool
    // of the same name (those are for the host's own tools).
    if let (Some(d), None) = (policy.tools.get(&name), &mcp) {
        return Tool {
            name,
            defaults: *d,
            known: true,
            mcp,
            identity,
            builtin: builtin_tool,
        };
    }
    // A tool that comes from an MCP server is an MCP tool even when it borrows a built-in
    // name (`Read` from server `evil` must not get the built-in read's defaults).
    if let Some(b) = builtin_tool {
        return Tool {
            name,
            defaults: b.defaults,
            known: true,
            mcp: None,
            identity,
            builtin: Some(b),
        };
    }
    // Claude Code's own tools, for Claude Code only: another agent's `Task` is its own tool,
    // an extension's or an MCP server's.
    let claude_tool = agent_tool(&name).filter(|_| has_claude_tools(request.agent.as_deref()));
    if let (Some(defaults), None) = (claude_tool, &mcp) {
        return Tool {
            name,
            defaults,
            known: true,
            mcp: None,
            identity,
            builtin: None,
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
        identity,
        builtin: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolved(tool: &str, agent: Option<&str>) -> Tool {
        let policy = Policy::from_json("{}").unwrap();
        let request = Request {
            tool: tool.into(),
            input: serde_json::json!({"sql": "DROP TABLE users"}),
            agent: agent.map(str::to_owned),
            ..Request::default()
        };
        resolve_tool(&policy, &request)
    }

    #[test]
    fn claude_codes_own_tools_are_claude_codes_only() {
        for tool in ["Task", "TodoWrite", "BashOutput"] {
            for agent in [None, Some("claude"), Some("claude-agent-sdk")] {
                let t = resolved(tool, agent);
                assert!(
                    t.known && t.defaults.level == Level::Allow,
                    "{tool} {agent:?}"
                );
            }
            for agent in ["gemini", "copilot", "cursor", "codex", "my-host"] {
                let t = resolved(tool, Some(agent));
                assert!(!t.known, "{tool} {agent}");
                assert_eq!(t.defaults.level, Level::Prompt, "{tool} {agent}");
                assert_eq!(t.defaults.kind, ToolKind::Other, "{tool} {agent}");
            }
        }
        // The built-ins are every agent's.
        assert_eq!(
            resolved("Bash", Some("gemini")).defaults.kind,
            ToolKind::Shell
        );
    }
}
