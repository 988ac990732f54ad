//! `RawBroker`: the approval broker. Every operation returns one [`Batch`]: its result, the
//! transitions and audit events it caused, the next deadline and, when the core says so, the
//! trust document to save; the JS layer delivers it (so JS listeners never run while the
//! broker is borrowed, and each operation crosses the boundary once).

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use super::policy_engine::RawPolicy;
use super::{encode, js_error, ms};
use crate::audit::{AuditLog, AuditQuery};
use crate::broker::{Answer, ApprovalRequest, Broker, BrokerConfig, Outbox, SavedApproval};
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

/// The approval broker (the JS layer's `ApprovalBroker` wraps it).
#[wasm_bindgen]
pub struct RawBroker {
    broker: Broker,
    outbox: Outbox,
}

fn err(e: crate::Error) -> JsValue {
    js_error(&e)
}

impl RawBroker {
    /// `result` with everything the operation queued, encoded once.
    fn sealed<T: Serialize>(&mut self, result: T, now: u64) -> Result<JsValue, JsValue> {
        encode(&self.outbox.seal(&self.broker, result, now))
    }
}

#[wasm_bindgen]
impl RawBroker {
    /// A broker over `policy` with the settings `options` (JSON).
    #[wasm_bindgen(constructor)]
    pub fn new(policy: &RawPolicy, options: &str) -> Result<RawBroker, JsValue> {
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
        let mut broker = Broker::new(Box::new(policy.shared()))
            .with_config(config)
            .with_audit(audit);
        let outbox = Outbox::attach(&mut broker);
        Ok(RawBroker { broker, outbox })
    }

    /// What an operation that threw had queued (answering an approval past its deadline
    /// expires it, then throws): the JS layer delivers it before rethrowing.
    #[wasm_bindgen(js_name = takeQueued, unchecked_return_type = "Batch<null>")]
    pub fn take_queued(&mut self, now: f64) -> Result<JsValue, JsValue> {
        self.sealed((), ms(now))
    }

    /// Replaces the policy; pending approvals keep their decisions.
    #[wasm_bindgen(js_name = setPolicy)]
    pub fn set_policy(&mut self, policy: &RawPolicy) {
        self.broker.set_policy(Box::new(policy.shared()));
    }

    /// Asks for approval of the call `text` (an `ApprovalRequest` as JSON): a batch whose
    /// result is the id and, when the call settled at once, its outcome.
    #[wasm_bindgen(js_name = requestApproval, unchecked_return_type = "Batch<Admitted>")]
    pub fn request_approval(&mut self, text: &str, now: f64) -> Result<JsValue, JsValue> {
        let call: ApprovalRequest = crate::json::from_str(text, "approval request").map_err(err)?;
        let batch = self
            .outbox
            .admit(&mut self.broker, call, ms(now))
            .map_err(err)?;
        encode(&batch)
    }

    /// Asks for approval of several calls (a JSON array): a batch of their admissions, in
    /// order.
    #[wasm_bindgen(js_name = requestApprovals, unchecked_return_type = "Batch<Admitted[]>")]
    pub fn request_approvals(&mut self, text: &str, now: f64) -> Result<JsValue, JsValue> {
        let calls: Vec<ApprovalRequest> =
            crate::json::from_str(text, "approval requests").map_err(err)?;
        let batch = self
            .outbox
            .admit_all(&mut self.broker, calls, ms(now))
            .map_err(err)?;
        encode(&batch)
    }

    /// Answers the approval `id` with `text` (an `Answer` as JSON): a batch of the outcome.
    #[wasm_bindgen(unchecked_return_type = "Batch<ApprovalOutcome>")]
    pub fn respond(&mut self, id: &str, text: &str, now: f64) -> Result<JsValue, JsValue> {
        let answer: Answer = crate::json::from_str(text, "answer").map_err(err)?;
        let outcome = self.broker.respond(id, answer, ms(now)).map_err(err)?;
        self.sealed(outcome, ms(now))
    }

    /// Approves every pending call of the session: a batch of the ids.
    #[wasm_bindgen(js_name = approveAll, unchecked_return_type = "Batch<string[]>")]
    pub fn approve_all(&mut self, session_id: &str, now: f64) -> Result<JsValue, JsValue> {
        let outcomes = self.broker.approve_all(session_id, ms(now)).map_err(err)?;
        let ids: Vec<String> = outcomes.into_iter().map(|o| o.id).collect();
        self.sealed(ids, ms(now))
    }

    /// Denies every pending call of the session: a batch of the ids.
    #[wasm_bindgen(js_name = denyAll, unchecked_return_type = "Batch<string[]>")]
    pub fn deny_all(
        &mut self,
        session_id: &str,
        message: Option<String>,
        now: f64,
    ) -> Result<JsValue, JsValue> {
        let outcomes = self
            .broker
            .deny_all(session_id, message, ms(now))
            .map_err(err)?;
        let ids: Vec<String> = outcomes.into_iter().map(|o| o.id).collect();
        self.sealed(ids, ms(now))
    }

    /// Cancels one approval: a batch of nothing.
    #[wasm_bindgen(unchecked_return_type = "Batch<null>")]
    pub fn cancel(&mut self, id: &str, now: f64) -> Result<JsValue, JsValue> {
        self.broker.cancel(id, ms(now)).map_err(err)?;
        self.sealed((), ms(now))
    }

    /// Records that an adapter answered approval `id` with a substitute: a batch of the
    /// event's `seq`.
    #[wasm_bindgen(js_name = recordFallback, unchecked_return_type = "Batch<number>")]
    pub fn record_fallback(
        &mut self,
        id: &str,
        detail: &str,
        now: f64,
    ) -> Result<JsValue, JsValue> {
        let seq = self
            .broker
            .record_fallback(id, detail, ms(now))
            .map_err(err)?;
        self.sealed(seq, ms(now))
    }

    /// Cancels every pending and approved-not-running call of the session: a batch of the
    /// ids.
    #[wasm_bindgen(js_name = cancelSession, unchecked_return_type = "Batch<string[]>")]
    pub fn cancel_session(&mut self, session_id: &str, now: f64) -> Result<JsValue, JsValue> {
        let ids = self.broker.cancel_session(session_id, ms(now));
        self.sealed(ids, ms(now))
    }

    /// Cancels the session's calls and clears its grants: a batch of the ids.
    #[wasm_bindgen(js_name = endSession, unchecked_return_type = "Batch<string[]>")]
    pub fn end_session(&mut self, session_id: &str, now: f64) -> Result<JsValue, JsValue> {
        let ids = self.broker.end_session(session_id, ms(now));
        self.sealed(ids, ms(now))
    }

    /// Expires every approval past its deadline: a batch of the ids.
    #[wasm_bindgen(unchecked_return_type = "Batch<string[]>")]
    pub fn tick(&mut self, now: f64) -> Result<JsValue, JsValue> {
        let ids = self.broker.tick(ms(now));
        self.sealed(ids, ms(now))
    }

    /// Every pending approval, oldest first.
    #[wasm_bindgen(unchecked_return_type = "PendingApproval[]")]
    pub fn pending(&self) -> Result<JsValue, JsValue> {
        encode(&self.broker.pending())
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

    /// The host started running an approved call: a batch of nothing.
    #[wasm_bindgen(js_name = startExecution, unchecked_return_type = "Batch<null>")]
    pub fn start_execution(&mut self, id: &str, now: f64) -> Result<JsValue, JsValue> {
        self.broker.start_execution(id, ms(now)).map_err(err)?;
        self.sealed((), ms(now))
    }

    /// A running call finished: a batch of nothing.
    #[wasm_bindgen(unchecked_return_type = "Batch<null>")]
    pub fn complete(&mut self, id: &str, now: f64) -> Result<JsValue, JsValue> {
        self.broker.complete(id, ms(now)).map_err(err)?;
        self.sealed((), ms(now))
    }

    /// A running call failed: a batch of the feedback for the model.
    #[wasm_bindgen(unchecked_return_type = "Batch<ModelFeedback>")]
    pub fn fail(&mut self, id: &str, error: &str, now: f64) -> Result<JsValue, JsValue> {
        let feedback = self.broker.fail(id, error, ms(now)).map_err(err)?;
        self.sealed(feedback, ms(now))
    }

    /// Settles everything not running as cancelled (later calls are `SHUT_DOWN`): a batch of
    /// nothing.
    #[wasm_bindgen(unchecked_return_type = "Batch<null>")]
    pub fn shutdown(&mut self, now: f64) -> Result<JsValue, JsValue> {
        self.broker.shutdown(ms(now));
        self.sealed((), ms(now))
    }

    /// A pending approval, saved to resume after a restart.
    #[wasm_bindgen(js_name = savePending, unchecked_return_type = "SavedApproval")]
    pub fn save_pending(&self, id: &str) -> Result<JsValue, JsValue> {
        encode(&self.broker.save_pending(id).map_err(err)?)
    }

    /// Resumes a saved approval (`saved`, JSON) for the call `call` (JSON): a batch like
    /// `requestApproval`'s.
    #[wasm_bindgen(unchecked_return_type = "Batch<Admitted>")]
    pub fn resume(&mut self, saved: &str, call: &str, now: f64) -> Result<JsValue, JsValue> {
        let saved: SavedApproval = crate::json::from_str(saved, "saved approval").map_err(err)?;
        let call: ApprovalRequest = crate::json::from_str(call, "approval request").map_err(err)?;
        let batch = self
            .outbox
            .resume(&mut self.broker, saved, call, ms(now))
            .map_err(err)?;
        encode(&batch)
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

    /// Adds a grant to the broker's trust store (`NewGrant` as JSON): a batch of the `Grant`.
    #[wasm_bindgen(unchecked_return_type = "Batch<Grant>")]
    pub fn grant(&mut self, text: &str, now: f64) -> Result<JsValue, JsValue> {
        let new: NewGrant = crate::json::from_str(text, "grant").map_err(err)?;
        let (store, rules) = self.broker.trust_and_rules();
        let grant = store.grant(new, rules, ms(now)).map_err(err)?;
        self.sealed(grant, ms(now))
    }

    /// Removes a grant: a batch of whether there was one.
    #[wasm_bindgen(unchecked_return_type = "Batch<boolean>")]
    pub fn revoke(&mut self, id: &str, now: f64) -> Result<JsValue, JsValue> {
        let gone = self.broker.trust_mut().revoke(id).is_some();
        self.sealed(gone, ms(now))
    }

    /// The grants alive at `now`.
    #[wasm_bindgen(unchecked_return_type = "Grant[]")]
    pub fn list(&self, now: f64) -> Result<JsValue, JsValue> {
        encode(&self.broker.trust().list(ms(now)))
    }

    /// Removes the session's grants: a batch of how many.
    #[wasm_bindgen(js_name = clearSession, unchecked_return_type = "Batch<number>")]
    pub fn clear_session(&mut self, session_id: &str, now: f64) -> Result<JsValue, JsValue> {
        let count = self.broker.trust_mut().clear_session(session_id);
        self.sealed(count, ms(now))
    }

    /// The trust store's persisted document (JSON text).
    #[wasm_bindgen(js_name = exportText)]
    pub fn export_text(&self, now: f64) -> String {
        self.broker.trust().export(ms(now))
    }

    /// Replaces the trust store's persisted part, all or nothing: a batch of how many grants.
    #[wasm_bindgen(js_name = importText, unchecked_return_type = "Batch<number>")]
    pub fn import_text(&mut self, text: &str, now: f64) -> Result<JsValue, JsValue> {
        let (store, rules) = self.broker.trust_and_rules();
        let count = store.import(text, rules).map_err(err)?;
        self.sealed(count, ms(now))
    }

    /// Turns an agent's "Bypass Permissions" on or off: a batch of nothing.
    #[wasm_bindgen(js_name = setAgentBypass, unchecked_return_type = "Batch<null>")]
    pub fn set_agent_bypass(
        &mut self,
        agent: &str,
        on: bool,
        now: f64,
    ) -> Result<JsValue, JsValue> {
        self.broker.trust_mut().set_agent_bypass(agent, on);
        self.sealed((), ms(now))
    }

    /// The agents with bypass on.
    #[wasm_bindgen(js_name = bypassAgents)]
    pub fn bypass_agents(&self) -> Vec<String> {
        self.broker.trust().bypass_agents()
    }

    /// Starts loading the stored trust document: changes from now on are replayed over it,
    /// and batches carry the document to save once the load has finished.
    #[wasm_bindgen(js_name = beginLoad)]
    pub fn begin_load(&mut self) {
        self.outbox.begin_load(&mut self.broker);
    }

    /// Finishes a load whose stored document could not be read: the changes made meanwhile
    /// stay, and no batch ever carries a document to save over the unread one.
    #[wasm_bindgen(js_name = abandonLoad, unchecked_return_type = "Batch<null>")]
    pub fn abandon_load(&mut self, now: f64) -> Result<JsValue, JsValue> {
        encode(&self.outbox.abandon_load(&mut self.broker, ms(now)))
    }

    /// Finishes the load with the stored document (`undefined` when there was none); the
    /// changes made meanwhile are replayed over it. A batch of the number of grants it held
    /// (carrying the document to save when something changed meanwhile).
    #[wasm_bindgen(js_name = finishLoad, unchecked_return_type = "Batch<number>")]
    pub fn finish_load(&mut self, text: Option<String>, now: f64) -> Result<JsValue, JsValue> {
        let batch = self
            .outbox
            .finish_load(&mut self.broker, text.as_deref(), ms(now))
            .map_err(err)?;
        encode(&batch)
    }
}
