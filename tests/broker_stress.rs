//! 10,000 concurrent approvals answered in random order, with random timeouts, cancels,
//! batch answers, and forged and duplicate answers: every future settles exactly once and
//! nothing is left pending.
#![allow(clippy::unwrap_used, reason = "tests")]

mod broker_support;

use std::cell::RefCell;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Wake, Waker};

use broker_support::{bash, broker, call, write};
use serde_json::json;
use toolgate::broker::{Answer, ApprovalFuture, ApprovalRequest, Status, Transition};
use toolgate::trust::Scope;
use toolgate::ErrorKind;

const N: usize = 10_000;

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

struct Wakes(AtomicUsize);
impl Wake for Wakes {
    fn wake(self: Arc<Self>) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

fn random_call(rng: &mut Rng, i: usize) -> ApprovalRequest {
    let session = format!("s{}", rng.below(50));
    let mut c = match rng.below(4) {
        0 => write(&session, &format!("f{i}"), "x"),
        1 => bash(&session, &format!("make t{}", rng.below(1000))),
        2 => call(&session, "Delete", json!({ "file_path": format!("f{i}") })),
        _ => call(
            &session,
            "WebFetch",
            json!({ "url": "https://example.com" }),
        ),
    };
    c.timeout_ms = Some(1_000 + rng.next() % 600_000);
    if rng.below(2) == 0 {
        c.call_id = Some(format!("call-{i}"));
    }
    c
}

#[test]
fn ten_thousand_approvals_settle_exactly_once() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut b = broker();
    let settlements: Rc<RefCell<HashMap<String, usize>>> = Rc::default();
    let sink = Rc::clone(&settlements);
    b.on_transition(Box::new(move |t: &Transition| {
        if t.outcome.is_some() {
            *sink.borrow_mut().entry(t.id.clone()).or_default() += 1;
        }
    }));

    let mut now = 0u64;
    let mut futures: Vec<(String, ApprovalFuture, Arc<Wakes>, bool)> = Vec::with_capacity(N);
    let mut i = 0;
    while i < N {
        let batch = 1 + rng.below(10).min(N - i - 1);
        let calls: Vec<_> = (0..batch).map(|k| random_call(&mut rng, i + k)).collect();
        for (id, mut f) in b.request_approvals(calls, now).unwrap() {
            let wakes = Arc::new(Wakes(AtomicUsize::new(0)));
            let waker = Waker::from(Arc::clone(&wakes));
            let waiting = Pin::new(&mut f)
                .poll(&mut Context::from_waker(&waker))
                .is_pending();
            futures.push((id, f, wakes, waiting));
        }
        i += batch;
        now += rng.next() % 20;
    }
    assert_eq!(futures.len(), N);
    let pending_at_start = b.pending().len();
    assert!(
        pending_at_start > N / 2,
        "most calls must wait for a person"
    );

    let ids: Vec<String> = futures.iter().map(|(id, ..)| id.clone()).collect();
    let (mut answered, mut rejected) = (0, 0);
    for step in 0..(4 * N) {
        now += rng.next() % 100;
        if step % 7 == 0 {
            b.tick(now);
        }
        let id = &ids[rng.below(N)];
        let result = match rng.below(20) {
            0..=7 => b
                .respond(
                    id,
                    Answer::Allow {
                        scope: Scope::Once,
                        rules: None,
                        edited_input: None,
                    },
                    now,
                )
                .map(|_| ()),
            8..=12 => b
                .respond(
                    id,
                    Answer::Deny {
                        message: Some("no".into()),
                    },
                    now,
                )
                .map(|_| ()),
            13 => b
                .respond(
                    id,
                    Answer::Allow {
                        scope: Scope::Session,
                        rules: None,
                        edited_input: None,
                    },
                    now,
                )
                .map(|_| ()),
            14 | 15 => b.cancel(id, now),
            16 => {
                let forged = format!("{:032x}", rng.next());
                let e = b
                    .respond(&forged, Answer::Deny { message: None }, now)
                    .unwrap_err();
                assert_eq!(e.kind(), ErrorKind::UnknownApproval);
                Err(e)
            }
            17 if rng.below(50) == 0 => {
                b.cancel_session(&format!("s{}", rng.below(50)), now);
                Ok(())
            }
            18 if rng.below(50) == 0 => b
                .approve_all(&format!("s{}", rng.below(50)), now)
                .map(|_| ()),
            _ => b.respond(id, Answer::AllowToolForSession, now).map(|_| ()),
        };
        match result {
            Ok(()) => answered += 1,
            Err(e) => {
                assert!(
                    matches!(
                        e.kind(),
                        ErrorKind::AlreadySettled
                            | ErrorKind::UnknownApproval
                            | ErrorKind::AnswerNotOffered
                            | ErrorKind::GrantRefused
                            | ErrorKind::IllegalTransition
                    ),
                    "{e}"
                );
                rejected += 1;
            }
        }
    }
    // Whatever is left times out.
    b.tick(now + 1_000_000);
    assert!(b.pending().is_empty());
    assert_eq!(b.next_deadline(), None);
    b.shutdown(now + 1_000_001);

    let counts = settlements.borrow();
    let mut by_status: HashMap<Status, usize> = HashMap::new();
    for (id, f, wakes, waiting) in &futures {
        let outcome = f.outcome().unwrap_or_else(|| panic!("{id} never settled"));
        assert_eq!(&outcome.id, id);
        assert_eq!(
            counts.get(id),
            Some(&1),
            "{id} settled {:?} times",
            counts.get(id)
        );
        let woken = wakes.0.load(Ordering::SeqCst);
        assert_eq!(woken, usize::from(*waiting), "{id} woken {woken} times");
        *by_status.entry(outcome.status).or_default() += 1;
    }
    assert!(
        answered > 1_000 && rejected > 1_000,
        "{answered} answered, {rejected} rejected"
    );
    for status in [
        Status::Approved,
        Status::Denied,
        Status::Expired,
        Status::Cancelled,
    ] {
        assert!(
            by_status.get(&status).copied().unwrap_or(0) > 100,
            "{by_status:?}"
        );
    }
}
