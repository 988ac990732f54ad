//! The trust store: what a person chose to remember, and for how long.
//!
//! A grant is an allow rule (`Write`, `Bash(npm test *)`) with a scope: `session` grants
//! live in memory for one session id, `always` grants and per-agent bypass are persisted as
//! a versioned, checksummed document. `once` is an answer, not a grant: it applies to the
//! one call and is never stored. Grants are handed to the policy as its lowest layer, so a
//! remembered answer can never beat a deny or ask rule.
//!
//! Time is passed in (`now_ms`, Unix milliseconds); the store never reads a clock.
//!
//! ```
//! use toolgate::trust::{NewGrant, Scope, TrustStore};
//! # use toolgate::{Decision, Evaluate, Request};
//! # struct AnyRule;
//! # impl Evaluate for AnyRule {
//! #     fn evaluate_with(&self, _: &Request, _: &toolgate::TrustOverlay) -> Decision { unimplemented!() }
//! #     fn check_rule(&self, _: &str) -> toolgate::Result<()> { Ok(()) }
//! # }
//! let mut store = TrustStore::new();
//! store.grant(NewGrant::session("Write", "s1"), &AnyRule, 1_000).unwrap();
//! store.grant(NewGrant::always("Bash(npm test)"), &AnyRule, 1_000).unwrap();
//! assert_eq!(store.active("s1", None, 2_000).len(), 2);
//! assert_eq!(store.active("s2", None, 2_000).len(), 1);
//!
//! let saved = store.export(2_000);
//! let mut restored = TrustStore::new();
//! restored.import(&saved, &AnyRule).unwrap();
//! assert_eq!(restored.export(2_000), saved);
//! ```

mod apply;
mod document;
mod rules;
mod store;

use serde::{Deserialize, Serialize};

pub use apply::decide_with_trust;
#[cfg(feature = "typescript")]
pub(crate) use document::typescript_declarations;
pub use document::DOCUMENT_VERSION;
pub(crate) use rules::split_rule;
pub use rules::{check_grant_rule, has_running_subcommands, shell_spec_refusal};
pub use store::TrustStore;

/// How far a person's "allow" reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum Scope {
    /// This call only; never stored.
    Once,
    /// Until the session ends or is cleared; kept in memory.
    Session,
    /// Persisted with the trust document.
    Always,
}

impl Scope {
    /// The lowercase name: `once`, `session`, `always`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Scope::Once => "once",
            Scope::Session => "session",
            Scope::Always => "always",
        }
    }
}

/// A remembered allow rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Grant {
    /// A stable id derived from the grant's content (`g-` and 16 hex digits), for revoking.
    pub id: String,
    /// The allow rule, in the policy's rule syntax.
    pub rule: String,
    /// `session` or `always`.
    #[cfg_attr(feature = "typescript", ts(type = "\"session\" | \"always\""))]
    pub scope: Scope,
    /// For session grants, the session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// The agent the grant is for; any agent when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// When it was granted (Unix ms).
    pub created_at: u64,
    /// When it stops applying (Unix ms); never when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<u64>,
}

impl Grant {
    /// Whether the grant applies to a call of `session_id` by `agent` at `now_ms`.
    pub fn applies(&self, session_id: &str, agent: Option<&str>, now_ms: u64) -> bool {
        let live = self.expires_at.is_none_or(|t| now_ms < t);
        let session = match self.scope {
            Scope::Session => self.session_id.as_deref() == Some(session_id),
            Scope::Always => true,
            Scope::Once => false,
        };
        let agent_ok = self.agent.is_none() || self.agent.as_deref() == agent;
        live && session && agent_ok
    }
}

/// A grant to add (input; camelCase JSON).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewGrant {
    /// The allow rule.
    pub rule: String,
    /// `session` or `always` (`once` is refused: it is not remembered).
    #[cfg_attr(feature = "typescript", ts(type = "\"session\" | \"always\""))]
    pub scope: Scope,
    /// Required for session grants.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// Limits the grant to one agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// When it stops applying (Unix ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<u64>,
}

impl NewGrant {
    /// A grant of `rule` for one session.
    pub fn session(rule: &str, session_id: &str) -> Self {
        NewGrant {
            rule: rule.to_owned(),
            scope: Scope::Session,
            session_id: Some(session_id.to_owned()),
            agent: None,
            expires_at: None,
        }
    }

    /// A persisted grant of `rule`.
    pub fn always(rule: &str) -> Self {
        NewGrant {
            rule: rule.to_owned(),
            scope: Scope::Always,
            session_id: None,
            agent: None,
            expires_at: None,
        }
    }

    /// The same grant, for one agent only.
    #[must_use]
    pub fn for_agent(mut self, agent: Option<&str>) -> Self {
        self.agent = agent.map(str::to_owned);
        self
    }
}
