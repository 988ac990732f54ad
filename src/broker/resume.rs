//! Pending approvals that survive a restart of the host.
//!
//! [`Broker::save_pending`] returns a [`SavedApproval`]: the card plus a binding, a SHA-256
//! over the tool name, the call id and the canonical JSON of the arguments. After a restart
//! the host hands the saved approval back with the call the agent is still waiting on;
//! [`Broker::resume`] refuses it (`RESUME_MISMATCH`) unless the call is the very one that was
//! saved, so a replayed or altered approval cannot approve a different call. The resumed
//! approval keeps its id, creation time and deadline, and is decided by the policy again
//! (the policy may have changed while the host was away).
//!
//! The saved approval carries a checksum over all of it (like the trust document), so an
//! edited card (an earlier creation time, a later deadline, another id) is `TAMPERED`; and
//! whatever the saved times say, a resumed approval waits at most the broker's
//! `max_timeout_ms` from its creation, and is never created later than now.
//!
//! The card is kept as the JSON it was saved as: resuming reads back only what identifies
//! the call and its times ([`CardIdentity`]), since the policy decides the call again. So
//! the wasm module carries no decoder for the whole card and its decision.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::{ApprovalFuture, ApprovalRequest, Broker, PendingApproval, State};
use crate::error::{Error, ErrorKind, Result};

/// The version of [`SavedApproval`] this build writes and reads (2: with a checksum; 3: the
/// card carries its subject and label).
pub const SAVED_VERSION: u64 = 3;

/// A pending approval saved for later (JSON, camelCase).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SavedApproval {
    /// Always [`SAVED_VERSION`].
    #[cfg_attr(feature = "typescript", ts(type = "3"))]
    pub version: u64,
    /// The card as it was: a [`PendingApproval`] as JSON ([`SavedApproval::card`] decodes it).
    #[cfg_attr(feature = "typescript", ts(type = "PendingApproval"))]
    pub approval: Value,
    /// `sha256:<hex>` over the tool, the call id and the arguments.
    pub binding: String,
    /// `sha256:<hex>` over the canonical JSON (keys sorted) of the rest: `version`,
    /// `approval` and `binding`.
    pub checksum: String,
}

impl SavedApproval {
    /// The saved card, decoded.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidJson`] or [`ErrorKind::UnknownField`] at `approval.<key>` when the
    /// card is not a pending approval.
    ///
    /// ```
    /// use toolgate::broker::{ApprovalRequest, Broker};
    /// use toolgate::Policy;
    ///
    /// let mut broker = Broker::new(Box::new(Policy::from_json("{}")?));
    /// let call: ApprovalRequest = toolgate::json::from_str(
    ///     r#"{"sessionId":"s","request":{"tool":"Bash","input":{"command":"npm publish"}}}"#,
    ///     "approval request",
    /// )?;
    /// let (id, _) = broker.request_approval(call, 1_000)?;
    /// let saved = broker.save_pending(&id)?;
    /// assert_eq!(saved.card()?.tool, "Bash");
    /// # Ok::<(), toolgate::Error>(())
    /// ```
    pub fn card(&self) -> Result<PendingApproval> {
        crate::json::from_value(self.approval.clone(), "saved approval")
            .map_err(|e| e.within("approval"))
    }
}

/// What resuming reads back of a saved card: the call it belongs to and its times (unknown
/// keys are the rest of the card, which the checksum covers and the policy decides again).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CardIdentity {
    id: String,
    session_id: String,
    #[serde(default)]
    call_id: Option<String>,
    tool: String,
    input: Value,
    created_at: u64,
    deadline: u64,
}

/// What a saved approval's checksum covers.
#[derive(Serialize)]
struct Covered<'a> {
    version: u64,
    approval: &'a Value,
    binding: &'a str,
}

/// The checksum of a saved approval's content: SHA-256 over its canonical JSON.
fn saved_checksum(version: u64, approval: &Value, binding: &str) -> String {
    // Serializing a value and two scalars cannot fail; `Null` would only make every
    // checksum mismatch, which fails closed.
    let value = serde_json::to_value(Covered {
        version,
        approval,
        binding,
    })
    .unwrap_or(Value::Null);
    let hex: String = Sha256::digest(canonical(&value).as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256:{hex}")
}

/// The binding of a call: SHA-256 over its tool, call id and canonical arguments.
pub fn binding(tool: &str, call_id: Option<&str>, input: &Value) -> String {
    let mut h = Sha256::new();
    for part in [tool, call_id.unwrap_or(""), &canonical(input)] {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part.as_bytes());
    }
    let hex: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// JSON with object keys sorted, whatever the map type, so equal values hash equally.
fn canonical(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let items: Vec<String> = keys
                .into_iter()
                .map(|k| {
                    let v = map.get(k).map(canonical).unwrap_or_default();
                    format!("{}:{v}", Value::String(k.clone()))
                })
                .collect();
            format!("{{{}}}", items.join(","))
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(canonical).collect();
            format!("[{}]", items.join(","))
        }
        other => other.to_string(),
    }
}

fn mismatch(what: &str) -> Error {
    Error::new(
        ErrorKind::ResumeMismatch,
        format!("the saved approval does not belong to this call: {what} differs"),
    )
    .with_hint("resume a saved approval only with the exact call it was saved for")
}

impl Broker {
    /// Saves a pending approval so that it can be resumed after a restart.
    pub fn save_pending(&self, id: &str) -> Result<SavedApproval> {
        let Some(record) = self.records.get(id) else {
            return Err(self.not_live(id));
        };
        if record.state != State::PendingApproval {
            return Err(Error::new(
                ErrorKind::AlreadySettled,
                format!("approval `{id}` is no longer pending"),
            )
            .with_hint("only pending approvals can be saved"));
        }
        let card = &record.card;
        let binding = binding(&card.tool, card.call_id.as_deref(), &card.input);
        // A card is strings, numbers and values: it always serializes. A `Null` card could
        // only fail to resume, which fails closed.
        let approval = serde_json::to_value(card).unwrap_or(Value::Null);
        Ok(SavedApproval {
            version: SAVED_VERSION,
            checksum: saved_checksum(SAVED_VERSION, &approval, &binding),
            approval,
            binding,
        })
    }

    /// Resumes a saved approval for `call`, the call the agent is still waiting on. The
    /// approval keeps its id and deadline (a deadline that passed expires it at once) and is
    /// decided again by the policy and the trust store. A saved approval whose checksum does
    /// not match is `TAMPERED`; its deadline is capped at `max_timeout_ms` after its creation
    /// (and its creation at now).
    pub fn resume(
        &mut self,
        saved: SavedApproval,
        call: ApprovalRequest,
        now_ms: u64,
    ) -> Result<(String, ApprovalFuture)> {
        self.ensure_running()?;
        if saved.version != SAVED_VERSION {
            return Err(Error::new(
                ErrorKind::UnsupportedVersion,
                format!("saved approval version {} is not supported", saved.version),
            )
            .at("version")
            .with_hint(format!("this build reads version {SAVED_VERSION}")));
        }
        if saved_checksum(saved.version, &saved.approval, &saved.binding) != saved.checksum {
            return Err(Error::new(
                ErrorKind::Tampered,
                "the saved approval's checksum does not match its content",
            )
            .at("checksum")
            .with_hint("resume the saved approval exactly as `save_pending` returned it"));
        }
        let card: CardIdentity = crate::json::from_value(saved.approval, "saved approval")
            .map_err(|e| e.within("approval"))?;
        let own = binding(&card.tool, card.call_id.as_deref(), &card.input);
        if own != saved.binding {
            return Err(mismatch(
                "the saved approval's content (altered after saving)",
            ));
        }
        if call.request.tool != card.tool {
            return Err(mismatch("the tool"));
        }
        if call.call_id != card.call_id {
            return Err(mismatch("the call id"));
        }
        if call.session_id != card.session_id {
            return Err(mismatch("the session"));
        }
        let call_binding = binding(
            &call.request.tool,
            call.call_id.as_deref(),
            &call.request.input,
        );
        if call_binding != saved.binding {
            return Err(mismatch("the arguments"));
        }
        let id = card.id;
        if let Some(r) = self
            .records
            .get(&id)
            .filter(|r| r.state != State::PendingApproval)
        {
            return Err(Error::new(
                ErrorKind::AlreadySettled,
                format!(
                    "approval `{id}` was already answered (it is `{}`)",
                    r.state.as_str()
                ),
            )
            .with_hint("a saved approval cannot be replayed after it was answered"));
        }
        if self.records.contains_key(&id) {
            return Err(Error::new(
                ErrorKind::ResumeMismatch,
                format!("approval `{id}` is already live in this broker"),
            )
            .with_hint("resume a saved approval once"));
        }
        if self.settled_set.contains(&id) {
            return Err(self.not_live(&id));
        }
        self.check_call(&call, &std::collections::HashSet::new())?;
        let (created, deadline) = resumed_times(
            card.created_at,
            card.deadline,
            now_ms,
            self.config.max_timeout_ms,
        );
        Ok(self.admit(id, call, now_ms, created, deadline))
    }
}

/// The creation time and deadline a resumed approval keeps: never created after now, and
/// never waiting longer than `max_timeout_ms` after its creation.
fn resumed_times(created_at: u64, deadline: u64, now_ms: u64, max_timeout_ms: u64) -> (u64, u64) {
    let created = created_at.min(now_ms);
    (
        created,
        deadline.min(created.saturating_add(max_timeout_ms)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn resumed_deadlines_are_capped() {
        let day = 86_400_000;
        assert_eq!(resumed_times(1_000, 61_000, 5_000, day), (1_000, 61_000));
        assert_eq!(
            resumed_times(1_000, 365 * day, 5_000, day),
            (1_000, 1_000 + day)
        );
        assert_eq!(
            resumed_times(9_000, 9_000 + day, 5_000, day),
            (5_000, 5_000 + day)
        );
        assert_eq!(resumed_times(0, u64::MAX, u64::MAX, day), (0, day));
    }

    #[test]
    fn binding_ignores_key_order_but_not_values() {
        let a = binding("Bash", Some("c1"), &json!({"a": 1, "b": [1, {"x": "y"}]}));
        let v: Value = serde_json::from_str(r#"{"b":[1,{"x":"y"}],"a":1}"#).unwrap();
        assert_eq!(a, binding("Bash", Some("c1"), &v));
        assert_ne!(a, binding("Bash", Some("c2"), &v));
        assert_ne!(a, binding("bash", Some("c1"), &v));
        assert_ne!(
            a,
            binding("Bash", Some("c1"), &json!({"a": 2, "b": [1, {"x": "y"}]}))
        );
        assert_ne!(
            binding("ab", None, &json!(1)),
            binding("a", Some("b"), &json!(1))
        );
    }
}
