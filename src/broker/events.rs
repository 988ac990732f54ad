//! The broker's audit events.

use super::{ApprovalOutcome, Broker, By, Record, State, Transition};
use crate::audit::{AuditEvent, AuditKind, AuditQuery};
use crate::decision::Effect;
use crate::error::{Error, ErrorKind, Result};

/// The longest fallback description the audit trail takes.
const MAX_FALLBACK_DETAIL: usize = 500;

impl Broker {
    /// Records in the audit trail that a host adapter answered approval `id` with something
    /// other than what the outcome meant, because the exact answer was not available (ACP:
    /// the agent did not offer the option kind). `detail` says what was needed and what was
    /// sent. Returns the event's sequence number.
    ///
    /// # Errors
    /// `INVALID_PARAMS` for an empty or overlong `detail`; `UNKNOWN_APPROVAL` when the broker
    /// has neither a live approval nor an audit event with this id.
    ///
    /// # Example
    /// ```
    /// use toolgate::audit::AuditKind;
    /// use toolgate::broker::{ApprovalRequest, Broker};
    /// use toolgate::{Policy, Request};
    ///
    /// let policy = Policy::from_json(r#"{"permissions":{"deny":["Bash(rm *)"]}}"#)?;
    /// let mut broker = Broker::new(Box::new(policy));
    /// let call = ApprovalRequest {
    ///     session_id: "s".into(),
    ///     call_id: Some("c1".into()),
    ///     timeout_ms: None,
    ///     request: Request {
    ///         tool: "Bash".into(),
    ///         input: serde_json::json!({ "command": "rm -rf build" }),
    ///         ..Request::default()
    ///     },
    /// };
    /// let (id, _denied) = broker.request_approval(call, 0)?;
    /// broker.record_fallback(&id, "needed `reject_once`, sent `reject_always`", 1)?;
    /// let last = broker.audit().query(&Default::default()).pop().unwrap();
    /// assert_eq!(last.kind, AuditKind::Fallback);
    /// # Ok::<(), toolgate::Error>(())
    /// ```
    pub fn record_fallback(&mut self, id: &str, detail: &str, now_ms: u64) -> Result<u64> {
        if detail.trim().is_empty() || detail.len() > MAX_FALLBACK_DETAIL {
            return Err(Error::new(
                ErrorKind::InvalidParams,
                format!(
                    "a fallback detail must be 1 to {MAX_FALLBACK_DETAIL} bytes (got {})",
                    detail.len()
                ),
            )
            .at("detail")
            .with_hint("say what answer was needed and what was sent instead"));
        }
        let mut event = if let Some(record) = self.records.get(id) {
            audit_base(record, AuditKind::Fallback, now_ms)
        } else {
            let query = AuditQuery {
                approval_id: Some(id.to_owned()),
                ..AuditQuery::default()
            };
            let Some(last) = self.audit.query(&query).pop().cloned() else {
                return Err(Error::new(
                    ErrorKind::UnknownApproval,
                    format!("no approval has id `{id}`"),
                )
                .at("id")
                .with_hint("pass the id of the outcome the adapter answered"));
            };
            AuditEvent {
                kind: AuditKind::Fallback,
                at: now_ms,
                duration_ms: last.duration_ms + now_ms.saturating_sub(last.at),
                effect: None,
                from: None,
                to: None,
                source: None,
                scope: None,
                input: None,
                ..last
            }
        };
        event.decided_by = detail.to_owned();
        Ok(self.audit.record(event))
    }

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
        dangers: record
            .card
            .decision
            .dangers
            .iter()
            .map(|d| d.class)
            .collect(),
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
