//! A one-shot cell and the future that waits on it: settles exactly once, needs no executor.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, Waker};

use serde_json::Value;

use super::{ApprovalOutcome, By, Status};
use crate::feedback::ModelFeedback;

#[derive(Debug, Default)]
struct Slot {
    outcome: Option<ApprovalOutcome>,
    waker: Option<Waker>,
}

fn lock(slot: &Mutex<Slot>) -> MutexGuard<'_, Slot> {
    // Nothing panics while holding the lock, so poisoning cannot happen; recover anyway.
    slot.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The sending half, kept by the broker. Dropped unsettled, it settles the future as
/// `cancelled` by `shutdown`, so no future can wait forever.
#[derive(Debug)]
pub(crate) struct Settler {
    slot: Arc<Mutex<Slot>>,
    id: String,
    tool: String,
    input: Value,
}

impl Settler {
    /// Settles the future; `false` (and no change) when it was settled already.
    pub(crate) fn settle(&self, outcome: ApprovalOutcome) -> bool {
        let waker = {
            let mut slot = lock(&self.slot);
            if slot.outcome.is_some() {
                return false;
            }
            slot.outcome = Some(outcome);
            slot.waker.take()
        };
        if let Some(w) = waker {
            w.wake();
        }
        true
    }
}

impl Drop for Settler {
    fn drop(&mut self) {
        let input = std::mem::take(&mut self.input);
        self.settle(ApprovalOutcome {
            id: self.id.clone(),
            status: Status::Cancelled,
            by: By::Shutdown,
            scope: None,
            input,
            message: None,
            grants: Vec::new(),
            remembered: false,
            feedback: Some(ModelFeedback::cancelled(
                &self.tool,
                "the approval broker shut down",
            )),
        });
    }
}

/// Resolves to the [`ApprovalOutcome`] of one approval, exactly once, whatever happens
/// (answer, timeout, cancel, shutdown, or the broker being dropped). Works with any
/// executor; [`ApprovalFuture::outcome`] reads it without one.
#[derive(Debug, Clone)]
pub struct ApprovalFuture {
    slot: Arc<Mutex<Slot>>,
    id: String,
}

impl ApprovalFuture {
    /// The approval's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The outcome, if settled.
    pub fn outcome(&self) -> Option<ApprovalOutcome> {
        lock(&self.slot).outcome.clone()
    }

    /// Whether it is settled.
    pub fn is_settled(&self) -> bool {
        lock(&self.slot).outcome.is_some()
    }
}

impl Future for ApprovalFuture {
    type Output = ApprovalOutcome;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<ApprovalOutcome> {
        let mut slot = lock(&self.slot);
        match &slot.outcome {
            Some(o) => Poll::Ready(o.clone()),
            None => {
                slot.waker = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    }
}

/// A connected settler and future.
pub(crate) fn channel(id: &str, tool: &str, input: &Value) -> (Settler, ApprovalFuture) {
    let slot = Arc::new(Mutex::new(Slot::default()));
    (
        Settler {
            slot: Arc::clone(&slot),
            id: id.to_owned(),
            tool: tool.to_owned(),
            input: input.clone(),
        },
        ApprovalFuture {
            slot,
            id: id.to_owned(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::task::Wake;

    struct Count(AtomicUsize);
    impl Wake for Count {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn outcome(status: Status) -> ApprovalOutcome {
        ApprovalOutcome {
            id: "a".into(),
            status,
            by: By::Person,
            scope: None,
            input: json!({}),
            message: None,
            grants: vec![],
            remembered: false,
            feedback: None,
        }
    }

    #[test]
    fn settles_once_and_wakes() {
        let (tx, mut rx) = channel("a", "Bash", &json!({}));
        let count = Arc::new(Count(AtomicUsize::new(0)));
        let waker = Waker::from(Arc::clone(&count));
        let mut cx = Context::from_waker(&waker);
        assert!(Pin::new(&mut rx).poll(&mut cx).is_pending());
        assert!(tx.settle(outcome(Status::Approved)));
        assert!(!tx.settle(outcome(Status::Denied)));
        assert_eq!(count.0.load(Ordering::SeqCst), 1);
        match Pin::new(&mut rx).poll(&mut cx) {
            Poll::Ready(o) => assert_eq!(o.status, Status::Approved),
            Poll::Pending => panic!("not settled"),
        }
    }

    #[test]
    fn dropping_the_settler_cancels() {
        let (tx, rx) = channel("a", "Bash", &json!({"command": "ls"}));
        drop(tx);
        let o = rx.outcome().unwrap();
        assert_eq!((o.status, o.by), (Status::Cancelled, By::Shutdown));
        assert_eq!(o.input, json!({"command": "ls"}));
    }
}
