//! Fuzzes policy loading: any text either loads or is a typed error with a path, never a
//! panic; a policy that loads decides a few fixed requests without panicking, and its
//! document survives serialize → parse → serialize unchanged.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolgate::policy::PolicyDocument;
use toolgate::{Policy, Request};

const REQUESTS: [&str; 4] = [
    r#"{"tool":"Bash","input":{"command":"git push origin main && rm -rf /"},"cwd":"/home/ada/proj"}"#,
    r#"{"tool":"Read","input":{"file_path":"../.env"},"cwd":"/home/ada/proj"}"#,
    r#"{"tool":"WebFetch","input":{"url":"https://api.example.com/x"}}"#,
    r#"{"tool":"mcp__github__get_issue","input":{}}"#,
];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(doc) = toolgate::json::from_str::<PolicyDocument>(text, "policy") else {
        return;
    };
    let once = serde_json::to_string(&doc).unwrap();
    let again: PolicyDocument = toolgate::json::from_str(&once, "policy").unwrap();
    assert_eq!(serde_json::to_string(&again).unwrap(), once, "round trip: {text:?}");
    if let Ok(policy) = Policy::compile_unchecked(doc) {
        for r in REQUESTS {
            let request = Request::from_json(r).unwrap();
            let _ = policy.evaluate(&request);
            let _ = policy.explain(&request);
        }
    }
});
