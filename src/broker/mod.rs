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
//! use toolgate::decision::TrustOverlay;
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

mod answer;
mod describe;
mod future;
mod id;
mod lifecycle;
mod resume;
mod state;
mod wire;

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};

pub use describe::{DESCRIPTION_CHARS, DIFF_CHARS, PREVIEW_CHARS};
pub use future::ApprovalFuture;
pub use id::{uuid_v4, IdSource, RandomIds};
pub use resume::{binding, SavedApproval, SAVED_VERSION};
pub use state::State;
pub use wire::{
    Answer, AnswerKind, ApprovalOutcome, ApprovalRequest, By, Diff, PendingApproval, Preview,
    Status, Transition,
};

use future::Settler;

use crate::audit::{AuditEvent, AuditKind, AuditLog};
use crate::decision::{Decider, Decision, Effect, Evaluate, Layer, TrustOverlay};
use crate::error::{Error, ErrorKind, Result};
use crate::feedback::ModelFeedback;
use crate::registry::Registry;
use crate::request::Request;
use crate::tool::{self, ToolKind};
use crate::trust::{Scope, TrustStore};

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
    /// [`TrustStore::add`] like those from answers.
    pub fn trust_mut(&mut self) -> &mut TrustStore {
        &mut self.trust
    }

    /// The evaluator, e.g. to check rules for [`TrustStore::add`].
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
    /// expiry, cancellation, execution). Listeners must not panic.
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

    /// Asks for approval of one call. Settles at once when the policy allows or denies, a
    /// grant allows, or the registry refuses the call (unknown tool, invalid arguments);
    /// otherwise creates a pending approval. Errors (nothing created) for a bad timeout, a
    /// call id that is already pending in the session, a shut-down broker, or a failed
    /// random source.
    pub fn request_approval(
        &mut self,
        call: ApprovalRequest,
        now_ms: u64,
    ) -> Result<(String, ApprovalFuture)> {
        self.ensure_running()?;
        let timeout = self.check_call(&call, &HashSet::new())?;
        let id = self.fresh_id()?;
        Ok(self.admit(id, call, now_ms, now_ms, now_ms.saturating_add(timeout)))
    }

    /// Asks for approval of several calls, in order; each settles on its own (answers may
    /// come in any order, and partially). Every call is checked before any is created: one
    /// bad call creates none.
    pub fn request_approvals(
        &mut self,
        calls: Vec<ApprovalRequest>,
        now_ms: u64,
    ) -> Result<Vec<(String, ApprovalFuture)>> {
        self.ensure_running()?;
        let mut seen = HashSet::new();
        let mut timeouts = Vec::with_capacity(calls.len());
        for (i, call) in calls.iter().enumerate() {
            let t = self
                .check_call(call, &seen)
                .map_err(|e| e.within(&format!("[{i}]")))?;
            if let Some(c) = &call.call_id {
                seen.insert((call.session_id.clone(), c.clone()));
            }
            timeouts.push(t);
        }
        let mut ids = Vec::with_capacity(calls.len());
        for _ in &calls {
            ids.push(self.fresh_id()?);
        }
        Ok(calls
            .into_iter()
            .zip(ids)
            .zip(timeouts)
            .map(|((call, id), t)| self.admit(id, call, now_ms, now_ms, now_ms.saturating_add(t)))
            .collect())
    }

    fn ensure_running(&self) -> Result<()> {
        if self.shut_down {
            return Err(
                Error::new(ErrorKind::ShutDown, "the approval broker was shut down")
                    .with_hint("create a new broker"),
            );
        }
        Ok(())
    }

    /// Checks what is the host's fault; returns the timeout.
    fn check_call(&self, call: &ApprovalRequest, batch: &HashSet<(String, String)>) -> Result<u64> {
        if call.session_id.is_empty() {
            return Err(Error::new(
                ErrorKind::InvalidRequest,
                "the call has an empty `sessionId`",
            )
            .at("sessionId")
            .with_hint("pass the id of the session the call belongs to"));
        }
        let timeout = call.timeout_ms.unwrap_or(self.config.default_timeout_ms);
        if timeout == 0 || timeout > self.config.max_timeout_ms {
            return Err(Error::new(
                ErrorKind::InvalidRequest,
                format!(
                    "timeout `{timeout}` ms is out of range (1 to {} ms)",
                    self.config.max_timeout_ms
                ),
            )
            .at("timeoutMs")
            .with_hint("give a positive timeout, e.g. 60000 for a minute"));
        }
        if let Some(call_id) = &call.call_id {
            let key = (call.session_id.clone(), call_id.clone());
            if self.pending_calls.contains_key(&key) || batch.contains(&key) {
                return Err(Error::new(
                    ErrorKind::InvalidRequest,
                    format!(
                        "call `{call_id}` of session `{}` already has a pending approval",
                        call.session_id
                    ),
                )
                .at("callId")
                .with_hint("answer or cancel the pending approval first"));
            }
        }
        Ok(timeout)
    }

    fn fresh_id(&mut self) -> Result<String> {
        for _ in 0..8 {
            let id = self.ids.next_id()?;
            if !self.records.contains_key(&id) && !self.settled_set.contains(&id) {
                return Ok(id);
            }
        }
        Err(Error::new(
            ErrorKind::Entropy,
            "the id source keeps returning ids that were already used",
        )
        .with_hint("use an id source that never repeats, such as `RandomIds`"))
    }

    /// Whether `tool` may be trusted by its bare name.
    fn tool_trustable(&self, tool_name: &str) -> bool {
        match self.registry.get(tool_name) {
            Some(def) => def.trustable,
            None => tool::builtin(tool_name).is_some_and(|b| b.defaults.trustable),
        }
    }

    /// The answers to offer: "remember" answers only when the default rules would be
    /// accepted, so a card never offers what would then be refused.
    fn offered_answers(
        &self,
        request: &Request,
        plain: &Decision,
        kind: ToolKind,
        tool_trustable: bool,
    ) -> Vec<AnswerKind> {
        let rules_ok = |rules: &[String]| {
            !rules.is_empty()
                && rules.iter().all(|r| {
                    let bare = crate::trust::split_rule(r).1.is_none();
                    (!bare || tool_trustable)
                        && crate::trust::check_grant_rule(r, self.evaluator.as_ref()).is_ok()
                })
        };
        let remember = plain.trustable && rules_ok(&describe::default_rules(request, plain, kind));
        let whole_tool = plain.trustable && rules_ok(std::slice::from_ref(&request.tool));
        describe::offered(remember, whole_tool)
    }

    /// The decision with remembered trust, when the plain decision asks and trust may apply.
    fn decide_with_trust(
        &self,
        request: &Request,
        plain: &Decision,
        session_id: &str,
        tool_trustable: bool,
        now_ms: u64,
    ) -> Option<(Decision, Option<Scope>)> {
        if plain.effect != Effect::Ask {
            return None;
        }
        let agent = request.agent.as_deref();
        let bypass = self.trust.agent_bypass(agent);
        let grants: Vec<(String, Scope)> = if plain.trustable {
            self.trust
                .active(session_id, agent, now_ms)
                .into_iter()
                .filter(|g| {
                    let (_, spec) = crate::trust::split_rule(&g.rule);
                    spec.is_some() || tool_trustable
                })
                .map(|g| (g.rule.clone(), g.scope))
                .collect()
        } else {
            Vec::new()
        };
        if grants.is_empty() && !bypass {
            return None;
        }
        let overlay = TrustOverlay {
            allow_rules: grants.iter().map(|(r, _)| r.clone()).collect(),
            agent_bypass: bypass,
        };
        let decision = self.evaluator.evaluate_with(request, &overlay);
        let scope = match &decision.reason.decider {
            Decider::Rule {
                rule,
                layer: Layer::Trust,
                ..
            } => grants.iter().find(|(r, _)| r == rule).map(|(_, s)| *s),
            Decider::AgentBypass { .. } => Some(Scope::Always),
            _ => None,
        };
        Some((decision, scope))
    }

    /// Decides a checked call under `id` and records it.
    fn admit(
        &mut self,
        id: String,
        call: ApprovalRequest,
        now_ms: u64,
        created_at: u64,
        deadline: u64,
    ) -> (String, ApprovalFuture) {
        self.last_now = self.last_now.max(now_ms);
        let ApprovalRequest {
            session_id,
            call_id,
            request,
            ..
        } = call;
        let (settler, future) = future::channel(&id, &request.tool, &request.input);
        let def = self.registry.get(&request.tool).cloned();
        let kind = describe::kind_of(&request, def.as_ref());
        let tool_trustable = self.tool_trustable(&request.tool);
        let title = describe::title(&request, def.as_ref());
        let plain = self.evaluator.evaluate(&request);
        let answers = self.offered_answers(&request, &plain, kind, tool_trustable);
        let mut card = PendingApproval {
            id: id.clone(),
            session_id,
            call_id,
            agent: request.agent.clone(),
            tool: request.tool.clone(),
            description: describe::description(&request, kind, &title),
            title,
            input: request.input.clone(),
            preview: describe::preview(&request, kind),
            diff: describe::diff(&request, kind),
            risk: plain.risk,
            trustable: plain.trustable,
            reason: plain.reason.text.clone(),
            answers,
            decision: plain,
            created_at,
            deadline,
        };
        self.next_seq += 1;
        let mut record = Record {
            state: State::PendingApproval,
            seq: self.next_seq,
            card: card.clone(),
            request,
            kind,
            tool_trustable,
            settler,
        };

        // The registry first: a call of an unknown tool or with bad arguments never runs.
        let checked = match def {
            Some(_) => self
                .registry
                .validate(&record.request.tool, &record.request.input),
            None if self.config.reject_unknown_tools => self
                .registry
                .validate(&record.request.tool, &record.request.input),
            None => Ok(()),
        };
        if let Err(e) = checked {
            let feedback = match e.kind() {
                ErrorKind::UnknownTool => {
                    ModelFeedback::unknown_tool(&card.tool, &self.registry.names())
                }
                _ => ModelFeedback::invalid_params(&card.tool, e.message()),
            };
            self.audit_decision(
                &record,
                Effect::Deny,
                e.message().to_owned(),
                By::Registry,
                now_ms,
            );
            let outcome = deny_outcome(&card, By::Registry, None, feedback);
            self.finish_at_once(record, outcome, now_ms);
            return (id, future);
        }

        let plain = record.card.decision.clone();
        let (decision, by, scope) = match self.decide_with_trust(
            &record.request,
            &plain,
            &record.card.session_id,
            tool_trustable,
            now_ms,
        ) {
            Some((d, scope)) if d.effect != Effect::Ask => (d, By::Trust, scope),
            _ => (plain, By::Policy, None),
        };
        self.audit_decision(
            &record,
            decision.effect,
            decision.reason.text.clone(),
            by,
            now_ms,
        );
        match decision.effect {
            Effect::Deny => {
                let feedback = ModelFeedback::permission_denied(&card.tool, &decision.reason.text);
                let outcome = deny_outcome(&card, By::Policy, None, feedback);
                self.finish_at_once(record, outcome, now_ms);
            }
            Effect::Allow => {
                let outcome = ApprovalOutcome {
                    id: id.clone(),
                    status: Status::Approved,
                    by,
                    scope,
                    input: card.input.clone(),
                    message: None,
                    grants: Vec::new(),
                    feedback: None,
                };
                card.decision = decision;
                record.card.decision = card.decision.clone();
                self.finish_at_once(record, outcome, now_ms);
            }
            Effect::Ask if deadline <= now_ms => {
                // Resumed after its deadline: it expired while the host was away.
                self.index_call(&record.card);
                self.records.insert(id.clone(), record);
                self.emit_created(&id, now_ms);
                self.expire(&id, now_ms);
            }
            Effect::Ask => {
                self.deadlines.insert((deadline, id.clone()));
                self.index_call(&record.card);
                self.records.insert(id.clone(), record);
                self.emit_created(&id, now_ms);
            }
        }
        (id, future)
    }

    /// Settles a call that never waited for a person.
    fn finish_at_once(&mut self, mut record: Record, outcome: ApprovalOutcome, now_ms: u64) {
        let id = record.card.id.clone();
        let to = outcome.status.state();
        record.settler.settle(outcome.clone());
        self.audit_transition(&record, None, to, &outcome, now_ms);
        let transition = transition_of(&record.card, None, to, now_ms, Some(outcome));
        if to == State::Approved {
            record.state = State::Approved;
            self.records.insert(id, record);
        } else {
            self.remember_settled(id);
        }
        self.emit(&transition);
    }

    fn index_call(&mut self, card: &PendingApproval) {
        if let Some(call_id) = &card.call_id {
            let key = (card.session_id.clone(), call_id.clone());
            self.pending_calls.insert(key, card.id.clone());
        }
    }

    fn emit_created(&mut self, id: &str, now_ms: u64) {
        let Some(record) = self.records.get(id) else {
            return;
        };
        let t = transition_of(&record.card, None, State::PendingApproval, now_ms, None);
        self.emit(&t);
    }

    fn emit(&mut self, transition: &Transition) {
        for listener in &mut self.listeners {
            listener(transition);
        }
    }

    fn remember_settled(&mut self, id: String) {
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
    fn not_live(&self, id: &str) -> Error {
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
    fn advance(
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

    fn audit_decision(&mut self, record: &Record, effect: Effect, why: String, by: By, now: u64) {
        let mut e = audit_base(record, AuditKind::Decision, now);
        e.effect = Some(effect);
        e.decided_by = why;
        e.source = Some(by);
        e.input = Some(
            self.audit
                .recorded_input(&record.card.tool, &record.card.input),
        );
        self.audit.record(e);
    }

    fn audit_transition(
        &mut self,
        record: &Record,
        from: Option<State>,
        to: State,
        outcome: &ApprovalOutcome,
        now_ms: u64,
    ) {
        let mut e = audit_base(record, AuditKind::Transition, now_ms);
        e.from = from;
        e.to = Some(to);
        e.source = Some(outcome.by);
        e.scope = outcome.scope;
        e.decided_by = match &outcome.feedback {
            Some(f) => f.code.as_str().to_owned(),
            None => format!("{} approved", outcome.by.as_str()),
        };
        self.audit.record(e);
    }
}

fn audit_base(record: &Record, kind: AuditKind, now_ms: u64) -> AuditEvent {
    AuditEvent {
        seq: 0,
        at: now_ms,
        kind,
        approval_id: record.card.id.clone(),
        session_id: record.card.session_id.clone(),
        call_id: record.card.call_id.clone(),
        tool: record.card.tool.clone(),
        agent: record.card.agent.clone(),
        effect: None,
        from: None,
        to: None,
        decided_by: String::new(),
        source: None,
        scope: None,
        duration_ms: now_ms.saturating_sub(record.card.created_at),
        input: None,
    }
}

fn step_event(
    record: &Record,
    from: State,
    t: &Transition,
    decided_by: Option<String>,
    now_ms: u64,
) -> AuditEvent {
    let mut e = audit_base(record, AuditKind::Transition, now_ms);
    e.from = Some(from);
    e.to = Some(t.to);
    if let Some(o) = &t.outcome {
        e.source = Some(o.by);
        e.scope = o.scope;
    }
    e.decided_by = decided_by.unwrap_or_else(|| format!("host reported `{}`", t.to.as_str()));
    e
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
