//! JSON with comments and trailing commas (VS Code and Zed settings), read through the one
//! strict JSON parser: comments and trailing commas are blanked out first, keeping every
//! line where it was so that errors and provenance name the right line.

use serde_json::Value;

use crate::error::{Error, Result};

/// Parses JSON with `//` and `/* */` comments and trailing commas. A repeated key is an
/// error, as everywhere; `file` names the file in errors.
pub(crate) fn parse(file: &str, text: &str) -> Result<Value> {
    let plain = blank_comments(text);
    parse_json(file, &plain)
}

/// Parses plain JSON, with `file:line` errors.
pub(crate) fn parse_json(file: &str, text: &str) -> Result<Value> {
    crate::json::from_str::<Value>(text, "settings").map_err(|e| located(file, text, &e))
}

fn located(file: &str, _text: &str, e: &Error) -> Error {
    // serde_json's messages end with `at line L column C`.
    let line = e
        .message()
        .rsplit_once(" at line ")
        .and_then(|(_, rest)| rest.split_whitespace().next())
        .and_then(|n| n.parse::<u32>().ok())
        .unwrap_or(1);
    Error::new(e.kind(), e.message().to_owned())
        .at(format!("{file}:{line}"))
        .with_hint("fix the JSON at this line")
}

/// Replaces comments and trailing commas with spaces (newlines stay).
fn blank_comments(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<char> = Vec::with_capacity(chars.len());
    let mut i = 0;
    let mut in_string = false;
    while let Some(&c) = chars.get(i) {
        let next = chars.get(i + 1).copied();
        if in_string {
            out.push(c);
            if c == '\\' {
                if let Some(n) = next {
                    out.push(n);
                    i += 1;
                }
            } else if c == '"' {
                in_string = false;
            }
            i += 1;
            continue;
        }
        match (c, next) {
            ('"', _) => {
                in_string = true;
                out.push(c);
                i += 1;
            }
            ('/', Some('/')) => {
                while let Some(&c) = chars.get(i) {
                    if c == '\n' {
                        break;
                    }
                    out.push(' ');
                    i += 1;
                }
            }
            ('/', Some('*')) => {
                out.extend([' ', ' ']);
                i += 2;
                while let Some(&c) = chars.get(i) {
                    if c == '*' && chars.get(i + 1) == Some(&'/') {
                        out.extend([' ', ' ']);
                        i += 2;
                        break;
                    }
                    out.push(if c == '\n' { '\n' } else { ' ' });
                    i += 1;
                }
            }
            (',', _) => {
                let mut j = i + 1;
                let mut closing = false;
                while let Some(&d) = chars.get(j) {
                    if d.is_whitespace() {
                        j += 1;
                        continue;
                    }
                    if d == '/' && matches!(chars.get(j + 1), Some('/' | '*')) {
                        // A comment between the comma and what follows: look past it.
                        let rest: String = chars.get(j..).unwrap_or(&[]).iter().collect();
                        let blanked = blank_comments(&rest);
                        closing = blanked.trim_start().starts_with(['}', ']']);
                        break;
                    }
                    closing = d == '}' || d == ']';
                    break;
                }
                out.push(if closing { ' ' } else { ',' });
                i += 1;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    out.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_trailing_commas() {
        let v = parse(
            "s.json",
            "{\n // c\n \"a\": [1, 2,], /* x\n y */ \"b\": \"//not\",\n}",
        )
        .unwrap();
        assert_eq!(v["a"], serde_json::json!([1, 2]));
        assert_eq!(v["b"], "//not");
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse("s.json", "{\n\"a\": 1,\n\"a\": 2\n}").unwrap_err();
        assert_eq!(e.path(), "s.json:3");
    }
}
