//! Bash's pathname expansion, for hosts that resolve symlinks ([`crate::Request::add_realpaths`])
//! and for the analysis that judges a glob as the files it names.
//!
//! A pattern is kept as text in which a backslash makes the next character literal
//! ([`pattern_of`] writes a word's quoted parts that way), so `docs/"*"x*` and `docs/\*x*`
//! both read `docs/\*x*`. Matching takes the widest reading, as deny and ask rules do: names
//! starting with `.` match (as under `shopt -s dotglob`), letters match in either case (as
//! under `nocaseglob`), a `**` segment matches any depth (as under `globstar`), and a
//! negated or class bracket (`[!a]`, `[[:alpha:]]`) matches any character. A name a narrower
//! shell would not expand is only judged too, never left out.

use super::word::Word;

/// Directory entries [`expand`] reads at most, across all listings of one command line.
pub(crate) const MAX_LISTED: usize = 10_000;

/// Paths [`expand`] returns at most for one command line.
pub(crate) const MAX_MATCHED: usize = 1024;

/// The glob pattern of a word judged as a glob (one with a
/// [`Word::glob_directory`]), its quoted characters escaped with a backslash; `None` for any
/// other word.
pub(crate) fn pattern_of(w: &Word) -> Option<String> {
    w.glob_directory()?;
    let mut out = String::with_capacity(w.raw.len());
    let mut chars = w.raw.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                for q in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                    push_literal(&mut out, q);
                }
            }
            '"' => {
                while let Some(q) = chars.next() {
                    match q {
                        '"' => break,
                        '\\' => match chars.peek().copied() {
                            Some('\n') => {
                                chars.next();
                            }
                            Some(n @ ('$' | '`' | '"' | '\\')) => {
                                chars.next();
                                push_literal(&mut out, n);
                            }
                            _ => push_literal(&mut out, '\\'),
                        },
                        _ => push_literal(&mut out, q),
                    }
                }
            }
            '\\' => match chars.next() {
                Some('\n') => {}
                Some(n) => push_literal(&mut out, n),
                None => push_literal(&mut out, '\\'),
            },
            _ => out.push(c),
        }
    }
    Some(out)
}

/// `text` as a pattern that matches only itself.
///
/// ```text
/// escape("a*b") == "a\\*b"
/// ```
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        push_literal(&mut out, c);
    }
    out
}

fn push_literal(out: &mut String, c: char) {
    if matches!(c, '*' | '?' | '[' | ']' | '\\') {
        out.push('\\');
    }
    out.push(c);
}

/// One piece of a pattern segment.
#[derive(Debug, Clone, PartialEq)]
enum Token {
    Literal(char),
    /// `?`: any one character.
    One,
    /// `*`: any run of characters.
    Any,
    /// `[...]`: one character of the set; `None` when the bracket matches any character.
    Set(Option<Vec<Member>>),
}

#[derive(Debug, Clone, PartialEq)]
enum Member {
    Char(char),
    Range(char, char),
}

/// A pattern's segments between `/`, each as written (escapes kept).
fn segments(pattern: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(last) = out.last_mut() {
                    last.push('\\');
                    if let Some(n) = chars.next() {
                        last.push(n);
                    }
                }
            }
            '/' => out.push(String::new()),
            _ => {
                if let Some(last) = out.last_mut() {
                    last.push(c);
                }
            }
        }
    }
    out
}

/// The tokens of one segment.
fn tokens(segment: &str) -> Vec<Token> {
    let chars: Vec<char> = segment.chars().collect();
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        i += 1;
        match c {
            '\\' => {
                if let Some(&n) = chars.get(i) {
                    out.push(Token::Literal(n));
                    i += 1;
                } else {
                    out.push(Token::Literal('\\'));
                }
            }
            '*' => {
                if out.last() != Some(&Token::Any) {
                    out.push(Token::Any);
                }
            }
            '?' => out.push(Token::One),
            '[' => match bracket(&chars, i) {
                Some((set, next)) => {
                    out.push(Token::Set(set));
                    i = next;
                }
                None => out.push(Token::Literal('[')),
            },
            _ => out.push(Token::Literal(c)),
        }
    }
    out
}

/// The bracket expression starting after the `[` at `start`, and the index past its `]`;
/// `None` when it is not closed (the `[` is then literal).
fn bracket(chars: &[char], start: usize) -> Option<(Option<Vec<Member>>, usize)> {
    let mut i = start;
    let negated = matches!(chars.get(i), Some('!' | '^'));
    if negated {
        i += 1;
    }
    let mut members = Vec::new();
    let mut any = negated;
    let mut first = true;
    loop {
        let c = *chars.get(i)?;
        i += 1;
        let c = match c {
            ']' if !first => break,
            '[' if chars.get(i).is_some_and(|n| matches!(n, ':' | '=' | '.')) => {
                // A class (`[:alpha:]`), an equivalence class or a collating symbol; one
                // that is not closed leaves the `[` a member (`[a[:x]` is `a`, `[`, `:`,
                // `x`). Either way the set is taken as any character.
                any = true;
                first = false;
                let close = *chars.get(i)?;
                let mut j = i + 1;
                while chars.get(j).is_some()
                    && !(chars.get(j) == Some(&close) && chars.get(j + 1) == Some(&']'))
                {
                    j += 1;
                }
                if chars.get(j).is_some() {
                    i = j + 2;
                }
                continue;
            }
            '\\' => {
                let n = *chars.get(i)?;
                i += 1;
                n
            }
            c => c,
        };
        first = false;
        if chars.get(i) == Some(&'-') && chars.get(i + 1).is_some_and(|n| *n != ']') {
            let mut hi = *chars.get(i + 1)?;
            i += 2;
            if hi == '\\' {
                hi = *chars.get(i)?;
                i += 1;
            }
            members.push(Member::Range(c, hi));
        } else {
            members.push(Member::Char(c));
        }
    }
    Some(((!any).then_some(members), i))
}

/// The character `c` in either case.
fn cases(c: char) -> [char; 3] {
    let lower = c.to_lowercase().next().unwrap_or(c);
    let upper = c.to_uppercase().next().unwrap_or(c);
    [c, lower, upper]
}

fn token_matches(t: &Token, c: char) -> bool {
    match t {
        Token::Literal(l) => cases(*l).iter().any(|x| cases(c).contains(x)),
        Token::One | Token::Set(None) => true,
        Token::Set(Some(members)) => cases(c).iter().any(|x| {
            members.iter().any(|m| match m {
                Member::Char(m) => cases(*m).contains(x),
                Member::Range(lo, hi) => {
                    (lo..=hi).contains(&x)
                        || cases(*lo)
                            .iter()
                            .zip(cases(*hi))
                            .any(|(lo, hi)| (*lo..=hi).contains(x))
                }
            })
        }),
        Token::Any => false,
    }
}

/// Whether `name` (one path component) matches the segment's tokens.
fn segment_matches(tokens: &[Token], name: &str) -> bool {
    let name: Vec<char> = name.chars().collect();
    let (mut t, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match (tokens.get(t), name.get(n)) {
            (Some(Token::Any), _) => {
                star = Some((t, n));
                t += 1;
            }
            (Some(tok), Some(&c)) if token_matches(tok, c) => {
                t += 1;
                n += 1;
            }
            _ => match star {
                Some((st, sn)) => {
                    t = st + 1;
                    n = sn + 1;
                    star = Some((st, sn + 1));
                }
                None => return false,
            },
        }
    }
    tokens
        .get(t..)
        .unwrap_or_default()
        .iter()
        .all(|x| *x == Token::Any)
}

/// One segment of a pattern between `/`.
struct Segment {
    tokens: Vec<Token>,
    /// The segment is `**`, unquoted: any number of directories.
    globstar: bool,
}

fn parse(pattern: &str) -> Vec<Segment> {
    segments(pattern)
        .iter()
        .map(|s| Segment {
            tokens: tokens(s),
            globstar: s == "**",
        })
        .collect()
}

impl Segment {
    fn is_literal(&self) -> bool {
        self.tokens.iter().all(|t| matches!(t, Token::Literal(_)))
    }

    fn literal(&self) -> String {
        self.tokens
            .iter()
            .filter_map(|t| match t {
                Token::Literal(c) => Some(*c),
                _ => None,
            })
            .collect()
    }
}

/// Whether `path` (as [`expand`] writes the paths it finds) is one the pattern names:
/// `docs/b.md` for `docs/*`, `docs/x/y/z.md` for `docs/**/*.md`.
pub(crate) fn matches(pattern: &str, path: &str) -> bool {
    let pattern = parse(pattern);
    let path: Vec<&str> = path.split('/').collect();
    path_matches(&pattern, &path)
}

/// Segment by segment over the whole path at once: `reach[j]` says whether the segments so
/// far match the path's first `j` components. Linear in pattern × path, however many `**`
/// the pattern holds (trying each split of each `**` in turn is exponential in them).
fn path_matches(pattern: &[Segment], path: &[&str]) -> bool {
    let mut reach = vec![false; path.len() + 1];
    if let Some(start) = reach.first_mut() {
        *start = true;
    }
    for segment in pattern {
        reach = if segment.globstar {
            // Zero or more components: reachable from any earlier reach.
            let mut any = false;
            reach
                .iter()
                .map(|r| {
                    any |= *r;
                    any
                })
                .collect()
        } else {
            // One component: from `j` to `j + 1` when the name matches.
            std::iter::once(false)
                .chain(
                    reach
                        .iter()
                        .zip(path)
                        .map(|(r, name)| *r && segment_matches(&segment.tokens, name)),
                )
                .collect()
        };
    }
    reach.last().copied().unwrap_or(false)
}

/// The host's file system as [`expand`] reads it.
pub(crate) struct FileSystem<'a> {
    /// The names in an absolute directory (without `.` and `..`): empty for a path that does
    /// not exist or is not a directory, `None` when the directory cannot be listed.
    pub list: &'a dyn Fn(&str) -> Option<Vec<String>>,
    /// Where an absolute path really leads, symlinks followed.
    pub realpath: &'a dyn Fn(&str) -> Option<String>,
    /// Directory entries read so far.
    pub listed: usize,
}

/// The paths the pattern names on the host, written as the pattern writes them (relative to
/// `cwd` when it is relative): a superset of what bash expands it to (see the module's
/// documentation; a literal segment after a glob is appended without checking that the path
/// exists). `None` when they cannot all be found: a directory that cannot be listed, more
/// than [`MAX_LISTED`] entries read or [`MAX_MATCHED`] paths found, or a relative pattern
/// without an absolute `cwd`.
pub(crate) fn expand(
    pattern: &str,
    cwd: Option<&str>,
    fs: &mut FileSystem<'_>,
) -> Option<Vec<String>> {
    let mut segments = parse(pattern);
    let mut paths = if pattern.starts_with('/') {
        segments.remove(0);
        vec!["/".to_owned()]
    } else {
        vec![String::new()]
    };
    let cwd = cwd.filter(|c| c.starts_with('/'));
    let absolute = |w: &str| -> Option<String> {
        if w.starts_with('/') {
            return Some(w.to_owned());
        }
        let c = cwd?.trim_end_matches('/');
        Some(if w.is_empty() {
            c.to_owned()
        } else {
            format!("{c}/{w}")
        })
    };
    for segment in &segments {
        let mut next = Vec::new();
        for w in &paths {
            if segment.globstar {
                next.push(w.clone());
                below(w, &absolute, fs, &mut next)?;
            } else if segment.is_literal() {
                next.push(join(w, &segment.literal()));
            } else {
                for name in list(&absolute(w)?, fs)? {
                    if segment_matches(&segment.tokens, &name) {
                        next.push(join(w, &name));
                    }
                }
            }
            if next.len() > MAX_MATCHED {
                return None;
            }
        }
        paths = next;
    }
    paths.retain(|p| !p.is_empty() && p != "/");
    Some(paths)
}

/// Every path below `w`, through directories that are not links.
fn below(
    w: &str,
    absolute: &dyn Fn(&str) -> Option<String>,
    fs: &mut FileSystem<'_>,
    out: &mut Vec<String>,
) -> Option<()> {
    let mut queue = vec![w.to_owned()];
    while let Some(dir) = queue.pop() {
        let abs = absolute(&dir)?;
        let names = list(&abs, fs)?;
        if names.is_empty() {
            continue;
        }
        let real = (fs.realpath)(&abs);
        for name in names {
            let child = join(&dir, &name);
            let child_real = (fs.realpath)(&absolute(&child)?);
            let plain = match (&real, &child_real) {
                (Some(r), Some(c)) => *c == format!("{}/{name}", r.trim_end_matches('/')),
                _ => false,
            };
            if plain {
                queue.push(child.clone());
            }
            out.push(child);
            if out.len() > MAX_MATCHED {
                return None;
            }
        }
    }
    Some(())
}

fn list(abs: &str, fs: &mut FileSystem<'_>) -> Option<Vec<String>> {
    let mut names = (fs.list)(abs)?;
    names.retain(|n| n != "." && n != ".." && !n.is_empty() && !n.contains('/'));
    fs.listed += names.len();
    (fs.listed <= MAX_LISTED).then_some(names)
}

fn join(w: &str, name: &str) -> String {
    match w {
        "" => name.to_owned(),
        "/" => format!("/{name}"),
        _ => format!("{w}/{name}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::parse;

    fn word(text: &str) -> Word {
        let simples = parse::parse(&format!("cat {text}"), 0).unwrap();
        simples[0].words[1].clone()
    }

    #[test]
    fn quoted_glob_characters_are_literal() {
        assert_eq!(pattern_of(&word("docs/*")).as_deref(), Some("docs/*"));
        assert_eq!(
            pattern_of(&word(r#"do"c s"/'*'x*"#)).as_deref(),
            Some(r"doc s/\*x*")
        );
        assert_eq!(
            pattern_of(&word(r"docs/\[b]*")).as_deref(),
            Some(r"docs/\[b]*")
        );
        assert_eq!(pattern_of(&word("docs/b.md")), None);
        assert_eq!(pattern_of(&word("*")), None);
    }

    #[test]
    fn many_globstars_match_in_linear_time() {
        let pattern = format!("{}z", "**/".repeat(40));
        let deep = vec!["d"; 200].join("/");
        assert!(!matches(&pattern, &deep));
        assert!(matches(&pattern, &format!("{deep}/z")));
        assert!(matches("a/**/b/**/c", "a/x/b/y/z/c"));
        assert!(!matches("a/**/b/**/c", "a/x/c/b"));
    }

    #[test]
    fn names_match_as_bash_reads_them_widened() {
        for (pattern, path) in [
            ("docs/*", "docs/b.md"),
            ("docs/[b].md", "docs/b.md"),
            ("docs/[a-c].md", "docs/B.md"),
            ("docs/?.md", "docs/b.md"),
            ("docs/*", "docs/.env"),
            ("docs/[!a]*", "docs/a"),
            ("docs/[[:alpha:]]*", "docs/x"),
            ("docs/**/*.md", "docs/a/b/c.md"),
            ("docs/**/*.md", "docs/c.md"),
            ("docs/*/", "docs/x/"),
            ("docs/\\*x", "docs/*x"),
            ("docs/[]]", "docs/]"),
            ("docs/[", "docs/["),
            // An unclosed class leaves its `[` a member, as bash reads it.
            ("docs/[a[:x]", "docs/a"),
            ("docs/[a[:x]", "docs/["),
            ("docs/[[=a]", "docs/a"),
        ] {
            assert!(matches(pattern, path), "{pattern} {path}");
        }
        for (pattern, path) in [
            ("docs/*", "docs/a/b"),
            ("docs/*.md", "docs/b.txt"),
            ("docs/\\*x", "docs/ax"),
            ("docs/[b].md", "docs/c.md"),
            ("docs/*", "src/a"),
            ("docs/?", "docs/ab"),
        ] {
            assert!(!matches(pattern, path), "{pattern} {path}");
        }
    }
}
