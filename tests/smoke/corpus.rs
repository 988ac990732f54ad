//! The smoke corpus (`tests/smoke/cases.json`) as typed cases, shared by the native
//! (`tests/smoke.rs`) and the wasm (`tests/wasm_smoke.rs`) runs.

use serde::Deserialize;
use serde_json::Value;

/// Every group of cases in the corpus.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Corpus {
    pub tool_defaults: Vec<Case>,
}

/// One built-in tool name and either its defaults or the error code its lookup gives.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub name: String,
    #[serde(default)]
    pub defaults: Option<Value>,
    #[serde(default)]
    pub error: Option<String>,
}

/// The corpus, compiled into the test binary (so the wasm run needs no file system).
pub fn corpus() -> Corpus {
    serde_json::from_str(include_str!("cases.json")).unwrap()
}
