//! Encoding core values as plain JS values.

use serde::Serialize;
use wasm_bindgen::JsValue;

/// Encodes `value` as a plain JS value: the value is written as JSON text in wasm and built
/// by the host's `JSON.parse` in one call, so objects (never `Map`s) stand for structs and
/// maps, `null` for a missing value, and numbers for integers.
///
/// Building the result with one `JSON.parse` is several times faster than building it field
/// by field from wasm, where every field is a call into JS.
///
/// # Errors
/// A JS `Error` when the value cannot be written as JSON (a map whose keys are not strings)
/// or the host's `JSON.parse` refuses the text.
pub fn encode<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    // Room for a typical decision, so that writing it does not grow the buffer.
    let mut text = Vec::with_capacity(512);
    serde_json::to_writer(&mut text, value)
        .map_err(|e| JsValue::from(js_sys::Error::new(&format!("cannot encode a result: {e}"))))?;
    let text = String::from_utf8(text)
        .map_err(|e| JsValue::from(js_sys::Error::new(&format!("cannot encode a result: {e}"))))?;
    js_sys::JSON::parse(&text)
}
