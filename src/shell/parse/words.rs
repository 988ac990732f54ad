//! Reading one word: quotes, escapes, expansions and substitutions.

use super::{fail, is_meta, parse_as, Close, Divergence, Parser, Result};
use crate::shell::word::Word;

impl Parser<'_> {
    pub(super) fn process_substitution(&mut self) -> Result<Word> {
        let start = self.pos;
        self.pos += 2;
        self.enter()?;
        self.list(Close::Paren)?;
        self.leave();
        let text = self.text(start, self.pos);
        let mut w = Word {
            raw: text.clone(),
            value: text,
            ..Word::default()
        };
        w.make_dynamic("process substitution");
        // `<(cmd)x` continues the same word.
        if self.peek().is_some_and(|c| !is_meta(c)) {
            let rest = self.word()?;
            w.raw.push_str(&rest.raw);
            w.value.push_str(&rest.value);
        }
        Ok(w)
    }

    /// Reads one word up to an unquoted metacharacter.
    pub(super) fn word(&mut self) -> Result<Word> {
        let start = self.pos;
        let mut w = Word::default();
        let mut bracket_open = false;
        let mut brace_open = false;
        let mut brace_list = false;
        if self.peek() == Some('~') {
            self.tilde(&mut w);
        }
        // zsh replaces `=name` by the path of the command `name`.
        if self.peek() == Some('=') && self.peek_at(1).is_some_and(|c| !is_meta(c) && c != '=') {
            if let Some(why) = self.dialect.zsh_expansion() {
                w.make_dynamic(why);
            }
        }
        while let Some(c) = self.peek() {
            if is_meta(c) {
                break;
            }
            self.pos += 1;
            match c {
                '\'' => {
                    w.quoted = true;
                    self.single_quoted(&mut w.value)?;
                }
                '"' => {
                    w.quoted = true;
                    self.double_quoted(&mut w)?;
                }
                '\\' => {
                    w.quoted = true;
                    match self.peek() {
                        Some('\n') => self.pos += 1,
                        Some(n) => {
                            w.value.push(n);
                            self.pos += 1;
                        }
                        None => w.value.push('\\'),
                    }
                }
                '$' => self.dollar(&mut w, false)?,
                '`' => self.backtick(&mut w, false)?,
                // Bash expands a `~` right after the `=` or a `:` of a word shaped like an
                // assignment, an argument too (`dd if=~/x`, `PATH=~/bin:~/sbin`).
                '~' if matches!(
                    self.pos.checked_sub(2).and_then(|i| self.chars.get(i)),
                    Some('=' | ':')
                ) && is_assignment_start(&w.value) =>
                {
                    w.make_dynamic("a `~` after `=` or `:` in `NAME=VALUE`, which bash expands");
                    w.value.push(c);
                }
                '*' | '?' => {
                    w.make_dynamic("glob");
                    w.value.push(c);
                }
                // Bash keeps `'a'#` as one word; other parsers (shfmt) read a comment.
                '#' if self.pos >= 2
                    && matches!(self.chars.get(self.pos - 2), Some('\'' | '"')) =>
                {
                    w.make_dynamic("a `#` right after a quote, which shells read differently");
                    w.value.push(c);
                }
                '[' => {
                    bracket_open = true;
                    w.value.push(c);
                }
                ']' if bracket_open => {
                    w.make_dynamic("glob");
                    w.value.push(c);
                }
                '{' => {
                    brace_open = true;
                    w.value.push(c);
                }
                ',' if brace_open => {
                    brace_list = true;
                    w.value.push(c);
                }
                '.' if brace_open && self.peek() == Some('.') => {
                    brace_list = true;
                    w.value.push(c);
                }
                '}' if brace_list => {
                    w.make_dynamic("brace expansion");
                    w.value.push(c);
                }
                _ => w.value.push(c),
            }
        }
        w.raw = self.text(start, self.pos);
        Ok(w)
    }

    /// A leading unquoted `~`: the home directory; `~user`, `~+`, `~-` are unknown.
    pub(super) fn tilde(&mut self, w: &mut Word) {
        let mut i = self.pos + 1;
        while let Some(c) = self.chars.get(i) {
            if *c == '/' || is_meta(*c) {
                break;
            }
            i += 1;
        }
        if i == self.pos + 1 {
            w.home = true;
        } else {
            w.make_dynamic("tilde expansion of another user or directory stack");
        }
    }

    pub(super) fn single_quoted(&mut self, value: &mut String) -> Result<()> {
        while let Some(c) = self.peek() {
            self.pos += 1;
            if c == '\'' {
                return Ok(());
            }
            value.push(c);
        }
        fail("a single quote is not closed")
    }

    pub(super) fn double_quoted(&mut self, w: &mut Word) -> Result<()> {
        while let Some(c) = self.peek() {
            self.pos += 1;
            match c {
                '"' => return Ok(()),
                '\\' => match self.peek() {
                    Some('\n') => self.pos += 1,
                    Some(n @ ('$' | '`' | '"' | '\\')) => {
                        w.value.push(n);
                        self.pos += 1;
                    }
                    _ => w.value.push('\\'),
                },
                '$' => self.dollar(w, true)?,
                '`' => self.backtick(w, true)?,
                _ => w.value.push(c),
            }
        }
        fail("a double quote is not closed")
    }

    /// After a `$`: substitutions and expansions.
    pub(super) fn dollar(&mut self, w: &mut Word, in_double_quotes: bool) -> Result<()> {
        let start = self.pos - 1;
        match self.peek() {
            Some('(') if self.peek_at(1) == Some('(') => {
                return fail("arithmetic expansion `$(( ))` is not analysed")
            }
            Some('(') => {
                self.pos += 1;
                self.enter()?;
                self.list(Close::Paren)?;
                self.leave();
                w.make_dynamic("command substitution");
            }
            Some('{') => {
                // Bash ends `${` at the first `}` outside quotes and nested expansions (a
                // bare `{` inside does not nest: `${x:-{}; touch y }` runs `touch`), and
                // those are refused here.
                self.pos += 1;
                if self.peek() == Some('(') {
                    self.dialect.check(Divergence::ZshExpansionFlags)?;
                }
                // Bash 5.3 runs `${ cmd; }` and `${| cmd; }` in the current shell.
                if self
                    .peek()
                    .is_some_and(|c| matches!(c, ' ' | '\t' | '\n' | '|'))
                {
                    return fail("command substitution `${ }` is not analysed");
                }
                loop {
                    let Some(c) = self.peek() else {
                        return fail("a `${` is not closed");
                    };
                    self.pos += 1;
                    match c {
                        '}' => break,
                        '$' | '`' | '\'' | '"' | '\\' => {
                            return fail("nested expansions inside `${ }` are not analysed")
                        }
                        _ => {}
                    }
                }
                w.make_dynamic("parameter expansion");
            }
            // `$[ ]`, bash's old arithmetic expansion, reads to its own `]`.
            Some('[') => return fail("arithmetic expansion `$[ ]` is not analysed"),
            Some('\'') if !in_double_quotes => {
                self.dialect.check(Divergence::AnsiCQuote)?;
                self.pos += 1;
                loop {
                    match self.peek() {
                        None => return fail("a `$'` quote is not closed"),
                        Some('\\') => self.pos += 2,
                        Some('\'') => {
                            self.pos += 1;
                            break;
                        }
                        Some(_) => self.pos += 1,
                    }
                }
                w.quoted = true;
                w.make_dynamic("ANSI-C quoting");
            }
            Some('"') if !in_double_quotes => {
                self.pos += 1;
                w.quoted = true;
                if let Some(why) = self.dialect.translated_string() {
                    w.make_dynamic(why);
                }
                return self.double_quoted(w);
            }
            // zsh's `$+name` (whether it is set), `$=name`, `$~name`, `$^name`.
            Some('+' | '=' | '~' | '^')
                if self
                    .peek_at(1)
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '{') =>
            {
                if let Some(why) = self.dialect.zsh_expansion() {
                    w.make_dynamic(why);
                }
                w.value.push('$');
                return Ok(());
            }
            Some(c) if c.is_ascii_alphabetic() || c == '_' => {
                while self
                    .peek()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                {
                    self.pos += 1;
                }
                w.make_dynamic("parameter expansion");
            }
            Some(c) if c.is_ascii_digit() || "@*#?$!-".contains(c) => {
                self.pos += 1;
                w.make_dynamic("parameter expansion");
            }
            _ => {
                w.value.push('$');
                return Ok(());
            }
        }
        w.value.push_str(&self.text(start, self.pos));
        Ok(())
    }

    /// A backquoted command substitution: its text is unescaped and parsed on its own. A
    /// backslash keeps its meaning except before `` ` ``, `\\` and `$`, and inside double
    /// quotes also before `"` (`"`cat \".env\"`"` runs `cat ".env"`).
    pub(super) fn backtick(&mut self, w: &mut Word, in_double_quotes: bool) -> Result<()> {
        let start = self.pos - 1;
        let mut inner = String::new();
        loop {
            let Some(c) = self.peek() else {
                return fail("a backquote is not closed");
            };
            self.pos += 1;
            match c {
                '`' => break,
                '\\' => match self.peek() {
                    Some(n @ ('`' | '\\' | '$')) => {
                        inner.push(n);
                        self.pos += 1;
                    }
                    Some('"') if in_double_quotes => {
                        inner.push('"');
                        self.pos += 1;
                    }
                    _ => inner.push('\\'),
                },
                _ => inner.push(c),
            }
        }
        self.enter()?;
        let nested = parse_as(&inner, self.depth, self.dialect)?;
        self.leave();
        self.out.extend(nested);
        w.make_dynamic("command substitution");
        w.value.push_str(&self.text(start, self.pos));
        Ok(())
    }
}

/// Whether `text` starts `NAME=` with `NAME` a shell variable name: the shape of a word
/// whose `~` after `=` or `:` bash expands.
fn is_assignment_start(text: &str) -> bool {
    text.split_once('=').is_some_and(|(name, _)| {
        let mut chars = name.chars();
        chars
            .next()
            .is_some_and(|c| c == '_' || c.is_ascii_alphabetic())
            && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
    })
}
