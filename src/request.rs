//! The request document: one tool call an agent wants to make.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::Result;
use crate::mode::Mode;

/// One tool call, as the host sees it before it runs.
///
/// The field of `input` that carries the subject follows the tool: `command` for shell tools,
/// `file_path` or `path` for file tools, `url` for fetch tools, `pattern` for glob and grep.
///
/// ```
/// let req = toolgate::Request::from_json(
///     r#"{"tool":"Bash","input":{"command":"git status"},"cwd":"/home/ada/proj"}"#,
/// ).unwrap();
/// assert_eq!(req.tool, "Bash");
/// assert_eq!(req.input_str("command"), Some("git status"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "ToolRequest", optional_fields)
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Request {
    /// The tool's name as the agent spells it (`Bash`, `shell`, `mcp__github__create_issue`).
    pub tool: String,
    /// The tool's arguments. Anything but an object is treated as unanalysable (ask).
    #[serde(default)]
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub input: Value,
    /// The working directory, absolute. Without it, path rules anchored to it cannot match and
    /// path-bearing calls ask.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// The mode for this call; the policy's `defaultMode` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
    /// The agent making the call, for per-agent bypass and the audit trail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// For MCP tools: the server's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// For MCP tools: the tool's annotations from `tools/list`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ToolAnnotations>,
    /// Resolved real paths (symlinks followed) of paths in `input`, keyed by the path as
    /// written. An allow needs both the written path and its real path to match; a deny either.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub realpaths: BTreeMap<String, String>,
}

impl Request {
    /// Parses a request document, with errors that name the bad field. A key repeated in
    /// any object (`{"command": "ls", "command": "rm -rf /"}`) is an error: the engine must
    /// judge the same call the host runs, whichever copy the host's parser would keep.
    pub fn from_json(text: &str) -> Result<Self> {
        crate::json::from_str(text, "request")
    }

    /// A string field of `input`, if `input` is an object and the field is a string.
    pub fn input_str(&self, key: &str) -> Option<&str> {
        self.input.get(key).and_then(Value::as_str)
    }
}

/// MCP tool annotations (hints), as `tools/list` reports them.
///
/// Missing hints take the MCP specification's defaults, which assume the worst: not
/// read-only, destructive, not idempotent, open-world.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations {
    /// A human-readable title for the tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The tool does not modify its environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// The tool may perform destructive updates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// Calling the tool again with the same arguments has no additional effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// The tool interacts with an open world of external entities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
}

impl ToolAnnotations {
    /// `readOnlyHint`, defaulting to `false`.
    pub fn read_only(&self) -> bool {
        self.read_only_hint.unwrap_or(false)
    }
    /// `destructiveHint`, defaulting to `true`; meaningless when read-only.
    pub fn destructive(&self) -> bool {
        self.destructive_hint.unwrap_or(true)
    }
    /// `openWorldHint`, defaulting to `true`.
    pub fn open_world(&self) -> bool {
        self.open_world_hint.unwrap_or(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    #[test]
    fn rejects_unknown_keys() {
        let e = Request::from_json(r#"{"tool":"Bash","comand":"ls"}"#).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::UnknownField);
    }

    #[test]
    fn rejects_a_key_repeated_in_the_input() {
        // Hosts disagree on which copy wins; the engine must not judge `ls` while `rm` runs.
        for text in [
            r#"{"tool":"Bash","input":{"command":"rm -rf /","command":"ls"}}"#,
            r#"{"tool":"Bash","tool":"Read","input":{}}"#,
        ] {
            let e = Request::from_json(text).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::InvalidJson, "{text}");
            assert!(e.to_string().contains("duplicate key"), "{e}");
        }
    }

    #[test]
    fn mcp_defaults_assume_the_worst() {
        let a = ToolAnnotations::default();
        assert!(!a.read_only() && a.destructive() && a.open_world());
    }
}
