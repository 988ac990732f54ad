//! Pending approvals that survive a restart of the host.
//!
//! [`Broker::save_pending`] returns a [`SavedApproval`]: the card plus a binding, a SHA-256
//! over the tool name, the call id and the canonical JSON of the arguments. After a restart
//! the host hands the saved approval back with the call the agent is still waiting on;
//! [`Broker::resume`] refuses it (`RESUME_MISMATCH`) unless the call is the very one that was
//! saved, so a replayed or altered approval cannot approve a different call. The resumed
//! approval keeps its id, creation time and deadline, and is decided by the policy again
//! (the policy may have changed while the host was away).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::{ApprovalFuture, ApprovalRequest, Broker, PendingApproval, State};
use crate::error::{Error, ErrorKind, Result};

/// The version of [`SavedApproval`] this build writes and reads.
pub const SAVED_VERSION: u64 = 1;

/// A pending approval saved for later (JSON, camelCase).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SavedApproval {
    /// Always [`SAVED_VERSION`].
    #[cfg_attr(feature = "typescript", ts(type = "1"))]
    pub version: u64,
    /// The card as it was.
    pub approval: PendingApproval,
    /// `sha256:<hex>` over the tool, the call id and the arguments.
    pub binding: String,
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
        Ok(SavedApproval {
            version: SAVED_VERSION,
            approval: card.clone(),
            binding: binding(&card.tool, card.call_id.as_deref(), &card.input),
        })
    }

    /// Resumes a saved approval for `call`, the call the agent is still waiting on. The
    /// approval keeps its id and deadline (a deadline that passed expires it at once) and is
    /// decided again by the policy and the trust store.
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
        let card = &saved.approval;
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
        let id = card.id.clone();
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
        let (created, deadline) = (card.created_at, card.deadline);
        Ok(self.admit(id, call, now_ms, created, deadline))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
