//! Encoding core values as plain JS values.

use serde::Serialize;
use wasm_bindgen::JsValue;

/// Encodes `value` as a plain JS value the way `JSON.parse` would build it: objects (never
/// `Map`s) for structs and maps, numbers for integers that fit.
///
/// # Errors
/// The encoder's own JS `Error` when the value cannot be represented in JS.
pub fn encode<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    value.serialize(&serializer).map_err(JsValue::from)
}
