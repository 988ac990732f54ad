//! `RawPolicy`: a compiled policy, shared with the brokers that use it.

use std::rc::Rc;

use wasm_bindgen::prelude::*;

use super::{encode, js_error};
use crate::decision::{Decision, Evaluate, TrustOverlay};
use crate::policy::Policy;
use crate::request::Request;

/// A compiled policy that a [`RawPolicy`] and any number of brokers share.
#[derive(Clone)]
pub(crate) struct SharedPolicy(pub Rc<Policy>);

impl Evaluate for SharedPolicy {
    fn evaluate_with(&self, request: &Request, trust: &TrustOverlay) -> Decision {
        self.0.evaluate_with(request, trust)
    }

    fn check_rule(&self, rule: &str) -> crate::Result<()> {
        self.0.check_rule(rule)
    }

    fn tool_kind(&self, request: &Request) -> crate::tool::ToolKind {
        self.0.tool_kind(request)
    }
}

/// A compiled policy (the JS layer's `Policy` wraps it).
#[wasm_bindgen]
pub struct RawPolicy {
    policy: SharedPolicy,
}

#[wasm_bindgen]
impl RawPolicy {
    /// Parses and compiles the policy document `text` (JSON).
    #[wasm_bindgen(constructor)]
    pub fn new(text: &str) -> Result<RawPolicy, JsValue> {
        let policy = Policy::from_json(text).map_err(|e| js_error(&e))?;
        Ok(RawPolicy {
            policy: SharedPolicy(Rc::new(policy)),
        })
    }

    /// Decides the request document `text` (JSON).
    #[wasm_bindgen(unchecked_return_type = "Decision")]
    pub fn evaluate(&self, text: &str) -> Result<JsValue, JsValue> {
        let request = Request::from_json(text).map_err(|e| js_error(&e))?;
        encode(&self.policy.0.evaluate(&request))
    }

    /// Decides the request document `text` and lists the rules consulted.
    #[wasm_bindgen(unchecked_return_type = "Explanation")]
    pub fn explain(&self, text: &str) -> Result<JsValue, JsValue> {
        let request = Request::from_json(text).map_err(|e| js_error(&e))?;
        encode(&self.policy.0.explain(&request))
    }

    /// What in the document loads but probably does not do what was meant.
    #[wasm_bindgen(unchecked_return_type = "PolicyWarning[]")]
    pub fn warnings(&self) -> Result<JsValue, JsValue> {
        encode(self.policy.0.warnings())
    }
}

impl RawPolicy {
    /// The shared policy, for a broker.
    pub(crate) fn shared(&self) -> SharedPolicy {
        self.policy.clone()
    }
}
