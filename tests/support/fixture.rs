//! Decision tables: the JSON fixture format shared by the native, wasm and JS test runners
//! (a test aid: the tests that run the tables include this file with `#[path]`).
//!
//! ```json
//! { "description": "what this table covers",
//!   "policy": { "permissions": { "deny": ["Bash(curl *)"] } },
//!   "cwd": "/home/ada/proj",
//!   "cases": [
//!     { "name": "reads are fine", "request": { "tool": "Read", "input": { "file_path": "a" } },
//!       "expect": "allow" },
//!     { "name": "no curl", "command": "curl evil.sh", "expect": "deny", "decider": "rule" }
//!   ] }
//! ```
//!
//! A case has either `request` or the shorthand `command` (a `Bash` call), an optional
//! `mode` that overrides the request's, the expected effect and, optionally, the `kind` of
//! the deciding reason. `cwd` is the default for requests that name none.
//!
//! ```
//! let fx = Fixture::from_json(r#"{
//!   "description": "d", "policy": {"permissions": {"deny": ["Bash(curl *)"]}}, "cwd": "/p",
//!   "cases": [{"name": "c", "command": "curl x", "expect": "deny", "decider": "rule"}]
//! }"#).unwrap();
//! let results = fx.run().unwrap();
//! assert!(results.iter().all(|r| r.passed()));
//! ```

#![allow(dead_code, reason = "each includer uses the part it needs")]

use serde::{Deserialize, Serialize};

use toolgate::policy::{Policy, PolicyDocument};
use toolgate::{Decision, Effect, Error, ErrorKind, Mode, Request, Result};

/// One fixture file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Fixture {
    /// What the table covers.
    pub description: String,
    /// The policy document.
    pub policy: PolicyDocument,
    /// The working directory for requests that name none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// The cases.
    pub cases: Vec<Case>,
}

/// One row of a decision table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Case {
    /// A short name, unique in its file.
    pub name: String,
    /// The request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<Request>,
    /// Shorthand for `{"tool":"Bash","input":{"command":...}}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// Overrides the request's mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
    /// The expected effect.
    pub expect: Effect,
    /// The expected `kind` of the deciding reason (`rule`, `mode`, `toolDefault`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decider: Option<String>,
}

/// The outcome of one case.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseResult {
    /// The case's name.
    pub name: String,
    /// The expected effect.
    pub expect: Effect,
    /// The expected decider kind, if the case names one.
    pub expect_decider: Option<String>,
    /// What the policy decided.
    pub decision: Decision,
}

impl CaseResult {
    /// The `kind` tag of the decision's decider (`rule`, `mode`, ...).
    pub fn decider_kind(&self) -> String {
        decider_kind(&self.decision)
    }

    /// Whether the effect (and the decider, when expected) is as expected.
    pub fn passed(&self) -> bool {
        self.decision.effect == self.expect
            && self
                .expect_decider
                .as_deref()
                .is_none_or(|d| d == self.decider_kind())
    }
}

/// The `kind` tag of a decision's decider.
pub fn decider_kind(decision: &Decision) -> String {
    serde_json::to_value(&decision.reason.decider)
        .ok()
        .and_then(|v| v.get("kind").and_then(|k| k.as_str()).map(str::to_owned))
        .unwrap_or_default()
}

impl Fixture {
    /// Parses a fixture file.
    pub fn from_json(text: &str) -> Result<Self> {
        let fx: Fixture = toolgate::json::from_str(text, "fixture")?;
        for (i, c) in fx.cases.iter().enumerate() {
            if c.request.is_some() == c.command.is_some() {
                return Err(Error::new(
                    ErrorKind::InvalidRequest,
                    format!(
                        "case `{}` needs exactly one of `request` and `command`",
                        c.name
                    ),
                )
                .at(format!("cases[{i}]"))
                .with_hint("write `\"command\": \"...\"` for a Bash call, else a request"));
            }
        }
        Ok(fx)
    }

    /// The request a case stands for, with the file's `cwd` and the case's `mode` applied.
    pub fn request(&self, case: &Case) -> Request {
        let mut req = match (&case.request, &case.command) {
            (Some(r), _) => r.clone(),
            (None, command) => Request {
                tool: "Bash".to_owned(),
                input: serde_json::json!({ "command": command.clone().unwrap_or_default() }),
                ..Request::default()
            },
        };
        if req.cwd.is_none() {
            req.cwd.clone_from(&self.cwd);
        }
        if case.mode.is_some() {
            req.mode = case.mode;
        }
        req
    }

    /// Compiles the policy and runs every case. Fails only when the policy does not load.
    pub fn run(&self) -> Result<Vec<CaseResult>> {
        let policy = Policy::from_document(self.policy.clone()).map_err(|e| e.within("policy"))?;
        Ok(self
            .cases
            .iter()
            .map(|c| CaseResult {
                name: c.name.clone(),
                expect: c.expect,
                expect_decider: c.decider.clone(),
                decision: policy.evaluate(&self.request(c)),
            })
            .collect())
    }
}
