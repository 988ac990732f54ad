//! Fuzzes the shell analysis: `judge` never panics, never returns nothing, and a line
//! with a denied command is never allowed, whatever surrounds it.
#![no_main]

use std::sync::OnceLock;

#[path = "../../tests/support/literal_rules.rs"]
mod literal_rules;

use libfuzzer_sys::fuzz_target;
use literal_rules::LiteralRules;
use toolgate::shell::{canonical_words, judge, Outcome, Part};
use toolgate::RuleList;

fn rules() -> &'static LiteralRules {
    static RULES: OnceLock<LiteralRules> = OnceLock::new();
    RULES.get_or_init(|| {
        LiteralRules::new("/home/ada/proj", "/home/ada")
            .rule(RuleList::Allow, "Bash(git *)")
            .rule(RuleList::Allow, "Bash(echo *)")
            .rule(RuleList::Allow, "Bash(sudo *)")
            .rule(RuleList::Allow, "Bash(npm run test:*)")
            .rule(RuleList::Ask, "Bash(git push *)")
            .rule(RuleList::Deny, "Bash(rm -rf *)")
            .rule(RuleList::Deny, "Read(./.env)")
    })
}

fn allowed(parts: &[Part]) -> bool {
    parts
        .iter()
        .all(|p| matches!(p.outcome, Outcome::Allowed(_) | Outcome::ReadOnly))
}

fn denied(parts: &[Part]) -> bool {
    parts.iter().any(|p| matches!(p.outcome, Outcome::Denied(_)))
}

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else {
        return;
    };
    let rules = rules();
    assert!(!judge(line, rules).is_empty());
    // A denied command first always runs, so it is always seen.
    let first = judge(&format!("rm -rf /; {line}"), rules);
    assert!(denied(&first), "denied prefix not denied: {line:?} → {first:?}");
    // A denied command after the line runs unless the line swallows it (an open quote,
    // a here-document): then the line cannot be read, and is not allowed either.
    let last = judge(&format!("{line} ;\nrm -rf /"), rules);
    // The canonical form of command words is a fixed point.
    let words: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
    let once = canonical_words(&words);
    assert_eq!(canonical_words(&once), once, "canonical form not idempotent: {line:?}");
    assert!(!allowed(&last), "line with a denied command allowed: {line:?} → {last:?}");
});
