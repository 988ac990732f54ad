//! The WebAssembly bindings: thin handles over the core, one decode → call → encode each.
//!
//! Every export follows the same shape: decode the JS arguments, call the core, encode the
//! result with [`encode`], and turn a core [`Error`](crate::Error) into a JS `Error` with a
//! stable `code` through [`js_error`]. Nothing here decides anything.
//!
//! Two modules are built from here. The core (`--features wasm`): `RawPolicy`,
//! `RawBroker`, `RawTrustStore` and the tool defaults, what a host embedding the engine
//! loads. The tools (`--features tools`): the npm bin's hook, `importPolicy` /
//! `exportPolicy` and `copilotCliArgs`, which only the bin and `toolgate/import` load, so
//! their bytes (the agents' formats, the TOML and JSONC readers, the hook's file handling)
//! stay out of the core.

#[cfg(feature = "wasm")]
mod broker;
mod encode;
#[cfg(feature = "tools")]
mod hook;
#[cfg(feature = "tools")]
mod import;
mod js_error;
#[cfg(feature = "wasm")]
mod policy_engine;
#[cfg(feature = "wasm")]
mod trust_store;

#[cfg(any(feature = "wasm", feature = "tools"))]
use wasm_bindgen::prelude::*;

#[cfg(feature = "wasm")]
pub use broker::RawBroker;
pub use encode::encode;
#[cfg(feature = "tools")]
pub use hook::{blocking_answer_js, run_hook, HookHost};
#[cfg(feature = "tools")]
pub use import::{export_policy, import_policy};
pub use js_error::js_error;
#[cfg(feature = "wasm")]
pub use policy_engine::RawPolicy;
#[cfg(feature = "wasm")]
pub use trust_store::RawTrustStore;

/// Unix milliseconds from JS: negative, NaN and infinite values count as 0 (the epoch), so a
/// bad clock makes deadlines pass rather than last forever.
pub(crate) fn ms(now: f64) -> u64 {
    if now.is_finite() && now > 0.0 {
        // Truncation is intended: JS clocks are whole milliseconds below 2^53.
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "checked above"
        )]
        let whole = now as u64;
        whole
    } else {
        0
    }
}

// The generated declarations (`toolgate_bindgen.d.ts`, which the TypeScript layer's raw
// handle types come from) name the wire types instead of restating them: ts-rs generates
// those from the Rust types into `wire.ts` (src/typescript.rs).
#[cfg(feature = "wasm")]
#[wasm_bindgen(typescript_custom_section)]
const TS_WIRE_TYPES: &'static str = r#"
import type {
  Admitted, Batch, ApprovalOutcome, AuditEvent, Decision, Explanation, Grant, ModelFeedback, PendingApproval,
  PolicyWarning, SavedApproval, ToolDefaults, Transition,
} from "./wire.js";
"#;

// The tools module's declarations name its wire types the same way.
#[cfg(feature = "tools")]
#[wasm_bindgen(typescript_custom_section)]
const TS_TOOLS_WIRE_TYPES: &'static str = r#"
import type { ExportResult, ImportResult } from "./wire.js";
"#;

/// The crate version, so JS can check which engine it loaded.
#[cfg(feature = "wasm")]
#[wasm_bindgen]
pub fn version() -> String {
    crate::VERSION.to_owned()
}

/// The defaults of the built-in tool spelled `name` (`Bash`, `read`, `WebFetch`, ...).
///
/// Throws a `ToolgateError` with code `UNKNOWN_TOOL` when no built-in tool has that spelling.
#[cfg(feature = "wasm")]
#[wasm_bindgen(js_name = toolDefaults, unchecked_return_type = "ToolDefaults")]
pub fn tool_defaults(name: &str) -> Result<JsValue, JsValue> {
    let tool = crate::tool::builtin(name).ok_or_else(|| js_error(&unknown_tool(name)))?;
    encode(&tool.defaults)
}

#[cfg(feature = "wasm")]
fn unknown_tool(name: &str) -> crate::Error {
    let known: Vec<&str> = crate::tool::BUILTIN_TOOLS.iter().map(|t| t.name).collect();
    crate::Error::new(
        crate::ErrorKind::UnknownTool,
        format!("unknown tool `{name}`: it is not a built-in tool"),
    )
    .with_hint(format!("use one of {}", known.join(", ")))
}
