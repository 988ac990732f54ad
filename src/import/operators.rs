//! Deny and ask command regexes that span a shell operator (`;\s*rm\b`, `&&\s*git\s+push`,
//! `>\s*/dev/sd`). The agents match such a regex against the whole command line; toolgate
//! judges each simple command and each redirection of a line on its own, so a rule holding
//! the operator would never match. The part after the operator is what toolgate can judge:
//! the start of a simple command, or a redirection's target path.

/// What follows the last shell operator of a regex.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum After {
    /// `;`, `&`, `&&`, `|`, `||`, `(`, a newline: the start of a simple command.
    Command,
    /// `>`, `>>`, `&>`, `2>`: the path a redirection writes.
    Write,
    /// `<`: the path a redirection reads.
    Read,
}

/// Whether the regex source `pattern` holds a shell operator character anywhere, literal or
/// not (`;`, `&`, `|` escaped, `<`, `>`, `` ` ``, a newline escape).
pub(crate) fn mentions_operator(pattern: &str) -> bool {
    pattern.contains([';', '&', '<', '>', '`'])
        || pattern.contains("\\|")
        || pattern.contains("\\n")
}

/// `pattern` with its escapes of literal characters written as the characters themselves, so
/// that an operator spelled as an escape (`\x3b`, `\x{3b}`, `\u003b`, `\u{3b}`, `\;`, `\>`)
/// is seen like the plain one. A character the regex reads specially stays escaped (`\|`,
/// `\(`, `\&`), a newline is written `\n`, and other white space and control characters keep
/// their escape (white space is insignificant under the `x` flag). Every other escape is
/// kept as written.
///
/// The result means the same as `pattern` for an engine that reads `\<` and `\>` as the
/// characters; the caller compares both readings (see `Regex::same_as`).
pub(crate) fn decode_escapes(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut rest = pattern;
    while let Some(at) = rest.find('\\') {
        out.push_str(rest.get(..at).unwrap_or_default());
        let escape = rest.get(at..).unwrap_or_default();
        let (decoded, len) = escaped_char(escape);
        let original = escape.get(..len).unwrap_or(escape);
        match decoded {
            Some('\n') => out.push_str("\\n"),
            Some(c) if regex_syntax::is_meta_character(c) => {
                out.push('\\');
                out.push(c);
            }
            Some(c) if !c.is_whitespace() && !c.is_control() => out.push(c),
            _ => out.push_str(original),
        }
        rest = escape.get(len..).unwrap_or_default();
    }
    out.push_str(rest);
    out
}

/// The character an escape at the start of `escape` (which starts with `\\`) stands for, if
/// it is one literal character, and the length of the escape in bytes.
fn escaped_char(escape: &str) -> (Option<char>, usize) {
    let mut chars = escape.chars();
    chars.next();
    let Some(kind) = chars.next() else {
        return (None, escape.len());
    };
    let head = 1 + kind.len_utf8();
    let digits = match kind {
        'x' => 2,
        'u' => 4,
        'U' => 8,
        c if c.is_ascii_punctuation() => return (Some(c), head),
        _ => return (None, head),
    };
    let tail = escape.get(head..).unwrap_or_default();
    let (hex, len) = match tail.strip_prefix('{') {
        Some(braced) => match braced.find('}') {
            Some(end) => (braced.get(..end).unwrap_or_default(), end + 2),
            None => return (None, head),
        },
        None => (tail.get(..digits).unwrap_or_default(), digits),
    };
    let decoded = (!hex.is_empty() && hex.chars().all(|c| c.is_ascii_hexdigit()))
        .then(|| u32::from_str_radix(hex, 16).ok())
        .flatten()
        .and_then(char::from_u32);
    match decoded {
        Some(c) => (Some(c), head + len),
        None => (None, head),
    }
}

/// Whether the literal text `lit` holds a shell operator character, so that it cannot lie
/// within one simple command.
pub(crate) fn literal_spans(lit: &str) -> bool {
    lit.contains([';', '&', '|', '<', '>', '`', '\n', '(', ')'])
}

/// Splits `pattern` at its last shell operator that stands at the top level of the regex
/// (outside groups and classes, with no top-level alternation anywhere): what kind of part
/// follows, and the regex source of that part with leading white-space matchers removed.
/// `None` when there is no such operator, the part after it is empty, or the operator cannot
/// be told apart from something else (`>&`, a descriptor duplication).
pub(crate) fn split(pattern: &str) -> Option<(After, &str)> {
    let bytes = pattern.as_bytes();
    let mut depth = 0usize;
    let mut class = false;
    let mut last: Option<(After, usize)> = None;
    let mut i = 0;
    while let Some(&c) = bytes.get(i) {
        let next = bytes.get(i + 1).copied();
        if class {
            match c {
                b'\\' => i += 1,
                b']' => class = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        match c {
            b'\\' => {
                if depth == 0 {
                    match next {
                        Some(b'|') => last = Some((After::Command, i + 2)),
                        Some(b'n') => last = Some((After::Command, i + 2)),
                        Some(b'(') => last = Some((After::Command, i + 2)),
                        Some(b';' | b'&') => last = Some((After::Command, i + 2)),
                        Some(b'>') => last = Some((After::Write, i + 2)),
                        Some(b'<') => last = Some((After::Read, i + 2)),
                        _ => {}
                    }
                }
                i += 1;
            }
            b'[' => class = true,
            b'(' => depth += 1,
            b')' => depth = depth.checked_sub(1)?,
            b'|' if depth == 0 => return None,
            b';' if depth == 0 => last = Some((After::Command, i + 1)),
            b'&' if depth == 0 => {
                // `>&` duplicates a descriptor: not a command separator.
                if i > 0 && bytes.get(i - 1) == Some(&b'>') {
                    return None;
                }
                last = Some((After::Command, i + 1));
            }
            // `>|` writes even over the shell's `noclobber`: one redirection.
            b'>' if depth == 0 && next == Some(b'\\') && bytes.get(i + 2) == Some(&b'|') => {
                last = Some((After::Write, i + 3));
                i += 2;
            }
            b'>' if depth == 0 && next == Some(b'|') => return None,
            b'>' if depth == 0 => last = Some((After::Write, i + 1)),
            b'<' if depth == 0 => last = Some((After::Read, i + 1)),
            b'`' if depth == 0 => last = Some((After::Command, i + 1)),
            _ => {}
        }
        i += 1;
    }
    if depth != 0 || class {
        return None;
    }
    let (after, at) = last?;
    let mut rest = pattern.get(at..)?;
    // Repeated operator characters (`&&`, `>>`) and white space between operator and part.
    loop {
        let trimmed = ["\\s*", "\\s+", "\\s?", "\\s", " *", " +", " ?", " ", "\\t"]
            .iter()
            .find_map(|w| rest.strip_prefix(w));
        match trimmed {
            Some(t) => rest = t,
            None => break,
        }
    }
    if rest.is_empty() || rest.starts_with(['*', '+', '?', '{']) {
        return None;
    }
    Some((after, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_part_after_the_last_top_level_operator() {
        assert_eq!(split(r";\s*rm\b"), Some((After::Command, r"rm\b")));
        assert_eq!(
            split(r"&&\s*git\s+push"),
            Some((After::Command, r"git\s+push"))
        );
        assert_eq!(split(r"\|\s*sh\b"), Some((After::Command, r"sh\b")));
        assert_eq!(split(r"\|\|\s*curl"), Some((After::Command, "curl")));
        assert_eq!(split(r">\s*/dev/sd"), Some((After::Write, "/dev/sd")));
        assert_eq!(
            split(r"cat .*>>\s*~/\.bashrc"),
            Some((After::Write, r"~/\.bashrc"))
        );
        assert_eq!(
            split(r"<\s*/etc/shadow"),
            Some((After::Read, "/etc/shadow"))
        );
        assert_eq!(split(r"a;b;\s*c"), Some((After::Command, "c")));
    }

    #[test]
    fn escapes_of_literal_characters_are_read_as_the_characters() {
        for escaped in [
            r"\x3b",
            r"\x{3b}",
            r"\u003b",
            r"\u{3b}",
            r"\U0000003b",
            r"\;",
        ] {
            assert_eq!(decode_escapes(&format!(r"{escaped}\s*rm\b")), r";\s*rm\b");
        }
        assert_eq!(decode_escapes(r"\x7c\s*sh"), r"\|\s*sh");
        assert_eq!(decode_escapes(r"\x26\x26git"), r"\&\&git");
        assert_eq!(decode_escapes(r"\x28a\x29"), r"\(a\)");
        assert_eq!(decode_escapes(r"a\x0ab"), r"a\nb");
        assert_eq!(decode_escapes(r"\x3e\s*x"), r">\s*x");
        // White space keeps its escape (the `x` flag ignores a bare one); others stay.
        assert_eq!(decode_escapes(r"rm\x20-rf\t\d\pL\b"), r"rm\x20-rf\t\d\pL\b");
        assert_eq!(decode_escapes(r"\\x3b"), r"\\x3b");
        assert_eq!(decode_escapes(r"[\x3b&]"), r"[;&]");
        assert!(mentions_operator(&decode_escapes(r"\u003b\s*rm")));
    }

    #[test]
    fn a_noclobber_redirection_is_a_write() {
        assert_eq!(split(r">\|\s*x"), Some((After::Write, "x")));
        assert_eq!(
            split(r"echo .*>\|\s*/etc/x"),
            Some((After::Write, "/etc/x"))
        );
        assert_eq!(split(r">|x"), None);
    }

    #[test]
    fn what_cannot_be_split_safely() {
        assert_eq!(split(r"rm\s+-rf"), None);
        assert_eq!(split(r"a;b|c"), None);
        assert_eq!(split(r"(a;b)"), None);
        assert_eq!(split(r"[;&]rm"), None);
        assert_eq!(split(r"2>&1"), None);
        assert_eq!(split(r"rm\s*;"), None);
        assert_eq!(split(r";\s*.*rm"), Some((After::Command, ".*rm")));
        assert!(mentions_operator(r"[;&]rm"));
        assert!(!mentions_operator(r"^rm\s"));
    }
}
