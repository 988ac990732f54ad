//! `RawBroker`: the approval broker, with its transitions and audit events queued for the JS
//! layer to drain after each call (so JS listeners never run while the broker is borrowed).

use std::cell::RefCell;
use std::rc::Rc;

use serde::Deserialize;
use wasm_bindgen::prelude::*;

use super::policy_engine::RawPolicyEngine;
use super::{encode, js_error, ms};
use crate::audit::{AuditEvent, AuditLog, AuditQuery, AuditSink, SinkError};
use crate::broker::{Answer, ApprovalRequest, Broker, BrokerConfig, SavedApproval, Transition};
use crate::registry::{McpTool, ToolDefinition};
use crate::trust::NewGrant;

/// The broker settings a JS host may pass (input; camelCase JSON).
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RawBrokerOptions {
    default_timeout_ms: Option<u64>,
    max_timeout_ms: Option<u64>,
    reject_unknown_tools: Option<bool>,
    remembered_settled: Option<usize>,
    audit_capacity: Option<usize>,
    #[serde(default)]
    record_arguments_of: Vec<String>,
}

/// Queues audit events for [`RawBroker::drain_events`].
struct QueueSink(Rc<RefCell<Vec<AuditEvent>>>);

impl AuditSink for QueueSink {
    fn send(&mut self, event: &AuditEvent) -> Result<(), SinkError> {
        self.0.borrow_mut().push(event.clone());
        Ok(())
    }

    fn name(&self) -> &str {
        "js"
    }
}

/// The approval broker (the JS layer's `ApprovalBroker` wraps it).
#[wasm_bindgen]
pub struct RawBroker {
    broker: Broker,
    transitions: Rc<RefCell<Vec<Transition>>>,
    events: Rc<RefCell<Vec<AuditEvent>>>,
}

fn err(e: crate::Error) -> JsValue {
    js_error(&e)
}

#[wasm_bindgen]
impl RawBroker {
    /// A broker over `policy` with the settings `options` (JSON).
    #[wasm_bindgen(constructor)]
    pub fn new(policy: &RawPolicyEngine, options: &str) -> Result<RawBroker, JsValue> {
        let o: RawBrokerOptions = crate::json::from_str(options, "broker options").map_err(err)?;
        let defaults = BrokerConfig::default();
        let config = BrokerConfig {
            default_timeout_ms: o.default_timeout_ms.unwrap_or(defaults.default_timeout_ms),
            max_timeout_ms: o.max_timeout_ms.unwrap_or(defaults.max_timeout_ms),
            reject_unknown_tools: o
                .reject_unknown_tools
                .unwrap_or(defaults.reject_unknown_tools),
            remembered_settled: o.remembered_settled.unwrap_or(defaults.remembered_settled),
        };
        let mut audit = o
            .audit_capacity
            .map_or_else(AuditLog::default, AuditLog::new);
        for tool in &o.record_arguments_of {
            audit.record_arguments_of(tool);
        }
        let events = Rc::new(RefCell::new(Vec::new()));
        audit.add_sink(Box::new(QueueSink(events.clone())));
        let mut broker = Broker::new(Box::new(policy.shared()))
            .with_config(config)
            .with_audit(audit);
        let transitions = Rc::new(RefCell::new(Vec::new()));
        let queue = transitions.clone();
        broker.on_transition(Box::new(move |t: &Transition| {
            queue.borrow_mut().push(t.clone())
        }));
        Ok(RawBroker {
            broker,
            transitions,
            events,
        })
    }

    /// Replaces the policy; pending approvals keep their decisions.
    #[wasm_bindgen(js_name = setPolicy)]
    pub fn set_policy(&mut self, policy: &RawPolicyEngine) {
        self.broker.set_policy(Box::new(policy.shared()));
    }

    /// Asks for approval of the call `text` (an `ApprovalRequest` as JSON); returns its id.
    /// The outcome arrives as a settling transition.
    #[wasm_bindgen(js_name = requestApproval)]
    pub fn request_approval(&mut self, text: &str, now: f64) -> Result<String, JsValue> {
        let call: ApprovalRequest = crate::json::from_str(text, "approval request").map_err(err)?;
        let (id, _future) = self.broker.request_approval(call, ms(now)).map_err(err)?;
        Ok(id)
    }

    /// Asks for approval of several calls (a JSON array); returns their ids, in order.
    #[wasm_bindgen(js_name = requestApprovals)]
    pub fn request_approvals(&mut self, text: &str, now: f64) -> Result<Vec<String>, JsValue> {
        let calls: Vec<ApprovalRequest> =
            crate::json::from_str(text, "approval requests").map_err(err)?;
        let made = self.broker.request_approvals(calls, ms(now)).map_err(err)?;
        Ok(made.into_iter().map(|(id, _)| id).collect())
    }

    /// Answers the approval `id` with `text` (an `Answer` as JSON); returns the outcome.
    #[wasm_bindgen(unchecked_return_type = "ApprovalOutcome")]
    pub fn respond(&mut self, id: &str, text: &str, now: f64) -> Result<JsValue, JsValue> {
        let answer: Answer = crate::json::from_str(text, "answer").map_err(err)?;
        encode(&self.broker.respond(id, answer, ms(now)).map_err(err)?)
    }

    /// Approves every pending call of the session; the ids.
    #[wasm_bindgen(js_name = approveAll)]
    pub fn approve_all(&mut self, session_id: &str, now: f64) -> Result<Vec<String>, JsValue> {
        let outcomes = self.broker.approve_all(session_id, ms(now)).map_err(err)?;
        Ok(outcomes.into_iter().map(|o| o.id).collect())
    }

    /// Denies every pending call of the session; the ids.
    #[wasm_bindgen(js_name = denyAll)]
    pub fn deny_all(
        &mut self,
        session_id: &str,
        message: Option<String>,
        now: f64,
    ) -> Result<Vec<String>, JsValue> {
        let outcomes = self
            .broker
            .deny_all(session_id, message, ms(now))
            .map_err(err)?;
        Ok(outcomes.into_iter().map(|o| o.id).collect())
    }

    /// Cancels one approval.
    pub fn cancel(&mut self, id: &str, now: f64) -> Result<(), JsValue> {
        self.broker.cancel(id, ms(now)).map_err(err)
    }

    /// Records that an adapter answered approval `id` with a substitute; the event's `seq`.
    #[wasm_bindgen(js_name = recordFallback)]
    pub fn record_fallback(&mut self, id: &str, detail: &str, now: f64) -> Result<f64, JsValue> {
        #[allow(
            clippy::cast_precision_loss,
            reason = "sequence numbers stay below 2^53"
        )]
        self.broker
            .record_fallback(id, detail, ms(now))
            .map(|seq| seq as f64)
            .map_err(err)
    }

    /// Cancels every pending and approved-not-running call of the session; the ids.
    #[wasm_bindgen(js_name = cancelSession)]
    pub fn cancel_session(&mut self, session_id: &str, now: f64) -> Vec<String> {
        self.broker.cancel_session(session_id, ms(now))
    }

    /// Cancels the session's calls and clears its grants; the ids.
    #[wasm_bindgen(js_name = endSession)]
    pub fn end_session(&mut self, session_id: &str, now: f64) -> Vec<String> {
        self.broker.end_session(session_id, ms(now))
    }

    /// Expires every approval past its deadline; the ids.
    pub fn tick(&mut self, now: f64) -> Vec<String> {
        self.broker.tick(ms(now))
    }

    /// The earliest deadline (Unix ms), if any approval is pending.
    #[wasm_bindgen(js_name = nextDeadline)]
    pub fn next_deadline(&self) -> Option<f64> {
        // Deadlines are Unix milliseconds, far below 2^53.
        #[allow(clippy::cast_precision_loss, reason = "Unix ms fit an f64 exactly")]
        self.broker.next_deadline().map(|t| t as f64)
    }

    /// Every pending approval, oldest first.
    #[wasm_bindgen(unchecked_return_type = "PendingApproval[]")]
    pub fn pending(&self) -> Result<JsValue, JsValue> {
        encode(&self.broker.pending())
    }

    /// The transitions since the last call, oldest first.
    #[wasm_bindgen(js_name = drainTransitions, unchecked_return_type = "Transition[]")]
    pub fn drain_transitions(&self) -> Result<JsValue, JsValue> {
        let queued = std::mem::take(&mut *self.transitions.borrow_mut());
        encode(&queued)
    }

    /// The audit events since the last call, oldest first.
    #[wasm_bindgen(js_name = drainEvents, unchecked_return_type = "AuditEvent[]")]
    pub fn drain_events(&self) -> Result<JsValue, JsValue> {
        let queued = std::mem::take(&mut *self.events.borrow_mut());
        encode(&queued)
    }

    /// The retained audit events matching `query` (an `AuditQuery` as JSON).
    #[wasm_bindgen(unchecked_return_type = "AuditEvent[]")]
    pub fn audit(&self, query: &str) -> Result<JsValue, JsValue> {
        let q: AuditQuery = crate::json::from_str(query, "audit query").map_err(err)?;
        encode(&self.broker.audit().query(&q))
    }

    /// The retained audit events matching `query`, one JSON object per line.
    #[wasm_bindgen(js_name = exportAudit)]
    pub fn export_audit(&self, query: &str) -> Result<String, JsValue> {
        let q: AuditQuery = crate::json::from_str(query, "audit query").map_err(err)?;
        Ok(self.broker.audit().to_json_lines(&q))
    }

    /// The host started running an approved call.
    #[wasm_bindgen(js_name = startExecution)]
    pub fn start_execution(&mut self, id: &str, now: f64) -> Result<(), JsValue> {
        self.broker.start_execution(id, ms(now)).map_err(err)
    }

    /// A running call finished.
    pub fn complete(&mut self, id: &str, now: f64) -> Result<(), JsValue> {
        self.broker.complete(id, ms(now)).map_err(err)
    }

    /// A running call failed; the feedback for the model.
    #[wasm_bindgen(unchecked_return_type = "ModelFeedback")]
    pub fn fail(&mut self, id: &str, error: &str, now: f64) -> Result<JsValue, JsValue> {
        encode(&self.broker.fail(id, error, ms(now)).map_err(err)?)
    }

    /// Settles everything not running as cancelled; later calls are `SHUT_DOWN`.
    pub fn shutdown(&mut self, now: f64) {
        self.broker.shutdown(ms(now));
    }

    /// A pending approval, saved to resume after a restart.
    #[wasm_bindgen(js_name = savePending, unchecked_return_type = "SavedApproval")]
    pub fn save_pending(&self, id: &str) -> Result<JsValue, JsValue> {
        encode(&self.broker.save_pending(id).map_err(err)?)
    }

    /// Resumes a saved approval (`saved`, JSON) for the call `call` (JSON); its id.
    pub fn resume(&mut self, saved: &str, call: &str, now: f64) -> Result<String, JsValue> {
        let saved: SavedApproval = crate::json::from_str(saved, "saved approval").map_err(err)?;
        let call: ApprovalRequest = crate::json::from_str(call, "approval request").map_err(err)?;
        let (id, _future) = self.broker.resume(saved, call, ms(now)).map_err(err)?;
        Ok(id)
    }

    /// Registers a tool (`ToolDefinition` as JSON).
    #[wasm_bindgen(js_name = registerTool)]
    pub fn register_tool(&mut self, text: &str) -> Result<(), JsValue> {
        let definition: ToolDefinition =
            crate::json::from_str(text, "tool definition").map_err(err)?;
        self.broker.registry_mut().register(definition).map_err(err)
    }

    /// Registers an MCP tool from a `tools/list` entry (JSON); the name calls use.
    #[wasm_bindgen(js_name = registerMcpTool)]
    pub fn register_mcp_tool(
        &mut self,
        server: &str,
        trusted: bool,
        text: &str,
    ) -> Result<String, JsValue> {
        let tool: McpTool = crate::json::from_str(text, "MCP tool").map_err(err)?;
        self.broker
            .registry_mut()
            .register_mcp(server, trusted, tool)
            .map_err(err)
    }

    /// Removes a registered tool; whether there was one.
    #[wasm_bindgen(js_name = unregisterTool)]
    pub fn unregister_tool(&mut self, name: &str) -> bool {
        self.broker.registry_mut().unregister(name)
    }

    /// The registered tools' names.
    #[wasm_bindgen(js_name = toolNames)]
    pub fn tool_names(&self) -> Vec<String> {
        self.broker.registry().names()
    }

    /// Adds a grant to the broker's trust store (`NewGrant` as JSON); the `Grant`.
    #[wasm_bindgen(unchecked_return_type = "Grant")]
    pub fn grant(&mut self, text: &str, now: f64) -> Result<JsValue, JsValue> {
        let new: NewGrant = crate::json::from_str(text, "grant").map_err(err)?;
        let (store, rules) = self.broker.trust_and_rules();
        encode(&store.grant(new, rules, ms(now)).map_err(err)?)
    }

    /// Removes a grant; whether there was one.
    pub fn revoke(&mut self, id: &str) -> bool {
        self.broker.trust_mut().revoke(id).is_some()
    }

    /// The grants alive at `now`.
    #[wasm_bindgen(unchecked_return_type = "Grant[]")]
    pub fn list(&self, now: f64) -> Result<JsValue, JsValue> {
        encode(&self.broker.trust().list(ms(now)))
    }

    /// Removes the session's grants; how many.
    #[wasm_bindgen(js_name = clearSession)]
    pub fn clear_session(&mut self, session_id: &str) -> usize {
        self.broker.trust_mut().clear_session(session_id)
    }

    /// The trust store's persisted document (JSON text).
    #[wasm_bindgen(js_name = exportText)]
    pub fn export_text(&self, now: f64) -> String {
        self.broker.trust().export(ms(now))
    }

    /// Replaces the trust store's persisted part; all or nothing.
    #[wasm_bindgen(js_name = importText)]
    pub fn import_text(&mut self, text: &str) -> Result<usize, JsValue> {
        let (store, rules) = self.broker.trust_and_rules();
        store.import(text, rules).map_err(err)
    }

    /// Turns an agent's "Bypass Permissions" on or off.
    #[wasm_bindgen(js_name = setAgentBypass)]
    pub fn set_agent_bypass(&mut self, agent: &str, on: bool) {
        self.broker.trust_mut().set_agent_bypass(agent, on);
    }

    /// The agents with bypass on.
    #[wasm_bindgen(js_name = bypassAgents)]
    pub fn bypass_agents(&self) -> Vec<String> {
        self.broker.trust().bypass_agents()
    }

    /// Starts loading the stored trust document: changes from now on are replayed over it.
    #[wasm_bindgen(js_name = beginLoad)]
    pub fn begin_load(&mut self) {
        self.broker.trust_mut().begin_load();
    }

    /// Finishes the load with the stored document (`undefined` when there was none); the
    /// changes made meanwhile are replayed over it. The number of grants it held.
    #[wasm_bindgen(js_name = finishLoad)]
    pub fn finish_load(&mut self, text: Option<String>) -> Result<usize, JsValue> {
        let (store, rules) = self.broker.trust_and_rules();
        store.finish_load(text.as_deref(), rules).map_err(err)
    }
}
