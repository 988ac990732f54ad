//! A parser for the part of the shell language agents use, flattening a line into the
//! simple commands it would run (including those inside substitutions and groups).
//!
//! Anything outside the subset (here-documents, arithmetic, `case`, `for`, function
//! definitions, `[[ ]]`, ...) is a [`ParseError`]: the caller treats the line as
//! unanalysable. So is a construct that another shell which may run the line (zsh, dash)
//! reads so that something else runs ([`Dialect`]). The parser never panics and runs in time
//! linear in the input.

mod dialect;
mod words;

pub(crate) use dialect::Dialect;
use dialect::Divergence;

use super::word::{part_of, Word};

/// How deeply substitutions, groups and `sh -c` scripts may nest.
pub const MAX_NESTING: usize = 32;

/// One simple command as the shell would run it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Simple {
    /// The command as written, trimmed.
    pub text: String,
    /// Leading `NAME=value` assignments.
    pub assigns: Vec<Assign>,
    /// The command words (argv).
    pub words: Vec<Word>,
    /// Its redirections.
    pub redirs: Vec<Redir>,
}

/// A leading `NAME=value` assignment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Assign {
    /// The variable name.
    pub name: String,
    /// The value.
    pub value: Word,
}

/// A redirection and its target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Redir {
    /// The redirection as written, e.g. `2>> log.txt`.
    pub text: String,
    /// What it does with its target.
    pub kind: RedirKind,
    /// The target word.
    pub target: Word,
}

/// What a redirection does with its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RedirKind {
    /// Writes the file (`>`, `>>`, `>|`, `&>`, `>&file`).
    Write,
    /// Opens the file for reading and writing (`<>`): the command reads it on its standard
    /// input (`cat <>.env` prints it) and may write it.
    ReadWrite,
    /// Reads the file (`<`).
    Read,
    /// Feeds the word to standard input (`<<< word`).
    HereString,
    /// Duplicates or closes a descriptor (`2>&1`, `>&-`).
    Other,
}

/// Why a line is outside the analysed subset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ParseError {
    /// For people.
    pub why: String,
}

type Result<T> = std::result::Result<T, ParseError>;

fn fail<T>(why: impl Into<String>) -> Result<T> {
    Err(ParseError { why: why.into() })
}

/// Parses `line` into the simple commands bash runs, in the order they appear.
pub(crate) fn parse(line: &str, depth: usize) -> Result<Vec<Simple>> {
    parse_as(line, depth, Dialect::BASH)
}

/// Parses `line` into the simple commands it runs, in the order they appear, for the
/// shells of `dialect`: a construct one of them reads differently from bash is refused, or
/// its word is only known at run time.
pub(crate) fn parse_as(line: &str, depth: usize, dialect: Dialect) -> Result<Vec<Simple>> {
    joins_inside_a_token(line)?;
    let mut p = Parser {
        line,
        ascii: line.is_ascii(),
        chars: line.chars().collect(),
        pos: 0,
        depth,
        loops: 0,
        dialect,
        out: Vec::new(),
    };
    p.enter()?;
    p.list(Close::End)?;
    Ok(p.out)
}

/// Refuses a line continuation (`\\` before a newline) that bash would join into a token:
/// bash removes it before reading the line, so `$\\<newline>(id)` is `$(id)` and
/// `c\\<newline>at` is `cat`. One that follows a blank or an operator (`ls \\`, `a &&\\`)
/// only joins words, which the parser reads as bash does.
fn joins_inside_a_token(line: &str) -> Result<()> {
    let mut before = '\n';
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\'
            && chars.peek() == Some(&'\n')
            && !matches!(before, ' ' | '\t' | '\n' | ';' | '&' | '|')
        {
            return fail("a line continuation inside a word or operator is not analysed");
        }
        before = c;
    }
    Ok(())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Close {
    End,
    Paren,
    Brace,
}

/// What ended a command.
enum Flow {
    Next,
    CloseBrace,
}

const KEYWORDS_AS_SEPARATORS: &[&str] = &[
    "if", "then", "else", "elif", "fi", "while", "until", "do", "done",
];
const UNSUPPORTED_KEYWORDS: &[&str] = &[
    "for", "case", "esac", "select", "function", "coproc", "[[", "]]", "in",
];

/// The open `if` and `while`/`until` blocks of one list, checked as bash does: every
/// block closed, `then`/`do` after a condition, a body before `elif`/`else`/`fi`/`done`.
#[derive(Default)]
struct Blocks {
    /// (the last keyword of each open block, whether a command followed it).
    open: Vec<(&'static str, bool)>,
}

impl Blocks {
    fn command(&mut self) {
        if let Some(top) = self.open.last_mut() {
            top.1 = true;
        }
    }

    fn keyword(&mut self, word: &str) -> Result<()> {
        let top = self.open.last().copied();
        let next: &'static str = match (word, top) {
            ("if", _) => {
                self.open.push(("if", false));
                return Ok(());
            }
            ("while" | "until", _) => {
                self.open.push(("while", false));
                return Ok(());
            }
            ("then", Some(("if" | "elif", true))) => "then",
            ("elif", Some(("then", true))) => "elif",
            ("else", Some(("then", true))) => "else",
            ("do", Some(("while", true))) => "do",
            ("fi", Some(("then" | "else", true))) | ("done", Some(("do", true))) => {
                self.open.pop();
                return Ok(());
            }
            _ => return fail(format!("`{word}` is out of place")),
        };
        if let Some(top) = self.open.last_mut() {
            *top = (next, false);
        }
        Ok(())
    }

    fn closed(&self) -> Result<()> {
        match self.open.last() {
            Some((k, _)) => fail(format!("a block (`{k}`) is not closed")),
            None => Ok(()),
        }
    }
}

struct Parser<'a> {
    line: &'a str,
    /// Whether `line` is ASCII, where a char's index is also its byte offset.
    ascii: bool,
    chars: Vec<char>,
    pos: usize,
    depth: usize,
    /// How many `while`/`until` loops enclose the command being read.
    loops: usize,
    /// The shells besides bash that may run the line.
    dialect: Dialect,
    out: Vec<Simple>,
}

fn is_meta(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t' | '\n' | ';' | '&' | '|' | '(' | ')' | '<' | '>'
    )
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.pos + ahead).copied()
    }

    /// The chars `from..to` as a string (empty when out of range).
    fn text(&self, from: usize, to: usize) -> String {
        if self.ascii {
            return self
                .line
                .get(from..to)
                .map(str::to_owned)
                .unwrap_or_default();
        }
        self.chars
            .get(from..to)
            .map(|cs| cs.iter().collect::<String>())
            .unwrap_or_default()
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return fail(format!("nesting is deeper than {MAX_NESTING} levels"));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Skips blanks and line continuations.
    fn skip_blanks(&mut self) {
        loop {
            match self.peek() {
                Some(' ' | '\t') => self.pos += 1,
                Some('\\') if self.peek_at(1) == Some('\n') => self.pos += 2,
                _ => return,
            }
        }
    }

    fn skip_comment(&mut self) {
        while let Some(c) = self.peek() {
            if c == '\n' {
                return;
            }
            self.pos += 1;
        }
    }

    fn list(&mut self, close: Close) -> Result<()> {
        // After `&&`, `||`, `|` or `|&` a command must follow.
        let mut pending = false;
        // Whether a command (or a group, or a closing `fi`/`done`) came since the last
        // operator: bash rejects an operator with no command before it (`ls && && ls`,
        // `; ls`, `ls | | ls`).
        let mut after_command = false;
        // Whether the last thing read was a subshell's closing `)`.
        let mut after_subshell = false;
        let dangling = || fail::<()>("`&&`, `||` or `|` has no command after it");
        let orphan = |op: &str| fail::<()>(format!("`{op}` has no command before it"));
        let mut blocks = Blocks::default();
        loop {
            self.skip_blanks();
            let subshell_before = std::mem::take(&mut after_subshell);
            match self.peek() {
                None | Some(')') if pending => return dangling(),
                None if close == Close::End => return blocks.closed(),
                None => return fail("a `(` or `{` is not closed"),
                Some(';') if self.peek_at(1) == Some(';') => {
                    return fail("`;;` belongs to `case`, which is not analysed")
                }
                Some(';') if pending => return dangling(),
                Some(';') if !after_command => return orphan(";"),
                Some(';' | '\n') => {
                    self.pos += 1;
                    after_command = false;
                }
                Some('|') => {
                    if !after_command {
                        return orphan("|");
                    }
                    self.pos += if matches!(self.peek_at(1), Some('|' | '&')) {
                        2
                    } else {
                        1
                    };
                    pending = true;
                    after_command = false;
                }
                Some('&') if self.peek_at(1) == Some('&') => {
                    if !after_command {
                        return orphan("&&");
                    }
                    self.pos += 2;
                    pending = true;
                    after_command = false;
                }
                Some('&') if self.peek_at(1) != Some('>') => {
                    if matches!(self.peek_at(1), Some('!' | '|')) {
                        self.dialect.check(Divergence::ZshDisown)?;
                    }
                    if pending {
                        return dangling();
                    }
                    if !after_command {
                        return orphan("&");
                    }
                    self.pos += 1;
                    after_command = false;
                }
                Some(')') if close == Close::Paren => {
                    self.pos += 1;
                    return blocks.closed();
                }
                Some(')') => return fail("unexpected `)`"),
                Some('(') if subshell_before => {
                    return fail("a `( )` subshell follows another with no operator between")
                }
                Some('(') => {
                    if self.peek_at(1) == Some('(') {
                        return fail("arithmetic commands `(( ))` are not analysed");
                    }
                    self.pos += 1;
                    let found = self.out.len();
                    self.enter()?;
                    self.list(Close::Paren)?;
                    self.leave();
                    if self.out.len() == found {
                        return fail("`( )` holds no command, which bash rejects");
                    }
                    pending = false;
                    after_command = true;
                    after_subshell = true;
                    blocks.command();
                }
                Some('#') => self.skip_comment(),
                // Only a redirection may follow a subshell's `)` before an operator: bash
                // rejects `(ls)rm` and `( x ) y`.
                Some(c) if subshell_before && !matches!(c, '<' | '>' | '0'..='9') => {
                    return fail(format!(
                        "`{c}` follows a `( )` subshell with no `;`, `&&`, `||` or `|` between"
                    ));
                }
                Some(c) => {
                    let before = self.pos;
                    let found = self.out.len();
                    if let Flow::CloseBrace = self.command(close)? {
                        return if pending { dangling() } else { blocks.closed() };
                    }
                    if self.pos == before {
                        return fail(format!("unexpected `{c}`"));
                    }
                    let text = self.text(before, self.pos);
                    // `! if ...` negates the `if` block.
                    let word = text.trim().trim_start_matches(['!', ' ', '\t']);
                    let keyword = self.out.len() == found
                        && !word.starts_with('{')
                        && KEYWORDS_AS_SEPARATORS.contains(&word);
                    if keyword {
                        blocks.keyword(word)?;
                        match word {
                            "while" | "until" => self.loops += 1,
                            "done" => self.loops = self.loops.saturating_sub(1),
                            _ => {}
                        }
                        after_command = matches!(word, "fi" | "done");
                    } else {
                        // The analysis follows `cd` in the order of the text; in a loop a
                        // `cd` also moves the commands before it on the next pass
                        // (`until cat .bashrc; do cd; done` reads `~/.bashrc`).
                        if self.loops > 0
                            && self.out.get(found..).into_iter().flatten().any(|c| {
                                c.words.iter().any(|w| {
                                    crate::shell::analysis::DIRECTORY_COMMANDS
                                        .contains(&crate::commands::program_name(&w.value))
                                })
                            })
                        {
                            return fail("a `cd` inside a loop is not analysed");
                        }
                        blocks.command();
                        after_command = true;
                    }
                    pending &= self.out.len() == found;
                }
            }
        }
    }

    /// Reads one simple command (or a reserved word) and records it.
    fn command(&mut self, close: Close) -> Result<Flow> {
        let start = self.pos;
        let mut cmd = Simple::default();
        let mut negated = false;
        // Whether an `&>` or `&>>` came before: a POSIX shell ends the command at its `&`.
        let mut both_streams = false;
        loop {
            self.skip_blanks();
            let Some(c) = self.peek() else { break };
            match c {
                ';' | '\n' | '|' | ')' => break,
                '&' if self.peek_at(1) != Some('>') => break,
                '(' => {
                    return if cmd.words.len() == 1 && self.peek_after_paren_is_close() {
                        fail("function definitions are not analysed")
                    } else {
                        fail("unexpected `(`")
                    };
                }
                '#' if self.at_word_start() => {
                    self.skip_comment();
                    break;
                }
                '<' | '>' if self.peek_at(1) == Some('(') => {
                    let w = self.process_substitution()?;
                    self.push_word(&mut cmd, w);
                }
                '<' | '>' | '&' => {
                    let r = self.redirection(self.pos)?;
                    both_streams |= r.text.starts_with("&>");
                    cmd.redirs.push(r);
                }
                _ => {
                    if let Some(r) = self.fd_redirection()? {
                        cmd.redirs.push(r);
                        continue;
                    }
                    if both_streams {
                        self.dialect.check(Divergence::WordsAfterBothStreams)?;
                    }
                    let w = self.word()?;
                    // Reserved words count only where a command starts (not after a
                    // redirection: `2>&1 if x` runs a program named `if`).
                    if cmd.words.is_empty() && cmd.assigns.is_empty() && cmd.redirs.is_empty() {
                        if w.is_keyword("{") {
                            self.enter()?;
                            self.list(Close::Brace)?;
                            self.leave();
                            return Ok(Flow::Next);
                        }
                        if w.is_keyword("}") {
                            return if close == Close::Brace {
                                Ok(Flow::CloseBrace)
                            } else {
                                fail("unexpected `}`")
                            };
                        }
                        if w.is_keyword("!") {
                            // Bash reads `! ! cmd` as `cmd`; other shells (and shfmt) refuse it.
                            if negated {
                                return fail("`!` is repeated, which shells read differently");
                            }
                            negated = true;
                            continue;
                        }
                        if KEYWORDS_AS_SEPARATORS.iter().any(|k| w.is_keyword(k)) {
                            return Ok(Flow::Next);
                        }
                        if let Some(k) = UNSUPPORTED_KEYWORDS.iter().find(|k| w.is_keyword(k)) {
                            return fail(format!("`{k}` is not analysed"));
                        }
                    }
                    self.push_word(&mut cmd, w);
                }
            }
        }
        cmd.text = self.text(start, self.pos).trim().to_owned();
        let empty = cmd.words.is_empty() && cmd.assigns.is_empty() && cmd.redirs.is_empty();
        if negated && empty {
            return fail("`!` has no command after it");
        }
        if let Some(program) = self.dialect.null_command(&cmd)? {
            cmd.words.push(Word::literal(program));
        }
        if !empty {
            self.out.push(cmd);
        }
        Ok(Flow::Next)
    }

    fn push_word(&mut self, cmd: &mut Simple, w: Word) {
        if cmd.words.is_empty() {
            if let Some(a) = as_assignment(&w) {
                cmd.assigns.push(a);
                return;
            }
        }
        cmd.words.push(w);
    }

    fn at_word_start(&self) -> bool {
        self.pos == 0
            || self
                .chars
                .get(self.pos - 1)
                .is_some_and(|c| is_meta(*c) || *c == '\n')
    }

    fn peek_after_paren_is_close(&self) -> bool {
        let mut i = self.pos + 1;
        while matches!(self.chars.get(i), Some(' ' | '\t')) {
            i += 1;
        }
        self.chars.get(i) == Some(&')')
    }

    /// A redirection with a leading descriptor number (`2>`), or `None`.
    fn fd_redirection(&mut self) -> Result<Option<Redir>> {
        let start = self.pos;
        let mut i = self.pos;
        while self.chars.get(i).is_some_and(char::is_ascii_digit) {
            i += 1;
        }
        if i > start && matches!(self.chars.get(i), Some('<' | '>')) {
            self.pos = i;
            return self.redirection(start).map(Some);
        }
        if self.peek() == Some('{') {
            let mut j = self.pos + 1;
            while self
                .chars
                .get(j)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_')
            {
                j += 1;
            }
            if self.chars.get(j) == Some(&'}') && matches!(self.chars.get(j + 1), Some('<' | '>')) {
                return fail("`{name}>` descriptor redirections are not analysed");
            }
        }
        Ok(None)
    }

    fn redirection(&mut self, start: usize) -> Result<Redir> {
        let op: String = (0..3).filter_map(|k| self.peek_at(k)).collect();
        let (len, kind) = if op.starts_with("<<<") {
            (3, RedirKind::HereString)
        } else if op.starts_with("<<") {
            return fail("here-documents are not analysed");
        } else if op.starts_with("&>>") {
            (3, RedirKind::Write)
        } else if op.starts_with("<>") {
            (2, RedirKind::ReadWrite)
        } else if [">>", ">|", "&>"].iter().any(|o| op.starts_with(o)) {
            (2, RedirKind::Write)
        } else if op.starts_with(">&") || op.starts_with("<&") {
            (2, RedirKind::Other)
        } else if op.starts_with('<') {
            (1, RedirKind::Read)
        } else if op.starts_with('>') {
            (1, RedirKind::Write)
        } else {
            return fail("unexpected `&`");
        };
        let dup = op.starts_with(">&") || op.starts_with("<&");
        self.pos += len;
        if self.peek() == Some('!') {
            self.dialect.check(Divergence::ZshClobber)?;
        }
        let adjacent = self.pos;
        self.skip_blanks();
        match self.peek() {
            None => return fail("a redirection has no target"),
            Some(c) if is_meta(c) => return fail("a redirection has no target"),
            // A `#` starting a word starts a comment: the redirection has no target.
            Some('#') => return fail("a redirection has no target"),
            _ => {}
        }
        let target = self.word()?;
        if kind == RedirKind::Read
            && len == 1
            && self.pos > adjacent
            && self.peek() == Some('>')
            && is_numeric_range(&self.text(adjacent, self.pos))
        {
            self.dialect.check(Divergence::ZshNumericGlob)?;
        }
        let kind = if dup {
            let v = &target.value;
            let is_fd = !v.is_empty() && (v == "-" || v.chars().all(|c| c.is_ascii_digit()));
            match (is_fd, op.starts_with('>')) {
                (true, _) => RedirKind::Other,
                // `>&file` writes the file, like `&>file`.
                (false, true) => RedirKind::Write,
                (false, false) => RedirKind::Read,
            }
        } else {
            kind
        };
        Ok(Redir {
            text: self.text(start, self.pos).trim().to_owned(),
            kind,
            target,
        })
    }
}

/// Whether `text` is `N-M`, `N-`, `-M` or `-` with decimal numbers: the inside of zsh's
/// `<N-M>` glob.
fn is_numeric_range(text: &str) -> bool {
    text.split_once('-')
        .is_some_and(|(from, to)| from.chars().chain(to.chars()).all(|c| c.is_ascii_digit()))
}

/// `NAME=value` (or `NAME+=value`) with an unquoted name, as an assignment.
fn as_assignment(w: &Word) -> Option<Assign> {
    let (name, _) = w.raw.split_once('=')?;
    let name = name.strip_suffix('+').unwrap_or(name);
    let mut chars = name.chars();
    let first = chars.next()?;
    if !(first.is_ascii_alphabetic() || first == '_')
        || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return None;
    }
    let (_, value) = w.value.split_once('=')?;
    Some(Assign {
        name: name.to_owned(),
        value: part_of(w, value),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<Vec<String>> {
        parse(line, 0)
            .unwrap()
            .iter()
            .map(|c| c.words.iter().map(|w| w.value.clone()).collect())
            .collect()
    }

    #[test]
    fn splits_on_every_operator() {
        assert_eq!(
            words("a 1 && b || c; d | e |& f & g\nh"),
            [
                vec!["a", "1"],
                vec!["b"],
                vec!["c"],
                vec!["d"],
                vec!["e"],
                vec!["f"],
                vec!["g"],
                vec!["h"]
            ]
        );
    }

    #[test]
    fn removes_quotes_as_the_shell_does() {
        assert_eq!(
            words(r#"r''m -e"x"ec \r\m "a\"b" 'c\d'"#),
            [vec!["rm", "-exec", "rm", "a\"b", "c\\d"]]
        );
    }

    #[test]
    fn substitutions_and_groups_are_recursed() {
        assert_eq!(
            words("echo $(id) `whoami` <(ls) ; ( cd x ) ; { pwd; }"),
            [
                vec!["id"],
                vec!["whoami"],
                vec!["ls"],
                vec!["echo", "$(id)", "`whoami`", "<(ls)"],
                vec!["cd", "x"],
                vec!["pwd"]
            ]
        );
    }

    #[test]
    fn expansions_are_dynamic() {
        for (line, why) in [
            ("echo $HOME", "parameter expansion"),
            ("echo ${HOME}", "parameter expansion"),
            ("echo *.rs", "glob"),
            ("echo a{b,c}", "brace expansion"),
            (
                "echo ~root",
                "tilde expansion of another user or directory stack",
            ),
            ("echo $'\\x72m'", "ANSI-C quoting"),
            (
                "dd if=~/secret",
                "a `~` after `=` or `:` in `NAME=VALUE`, which bash expands",
            ),
            (
                "env PATH=/bin:~/bin",
                "a `~` after `=` or `:` in `NAME=VALUE`, which bash expands",
            ),
            (
                "echo \"if\"=~user",
                "a `~` after `=` or `:` in `NAME=VALUE`, which bash expands",
            ),
        ] {
            let cmds = parse(line, 0).unwrap();
            assert_eq!(cmds[0].words[1].dynamic, Some(why), "{line}");
        }
        let cmds = parse("echo {} '*' ~/x --to=~/y 1=~ a='~' a=x~", 0).unwrap();
        assert!(cmds[0].words.iter().all(|w| w.dynamic.is_none()));
        assert!(cmds[0].words[3].home);
    }

    #[test]
    fn redirections_are_recorded() {
        let cmds = parse("a > x 2>&1 2>> y &> z < w >&v <<< s", 0).unwrap();
        let kinds: Vec<_> = cmds[0]
            .redirs
            .iter()
            .map(|r| (r.kind, r.target.value.as_str()))
            .collect();
        use RedirKind::*;
        assert_eq!(
            kinds,
            [
                (Write, "x"),
                (Other, "1"),
                (Write, "y"),
                (Write, "z"),
                (Read, "w"),
                (Write, "v"),
                (HereString, "s")
            ]
        );
        assert_eq!(cmds[0].redirs[2].text, "2>> y");
    }

    #[test]
    fn assignments_lead_the_command() {
        let cmds = parse("A=1 B=\"x y\" cmd C=2", 0).unwrap();
        assert_eq!(cmds[0].assigns.len(), 2);
        assert_eq!(cmds[0].assigns[1].value.value, "x y");
        assert_eq!(cmds[0].words.len(), 2);
    }

    #[test]
    fn keywords_separate_and_unsupported_syntax_fails() {
        assert_eq!(
            words("if true; then rm x; fi"),
            [vec!["true"], vec!["rm", "x"]]
        );
        for bad in [
            "cat <<EOF\nx\nEOF",
            "echo $((1+2))",
            "for i in a; do x; done",
            "f() { x; }",
            "echo 'open",
            "echo \"open",
            "(a",
            "a )",
            "{ a",
            "echo `open",
            "case x in a) y;; esac",
            "a >",
            "a &&",
            "a | ",
            "a || ;",
            "(a |)",
        ] {
            assert!(parse(bad, 0).is_err(), "{bad}");
        }
    }

    #[test]
    fn nesting_is_limited() {
        let deep = "( ".repeat(40) + &")".repeat(40);
        assert!(parse(&deep, 0).is_err());
        let ok = "( ".repeat(10) + "ls" + &")".repeat(10);
        assert_eq!(words(&ok), [vec!["ls"]]);
    }

    #[test]
    fn a_repeated_negation_is_not_read() {
        // Bash runs `cat --` here; shfmt (and POSIX shells) refuse the line.
        for bad in ["! ! cat --", "! ! < echo"] {
            assert!(parse(bad, 0).is_err(), "{bad}");
        }
        assert_eq!(words("! git status"), [vec!["git", "status"]]);
    }

    #[test]
    fn texts_are_as_written() {
        let cmds = parse("  git status  &&  echo hi > out ", 0).unwrap();
        assert_eq!(cmds[0].text, "git status");
        assert_eq!(cmds[1].text, "echo hi > out");
    }

    #[test]
    fn constructs_another_shell_reads_otherwise_are_refused_for_it() {
        let sh = Dialect::of_shell("sh").unwrap();
        let zsh = Dialect::of_shell("zsh").unwrap();
        for (line, refused_by) in [
            // dash: `ls &` then `>/dev/null rm -R keys`.
            ("ls &>/dev/null rm -R keys", sh),
            ("ls &>>log touch x", sh),
            ("ls 2&>/dev/null PATH=/tmp/evil", sh),
            // dash: `$` and `'\'`, then `rm x` runs.
            ("echo $'\\' ; rm x ; # '", sh),
            ("echo x >! secret.txt", zsh),
            ("echo x >>! secret.txt", zsh),
            ("echo x &>! secret.txt", zsh),
            ("echo x >&! secret.txt", zsh),
            ("ls &!rm x", zsh),
            ("cat <1-10> x", zsh),
            ("cat <-> x", zsh),
            ("echo ${(e)X}", zsh),
        ] {
            assert!(parse_as(line, 0, refused_by).is_err(), "{line}");
            assert!(parse_as(line, 0, Dialect::ANY).is_err(), "{line}");
            assert!(parse(line, 0).is_ok(), "bash reads {line}");
        }
        // Where every shell agrees, the line is read.
        for line in [
            "ls &>/dev/null",
            "ls &>/dev/null 2>&1; git status",
            "ls &>>log && wc -l log",
            "ls 2>&1 | wc",
            "ls >| out",
            "cat < 1-10 > x",
            "ls & rm x",
        ] {
            assert!(parse_as(line, 0, Dialect::ANY).is_ok(), "{line}");
        }
    }

    #[test]
    fn words_zsh_or_a_posix_shell_expand_are_only_known_at_run_time() {
        let value = |line: &str, dialect| {
            let cmds = parse_as(line, 0, dialect).unwrap();
            cmds[0].words[1].dynamic
        };
        let zsh = Dialect::of_shell("zsh").unwrap();
        let sh = Dialect::of_shell("sh").unwrap();
        for line in ["rm =node", "cat $+HOME", "cat $=x", "ls $~x"] {
            assert!(value(line, zsh).is_some(), "{line}");
            assert!(value(line, Dialect::BASH).is_none(), "{line}");
        }
        assert!(value("echo $\"ls\"", sh).is_some());
        assert!(value("echo $\"ls\"", zsh).is_some());
        assert!(value("echo $\"ls\"", Dialect::BASH).is_none());
        // `==` and a lone `=` are not zsh's `=name`.
        assert!(value("[ a == b ]", zsh).is_none());
        assert!(value("[ a = b ]", zsh).is_none());
    }

    #[test]
    fn subshells_are_read_as_bash_reads_them() {
        // bash rejects these: an empty subshell, or a word or group right after its `)`.
        for bad in [
            "()ls",
            "( )",
            "(ls)rm",
            "( ls ) rm -rf x",
            "(ls)(rm x)",
            "(ls){ rm x; }",
        ] {
            assert!(parse(bad, 0).is_err(), "{bad}");
        }
        // and accepts these: a redirection or a comment after the `)`, or an operator.
        for good in [
            "(ls) >out",
            "(ls) 2>err",
            "(ls)#x",
            "(ls)&&rm x",
            "(ls) | wc",
            "(ls);rm x",
        ] {
            assert!(parse(good, 0).is_ok(), "{good}");
        }
    }
}
