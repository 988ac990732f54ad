//! The hook's audit log: one JSON line per decision, appended to
//! `$TOOLGATE_AUDIT_LOG` or `~/.local/state/toolgate/audit.jsonl`. Arguments are recorded
//! only as their shape ([`toolgate::audit::redact`]). A decision the approval inbox took part
//! in says so (`inbox`: whether a person answered, the answer, its scope, and arguments put in
//! place of the agent's, as their shape). A line is written with one `write` on a file opened
//! for appending, so concurrent hooks do not interleave lines.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use toolgate::agents::inbox::{Applied, InboxAnswer};
use toolgate::agents::{HookCall, Outcome, Verdict};
use toolgate::Error;

/// The audit log's path.
pub fn path() -> Result<PathBuf, Error> {
    if let Some(p) = std::env::var_os("TOOLGATE_AUDIT_LOG") {
        return Ok(PathBuf::from(p));
    }
    Ok(super::files::state_dir()?.join("audit.jsonl"))
}

/// The audit record of one hook decision; `inbox` is [`inbox_account`] when the approval
/// inbox was asked.
pub fn record(call: &HookCall, outcome: &Outcome, inbox: Option<Value>, at_ms: u64) -> Value {
    let (verdict, _) = verdict_parts(&outcome.verdict);
    let mut record = json!({
        "at": at_ms,
        "kind": "hookDecision",
        "agent": call.agent.name(),
        "event": call.event.as_str(),
        "sessionId": call.session_id,
        "tool": call.tool,
        "effect": outcome.decision.as_ref().map(|d| d.effect.as_str()),
        "verdict": verdict,
        "decidedBy": outcome.decision.as_ref().map(|d| d.reason.text.clone()),
        "input": call.requests.iter().map(|r| json!({
            "tool": r.tool,
            "input": toolgate::audit::redact(&r.input),
        })).collect::<Vec<_>>(),
    });
    if let (Some(account), Some(fields)) = (inbox, record.as_object_mut()) {
        fields.insert("inbox".into(), account);
    }
    record
}

/// The approval inbox's part in a decision, for its audit record: `reply` is what the inbox
/// answered (or why it did not), `applied` what that answer did. Edited arguments are recorded
/// as their shape, like the call's own, and `inputReplaced` says whether they ran instead of
/// the agent's.
///
/// ```text
/// {"answeredBy":"inbox","answer":"allow","scope":"once","inputReplaced":true,"editedInput":{"command":"<string:9>"}}
/// {"answeredBy":null,"why":"nobody answered in the toolgate inbox in time"}
/// ```
pub fn inbox_account(reply: &Result<InboxAnswer, String>, applied: &Applied) -> Value {
    let replaced = applied.edited.is_some();
    match reply {
        Err(why) => json!({"answeredBy": null, "why": why}),
        Ok(InboxAnswer::Allow {
            scope,
            edited_input,
        }) => json!({
            "answeredBy": "inbox",
            "answer": "allow",
            "scope": scope,
            "inputReplaced": replaced,
            "editedInput": edited_input.as_ref().map(toolgate::audit::redact),
        }),
        Ok(InboxAnswer::Deny { .. }) => json!({"answeredBy": "inbox", "answer": "deny"}),
        // Nobody answered: the inbox sent the call back to the agent's prompt.
        Ok(InboxAnswer::Ask { reason }) => json!({"answeredBy": null, "why": reason}),
    }
}

/// The record of a hook run that failed before deciding.
pub fn failure_record(error: &str, at_ms: u64) -> Value {
    json!({"at": at_ms, "kind": "hookFailure", "verdict": "deny", "error": error})
}

/// A verdict's name and text.
pub fn verdict_parts(v: &Verdict) -> (&'static str, &str) {
    match v {
        Verdict::Allow(t) => ("allow", t),
        Verdict::Ask(t) => ("ask", t),
        Verdict::Deny(t) => ("deny", t),
        Verdict::Defer => ("defer", ""),
    }
}

/// Appends one record ([`super::files::append`]).
pub fn append(path: &Path, record: &Value) -> Result<(), Error> {
    let mut line = serde_json::to_string(record).unwrap_or_default();
    line.push('\n');
    super::files::append(path, &line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn applied(edited: Option<Value>) -> Applied {
        Applied {
            verdict: Verdict::Allow(String::new()),
            edited,
            grants: Vec::new(),
        }
    }

    #[test]
    fn the_inbox_account_names_the_answer_its_scope_and_the_shape_of_edited_arguments() {
        let edited = json!({"command": "echo replaced"});
        let reply = Ok(InboxAnswer::Allow {
            scope: toolgate::agents::inbox::AllowScope::Once,
            edited_input: Some(edited.clone()),
        });
        assert_eq!(
            inbox_account(&reply, &applied(Some(edited))),
            json!({"answeredBy": "inbox", "answer": "allow", "scope": "once",
                   "inputReplaced": true, "editedInput": {"command": "<string:13>"}})
        );
        let always = Ok(InboxAnswer::Allow {
            scope: toolgate::agents::inbox::AllowScope::ToolSession,
            edited_input: None,
        });
        assert_eq!(
            inbox_account(&always, &applied(None))["scope"],
            "toolSession"
        );
        let deny = Ok(InboxAnswer::Deny {
            message: Some("no".into()),
        });
        assert_eq!(
            inbox_account(&deny, &applied(None)),
            json!({"answeredBy": "inbox", "answer": "deny"})
        );
        let late = Err("nobody answered in time".to_owned());
        assert_eq!(
            inbox_account(&late, &applied(None)),
            json!({"answeredBy": null, "why": "nobody answered in time"})
        );
    }
}
