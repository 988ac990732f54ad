//! Remembered trust: a person's "always allow" answers, compiled as allow rules in the
//! `trust` layer below every policy layer.

use crate::decision::{Layer, RuleList, TrustOverlay};
use crate::rule::Rule;

use super::index::{ClassIndex, Indexable};
use super::{Entry, Policy};

/// Remembered allow rules compiled for one evaluation, below every policy layer.
pub(crate) struct TrustIndex {
    pub(crate) entries: Vec<Entry>,
    pub(crate) allow: ClassIndex,
}

impl TrustIndex {
    /// Compiles the overlay's allow rules; rules that do not parse (or approve nothing) are
    /// left out. `None` when there is nothing to apply or the policy allows only managed
    /// rules.
    pub(crate) fn build(policy: &Policy, trust: &TrustOverlay) -> Option<TrustIndex> {
        if policy.managed_only || trust.allow_rules.is_empty() {
            return None;
        }
        let mut entries: Vec<Entry> = trust
            .allow_rules
            .iter()
            .enumerate()
            .filter_map(|(index, text)| {
                let rule = Rule::parse(text).ok().filter(Rule::can_allow)?;
                Some(Entry {
                    text: rule.to_string(),
                    rule,
                    list: RuleList::Allow,
                    layer: Layer::Trust,
                    index,
                    flag: None,
                    root: None,
                    path: format!("trust[{index}]"),
                    active: true,
                })
            })
            .collect();
        for _ in 0..=entries.len() {
            let items: Vec<Indexable<'_>> = entries
                .iter()
                .enumerate()
                .map(|(id, e)| Indexable {
                    id,
                    rule: &e.rule,
                    root: None,
                })
                .collect();
            match ClassIndex::build(&items, false, policy.case_sensitive) {
                Ok(allow) => return Some(TrustIndex { entries, allow }),
                Err((id, _)) if id < entries.len() => {
                    entries.remove(id);
                }
                Err(_) => return None,
            }
        }
        None
    }

    pub(crate) fn entries(&self) -> &[Entry] {
        &self.entries
    }
}
