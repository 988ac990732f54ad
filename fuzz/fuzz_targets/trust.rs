//! Fuzzes trust-store import: any text imports or is a typed error that leaves the store as it
//! was; a document that imports exports to a document that imports to the same store.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use toolgate::trust::NewGrant;
use toolgate::{Policy, TrustStore};

fn rules() -> &'static Policy {
    static POLICY: OnceLock<Policy> = OnceLock::new();
    POLICY.get_or_init(|| Policy::from_json("{}").unwrap())
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut store = TrustStore::new();
    store.add(NewGrant::always("Bash(npm test *)"), rules(), 5).unwrap();
    let before = store.export(10);
    match store.import(text, rules()) {
        Err(_) => assert_eq!(store.export(10), before, "a failed import changed the store"),
        Ok(_) => {
            let exported = store.export(0);
            let mut other = TrustStore::new();
            other.import(&exported, rules()).unwrap();
            assert_eq!(other.export(0), exported, "export → import → export changed");
        }
    }
});
