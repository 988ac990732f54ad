//! JavaScript regexes read by a Rust regex parser: where the two dialects part.
//!
//! VS Code and Gemini CLI run their users' regexes as JavaScript `RegExp`s (without the `u`
//! flag, unless VS Code's key names it); toolgate parses them with `regex-syntax`. Syntax that
//! only Rust knows (`(?P<name>`, inline flags such as `(?s)`, `\A`, `\z`, `\Q`, `\p{L}`,
//! nested classes) is a `SyntaxError` in JavaScript, which the agent turns into a regex that
//! never matches or a rule it drops, or it means something else there (`\A` is the letter
//! `A`). An allow regex holding any of it is left out: toolgate's reading would allow what
//! the agent does not.

/// Escapes both dialects read alike: classes, boundaries and control characters.
const SHARED_ESCAPES: &[char] = &[
    'd', 'D', 'w', 'W', 's', 'S', 'b', 'B', 'n', 'r', 't', 'f', 'v',
];

/// Why `pattern` does not mean in JavaScript what it means to toolgate's parser, or `None`
/// when it holds only syntax both dialects read alike.
///
/// The check reads the text, not the parsed regex: it is conservative, and calls some
/// patterns different that JavaScript would read alike (a `\u{...}` escape under VS Code's
/// `u` flag), which only leaves more allows out.
pub(crate) fn dialect_difference(pattern: &str) -> Option<String> {
    let mut chars = pattern.chars().peekable();
    let mut in_class = false;
    let mut class_start = false;
    while let Some(c) = chars.next() {
        let at_class_start = std::mem::take(&mut class_start);
        match c {
            '\\' => {
                let e = chars.next()?;
                if let Some(why) = escape_difference(e, in_class, &mut chars) {
                    return Some(why);
                }
            }
            '[' if in_class => {
                return Some("`[` inside a class is a nested class or a POSIX class (`[[:alpha:]]`) to Rust, a `[` to JavaScript".to_owned())
            }
            '[' => {
                in_class = true;
                class_start = true;
                if chars.peek() == Some(&'^') {
                    chars.next();
                }
                if chars.peek() == Some(&']') {
                    return Some("a class that starts with `]` holds `]` to Rust; JavaScript reads `[]` as a class that matches nothing".to_owned());
                }
            }
            ']' if in_class && !at_class_start => in_class = false,
            '&' | '-' | '~' if in_class && chars.peek() == Some(&c) => {
                return Some(format!(
                    "`{c}{c}` inside a class is a set operation to Rust, two characters to \
                     JavaScript"
                ))
            }
            '(' if !in_class && chars.peek() == Some(&'?') => {
                chars.next();
                if let Some(why) = group_difference(chars.peek().copied()) {
                    return Some(why);
                }
            }
            '{' if !in_class && chars.peek() == Some(&',') => {
                return Some(
                    "`{,n}` is a repetition to Rust and the text `{,n}` to JavaScript".to_owned(),
                )
            }
            _ => {}
        }
    }
    None
}

/// Why the escape `\e` differs between the dialects, reading what follows it from `rest`.
fn escape_difference(
    e: char,
    in_class: bool,
    rest: &mut std::iter::Peekable<std::str::Chars<'_>>,
) -> Option<String> {
    match e {
        'b' if in_class => Some("`\\b` inside a class is a backspace to JavaScript".to_owned()),
        'b' if rest.peek() == Some(&'{') => Some(
            "`\\b{...}` is a word boundary kind to Rust, a boundary and the text `{...}` to \
             JavaScript"
                .to_owned(),
        ),
        c if SHARED_ESCAPES.contains(&c) => None,
        'x' => {
            let hex = rest.clone().take(2).filter(char::is_ascii_hexdigit).count();
            (hex != 2).then(|| {
                "`\\x` without two hex digits (`\\x{...}`) is a Rust escape; JavaScript \
                 reads the letter `x`"
                    .to_owned()
            })
        }
        'u' => {
            let hex = rest.clone().take(4).filter(char::is_ascii_hexdigit).count();
            (hex != 4).then(|| {
                "`\\u` without four hex digits (`\\u{...}`) needs the `u` flag in JavaScript"
                    .to_owned()
            })
        }
        '<' | '>' => Some(format!(
            "`\\{e}` is a word boundary to Rust, the character `{e}` to JavaScript"
        )),
        c if c.is_ascii_alphanumeric() || !c.is_ascii() => Some(format!(
            "`\\{c}` is {} to Rust and {} to JavaScript",
            rust_meaning(c),
            if c.is_ascii_digit() {
                "a back-reference or an octal escape"
            } else {
                "the character itself (or an error with the `u` flag)"
            }
        )),
        _ => None,
    }
}

/// What the escape `\c` means to Rust's parser, for messages.
fn rust_meaning(c: char) -> &'static str {
    match c {
        'A' => "the start of the text",
        'z' => "the end of the text",
        'Q' | 'E' => "a quoted literal",
        'p' | 'P' => "a Unicode class",
        _ => "an escape of its own (or an error)",
    }
}

/// Why a group opened with `(?` followed by `next` differs between the dialects.
fn group_difference(next: Option<char>) -> Option<String> {
    match next {
        Some(':' | '=' | '!' | '<') => None,
        Some('P') => {
            Some("`(?P<name>` is a named group to Rust and a SyntaxError in JavaScript".to_owned())
        }
        Some(c) if c.is_ascii_alphabetic() || c == '-' => Some(format!(
            "the inline flags `(?{c}` are Rust's; JavaScript refuses them"
        )),
        _ => None,
    }
}

/// Whether `pattern` holds a `$` outside a class that is not escaped: an end anchor.
pub(crate) fn has_end_anchor(pattern: &str) -> bool {
    let mut chars = pattern.chars();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                // `\z` is Rust's end of the text; any other escape is one character.
                let end_of_text = chars.next() == Some('z');
                if end_of_text && !in_class {
                    return true;
                }
            }
            '[' => in_class = true,
            ']' => in_class = false,
            '$' if !in_class => return true,
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_only_syntax_is_a_difference() {
        for p in [
            r"^npm run (?P<s>deploy|release)$",
            r"^(?s)make install$",
            r"(?i)^git",
            r"(?x)^git",
            r"\Agit push\z",
            r"^git\Q.\E",
            r"^\pL",
            r"^[[:alpha:]]+",
            r"^[a-z&&[^x]]",
            r"^a{,3}",
            r"^\x{41}",
            r"^\u{41}",
            r"^git\>",
            r"^git\b{end}",
            r"^[]a]",
            r"^(a)\1",
        ] {
            assert!(dialect_difference(p).is_some(), "{p}");
        }
    }

    #[test]
    fn shared_syntax_is_not() {
        for p in [
            r"^git (status|show\b.*)$",
            r"^cargo\s+(build|test)\b",
            r"^npm run [a-z-]+$",
            r"^a\.b\x41\u0041[\]\-x]",
            r"^(?:a|b)(?<name>c)",
            r"^a{2,3}",
        ] {
            assert_eq!(dialect_difference(p), None, "{p}");
        }
    }

    #[test]
    fn end_anchors() {
        assert!(has_end_anchor("npm run (build|deploy)$"));
        assert!(has_end_anchor(r"git push\z"));
        assert!(!has_end_anchor(r"echo \$HOME"));
        assert!(!has_end_anchor(r"echo [$]x"));
        assert!(!has_end_anchor(r"npm run build\b"));
    }
}
