//! The tool registry: tool definitions with JSON Schema parameters, and parameter checks.
//!
//! [`Registry::with_builtin_tools`] holds the seed design's tools (read, glob, grep, write,
//! edit, delete, bash, and fetch) with their schemas. Claude Code's spellings that take the
//! same parameters (`Read`, `Glob`, `Grep`, `Write`, `Edit`, `Bash`, `WebFetch`) resolve to
//! them; the other spellings of [`crate::tool`] (Copilot's `view`, `create`, `str_replace`,
//! `shell`, ...) take other parameter names, so they are registered as known tools whose
//! arguments need only be an object. A host registers a precise definition under any name to
//! replace that. MCP tools are registered from their `tools/list` entries.
//!
//! ```
//! use toolgate::registry::Registry;
//! use serde_json::json;
//! let reg = Registry::with_builtin_tools();
//! assert!(reg.validate("Bash", &json!({"command": "git status"})).is_ok());
//! let err = reg.validate("Bash", &json!({"cmd": "git status"})).unwrap_err();
//! assert_eq!(err.code(), "INVALID_PARAMS");
//! assert!(err.message().contains("`input.command` is required"));
//! let err = reg.validate("Bsh", &json!({})).unwrap_err();
//! assert_eq!(err.code(), "UNKNOWN_TOOL");
//! ```

mod schema;
mod seed;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use schema::Schema;

use crate::error::{Error, ErrorKind, Result};
use crate::request::ToolAnnotations;
use crate::tool::{self, ToolKind};

/// Spellings whose parameters are the seed design's, so the seed schema applies to them.
const SAME_PARAMETERS: &[(&str, &str)] = &[
    ("Read", "read"),
    ("Glob", "glob"),
    ("Grep", "grep"),
    ("Write", "write"),
    ("Edit", "edit"),
    ("Delete", "delete"),
    ("rm", "delete"),
    ("Bash", "bash"),
    ("WebFetch", "fetch"),
];

/// A tool a model may call: its name, what people see, and its parameter schema.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ToolDefinition {
    /// The name the model calls it by.
    pub name: String,
    /// The name people see (`Bash`, an MCP tool's annotation title); the name when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the tool does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The JSON Schema of its arguments (the supported subset; see [`Schema`]).
    pub parameters: Value,
    /// What kind of tool it is, which decides how approvals describe its calls.
    #[serde(default = "other_kind")]
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub kind: ToolKind,
    /// Whether a person may trust it wholesale ("allow this tool for the session").
    #[serde(default)]
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub trustable: bool,
    /// For MCP tools, the server's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// For MCP tools, the annotations from `tools/list`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ToolAnnotations>,
}

fn other_kind() -> ToolKind {
    ToolKind::Other
}

impl ToolDefinition {
    /// The name people see.
    pub fn display_title(&self) -> &str {
        self.title.as_deref().unwrap_or(&self.name)
    }
}

/// A tool as an MCP server lists it in `tools/list`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct McpTool {
    /// The tool's name on its server.
    pub name: String,
    /// Its title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Its description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The JSON Schema of its arguments.
    pub input_schema: Value,
    /// Its hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ToolAnnotations>,
}

#[derive(Clone, Debug)]
struct Entry {
    definition: ToolDefinition,
    schema: Schema,
}

/// Registered tools by name.
#[derive(Clone, Debug, Default)]
pub struct Registry {
    tools: BTreeMap<String, Entry>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Registry::default()
    }

    /// A registry with the built-in tools and every spelling of them.
    pub fn with_builtin_tools() -> Self {
        let mut reg = Registry::new();
        let mut add = |def: ToolDefinition| {
            // The built-in schemas are constants covered by tests; a failure here would be a
            // bug, and skipping the tool fails closed (it becomes unknown).
            if let Ok(schema) = Schema::compile(&def.parameters, "parameters") {
                reg.tools.insert(
                    def.name.clone(),
                    Entry {
                        definition: def,
                        schema,
                    },
                );
            }
        };
        for s in seed::SEED_TOOLS {
            let trustable = tool::builtin(s.name).is_some_and(|b| b.defaults.trustable);
            let def = |name: &str, title: &str, parameters: Value| ToolDefinition {
                name: name.to_owned(),
                title: Some(title.to_owned()),
                description: Some(s.description.to_owned()),
                parameters,
                kind: s.kind,
                trustable,
                server: None,
                annotations: None,
            };
            add(def(s.name, s.title, (s.parameters)()));
            for (alias, _) in SAME_PARAMETERS.iter().filter(|(_, c)| *c == s.name) {
                add(def(alias, s.title, (s.parameters)()));
            }
            let others = tool::builtin(s.name).map_or(&[][..], |b| b.spellings);
            for spelling in others {
                let same = SAME_PARAMETERS.iter().any(|(a, _)| a == spelling);
                if *spelling != s.name && !same {
                    let parameters = seed::OTHER_SPELLINGS
                        .iter()
                        .find(|(n, _)| n == spelling)
                        .map_or_else(|| serde_json::json!({"type": "object"}), |(_, p)| p());
                    add(def(spelling, spelling, parameters));
                }
            }
        }
        for (name, defaults) in tool::AGENT_TOOLS {
            add(ToolDefinition {
                name: (*name).to_owned(),
                title: Some((*name).to_owned()),
                description: None,
                parameters: seed::agent_tool_parameters(),
                kind: defaults.kind,
                trustable: defaults.trustable,
                server: None,
                annotations: None,
            });
        }
        reg
    }

    /// Registers (or replaces) a tool. The schema must compile: anything toolgate cannot
    /// enforce is an `INVALID_SCHEMA` error and nothing is registered.
    pub fn register(&mut self, definition: ToolDefinition) -> Result<()> {
        if definition.name.trim().is_empty() {
            return Err(
                Error::new(ErrorKind::InvalidRequest, "a tool needs a non-empty name")
                    .at("name")
                    .with_hint("set `name` to the name the model calls the tool by"),
            );
        }
        if let Some(b) = tool::builtin(&definition.name)
            .filter(|b| b.defaults.kind != definition.kind && definition.server.is_none())
        {
            return Err(Error::new(
                ErrorKind::InvalidRequest,
                format!(
                    "`{}` is a built-in tool of kind `{:?}` and cannot be registered with kind \
                     `{:?}`",
                    definition.name, b.defaults.kind, definition.kind
                ),
            )
            .at("kind")
            .with_hint("keep the built-in kind, or register the tool under another name"));
        }
        let schema = Schema::compile(&definition.parameters, "parameters")?;
        self.tools
            .insert(definition.name.clone(), Entry { definition, schema });
        Ok(())
    }

    /// Registers an MCP server's tool as `mcp__<server>__<name>` and returns that name.
    ///
    /// Annotations are hints that the MCP specification tells clients to distrust unless
    /// the server is trusted: only for a `trusted` server may they loosen anything. The tool
    /// may then be trusted wholesale when its annotations say it is read-only or not
    /// destructive (missing hints assume the worst); tools of other servers never are.
    pub fn register_mcp(&mut self, server: &str, trusted: bool, tool: McpTool) -> Result<String> {
        if let Some(problem) = crate::rule::mcp_server_problem(server) {
            return Err(Error::new(
                ErrorKind::InvalidRequest,
                format!("MCP server name `{server}` {problem}"),
            )
            .at("server")
            .with_hint(crate::rule::SERVER_NAME_HINT));
        }
        let name = format!("mcp__{server}__{}", tool.name);
        let annotations = tool.annotations.unwrap_or_default();
        let trustable = trusted && (annotations.read_only() || !annotations.destructive());
        let title = tool.title.or_else(|| annotations.title.clone());
        self.register(ToolDefinition {
            name: name.clone(),
            title,
            description: tool.description,
            parameters: tool.input_schema,
            kind: ToolKind::Mcp,
            trustable,
            server: Some(server.to_owned()),
            annotations: Some(annotations),
        })
        .map_err(|e| e.within(&format!("tools.{}", tool.name)))?;
        Ok(name)
    }

    /// Removes a tool; returns whether it was registered.
    pub fn unregister(&mut self, name: &str) -> bool {
        self.tools.remove(name).is_some()
    }

    /// The definition registered under `name`.
    pub fn get(&self, name: &str) -> Option<&ToolDefinition> {
        self.tools.get(name).map(|e| &e.definition)
    }

    /// Every registered name, sorted.
    pub fn names(&self) -> Vec<String> {
        self.tools.keys().cloned().collect()
    }

    /// Whether `name` may be trusted wholesale (a grant of the bare tool name).
    /// Unregistered tools may not.
    pub fn trustable_by_default(&self, name: &str) -> bool {
        self.get(name).is_some_and(|d| d.trustable)
    }

    /// Checks a call's arguments: `UNKNOWN_TOOL` (listing the registered tools) or
    /// `INVALID_PARAMS` (saying which argument and why).
    pub fn validate(&self, name: &str, input: &Value) -> Result<()> {
        let Some(entry) = self.tools.get(name) else {
            return Err(self.unknown(name));
        };
        entry.schema.validate(input, "input")
    }

    fn unknown(&self, name: &str) -> Error {
        Error::new(
            ErrorKind::UnknownTool,
            format!(
                "unknown tool `{name}`; available tools: {}",
                self.names().join(", ")
            ),
        )
        .at("tool")
        .with_hint("call one of the available tools, or register this one first")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn seed_tools_validate_their_arguments() {
        let reg = Registry::with_builtin_tools();
        let ok = [
            (
                "read",
                json!({"file_path": "a.rs", "offset": 0, "limit": 10}),
            ),
            ("glob", json!({"pattern": "**/*.rs", "path": "src"})),
            ("grep", json!({"pattern": "fn", "include": "*.rs"})),
            ("write", json!({"file_path": "a.rs", "content": ""})),
            (
                "edit",
                json!({"file_path": "a", "old_string": "x", "new_string": "y"}),
            ),
            ("delete", json!({"file_path": "a"})),
            (
                "bash",
                json!({"command": "ls", "timeout": 1000, "description": "list"}),
            ),
            ("Bash", json!({"command": "ls"})),
            ("shell", json!({"command": "ls"})),
            ("view", json!({"path": "a.rs"})),
            (
                "WebFetch",
                json!({"url": "https://example.com", "prompt": "summarise"}),
            ),
        ];
        for (tool, input) in ok {
            reg.validate(tool, &input)
                .unwrap_or_else(|e| panic!("{tool}: {e}"));
        }
        let bad = [
            ("read", json!({"file_path": "a", "limit": 0})),
            ("write", json!({"file_path": "a"})),
            (
                "edit",
                json!({"file_path": "a", "old_string": "x", "new_string": 1}),
            ),
            ("delete", json!({"path": "a"})),
            ("bash", json!({"command": ""})),
            ("glob", json!("*.rs")),
            ("view", json!("a.rs")),
        ];
        for (tool, input) in bad {
            let e = reg.validate(tool, &input).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::InvalidParams, "{tool} {input}");
        }
    }

    #[test]
    fn every_builtin_spelling_is_registered() {
        let reg = Registry::with_builtin_tools();
        for b in tool::BUILTIN_TOOLS {
            for s in b.spellings {
                let def = reg.get(s).unwrap_or_else(|| panic!("{s}"));
                assert_eq!(def.trustable, b.defaults.trustable, "{s}");
                assert_eq!(def.kind, b.defaults.kind, "{s}");
            }
        }
    }

    #[test]
    fn the_engine_knows_every_parameter_of_every_spelling() {
        // The engine refuses to analyse a file call with a key outside `parameters`; every
        // key a registered schema accepts must be in it, or valid calls would ask.
        let reg = Registry::with_builtin_tools();
        for b in tool::BUILTIN_TOOLS {
            for s in b.spellings {
                let def = reg.get(s).unwrap_or_else(|| panic!("{s}"));
                let props = def.parameters.get("properties").and_then(Value::as_object);
                for key in props.into_iter().flat_map(|p| p.keys()) {
                    assert!(b.parameters.contains(&key.as_str()), "{s}: `{key}`");
                }
            }
        }
    }

    #[test]
    fn a_builtin_name_keeps_its_kind() {
        let mut reg = Registry::with_builtin_tools();
        let e = reg
            .register(ToolDefinition {
                name: "Bash".into(),
                title: None,
                description: None,
                parameters: json!({"type": "object"}),
                kind: ToolKind::Read,
                trustable: true,
                server: None,
                annotations: None,
            })
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidRequest);
        assert_eq!(reg.get("Bash").unwrap().kind, ToolKind::Shell);
    }

    #[test]
    fn unknown_tool_lists_the_available_ones() {
        let e = Registry::with_builtin_tools()
            .validate("Bsh", &json!({}))
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::UnknownTool);
        assert!(
            e.message().contains("Bash, BashOutput, Delete, Edit"),
            "{e}"
        );
    }

    #[test]
    fn mcp_tools_register_with_annotations() {
        let mut reg = Registry::new();
        let tool: McpTool = serde_json::from_value(json!({
            "name": "create_issue",
            "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}},
                "required": ["title"]},
            "annotations": {"title": "Create issue", "destructiveHint": false}
        }))
        .unwrap();
        let name = reg.register_mcp("github", true, tool).unwrap();
        assert_eq!(name, "mcp__github__create_issue");
        let def = reg.get(&name).unwrap();
        assert_eq!(def.display_title(), "Create issue");
        assert!(def.trustable);
        assert!(reg.validate(&name, &json!({"title": "x"})).is_ok());
        assert!(reg.validate(&name, &json!({})).is_err());

        let risky: McpTool = serde_json::from_value(json!({
            "name": "drop_table", "inputSchema": {"type": "object"}
        }))
        .unwrap();
        let name = reg.register_mcp("db", true, risky).unwrap();
        assert!(!reg.trustable_by_default(&name));

        let hinted: McpTool = serde_json::from_value(json!({
            "name": "read", "inputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": true}
        }))
        .unwrap();
        let name = reg.register_mcp("untrusted", false, hinted).unwrap();
        assert!(
            !reg.trustable_by_default(&name),
            "untrusted hints loosen nothing"
        );

        // A server name that would make `mcp__a__b__c` ambiguous is refused.
        for server in ["a__b", "a_", ""] {
            let t: McpTool =
                serde_json::from_value(json!({"name": "c", "inputSchema": {"type": "object"}}))
                    .unwrap();
            let e = reg.register_mcp(server, true, t).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::InvalidRequest, "{server}");
        }
    }

    #[test]
    fn unenforceable_schemas_are_refused() {
        let mut reg = Registry::new();
        let tool: McpTool = serde_json::from_value(json!({
            "name": "x", "inputSchema": {"type": "object",
                "properties": {"id": {"type": "string", "pattern": "^[0-9]+$"}}}
        }))
        .unwrap();
        let e = reg.register_mcp("s", true, tool).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidSchema);
        assert_eq!(e.path(), "tools.x.parameters.properties.id.pattern");
        assert!(reg.names().is_empty());
    }
}
