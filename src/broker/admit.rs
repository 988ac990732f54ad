//! Deciding a new call: registry, policy, trust, then settle at once or wait for a person.

use std::collections::HashSet;

use super::{
    deny_outcome, describe, future, transition_of, AnswerKind, ApprovalFuture, ApprovalOutcome,
    ApprovalRequest, Broker, By, PendingApproval, Record, State, Status,
};
use crate::decision::{Decider, Decision, Effect, Layer, TrustOverlay};
use crate::error::{Error, ErrorKind, Result};
use crate::feedback::ModelFeedback;
use crate::request::Request;
use crate::tool::{self, ToolKind};
use crate::trust::Scope;

impl Broker {
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
        let id = self.fresh_id(&HashSet::new())?;
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
        let mut taken = HashSet::with_capacity(calls.len());
        let mut ids = Vec::with_capacity(calls.len());
        for _ in &calls {
            let id = self.fresh_id(&taken)?;
            taken.insert(id.clone());
            ids.push(id);
        }
        Ok(calls
            .into_iter()
            .zip(ids)
            .zip(timeouts)
            .map(|((call, id), t)| self.admit(id, call, now_ms, now_ms, now_ms.saturating_add(t)))
            .collect())
    }

    /// Checks what is the host's fault; returns the timeout.
    pub(super) fn check_call(
        &self,
        call: &ApprovalRequest,
        batch: &HashSet<(String, String)>,
    ) -> Result<u64> {
        if call.session_id.is_empty() {
            return Err(Error::new(
                ErrorKind::InvalidRequest,
                "the call has an empty `sessionId`",
            )
            .at("sessionId")
            .with_hint("pass the id of the session the call belongs to"));
        }
        call.request.check().map_err(|e| e.within("request"))?;
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

    /// A new id that is not live, not remembered as settled, and not in `taken`.
    pub(super) fn fresh_id(&mut self, taken: &HashSet<String>) -> Result<String> {
        for _ in 0..8 {
            let id = self.ids.next_id()?;
            let used = self.records.contains_key(&id)
                || self.settled_set.contains(&id)
                || taken.contains(&id);
            if !used {
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
    pub(super) fn tool_trustable(&self, tool_name: &str) -> bool {
        // A built-in's own default wins over any registered definition under its name.
        match tool::builtin(tool_name) {
            Some(b) => b.defaults.trustable,
            None => self.registry.get(tool_name).is_some_and(|d| d.trustable),
        }
    }

    /// The answers to offer, and the rules a "remember" answer saves (empty when none is
    /// offered): "remember" answers only when the default rules would be accepted, so a
    /// card never offers what would then be refused.
    pub(super) fn offered_answers(
        &self,
        request: &Request,
        plain: &Decision,
        kind: ToolKind,
        tool_trustable: bool,
    ) -> (Vec<AnswerKind>, Vec<String>) {
        let rules_ok = |rules: &[String]| {
            !rules.is_empty()
                && rules.iter().all(|r| {
                    let bare = crate::trust::split_rule(r).1.is_none();
                    (!bare || tool_trustable)
                        && crate::trust::check_grant_rule(r, self.evaluator.as_ref()).is_ok()
                })
        };
        let rules = describe::checked_rules(self.evaluator.as_ref(), request, plain, kind);
        let remember = plain.trustable && rules_ok(&rules);
        let whole_tool = plain.trustable && rules_ok(std::slice::from_ref(&request.tool));
        let rules = if remember { rules } else { Vec::new() };
        (describe::offered(remember, whole_tool), rules)
    }

    /// The decision with remembered trust, when trust may change it
    /// ([`crate::trust::decide_with_trust`], the rule the agent hooks apply too), with the
    /// scope of the grant (or bypass) that decided.
    pub(super) fn decide_with_trust(
        &self,
        request: &Request,
        plain: &Decision,
        session_id: &str,
        tool_trustable: bool,
        now_ms: u64,
    ) -> Option<(Decision, Option<Scope>)> {
        let agent = request.agent.as_deref();
        let grants: Vec<(String, Scope)> = self
            .trust
            .active(session_id, agent, now_ms)
            .into_iter()
            .map(|g| (g.rule.clone(), g.scope))
            .collect();
        let overlay = TrustOverlay {
            allow_rules: grants.iter().map(|(r, _)| r.clone()).collect(),
            agent_bypass: self.trust.agent_bypass(agent),
        };
        let decision = crate::trust::decide_with_trust(
            self.evaluator.as_ref(),
            request,
            plain,
            &overlay,
            tool_trustable,
        )?;
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
    pub(super) fn admit(
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
        // The kind the policy judges is the kind the card describes.
        let kind = self.evaluator.tool_kind(&request);
        let tool_trustable = self.tool_trustable(&request.tool);
        let text = describe::text_of(&request, kind, def.as_ref());
        let plain = self.evaluator.evaluate(&request);
        let (answers, rules) = self.offered_answers(&request, &plain, kind, tool_trustable);
        let mut card = PendingApproval {
            id: id.clone(),
            session_id,
            call_id,
            agent: request.agent.clone(),
            tool: request.tool.clone(),
            description: text.description,
            label: text.label,
            subject: text.subject,
            title: text.title,
            input: request.input.clone(),
            preview: describe::preview(&request, kind),
            diff: describe::diff(&request, kind),
            risk: plain.risk,
            trustable: plain.trustable,
            reason: plain.reason.text.clone(),
            answers,
            rules,
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
                let feedback = ModelFeedback::permission_denied_with(
                    &card.tool,
                    &decision.reason.text,
                    &decision.dangers,
                );
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
                    remembered: ApprovalOutcome::remembers(scope),
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
    pub(super) fn finish_at_once(
        &mut self,
        mut record: Record,
        outcome: ApprovalOutcome,
        now_ms: u64,
    ) {
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

    pub(super) fn index_call(&mut self, card: &PendingApproval) {
        if let Some(call_id) = &card.call_id {
            let key = (card.session_id.clone(), call_id.clone());
            self.pending_calls.insert(key, card.id.clone());
        }
    }
}
