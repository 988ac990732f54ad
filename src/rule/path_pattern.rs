//! Path rules with gitignore semantics and four anchors: `//abs`, `~/home`, `/layer-root`,
//! and bare or `./` for the working directory.

use crate::error::{Error, ErrorKind, Result};

/// What a path pattern is relative to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Anchor {
    /// `//path`: the file system root.
    Root,
    /// `~/path`: the home directory.
    Home,
    /// `/path`: the root of the layer the rule comes from (the working directory when the
    /// layer names no root).
    LayerRoot,
    /// `./path`: the working directory.
    Cwd,
    /// `dir/file` (a slash, but no leading `/`, `./` or `~`): the working directory for
    /// allow rules; for deny and ask rules also any depth below it (their widest reading).
    Relative,
    /// A bare name with no slash (`.env`, `*.pem`): any depth under the working directory.
    AnyDepth,
}

/// A parsed path specifier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathPattern {
    /// What it is relative to.
    pub anchor: Anchor,
    /// The glob below the anchor, without leading or trailing slashes (may be empty for the
    /// anchor itself).
    pub glob: String,
}

impl PathPattern {
    /// Parses a path specifier.
    pub fn parse(spec: &str) -> Result<Self> {
        let spec = spec.trim();
        if spec.is_empty() {
            return Err(Error::new(ErrorKind::InvalidRule, "empty path specifier")
                .with_hint("name a path, e.g. `Read(./.env)`, or drop the parentheses"));
        }
        let (anchor, rest) = if let Some(r) = spec.strip_prefix("//") {
            (Anchor::Root, r)
        } else if let Some(r) = spec.strip_prefix("~/") {
            (Anchor::Home, r)
        } else if spec == "~" {
            (Anchor::Home, "")
        } else if let Some(r) = spec.strip_prefix('/') {
            (Anchor::LayerRoot, r)
        } else if let Some(r) = spec.strip_prefix("./") {
            (Anchor::Cwd, r)
        } else if spec == "." {
            (Anchor::Cwd, "")
        } else if spec.trim_end_matches('/').contains('/') {
            (Anchor::Relative, spec)
        } else {
            (Anchor::AnyDepth, spec)
        };
        let glob: Vec<&str> = rest
            .split('/')
            .filter(|s| !s.is_empty() && *s != ".")
            .collect();
        if glob.contains(&"..") {
            return Err(Error::new(
                ErrorKind::InvalidRule,
                format!("path specifier `{spec}` contains `..`"),
            )
            .with_hint(
                "write the path from an anchor instead: `//abs/path`, `~/path` or `./path`",
            ));
        }
        if spec.contains('{') || spec.contains('}') || spec.contains('\\') {
            return Err(Error::new(
                ErrorKind::InvalidRule,
                format!("path specifier `{spec}` uses `{{`, `}}` or `\\`, which path rules do not support"),
            )
            .with_hint("use `*`, `**`, `?` or `[...]`, or write one rule per alternative"));
        }
        Ok(PathPattern {
            anchor,
            glob: glob.join("/"),
        })
    }

    /// The globs this pattern compiles to, given the absolute base of its anchor (`None`
    /// for anchors matched against a relative path). The pattern covers what it names and,
    /// as in gitignore, everything under it. `restrictive` (deny and ask) gives a
    /// [`Anchor::Relative`] pattern its widest reading, at any depth, with its names'
    /// combining marks composed ([`crate::path::compose_marks`]), as paths are for them: a
    /// rule written decomposed (NFD) meets the composed name too.
    pub fn globs(&self, base: Option<&str>, restrictive: bool) -> Vec<String> {
        let globs = self.plain_globs(base, restrictive);
        if !restrictive {
            return globs;
        }
        globs
            .into_iter()
            .map(|g| crate::path::compose_marks(&g).into_owned())
            .collect()
    }

    /// [`Self::globs`] with the names as written.
    fn plain_globs(&self, base: Option<&str>, restrictive: bool) -> Vec<String> {
        let body = match self.anchor {
            Anchor::AnyDepth => format!("**/{}", self.glob),
            Anchor::Relative if restrictive => format!("**/{}", self.glob),
            _ => self.glob.clone(),
        };
        let full = match base {
            Some(b) if body.is_empty() => b.trim_end_matches('/').to_owned(),
            Some(b) => format!("{}/{body}", b.trim_end_matches('/')),
            None => body,
        };
        if full.is_empty() || full == "/" {
            return vec!["**".to_owned()];
        }
        if full.ends_with("/**") {
            return vec![full];
        }
        vec![full.clone(), format!("{full}/**")]
    }
}

/// One segment of a [`SegmentGlob`].
#[derive(Clone, Debug, PartialEq, Eq)]
enum SegmentPattern {
    /// `**`: any number of segments.
    AnyDepth,
    /// A name without wildcards.
    Literal(String),
    /// A name with `*`, `?` or `[...]`.
    Wild(String),
}

/// A segment as the matchers see it: borrowed, so a glob can be read below a prefix (the
/// working directory, the home directory) without copying it.
#[derive(Clone, Copy, Debug)]
enum Segment<'a> {
    AnyDepth,
    Literal(&'a str),
    Wild(&'a str),
}

impl<'a> From<&'a SegmentPattern> for Segment<'a> {
    fn from(p: &'a SegmentPattern) -> Self {
        match p {
            SegmentPattern::AnyDepth => Segment::AnyDepth,
            SegmentPattern::Literal(l) => Segment::Literal(l),
            SegmentPattern::Wild(w) => Segment::Wild(w),
        }
    }
}

impl Segment<'_> {
    /// Whether this segment pattern matches the path segment `seg`; a segment in 8.3 short
    /// form stands for any long name it could abbreviate.
    fn matches(self, seg: &str) -> bool {
        match self {
            Segment::AnyDepth => true,
            Segment::Literal(l) => l == seg || crate::path::short_name_matches(l, seg),
            Segment::Wild(w) => {
                wild_match(w, seg) || crate::path::short_name_may_match_glob(w, seg)
            }
        }
    }
}

/// Whether two single-segment patterns could match the same name.
fn segments_meet(a: Segment<'_>, b: Segment<'_>) -> bool {
    match (a, b) {
        (Segment::Literal(x), Segment::Literal(y)) => {
            x == y || crate::path::short_name_matches(x, y) || crate::path::short_name_matches(y, x)
        }
        (Segment::Literal(x), other) | (other, Segment::Literal(x)) => other.matches(x),
        (Segment::Wild(x), Segment::Wild(y)) => match (one_star(x), one_star(y)) {
            // `p1*s1` and `p2*s2` share a name when one start extends the other and one end
            // extends the other (`*.rs` and `*.pem` share none).
            (Some((p1, s1)), Some((p2, s2))) => {
                (p1.starts_with(p2) || p2.starts_with(p1)) && (s1.ends_with(s2) || s2.ends_with(s1))
            }
            _ => true,
        },
        _ => true,
    }
}

/// A segment glob with exactly one `*` and no other wildcard, as its start and its end.
fn one_star(glob: &str) -> Option<(&str, &str)> {
    if glob.contains(['?', '[', ']', '{', '}']) || glob.matches('*').count() != 1 {
        return None;
    }
    glob.split_once('*')
}

/// Glob matching within one segment: `*` (any run of characters), `?` (one character),
/// `[abc]`, `[a-z]`, `[!a]` / `[^a]` (one character of, or not of, a class).
fn wild_match(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0usize, 0usize);
    // Where the last `*` was, and the text position it has swallowed up to.
    let mut star: Option<(usize, usize)> = None;
    loop {
        let step = match (p.get(pi), t.get(ti)) {
            (Some('*'), _) => {
                star = Some((pi, ti));
                pi += 1;
                continue;
            }
            (Some('?'), Some(_)) => Some(pi + 1),
            (Some('['), Some(c)) => match class(&p, pi, *c) {
                Some((true, next)) => Some(next),
                Some((false, _)) => None,
                None => (Some(&'[') == t.get(ti)).then_some(pi + 1),
            },
            (Some(pc), Some(c)) => (pc == c).then_some(pi + 1),
            (None, None) => return true,
            (Some(_), None) => {
                // Only `*` may remain.
                return p
                    .get(pi..)
                    .is_some_and(|rest| rest.iter().all(|c| *c == '*'));
            }
            (None, Some(_)) => None,
        };
        match step {
            Some(next) => {
                pi = next;
                ti += 1;
            }
            None => match star {
                Some((sp, st)) if st < t.len() => {
                    star = Some((sp, st + 1));
                    pi = sp + 1;
                    ti = st + 1;
                }
                _ => return false,
            },
        }
    }
}

/// The class starting at `p[at]` (a `[`): whether `c` is in it and the index after its `]`;
/// `None` when it is not closed.
fn class(p: &[char], at: usize, c: char) -> Option<(bool, usize)> {
    let mut i = at + 1;
    let negated = matches!(p.get(i), Some('!' | '^'));
    if negated {
        i += 1;
    }
    let mut found = false;
    let mut first = true;
    loop {
        let here = *p.get(i)?;
        if here == ']' && !first {
            return Some((found != negated, i + 1));
        }
        first = false;
        if p.get(i + 1) == Some(&'-') && p.get(i + 2).is_some_and(|e| *e != ']') {
            let end = *p.get(i + 2)?;
            found |= here <= c && c <= end;
            i += 3;
        } else {
            found |= here == c;
            i += 1;
        }
    }
}

/// A compiled path glob, segment by segment, for the questions a glob set cannot answer:
/// whether some path below a directory could match (a search's root), whether two globs
/// could match one path (a rule and a search's pattern), and matching paths whose segments
/// may be 8.3 short names.
///
/// ```
/// use toolgate::rule::SegmentGlob;
/// let g = SegmentGlob::new("**/.env").unwrap();
/// assert!(g.could_match_below(&["p", "src"]));
/// let g = SegmentGlob::new("p/secrets/**").unwrap();
/// assert!(g.could_match_below(&["p"]));
/// assert!(g.could_match_below(&["p", "secrets", "deep"]));
/// assert!(!g.could_match_below(&["p", "src"]));
/// let g = SegmentGlob::new("p/.claude/settings.json").unwrap();
/// assert!(g.matches(&["p", ".claude", "SETTIN~1.JSO"]));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SegmentGlob {
    segments: Vec<SegmentPattern>,
}

impl SegmentGlob {
    /// Compiles a glob (`/`-separated; leading and repeated slashes ignored). Errors for a
    /// `[` class that is not closed within its segment.
    pub fn new(glob: &str) -> Result<Self> {
        let mut segments = Vec::new();
        for seg in glob.split('/').filter(|s| !s.is_empty()) {
            let pattern = if seg == "**" {
                SegmentPattern::AnyDepth
            } else if seg.contains(['*', '?', '[']) {
                let chars: Vec<char> = seg.chars().collect();
                let unclosed = chars
                    .iter()
                    .enumerate()
                    .any(|(i, c)| *c == '[' && class(&chars, i, 'a').is_none());
                if unclosed {
                    return Err(Error::new(
                        ErrorKind::InvalidRule,
                        format!("pattern `{glob}` has a `[` that `]` does not close"),
                    )
                    .with_hint("close the class, e.g. `[abc]`, within one path segment"));
                }
                SegmentPattern::Wild(seg.to_owned())
            } else {
                SegmentPattern::Literal(seg.to_owned())
            };
            segments.push(pattern);
        }
        Ok(SegmentGlob { segments })
    }

    fn view<'a>(&'a self, prefix: &'a str) -> Vec<Segment<'a>> {
        crate::path::segments(prefix)
            .map(Segment::Literal)
            .chain(self.segments.iter().map(Segment::from))
            .collect()
    }

    /// Whether the glob matches the path given as its segments.
    pub fn matches(&self, path: &[&str]) -> bool {
        run(&self.view(""), path, false)
    }

    /// Whether some path at or below the directory `dir` (given as its segments) could
    /// match: the glob matches the directory, or a start of the glob matches it and the rest
    /// could match what lies below.
    pub fn could_match_below(&self, dir: &[&str]) -> bool {
        run(&self.view(""), dir, true)
    }

    /// Whether some path could match both globs (a wildcard segment against a wildcard
    /// segment counts as a possible match unless both are `start*end` forms that exclude
    /// each other, so this may say yes where no path exists, never the other way round).
    ///
    /// ```
    /// use toolgate::rule::SegmentGlob;
    /// let g = |s: &str| SegmentGlob::new(s).unwrap();
    /// assert!(g("p/**/*.rs").intersects(&g("p/secrets/**")));
    /// assert!(!g("p/**/*.rs").intersects(&g("p/.env")));
    /// assert!(g("p/**/.env*").intersects(&g("p/.env")));
    /// assert!(!g("p/**/*.rs").intersects(&g("**/*.pem")));
    /// assert!(g("p/**/*.rs").intersects(&g("**/.env*")));
    /// ```
    pub fn intersects(&self, other: &SegmentGlob) -> bool {
        self.intersects_below("", other)
    }

    /// Like [`Self::intersects`], with this glob read below the directory `prefix` (a glob
    /// relative to the working directory, against an absolute one).
    ///
    /// ```
    /// use toolgate::rule::SegmentGlob;
    /// let rule = SegmentGlob::new("**/.env").unwrap();
    /// let search = SegmentGlob::new("/p/src/**").unwrap();
    /// assert!(rule.intersects_below("/p", &search));
    /// assert!(!rule.intersects_below("/q", &search));
    /// ```
    pub fn intersects_below(&self, prefix: &str, other: &SegmentGlob) -> bool {
        // A path that both match ends in a name that both last segments match.
        if let (Some(a), Some(b)) = (self.segments.last(), other.segments.last()) {
            let (a, b) = (Segment::from(a), Segment::from(b));
            let ends = !matches!(a, Segment::AnyDepth) && !matches!(b, Segment::AnyDepth);
            if ends && !segments_meet(a, b) {
                return false;
            }
        }
        meet(&self.view(prefix), &other.view(""))
    }
}

/// Whether every segment left is `**`.
fn all_any(rest: Option<&[Segment<'_>]>) -> bool {
    rest.is_some_and(|r| r.iter().all(|s| matches!(s, Segment::AnyDepth)))
}

/// `table[i][j]`: whether the glob from segment `i` matches the path from segment `j`
/// (with `below`, a path that ends early may be continued).
fn run(glob: &[Segment<'_>], path: &[&str], below: bool) -> bool {
    let (m, n) = (glob.len(), path.len());
    let width = n + 1;
    let mut table = vec![false; (m + 1) * width];
    let at = |i: usize, j: usize| i * width + j;
    for i in (0..=m).rev() {
        for j in (0..=n).rev() {
            let get = |i2: usize, j2: usize| table.get(at(i2, j2)).copied().unwrap_or(false);
            let value = match (glob.get(i), path.get(j)) {
                (None, _) => j == n,
                (Some(_), None) => below || all_any(glob.get(i..)),
                (Some(Segment::AnyDepth), _) => get(i + 1, j) || get(i, j + 1),
                (Some(p), Some(seg)) => p.matches(seg) && get(i + 1, j + 1),
            };
            if let Some(cell) = table.get_mut(at(i, j)) {
                *cell = value;
            }
        }
    }
    table.get(at(0, 0)).copied().unwrap_or(false)
}

/// `table[i][j]`: whether some path matches both `a` from segment `i` and `b` from `j`.
fn meet(a: &[Segment<'_>], b: &[Segment<'_>]) -> bool {
    let (m, n) = (a.len(), b.len());
    let width = n + 1;
    let mut table = vec![false; (m + 1) * width];
    let at = |i: usize, j: usize| i * width + j;
    for i in (0..=m).rev() {
        for j in (0..=n).rev() {
            let get = |i2: usize, j2: usize| table.get(at(i2, j2)).copied().unwrap_or(false);
            let value = match (a.get(i), b.get(j)) {
                (None, None) => true,
                (None, Some(_)) => all_any(b.get(j..)),
                (Some(_), None) => all_any(a.get(i..)),
                (Some(Segment::AnyDepth), _) => get(i + 1, j) || get(i, j + 1),
                (_, Some(Segment::AnyDepth)) => get(i, j + 1) || get(i + 1, j),
                (Some(x), Some(y)) => segments_meet(*x, *y) && get(i + 1, j + 1),
            };
            if let Some(cell) = table.get_mut(at(i, j)) {
                *cell = value;
            }
        }
    }
    table.get(at(0, 0)).copied().unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors() {
        let a = |s| PathPattern::parse(s).unwrap().anchor;
        assert_eq!(a("//etc/passwd"), Anchor::Root);
        assert_eq!(a("~/.ssh/**"), Anchor::Home);
        assert_eq!(a("/src/**/*.ts"), Anchor::LayerRoot);
        assert_eq!(a("./.env"), Anchor::Cwd);
        assert_eq!(a("src/a.ts"), Anchor::Relative);
        assert_eq!(a(".env"), Anchor::AnyDepth);
        assert_eq!(a("secrets/"), Anchor::AnyDepth);
        assert!(PathPattern::parse("../x").is_err());
        assert!(PathPattern::parse("a/{b,c}").is_err());
    }

    #[test]
    fn segment_globs_reach_below_directories() {
        let g = |s: &str| SegmentGlob::new(s).unwrap();
        assert!(g("p/.env").could_match_below(&["p"]));
        assert!(g("p/.env").could_match_below(&["p", ".env"]));
        assert!(!g("p/.env").could_match_below(&["p", ".env", "x"]));
        assert!(g("p/.env/**").could_match_below(&["p", ".env", "x"]));
        assert!(!g("p/.env").could_match_below(&["q"]));
        assert!(g("**").could_match_below(&[]));
        assert!(g("p/*/key.pem").could_match_below(&["p", "a"]));
        assert!(!g("p/*/key.pem").could_match_below(&["p", "a", "b"]));
        assert!(g("**/*.pem").matches(&["a", "b", "c.pem"]));
        assert!(!g("**/*.pem").matches(&["a", "b", "c.pe"]));
        assert!(g("**/*.pem").matches(&["a", "KEY~1.PEM"]));
        // A short name stands only for the names that begin as its own does.
        assert!(g(".env.*").matches(&["ENVLOC~1"]));
        assert!(!g(".env.*").matches(&["HEAD~1"]));
        assert!(!g("**/*.pem").matches(&["a", "KEY~1.TXT"]));
        assert!(g("a/**").matches(&["a"]));
        assert!(!g("a/b").matches(&["a"]));
        assert!(SegmentGlob::new("a/[b").is_err());
    }

    #[test]
    fn wildcards_within_a_segment() {
        for (p, t) in [
            ("*", ""),
            ("*", "abc"),
            ("*.rs", "main.rs"),
            ("a*b*c", "axxbyyc"),
            ("?x", "ax"),
            ("[abc]x", "bx"),
            ("[a-c]x", "cx"),
            ("[!a]x", "bx"),
            ("[^a]x", "bx"),
            ("[]]x", "]x"),
            ("*.[pP][eE][mM]", "k.PeM"),
            (".env*", ".env"),
            ("**", "x"),
        ] {
            assert!(wild_match(p, t), "{p} {t}");
        }
        for (p, t) in [
            ("*.rs", "main.rc"),
            ("a*b", "axxc"),
            ("?", ""),
            ("[abc]x", "dx"),
            ("[!a]x", "ax"),
            ("x", "xy"),
            ("*x", "xy"),
        ] {
            assert!(!wild_match(p, t), "{p} {t}");
        }
    }

    #[test]
    fn globs_cover_contents() {
        let p = PathPattern::parse(".env").unwrap();
        assert_eq!(p.globs(None, false), vec!["**/.env", "**/.env/**"]);
        let p = PathPattern::parse("//etc").unwrap();
        assert_eq!(p.globs(Some(""), true), vec!["/etc", "/etc/**"]);
        let p = PathPattern::parse("src/**").unwrap();
        assert_eq!(p.globs(None, false), vec!["src/**"]);
        assert_eq!(p.globs(None, true), vec!["**/src/**"]);
        let p = PathPattern::parse("./src/**").unwrap();
        assert_eq!(p.globs(None, true), vec!["src/**"]);
    }

    #[test]
    fn deny_and_ask_globs_compose_combining_marks() {
        let p = PathPattern::parse("./A\u{308}rzte.txt").unwrap();
        assert_eq!(
            p.globs(None, true),
            vec!["\u{c4}rzte.txt", "\u{c4}rzte.txt/**"]
        );
        assert_eq!(
            p.globs(None, false),
            vec!["A\u{308}rzte.txt", "A\u{308}rzte.txt/**"]
        );
    }
}
