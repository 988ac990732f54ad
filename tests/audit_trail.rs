//! The audit trail through the broker: what is recorded, what never is, and sinks.
#![allow(clippy::unwrap_used, reason = "tests")]

mod broker_support;

use std::cell::RefCell;
use std::rc::Rc;

use broker_support::{bash, broker, write};
use serde_json::{json, Value};
use toolgate::audit::{AuditEvent, AuditKind, AuditQuery, AuditSink, SinkError};
use toolgate::broker::{Answer, By, State};
use toolgate::trust::Scope;

const SECRET: &str = "hunter2-secret";

fn by_id(id: &str) -> AuditQuery {
    AuditQuery {
        approval_id: Some(id.into()),
        ..AuditQuery::default()
    }
}

#[test]
fn decisions_and_transitions_are_recorded_with_source_scope_and_duration() {
    let mut b = broker();
    let (id, _) = b.request_approval(write("s", "a.txt", "x"), 1_000).unwrap();
    let answer = Answer::Allow {
        scope: Scope::Session,
        rules: None,
        edited_input: None,
    };
    b.respond(&id, answer, 4_000).unwrap();
    b.start_execution(&id, 4_100).unwrap();
    b.complete(&id, 4_200).unwrap();
    let events = b.audit().query(&by_id(&id));
    let kinds: Vec<_> = events.iter().map(|e| (e.kind, e.to)).collect();
    assert_eq!(
        kinds,
        [
            (AuditKind::Decision, None),
            (AuditKind::Grant, None),
            (AuditKind::Transition, Some(State::Approved)),
            (AuditKind::Transition, Some(State::Executing)),
            (AuditKind::Transition, Some(State::Completed)),
        ]
    );
    let decision = events[0];
    assert_eq!(decision.decided_by, "file changes ask by default");
    assert_eq!(decision.source, Some(By::Policy));
    assert_eq!(events[1].decided_by, "grant `Write(//p/a.txt)`");
    let approved = events[2];
    assert_eq!(
        (approved.source, approved.scope),
        (Some(By::Person), Some(Scope::Session))
    );
    assert_eq!(approved.duration_ms, 3_000);
    assert_eq!(approved.decided_by, "answer allow (session)");

    let (_, _) = b.request_approval(write("s", "a.txt", "y"), 5_000).unwrap();
    let last = b
        .audit()
        .query(&AuditQuery::default())
        .last()
        .cloned()
        .cloned()
        .unwrap();
    assert_eq!(
        (last.source, last.to),
        (Some(By::Trust), Some(State::Approved))
    );
    let timed = AuditQuery {
        since: Some(5_000),
        ..AuditQuery::default()
    };
    assert!(b.audit().query(&timed).iter().all(|e| e.at >= 5_000));
    let tool = AuditQuery {
        tool: Some("Bash".into()),
        ..AuditQuery::default()
    };
    assert!(b.audit().query(&tool).is_empty());
}

#[test]
fn content_never_reaches_the_trail() {
    let mut b = broker();
    let (w, _) = b
        .request_approval(write("s", "notes.txt", &format!("password={SECRET}")), 0)
        .unwrap();
    let edited = Answer::Allow {
        scope: Scope::Once,
        rules: None,
        edited_input: Some(json!({"file_path": "notes.txt", "content": SECRET})),
    };
    b.respond(&w, edited, 1).unwrap();
    let (c, _) = b
        .request_approval(bash("s", &format!("echo {SECRET}")), 2)
        .unwrap();
    let deny = Answer::Deny {
        message: Some(format!("never print {SECRET}")),
    };
    b.respond(&c, deny, 3).unwrap();
    let lines = b.audit().to_json_lines(&AuditQuery::default());
    assert!(!lines.contains(SECRET), "{lines}");
    assert!(
        !lines.contains("notes.txt"),
        "paths are content too: {lines}"
    );
    let first: Value = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
    assert_eq!(
        first["input"],
        json!({"file_path": "<string:9>", "content": "<string:23>"})
    );
    for line in lines.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        assert!(v["seq"].is_u64() && v["approvalId"].is_string());
    }
}

#[test]
fn hosts_may_opt_in_to_arguments_per_tool() {
    let mut b = broker();
    b.audit_mut().record_arguments_of("Bash");
    b.request_approval(bash("s", "npm test"), 0).unwrap();
    b.request_approval(write("s", "a", SECRET), 0).unwrap();
    let lines = b.audit().to_json_lines(&AuditQuery::default());
    assert!(lines.contains("npm test"));
    assert!(!lines.contains(SECRET));
}

struct Flaky {
    seen: Rc<RefCell<Vec<AuditEvent>>>,
    calls: u32,
}

impl AuditSink for Flaky {
    fn send(&mut self, event: &AuditEvent) -> Result<(), SinkError> {
        self.calls += 1;
        if self.calls.is_multiple_of(2) {
            return Err(SinkError {
                message: "queue full".into(),
            });
        }
        self.seen.borrow_mut().push(event.clone());
        Ok(())
    }
    fn name(&self) -> &str {
        "flaky"
    }
}

#[test]
fn failing_sinks_never_block_and_drops_are_counted() {
    let mut b = broker();
    let seen = Rc::new(RefCell::new(Vec::new()));
    b.audit_mut().add_sink(Box::new(Flaky {
        seen: Rc::clone(&seen),
        calls: 0,
    }));
    for i in 0..5 {
        let (id, f) = b.request_approval(write("s", "a", "x"), i).unwrap();
        b.respond(&id, Answer::Deny { message: None }, i + 1)
            .unwrap();
        assert!(f.is_settled());
    }
    let stats = b.audit().stats();
    assert_eq!(stats.recorded, 10);
    assert_eq!(stats.retained, 10, "the in-memory log keeps every event");
    let sink = &stats.sinks[0];
    assert_eq!((sink.sent, sink.dropped), (5, 5));
    assert_eq!(sink.last_error.as_deref(), Some("queue full"));
    assert_eq!(seen.borrow().len(), 5);
}

#[test]
fn adapter_fallbacks_are_recorded_for_live_and_settled_approvals() {
    let mut b = broker();
    let (pending, _) = b.request_approval(bash("s", "make"), 1).unwrap();
    let seq = b
        .record_fallback(&pending, "needed `allow_once`, sent `allow_always`", 2)
        .unwrap();
    let (denied, f) = b.request_approval(bash("s", "rm -rf /"), 3).unwrap();
    assert!(f.is_settled());
    b.record_fallback(
        &denied,
        "needed `reject_once`, no reject option: cancelled",
        4,
    )
    .unwrap();
    let fallbacks: Vec<_> = b
        .audit()
        .query(&AuditQuery::default())
        .into_iter()
        .filter(|e| e.kind == AuditKind::Fallback)
        .collect();
    assert_eq!(fallbacks.len(), 2);
    assert_eq!(fallbacks[0].seq, seq);
    assert_eq!(fallbacks[0].approval_id, pending);
    assert_eq!(fallbacks[1].approval_id, denied);
    assert_eq!(fallbacks[1].tool, "Bash");
    assert_eq!(fallbacks[1].session_id, "s");
    assert!(fallbacks[1].decided_by.contains("reject_once"));

    let unknown = b.record_fallback("forged", "x", 5).unwrap_err();
    assert_eq!(unknown.code(), "UNKNOWN_APPROVAL");
    let empty = b.record_fallback(&pending, " ", 5).unwrap_err();
    assert_eq!(empty.code(), "INVALID_PARAMS");
}

#[test]
fn decisions_record_the_danger_classes() {
    let policy =
        toolgate::Policy::from_json(r#"{"permissions":{"deny":["Danger(publish)"]}}"#).unwrap();
    let mut b = toolgate::Broker::new(Box::new(policy));
    let mut req = bash("s", "git push --force origin main");
    req.request.cwd = Some("/p".into());
    let (id, _) = b.request_approval(req, 1_000).unwrap();
    let events = b.audit().query(&by_id(&id));
    let ids: Vec<&str> = events[0].dangers.iter().map(|c| c.id()).collect();
    assert_eq!(ids, ["history-rewrite", "network-upload"]);
    let json = serde_json::to_value(events[0]).unwrap();
    assert_eq!(json["dangers"][0], "history-rewrite");

    let mut req = bash("s", "npm publish");
    req.request.cwd = Some("/p".into());
    let (_, outcome) = b.request_approval(req, 2_000).unwrap();
    let feedback = outcome.outcome().unwrap().feedback.unwrap();
    assert!(feedback.ai_message.contains("[publish]"), "{feedback:?}");
}
