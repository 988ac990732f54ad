//! Time, cancellation, shutdown and execution: everything but a person's answer.

use super::{deny_outcome, Broker, By, State};
use crate::error::Result;
use crate::feedback::ModelFeedback;

impl Broker {
    /// Expires every pending approval whose deadline is at or before `now_ms` (settling it
    /// `expired`, a deny with `APPROVAL_TIMEOUT`) and returns their ids.
    pub fn tick(&mut self, now_ms: u64) -> Vec<String> {
        let mut expired = Vec::new();
        while let Some((deadline, id)) = self.deadlines.first().cloned() {
            if deadline > now_ms {
                break;
            }
            self.deadlines.remove(&(deadline, id.clone()));
            if self.expire(&id, now_ms) {
                expired.push(id);
            }
        }
        expired
    }

    /// Expires one pending approval; `false` if it is not pending.
    pub(super) fn expire(&mut self, id: &str, now_ms: u64) -> bool {
        let Some(record) = self.records.get(id) else {
            return false;
        };
        if record.state != State::PendingApproval {
            return false;
        }
        let waited = record.card.deadline.saturating_sub(record.card.created_at);
        let feedback = ModelFeedback::timeout(&record.card.tool, waited);
        let outcome = deny_outcome(&record.card, By::Timeout, None, feedback);
        let why = format!("deadline {} passed", record.card.deadline);
        self.advance(id, State::Expired, Some(outcome), Some(why), now_ms)
            .is_ok()
    }

    /// Cancels one approval: a pending one settles `cancelled` (`APPROVAL_CANCELLED`); an
    /// approved one that has not started running moves to `cancelled` (its future already
    /// resolved `approved`; listeners see the change). An executing call cannot be
    /// cancelled here (`ILLEGAL_TRANSITION`); settled and unknown ids are errors.
    pub fn cancel(&mut self, id: &str, now_ms: u64) -> Result<()> {
        self.cancel_with(id, By::Cancel, "cancelled by the host", now_ms)
    }

    fn cancel_with(&mut self, id: &str, by: By, why: &str, now_ms: u64) -> Result<()> {
        let Some(record) = self.records.get(id) else {
            return Err(self.not_live(id));
        };
        let outcome = (record.state == State::PendingApproval).then(|| {
            let feedback = ModelFeedback::cancelled(&record.card.tool, why);
            deny_outcome(&record.card, by, None, feedback)
        });
        self.advance(id, State::Cancelled, outcome, Some(why.to_owned()), now_ms)
    }

    /// Cancels every pending and approved-but-not-running call of a session (the ACP
    /// `session/cancel` rule: every pending request answers `cancelled`). Returns the ids.
    pub fn cancel_session(&mut self, session_id: &str, now_ms: u64) -> Vec<String> {
        let ids = self.live_ids(|r| {
            r.card.session_id == session_id
                && matches!(r.state, State::PendingApproval | State::Approved)
        });
        ids.into_iter()
            .filter(|id| {
                self.cancel_with(id, By::Cancel, "the session was cancelled", now_ms)
                    .is_ok()
            })
            .collect()
    }

    /// Cancels the session's calls and forgets its session grants.
    pub fn end_session(&mut self, session_id: &str, now_ms: u64) -> Vec<String> {
        let ids = self.cancel_session(session_id, now_ms);
        self.trust.clear_session(session_id);
        ids
    }

    /// Cancels everything that has not started running (`cancelled` by `shutdown`) and
    /// refuses new calls and answers with `SHUT_DOWN`. Dropping the broker does the same.
    pub fn shutdown(&mut self, now_ms: u64) {
        let ids = self.live_ids(|r| matches!(r.state, State::PendingApproval | State::Approved));
        for id in ids {
            let _ = self.cancel_with(&id, By::Shutdown, "the approval broker shut down", now_ms);
        }
        self.shut_down = true;
    }

    /// Reports that an approved call started running (`approved → executing`).
    pub fn start_execution(&mut self, id: &str, now_ms: u64) -> Result<()> {
        self.advance(id, State::Executing, None, None, now_ms)
    }

    /// Reports that a running call succeeded (`executing → completed`).
    pub fn complete(&mut self, id: &str, now_ms: u64) -> Result<()> {
        self.advance(id, State::Completed, None, None, now_ms)
    }

    /// Reports that a running call failed (`executing → failed`) and returns what to tell
    /// the model (`EXECUTION_ERROR`). The error text is not audited.
    pub fn fail(&mut self, id: &str, error: &str, now_ms: u64) -> Result<ModelFeedback> {
        let tool = self.records.get(id).map(|r| r.card.tool.clone());
        self.advance(id, State::Failed, None, None, now_ms)?;
        Ok(ModelFeedback::execution_error(
            tool.as_deref().unwrap_or("the tool"),
            error,
        ))
    }

    /// Ids of live records matching `keep`, oldest first.
    pub(super) fn live_ids(&self, keep: impl Fn(&super::Record) -> bool) -> Vec<String> {
        let mut live: Vec<(u64, String)> = self
            .records
            .iter()
            .filter(|(_, r)| keep(r))
            .map(|(id, r)| (r.seq, id.clone()))
            .collect();
        live.sort();
        live.into_iter().map(|(_, id)| id).collect()
    }
}
