//! The approval state machine, and who or what settles an approval: the layer below both
//! the broker, which drives the machine, and the audit trail, which records its steps. The
//! broker re-exports both types (`toolgate::broker::{By, State}`).
//!
//! ```text
//! pendingApproval ─┬─> approved ─┬─> executing ─┬─> completed
//!                  │             │              └─> failed
//!                  │             └─> cancelled
//!                  ├─> denied
//!                  ├─> expired
//!                  └─> cancelled
//! ```

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorKind, Result};

/// Where a tool call is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum State {
    /// Waiting for a person's answer.
    PendingApproval,
    /// May run (by the policy, a grant, or a person).
    Approved,
    /// The host is running it.
    Executing,
    /// It ran and succeeded.
    Completed,
    /// It ran and failed.
    Failed,
    /// It must not run (policy, person, registry).
    Denied,
    /// Nobody answered before the deadline; a deny.
    Expired,
    /// It was cancelled before it ran.
    Cancelled,
}

impl State {
    /// Every state, for tables and tests.
    pub const ALL: [State; 8] = [
        State::PendingApproval,
        State::Approved,
        State::Executing,
        State::Completed,
        State::Failed,
        State::Denied,
        State::Expired,
        State::Cancelled,
    ];

    /// The name used in JSON, e.g. `pendingApproval`.
    pub const fn as_str(self) -> &'static str {
        match self {
            State::PendingApproval => "pendingApproval",
            State::Approved => "approved",
            State::Executing => "executing",
            State::Completed => "completed",
            State::Failed => "failed",
            State::Denied => "denied",
            State::Expired => "expired",
            State::Cancelled => "cancelled",
        }
    }

    /// The states this one may move to.
    pub const fn next_states(self) -> &'static [State] {
        match self {
            State::PendingApproval => &[
                State::Approved,
                State::Denied,
                State::Expired,
                State::Cancelled,
            ],
            State::Approved => &[State::Executing, State::Cancelled],
            State::Executing => &[State::Completed, State::Failed],
            State::Completed
            | State::Failed
            | State::Denied
            | State::Expired
            | State::Cancelled => &[],
        }
    }

    /// Whether nothing can follow this state.
    pub const fn is_terminal(self) -> bool {
        self.next_states().is_empty()
    }

    /// `next` if the machine allows `self → next`, else an `ILLEGAL_TRANSITION` error.
    ///
    /// ```
    /// use toolgate::broker::State;
    /// assert_eq!(State::Approved.to(State::Executing).unwrap(), State::Executing);
    /// let e = State::PendingApproval.to(State::Executing).unwrap_err();
    /// assert_eq!(e.code(), "ILLEGAL_TRANSITION");
    /// ```
    pub fn to(self, next: State) -> Result<State> {
        if self.next_states().contains(&next) {
            return Ok(next);
        }
        let allowed: Vec<_> = self
            .next_states()
            .iter()
            .map(|s| format!("`{}`", s.as_str()))
            .collect();
        let hint = if allowed.is_empty() {
            format!("`{}` is final; nothing can follow it", self.as_str())
        } else {
            format!(
                "from `{}` it can go to {}",
                self.as_str(),
                allowed.join(", ")
            )
        };
        Err(Error::new(
            ErrorKind::IllegalTransition,
            format!(
                "a call cannot go from `{}` to `{}`",
                self.as_str(),
                next.as_str()
            ),
        )
        .with_hint(hint))
    }
}

/// Who or what settled an approval.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum By {
    /// The policy decided (allow or deny) without asking.
    Policy,
    /// A remembered grant or agent bypass allowed it.
    Trust,
    /// A person answered.
    Person,
    /// The deadline passed.
    Timeout,
    /// The host cancelled it (one approval or a whole session).
    Cancel,
    /// The broker shut down (or was dropped).
    Shutdown,
    /// The tool registry refused the call (unknown tool, invalid arguments).
    Registry,
}

impl By {
    /// The name used in JSON.
    pub const fn as_str(self) -> &'static str {
        match self {
            By::Policy => "policy",
            By::Trust => "trust",
            By::Person => "person",
            By::Timeout => "timeout",
            By::Cancel => "cancel",
            By::Shutdown => "shutdown",
            By::Registry => "registry",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exactly_the_documented_transitions_are_legal() {
        let legal = [
            (State::PendingApproval, State::Approved),
            (State::PendingApproval, State::Denied),
            (State::PendingApproval, State::Expired),
            (State::PendingApproval, State::Cancelled),
            (State::Approved, State::Executing),
            (State::Approved, State::Cancelled),
            (State::Executing, State::Completed),
            (State::Executing, State::Failed),
        ];
        let mut count = 0;
        for from in State::ALL {
            for to in State::ALL {
                let ok = from.to(to).is_ok();
                assert_eq!(ok, legal.contains(&(from, to)), "{from:?} -> {to:?}");
                count += usize::from(ok);
            }
        }
        assert_eq!(count, legal.len());
    }

    #[test]
    fn terminal_states_say_so() {
        let e = State::Completed.to(State::Approved).unwrap_err();
        assert!(e.hint().unwrap().contains("final"));
        assert!(State::Expired.is_terminal() && !State::Approved.is_terminal());
    }
}
