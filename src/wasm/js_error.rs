//! Turning a core [`Error`] into the JS `Error` that the bindings throw.

use js_sys::Reflect;
use wasm_bindgen::JsValue;

use crate::Error;

/// The JS `Error` for `err`: `name` is `ToolgateError`, `message` the full text for people,
/// and the properties `code` (stable, e.g. `INVALID_RULE`), `path` (where the bad value is,
/// empty for the whole input) and `hint` (how to fix it; absent when there is none).
pub fn js_error(err: &Error) -> JsValue {
    let js = js_sys::Error::new(&err.to_string());
    js.set_name("ToolgateError");
    set(&js, "code", &JsValue::from_str(err.code()));
    set(&js, "path", &JsValue::from_str(err.path()));
    if let Some(hint) = err.hint() {
        set(&js, "hint", &JsValue::from_str(hint));
    }
    js.into()
}

fn set(target: &js_sys::Error, key: &str, value: &JsValue) {
    // Setting an own property on a fresh, unfrozen `Error` cannot fail; if it somehow did,
    // the error is still thrown with its message, which is the part people read.
    let _ = Reflect::set(target, &JsValue::from_str(key), value);
}
