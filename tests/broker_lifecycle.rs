//! States and transitions through the broker, timeouts, cancellation, shutdown, listeners,
//! resumable state and wire shapes.
#![allow(clippy::unwrap_used, reason = "tests")]

mod broker_support;

use std::cell::RefCell;
use std::rc::Rc;

use broker_support::{bash, broker, call, write};
use serde_json::json;
use toolgate::broker::{Answer, ApprovalRequest, By, State, Status, Transition};
use toolgate::trust::Scope;
use toolgate::ErrorKind;
use toolgate::FeedbackCode;

fn once() -> Answer {
    Answer::Allow {
        scope: Scope::Once,
        rules: None,
        edited_input: None,
    }
}

fn record(b: &mut toolgate::broker::Broker) -> Rc<RefCell<Vec<Transition>>> {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let sink = Rc::clone(&seen);
    b.on_transition(Box::new(move |t: &Transition| {
        sink.borrow_mut().push(t.clone())
    }));
    seen
}

fn steps(seen: &Rc<RefCell<Vec<Transition>>>, id: &str) -> Vec<(Option<State>, State)> {
    seen.borrow()
        .iter()
        .filter(|t| t.id == id)
        .map(|t| (t.from, t.to))
        .collect()
}

#[test]
fn approved_executing_completed() {
    let mut b = broker();
    let seen = record(&mut b);
    let (id, _) = b.request_approval(write("s", "a", "1"), 0).unwrap();
    assert_eq!(b.state(&id), Some(State::PendingApproval));
    let e = b.start_execution(&id, 1).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::IllegalTransition);
    b.respond(&id, once(), 1).unwrap();
    assert_eq!(
        b.complete(&id, 2).unwrap_err().kind(),
        ErrorKind::IllegalTransition
    );
    b.start_execution(&id, 2).unwrap();
    assert_eq!(
        b.cancel(&id, 2).unwrap_err().kind(),
        ErrorKind::IllegalTransition
    );
    assert_eq!(
        b.state(&id),
        Some(State::Executing),
        "an illegal step changes nothing"
    );
    b.complete(&id, 3).unwrap();
    assert_eq!(b.state(&id), None);
    assert_eq!(
        b.complete(&id, 4).unwrap_err().kind(),
        ErrorKind::AlreadySettled
    );
    use State::*;
    assert_eq!(
        steps(&seen, &id),
        [
            (None, PendingApproval),
            (Some(PendingApproval), Approved),
            (Some(Approved), Executing),
            (Some(Executing), Completed)
        ]
    );
}

#[test]
fn executing_failed_tells_the_model() {
    let mut b = broker();
    let (id, _) = b
        .request_approval(call("s", "Read", json!({"file_path": "a"})), 0)
        .unwrap();
    assert_eq!(b.state(&id), Some(State::Approved));
    b.start_execution(&id, 1).unwrap();
    let fb = b.fail(&id, "no such file", 2).unwrap();
    assert_eq!(fb.code, FeedbackCode::ExecutionError);
    assert!(fb.ai_message.contains("no such file"));
    assert_eq!(
        b.fail(&id, "x", 3).unwrap_err().kind(),
        ErrorKind::AlreadySettled
    );
}

#[test]
fn approved_calls_can_be_cancelled_before_they_run() {
    let mut b = broker();
    let seen = record(&mut b);
    let (id, f) = b.request_approval(write("s", "a", "1"), 0).unwrap();
    b.respond(&id, once(), 1).unwrap();
    b.cancel(&id, 2).unwrap();
    assert_eq!(
        f.outcome().unwrap().status,
        Status::Approved,
        "the future settled once"
    );
    assert_eq!(
        steps(&seen, &id).last(),
        Some(&(Some(State::Approved), State::Cancelled))
    );
    assert_eq!(
        b.start_execution(&id, 3).unwrap_err().kind(),
        ErrorKind::AlreadySettled
    );
}

#[test]
fn timeouts_follow_the_injected_clock() {
    let mut b = broker();
    let mut short = write("s", "a", "1");
    short.timeout_ms = Some(60_000);
    let (a, fa) = b.request_approval(short, 1_000).unwrap();
    let (c, fc) = b.request_approval(write("s", "b", "2"), 2_000).unwrap();
    assert_eq!(b.next_deadline(), Some(61_000));
    assert!(b.tick(60_999).is_empty());
    assert_eq!(b.tick(61_000), std::slice::from_ref(&a));
    let o = fa.outcome().unwrap();
    assert_eq!((o.status, o.by), (Status::Expired, By::Timeout));
    assert_eq!(o.feedback.unwrap().code, FeedbackCode::ApprovalTimeout);
    assert_eq!(b.next_deadline(), Some(302_000));
    assert_eq!(b.tick(1_000_000), [c]);
    assert_eq!(fc.outcome().unwrap().status, Status::Expired);
    assert_eq!(b.next_deadline(), None);
    assert_eq!(
        b.respond(&a, once(), 1).unwrap_err().kind(),
        ErrorKind::AlreadySettled
    );
}

#[test]
fn bad_timeouts_and_duplicate_call_ids_are_errors() {
    let mut b = broker();
    for t in [0, 24 * 3_600_000 + 1] {
        let mut c = write("s", "a", "1");
        c.timeout_ms = Some(t);
        let e = b.request_approval(c, 0).unwrap_err();
        assert_eq!(
            (e.kind(), e.path()),
            (ErrorKind::InvalidRequest, "timeoutMs")
        );
    }
    let mut c = write("s", "a", "1");
    c.call_id = Some("call-1".into());
    b.request_approval(c.clone(), 0).unwrap();
    assert_eq!(
        b.request_approval(c.clone(), 0).unwrap_err().path(),
        "callId"
    );
    let e = b
        .request_approvals(vec![bash("s", "ls"), c], 0)
        .unwrap_err();
    assert_eq!(e.path(), "[1].callId");
    assert_eq!(b.pending().len(), 1, "a bad batch creates nothing");
}

#[test]
fn a_call_id_is_free_again_once_its_approval_no_longer_waits() {
    let mut b = broker();
    let mut c = write("s", "a", "1");
    c.call_id = Some("call-1".into());
    let (first, _f) = b.request_approval(c.clone(), 0).unwrap();
    b.cancel(&first, 1).unwrap();
    let (second, _g) = b.request_approval(c.clone(), 2).unwrap();
    b.respond(&second, once(), 3).unwrap();
    b.request_approval(c, 4).unwrap();
    assert_eq!(b.pending().len(), 1);
}

#[test]
fn cancelling_one_and_a_whole_session() {
    let mut b = broker();
    let (a, fa) = b.request_approval(write("s", "a", "1"), 0).unwrap();
    let (c, fc) = b.request_approval(bash("s", "npm test"), 0).unwrap();
    let (d, _) = b
        .request_approval(call("s", "Read", json!({"file_path": "x"})), 0)
        .unwrap();
    let (other, fo) = b.request_approval(write("t", "b", "2"), 0).unwrap();
    b.cancel(&a, 1).unwrap();
    let o = fa.outcome().unwrap();
    assert_eq!((o.status, o.by), (Status::Cancelled, By::Cancel));
    assert_eq!(o.feedback.unwrap().code, FeedbackCode::ApprovalCancelled);
    assert_eq!(
        b.cancel(&a, 1).unwrap_err().kind(),
        ErrorKind::AlreadySettled
    );
    assert_eq!(
        b.cancel("forged", 1).unwrap_err().kind(),
        ErrorKind::UnknownApproval
    );
    let cancelled = b.cancel_session("s", 2);
    assert_eq!(cancelled, [c, d], "pending and approved-not-running calls");
    assert_eq!(fc.outcome().unwrap().status, Status::Cancelled);
    assert!(!fo.is_settled());
    assert_eq!(b.state(&other), Some(State::PendingApproval));
}

#[test]
fn shutdown_and_drop_settle_everything() {
    let mut b = broker();
    let (_, f1) = b.request_approval(write("s", "a", "1"), 0).unwrap();
    b.shutdown(5);
    let o = f1.outcome().unwrap();
    assert_eq!((o.status, o.by), (Status::Cancelled, By::Shutdown));
    let e = b.request_approval(write("s", "a", "1"), 6).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::ShutDown);

    let mut b = broker();
    let seen = record(&mut b);
    let (id, f2) = b.request_approval(write("s", "a", "1"), 0).unwrap();
    drop(b);
    assert_eq!(f2.outcome().unwrap().by, By::Shutdown);
    assert_eq!(
        steps(&seen, &id).last(),
        Some(&(Some(State::PendingApproval), State::Cancelled))
    );
}

#[test]
fn listeners_see_outcomes_exactly_when_futures_settle() {
    let mut b = broker();
    let seen = record(&mut b);
    let (id, _) = b.request_approval(write("s", "a", "1"), 0).unwrap();
    b.respond(&id, Answer::Deny { message: None }, 1).unwrap();
    let (_, _) = b.request_approval(bash("s", "rm -rf x"), 2).unwrap();
    let settled: Vec<_> = seen
        .borrow()
        .iter()
        .filter(|t| t.outcome.is_some())
        .cloned()
        .collect();
    assert_eq!(settled.len(), 2);
    assert_eq!(settled[1].from, None, "settled at once: no pending state");
    assert_eq!(settled[1].to, State::Denied);
    let created = seen.borrow()[0].clone();
    assert_eq!(created.to, State::PendingApproval);
    let card = created
        .approval
        .expect("a new pending approval carries its card");
    assert_eq!(card.description, "Write to file: a");
    assert!(seen.borrow()[1..].iter().all(|t| t.approval.is_none()));
}

#[test]
fn saved_approvals_resume_only_for_the_same_call() {
    let mut b = broker();
    let mut c = bash("s", "npm publish");
    c.call_id = Some("call-7".into());
    let (id, _) = b.request_approval(c.clone(), 1_000).unwrap();
    let saved = b.save_pending(&id).unwrap();
    let text = serde_json::to_string(&saved).unwrap();
    drop(b);

    let mut b = broker();
    let saved: toolgate::broker::SavedApproval = toolgate::json::from_str(&text, "saved").unwrap();
    let altered = |f: &dyn Fn(&mut ApprovalRequest)| {
        let mut x = c.clone();
        f(&mut x);
        x
    };
    for bad in [
        altered(&|x| x.request.input = json!({"command": "npm publish --force"})),
        altered(&|x| x.call_id = Some("call-8".into())),
        altered(&|x| x.request.tool = "shell".into()),
        altered(&|x| x.session_id = "other".into()),
    ] {
        let e = b.resume(saved.clone(), bad, 2_000).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::ResumeMismatch, "{e}");
    }
    let mut tampered = saved.clone();
    tampered.approval["input"] = json!({"command": "npm test"});
    let e = b.resume(tampered, c.clone(), 2_000).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Tampered);

    let (rid, f) = b.resume(saved.clone(), c.clone(), 2_000).unwrap();
    assert_eq!(rid, id);
    assert_eq!(b.pending_approval(&id).unwrap().deadline, 301_000);
    assert_eq!(
        b.resume(saved.clone(), c.clone(), 2_000)
            .unwrap_err()
            .kind(),
        ErrorKind::ResumeMismatch
    );
    b.respond(&id, once(), 3_000).unwrap();
    assert!(f.outcome().unwrap().is_approved());
    let e = b.resume(saved.clone(), c.clone(), 4_000).unwrap_err();
    assert_eq!(
        e.kind(),
        ErrorKind::AlreadySettled,
        "a replayed approval is rejected"
    );

    let mut b = broker();
    let (_, f) = b.resume(saved, c, 400_000).unwrap();
    assert_eq!(
        f.outcome().unwrap().status,
        Status::Expired,
        "it expired while away"
    );
}

#[test]
fn wire_shapes_are_camel_case() {
    let mut b = broker();
    let mut c = call(
        "s",
        "Edit",
        json!({"file_path": "a", "old_string": "x", "new_string": "y"}),
    );
    c.call_id = Some("c1".into());
    c.request.agent = Some("claude".into());
    let (id, f) = b.request_approval(c, 7).unwrap();
    let card = serde_json::to_value(b.pending_approval(&id).unwrap()).unwrap();
    for key in [
        "id",
        "sessionId",
        "callId",
        "agent",
        "tool",
        "title",
        "description",
        "input",
        "preview",
        "diff",
        "risk",
        "trustable",
        "reason",
        "decision",
        "answers",
        "createdAt",
        "deadline",
    ] {
        assert!(card.get(key).is_some(), "missing `{key}` in {card}");
    }
    assert_eq!(
        card["diff"],
        json!({"oldText": "x", "newText": "y", "truncated": false})
    );
    assert_eq!(card["risk"], "medium");
    assert_eq!(card["answers"][0], "allowOnce");
    assert_eq!(card["decision"]["reason"]["decider"]["kind"], "toolDefault");
    b.respond(
        &id,
        Answer::Deny {
            message: Some("no".into()),
        },
        8,
    )
    .unwrap();
    let o = serde_json::to_value(f.outcome().unwrap()).unwrap();
    assert_eq!(o["status"], "denied");
    assert_eq!(o["by"], "person");
    assert_eq!(o["feedback"]["code"], "USER_DENIED");
    assert!(o["feedback"]["aiMessage"].is_string());
    let answer: Answer = toolgate::json::from_str(
        r#"{"kind":"allow","scope":"once","editedInput":{"command":"ls"}}"#,
        "answer",
    )
    .unwrap();
    assert!(matches!(
        answer,
        Answer::Allow {
            edited_input: Some(_),
            ..
        }
    ));
    let e = toolgate::json::from_str::<Answer>(r#"{"kind":"allow","scope":"forever"}"#, "answer")
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidJson);
    let e = toolgate::json::from_str::<Answer>(r#"{"kind":"deny","mesage":"x"}"#, "answer")
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownField);
}

/// Hands out the same id forever.
struct Stuck;
impl toolgate::broker::IdSource for Stuck {
    fn next_id(&mut self) -> toolgate::Result<String> {
        Ok("00000000-0000-4000-8000-000000000001".into())
    }
}

#[test]
fn a_repeating_id_source_fails_closed() {
    let mut b = broker().with_ids(Box::new(Stuck));
    b.request_approval(write("s", "a", "1"), 0).unwrap();
    let e = b.request_approval(write("s", "b", "2"), 0).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Entropy);
    let mut fresh = broker().with_ids(Box::new(Stuck));
    let e = fresh
        .request_approvals(vec![write("s", "a", "1"), write("s", "b", "2")], 0)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Entropy);
    assert!(fresh.pending().is_empty(), "nothing is created");
}
