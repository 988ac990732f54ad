//! The glob syntax read into tokens: `*`, `?`, `**` as a whole path component, `[...]`
//! classes (`!` or `^` negates, `a-z` ranges) and `{a,b}` alternates (nested allowed), with
//! `\` escaping the next character when escapes are on. Each glob means exactly what it means
//! to the `globset` crate, whose parser this one follows rule for rule (the differential
//! tests in `super::tests` hold the two together).

use std::iter::Peekable;
use std::str::Chars;

use super::GlobError;

/// One element of a parsed glob.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Token {
    /// A character matched as itself.
    Literal(char),
    /// `?`: one byte (one that is not `/` when the separator is literal).
    Any,
    /// `*`: any run of bytes (without `/` when the separator is literal).
    ZeroOrMore,
    /// `**/` at the start: nothing, `/`, or anything ending in `/`.
    RecursivePrefix,
    /// `/**` at the end: `/` and anything after it.
    RecursiveSuffix,
    /// `/**/` in the middle: `/`, or `/` and anything ending in `/`.
    RecursiveZeroOrMore,
    /// `[...]`: one character of (or, negated, not of) the ranges.
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
    /// `{a,b}`: any one of the branches.
    Alternates(Vec<Vec<Token>>),
}

/// Whether `c` separates path components on this platform (`/`; also `\` on Windows).
pub(super) fn is_separator(c: char) -> bool {
    std::path::is_separator(c)
}

/// Reads `glob` into tokens.
///
/// ```text
/// "src/**"  -> [Literal('s'), Literal('r'), Literal('c'), RecursiveSuffix]
/// "*.{a,b}" -> [ZeroOrMore, Literal('.'), Alternates([[Literal('a')], [Literal('b')]])]
/// ```
pub(super) fn parse(glob: &str, backslash_escape: bool) -> Result<Vec<Token>, GlobError> {
    let mut p = Parser {
        alternates_stack: Vec::new(),
        branches: vec![Vec::new()],
        chars: glob.chars().peekable(),
        prev: None,
        cur: None,
        backslash_escape,
    };
    p.parse()?;
    match p.branches.len() {
        1 => p.branches.pop().ok_or(GlobError::UnopenedAlternates),
        _ => Err(GlobError::UnclosedAlternates),
    }
}

struct Parser<'a> {
    /// Where each open `{` group's branches start in `branches`.
    alternates_stack: Vec<usize>,
    /// The token lists being filled: the glob's own, then the branches of open groups.
    branches: Vec<Vec<Token>>,
    chars: Peekable<Chars<'a>>,
    prev: Option<char>,
    cur: Option<char>,
    backslash_escape: bool,
}

impl Parser<'_> {
    fn parse(&mut self) -> Result<(), GlobError> {
        while let Some(c) = self.bump() {
            match c {
                '?' => self.push_token(Token::Any)?,
                '*' => self.parse_star()?,
                '[' => self.parse_class()?,
                '{' => {
                    self.alternates_stack.push(self.branches.len());
                    self.branches.push(Vec::new());
                }
                '}' => self.pop_alternate()?,
                ',' if !self.alternates_stack.is_empty() => self.branches.push(Vec::new()),
                '\\' => self.parse_backslash()?,
                c => self.push_token(Token::Literal(c))?,
            }
        }
        Ok(())
    }

    fn pop_alternate(&mut self) -> Result<(), GlobError> {
        let start = self
            .alternates_stack
            .pop()
            .ok_or(GlobError::UnopenedAlternates)?;
        if start > self.branches.len() {
            return Err(GlobError::UnopenedAlternates);
        }
        let alternates = Token::Alternates(self.branches.drain(start..).collect());
        self.push_token(alternates)
    }

    fn push_token(&mut self, token: Token) -> Result<(), GlobError> {
        self.branches
            .last_mut()
            .ok_or(GlobError::UnopenedAlternates)?
            .push(token);
        Ok(())
    }

    fn pop_token(&mut self) -> Result<Option<Token>, GlobError> {
        Ok(self
            .branches
            .last_mut()
            .ok_or(GlobError::UnopenedAlternates)?
            .pop())
    }

    fn have_tokens(&self) -> Result<bool, GlobError> {
        Ok(!self
            .branches
            .last()
            .ok_or(GlobError::UnopenedAlternates)?
            .is_empty())
    }

    fn two_stars(&mut self) -> Result<(), GlobError> {
        self.push_token(Token::ZeroOrMore)?;
        self.push_token(Token::ZeroOrMore)
    }

    /// After a `*`: a lone star, or `**`, recursive only as a whole path component.
    fn parse_star(&mut self) -> Result<(), GlobError> {
        let prev = self.prev;
        if self.peek() != Some('*') {
            return self.push_token(Token::ZeroOrMore);
        }
        self.bump();
        if !self.have_tokens()? {
            if !self.peek().is_none_or(is_separator) {
                return self.two_stars();
            }
            self.push_token(Token::RecursivePrefix)?;
            self.bump();
            return Ok(());
        }
        if !prev.is_some_and(is_separator)
            && (self.branches.len() <= 1 || (prev != Some(',') && prev != Some('{')))
        {
            return self.two_stars();
        }
        let is_suffix = match self.peek() {
            None => true,
            Some(',' | '}') if self.branches.len() >= 2 => true,
            Some(c) if is_separator(c) => {
                self.bump();
                false
            }
            _ => return self.two_stars(),
        };
        match self.pop_token()? {
            Some(Token::RecursivePrefix) => self.push_token(Token::RecursivePrefix),
            Some(Token::RecursiveSuffix) => self.push_token(Token::RecursiveSuffix),
            _ if is_suffix => self.push_token(Token::RecursiveSuffix),
            _ => self.push_token(Token::RecursiveZeroOrMore),
        }
    }

    fn parse_backslash(&mut self) -> Result<(), GlobError> {
        if self.backslash_escape {
            let c = self.bump().ok_or(GlobError::DanglingEscape)?;
            self.push_token(Token::Literal(c))
        } else if is_separator('\\') {
            self.push_token(Token::Literal('/'))
        } else {
            self.push_token(Token::Literal('\\'))
        }
    }

    /// After a `[`: the class up to its `]` (a `]` or `-` first in the class is literal).
    fn parse_class(&mut self) -> Result<(), GlobError> {
        let mut ranges: Vec<(char, char)> = Vec::new();
        let negated = matches!(self.peek(), Some('!' | '^'));
        if negated {
            self.bump();
        }
        let mut first = true;
        let mut in_range = false;
        loop {
            let c = self.bump().ok_or(GlobError::UnclosedClass)?;
            match c {
                ']' if !first => break,
                ']' => ranges.push((']', ']')),
                '-' if first => ranges.push(('-', '-')),
                '-' if in_range => {
                    extend_last_range(&mut ranges, '-')?;
                    in_range = false;
                }
                '-' => in_range = true,
                c if in_range => {
                    extend_last_range(&mut ranges, c)?;
                    in_range = false;
                }
                c => ranges.push((c, c)),
            }
            first = false;
        }
        if in_range {
            ranges.push(('-', '-'));
        }
        self.push_token(Token::Class { negated, ranges })
    }

    fn bump(&mut self) -> Option<char> {
        self.prev = self.cur;
        self.cur = self.chars.next();
        self.cur
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }
}

/// Makes `end` the end of the class's last range (`a-` then `z`).
fn extend_last_range(ranges: &mut [(char, char)], end: char) -> Result<(), GlobError> {
    let last = ranges.last_mut().ok_or(GlobError::UnclosedClass)?;
    last.1 = end;
    if last.1 < last.0 {
        return Err(GlobError::InvalidRange(last.0, last.1));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Token::*;
    use super::*;

    #[test]
    fn recursive_stars_only_as_whole_components() {
        assert_eq!(parse("**", true).unwrap(), vec![RecursivePrefix]);
        assert_eq!(
            parse("**/a", true).unwrap(),
            vec![RecursivePrefix, Literal('a')]
        );
        assert_eq!(
            parse("a/**", true).unwrap(),
            vec![Literal('a'), RecursiveSuffix]
        );
        assert_eq!(
            parse("a/**/b", true).unwrap(),
            vec![Literal('a'), RecursiveZeroOrMore, Literal('b')]
        );
        assert_eq!(
            parse("a**", true).unwrap(),
            vec![Literal('a'), ZeroOrMore, ZeroOrMore]
        );
    }

    #[test]
    fn classes_and_alternates() {
        assert_eq!(
            parse("[!a-c-]", true).unwrap(),
            vec![Class {
                negated: true,
                ranges: vec![('a', 'c'), ('-', '-')]
            }]
        );
        assert_eq!(
            parse("{a,}", true).unwrap(),
            vec![Alternates(vec![vec![Literal('a')], vec![]])]
        );
        assert_eq!(parse("[z-a]", true), Err(GlobError::InvalidRange('z', 'a')));
        assert_eq!(parse("[a", true), Err(GlobError::UnclosedClass));
        assert_eq!(parse("{a", true), Err(GlobError::UnclosedAlternates));
        assert_eq!(parse("a}", true), Err(GlobError::UnopenedAlternates));
        assert_eq!(parse("a\\", true), Err(GlobError::DanglingEscape));
        assert_eq!(
            parse("a\\", false).unwrap(),
            vec![Literal('a'), Literal('\\')]
        );
    }
}
