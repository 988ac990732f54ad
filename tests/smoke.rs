//! The smoke corpus (`tests/smoke/cases.json`) checked natively: the same cases run through
//! the wasm bindings in Node and Chromium (`tests/wasm_smoke.rs`) and through the built npm
//! package (`tests/js/`, `tests/browser/`).

#![allow(
    clippy::unwrap_used,
    reason = "test helpers fail loudly on a broken fixture"
)]

#[path = "smoke/corpus.rs"]
mod corpus;

use corpus::corpus;

#[test]
fn tool_defaults_match_the_corpus() {
    let corpus = corpus();
    assert!(!corpus.tool_defaults.is_empty());
    for case in corpus.tool_defaults {
        let found = toolgate::tool::builtin(&case.name);
        match (&case.defaults, &case.error) {
            (Some(expected), None) => {
                let tool = found.unwrap_or_else(|| panic!("`{}` is not built in", case.name));
                assert_eq!(
                    &serde_json::to_value(tool.defaults).unwrap(),
                    expected,
                    "{}",
                    case.name
                );
            }
            (None, Some(code)) => {
                assert!(found.is_none(), "`{}` should be unknown", case.name);
                assert_eq!(code, toolgate::ErrorKind::UnknownTool.code());
            }
            _ => panic!("case `{}` needs exactly one of defaults, error", case.name),
        }
    }
}

#[test]
fn version_is_the_package_version() {
    assert_eq!(toolgate::VERSION, env!("CARGO_PKG_VERSION"));
}
