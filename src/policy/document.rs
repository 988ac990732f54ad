//! The policy document: the JSON shape that the CLI, the JS API and the fixtures share.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::decision::{Effect, Layer};
use crate::mode::Mode;
use crate::request::Request;
use crate::tool::ToolDefaults;

/// A policy as written. Unknown keys anywhere are errors, so a misspelt key cannot silently
/// weaken it.
///
/// ```
/// let doc: toolgate::policy::PolicyDocument = toolgate::json::from_str(
///     r#"{"permissions":{"allow":["Bash(npm test)"],"deny":["Read(./.env)"]}}"#,
///     "policy",
/// ).unwrap();
/// assert_eq!(doc.permissions.unwrap().deny, vec!["Read(./.env)"]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PolicyDocument {
    /// The mode for requests that name none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_mode: Option<Mode>,
    /// The home directory for `~` in rules and paths; inferred from the working directory
    /// (`/home/<user>`, `/Users/<user>`, `/root`) when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub home: Option<String>,
    /// The session layer's rules (a Claude Code settings file's `permissions` object fits).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permissions: Option<Permissions>,
    /// Further layers, each with its source.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub layers: Vec<LayerDocument>,
    /// Copilot CLI flags.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copilot: Option<CopilotFlags>,
    /// Per-tool defaults that replace or extend the built-in registry, keyed by tool name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub tools: BTreeMap<String, ToolDefaults>,
    /// MCP servers, keyed by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub mcp_servers: BTreeMap<String, McpServer>,
    /// Agents, keyed by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub agents: BTreeMap<String, AgentSettings>,
    /// Requests with their expected effect, checked when the policy loads.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub examples: Vec<Example>,
    /// Where imported rules came from, keyed by the rule's place in this document
    /// (`layers[0].permissions.allow[2]`, `copilot.denyTools[0]`); `toolgate explain` shows it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub provenance: BTreeMap<String, Provenance>,
}

/// Where a rule came from when it was imported from an agent's own configuration.
///
/// ```
/// let doc: toolgate::policy::PolicyDocument = toolgate::json::from_str(
///     r#"{"permissions":{"deny":["Bash(rm *)"]},
///        "provenance":{"permissions.deny[0]":{"file":"a.rules","line":3,"text":"prefix_rule(pattern=[\"rm\"])"}}}"#,
///     "policy",
/// ).unwrap();
/// assert_eq!(doc.provenance["permissions.deny[0]"].line, 3);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Provenance {
    /// The file the rule was imported from.
    pub file: String,
    /// The line in that file (1-based).
    pub line: u32,
    /// The original text, as the agent spells it.
    pub text: String,
}

/// One layer's permission rules, in the shape of a Claude Code settings `permissions` object.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Permissions {
    /// Rules that approve without asking.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub allow: Vec<String>,
    /// Rules that make a person decide.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub ask: Vec<String>,
    /// Rules that forbid.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub deny: Vec<String>,
    /// Directories that count as inside the working directory (absolute, `~/...`, or
    /// relative to the working directory).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub additional_directories: Vec<String>,
    /// The layer's default mode (used when the document has no top-level `defaultMode`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_mode: Option<Mode>,
    /// `"disable"` forbids bypass mode; honoured in the `managed` layer only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disable_bypass_permissions_mode: Option<DisableBypass>,
}

/// The only value of `disableBypassPermissionsMode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum DisableBypass {
    /// Bypass mode (and per-agent bypass) acts as `default`.
    Disable,
}

/// A layer of rules from one source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LayerDocument {
    /// Where the layer comes from (`managed`, `cli`, `local`, `project`, `user`, `session`).
    pub source: Layer,
    /// The absolute directory that `/path` rules of this layer are relative to; the working
    /// directory when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root: Option<String>,
    /// The rules.
    #[serde(default)]
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub permissions: Permissions,
    /// Managed layer only: allow rules and allow flags of every other layer are ignored
    /// (their deny and ask rules still apply, as they can only restrict).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub allow_managed_permission_rules_only: bool,
}

/// Copilot CLI's command-line flags, as policy fields.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CopilotFlags {
    /// `--allow-tool`: rules that approve.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow_tools: Vec<String>,
    /// `--deny-tool`: rules that forbid.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deny_tools: Vec<String>,
    /// `--allow-all-tools`: calls that no rule decides are allowed (fetches still need a URL
    /// permission, paths outside the working directory a path permission).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allow_all_tools: bool,
    /// `--allow-all-paths`: file calls outside the working directory do not ask for that
    /// reason.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allow_all_paths: bool,
    /// `--allow-all-urls`: fetches that no rule decides are allowed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allow_all_urls: bool,
    /// `--allow-all` / `--yolo`: the three flags above together.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allow_all: bool,
    /// `--allow-url`: URL patterns that approve fetches.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow_urls: Vec<String>,
    /// `--deny-url`: URL patterns that forbid fetches.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deny_urls: Vec<String>,
}

/// Settings for one MCP server.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct McpServer {
    /// Whether the server's read-only, non-destructive tools run without asking.
    #[serde(default)]
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub trusted: bool,
}

/// Settings for one agent.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AgentSettings {
    /// The agent runs as in `bypassPermissions` mode (unless the managed layer forbids it).
    #[serde(default)]
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub bypass_permissions: bool,
}

/// A request and the effect the policy must give it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "PolicyExample", optional_fields)
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Example {
    /// A name for messages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The request.
    pub request: Request,
    /// The expected effect.
    pub expect: Effect,
}

/// Something in a policy that loads but probably does not do what its author meant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "PolicyWarning")
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Warning {
    /// A stable code, e.g. `INERT_ALLOW_GLOB`.
    pub code: String,
    /// Where, e.g. `permissions.allow[2]`.
    pub path: String,
    /// What, for people.
    pub message: String,
}

impl Warning {
    pub(crate) fn new(code: &str, path: impl Into<String>, message: impl Into<String>) -> Self {
        Warning {
            code: code.to_owned(),
            path: path.into(),
            message: message.into(),
        }
    }
}
