//! The outbox: what a broker operation queued for its host, sealed into one [`Batch`].
//!
//! A host that cannot run its listeners while the broker is busy (JavaScript over wasm,
//! where a listener may call back into the broker) attaches an [`Outbox`] and seals a batch
//! after every operation: one crossing carries the result, the transitions and audit events
//! in order, the next deadline and, when the persisted part of the trust store changed, the
//! trust document to save. The outbox, not the host, decides when the document is saved:
//! never before the stored document has loaded, never over a stored document that failed to
//! load, and only when the persisted part changed since the last save.
//!
//! ```
//! use toolgate::broker::{ApprovalRequest, Broker, Outbox};
//! use toolgate::trust::NewGrant;
//! use toolgate::Policy;
//!
//! let policy = Policy::from_json(r#"{"permissions":{"allow":["Read"]}}"#)?;
//! let mut broker = Broker::new(Box::new(policy));
//! let mut outbox = Outbox::attach(&mut broker);
//! outbox.begin_load(&mut broker);
//! let loaded = outbox.finish_load(&mut broker, None, 0)?;
//! assert_eq!(loaded.trust, None); // nothing changed while loading: nothing to save
//!
//! let call: ApprovalRequest = toolgate::json::from_str(
//!     r#"{"sessionId":"s","request":{"tool":"Read","input":{"file_path":"/p/a.txt"},"cwd":"/p"}}"#,
//!     "approval request",
//! )?;
//! let admitted = outbox.admit(&mut broker, call, 1)?;
//! assert!(admitted.result.outcome.unwrap().is_approved()); // settled at once
//! assert_eq!(admitted.transitions.len(), 1);
//! assert_eq!(admitted.trust, None);
//!
//! let (store, rules) = broker.trust_and_rules();
//! let grant = store.grant(NewGrant::always("Write"), rules, 2)?;
//! let saved = outbox.seal(&broker, grant, 2);
//! assert!(saved.trust.unwrap().contains("Write"));
//! # Ok::<(), toolgate::Error>(())
//! ```

use std::cell::RefCell;
use std::rc::Rc;

use super::{Admitted, ApprovalFuture, ApprovalRequest, Batch, Broker, SavedApproval, Transition};
use crate::audit::{AuditEvent, AuditSink, SinkError};
use crate::error::Result;

/// Whether, and from which revision on, the trust document is saved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Saving {
    /// The host has no storage (it never began a load): nothing is saved.
    Off,
    /// The stored document is loading; the revision when the load began.
    Loading { began: u64 },
    /// Loaded: the revision last saved (or loaded).
    On { saved: u64 },
    /// The stored document was bad: it is never saved over.
    Blocked,
}

/// Queues audit events for the outbox.
struct QueueSink(Rc<RefCell<Vec<AuditEvent>>>);

impl AuditSink for QueueSink {
    fn send(&mut self, event: &AuditEvent) -> std::result::Result<(), SinkError> {
        self.0.borrow_mut().push(event.clone());
        Ok(())
    }

    fn name(&self) -> &str {
        "outbox"
    }
}

/// Collects a broker's transitions and audit events between operations, and seals them with
/// each operation's result into a [`Batch`]. See the [module docs](self).
#[derive(Debug)]
pub struct Outbox {
    transitions: Rc<RefCell<Vec<Transition>>>,
    events: Rc<RefCell<Vec<AuditEvent>>>,
    saving: Saving,
}

impl Outbox {
    /// Attaches an outbox to `broker`: a transition listener and an audit sink. Attach it
    /// after the broker's audit log is in place ([`Broker::with_audit`] replaces the log).
    pub fn attach(broker: &mut Broker) -> Outbox {
        let transitions = Rc::new(RefCell::new(Vec::new()));
        let events = Rc::new(RefCell::new(Vec::new()));
        let queue = transitions.clone();
        broker.on_transition(Box::new(move |t: &Transition| {
            queue.borrow_mut().push(t.clone());
        }));
        broker
            .audit_mut()
            .add_sink(Box::new(QueueSink(events.clone())));
        Outbox {
            transitions,
            events,
            saving: Saving::Off,
        }
    }

    /// Everything queued since the last batch, with `result`. Carries the trust document
    /// when the persisted part changed since it was last saved and the host saves it.
    pub fn seal<T>(&mut self, broker: &Broker, result: T, now_ms: u64) -> Batch<T> {
        let revision = broker.trust().revision();
        let trust = match self.saving {
            Saving::On { saved } if saved != revision => {
                self.saving = Saving::On { saved: revision };
                Some(broker.trust().export(now_ms))
            }
            _ => None,
        };
        Batch {
            result,
            transitions: std::mem::take(&mut *self.transitions.borrow_mut()),
            events: std::mem::take(&mut *self.events.borrow_mut()),
            next_deadline: broker.next_deadline(),
            trust,
        }
    }

    /// Asks for approval of `call` ([`Broker::request_approval`]); the result says whether
    /// it settled at once.
    ///
    /// # Errors
    /// What [`Broker::request_approval`] returns; what was queued stays for the next batch.
    pub fn admit(
        &mut self,
        broker: &mut Broker,
        call: ApprovalRequest,
        now_ms: u64,
    ) -> Result<Batch<Admitted>> {
        let made = broker.request_approval(call, now_ms)?;
        Ok(self.seal(broker, admitted(made), now_ms))
    }

    /// Asks for approval of several calls ([`Broker::request_approvals`]), in order.
    ///
    /// # Errors
    /// What [`Broker::request_approvals`] returns (nothing is created).
    pub fn admit_all(
        &mut self,
        broker: &mut Broker,
        calls: Vec<ApprovalRequest>,
        now_ms: u64,
    ) -> Result<Batch<Vec<Admitted>>> {
        let made = broker.request_approvals(calls, now_ms)?;
        let all = made.into_iter().map(admitted).collect();
        Ok(self.seal(broker, all, now_ms))
    }

    /// Resumes a saved approval ([`Broker::resume`]); it may settle at once (expired).
    ///
    /// # Errors
    /// What [`Broker::resume`] returns.
    pub fn resume(
        &mut self,
        broker: &mut Broker,
        saved: SavedApproval,
        call: ApprovalRequest,
        now_ms: u64,
    ) -> Result<Batch<Admitted>> {
        let made = broker.resume(saved, call, now_ms)?;
        Ok(self.seal(broker, admitted(made), now_ms))
    }

    /// Starts loading the stored trust document ([`crate::trust::TrustStore::begin_load`]):
    /// from now on the host saves, once the load has finished.
    pub fn begin_load(&mut self, broker: &mut Broker) {
        broker.trust_mut().begin_load();
        self.saving = Saving::Loading {
            began: broker.trust().revision(),
        };
    }

    /// Finishes the load with the stored document (`None` when there was none); the batch
    /// carries the trust document when something changed while it loaded.
    ///
    /// # Errors
    /// What [`crate::trust::TrustStore::finish_load`] returns for a bad document; the
    /// outbox then never hands out a document to save over it.
    pub fn finish_load(
        &mut self,
        broker: &mut Broker,
        stored: Option<&str>,
        now_ms: u64,
    ) -> Result<Batch<usize>> {
        let changed = match self.saving {
            Saving::Loading { began } => broker.trust().revision() != began,
            _ => false,
        };
        let (store, rules) = broker.trust_and_rules();
        match store.finish_load(stored, rules) {
            Ok(count) => {
                self.saving = Saving::On {
                    saved: broker.trust().revision(),
                };
                let mut batch = self.seal(broker, count, now_ms);
                // A change made while loading is saved now; the loaded document itself is not.
                if changed {
                    batch.trust = Some(broker.trust().export(now_ms));
                }
                Ok(batch)
            }
            Err(e) => {
                self.saving = Saving::Blocked;
                Err(e)
            }
        }
    }

    /// Finishes a load whose stored document could not be read (the storage failed): the
    /// changes made meanwhile stay, and the outbox never hands out a document to save over
    /// the one it could not read.
    pub fn abandon_load(&mut self, broker: &mut Broker, now_ms: u64) -> Batch<()> {
        let (store, rules) = broker.trust_and_rules();
        // Without a document to import, finishing cannot fail.
        let _ = store.finish_load(None, rules);
        self.saving = Saving::Blocked;
        self.seal(broker, (), now_ms)
    }
}

fn admitted((id, future): (String, ApprovalFuture)) -> Admitted {
    Admitted {
        outcome: future.outcome(),
        id,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broker::{Answer, Status};
    use crate::trust::{NewGrant, Scope};
    use crate::Policy;

    fn broker() -> (Broker, Outbox) {
        let policy =
            Policy::from_json(r#"{"permissions":{"allow":["Read"],"deny":["Bash(rm *)"]}}"#)
                .unwrap();
        let mut broker = Broker::new(Box::new(policy));
        let outbox = Outbox::attach(&mut broker);
        (broker, outbox)
    }

    fn call(command: &str) -> ApprovalRequest {
        crate::json::from_str(
            &format!(
                r#"{{"sessionId":"s","request":{{"tool":"Bash","input":{{"command":"{command}"}}}}}}"#
            ),
            "approval request",
        )
        .unwrap()
    }

    #[test]
    fn a_batch_carries_the_steps_events_and_deadline_of_its_operation() {
        let (mut broker, mut outbox) = broker();
        let asked = outbox.admit(&mut broker, call("git push"), 10).unwrap();
        assert!(asked.result.outcome.is_none());
        assert_eq!(asked.transitions.len(), 1);
        assert!(asked.transitions[0].approval.is_some());
        assert!(!asked.events.is_empty());
        assert_eq!(asked.next_deadline, Some(10 + 300_000));
        assert_eq!(asked.trust, None);

        let id = asked.result.id;
        let answer = Answer::Allow {
            scope: Scope::Once,
            rules: None,
            edited_input: None,
        };
        let outcome = broker.respond(&id, answer, 20).unwrap();
        let answered = outbox.seal(&broker, outcome, 20);
        assert_eq!(answered.transitions.len(), 1);
        assert_eq!(answered.next_deadline, None);
        // Sealed once: the next batch starts empty.
        let empty = outbox.seal(&broker, (), 21);
        assert!(empty.transitions.is_empty() && empty.events.is_empty());
    }

    #[test]
    fn calls_settled_at_once_carry_their_outcome() {
        let (mut broker, mut outbox) = broker();
        let denied = outbox.admit(&mut broker, call("rm -rf x"), 1).unwrap();
        assert_eq!(denied.result.outcome.unwrap().status, Status::Denied);
        let both = outbox
            .admit_all(&mut broker, vec![call("rm x"), call("git push")], 2)
            .unwrap();
        assert!(both.result[0].outcome.is_some());
        assert!(both.result[1].outcome.is_none());
        assert_eq!(both.transitions.len(), 2);
    }

    #[test]
    fn the_trust_document_is_handed_out_only_when_it_must_be_saved() {
        let (mut broker, mut outbox) = broker();
        // No storage (no load begun): never.
        let (store, rules) = broker.trust_and_rules();
        store.grant(NewGrant::always("Write"), rules, 1).unwrap();
        assert_eq!(outbox.seal(&broker, (), 1).trust, None);

        outbox.begin_load(&mut broker);
        broker.trust_mut().set_agent_bypass("claude", true);
        // While loading: never.
        assert_eq!(outbox.seal(&broker, (), 2).trust, None);
        // Changed while loading: saved once the load finished.
        let loaded = outbox.finish_load(&mut broker, None, 3).unwrap();
        assert!(loaded.trust.unwrap().contains("claude"));
        assert_eq!(outbox.seal(&broker, (), 4).trust, None);

        // A session grant is not persisted; an always grant is.
        let (store, rules) = broker.trust_and_rules();
        store
            .grant(NewGrant::session("Edit", "s"), rules, 5)
            .unwrap();
        assert_eq!(outbox.seal(&broker, (), 5).trust, None);
        let (store, rules) = broker.trust_and_rules();
        store.grant(NewGrant::always("Edit"), rules, 6).unwrap();
        assert!(outbox.seal(&broker, (), 6).trust.is_some());
    }

    #[test]
    fn a_load_without_changes_saves_nothing_and_a_bad_document_is_never_saved_over() {
        let (mut broker, mut outbox) = broker();
        outbox.begin_load(&mut broker);
        let stored = crate::trust::TrustStore::new().export(0);
        let loaded = outbox.finish_load(&mut broker, Some(&stored), 1).unwrap();
        assert_eq!(loaded.result, 0);
        assert_eq!(loaded.trust, None);

        let (mut broker, mut outbox) = self::broker();
        outbox.begin_load(&mut broker);
        assert!(outbox.finish_load(&mut broker, Some("{"), 1).is_err());
        broker.trust_mut().set_agent_bypass("claude", true);
        assert_eq!(outbox.seal(&broker, (), 2).trust, None);

        let (mut broker, mut outbox) = self::broker();
        outbox.begin_load(&mut broker);
        broker.trust_mut().set_agent_bypass("claude", true);
        assert_eq!(outbox.abandon_load(&mut broker, 1).trust, None);
        assert!(broker.trust().agent_bypass(Some("claude")));
        assert!(!broker.trust().loading());
        broker.trust_mut().set_agent_bypass("codex", true);
        assert_eq!(outbox.seal(&broker, (), 2).trust, None);
    }
}
