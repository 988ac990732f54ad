//! The broker's JSON wire types (camelCase; inputs reject unknown keys).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{By, State};
use crate::audit::AuditEvent;
use crate::decision::{Decision, Risk};
use crate::feedback::ModelFeedback;
use crate::request::Request;
use crate::trust::Scope;

/// A tool call to be approved (input).
///
/// ```
/// let call: toolgate::broker::ApprovalRequest = toolgate::json::from_str(
///     r#"{"sessionId":"s1","callId":"c1","timeoutMs":60000,
///         "request":{"tool":"Bash","input":{"command":"git push"}}}"#,
///     "approval request",
/// ).unwrap();
/// assert_eq!(call.request.tool, "Bash");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ApprovalRequest {
    /// The session (conversation) the call belongs to.
    pub session_id: String,
    /// The agent's id for the tool call, when it has one (ACP `toolCallId`, MCP request id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    /// How long a person has to answer; the broker's default when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// The call.
    pub request: Request,
}

/// How an approval ended, as its future reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum Status {
    /// The call may run.
    Approved,
    /// The call must not run.
    Denied,
    /// Nobody answered in time: the call must not run.
    Expired,
    /// The approval was cancelled: the call must not run.
    Cancelled,
}

impl Status {
    /// The state the approval moved to.
    pub const fn state(self) -> State {
        match self {
            Status::Approved => State::Approved,
            Status::Denied => State::Denied,
            Status::Expired => State::Expired,
            Status::Cancelled => State::Cancelled,
        }
    }
}

/// The answers a pending approval offers (what a UI shows as buttons).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum AnswerKind {
    /// Allow this call.
    AllowOnce,
    /// Allow, and remember for the session.
    AllowSession,
    /// Allow, and remember across sessions.
    AllowAlways,
    /// Deny this call.
    Deny,
    /// Allow every pending call of the session ([`super::Broker::approve_all`]).
    AllowAll,
    /// Deny every pending call of the session ([`super::Broker::deny_all`]).
    DenyAll,
    /// Allow this tool, any arguments, for the rest of the session.
    AllowToolForSession,
}

/// A person's answer to one pending approval (input, tagged by `kind`).
///
/// ```
/// use toolgate::broker::Answer;
/// let a: Answer = toolgate::json::from_str(
///     r#"{"kind":"allow","scope":"session","rules":["Bash(npm test *)"]}"#, "answer").unwrap();
/// assert!(matches!(a, Answer::Allow { .. }));
/// let d: Answer = toolgate::json::from_str(r#"{"kind":"deny","message":"use yarn"}"#, "answer")
///     .unwrap();
/// assert!(matches!(d, Answer::Deny { .. }));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", tag = "kind", deny_unknown_fields)]
pub enum Answer {
    /// Allow the call.
    #[serde(rename_all = "camelCase")]
    Allow {
        /// How far the answer reaches.
        scope: Scope,
        /// For `session`/`always`: the rules to remember; by default the tool's name, or one
        /// `Bash(<command>)` rule per command of a shell line.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "typescript", ts(optional))]
        rules: Option<Vec<String>>,
        /// Arguments the person edited; checked against the schema and the policy again.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "typescript", ts(optional))]
        edited_input: Option<Value>,
    },
    /// Deny the call.
    #[serde(rename_all = "camelCase")]
    Deny {
        /// A message for the model.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "typescript", ts(optional))]
        message: Option<String>,
    },
    /// Allow this tool with any arguments for the rest of the session; approves this call
    /// and every other pending call of the tool in the session that the grant now allows.
    AllowToolForSession,
}

/// A content preview for the approval card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Preview {
    /// At most [`super::PREVIEW_CHARS`] characters of the content.
    pub text: String,
    /// Whether the content was longer.
    pub truncated: bool,
}

/// Old and new text of an edit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Diff {
    /// The text being replaced (at most [`super::DIFF_CHARS`] characters).
    pub old_text: String,
    /// The replacement (at most [`super::DIFF_CHARS`] characters).
    pub new_text: String,
    /// Whether either text was cut.
    pub truncated: bool,
}

/// Everything a UI needs to ask a person about one call.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PendingApproval {
    /// The approval's id (a random UUID v4).
    pub id: String,
    /// The session.
    pub session_id: String,
    /// The agent's call id.
    pub call_id: Option<String>,
    /// The agent.
    pub agent: Option<String>,
    /// The tool, as the agent spelled it.
    pub tool: String,
    /// The name people see.
    pub title: String,
    /// What the call does in words: `Execute command: git push`.
    pub description: String,
    /// What the call acts on, as the description names it (`git push`, `src/a.ts`); empty
    /// when the description names nothing (`Use tool: custom`). Absent in approvals saved
    /// by older versions, which are refused by their version.
    #[serde(default)]
    pub subject: String,
    /// The short label of the call in records: `Bash(git push)`, or the tool alone when
    /// there is no subject. The subject is cut to [`super::LABEL_SUBJECT_CHARS`] characters.
    #[serde(default)]
    pub label: String,
    /// The arguments.
    pub input: Value,
    /// A preview of the content to be written.
    pub preview: Option<Preview>,
    /// Old and new text, for edits.
    pub diff: Option<Diff>,
    /// The risk.
    pub risk: Risk,
    /// Whether "remember" answers are offered.
    pub trustable: bool,
    /// Why the policy asks.
    pub reason: String,
    /// The policy's full decision.
    pub decision: Decision,
    /// The answers offered.
    pub answers: Vec<AnswerKind>,
    /// The exact rules a "remember" answer (`allowSession`, `allowAlways`) saves when it
    /// names none: as narrow as the call (`Bash(npm test)`, `WebFetch(domain:docs.rs)`,
    /// `Read(//home/a/p/x)`). Empty when no "remember" answer is offered.
    #[serde(default)]
    pub rules: Vec<String>,
    /// When it was created (Unix ms).
    pub created_at: u64,
    /// When it expires (Unix ms).
    pub deadline: u64,
}

/// How an approval ended: what its future resolves to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ApprovalOutcome {
    /// The approval's id.
    pub id: String,
    /// Approved, denied, expired or cancelled.
    pub status: Status,
    /// Who or what settled it.
    pub by: By,
    /// For approvals by a person or a grant: how far the answer reaches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub scope: Option<Scope>,
    /// The arguments that may run (edited or original).
    pub input: Value,
    /// The person's message, for denials.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub message: Option<String>,
    /// The rules remembered by this answer (session or always grants).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grants: Vec<String>,
    /// Whether the answer reaches beyond this call (scope `session` or `always`): an agent
    /// that offers "allow always" is told so.
    #[serde(default)]
    pub remembered: bool,
    /// What the model is told when the call does not run; `null` when approved.
    pub feedback: Option<ModelFeedback>,
}

impl ApprovalOutcome {
    /// Whether the call may run.
    pub fn is_approved(&self) -> bool {
        self.status == Status::Approved
    }

    /// Whether an answer of `scope` reaches beyond the call it answered.
    pub fn remembers(scope: Option<Scope>) -> bool {
        matches!(scope, Some(Scope::Session | Scope::Always))
    }
}

/// One step of an approval's life, as listeners see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Transition {
    /// The approval's id.
    pub id: String,
    /// The session.
    pub session_id: String,
    /// The agent's call id.
    pub call_id: Option<String>,
    /// The tool.
    pub tool: String,
    /// The previous state; `null` when the approval was just created.
    pub from: Option<State>,
    /// The new state.
    pub to: State,
    /// When (Unix ms).
    pub at: u64,
    /// Set when this transition settled the approval's future.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub outcome: Option<ApprovalOutcome>,
    /// Set when this transition created a pending approval: the card to show.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub approval: Option<PendingApproval>,
}

/// A call the broker took: its approval id and, when it settled within the same operation
/// (allowed or denied by the policy, a grant or the registry), its outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Admitted {
    /// The approval's id.
    pub id: String,
    /// The outcome, when the call settled at once; `null` while it waits for a person.
    pub outcome: Option<ApprovalOutcome>,
}

/// What one broker operation hands its host, all at once: the operation's own result, the
/// transitions and audit events it caused (oldest first), when the host must next call
/// `tick`, and the trust document to save when the persisted part of the trust store changed.
///
/// A host delivers a batch in this order: settle the waiting outcomes of settling
/// transitions, then call listeners with each transition and each event, then save `trust`,
/// then set its timer to `nextDeadline`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Batch<T> {
    /// The operation's result.
    pub result: T,
    /// Every transition the operation caused, oldest first.
    pub transitions: Vec<Transition>,
    /// Every audit event the operation recorded, oldest first.
    pub events: Vec<AuditEvent>,
    /// The earliest deadline of a pending approval (Unix ms); `null` when none is pending.
    pub next_deadline: Option<u64>,
    /// The trust document to save (JSON text), when the persisted part changed and the host
    /// saves it (it loaded the stored document); `null` otherwise.
    pub trust: Option<String>,
}
