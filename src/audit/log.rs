//! The bounded audit log and its sinks.

use std::collections::{BTreeSet, VecDeque};
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{redact, AuditEvent};

/// Why a sink did not take an event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SinkError {
    /// What went wrong, for people.
    pub message: String,
}

impl fmt::Display for SinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SinkError {}

/// Where audit events go besides the in-memory log: a file writer, a queue to a server.
///
/// `send` must not block: a sink that cannot take an event now returns an error (full
/// queue, closed connection), and the log counts the event as dropped for that sink. A
/// failing sink never stops a decision or another sink.
pub trait AuditSink {
    /// Takes one event.
    fn send(&mut self, event: &AuditEvent) -> Result<(), SinkError>;

    /// A name for reports.
    fn name(&self) -> &str {
        "sink"
    }
}

/// A filter for [`AuditLog::query`]; empty fields match everything.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AuditQuery {
    /// Only events of this approval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval_id: Option<String>,
    /// Only events of this tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// Only events at or after this time (Unix ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<u64>,
    /// Only events before this time (Unix ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<u64>,
}

impl AuditQuery {
    fn matches(&self, e: &AuditEvent) -> bool {
        self.approval_id
            .as_ref()
            .is_none_or(|id| *id == e.approval_id)
            && self.tool.as_ref().is_none_or(|t| *t == e.tool)
            && self.since.is_none_or(|t| e.at >= t)
            && self.until.is_none_or(|t| e.at < t)
    }
}

/// Delivery figures of one sink.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SinkStats {
    /// The sink's name.
    pub name: String,
    /// Events it took.
    pub sent: u64,
    /// Events it refused.
    pub dropped: u64,
    /// Its last error.
    pub last_error: Option<String>,
}

/// What the log recorded and lost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditStats {
    /// Events recorded since the log was made.
    pub recorded: u64,
    /// Events still in memory.
    pub retained: usize,
    /// Events pushed out of memory by newer ones.
    pub evicted: u64,
    /// Per-sink delivery.
    pub sinks: Vec<SinkStats>,
}

struct Slot {
    sink: Box<dyn AuditSink>,
    sent: u64,
    dropped: u64,
    last_error: Option<String>,
}

/// A bounded in-memory audit log with sinks.
///
/// ```
/// use toolgate::audit::{AuditLog, AuditQuery};
/// let log = AuditLog::new(1_000);
/// assert!(log.query(&AuditQuery::default()).is_empty());
/// assert_eq!(log.to_json_lines(&AuditQuery::default()), "");
/// ```
pub struct AuditLog {
    capacity: usize,
    events: VecDeque<AuditEvent>,
    next_seq: u64,
    evicted: u64,
    sinks: Vec<Slot>,
    content_tools: BTreeSet<String>,
}

impl fmt::Debug for AuditLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AuditLog")
            .field("capacity", &self.capacity)
            .field("retained", &self.events.len())
            .field("sinks", &self.sinks.len())
            .finish()
    }
}

impl Default for AuditLog {
    fn default() -> Self {
        AuditLog::new(10_000)
    }
}

impl AuditLog {
    /// A log that keeps the last `capacity` events in memory (at least one).
    pub fn new(capacity: usize) -> Self {
        AuditLog {
            capacity: capacity.max(1),
            events: VecDeque::new(),
            next_seq: 1,
            evicted: 0,
            sinks: Vec::new(),
            content_tools: BTreeSet::new(),
        }
    }

    /// Adds a sink; every later event is sent to it.
    pub fn add_sink(&mut self, sink: Box<dyn AuditSink>) {
        self.sinks.push(Slot {
            sink,
            sent: 0,
            dropped: 0,
            last_error: None,
        });
    }

    /// Opts in to recording `tool`'s arguments as they are (for tools whose arguments are
    /// not sensitive). Off for every tool by default.
    pub fn record_arguments_of(&mut self, tool: &str) {
        self.content_tools.insert(tool.to_owned());
    }

    /// The arguments of a call as the log records them: redacted unless opted in.
    pub fn recorded_input(&self, tool: &str, input: &Value) -> Value {
        if self.content_tools.contains(tool) {
            input.clone()
        } else {
            redact(input)
        }
    }

    /// Records an event (its `seq` is assigned here) and sends it to every sink.
    pub fn record(&mut self, mut event: AuditEvent) -> u64 {
        event.seq = self.next_seq;
        self.next_seq += 1;
        for slot in &mut self.sinks {
            match slot.sink.send(&event) {
                Ok(()) => slot.sent += 1,
                Err(e) => {
                    slot.dropped += 1;
                    slot.last_error = Some(e.message);
                }
            }
        }
        if self.events.len() >= self.capacity {
            self.events.pop_front();
            self.evicted += 1;
        }
        let seq = event.seq;
        self.events.push_back(event);
        seq
    }

    /// The events in memory that match, oldest first.
    pub fn query(&self, q: &AuditQuery) -> Vec<&AuditEvent> {
        self.events.iter().filter(|e| q.matches(e)).collect()
    }

    /// The matching events as JSON Lines (one compact JSON object per line, each ending in
    /// a newline).
    pub fn to_json_lines(&self, q: &AuditQuery) -> String {
        let mut out = String::new();
        for e in self.query(q) {
            if let Ok(line) = serde_json::to_string(e) {
                out.push_str(&line);
                out.push('\n');
            }
        }
        out
    }

    /// What was recorded, evicted and dropped.
    pub fn stats(&self) -> AuditStats {
        AuditStats {
            recorded: self.next_seq - 1,
            retained: self.events.len(),
            evicted: self.evicted,
            sinks: self
                .sinks
                .iter()
                .map(|s| SinkStats {
                    name: s.sink.name().to_owned(),
                    sent: s.sent,
                    dropped: s.dropped,
                    last_error: s.last_error.clone(),
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::AuditKind;
    use serde_json::json;

    fn event(at: u64, id: &str, tool: &str) -> AuditEvent {
        AuditEvent {
            seq: 0,
            at,
            kind: AuditKind::Decision,
            approval_id: id.into(),
            session_id: "s".into(),
            call_id: None,
            tool: tool.into(),
            agent: None,
            effect: None,
            from: None,
            to: None,
            decided_by: "test".into(),
            source: None,
            scope: None,
            duration_ms: 0,
            input: None,
            dangers: Vec::new(),
        }
    }

    struct Failing;
    impl AuditSink for Failing {
        fn send(&mut self, _: &AuditEvent) -> Result<(), SinkError> {
            Err(SinkError {
                message: "queue full".into(),
            })
        }
        fn name(&self) -> &str {
            "failing"
        }
    }

    #[test]
    fn ring_buffer_evicts_and_counts() {
        let mut log = AuditLog::new(3);
        for i in 0..5 {
            log.record(event(i, "a", "Bash"));
        }
        let s = log.stats();
        assert_eq!((s.recorded, s.retained, s.evicted), (5, 3, 2));
        let seqs: Vec<_> = log
            .query(&AuditQuery::default())
            .iter()
            .map(|e| e.seq)
            .collect();
        assert_eq!(seqs, [3, 4, 5]);
    }

    #[test]
    fn queries_filter_by_id_tool_and_time() {
        let mut log = AuditLog::new(10);
        log.record(event(1, "a", "Bash"));
        log.record(event(2, "b", "Write"));
        log.record(event(3, "a", "Bash"));
        let q = |approval_id: Option<&str>, tool: Option<&str>, since, until| AuditQuery {
            approval_id: approval_id.map(Into::into),
            tool: tool.map(Into::into),
            since,
            until,
        };
        assert_eq!(log.query(&q(Some("a"), None, None, None)).len(), 2);
        assert_eq!(log.query(&q(None, Some("Write"), None, None)).len(), 1);
        assert_eq!(log.query(&q(None, None, Some(2), Some(3))).len(), 1);
        let lines = log.to_json_lines(&q(Some("a"), None, None, None));
        assert_eq!(lines.lines().count(), 2);
        for line in lines.lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            assert_eq!(v["approvalId"], "a");
        }
    }

    #[test]
    fn failing_sinks_are_counted_not_fatal() {
        let mut log = AuditLog::new(10);
        log.add_sink(Box::new(Failing));
        log.record(event(1, "a", "Bash"));
        log.record(event(2, "a", "Bash"));
        let s = log.stats();
        assert_eq!(s.retained, 2);
        assert_eq!(s.sinks[0].dropped, 2);
        assert_eq!(s.sinks[0].last_error.as_deref(), Some("queue full"));
    }

    #[test]
    fn arguments_are_redacted_unless_opted_in() {
        let mut log = AuditLog::new(10);
        let input = json!({"command": "cat ~/.ssh/id_rsa"});
        assert_eq!(
            log.recorded_input("Bash", &input),
            json!({"command": "<string:17>"})
        );
        log.record_arguments_of("Bash");
        assert_eq!(log.recorded_input("Bash", &input), input);
        assert_ne!(log.recorded_input("Write", &input), input);
    }
}
