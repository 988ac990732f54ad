//! Which deny and ask rules' literal paths meet a search's literal text, found by binary
//! search over the rules' sorted literal paths instead of by comparing every rule.
//!
//! A rule's literal path is the text before its first segment with a wildcard
//! (`src` for `src/**/*.ts`), relative to its base (`/`, the working directory or the home
//! directory). A search (a directory and a pattern below it) can only reach files of a rule
//! whose literal path lies on one line with the search's literal text: one starts with the
//! other, segment-wise where the rule ends first. [`meets`] is that test for one rule;
//! [`SortedLiterals::meeting`] gives the same answer for every rule of a base at once, and a
//! test holds the two to each other.

/// The literal paths of one base's rules, sorted, each with its position in the rule list.
#[derive(Default)]
pub(super) struct SortedLiterals(Vec<(String, usize)>);

impl SortedLiterals {
    /// Indexes `(literal path without a leading '/', position)` pairs.
    pub(super) fn new(mut items: Vec<(String, usize)>) -> Self {
        items.sort();
        SortedLiterals(items)
    }

    /// Pushes the position of every rule whose literal path meets `search` below `base`
    /// (as [`meets`] decides; `base` without a trailing `/`, both already case-folded as
    /// the rules are). A position may be pushed twice; callers sort and deduplicate.
    pub(super) fn meeting(&self, base: &str, search: &str, out: &mut Vec<usize>) {
        let Some(after_base) = search.strip_prefix(base) else {
            // The search leaves the base before its end: it reaches every rule's path
            // when it lies inside the base's text, none otherwise.
            if base.starts_with(search) {
                self.all(out);
            }
            return;
        };
        if after_base.is_empty() {
            return self.all(out);
        }
        let Some(in_rule) = after_base.strip_prefix('/') else {
            // The search's text goes on inside the base's last name (`/p` then `/pq`): only
            // a rule at the root of an absolute base lies under it.
            if base.is_empty() {
                self.equal_to("", out);
            }
            return;
        };
        // Rules at the base itself reach below it.
        self.equal_to("", out);
        // Rules whose path begins with the search's text (`src/app` for `src/a`).
        let from = self.0.partition_point(|(l, _)| l.as_str() < in_rule);
        for (literal, at) in self.0.get(from..).unwrap_or_default() {
            if !literal.starts_with(in_rule) {
                break;
            }
            out.push(*at);
        }
        // Rules whose path is a directory the search's text lies below (`src` for
        // `src/deep/x`); the text itself was counted above.
        for (slash, _) in in_rule.match_indices('/') {
            if let Some(dir) = in_rule.get(..slash).filter(|d| !d.is_empty()) {
                self.equal_to(dir, out);
            }
        }
    }

    /// Pushes every position.
    pub(super) fn all(&self, out: &mut Vec<usize>) {
        out.extend(self.0.iter().map(|(_, at)| *at));
    }

    fn equal_to(&self, literal: &str, out: &mut Vec<usize>) {
        let from = self.0.partition_point(|(l, _)| l.as_str() < literal);
        out.extend(
            self.0
                .get(from..)
                .unwrap_or_default()
                .iter()
                .take_while(|(l, _)| l == literal)
                .map(|(_, at)| *at),
        );
    }
}

/// Whether a rule's literal path (`base` `/` `rule`, `base` alone when `rule` is empty)
/// lies on one line with a search's literal text `search`: the rule's files may be below
/// the search's directory, or the search's below the rule's.
#[cfg(test)]
fn meets(base: &str, rule: &str, search: &str) -> bool {
    let Some(after_base) = search.strip_prefix(base) else {
        return base.starts_with(search);
    };
    if rule.is_empty() {
        return after_base.is_empty() || after_base.starts_with('/') || base.is_empty();
    }
    let Some(in_rule) = after_base.strip_prefix('/') else {
        return after_base.is_empty();
    };
    rule.starts_with(in_rule)
        || in_rule
            .strip_prefix(rule)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_rule_meets_a_search_on_its_line() {
        assert!(meets("/p", "makefile", "/p/mak"));
        assert!(meets("/p", "", "/p/mak"));
        assert!(meets("", "etc", "/etc/cron.d/x"));
        assert!(!meets("/p", "src", "/p/mak"));
        assert!(!meets("/p", "ma", "/p/mak"));
    }

    /// Every combination of short bases, rule paths and searches over a small alphabet:
    /// the sorted index finds exactly the rules the one-rule test finds.
    #[test]
    fn the_index_finds_what_the_one_rule_test_finds() {
        let names = [
            "", "a", "ab", "b", "a/b", "a/bc", "ab/c", "a/b/c", "b/a", "a//b",
        ];
        let rules: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
        let index = SortedLiterals::new(rules.iter().cloned().zip(0..).collect());
        let bases = ["", "/p", "/p/q", "/pq"];
        let mut searches = vec![String::new(), "/".to_owned()];
        for base in ["", "/p", "/p/q", "/pq", "/x"] {
            for tail in [
                "", "/", "q", "/a", "/a/", "/ab", "/a/b", "/a/b/c/d", "/b", "/a//b",
            ] {
                searches.push(format!("{base}{tail}"));
            }
        }
        for base in bases {
            for search in &searches {
                let mut found = Vec::new();
                index.meeting(base, search, &mut found);
                found.sort_unstable();
                found.dedup();
                let expected: Vec<usize> = (0..rules.len())
                    .filter(|&i| meets(base, &rules[i], search))
                    .collect();
                assert_eq!(found, expected, "base {base:?}, search {search:?}");
            }
        }
    }
}
