//! The approval broker: from a tool call to an outcome, through the policy, the trust store
//! and, when the policy asks, a person.
//!
//! [`Broker::request_approval`] evaluates the call, consults the trust store, and either
//! settles at once (allowed or denied) or creates a [`PendingApproval`] that a UI shows.
//! Either way it returns the approval's id and an [`ApprovalFuture`] that resolves exactly
//! once to an [`ApprovalOutcome`]. A person answers with [`Broker::respond`]; the host drives
//! time with [`Broker::tick`] (asking [`Broker::next_deadline`] when to call it next) and
//! reports execution with [`Broker::start_execution`], [`Broker::complete`] and
//! [`Broker::fail`]. Listeners see every [`Transition`]; the [`AuditLog`] records them
//! without content.
//!
//! The broker is sans-IO: every operation that depends on time takes `now_ms` (Unix ms),
//! ids come from an injected [`IdSource`], and nothing blocks.
//!
//! ```
//! use toolgate::broker::{Answer, ApprovalRequest, Broker, Status};
//! use toolgate::TrustOverlay;
//! use toolgate::trust::Scope;
//! use toolgate::{Decider, Decision, Effect, Evaluate, Reason, Request, Risk};
//!
//! /// Asks for everything.
//! struct AskAll;
//! impl Evaluate for AskAll {
//!     fn evaluate_with(&self, _: &Request, _: &TrustOverlay) -> Decision {
//!         Decision {
//!             effect: Effect::Ask,
//!             risk: Risk::High,
//!             trustable: false,
//!             reason: Reason {
//!                 decider: Decider::ToolDefault { tool: "bash".into() },
//!                 text: "shell commands ask by default".into(),
//!             },
//!             parts: vec![],
//!             dangers: vec![],
//!         }
//!     }
//!     fn check_rule(&self, _: &str) -> toolgate::Result<()> { Ok(()) }
//! }
//!
//! let mut broker = Broker::new(Box::new(AskAll));
//! let call: ApprovalRequest = toolgate::json::from_str(
//!     r#"{"sessionId":"s1","request":{"tool":"Bash","input":{"command":"git push"}}}"#,
//!     "approval request",
//! ).unwrap();
//! let (id, future) = broker.request_approval(call, 1_000).unwrap();
//! let card = broker.pending_approval(&id).unwrap();
//! assert_eq!(card.description, "Execute command: git push");
//! assert_eq!(card.deadline, 1_000 + 300_000);
//!
//! let answer = Answer::Allow { scope: Scope::Once, rules: None, edited_input: None };
//! broker.respond(&id, answer, 2_000).unwrap();
//! assert_eq!(future.outcome().unwrap().status, Status::Approved);
//! assert_eq!(broker.respond(&id, Answer::Deny { message: None }, 2_001).unwrap_err().code(),
//!            "ALREADY_SETTLED");
//! ```

mod admit;
mod answer;
mod describe;
mod events;
mod future;
mod id;
mod lifecycle;
mod outbox;
mod resume;
mod wire;

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};

pub use crate::approval_state::{By, State};
pub use describe::{
    call_text, remember_rules, CallText, DESCRIPTION_CHARS, DIFF_CHARS, LABEL_SUBJECT_CHARS,
    PREVIEW_CHARS,
};
pub use future::ApprovalFuture;
pub use id::{uuid_v4, IdSource, RandomIds};
pub use outbox::Outbox;
pub use resume::{binding, SavedApproval, SAVED_VERSION};
pub use wire::{
    Admitted, Answer, AnswerKind, ApprovalOutcome, ApprovalRequest, Batch, Diff, PendingApproval,
    Preview, Status, Transition,
};

use events::{audit_base, step_event};
use future::Settler;

use crate::audit::AuditLog;
use crate::decision::Evaluate;
use crate::error::{Error, ErrorKind, Result};
use crate::feedback::ModelFeedback;
use crate::registry::Registry;
use crate::request::Request;
use crate::tool::ToolKind;
use crate::trust::TrustStore;

/// Settings of a broker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokerConfig {
    /// How long a person has to answer when the call names no timeout (default 5 minutes).
    /// Hosts set it from the policy's setting.
    pub default_timeout_ms: u64,
    /// The longest timeout a call may ask for (default 24 hours).
    pub max_timeout_ms: u64,
    /// Whether calls of unregistered tools are denied with `UNKNOWN_TOOL` (default `true`).
    /// When `false`, unregistered tools go to the policy unvalidated.
    pub reject_unknown_tools: bool,
    /// How many settled ids the broker remembers to answer `ALREADY_SETTLED` rather than
    /// `UNKNOWN_APPROVAL` (default 10,000).
    pub remembered_settled: usize,
}

impl Default for BrokerConfig {
    fn default() -> Self {
        BrokerConfig {
            default_timeout_ms: 5 * 60 * 1000,
            max_timeout_ms: 24 * 60 * 60 * 1000,
            reject_unknown_tools: true,
            remembered_settled: 10_000,
        }
    }
}

/// What the broker keeps per live approval (pending, approved or executing).
struct Record {
    state: State,
    seq: u64,
    card: PendingApproval,
    request: Request,
    kind: ToolKind,
    tool_trustable: bool,
    settler: Settler,
}

type Listener = Box<dyn FnMut(&Transition)>;

/// The approval broker. See the [module docs](self).
pub struct Broker {
    evaluator: Box<dyn Evaluate>,
    trust: TrustStore,
    registry: Registry,
    ids: Box<dyn IdSource>,
    audit: AuditLog,
    config: BrokerConfig,
    records: HashMap<String, Record>,
    deadlines: BTreeSet<(u64, String)>,
    /// Pending approvals by (session, call id), to refuse duplicates quickly.
    pending_calls: HashMap<(String, String), String>,
    settled: VecDeque<String>,
    settled_set: HashSet<String>,
    listeners: Vec<Listener>,
    next_seq: u64,
    shut_down: bool,
    last_now: u64,
}

impl std::fmt::Debug for Broker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Broker")
            .field("live", &self.records.len())
            .field("shut_down", &self.shut_down)
            .finish_non_exhaustive()
    }
}

impl Broker {
    /// A broker over `evaluator` with random ids, the built-in tool registry, an empty trust
    /// store and an audit log of 10,000 events.
    pub fn new(evaluator: Box<dyn Evaluate>) -> Self {
        Broker {
            evaluator,
            trust: TrustStore::new(),
            registry: Registry::with_builtin_tools(),
            ids: Box::new(RandomIds),
            audit: AuditLog::default(),
            config: BrokerConfig::default(),
            records: HashMap::new(),
            deadlines: BTreeSet::new(),
            pending_calls: HashMap::new(),
            settled: VecDeque::new(),
            settled_set: HashSet::new(),
            listeners: Vec::new(),
            next_seq: 0,
            shut_down: false,
            last_now: 0,
        }
    }

    /// Replaces the settings.
    #[must_use]
    pub fn with_config(mut self, config: BrokerConfig) -> Self {
        self.config = config;
        self
    }

    /// Replaces the id source (tests inject a deterministic one).
    #[must_use]
    pub fn with_ids(mut self, ids: Box<dyn IdSource>) -> Self {
        self.ids = ids;
        self
    }

    /// Replaces the tool registry.
    #[must_use]
    pub fn with_registry(mut self, registry: Registry) -> Self {
        self.registry = registry;
        self
    }

    /// Replaces the trust store.
    #[must_use]
    pub fn with_trust(mut self, trust: TrustStore) -> Self {
        self.trust = trust;
        self
    }

    /// Replaces the audit log.
    #[must_use]
    pub fn with_audit(mut self, audit: AuditLog) -> Self {
        self.audit = audit;
        self
    }

    /// The trust store.
    pub fn trust(&self) -> &TrustStore {
        &self.trust
    }

    /// The trust store, to grant, revoke, import. Grants added here are checked by
    /// [`TrustStore::grant`] like those from answers.
    pub fn trust_mut(&mut self) -> &mut TrustStore {
        &mut self.trust
    }

    /// Replaces the policy, e.g. after the rules were edited. Pending approvals keep the
    /// decision they were created with; new calls, edited arguments and grant checks use
    /// the new policy. (JS: `ApprovalBroker.setPolicy`.)
    ///
    /// ```
    /// use toolgate::{Broker, Effect, Evaluate, Policy, Request};
    ///
    /// let mut broker = Broker::new(Box::new(Policy::from_json("{}")?));
    /// let push = Request::from_json(
    ///     r#"{"tool":"Bash","input":{"command":"git push"},"cwd":"/home/ada/proj"}"#,
    /// )?;
    /// assert_eq!(broker.evaluator().evaluate(&push).effect, Effect::Ask);
    ///
    /// broker.set_policy(Box::new(Policy::from_json(
    ///     r#"{"permissions": {"deny": ["Bash(git push:*)"]}}"#,
    /// )?));
    /// assert_eq!(broker.evaluator().evaluate(&push).effect, Effect::Deny);
    /// # Ok::<(), toolgate::Error>(())
    /// ```
    pub fn set_policy(&mut self, evaluator: Box<dyn Evaluate>) {
        self.evaluator = evaluator;
    }

    /// The evaluator, e.g. to check rules for [`TrustStore::grant`].
    pub fn evaluator(&self) -> &dyn Evaluate {
        self.evaluator.as_ref()
    }

    /// The trust store and the evaluator together, to add grants by hand.
    pub fn trust_and_rules(&mut self) -> (&mut TrustStore, &dyn Evaluate) {
        (&mut self.trust, self.evaluator.as_ref())
    }

    /// The tool registry.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// The tool registry, to register tools.
    pub fn registry_mut(&mut self) -> &mut Registry {
        &mut self.registry
    }

    /// The audit log.
    pub fn audit(&self) -> &AuditLog {
        &self.audit
    }

    /// The audit log, to add sinks or opt in to recording arguments.
    pub fn audit_mut(&mut self) -> &mut AuditLog {
        &mut self.audit
    }

    /// The settings.
    pub fn config(&self) -> &BrokerConfig {
        &self.config
    }

    /// Calls `listener` on every transition from now on (creation, approval, denial,
    /// expiry, cancellation, execution). A new pending approval's transition carries its
    /// card, and a settling one its outcome, so a listener never needs to call back into
    /// the broker (which it cannot: the broker is busy calling it). Listeners must not
    /// panic.
    pub fn on_transition(&mut self, listener: Box<dyn FnMut(&Transition)>) {
        self.listeners.push(listener);
    }

    /// Every pending approval, oldest first.
    pub fn pending(&self) -> Vec<&PendingApproval> {
        let mut live: Vec<&Record> = self
            .records
            .values()
            .filter(|r| r.state == State::PendingApproval)
            .collect();
        live.sort_by_key(|r| r.seq);
        live.into_iter().map(|r| &r.card).collect()
    }

    /// One pending approval.
    pub fn pending_approval(&self, id: &str) -> Option<&PendingApproval> {
        self.records
            .get(id)
            .filter(|r| r.state == State::PendingApproval)
            .map(|r| &r.card)
    }

    /// The state of a live approval (pending, approved or executing); `None` once it is
    /// final or for ids the broker never issued.
    pub fn state(&self, id: &str) -> Option<State> {
        self.records.get(id).map(|r| r.state)
    }

    /// When the earliest pending approval expires; the host calls [`Broker::tick`] then.
    pub fn next_deadline(&self) -> Option<u64> {
        self.deadlines.first().map(|(t, _)| *t)
    }

    pub(super) fn ensure_running(&self) -> Result<()> {
        if self.shut_down {
            return Err(
                Error::new(ErrorKind::ShutDown, "the approval broker was shut down")
                    .with_hint("create a new broker"),
            );
        }
        Ok(())
    }

    pub(super) fn emit_created(&mut self, id: &str, now_ms: u64) {
        let Some(record) = self.records.get(id) else {
            return;
        };
        let mut t = transition_of(&record.card, None, State::PendingApproval, now_ms, None);
        t.approval = Some(record.card.clone());
        self.emit(&t);
    }

    pub(super) fn emit(&mut self, transition: &Transition) {
        for listener in &mut self.listeners {
            listener(transition);
        }
    }

    pub(super) fn remember_settled(&mut self, id: String) {
        if self.config.remembered_settled == 0 {
            return;
        }
        if self.settled.len() >= self.config.remembered_settled {
            if let Some(old) = self.settled.pop_front() {
                self.settled_set.remove(&old);
            }
        }
        self.settled_set.insert(id.clone());
        self.settled.push_back(id);
    }

    /// The error for an id with no live record: settled (remembered) or unknown.
    pub(super) fn not_live(&self, id: &str) -> Error {
        if self.settled_set.contains(id) {
            Error::new(
                ErrorKind::AlreadySettled,
                format!("approval `{id}` is already settled"),
            )
            .with_hint("each approval is answered once; its outcome was already delivered")
        } else {
            Error::new(
                ErrorKind::UnknownApproval,
                format!("no approval has id `{id}`"),
            )
            .with_hint("use an id from a pending approval of this broker")
        }
    }

    /// Moves a live approval to a new state, settling its future with `outcome` when
    /// given, notifying listeners and the audit log, and forgetting it when final.
    pub(super) fn advance(
        &mut self,
        id: &str,
        to: State,
        outcome: Option<ApprovalOutcome>,
        decided_by: Option<String>,
        now_ms: u64,
    ) -> Result<()> {
        self.last_now = self.last_now.max(now_ms);
        let Some(record) = self.records.get_mut(id) else {
            return Err(self.not_live(id));
        };
        let from = record.state;
        record.state = from.to(to)?;
        if from == State::PendingApproval {
            self.deadlines
                .remove(&(record.card.deadline, id.to_owned()));
            // The call id is free again once its approval no longer waits.
            if let Some(call_id) = &record.card.call_id {
                let key = (record.card.session_id.clone(), call_id.clone());
                if self.pending_calls.get(&key).is_some_and(|held| held == id) {
                    self.pending_calls.remove(&key);
                }
            }
        }
        if let Some(o) = &outcome {
            record.settler.settle(o.clone());
        }
        let transition = transition_of(&record.card, Some(from), to, now_ms, outcome);
        if let Some(record) = self.records.get(id) {
            let event = step_event(record, from, &transition, decided_by, now_ms);
            self.audit.record(event);
        }
        if to.is_terminal() {
            self.records.remove(id);
            self.remember_settled(id.to_owned());
        }
        self.emit(&transition);
        Ok(())
    }
}

fn transition_of(
    card: &PendingApproval,
    from: Option<State>,
    to: State,
    at: u64,
    outcome: Option<ApprovalOutcome>,
) -> Transition {
    Transition {
        id: card.id.clone(),
        session_id: card.session_id.clone(),
        call_id: card.call_id.clone(),
        tool: card.tool.clone(),
        from,
        to,
        at,
        outcome,
        approval: None,
    }
}

fn deny_outcome(
    card: &PendingApproval,
    by: By,
    message: Option<String>,
    feedback: ModelFeedback,
) -> ApprovalOutcome {
    let status = match by {
        By::Timeout => Status::Expired,
        By::Cancel | By::Shutdown => Status::Cancelled,
        By::Policy | By::Trust | By::Person | By::Registry => Status::Denied,
    };
    ApprovalOutcome {
        id: card.id.clone(),
        status,
        by,
        scope: None,
        input: card.input.clone(),
        message,
        grants: Vec::new(),
        remembered: false,
        feedback: Some(feedback),
    }
}

impl Drop for Broker {
    fn drop(&mut self) {
        if !self.shut_down {
            let now = self.last_now;
            self.shutdown(now);
        }
    }
}
