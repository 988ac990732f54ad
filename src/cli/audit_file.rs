//! The hook's audit log: one JSON line per decision, appended to
//! `$TOOLGATE_AUDIT_LOG` or `~/.local/state/toolgate/audit.jsonl`. Arguments are recorded
//! only as their shape ([`toolgate::audit::redact`]). A line is written with one `write` on a
//! file opened for appending, so concurrent hooks do not interleave lines.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use toolgate::agents::{HookCall, Outcome, Verdict};
use toolgate::Error;

/// The audit log's path.
pub fn path() -> Result<PathBuf, Error> {
    if let Some(p) = std::env::var_os("TOOLGATE_AUDIT_LOG") {
        return Ok(PathBuf::from(p));
    }
    Ok(super::files::state_dir()?.join("audit.jsonl"))
}

/// The audit record of one hook decision.
pub fn record(call: &HookCall, outcome: &Outcome, at_ms: u64) -> Value {
    let (verdict, _) = verdict_parts(&outcome.verdict);
    json!({
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
    })
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

/// Appends one record.
pub fn append(path: &Path, record: &Value) -> Result<(), Error> {
    let mut line = serde_json::to_string(record).unwrap_or_default();
    line.push('\n');
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| super::files::storage(dir, "create", &e))?;
    }
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| super::files::storage(path, "open", &e))?;
    f.write_all(line.as_bytes())
        .map_err(|e| super::files::storage(path, "append to", &e))
}
