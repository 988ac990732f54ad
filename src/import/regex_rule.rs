//! Agents' regular expressions, approximated by toolgate rules.
//!
//! toolgate's rule language has no regular expressions, so a regex rule is translated:
//!
//! - an **allow** regex becomes exact allow rules only when its language is a finite set of
//!   command prefixes anchored at the start (`^cargo\s+(build|test)` becomes
//!   `Bash(cargo build *)` and `Bash(cargo test *)`, which need a word boundary and are
//!   therefore narrower); any other allow regex is left out, so those calls ask;
//! - a **deny** or **ask** regex becomes rules on its literal prefixes (`rm\s+-rf` becomes
//!   `Bash(*rm -rf*)` when unanchored, `Bash(rm -rf*)` when anchored), which match at least
//!   everything the regex matches; with no literal prefix it covers the whole tool.
//!
//! Regexes are parsed with `regex-syntax` (the parser of the linear-time `regex` crate), in
//! ASCII mode: a regex that does not parse is an error.

use regex_syntax::hir::literal::{ExtractKind, Extractor};
use regex_syntax::hir::{Class, Hir, HirKind, Look};
use regex_syntax::ParserBuilder;

/// How many alternatives a regex may expand to before it counts as not finite.
const LIMIT: usize = 32;

/// A parsed regex.
pub(crate) struct Regex {
    hir: Hir,
}

impl Regex {
    /// Parses `pattern`; the error says why it does not parse.
    pub fn parse(pattern: &str) -> Result<Regex, String> {
        let hir = ParserBuilder::new()
            .unicode(false)
            .utf8(false)
            .build()
            .parse(pattern)
            .map_err(|e| {
                e.to_string()
                    .lines()
                    .last()
                    .unwrap_or("invalid regex")
                    .trim()
                    .trim_start_matches("error: ")
                    .to_owned()
            })?;
        Ok(Regex { hir })
    }

    /// The exact command forms of an allow regex: each a command (words joined by single
    /// spaces) and whether the regex ends there (`$`) rather than matching a prefix. `None`
    /// when the regex is not a finite set of anchored prefixes that toolgate can match as
    /// narrowly. `anchored` says whether the agent anchors the match at the start itself.
    pub fn command_forms(&self, anchored: bool) -> Option<Vec<(String, bool)>> {
        let parts = concat_parts(&self.hir);
        let mut parts: &[Hir] = &parts;
        let mut starts = anchored;
        if let Some((first, rest)) = parts.split_first() {
            if is_start(first) {
                starts = true;
                parts = rest;
            }
        }
        let mut ends = false;
        if let Some((last, rest)) = parts.split_last() {
            if is_end(last) {
                ends = true;
                parts = rest;
            } else if is_word_boundary(last) {
                parts = rest;
            }
        }
        if !starts {
            return None;
        }
        let mut out = Vec::new();
        for s in strings_of(parts)? {
            if s.contains(['*', '\\'])
                || s.is_empty()
                || s.chars().any(super::translate::is_unsplit_space)
            {
                return None;
            }
            // A required space at the end: toolgate's prefix also matches the bare command.
            if !ends && s.ends_with(char::is_whitespace) {
                return None;
            }
            let words = s.split_whitespace().collect::<Vec<_>>().join(" ");
            if words.is_empty() || s.starts_with(char::is_whitespace) {
                return None;
            }
            out.push((words, ends));
        }
        Some(out)
    }

    /// Literal prefixes that every match starts with (words joined by single spaces), or
    /// `None` when there is no usable literal (then only the whole tool covers the regex).
    pub fn literal_prefixes(&self) -> Option<Vec<String>> {
        let parts = concat_parts(&self.hir);
        let body: Vec<Hir> = parts
            .into_iter()
            .skip_while(|h| is_start(h) || is_word_boundary(h))
            .collect();
        let hir = Hir::concat(body);
        let seq = Extractor::new().kind(ExtractKind::Prefix).extract(&hir);
        let lits = seq.literals()?;
        if lits.is_empty() || lits.len() > LIMIT {
            return None;
        }
        let mut out: Vec<String> = Vec::new();
        for l in lits {
            let text = String::from_utf8_lossy(l.as_bytes());
            let mut norm = String::new();
            for c in text.chars() {
                // Other white space (a no-break space) stays: the shell does not split words at it.
                if c.is_whitespace() && c.is_ascii() {
                    if !norm.ends_with(' ') {
                        norm.push(' ');
                    }
                } else {
                    norm.push(c);
                }
            }
            if norm.trim().is_empty() {
                return None;
            }
            if !out.contains(&norm) {
                out.push(norm);
            }
        }
        Some(out)
    }

    /// Whether both regexes parse to the same syntax (`\x3b` and `;` are the same literal).
    pub fn same_as(&self, other: &Regex) -> bool {
        self.hir == other.hir
    }

    /// Whether the regex is anchored at the start (`^`).
    pub fn anchored(&self) -> bool {
        concat_parts(&self.hir).first().is_some_and(is_start)
    }

    /// The finite set of strings the whole regex matches, when it has no anchors or other
    /// look-arounds; `None` otherwise.
    pub fn plain_strings(&self) -> Option<Vec<String>> {
        strings_of(std::slice::from_ref(&self.hir))
    }
}

fn concat_parts(hir: &Hir) -> Vec<Hir> {
    match hir.kind() {
        HirKind::Concat(parts) => parts.clone(),
        _ => vec![hir.clone()],
    }
}

fn is_start(h: &Hir) -> bool {
    matches!(h.kind(), HirKind::Look(Look::Start | Look::StartLF))
}

fn is_end(h: &Hir) -> bool {
    matches!(h.kind(), HirKind::Look(Look::End | Look::EndLF))
}

fn is_word_boundary(h: &Hir) -> bool {
    matches!(
        h.kind(),
        HirKind::Look(Look::WordAscii | Look::WordUnicode | Look::WordEndAscii)
    )
}

/// The finite language of a concatenation, with runs of whitespace as one space.
fn strings_of(parts: &[Hir]) -> Option<Vec<String>> {
    let mut acc = vec![String::new()];
    for p in parts {
        let next = strings(p)?;
        let mut out = Vec::new();
        for a in &acc {
            for n in &next {
                out.push(format!("{a}{n}"));
                if out.len() > LIMIT {
                    return None;
                }
            }
        }
        acc = out;
    }
    Some(acc)
}

fn strings(h: &Hir) -> Option<Vec<String>> {
    match h.kind() {
        HirKind::Empty => Some(vec![String::new()]),
        HirKind::Literal(l) => Some(vec![String::from_utf8(l.0.to_vec()).ok()?]),
        HirKind::Capture(c) => strings(&c.sub),
        HirKind::Concat(parts) => strings_of(parts),
        HirKind::Alternation(alts) => {
            let mut out = Vec::new();
            for a in alts {
                out.extend(strings(a)?);
                if out.len() > LIMIT {
                    return None;
                }
            }
            Some(out)
        }
        HirKind::Class(c) if is_space_class(c) => Some(vec![" ".to_owned()]),
        HirKind::Repetition(r) if r.min >= 1 && is_space(&r.sub) => Some(vec![" ".to_owned()]),
        HirKind::Repetition(r) if r.min == 0 && r.max == Some(1) => {
            let mut out = strings(&r.sub)?;
            out.push(String::new());
            Some(out)
        }
        _ => None,
    }
}

fn is_space(h: &Hir) -> bool {
    match h.kind() {
        HirKind::Class(c) => is_space_class(c),
        HirKind::Literal(l) => l.0.iter().all(|b| *b == b' '),
        _ => false,
    }
}

fn is_space_class(c: &Class) -> bool {
    let ws = |b: u32| matches!(b, 0x09..=0x0d | 0x20);
    match c {
        Class::Bytes(b) => b
            .ranges()
            .iter()
            .all(|r| (u32::from(r.start())..=u32::from(r.end())).all(ws)),
        Class::Unicode(u) => u
            .ranges()
            .iter()
            .all(|r| (u32::from(r.start())..=u32::from(r.end())).all(ws)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forms(p: &str, anchored: bool) -> Option<Vec<(String, bool)>> {
        Regex::parse(p).unwrap().command_forms(anchored)
    }

    #[test]
    fn finite_anchored_prefixes_are_exact() {
        assert_eq!(
            forms(r"^cargo\s+(build|test)", false),
            Some(vec![
                ("cargo build".to_owned(), false),
                ("cargo test".to_owned(), false)
            ])
        );
        assert_eq!(
            forms(r"^git (status|show)$", false),
            Some(vec![
                ("git status".to_owned(), true),
                ("git show".to_owned(), true)
            ])
        );
        assert_eq!(forms(r"^ls\b", false), Some(vec![("ls".to_owned(), false)]));
        assert_eq!(
            forms("npm test", true),
            Some(vec![("npm test".to_owned(), false)])
        );
    }

    #[test]
    fn other_allow_regexes_are_not_exact() {
        assert_eq!(forms(r"cargo build", false), None);
        assert_eq!(forms(r"^cat\s", false), None);
        assert_eq!(forms(r"^git .*", false), None);
        assert_eq!(forms(r"^a*", false), None);
    }

    #[test]
    fn literal_prefixes() {
        let p = |s: &str| Regex::parse(s).unwrap().literal_prefixes();
        assert_eq!(p(r"rm\s+-rf"), Some(vec!["rm ".to_owned()]));
        assert_eq!(p(r"^sudo\s"), Some(vec!["sudo ".to_owned()]));
        assert_eq!(
            p(r"\.(pem|key)$"),
            Some(vec![".pem".to_owned(), ".key".to_owned()])
        );
        assert_eq!(p(r".*"), None);
        assert!(Regex::parse("(").is_err());
    }
}
