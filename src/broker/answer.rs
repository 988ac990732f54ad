//! A person's answers: allow (once, session, always, with edited arguments), deny, allow
//! the tool for the session, and the batch answers allow-all and deny-all.

use serde_json::Value;

use super::{
    audit_base, deny_outcome, describe, Answer, AnswerKind, ApprovalOutcome, Broker, By, State,
    Status,
};
use crate::audit::AuditKind;
use crate::decision::{Decision, Effect};
use crate::error::{Error, ErrorKind, Result};
use crate::feedback::ModelFeedback;
use crate::request::Request;
use crate::trust::{check_grant_rule, split_rule, NewGrant, Scope};

impl Broker {
    /// Answers one pending approval and returns its outcome. Errors, changing nothing: an
    /// unknown or forged id (`UNKNOWN_APPROVAL`), a settled one (`ALREADY_SETTLED`, also
    /// for an answer that arrives after the deadline, which expires the approval), an
    /// answer the approval did not offer (`ANSWER_NOT_OFFERED`), edited arguments that do
    /// not fit the tool's schema (`INVALID_PARAMS`), or a rule that may not be remembered
    /// (`GRANT_REFUSED`).
    ///
    /// Edited arguments are evaluated by the policy again: if it denies them, the
    /// approval settles `denied` with `PERMISSION_DENIED` (an outcome, not an error). If it
    /// asks, the edited call is approved, since the person approved exactly that call; a
    /// `session`/`always` answer then remembers rules for the edited call, and only when it
    /// is trustable (otherwise the answer counts as `once`).
    pub fn respond(&mut self, id: &str, answer: Answer, now_ms: u64) -> Result<ApprovalOutcome> {
        self.answerable(id, now_ms)?;
        match answer {
            Answer::Deny { message } => {
                self.check_offered(id, AnswerKind::Deny)?;
                self.deny_by_person(id, message, now_ms)
            }
            Answer::Allow {
                scope,
                rules,
                edited_input,
            } => self.allow(id, scope, rules, edited_input, now_ms),
            Answer::AllowToolForSession => self.allow_tool_for_session(id, now_ms),
        }
    }

    /// Approves every pending call of a session (the "allow all" button), each for this
    /// call only. Calls past their deadline expire instead. Returns the outcomes.
    pub fn approve_all(&mut self, session_id: &str, now_ms: u64) -> Result<Vec<ApprovalOutcome>> {
        self.ensure_running()?;
        let mut out = Vec::new();
        for id in self.session_pending(session_id) {
            if self.answerable(&id, now_ms).is_err() {
                continue;
            }
            let Some(record) = self.records.get(&id) else {
                continue;
            };
            let outcome = approved(&record.card.id, By::Person, Scope::Once, &record.card.input);
            let why = "answer allowAll".to_owned();
            if self
                .advance(
                    &id,
                    State::Approved,
                    Some(outcome.clone()),
                    Some(why),
                    now_ms,
                )
                .is_ok()
            {
                out.push(outcome);
            }
        }
        Ok(out)
    }

    /// Denies every pending call of a session (the "deny all" button), with an optional
    /// message for the model. Returns the outcomes.
    pub fn deny_all(
        &mut self,
        session_id: &str,
        message: Option<String>,
        now_ms: u64,
    ) -> Result<Vec<ApprovalOutcome>> {
        self.ensure_running()?;
        let mut out = Vec::new();
        for id in self.session_pending(session_id) {
            if self.answerable(&id, now_ms).is_ok() {
                out.extend(self.deny_by_person(&id, message.clone(), now_ms).ok());
            }
        }
        Ok(out)
    }

    fn session_pending(&self, session_id: &str) -> Vec<String> {
        self.live_ids(|r| r.card.session_id == session_id && r.state == State::PendingApproval)
    }

    /// Checks that `id` is pending and not past its deadline (expiring it if it is).
    fn answerable(&mut self, id: &str, now_ms: u64) -> Result<()> {
        self.ensure_running()?;
        let Some(record) = self.records.get(id) else {
            return Err(self.not_live(id));
        };
        if record.state != State::PendingApproval {
            return Err(Error::new(
                ErrorKind::AlreadySettled,
                format!(
                    "approval `{id}` is already settled (it is `{}`)",
                    record.state.as_str()
                ),
            )
            .with_hint("each approval is answered once"));
        }
        let deadline = record.card.deadline;
        if now_ms >= deadline {
            self.expire(id, now_ms);
            return Err(Error::new(
                ErrorKind::AlreadySettled,
                format!("approval `{id}` expired at {deadline}, before this answer"),
            )
            .with_hint("the call was denied by the timeout; the agent must ask again"));
        }
        Ok(())
    }

    fn check_offered(&self, id: &str, kind: AnswerKind) -> Result<()> {
        let offered = self
            .records
            .get(id)
            .is_some_and(|r| r.card.answers.contains(&kind));
        if offered {
            return Ok(());
        }
        let list = self
            .records
            .get(id)
            .map(|r| {
                r.card
                    .answers
                    .iter()
                    .filter_map(|a| serde_json::to_value(a).ok())
                    .filter_map(|v| v.as_str().map(|s| format!("`{s}`")))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default();
        let name = serde_json::to_value(kind).ok();
        let name = name.as_ref().and_then(Value::as_str).unwrap_or("?");
        Err(Error::new(
            ErrorKind::AnswerNotOffered,
            format!("approval `{id}` does not offer `{name}`"),
        )
        .with_hint(format!("answer with one of: {list}")))
    }

    fn deny_by_person(
        &mut self,
        id: &str,
        message: Option<String>,
        now_ms: u64,
    ) -> Result<ApprovalOutcome> {
        let Some(record) = self.records.get(id) else {
            return Err(self.not_live(id));
        };
        let feedback = ModelFeedback::user_denied(&record.card.tool, message.as_deref());
        let outcome = deny_outcome(&record.card, By::Person, message, feedback);
        let why = "answer deny".to_owned();
        self.advance(id, State::Denied, Some(outcome.clone()), Some(why), now_ms)?;
        Ok(outcome)
    }

    fn allow(
        &mut self,
        id: &str,
        scope: Scope,
        rules: Option<Vec<String>>,
        edited: Option<Value>,
        now_ms: u64,
    ) -> Result<ApprovalOutcome> {
        let kind = match scope {
            Scope::Once => AnswerKind::AllowOnce,
            Scope::Session => AnswerKind::AllowSession,
            Scope::Always => AnswerKind::AllowAlways,
        };
        self.check_offered(id, kind)?;
        if scope == Scope::Once && rules.is_some() {
            return Err(Error::new(
                ErrorKind::InvalidRequest,
                "`rules` are only remembered for `session` and `always` answers",
            )
            .at("rules")
            .with_hint("drop `rules`, or answer with scope `session`"));
        }
        let Some(record) = self.records.get(id) else {
            return Err(self.not_live(id));
        };
        let (request, decision) = match edited {
            Some(input) => {
                self.check_edited(&record.request.tool, &input)?;
                let request = Request {
                    input,
                    ..record.request.clone()
                };
                let decision = self.evaluator.evaluate(&request);
                (request, decision)
            }
            None => (record.request.clone(), record.card.decision.clone()),
        };
        if decision.effect == Effect::Deny {
            let why = format!("the edited call is denied: {}", decision.reason.text);
            let feedback =
                ModelFeedback::permission_denied_with(&record.card.tool, &why, &decision.dangers);
            let mut outcome = deny_outcome(&record.card, By::Policy, None, feedback);
            outcome.input = request.input;
            self.advance(id, State::Denied, Some(outcome.clone()), Some(why), now_ms)?;
            return Ok(outcome);
        }
        let scope = if decision.trustable {
            scope
        } else {
            Scope::Once
        };
        // With no rules named, the card's rules: each checked to cover this call alone.
        // An edited call with none that may be remembered is allowed once.
        let (scope, rules) = match rules {
            Some(named) => (scope, Some(named)),
            None if scope == Scope::Once => (scope, None),
            None => {
                let kind = record.kind;
                let card =
                    describe::checked_rules(self.evaluator.as_ref(), &request, &decision, kind);
                if card.is_empty() {
                    (Scope::Once, None)
                } else {
                    (scope, Some(card))
                }
            }
        };
        let grants = match (scope, rules) {
            (Scope::Once, _) | (_, None) => Vec::new(),
            (_, Some(rules)) => {
                self.check_grants(&rules, record.tool_trustable, &decision)?;
                self.check_rules_cover(&rules, &request)?;
                rules
            }
        };
        let (session, agent) = (record.card.session_id.clone(), record.card.agent.clone());
        self.remember(id, &grants, scope, &session, agent.as_deref(), now_ms)?;
        if let Some(r) = self.records.get_mut(id) {
            r.card.input = request.input.clone();
            r.request = request;
        }
        let Some(record) = self.records.get(id) else {
            return Err(self.not_live(id));
        };
        let mut outcome = approved(id, By::Person, scope, &record.card.input);
        outcome.grants = grants;
        let why = format!("answer allow ({})", scope.as_str());
        self.advance(
            id,
            State::Approved,
            Some(outcome.clone()),
            Some(why),
            now_ms,
        )?;
        Ok(outcome)
    }

    fn check_edited(&self, tool: &str, input: &Value) -> Result<()> {
        let checked = if self.registry.get(tool).is_some() {
            self.registry.validate(tool, input)
        } else if input.is_object() {
            Ok(())
        } else {
            Err(Error::new(
                ErrorKind::InvalidParams,
                "edited arguments must be an object",
            )
            .at("input")
            .with_hint("send the edited arguments as a JSON object"))
        };
        checked.map_err(|e| e.within("editedInput"))
    }

    /// Checks every rule before any is stored.
    fn check_grants(
        &self,
        rules: &[String],
        tool_trustable: bool,
        decision: &Decision,
    ) -> Result<()> {
        if rules.is_empty() {
            return Err(
                Error::new(ErrorKind::GrantRefused, "there is no rule to remember")
                    .at("rules")
                    .with_hint("name the rules to remember, or answer with scope `once`"),
            );
        }
        for (i, rule) in rules.iter().enumerate() {
            let at = format!("rules[{i}]");
            check_grant_rule(rule, self.evaluator.as_ref()).map_err(|e| e.at(at.clone()))?;
            let (tool_name, spec) = split_rule(rule);
            if spec.is_none() && !tool_trustable {
                return Err(Error::new(
                    ErrorKind::GrantRefused,
                    format!("refusing to trust `{tool_name}` for any arguments"),
                )
                .at(at)
                .with_hint("this tool is never trusted wholesale; remember a narrower rule"));
            }
        }
        if !decision.trustable {
            return Err(
                Error::new(ErrorKind::GrantRefused, "this call is not trustable")
                    .with_hint("answer with scope `once`"),
            );
        }
        Ok(())
    }

    /// Checks that every rule an answer names applies to the call it answers: remembered
    /// alone, the rule would allow this call, or one command of this shell line, through
    /// the trust layer. An answer may name narrower rules than the card's, never rules about
    /// other calls (`Bash(curl *)` answering `npm test`).
    fn check_rules_cover(&self, rules: &[String], request: &Request) -> Result<()> {
        for (i, rule) in rules.iter().enumerate() {
            if !describe::covers(self.evaluator.as_ref(), rule, request) {
                return Err(Error::new(
                    ErrorKind::GrantRefused,
                    format!("refusing to trust `{rule}`: it does not apply to the call it answers"),
                )
                .at(format!("rules[{i}]"))
                .with_hint(
                    "name rules that cover this call (or one command of it), or leave `rules` out to remember the card's rules",
                ));
            }
        }
        Ok(())
    }

    /// Stores grants (already checked) and audits them.
    fn remember(
        &mut self,
        id: &str,
        rules: &[String],
        scope: Scope,
        session: &str,
        agent: Option<&str>,
        now_ms: u64,
    ) -> Result<()> {
        for rule in rules {
            let grant = NewGrant {
                rule: rule.clone(),
                scope,
                session_id: (scope == Scope::Session).then(|| session.to_owned()),
                agent: agent.map(str::to_owned),
                expires_at: None,
            };
            self.trust.grant(grant, self.evaluator.as_ref(), now_ms)?;
            if let Some(record) = self.records.get(id) {
                let mut e = audit_base(record, AuditKind::Grant, now_ms);
                e.decided_by = format!("grant `{rule}`");
                e.source = Some(By::Person);
                e.scope = Some(scope);
                self.audit.record(e);
            }
        }
        Ok(())
    }

    fn allow_tool_for_session(&mut self, id: &str, now_ms: u64) -> Result<ApprovalOutcome> {
        self.check_offered(id, AnswerKind::AllowToolForSession)?;
        let Some(record) = self.records.get(id) else {
            return Err(self.not_live(id));
        };
        let tool = record.card.tool.clone();
        let session = record.card.session_id.clone();
        let agent = record.card.agent.clone();
        let rules = vec![tool.clone()];
        self.check_grants(&rules, record.tool_trustable, &record.card.decision)?;
        self.remember(
            id,
            &rules,
            Scope::Session,
            &session,
            agent.as_deref(),
            now_ms,
        )?;
        let Some(record) = self.records.get(id) else {
            return Err(self.not_live(id));
        };
        let mut outcome = approved(id, By::Person, Scope::Session, &record.card.input);
        outcome.grants = rules;
        let why = "answer allowToolForSession".to_owned();
        self.advance(
            id,
            State::Approved,
            Some(outcome.clone()),
            Some(why),
            now_ms,
        )?;

        // Other pending calls of the tool in the session that the new grant now allows.
        let others = self.live_ids(|r| {
            r.state == State::PendingApproval
                && r.card.session_id == session
                && r.card.tool == tool
                && r.card.agent == agent
                && now_ms < r.card.deadline
        });
        for other in others {
            let Some(r) = self.records.get(&other) else {
                continue;
            };
            let trusted = self.decide_with_trust(
                &r.request,
                &r.card.decision,
                &session,
                r.tool_trustable,
                now_ms,
            );
            if let Some((d, scope)) = trusted.filter(|(d, _)| d.effect == Effect::Allow) {
                let o = approved(
                    &other,
                    By::Trust,
                    scope.unwrap_or(Scope::Session),
                    &r.card.input,
                );
                let why = d.reason.text;
                let _ = self.advance(&other, State::Approved, Some(o), Some(why), now_ms);
            }
        }
        Ok(outcome)
    }
}

fn approved(id: &str, by: By, scope: Scope, input: &Value) -> ApprovalOutcome {
    ApprovalOutcome {
        id: id.to_owned(),
        status: Status::Approved,
        by,
        scope: Some(scope),
        input: input.clone(),
        message: None,
        grants: Vec::new(),
        remembered: ApprovalOutcome::remembers(Some(scope)),
        feedback: None,
    }
}
