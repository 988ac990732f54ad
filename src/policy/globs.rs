//! Glob sets whose matches map back to rule ids, bucketed by literal prefix so that a lookup
//! only runs the globs that can match at all.

use std::collections::HashMap;

use globset::{Candidate, GlobBuilder, GlobSet, GlobSetBuilder};

use crate::error::{Error, ErrorKind, Result};

use super::index::Id;

pub(crate) struct GlobIndexBuilder {
    builder: GlobSetBuilder,
    ids: Vec<Id>,
}

impl Default for GlobIndexBuilder {
    fn default() -> Self {
        GlobIndexBuilder {
            builder: GlobSetBuilder::new(),
            ids: Vec::new(),
        }
    }
}

impl GlobIndexBuilder {
    pub(crate) fn add(&mut self, id: Id, glob: &str, literal_separator: bool) -> Result<()> {
        let g = GlobBuilder::new(glob)
            .literal_separator(literal_separator)
            .backslash_escape(false)
            .build()
            .map_err(|e| {
                Error::new(
                    ErrorKind::InvalidRule,
                    format!("pattern `{glob}` does not compile: {}", e.kind()),
                )
                .with_hint("check brackets: `[` starts a character class that `]` must close")
            })?;
        self.builder.add(g);
        self.ids.push(id);
        Ok(())
    }

    pub(crate) fn build(self) -> Result<GlobIndex> {
        let set = self.builder.build().map_err(|e| {
            Error::new(ErrorKind::InvalidRule, format!("rules do not compile: {e}"))
        })?;
        Ok(GlobIndex { set, ids: self.ids })
    }
}

/// A `GlobSet` whose match indices map back to rule ids.
pub(crate) struct GlobIndex {
    set: GlobSet,
    ids: Vec<Id>,
}

impl GlobIndex {
    pub(crate) fn matches_into(&self, text: &str, out: &mut Vec<Id>) {
        if self.ids.is_empty() {
            return;
        }
        let candidate = Candidate::new(text);
        for i in self.set.matches_candidate(&candidate) {
            if let Some(id) = self.ids.get(i) {
                out.push(*id);
            }
        }
    }
}

/// Globs split into buckets by their literal prefix (whole segments or words before the first
/// wildcard). A text is matched only against the buckets of its own prefixes, so thousands of
/// rules with distinct prefixes cost a few hash lookups rather than one huge automaton.
pub(crate) struct BucketsBuilder {
    separator: char,
    literal_separator: bool,
    buckets: HashMap<String, GlobIndexBuilder>,
}

impl BucketsBuilder {
    /// Buckets for texts whose units are separated by `separator` (`/` for paths, where `*`
    /// stays within a segment; ` ` for commands, where `*` may span words).
    pub(crate) fn new(separator: char) -> Self {
        BucketsBuilder {
            separator,
            literal_separator: separator == '/',
            buckets: HashMap::new(),
        }
    }

    pub(crate) fn add(&mut self, id: Id, glob: &str) -> Result<()> {
        let key = literal_prefix(glob, self.separator);
        self.buckets
            .entry(key)
            .or_default()
            .add(id, glob, self.literal_separator)
    }

    pub(crate) fn build(self) -> Result<Buckets> {
        let mut buckets = HashMap::with_capacity(self.buckets.len());
        for (k, b) in self.buckets {
            buckets.insert(k, b.build()?);
        }
        Ok(Buckets {
            separator: self.separator,
            buckets,
        })
    }
}

/// The compiled form of [`BucketsBuilder`].
pub(crate) struct Buckets {
    separator: char,
    buckets: HashMap<String, GlobIndex>,
}

impl Buckets {
    pub(crate) fn matches_into(&self, text: &str, out: &mut Vec<Id>) {
        if self.buckets.is_empty() {
            return;
        }
        let mut check = |prefix: &str| {
            if let Some(set) = self.buckets.get(prefix) {
                set.matches_into(text, out);
            }
        };
        check("");
        for (i, c) in text.char_indices() {
            if c == self.separator && i > 0 {
                check(text.get(..i).unwrap_or(""));
            }
        }
        if !text.is_empty() {
            check(text);
        }
    }
}

/// The longest run of whole units (segments or words) before the first unit with a glob
/// metacharacter: every text the glob matches starts with it, followed by the separator or
/// the end.
fn literal_prefix(glob: &str, separator: char) -> String {
    let units: Vec<&str> = glob.split(separator).collect();
    let literal = units
        .iter()
        .take_while(|u| !u.contains(['*', '?', '[', ']', '{', '}']))
        .count();
    if literal == units.len() {
        return glob.to_owned();
    }
    let sep = separator.to_string();
    units
        .get(..literal)
        .map(|u| u.join(&sep))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes() {
        assert_eq!(literal_prefix("/srv/app/**", '/'), "/srv/app");
        assert_eq!(literal_prefix("/etc/shadow", '/'), "/etc/shadow");
        assert_eq!(literal_prefix("**/.env", '/'), "");
        assert_eq!(literal_prefix("/**", '/'), "");
        assert_eq!(literal_prefix("git push *", ' '), "git push");
        assert_eq!(literal_prefix("*", ' '), "");
    }

    #[test]
    fn bucketed_matching_finds_every_match() {
        let mut b = BucketsBuilder::new('/');
        for (id, g) in ["/srv/app/**", "/srv/**", "**/x", "/srv/app/x", "/srv/app"]
            .iter()
            .enumerate()
        {
            b.add(id, g).unwrap();
        }
        let b = b.build().unwrap();
        let mut out = Vec::new();
        b.matches_into("/srv/app/x", &mut out);
        out.sort_unstable();
        assert_eq!(out, vec![0, 1, 2, 3]);
        let mut c = BucketsBuilder::new(' ');
        c.add(0, "git").unwrap();
        c.add(1, "git *").unwrap();
        let c = c.build().unwrap();
        let mut out = Vec::new();
        c.matches_into("gitk", &mut out);
        assert!(out.is_empty());
        c.matches_into("git status", &mut out);
        assert_eq!(out, vec![1]);
    }
}
