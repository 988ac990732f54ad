//! A parsed glob compiled to a small automaton over the bytes of a text and run by keeping
//! every live state at once: time linear in the text times the glob, whatever the glob holds
//! (no backtracking that a crafted text could make explode).
//!
//! The automaton reads bytes, not characters, because that is what the glob has always meant:
//! `?` stands for one byte, a class with a non-ASCII character lists that character's bytes,
//! and case folding, when on, is ASCII only.

use super::parse::{is_separator, Token};

/// What one byte of the text must be.
#[derive(Clone, Debug)]
enum ByteTest {
    Is(u8),
    Any,
    /// Any byte but `/` (`*` and `?` when the separator is literal).
    NotSeparator,
    /// One of the ranges, or (negated) none of them.
    Class {
        negated: bool,
        ranges: Vec<(u8, u8)>,
    },
}

#[derive(Clone, Debug)]
enum Inst {
    Byte(ByteTest),
    /// Continue at both.
    Split(usize, usize),
    Jump(usize),
    Match,
}

/// A compiled glob.
#[derive(Clone, Debug)]
pub(super) struct Program {
    insts: Vec<Inst>,
    case_insensitive: bool,
    /// For programs of at most 64 instructions (most rule globs): for each instruction, the
    /// byte-reading and final instructions it reaches without reading a byte, as a bit set,
    /// so that a step is a few bit operations per live state.
    closures: Option<Vec<u64>>,
    /// The same test as a plain comparison, for the commonest rule shapes.
    shortcut: Option<Shortcut>,
}

/// Rule shapes answered by comparing bytes, without running the automaton.
#[derive(Clone, Debug)]
enum Shortcut {
    /// `lit`: the text is `lit`.
    Exact(Vec<u8>),
    /// `lit/**`: the text starts with `lit/`.
    Below(Vec<u8>),
    /// `**/lit`: the text is `lit` or ends with `/lit`.
    Named(Vec<u8>),
    /// `lit*`, the separator not literal: the text starts with `lit`.
    StartsWith(Vec<u8>),
}

impl Shortcut {
    /// The shortcut for `tokens`, if they have one of the shapes.
    fn of(tokens: &[Token], literal_separator: bool) -> Option<Shortcut> {
        let literal = |tokens: &[Token]| -> Option<Vec<u8>> {
            let mut out = String::new();
            for t in tokens {
                match t {
                    Token::Literal(c) => out.push(*c),
                    _ => return None,
                }
            }
            Some(out.into_bytes())
        };
        match tokens {
            [Token::RecursivePrefix] => None,
            [Token::RecursivePrefix, rest @ ..] => literal(rest).map(Shortcut::Named),
            [rest @ .., Token::RecursiveSuffix] => literal(rest).map(|mut l| {
                l.push(b'/');
                Shortcut::Below(l)
            }),
            [rest @ .., Token::ZeroOrMore] if !literal_separator => {
                literal(rest).map(Shortcut::StartsWith)
            }
            _ => literal(tokens).map(Shortcut::Exact),
        }
    }

    fn is_match(&self, text: &[u8], case_insensitive: bool) -> bool {
        let same = |pattern: &[u8], text: &[u8]| {
            pattern.len() == text.len()
                && pattern.iter().zip(text).all(|(p, t)| {
                    let t = normalize(*t);
                    *p == t || (case_insensitive && p.eq_ignore_ascii_case(&t))
                })
        };
        match self {
            Shortcut::Exact(l) => same(l, text),
            Shortcut::Below(l) => text.get(..l.len()).is_some_and(|head| same(l, head)),
            Shortcut::StartsWith(l) => text.get(..l.len()).is_some_and(|head| same(l, head)),
            Shortcut::Named(l) => {
                same(l, text)
                    || text.len() > l.len()
                        && text
                            .get(text.len() - l.len() - 1..)
                            .and_then(|tail| tail.split_first())
                            .is_some_and(|(slash, name)| normalize(*slash) == b'/' && same(l, name))
            }
        }
    }
}

impl Program {
    pub(super) fn compile(
        tokens: &[Token],
        literal_separator: bool,
        case_insensitive: bool,
    ) -> Self {
        let mut c = Compiler {
            insts: Vec::new(),
            literal_separator,
        };
        if let [Token::RecursivePrefix] = tokens {
            // `**` alone matches everything.
            c.star(ByteTest::Any);
        } else {
            c.tokens(tokens);
        }
        c.insts.push(Inst::Match);
        let mut program = Program {
            insts: c.insts,
            case_insensitive,
            closures: None,
            shortcut: Shortcut::of(tokens, literal_separator),
        };
        program.closures = program.bit_closures();
        program
    }

    fn bit_closures(&self) -> Option<Vec<u64>> {
        if self.insts.len() > 64 {
            return None;
        }
        let mut set = StateSet::new(self.insts.len());
        let mut stack = Vec::new();
        let mut closures = Vec::with_capacity(self.insts.len() + 1);
        for at in 0..=self.insts.len() {
            set.clear();
            if at < self.insts.len() {
                self.add(&mut set, &mut stack, at);
            }
            let bits = set
                .list
                .iter()
                .filter(|i| matches!(self.insts.get(**i), Some(Inst::Byte(_) | Inst::Match)))
                .fold(0u64, |bits, i| bits | (1u64 << i));
            closures.push(bits);
        }
        Some(closures)
    }

    /// Whether the whole of `text` matches.
    pub(super) fn is_match(&self, text: &str) -> bool {
        if let Some(shortcut) = &self.shortcut {
            return shortcut.is_match(text.as_bytes(), self.case_insensitive);
        }
        self.run(text)
    }

    /// [`Program::is_match`] by the automaton, whatever the shape.
    pub(super) fn run(&self, text: &str) -> bool {
        match &self.closures {
            Some(closures) => self.is_match_bits(closures, text),
            None => self.is_match_sets(text),
        }
    }

    /// [`Program::is_match`] on bit sets of live states.
    fn is_match_bits(&self, closures: &[u64], text: &str) -> bool {
        let closure = |at: usize| closures.get(at).copied().unwrap_or(0);
        let mut current = closure(0);
        for b in text.bytes() {
            let b = normalize(b);
            let mut next = 0u64;
            let mut live = current;
            while live != 0 {
                let at = live.trailing_zeros() as usize;
                live &= live - 1;
                if let Some(Inst::Byte(test)) = self.insts.get(at) {
                    if self.accepts(test, b) {
                        next |= closure(at + 1);
                    }
                }
            }
            if next == 0 {
                return false;
            }
            current = next;
        }
        let mut live = current;
        while live != 0 {
            let at = live.trailing_zeros() as usize;
            live &= live - 1;
            if matches!(self.insts.get(at), Some(Inst::Match)) {
                return true;
            }
        }
        false
    }

    /// [`Program::is_match`] on lists of live states, for programs too long for bit sets.
    pub(super) fn is_match_sets(&self, text: &str) -> bool {
        let mut current = StateSet::new(self.insts.len());
        let mut next = StateSet::new(self.insts.len());
        let mut stack = Vec::new();
        self.add(&mut current, &mut stack, 0);
        for b in text.bytes() {
            if current.list.is_empty() {
                return false;
            }
            let b = normalize(b);
            next.clear();
            for &at in &current.list {
                if let Some(Inst::Byte(test)) = self.insts.get(at) {
                    if self.accepts(test, b) {
                        self.add(&mut next, &mut stack, at + 1);
                    }
                }
            }
            std::mem::swap(&mut current, &mut next);
        }
        current
            .list
            .iter()
            .any(|at| matches!(self.insts.get(*at), Some(Inst::Match)))
    }

    /// Adds `at` and every state it reaches without reading a byte.
    fn add(&self, set: &mut StateSet, stack: &mut Vec<usize>, at: usize) {
        stack.push(at);
        while let Some(at) = stack.pop() {
            if !set.insert(at) {
                continue;
            }
            match self.insts.get(at) {
                Some(Inst::Jump(to)) => stack.push(*to),
                Some(Inst::Split(a, b)) => {
                    stack.push(*b);
                    stack.push(*a);
                }
                _ => {}
            }
        }
    }

    fn accepts(&self, test: &ByteTest, b: u8) -> bool {
        match test {
            ByteTest::Is(want) => {
                *want == b || (self.case_insensitive && want.eq_ignore_ascii_case(&b))
            }
            ByteTest::Any => true,
            ByteTest::NotSeparator => b != b'/',
            ByteTest::Class { negated, ranges } => {
                let within = |b: u8| ranges.iter().any(|(lo, hi)| *lo <= b && b <= *hi);
                let found = within(b)
                    || (self.case_insensitive && b.is_ascii_alphabetic() && within(swap_case(b)));
                found != *negated
            }
        }
    }
}

fn swap_case(b: u8) -> u8 {
    if b.is_ascii_lowercase() {
        b.to_ascii_uppercase()
    } else {
        b.to_ascii_lowercase()
    }
}

/// A text's byte as globs see it: on platforms with separators besides `/` (Windows' `\`),
/// those are read as `/`.
fn normalize(b: u8) -> u8 {
    if b != b'/' && b.is_ascii() && is_separator(char::from(b)) {
        b'/'
    } else {
        b
    }
}

/// The live states, in the order they were reached, without repeats.
struct StateSet {
    list: Vec<usize>,
    seen: Vec<bool>,
}

impl StateSet {
    fn new(size: usize) -> Self {
        StateSet {
            list: Vec::with_capacity(size),
            seen: vec![false; size],
        }
    }

    fn insert(&mut self, at: usize) -> bool {
        match self.seen.get_mut(at) {
            Some(seen) if !*seen => {
                *seen = true;
                self.list.push(at);
                true
            }
            _ => false,
        }
    }

    fn clear(&mut self) {
        for at in self.list.drain(..) {
            if let Some(seen) = self.seen.get_mut(at) {
                *seen = false;
            }
        }
    }
}

struct Compiler {
    insts: Vec<Inst>,
    literal_separator: bool,
}

impl Compiler {
    fn tokens(&mut self, tokens: &[Token]) {
        for token in tokens {
            self.token(token);
        }
    }

    fn byte(&mut self, test: ByteTest) {
        self.insts.push(Inst::Byte(test));
    }

    fn one(&self) -> ByteTest {
        if self.literal_separator {
            ByteTest::NotSeparator
        } else {
            ByteTest::Any
        }
    }

    /// Any number of bytes passing `test`.
    fn star(&mut self, test: ByteTest) {
        let at = self.insts.len();
        self.insts.push(Inst::Split(at + 1, at + 3));
        self.byte(test);
        self.insts.push(Inst::Jump(at));
    }

    /// Emits a placeholder to patch once its targets are known.
    fn hole(&mut self) -> usize {
        self.insts.push(Inst::Match);
        self.insts.len() - 1
    }

    fn patch(&mut self, at: usize, inst: Inst) {
        if let Some(slot) = self.insts.get_mut(at) {
            *slot = inst;
        }
    }

    fn token(&mut self, token: &Token) {
        match token {
            Token::Literal(c) => {
                let mut buf = [0; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    self.byte(ByteTest::Is(b));
                }
            }
            Token::Any => {
                let one = self.one();
                self.byte(one);
            }
            Token::ZeroOrMore => {
                let one = self.one();
                self.star(one);
            }
            Token::RecursivePrefix => {
                // Nothing, `/`, or anything ending in `/`.
                let split = self.hole();
                let optional = self.hole();
                self.byte(ByteTest::Is(b'/'));
                let skip = self.hole();
                let long = self.insts.len();
                self.star(ByteTest::Any);
                self.byte(ByteTest::Is(b'/'));
                let end = self.insts.len();
                self.patch(split, Inst::Split(optional, long));
                self.patch(optional, Inst::Split(optional + 1, end));
                self.patch(skip, Inst::Jump(end));
            }
            Token::RecursiveSuffix => {
                self.byte(ByteTest::Is(b'/'));
                self.star(ByteTest::Any);
            }
            Token::RecursiveZeroOrMore => {
                // `/`, or `/` then anything ending in `/`.
                self.byte(ByteTest::Is(b'/'));
                let split = self.hole();
                self.star(ByteTest::Any);
                self.byte(ByteTest::Is(b'/'));
                let end = self.insts.len();
                self.patch(split, Inst::Split(end, split + 1));
            }
            Token::Class { negated, ranges } => self.byte(ByteTest::Class {
                negated: *negated,
                ranges: byte_ranges(ranges),
            }),
            Token::Alternates(branches) => {
                // Branches that stand for nothing at all are left out, and so is a group of
                // only such branches.
                let kept: Vec<&Vec<Token>> =
                    branches.iter().filter(|b| !stands_for_nothing(b)).collect();
                let mut jumps = Vec::new();
                for (i, branch) in kept.iter().enumerate() {
                    if i + 1 == kept.len() {
                        self.tokens(branch);
                    } else {
                        let split = self.hole();
                        self.tokens(branch);
                        jumps.push(self.hole());
                        let next = self.insts.len();
                        self.patch(split, Inst::Split(split + 1, next));
                    }
                }
                let end = self.insts.len();
                for jump in jumps {
                    self.patch(jump, Inst::Jump(end));
                }
            }
        }
    }
}

/// Whether a branch compiles to nothing: no tokens, or only groups of such branches.
fn stands_for_nothing(tokens: &[Token]) -> bool {
    tokens.iter().all(|t| match t {
        Token::Alternates(branches) => branches.iter().all(|b| stands_for_nothing(b)),
        _ => false,
    })
}

/// A class's character ranges as byte ranges: a range between multi-byte characters spans
/// from the last byte of its start to the first byte of its end, the other bytes standing
/// alone.
///
/// ```text
/// ('a', 'z') -> [(0x61, 0x7a)]
/// ('é', 'é') -> [(0xc3, 0xc3), (0xa9, 0xa9)]
/// ('a', 'é') -> [(0x61, 0xc3), (0xa9, 0xa9)]
/// ```
fn byte_ranges(ranges: &[(char, char)]) -> Vec<(u8, u8)> {
    let mut out = Vec::new();
    for (start, end) in ranges {
        let (mut a, mut b) = ([0; 4], [0; 4]);
        let start = start.encode_utf8(&mut a).as_bytes();
        let end = end.encode_utf8(&mut b).as_bytes();
        if start == end {
            out.extend(start.iter().map(|x| (*x, *x)));
            continue;
        }
        let (Some((last, head)), Some((first, tail))) = (start.split_last(), end.split_first())
        else {
            continue;
        };
        out.extend(head.iter().map(|x| (*x, *x)));
        out.push((*last, *first));
        out.extend(tail.iter().map(|x| (*x, *x)));
    }
    out
}
