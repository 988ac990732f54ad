//! The approval card writes out the same characters as the engine: `visible()` in
//! `pkg-template/ui/dom.js` holds its own copy of the set (the card runs without the wasm),
//! and this test reads that character class and compares it with [`toolgate::shown`] over
//! every code point. Newlines and tabs are the one difference: the card keeps them (code and
//! diffs keep their lines), the engine's one-line texts write them out.
#![cfg(not(target_arch = "wasm32"))]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    reason = "a test harness"
)]

/// The code point ranges of the first `/[...]/gu` character class in `source`, written as
/// `\uXXXX` or `\u{X...}`, single or as `A-B`.
fn class_ranges(source: &str) -> Vec<(u32, u32)> {
    let start = source.find("/[").expect("a character class") + 2;
    let end = start + source[start..].find("]/").expect("its end");
    let mut points = Vec::new();
    let mut rest = &source[start..end];
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('-') {
            points.push(None);
            rest = r;
            continue;
        }
        let r = rest
            .strip_prefix("\\u")
            .expect("only \\u escapes in the class");
        let (hex, r) = match r.strip_prefix('{') {
            Some(r) => r.split_at(r.find('}').unwrap()),
            None => r.split_at(4),
        };
        points.push(Some(u32::from_str_radix(hex, 16).unwrap()));
        rest = r.strip_prefix('}').unwrap_or(r);
    }
    let mut ranges = Vec::new();
    let mut i = 0;
    while i < points.len() {
        let lo = points[i].unwrap();
        if points.get(i + 1) == Some(&None) {
            ranges.push((lo, points[i + 2].unwrap()));
            i += 3;
        } else {
            ranges.push((lo, lo));
            i += 1;
        }
    }
    ranges
}

#[test]
fn the_card_writes_out_what_the_engine_writes_out() {
    let source = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/pkg-template/ui/dom.js"
    ))
    .unwrap();
    let ranges = class_ranges(&source);
    assert!(ranges.len() > 10, "{ranges:?}");
    let mut differ = Vec::new();
    for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
        if c == '\n' || c == '\t' {
            continue;
        }
        let card = ranges
            .iter()
            .any(|&(lo, hi)| (lo..=hi).contains(&u32::from(c)));
        let engine = toolgate::shown(&c.to_string()) != c.to_string();
        if card != engine {
            differ.push(format!(
                "U+{:04X} card {card} engine {engine}",
                u32::from(c)
            ));
        }
    }
    assert!(differ.is_empty(), "{differ:?}");
}
