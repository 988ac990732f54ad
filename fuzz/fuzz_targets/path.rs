//! Fuzzes lexical path normalisation: the result is absolute, has no `.`, `..` or empty
//! segments, is a fixed point, and stays inside the base for paths without `..`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolgate::path::{contains, normalize};

fn check(path: &str, cwd: Option<&str>, home: Option<&str>) {
    let Some(n) = normalize(path, cwd, home) else {
        return;
    };
    assert!(n.starts_with('/'), "not absolute: {path:?} → {n:?}");
    if n != "/" {
        for seg in n.get(1..).unwrap_or("").split('/') {
            assert!(!matches!(seg, "" | "." | ".."), "segment {seg:?} in {n:?} from {path:?}");
        }
    }
    assert_eq!(normalize(&n, None, None).as_deref(), Some(n.as_str()), "not a fixed point");
    if !path.split('/').any(|s| s == "..") && !path.starts_with('/') && !path.starts_with('~') {
        if let Some(base) = cwd.and_then(|c| normalize(c, None, None)) {
            assert!(contains(&base, &n), "{path:?} under {cwd:?} escaped to {n:?}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Split the input into path, working directory and home at NUL-free separators.
    let mut parts = text.splitn(3, '\u{1}');
    let path = parts.next().unwrap_or("");
    let cwd = parts.next();
    let home = parts.next();
    check(path, cwd, home);
    check(path, Some("/home/ada/proj"), Some("/home/ada"));
});
