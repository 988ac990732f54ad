//! The broker's audit events.

use super::{ApprovalOutcome, Broker, By, Record, State, Transition};
use crate::audit::{AuditEvent, AuditKind};
use crate::decision::Effect;

impl Broker {
    pub(super) fn audit_decision(
        &mut self,
        record: &Record,
        effect: Effect,
        why: String,
        by: By,
        now: u64,
    ) {
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

    pub(super) fn audit_transition(
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

pub(super) fn audit_base(record: &Record, kind: AuditKind, now_ms: u64) -> AuditEvent {
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

pub(super) fn step_event(
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
