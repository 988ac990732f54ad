//! Every broker operation from every state: legal steps move, illegal ones are typed errors
//! that change nothing.
#![allow(clippy::unwrap_used, reason = "tests")]

mod broker_support;

use broker_support::{broker, write};
use toolgate::broker::{Answer, Broker, State};
use toolgate::trust::Scope;
use toolgate::ErrorKind;

#[derive(Clone, Copy, Debug)]
enum Op {
    Allow,
    Deny,
    Cancel,
    Start,
    Complete,
    Fail,
}

const OPS: [Op; 6] = [
    Op::Allow,
    Op::Deny,
    Op::Cancel,
    Op::Start,
    Op::Complete,
    Op::Fail,
];

fn apply(b: &mut Broker, id: &str, op: Op, now: u64) -> Result<(), ErrorKind> {
    let r = match op {
        Op::Allow => b
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
        Op::Deny => b
            .respond(id, Answer::Deny { message: None }, now)
            .map(|_| ()),
        Op::Cancel => b.cancel(id, now),
        Op::Start => b.start_execution(id, now),
        Op::Complete => b.complete(id, now),
        Op::Fail => b.fail(id, "boom", now).map(|_| ()),
    };
    r.map_err(|e| e.kind())
}

/// A broker with one approval brought to `state` by legal steps.
fn at(state: State) -> (Broker, String) {
    let mut b = broker();
    let mut c = write("s", "a", "1");
    c.timeout_ms = Some(1_000);
    let (id, _) = b.request_approval(c, 0).unwrap();
    let path: &[Op] = match state {
        State::PendingApproval => &[],
        State::Approved => &[Op::Allow],
        State::Executing => &[Op::Allow, Op::Start],
        State::Completed => &[Op::Allow, Op::Start, Op::Complete],
        State::Failed => &[Op::Allow, Op::Start, Op::Fail],
        State::Denied => &[Op::Deny],
        State::Cancelled => &[Op::Cancel],
        State::Expired => {
            b.tick(1_000);
            &[]
        }
    };
    for op in path {
        apply(&mut b, &id, *op, 10).unwrap();
    }
    (b, id)
}

/// What each operation does from each state: the next live state (`None` when final), or
/// the error kind.
fn expected(from: State, op: Op) -> Result<Option<State>, ErrorKind> {
    use ErrorKind::*;
    use State::*;
    match (from, op) {
        (PendingApproval, Op::Allow) => Ok(Some(Approved)),
        (PendingApproval, Op::Deny | Op::Cancel) => Ok(None),
        (PendingApproval, _) => Err(IllegalTransition),
        (Approved, Op::Allow | Op::Deny) => Err(AlreadySettled),
        (Approved, Op::Cancel) => Ok(None),
        (Approved, Op::Start) => Ok(Some(Executing)),
        (Approved, _) => Err(IllegalTransition),
        (Executing, Op::Allow | Op::Deny) => Err(AlreadySettled),
        (Executing, Op::Complete | Op::Fail) => Ok(None),
        (Executing, _) => Err(IllegalTransition),
        // Final states are forgotten; the broker remembers that they settled.
        (_, _) => Err(AlreadySettled),
    }
}

#[test]
fn every_operation_from_every_state() {
    let mut checked = 0;
    for from in State::ALL {
        for op in OPS {
            let (mut b, id) = at(from);
            let before = b.state(&id);
            let got = apply(&mut b, &id, op, 20).map(|()| b.state(&id));
            assert_eq!(got, expected(from, op), "{from:?} + {op:?}");
            if got.is_err() {
                assert_eq!(b.state(&id), before, "{from:?} + {op:?} changed the state");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 48);
}
