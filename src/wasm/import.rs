//! `importPolicy` and `exportPolicy`: the agents' own permission formats to and from policy
//! documents.

use wasm_bindgen::prelude::*;

use super::{encode, js_error};
use crate::import::{export, import, AgentFile, Format, Imported};
use crate::policy::PolicyDocument;

/// Imports the files `files` (JSON: `[{name, text}]`) of the agent format `format`; with
/// `strict`, any warning is an error. Returns `{document, warnings}`.
#[wasm_bindgen(js_name = importPolicy, unchecked_return_type = "ImportResult")]
pub fn import_policy(format: &str, files: &str, strict: bool) -> Result<JsValue, JsValue> {
    let format = Format::parse(format).map_err(|e| js_error(&e))?;
    let files: Vec<AgentFile> = crate::json::from_str(files, "files").map_err(|e| js_error(&e))?;
    let files: Vec<(String, String)> = files.into_iter().map(|f| (f.name, f.text)).collect();
    let imported = import(format, &files).map_err(|e| js_error(&e))?;
    if strict {
        let document = imported.strict().map_err(|e| js_error(&e))?;
        return encode(&Imported {
            document,
            warnings: Vec::new(),
        });
    }
    encode(&imported)
}

/// Writes the policy document `policy` (JSON) in the agent format `format`. Returns
/// `{text, warnings}`.
#[wasm_bindgen(js_name = exportPolicy, unchecked_return_type = "ExportResult")]
pub fn export_policy(format: &str, policy: &str) -> Result<JsValue, JsValue> {
    let format = Format::parse(format).map_err(|e| js_error(&e))?;
    let doc: PolicyDocument = crate::json::from_str(policy, "policy").map_err(|e| js_error(&e))?;
    crate::policy::Policy::compile_unchecked(doc.clone()).map_err(|e| js_error(&e))?;
    encode(&export(format, &doc).map_err(|e| js_error(&e))?)
}

/// The `copilot` CLI arguments for `options` (JSON: `{policy, grants, sessionId, agent,
/// now}`): the policy's rules and the grants that apply to the run, never looser than
/// toolgate. Returns `{args, skipped}` (JS: `copilotCliArgs` in `toolgate/copilot`).
#[wasm_bindgen(js_name = copilotCliArgs)]
pub fn copilot_cli_args(options: &str) -> Result<JsValue, JsValue> {
    let options: crate::import::CopilotCliOptions =
        crate::json::from_str(options, "options").map_err(|e| js_error(&e))?;
    if let Some(doc) = &options.policy {
        crate::policy::Policy::compile_unchecked(doc.clone()).map_err(|e| js_error(&e))?;
    }
    encode(&crate::import::copilot_cli_args(&options).map_err(|e| js_error(&e))?)
}
