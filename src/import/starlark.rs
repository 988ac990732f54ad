//! The Starlark subset of Codex execpolicy files, parsed and never executed: a file is a
//! sequence of calls `name(key = value, ...)` whose values are strings, lists, `True`,
//! `False` and `None`. Anything else (assignments, `def`, `load`, operators, positional
//! arguments) is an error that names the line.

use crate::error::{Error, ErrorKind, Result};

/// A value in a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Value {
    Str(String),
    List(Vec<Value>),
    Bool(bool),
    None,
}

/// One call, with the line it starts on and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Call {
    pub name: String,
    pub line: u32,
    pub text: String,
    pub args: Vec<(String, Value, u32)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    Str(String),
    Punct(char),
}

struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
    line: u32,
    file: &'a str,
}

impl Lexer<'_> {
    fn err(&self, line: u32, message: impl Into<String>) -> Error {
        Error::new(ErrorKind::InvalidPolicy, message)
            .at(format!("{}:{line}", self.file))
            .with_hint(
                "execpolicy files hold `prefix_rule(...)` calls with string and list arguments",
            )
    }

    fn tokens(&mut self) -> Result<Vec<(Tok, u32, usize)>> {
        let mut out = Vec::new();
        while let Some(&(i, c)) = self.chars.peek() {
            match c {
                '\n' => {
                    self.line += 1;
                    self.chars.next();
                }
                c if c.is_whitespace() => {
                    self.chars.next();
                }
                '#' => {
                    while self.chars.peek().is_some_and(|(_, c)| *c != '\n') {
                        self.chars.next();
                    }
                }
                '"' | '\'' => {
                    let line = self.line;
                    self.chars.next();
                    if self.chars.peek().map(|(_, c)| *c) == Some(c) {
                        let mut look = self.chars.clone();
                        look.next();
                        if look.peek().map(|(_, d)| *d) == Some(c) {
                            return Err(self.err(
                                line,
                                "triple-quoted strings are outside the supported subset",
                            ));
                        }
                    }
                    let s = self.string(c, line)?;
                    out.push((Tok::Str(s), line, i));
                }
                '(' | ')' | '[' | ']' | ',' | '=' | ';' => {
                    out.push((Tok::Punct(c), self.line, i));
                    self.chars.next();
                }
                c if c.is_ascii_alphabetic() || c == '_' => {
                    let mut s = String::new();
                    while let Some(&(_, d)) = self.chars.peek() {
                        if d.is_ascii_alphanumeric() || d == '_' {
                            s.push(d);
                            self.chars.next();
                        } else {
                            break;
                        }
                    }
                    out.push((Tok::Ident(s), self.line, i));
                }
                other => {
                    return Err(self.err(
                        self.line,
                        format!("`{other}` is outside the supported Starlark subset"),
                    ))
                }
            }
        }
        Ok(out)
    }

    fn string(&mut self, quote: char, line: u32) -> Result<String> {
        let mut s = String::new();
        loop {
            let Some((_, c)) = self.chars.next() else {
                return Err(self.err(line, "unterminated string"));
            };
            match c {
                '\n' => return Err(self.err(line, "unterminated string")),
                '\\' => {
                    let Some((_, e)) = self.chars.next() else {
                        return Err(self.err(line, "unterminated string"));
                    };
                    s.push(match e {
                        'n' => '\n',
                        't' => '\t',
                        'r' => '\r',
                        '0' => '\0',
                        '\\' | '"' | '\'' => e,
                        other => {
                            return Err(self.err(
                                line,
                                format!("escape `\\{other}` is outside the supported subset"),
                            ))
                        }
                    });
                }
                c if c == quote => return Ok(s),
                c => s.push(c),
            }
        }
    }
}

/// Parses a file into its calls.
pub(crate) fn parse(file: &str, text: &str) -> Result<Vec<Call>> {
    let mut lexer = Lexer {
        chars: text.char_indices().peekable(),
        line: 1,
        file,
    };
    let toks = lexer.tokens()?;
    let mut p = Parser {
        toks: &toks,
        pos: 0,
        lexer: &lexer,
    };
    let mut calls = Vec::new();
    while let Some((tok, line, start)) = p.peek() {
        let Tok::Ident(name) = tok else {
            return Err(lexer.err(line, "expected a call such as `prefix_rule(...)`"));
        };
        let name = name.clone();
        p.pos += 1;
        if name == "def" || name == "load" || name == "if" || name == "for" {
            return Err(lexer.err(
                line,
                format!("`{name}` is outside the supported Starlark subset"),
            ));
        }
        p.expect('(', "`(` after the function name")?;
        let mut args = Vec::new();
        loop {
            if p.eat(')') {
                break;
            }
            let Some((Tok::Ident(key), kline, _)) = p.peek() else {
                let l = p.peek().map(|t| t.1).unwrap_or(line);
                return Err(lexer.err(l, "expected a keyword argument `name = value`"));
            };
            let key = key.clone();
            if args.iter().any(|(k, _, _)| *k == key) {
                return Err(lexer
                    .err(kline, format!("keyword argument `{key}` is repeated"))
                    .with_hint("Starlark refuses a call that names an argument twice, and so does Codex: keep one"));
            }
            p.pos += 1;
            p.expect('=', "`=` after the argument name")?;
            let value = p.value()?;
            args.push((key, value, kline));
            if !p.eat(',') {
                p.expect(')', "`,` or `)`")?;
                break;
            }
        }
        let end = p
            .toks
            .get(p.pos.saturating_sub(1))
            .map(|t| t.2 + 1)
            .unwrap_or(text.len());
        let call_text = text.get(start..end).unwrap_or("").to_owned();
        p.end_of_statement(line_of_last(&p))?;
        calls.push(Call {
            name,
            line,
            text: call_text,
            args,
        });
    }
    Ok(calls)
}

/// The line of the token just read.
fn line_of_last(p: &Parser<'_>) -> u32 {
    p.toks
        .get(p.pos.saturating_sub(1))
        .map(|t| t.1)
        .unwrap_or(1)
}

struct Parser<'a> {
    toks: &'a [(Tok, u32, usize)],
    pos: usize,
    lexer: &'a Lexer<'a>,
}

impl Parser<'_> {
    fn peek(&self) -> Option<(&Tok, u32, usize)> {
        self.toks.get(self.pos).map(|(t, l, s)| (t, *l, *s))
    }

    fn last_line(&self) -> u32 {
        self.toks
            .get(self.pos)
            .or_else(|| self.toks.last())
            .map(|t| t.1)
            .unwrap_or(1)
    }

    fn eat(&mut self, c: char) -> bool {
        if matches!(self.peek(), Some((Tok::Punct(p), _, _)) if *p == c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Ends a statement that ended on line `line`: Starlark needs a newline or a `;` before
    /// the next one (`a() b()` on one line does not load).
    fn end_of_statement(&mut self, line: u32) -> Result<()> {
        if self.eat(';') {
            return match self.peek() {
                Some((Tok::Punct(';'), l, _)) => Err(self
                    .lexer
                    .err(l, "expected a statement between `;` and `;`")),
                _ => Ok(()),
            };
        }
        match self.peek() {
            Some((_, next, _)) if next == line => Err(self
                .lexer
                .err(line, "expected a newline or `;` after the call")
                .with_hint("put each call on its own line")),
            _ => Ok(()),
        }
    }

    fn expect(&mut self, c: char, what: &str) -> Result<()> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.lexer.err(self.last_line(), format!("expected {what}")))
        }
    }

    fn value(&mut self) -> Result<Value> {
        let line = self.last_line();
        let Some((tok, _, _)) = self.peek() else {
            return Err(self.lexer.err(line, "expected a value"));
        };
        let tok = tok.clone();
        self.pos += 1;
        let v = match tok {
            Tok::Str(s) => Value::Str(s),
            Tok::Ident(i) if i == "True" => Value::Bool(true),
            Tok::Ident(i) if i == "False" => Value::Bool(false),
            Tok::Ident(i) if i == "None" => Value::None,
            Tok::Punct('[') => {
                let mut items = Vec::new();
                loop {
                    if self.eat(']') {
                        break;
                    }
                    items.push(self.value()?);
                    if !self.eat(',') {
                        self.expect(']', "`,` or `]`")?;
                        break;
                    }
                }
                Value::List(items)
            }
            Tok::Ident(i) => {
                return Err(self.lexer.err(
                    line,
                    format!("variable `{i}` is outside the supported Starlark subset"),
                ))
            }
            Tok::Punct(p) => return Err(self.lexer.err(line, format!("unexpected `{p}`"))),
        };
        if let Some((Tok::Punct('('), _, _)) = self.peek() {
            return Err(self.lexer.err(
                line,
                "nested calls are outside the supported Starlark subset",
            ));
        }
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_calls() {
        let calls = parse(
            "a.rules",
            "# c\nprefix_rule(\n  pattern = [\"git\", [\"push\", 'fetch']],\n  decision = \"prompt\",\n)\nprefix_rule(pattern=[\"ls\"])\n",
        )
        .unwrap();
        assert_eq!(calls.len(), 2);
        let first = calls.first().unwrap();
        assert_eq!(first.line, 2);
        assert!(first.text.starts_with("prefix_rule(") && first.text.ends_with(')'));
        assert_eq!(
            first.args.first().unwrap().1,
            Value::List(vec![
                Value::Str("git".into()),
                Value::List(vec![Value::Str("push".into()), Value::Str("fetch".into())])
            ])
        );
    }

    #[test]
    fn statements_end_at_a_newline_or_a_semicolon() {
        let text = "prefix_rule(pattern = [\"ls\"]); prefix_rule(\n pattern = [\"rm\"]);\nprefix_rule(pattern = [\"cat\"])";
        let calls = parse("a.rules", text).unwrap();
        let lines: Vec<u32> = calls.iter().map(|c| c.line).collect();
        assert_eq!(lines, [1, 1, 3]);
    }

    #[test]
    fn refuses_what_is_outside_the_subset() {
        for (text, line) in [
            ("x = [\"a\"]\n", 1),
            ("prefix_rule(\n pattern = p,\n)", 2),
            ("def f():\n  pass", 1),
            ("prefix_rule(pattern = [\"a\"] + [\"b\"])", 1),
            ("\n\nprefix_rule(\"a\")", 3),
            (
                "prefix_rule(pattern = [\"rm\"],\n decision = \"forbidden\", decision = \"allow\")",
                2,
            ),
            (
                "prefix_rule(pattern = [\"ls\"]) prefix_rule(pattern = [\"rm\"])",
                1,
            ),
            ("prefix_rule(pattern = [\"ls\"]);;\n", 1),
            (";prefix_rule(pattern = [\"ls\"])\n", 1),
        ] {
            let e = parse("a.rules", text).unwrap_err();
            assert_eq!(e.code(), "INVALID_POLICY", "{text}");
            assert_eq!(e.path(), format!("a.rules:{line}"), "{text}");
        }
    }
}
