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
