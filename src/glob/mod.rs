//! Glob matching for rules: the syntax and meaning of the `globset` crate's globs, without
//! its regex engine. A glob is parsed into tokens ([`parse`]) and compiled into a small
//! byte automaton ([`program`]) that matches in time linear in the text.
//!
//! The syntax: `*` (any run, within one path component when the separator is literal), `?`
//! (one byte), `**` as a whole component (any number of components), `[abc]`, `[a-z]`,
//! `[!a]`/`[^a]`, `{a,b}` alternates, and `\` escaping the next character when escapes are
//! on. Case folding, when on, is ASCII only.
//!
//! ```text
//! "/srv/**/*.{pem,key}" matches "/srv/a/b/c.pem", not "/srv/a/b.pem.bak"
//! "git push *" (separator not literal) matches "git push origin/main"
//! ```

mod parse;
mod program;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use std::fmt;

use program::Program;

/// How a glob reads its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GlobOptions {
    /// `*` and `?` do not match `/` (paths); otherwise they do (commands, names).
    pub literal_separator: bool,
    /// ASCII letters match either case.
    pub case_insensitive: bool,
    /// `\` escapes the next character; otherwise it is a character (or, where `\` separates
    /// paths, a separator).
    pub backslash_escape: bool,
}

impl GlobOptions {
    /// `*` within a component when `literal_separator`, case sensitive, `\` a character.
    pub(crate) fn plain(literal_separator: bool) -> Self {
        GlobOptions {
            literal_separator,
            case_insensitive: false,
            backslash_escape: false,
        }
    }
}

/// A compiled glob.
///
/// ```text
/// Glob::new("src/**/*.rs", GlobOptions::plain(true))?.is_match("src/a/b.rs") == true
/// Glob::new("src/*.rs", GlobOptions::plain(true))?.is_match("src/a/b.rs")    == false
/// ```
#[derive(Clone, Debug)]
pub(crate) struct Glob {
    program: Program,
}

impl Glob {
    /// Parses and compiles `glob`; errors name what is malformed.
    pub(crate) fn new(glob: &str, options: GlobOptions) -> Result<Self, GlobError> {
        let tokens = parse::parse(glob, options.backslash_escape)?;
        Ok(Glob {
            program: Program::compile(&tokens, options.literal_separator, options.case_insensitive),
        })
    }

    /// Whether the whole of `text` matches.
    pub(crate) fn is_match(&self, text: &str) -> bool {
        self.program.is_match(text)
    }
}

/// What makes a glob malformed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GlobError {
    /// A `[` without its `]`.
    UnclosedClass,
    /// A range whose end comes before its start (`[z-a]`).
    InvalidRange(char, char),
    /// A `}` without its `{`.
    UnopenedAlternates,
    /// A `{` without its `}`.
    UnclosedAlternates,
    /// A `\` at the end when escapes are on.
    DanglingEscape,
}

impl fmt::Display for GlobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GlobError::UnclosedClass => f.write_str("unclosed character class; missing ']'"),
            GlobError::InvalidRange(start, end) => {
                write!(f, "invalid range; '{start}' > '{end}'")
            }
            GlobError::UnopenedAlternates => {
                f.write_str("unopened alternate group; missing '{' (maybe escape '}' with '[}]'?)")
            }
            GlobError::UnclosedAlternates => {
                f.write_str("unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)")
            }
            GlobError::DanglingEscape => f.write_str("dangling '\\'"),
        }
    }
}

/// `s` as a glob that matches exactly `s`: each metacharacter in a class of its own.
///
/// ```text
/// escape("a*b[1]") == "a[*]b[[]1[]]"
/// ```
pub(crate) fn escape(s: &str) -> String {
    let mut escaped = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '?' | '*' | '[' | ']' | '{' | '}') {
            escaped.push('[');
            escaped.push(c);
            escaped.push(']');
        } else {
            escaped.push(c);
        }
    }
    escaped
}
