//! The smoke corpus (`tests/smoke/cases.json`) through the wasm bindings, run by
//! `wasm-bindgen-test-runner` in Node and in headless Chromium (`WASM_BINDGEN_USE_BROWSER=1`).
//! Each export gets its own test function here, so new exports slot in beside these.

#![cfg(all(target_arch = "wasm32", feature = "wasm"))]
#![allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "tests: clippy does not see `#[wasm_bindgen_test]` functions as tests"
)]

use js_sys::Reflect;
use serde::Deserialize;
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Corpus {
    tool_defaults: Vec<Case>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    #[serde(default)]
    defaults: Option<Value>,
    #[serde(default)]
    error: Option<String>,
}

fn corpus() -> Corpus {
    serde_json::from_str(include_str!("smoke/cases.json")).unwrap()
}

fn prop(value: &JsValue, key: &str) -> JsValue {
    Reflect::get(value, &JsValue::from_str(key)).unwrap()
}

#[wasm_bindgen_test]
fn version_is_the_crate_version() {
    assert_eq!(toolgate::wasm::version(), env!("CARGO_PKG_VERSION"));
}

#[wasm_bindgen_test]
fn tool_defaults_match_the_corpus() {
    for case in corpus().tool_defaults {
        let got = toolgate::wasm::tool_defaults(&case.name);
        match (case.defaults, case.error) {
            (Some(expected), None) => {
                let js = got.unwrap_or_else(|_| panic!("`{}` threw", case.name));
                assert!(js.is_object(), "a plain object for `{}`", case.name);
                let decoded: Value = serde_wasm_bindgen::from_value(js).unwrap();
                assert_eq!(decoded, expected, "{}", case.name);
            }
            (None, Some(code)) => {
                let Err(err) = got else {
                    panic!("`{}` should throw {code}", case.name)
                };
                assert!(err.is_instance_of::<js_sys::Error>(), "a real Error");
                assert_eq!(prop(&err, "code").as_string().unwrap(), code);
            }
            _ => panic!("case `{}` needs exactly one of defaults, error", case.name),
        }
    }
}

#[wasm_bindgen_test]
fn errors_are_js_errors_with_code_path_and_hint() {
    let err = toolgate::wasm::tool_defaults("Nope").unwrap_err();
    let err: js_sys::Error = err.dyn_into().unwrap();
    assert_eq!(String::from(err.name()), "ToolgateError");
    let message = String::from(err.message());
    assert!(message.contains("unknown tool `Nope`"), "{message}");
    assert_eq!(prop(&err, "code").as_string().unwrap(), "UNKNOWN_TOOL");
    assert_eq!(prop(&err, "path").as_string().unwrap(), "");
    assert!(prop(&err, "hint").as_string().unwrap().contains("bash"));
}
