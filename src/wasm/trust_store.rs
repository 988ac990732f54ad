//! `RawTrustStore`: a trust store of its own, checked against the default rules.

use wasm_bindgen::prelude::*;

use super::{encode, js_error, ms};
use crate::policy::{Policy, PolicyDocument};
use crate::trust::{NewGrant, TrustStore};

/// A stand-alone trust store (the JS layer's `TrustStore` wraps it, or a broker's store).
#[wasm_bindgen]
pub struct RawTrustStore {
    store: TrustStore,
    rules: Policy,
}

#[wasm_bindgen]
impl RawTrustStore {
    /// An empty store whose grants are checked against an empty policy's rule syntax.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Result<RawTrustStore, JsValue> {
        let rules = Policy::from_document(PolicyDocument::default()).map_err(|e| js_error(&e))?;
        Ok(RawTrustStore {
            store: TrustStore::new(),
            rules,
        })
    }

    /// Adds the grant `text` (a `NewGrant` as JSON); returns the `Grant`.
    #[wasm_bindgen(unchecked_return_type = "Grant")]
    pub fn grant(&mut self, text: &str, now: f64) -> Result<JsValue, JsValue> {
        let new: NewGrant = crate::json::from_str(text, "grant").map_err(|e| js_error(&e))?;
        let grant = self
            .store
            .grant(new, &self.rules, ms(now))
            .map_err(|e| js_error(&e))?;
        encode(&grant)
    }

    /// Removes the grant with id `id`; whether there was one.
    pub fn revoke(&mut self, id: &str) -> bool {
        self.store.revoke(id).is_some()
    }

    /// The grants alive at `now`.
    #[wasm_bindgen(unchecked_return_type = "Grant[]")]
    pub fn list(&self, now: f64) -> Result<JsValue, JsValue> {
        encode(&self.store.list(ms(now)))
    }

    /// Removes the session's grants; how many.
    #[wasm_bindgen(js_name = clearSession)]
    pub fn clear_session(&mut self, session_id: &str) -> usize {
        self.store.clear_session(session_id)
    }

    /// The persisted document (JSON text).
    #[wasm_bindgen(js_name = exportText)]
    pub fn export_text(&self, now: f64) -> String {
        self.store.export(ms(now))
    }

    /// Replaces the persisted part with the document `text`; all or nothing.
    #[wasm_bindgen(js_name = importText)]
    pub fn import_text(&mut self, text: &str) -> Result<usize, JsValue> {
        self.store
            .import(text, &self.rules)
            .map_err(|e| js_error(&e))
    }

    /// Turns an agent's "Bypass Permissions" on or off.
    #[wasm_bindgen(js_name = setAgentBypass)]
    pub fn set_agent_bypass(&mut self, agent: &str, on: bool) {
        self.store.set_agent_bypass(agent, on);
    }

    /// The agents with bypass on.
    #[wasm_bindgen(js_name = bypassAgents)]
    pub fn bypass_agents(&self) -> Vec<String> {
        self.store.bypass_agents()
    }

    /// Starts loading the stored document: changes from now on are replayed over it.
    #[wasm_bindgen(js_name = beginLoad)]
    pub fn begin_load(&mut self) {
        self.store.begin_load();
    }

    /// Finishes the load with the stored document (`undefined` when there was none); the
    /// changes made meanwhile are replayed over it. The number of grants it held.
    #[wasm_bindgen(js_name = finishLoad)]
    pub fn finish_load(&mut self, text: Option<String>) -> Result<usize, JsValue> {
        self.store
            .finish_load(text.as_deref(), &self.rules)
            .map_err(|e| js_error(&e))
    }
}
