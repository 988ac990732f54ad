//! The audit trail: one event per decision and per state change, without content.
//!
//! Events go to a bounded in-memory log ([`AuditLog`]) that can be queried by approval id,
//! tool and time and exported as JSON Lines, and to host [`AuditSink`]s. Arguments are
//! recorded only as their shape and lengths ([`redact`]) unless the host opts in for a tool;
//! previews, diffs, edited arguments and people's messages are never recorded.

mod log;
mod redact;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use log::{AuditLog, AuditQuery, AuditSink, AuditStats, SinkError, SinkStats};
pub use redact::redact;

use crate::approval_state::{By, State};
use crate::decision::{DangerClass, Effect};
use crate::trust::Scope;

/// What an audit event records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum AuditKind {
    /// The policy (with trust) decided a call.
    Decision,
    /// An approval changed state.
    Transition,
    /// A grant was remembered.
    Grant,
    /// A host adapter had to answer an approval with something other than what the broker
    /// decided meant, e.g. ACP's `reject_always` when the agent offered no `reject_once`.
    Fallback,
}

/// One audit record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AuditEvent {
    /// Position in the log, from 1; gaps mean evicted events.
    pub seq: u64,
    /// When (Unix ms).
    pub at: u64,
    /// What it records.
    pub kind: AuditKind,
    /// The approval's id.
    pub approval_id: String,
    /// The session.
    pub session_id: String,
    /// The agent's call id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    /// The tool, as the agent spelled it.
    pub tool: String,
    /// The agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// For decisions: the effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<Effect>,
    /// For transitions: the previous state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<State>,
    /// For transitions: the new state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<State>,
    /// What decided: the policy's reason (rule, mode, default) or the answer given.
    pub decided_by: String,
    /// Where the decision came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<By>,
    /// The scope of an approval or grant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<Scope>,
    /// Time since the approval was requested (ms).
    pub duration_ms: u64,
    /// The arguments, redacted to their shape unless the host opted in for this tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<Value>,
    /// The danger classes the policy found in the call (`history-rewrite`, `publish`, ...),
    /// so a log can be searched by what was at stake. Empty when none was found.
    #[serde(default)]
    pub dangers: Vec<DangerClass>,
}
