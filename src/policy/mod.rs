//! The policy evaluator: a [`PolicyDocument`] compiled once into an immutable [`Policy`] that
//! turns each [`Request`] into a [`Decision`].
//!
//! Rules are checked class by class across every layer: **deny, then ask, then allow**; the
//! first class with a matching rule decides, and specificity never reorders classes. Then
//! protected paths, the mode and the tool's defaults.
//!
//! ```
//! use toolgate::{Effect, Policy, Request};
//! let policy = Policy::from_json(r#"{
//!     "permissions": {
//!         "allow": ["Bash(cargo test:*)", "Edit(/src/**)"],
//!         "deny": ["Read(./.env)", "Bash(curl *)"]
//!     }
//! }"#).unwrap();
//! let req = |json: &str| Request::from_json(json).unwrap();
//! let d = policy.evaluate(&req(
//!     r#"{"tool":"Bash","input":{"command":"cargo test -- --nocapture"},"cwd":"/p"}"#));
//! assert_eq!(d.effect, Effect::Allow);
//! let d = policy.evaluate(&req(r#"{"tool":"Read","input":{"file_path":".env"},"cwd":"/p"}"#));
//! assert_eq!(d.effect, Effect::Deny);
//! let d = policy.evaluate(&req(r#"{"tool":"Write","input":{"file_path":"/p/x"},"cwd":"/p"}"#));
//! assert_eq!(d.effect, Effect::Ask);
//! ```

mod compile;
mod dangers;
mod decide;
mod document;
mod evaluate;
mod explain;
mod globs;
mod index;
mod literals;
pub(crate) mod mcp;
mod protected;
mod resolve;
mod secrets;
mod settle;
mod shell_view;
mod trust;

use std::collections::BTreeMap;

pub use document::{
    AgentSettings, CopilotFlags, DisableBypass, Example, LayerDocument, McpServer, Permissions,
    PolicyDocument, Provenance, Warning,
};
pub(crate) use evaluate::expand_braces;
pub use explain::{ConsultedRule, Explanation};
pub(crate) use protected::is_protected_reach;
pub use protected::{is_protected, is_protected_from, is_protected_in, pattern_names_protected};
pub use secrets::{glob_secret_example, is_secret, secret_kind, secret_patterns};

use crate::decision::{Decision, Evaluate, Layer, RuleList, TrustOverlay};
use crate::error::{Error, ErrorKind, Result};
use crate::mode::Mode;
use crate::request::Request;
use crate::rule::Rule;
use crate::tool::ToolDefaults;

use index::ClassIndex;

/// One rule of the policy, with where it came from.
pub(crate) struct Entry {
    pub rule: Rule,
    pub text: String,
    pub list: RuleList,
    pub layer: Layer,
    pub index: usize,
    /// For Copilot flags, the flag name with its index (`denyTools[0]`).
    pub flag: Option<String>,
    pub root: Option<String>,
    /// Where in the document (`layers[1].permissions.deny[0]`).
    pub path: String,
    /// False for rules that are kept for explanations but never match (inert allow globs,
    /// allow rules outside a managed-only policy).
    pub active: bool,
}

/// Copilot CLI's allow-all flags.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Flags {
    pub allow_all_tools: bool,
    pub allow_all_paths: bool,
    pub allow_all_urls: bool,
}

/// A compiled, immutable policy. Cheap to share and to evaluate; build it once per policy
/// document.
pub struct Policy {
    entries: Vec<Entry>,
    deny: ClassIndex,
    ask: ClassIndex,
    allow: ClassIndex,
    default_mode: Mode,
    home: Option<String>,
    /// Deny and ask rules' literal starts that a host found to lead elsewhere through a
    /// link, each as (written, real path): see [`Policy::add_rule_realpaths`].
    rule_links: Vec<(String, String)>,
    additional: Vec<String>,
    flags: Flags,
    bypass_disabled: bool,
    managed_only: bool,
    /// Whether allow path rules compare case-sensitively (`caseSensitive`).
    case_sensitive: bool,
    tools: BTreeMap<String, ToolDefaults>,
    mcp_servers: BTreeMap<String, McpServer>,
    agents: BTreeMap<String, AgentSettings>,
    warnings: Vec<Warning>,
    examples: Vec<Example>,
    provenance: BTreeMap<String, Provenance>,
    /// Rules naming danger classes (`Danger(publish)`), in precedence order.
    danger_rules: Vec<dangers::DangerRule>,
}

impl std::fmt::Debug for Policy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Policy")
            .field("rules", &self.entries.len())
            .field("default_mode", &self.default_mode)
            .field("warnings", &self.warnings)
            .finish_non_exhaustive()
    }
}

/// The result of checking one example of a policy.
#[derive(Clone, Debug, PartialEq)]
pub struct ExampleResult {
    /// The example's name, or `examples[i]`.
    pub name: String,
    /// What it expected.
    pub expect: crate::Effect,
    /// What the policy decided.
    pub decision: Decision,
}

impl ExampleResult {
    /// Whether the decision's effect is the expected one.
    pub fn passed(&self) -> bool {
        self.decision.effect == self.expect
    }
}

impl Policy {
    /// Parses and compiles a policy document, then checks its examples.
    ///
    /// Errors name the bad value's path: a rule that does not parse
    /// (`INVALID_RULE` at `permissions.allow[2]`), an unknown key (`UNKNOWN_FIELD`), a
    /// failing example (`EXAMPLE_FAILED` at `examples[0]`).
    ///
    /// ```
    /// let err = toolgate::Policy::from_json(r#"{"permissions":{"deny":["Bash(rm"]}}"#)
    ///     .unwrap_err();
    /// assert_eq!(err.code(), "INVALID_RULE");
    /// assert_eq!(err.path(), "permissions.deny[0]");
    /// ```
    pub fn from_json(text: &str) -> Result<Policy> {
        Policy::from_document(crate::json::from_str(text, "policy")?)
    }

    /// Compiles a policy document, then checks its examples.
    pub fn from_document(doc: PolicyDocument) -> Result<Policy> {
        let policy = compile::compile(doc)?;
        for r in policy.run_examples() {
            if !r.passed() {
                return Err(Error::new(
                    ErrorKind::ExampleFailed,
                    format!(
                        "example `{}` expected {} but got {}: {}",
                        r.name,
                        r.expect.as_str(),
                        r.decision.effect.as_str(),
                        r.decision.reason.text
                    ),
                )
                .at(example_path(&policy.examples, &r.name))
                .with_hint("fix the rules, or the example's `expect` if the policy is right"));
            }
        }
        Ok(policy)
    }

    /// Compiles a policy document without checking its examples (for tools that report
    /// every example, such as `toolgate test`).
    pub fn compile_unchecked(doc: PolicyDocument) -> Result<Policy> {
        compile::compile(doc)
    }

    /// Runs the policy's examples and returns each result.
    pub fn run_examples(&self) -> Vec<ExampleResult> {
        self.examples
            .iter()
            .enumerate()
            .map(|(i, ex)| ExampleResult {
                name: ex.name.clone().unwrap_or_else(|| format!("examples[{i}]")),
                expect: ex.expect,
                decision: self.evaluate(&ex.request),
            })
            .collect()
    }

    /// Things in the document that load but probably do not do what was meant.
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// Where the rule at `path` (`layers[0].permissions.allow[2]`) was imported from.
    pub fn provenance(&self, path: &str) -> Option<&Provenance> {
        self.provenance.get(path)
    }

    /// Records where the deny and ask path rules on a known place really lead, for a host
    /// that can see the file system; call it once after loading the policy. Each rule's
    /// literal start (the path before its first wildcard: `//tmp/lp/src/**` starts at
    /// `/tmp/lp/src`; a layer's `/secrets/**` below the layer's root; `~/notes/**` below the
    /// policy's `home`) is resolved through its longest existing prefix, as
    /// [`Request::add_realpaths`] resolves a request's paths. Where a link leads it
    /// elsewhere, the rule meets the file under either spelling: the agent's working
    /// directory is its physical path, so a rule written through a link would otherwise miss
    /// `cat notes.txt`. Allow rules stay as written. Rules relative to the working directory
    /// are not resolved here: [`Policy::add_rule_realpaths_for`] places them at the calls'
    /// project.
    ///
    /// `realpath` resolves an absolute path on the host (symlinks followed), `None` when it
    /// cannot.
    ///
    /// ```
    /// use toolgate::{Effect, Policy, Request};
    /// // `/tmp/lp` is a link to `/tmp/p`, where the agent works.
    /// let mut policy =
    ///     Policy::from_json(r#"{"permissions":{"deny":["Read(//tmp/lp/notes.txt)"]}}"#).unwrap();
    /// policy.add_rule_realpaths(|p| {
    ///     p.strip_prefix("/tmp/lp").map(|rest| format!("/tmp/p{rest}"))
    /// });
    /// let read = Request::from_json(
    ///     r#"{"tool":"Read","input":{"file_path":"/tmp/p/notes.txt"},"cwd":"/tmp/p"}"#,
    /// )
    /// .unwrap();
    /// assert_eq!(policy.evaluate(&read).effect, Effect::Deny);
    /// ```
    pub fn add_rule_realpaths(&mut self, realpath: impl Fn(&str) -> Option<String>) {
        self.rule_links = evaluate::rule_links(self, &realpath, &[], None);
    }

    /// [`Policy::add_rule_realpaths`] for a host that decides the calls `requests` and
    /// nothing else (a hook process, `toolgate check`): the deny and ask rules relative to
    /// the working directory (`./secrets/**`, `secrets/**`, a bare name such as `vault`) are
    /// also resolved, each placed where the request anchors them (its `root`, else its
    /// `cwd`), so that `Read(./alias/**)`, with `alias` a link to `real` in the project,
    /// meets `cat real/k.txt`. A relative rule or a bare name is resolved at the anchor
    /// itself, not at the other depths it matches at. Where a rule's wildcard part follows
    /// its literal start (`**/alias/**`, `./a*/k.txt`, `~/.config/*/hosts.yml`), the links
    /// directly in that start are resolved too (`list` gives its names: see
    /// [`Request::add_realpaths_listing`]), at most 10,000 names (as a search looks at)
    /// over the policy; a link deeper below the wildcard is not followed. Allow rules stay
    /// as written. Call it again (it replaces what an earlier call recorded) before deciding
    /// calls anchored elsewhere.
    ///
    /// ```
    /// use toolgate::{Effect, Policy, Request};
    /// // In the project `/tmp/p`, `alias` is a link to `real`.
    /// let mut policy =
    ///     Policy::from_json(r#"{"permissions":{"deny":["Read(./alias/**)"]}}"#).unwrap();
    /// let read = Request::from_json(
    ///     r#"{"tool":"Read","input":{"file_path":"/tmp/p/real/k.txt"},"cwd":"/tmp/p"}"#,
    /// )
    /// .unwrap();
    /// let realpath = |p: &str| Some(p.replacen("/tmp/p/alias", "/tmp/p/real", 1));
    /// let list = |dir: &str| Some(match dir {
    ///     "/tmp/p" => vec!["alias".to_owned(), "real".to_owned()],
    ///     _ => Vec::new(),
    /// });
    /// policy.add_rule_realpaths_for(std::slice::from_ref(&read), realpath, list);
    /// assert_eq!(policy.evaluate(&read).effect, Effect::Deny);
    /// // A link right below a wildcard's literal start is followed too.
    /// let mut policy =
    ///     Policy::from_json(r#"{"permissions":{"deny":["Read(**/alias/**)"]}}"#).unwrap();
    /// policy.add_rule_realpaths_for(std::slice::from_ref(&read), realpath, list);
    /// assert_eq!(policy.evaluate(&read).effect, Effect::Deny);
    /// ```
    pub fn add_rule_realpaths_for(
        &mut self,
        requests: &[Request],
        realpath: impl Fn(&str) -> Option<String>,
        list: impl Fn(&str) -> Option<Vec<String>>,
    ) {
        self.rule_links = evaluate::rule_links(self, &realpath, requests, Some(&list));
    }

    /// The first active deny rule on files (`Read(./.env)`, `Edit(./package.json)`), in
    /// precedence order: a rule that a call which may read or write any file can break.
    pub(crate) fn first_path_deny_rule(&self) -> Option<&str> {
        self.entries
            .iter()
            .find(|e| {
                e.active
                    && e.list == RuleList::Deny
                    && matches!(e.rule.specifier(), Some(crate::rule::Specifier::Path(_)))
            })
            .map(|e| e.text.as_str())
    }

    /// The mode for requests that name none.
    pub fn default_mode(&self) -> Mode {
        self.default_mode
    }

    /// Decides one call. Never panics and never fails: what cannot be analysed asks (or is
    /// denied where asking is not possible).
    pub fn evaluate(&self, request: &Request) -> Decision {
        decide::evaluate(self, request, None, None)
    }

    /// Whether the request's tool may be trusted by its bare name (a remembered `Write`), by
    /// its defaults as this policy resolves them (its `tools` entries, the built-ins, MCP
    /// tools). The agent hooks ask this before a bare-tool grant applies.
    ///
    /// ```
    /// use toolgate::{Policy, Request};
    /// let policy = Policy::from_json("{}").unwrap();
    /// let call = |tool: &str| Request::from_json(&format!(r#"{{"tool":"{tool}"}}"#)).unwrap();
    /// assert!(policy.tool_trustable(&call("Write")));
    /// assert!(!policy.tool_trustable(&call("Bash")));
    /// ```
    pub fn tool_trustable(&self, request: &Request) -> bool {
        resolve::resolve_tool(self, request).defaults.trustable
    }

    /// Decides one call and lists every rule that was consulted, for people.
    pub fn explain(&self, request: &Request) -> Explanation {
        explain::explain(self, request, &TrustOverlay::default())
    }

    /// Like [`Policy::explain`], with remembered trust.
    pub fn explain_with(&self, request: &Request, trust: &TrustOverlay) -> Explanation {
        explain::explain(self, request, trust)
    }
}

fn example_path(examples: &[Example], name: &str) -> String {
    examples
        .iter()
        .position(|e| e.name.as_deref() == Some(name))
        .map(|i| format!("examples[{i}]"))
        .unwrap_or_else(|| name.to_owned())
}

impl Evaluate for Policy {
    fn evaluate_with(&self, request: &Request, trust: &TrustOverlay) -> Decision {
        let overlay = trust::TrustIndex::build(self, trust);
        decide::evaluate(self, request, overlay.as_ref(), Some(trust))
    }

    fn check_rule(&self, rule: &str) -> Result<()> {
        check_rule(rule)
    }

    fn tool_kind(&self, request: &Request) -> crate::tool::ToolKind {
        resolve::resolve_tool(self, request).defaults.kind
    }
}

/// Checks that `text` is a rule that can approve something when remembered as an allow
/// rule: it parses, and it is not a tool-name glob that approves nothing.
///
/// ```
/// assert!(toolgate::policy::check_rule("Bash(npm test *)").is_ok());
/// assert!(toolgate::policy::check_rule("Bash(npm").is_err());
/// assert!(toolgate::policy::check_rule("mcp__*").is_err());
/// ```
pub fn check_rule(text: &str) -> Result<()> {
    let rule = Rule::parse(text)?;
    if !rule.can_allow() {
        return Err(Error::new(
            ErrorKind::InvalidRule,
            format!("`{rule}` would approve nothing: allow globs must name a literal MCP server"),
        )
        .with_hint("name the server, e.g. `mcp__github__*`"));
    }
    Ok(())
}
