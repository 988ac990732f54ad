//! The fallback for lines outside the analysed subset: they are never allowed, but deny
//! rules, ask rules and critical paths still apply to every piece that can be read.

use super::canonical::{deny_forms, program_name};
use super::writes::is_destructive;
use super::{CommandRules, Outcome};
use crate::decision::{Reason, RuleList};

/// How many leading words of a piece are tried as the start of a command.
const MAX_STARTS: usize = 8;

/// Lines longer than this are not scanned (they are unanalysable anyway).
const MAX_SCAN_BYTES: usize = 1024 * 1024;

/// Splits `line` leniently on every operator, grouping and quoting character, and checks
/// deny and ask rules (from each of the first words, to see past wrappers and runners)
/// and critical paths on each piece. Returns each piece caught, with its outcome. `lookup`
/// is the analysis's rule look-up, which spends the line's budget; the analysis keeps what
/// this returns, so this module needs nothing of it.
pub(crate) fn scan<'l>(
    line: &'l str,
    rules: &dyn CommandRules,
    lookup: &dyn Fn(RuleList, &[String]) -> Option<Reason>,
) -> Vec<(&'l str, Outcome)> {
    let mut found = Vec::new();
    if line.len() > MAX_SCAN_BYTES {
        return found;
    }
    for piece in line.split(|c: char| ";&|(){}`<>\n".contains(c)) {
        let words: Vec<String> = piece
            .split_whitespace()
            .map(|w| {
                w.chars()
                    .filter(|c| !matches!(c, '\'' | '"' | '\\' | '$'))
                    .collect::<String>()
            })
            .filter(|w| !w.is_empty())
            .collect();
        let starts = words.len().min(MAX_STARTS);
        let first_rule = |list: RuleList| {
            (0..starts).find_map(|s| {
                let rest = words.get(s..).unwrap_or_default();
                deny_forms(rest)
                    .into_iter()
                    .find_map(|form| lookup(list, &form))
            })
        };
        let critical = || {
            (0..starts).find_map(|s| {
                let rest = words.get(s..).unwrap_or_default();
                let name = rest.first().map_or("", |n| program_name(n));
                if !is_destructive(name) {
                    return None;
                }
                rest.iter()
                    .skip(1)
                    .filter(|w| !w.starts_with('-'))
                    .find(|w| rules.is_critical(w))
                    .map(|path| Outcome::Critical { path: path.clone() })
            })
        };
        let caught = first_rule(RuleList::Deny)
            .map(Outcome::Denied)
            .or_else(|| first_rule(RuleList::Ask).map(Outcome::AskRule))
            .or_else(critical);
        if let Some(outcome) = caught {
            found.push((piece, outcome));
        }
    }
    found
}
