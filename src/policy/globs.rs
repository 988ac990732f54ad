//! Glob sets whose matches map back to rule ids, bucketed by literal prefix so that a lookup
//! only runs the globs that can match at all. Each set is compiled when first used: most
//! buckets are never consulted, so loading a policy costs little more than parsing it.
//!
//! The rule id type is defined here and re-exported by `super::index`, which builds its
//! matchers from these sets, so the dependency runs one way: index uses globs, never back.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use crate::error::{Error, ErrorKind, Result};
use crate::glob::{Glob, GlobOptions};

/// The position of a rule in the policy's precedence order (lower wins within a class).
pub(crate) type Id = usize;

/// Globs with the rule ids they belong to, checked (parsed) when added and compiled on first
/// use, so that loading a policy costs little more than parsing it.
pub(crate) struct GlobIndexBuilder {
    globs: Vec<Pattern>,
    ids: Vec<Id>,
    restrictive: bool,
}

impl GlobIndexBuilder {
    /// A builder for deny or ask rules (`restrictive`) or allow rules: if the set cannot be
    /// compiled when first used, restrictive rules all match and allow rules none.
    pub(crate) fn new(restrictive: bool) -> Self {
        GlobIndexBuilder {
            globs: Vec::new(),
            ids: Vec::new(),
            restrictive,
        }
    }

    pub(crate) fn add(&mut self, id: Id, glob: &str, literal_separator: bool) -> Result<()> {
        if cannot_fail_to_parse(glob) {
            self.globs.push(Pattern::Deferred {
                glob: glob.to_owned(),
                literal_separator,
            });
            self.ids.push(id);
            return Ok(());
        }
        let g = Glob::new(glob, GlobOptions::plain(literal_separator)).map_err(|e| {
            Error::new(
                ErrorKind::InvalidRule,
                format!("pattern `{glob}` does not compile: {e}"),
            )
            .with_hint("check brackets: `[` starts a character class that `]` must close")
        })?;
        self.globs.push(Pattern::Built(g));
        self.ids.push(id);
        Ok(())
    }

    pub(crate) fn build(self) -> Result<GlobIndex> {
        Ok(GlobIndex {
            globs: self.globs,
            ids: self.ids,
            restrictive: self.restrictive,
            set: OnceLock::new(),
        })
    }
}

/// Globs whose matches map back to rule ids, compiled on first use.
pub(crate) struct GlobIndex {
    globs: Vec<Pattern>,
    ids: Vec<Id>,
    restrictive: bool,
    /// `None` when a glob, accepted when added, does not compile after all.
    set: OnceLock<Option<Vec<Glob>>>,
}

impl GlobIndex {
    fn compiled(&self) -> Option<&[Glob]> {
        self.set
            .get_or_init(|| self.globs.iter().map(Pattern::glob).collect())
            .as_deref()
    }

    pub(crate) fn matches_into(&self, text: &str, out: &mut Vec<Id>) {
        if self.ids.is_empty() {
            return;
        }
        let Some(set) = self.compiled() else {
            // Fail closed: a deny or ask rule that cannot be checked applies; an allow rule
            // that cannot be checked does not.
            if self.restrictive {
                out.extend(&self.ids);
            }
            return;
        };
        for (glob, id) in set.iter().zip(&self.ids) {
            if glob.is_match(text) {
                out.push(*id);
            }
        }
    }
}

/// One glob of a set: parsed when added, or kept as text when its parse cannot fail and
/// parsed when the set is first used (parsing is most of a rule's compile cost, and most sets
/// are never used).
enum Pattern {
    Built(Glob),
    Deferred {
        glob: String,
        literal_separator: bool,
    },
}

impl Pattern {
    /// The compiled glob; `None` only if a deferred parse fails after all, which makes the
    /// set fail closed.
    fn glob(&self) -> Option<Glob> {
        match self {
            Pattern::Built(g) => Some(g.clone()),
            Pattern::Deferred {
                glob,
                literal_separator,
            } => Glob::new(glob, GlobOptions::plain(*literal_separator)).ok(),
        }
    }
}

/// Whether `glob` parses whatever it holds: with backslash escapes off, only character
/// classes (`[...]`) and alternates (`{...}`) can be malformed, so a glob without any of
/// `[ ] { } \` is checked when it is first used instead of when it is added.
///
/// ```text
/// "npm run task1:*"  -> true   (parsed on first use)
/// "/src/[a-"         -> false  (parsed now: a bad class is an error when loading)
/// ```
fn cannot_fail_to_parse(glob: &str) -> bool {
    !glob
        .bytes()
        .any(|b| matches!(b, b'[' | b']' | b'{' | b'}' | b'\\'))
}

/// Globs split into buckets by their literal prefix (whole segments or words before the first
/// wildcard). A text is matched only against the buckets of its own prefixes, so thousands of
/// rules with distinct prefixes cost a few hash lookups rather than running every glob.
pub(crate) struct BucketsBuilder {
    separator: char,
    literal_separator: bool,
    restrictive: bool,
    buckets: HashMap<String, GlobIndexBuilder>,
}

impl BucketsBuilder {
    /// Buckets for texts whose units are separated by `separator` (`/` for paths, where `*`
    /// stays within a segment; ` ` for commands, where `*` may span words).
    /// `restrictive` as for [`GlobIndexBuilder::new`].
    pub(crate) fn new(separator: char, restrictive: bool) -> Self {
        BucketsBuilder {
            separator,
            literal_separator: separator == '/',
            restrictive,
            buckets: HashMap::new(),
        }
    }

    pub(crate) fn add(&mut self, id: Id, glob: &str) -> Result<()> {
        let key = literal_prefix(glob, self.separator);
        let restrictive = self.restrictive;
        self.buckets
            .entry(key)
            .or_insert_with(|| GlobIndexBuilder::new(restrictive))
            .add(id, glob, self.literal_separator)
    }

    pub(crate) fn build(self) -> Result<Buckets> {
        let mut buckets =
            PrefixMap::with_capacity_and_hasher(self.buckets.len(), Default::default());
        let mut lengths = Vec::new();
        for (k, b) in self.buckets {
            if lengths.len() <= k.len() {
                lengths.resize(k.len() + 1, false);
            }
            if let Some(seen) = lengths.get_mut(k.len()) {
                *seen = true;
            }
            buckets.insert(k, b.build()?);
        }
        Ok(Buckets {
            separator: self.separator,
            buckets,
            lengths,
        })
    }
}

/// Bucket prefixes to buckets. The keys are the policy's own literal prefixes and a lookup
/// hashes a handful of short prefixes of the request, so a cheap FNV-1a hash serves better
/// than the default SipHash, whose resistance to chosen keys buys nothing here.
type PrefixMap = HashMap<String, GlobIndex, BuildHasherDefault<Fnv1a>>;

/// The 64-bit FNV-1a hash.
struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv1a {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// The compiled form of [`BucketsBuilder`].
pub(crate) struct Buckets {
    separator: char,
    buckets: PrefixMap,
    /// `lengths[n]`: whether some bucket's prefix is `n` bytes long; other prefixes of a text
    /// are not looked up.
    lengths: Vec<bool>,
}

impl Buckets {
    pub(crate) fn matches_into(&self, text: &str, out: &mut Vec<Id>) {
        if self.buckets.is_empty() {
            return;
        }
        let mut check = |prefix: &str| {
            if !self.lengths.get(prefix.len()).copied().unwrap_or(false) {
                return;
            }
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
    // The units before the first one holding a glob metacharacter, joined as they stand.
    let mut end = 0;
    for (i, unit) in glob.split(separator).enumerate() {
        if unit
            .bytes()
            .any(|b| matches!(b, b'*' | b'?' | b'[' | b']' | b'{' | b'}'))
        {
            return glob.get(..end).unwrap_or("").to_owned();
        }
        end = if i == 0 {
            unit.len()
        } else {
            end + separator.len_utf8() + unit.len()
        };
    }
    glob.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deferred_globs_match_like_parsed_ones() {
        let mut b = GlobIndexBuilder::new(false);
        b.add(1, "npm run task1:*", false).unwrap();
        b.add(2, "/src/{a,b}/**", true).unwrap();
        let set = b.build().unwrap();
        assert!(matches!(set.globs.first(), Some(Pattern::Deferred { .. })));
        assert!(matches!(set.globs.get(1), Some(Pattern::Built(_))));
        let mut out = Vec::new();
        set.matches_into("npm run task1:x", &mut out);
        set.matches_into("/src/b/c/d", &mut out);
        set.matches_into("/src/c/d", &mut out);
        assert_eq!(out, vec![1, 2]);
    }

    #[test]
    fn malformed_globs_are_errors_when_added() {
        for bad in ["/src/[a-", "a,b}", "{a,b", "[z-a]"] {
            assert!(
                GlobIndexBuilder::new(true).add(1, bad, true).is_err(),
                "{bad}"
            );
        }
        for fine in ["a*b?c", "**/.env", "/x/**", "git push *", "a]b"] {
            assert!(cannot_fail_to_parse(fine) || fine.contains(']'));
            assert!(Glob::new(fine, GlobOptions::plain(true)).is_ok(), "{fine}");
        }
    }

    #[test]
    fn prefixes() {
        assert_eq!(literal_prefix("/srv/app/**", '/'), "/srv/app");
        assert_eq!(literal_prefix("/etc/shadow", '/'), "/etc/shadow");
        assert_eq!(literal_prefix("**/.env", '/'), "");
        assert_eq!(literal_prefix("/**", '/'), "");
        assert_eq!(literal_prefix("git push *", ' '), "git push");
        assert_eq!(literal_prefix("*", ' '), "");
        assert_eq!(literal_prefix("a//b*/c", '/'), "a/");
        assert_eq!(literal_prefix("é/ü/[x]", '/'), "é/ü");
        assert_eq!(literal_prefix("", '/'), "");
    }

    #[test]
    fn a_set_that_does_not_compile_fails_closed() {
        for (restrictive, expected) in [(true, vec![7, 9]), (false, vec![])] {
            let mut b = GlobIndexBuilder::new(restrictive);
            b.add(7, "/a/**", true).unwrap();
            b.add(9, "/b/*", true).unwrap();
            let index = b.build().unwrap();
            // As if the compiled set had exceeded a size limit.
            index.set.set(None).unwrap();
            let mut out = Vec::new();
            index.matches_into("/c", &mut out);
            assert_eq!(out, expected);
        }
    }

    #[test]
    fn sets_compile_on_first_use() {
        let mut b = GlobIndexBuilder::new(false);
        b.add(1, "/a/**", true).unwrap();
        let index = b.build().unwrap();
        assert!(index.set.get().is_none());
        let mut out = Vec::new();
        index.matches_into("/a/x", &mut out);
        assert_eq!(out, vec![1]);
        assert!(index.set.get().is_some());
    }

    #[test]
    fn bucketed_matching_finds_every_match() {
        let mut b = BucketsBuilder::new('/', false);
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
        let mut c = BucketsBuilder::new(' ', false);
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
