//! The WebAssembly bindings: thin handles over the core, one decode → call → encode each.

use wasm_bindgen::prelude::*;

/// The crate version, so JS can check which engine it loaded.
#[wasm_bindgen]
pub fn version() -> String {
    crate::VERSION.to_owned()
}
