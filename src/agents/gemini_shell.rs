//! What Gemini CLI runs for a `run_shell_command` command, so that toolgate judges the
//! command that runs, not only the text the model wrote.
//!
//! Gemini CLI (0.61) does not run the `command` it shows its hooks as it is:
//!
//! 1. `stripShellWrapper` cuts an outer shell wrapper off: a command that starts with
//!    `sh -c`, `bash -c`, `zsh -c` (the program's name in any case, alone or after a
//!    directory: `/bin/sh`), `cmd.exe /c`, `powershell -Command` or `pwsh -Command` (each
//!    with an optional `.exe` and `-NoProfile`) runs as the rest of the line. When the rest
//!    starts and ends with the same kind of quote, the first and last characters are cut off
//!    without reading the quotes in between, so `sh -c 'ls' ' ;cat secrets/k.txt; echo '`
//!    runs `ls' ' ;cat secrets/k.txt; echo`. Only after a POSIX shell's `-c` (in lower
//!    case) and for a double quote does Gemini CLI first try its shell-word parser (the
//!    `shell-quote` package): when that reads the rest as one plain word, the word runs. A
//!    line without a wrapper runs trimmed of surrounding white space.
//! 2. The result is trimmed again and, when it ends with a backslash, a space is added
//!    before it is wrapped in a subshell and handed to `bash -c`.
//!
//! [`command_run`] is that text. The hook judges it as well as the command as written, and
//! the strictest decision wins. On Windows Gemini CLI runs the text with PowerShell, whose
//! language toolgate does not read.

use super::gemini::js_space;

/// The text Gemini CLI runs with `bash -c` for the `run_shell_command` command `command`:
/// [`strip_shell_wrapper`], trimmed, with a space after a trailing backslash.
///
/// ```
/// use toolgate::agents::gemini_shell::command_run;
/// assert_eq!(command_run("sh -c 'ls' ' ;touch x; echo '"), "ls' ' ;touch x; echo");
/// assert_eq!(command_run("bash -c \"npm test\""), "npm test");
/// assert_eq!(command_run("echo a\\"), "echo a\\ ");
/// assert_eq!(command_run("ls -l"), "ls -l");
/// ```
pub fn command_run(command: &str) -> String {
    let mut run = js_trim(&strip_shell_wrapper(command)).to_owned();
    if run.ends_with('\\') {
        run.push(' ');
    }
    run
}

/// Gemini CLI's `stripShellWrapper`: `command` without an outer shell wrapper, as Gemini
/// CLI 0.61 cuts it off (the module documentation says how).
///
/// ```
/// use toolgate::agents::gemini_shell::strip_shell_wrapper;
/// assert_eq!(strip_shell_wrapper("/bin/bash -c 'git status'"), "git status");
/// // Quotes are cut off, not read: the line runs as what is left.
/// assert_eq!(strip_shell_wrapper(r#"bash -c "ls" "; rm x""#), r#"ls" "; rm x"#);
/// // A double-quoted word is read as a shell word.
/// assert_eq!(strip_shell_wrapper(r#"sh -c "echo \"hi\"""#), r#"echo "hi""#);
/// assert_eq!(strip_shell_wrapper("  ls  "), "ls");
/// ```
pub fn strip_shell_wrapper(command: &str) -> String {
    let Some((flag, rest)) = split_wrapper(command) else {
        return js_trim(command).to_owned();
    };
    let inner = js_trim(rest);
    let quoted = inner.len() >= 2
        && ['"', '\'']
            .iter()
            .any(|&q| inner.starts_with(q) && inner.ends_with(q));
    if !quoted {
        return inner.to_owned();
    }
    if flag == "-c" && inner.starts_with('"') {
        if let Some(word) = one_shell_quote_word(inner) {
            return word;
        }
    }
    inner[1..inner.len() - 1].to_owned()
}

/// The wrapper's flag as written (`-c`, `-C`, `/c`, `-Command`) and the text after the
/// white space that follows it, when `command` starts with a shell wrapper: Gemini CLI's
/// pattern `^\s*(?:(?:\S+/)?(?:sh|bash|zsh)\s+-c|cmd\.exe\s+/c|powershell(?:\.exe)?\s+
/// (?:-NoProfile\s+)?-Command|pwsh(?:\.exe)?\s+(?:-NoProfile\s+)?-Command)\s+`, case
/// insensitive.
fn split_wrapper(command: &str) -> Option<(&str, &str)> {
    let line = command.trim_start_matches(js_space);
    let (program, after) = word(line)?;
    let mut words = WordsAfter(after);
    let flag = if is_posix_shell(program) {
        words.next_if(|w| w.eq_ignore_ascii_case("-c"))?
    } else if program.eq_ignore_ascii_case("cmd.exe") {
        words.next_if(|w| w.eq_ignore_ascii_case("/c"))?
    } else if is_powershell(program) {
        words.next_if(|w| w.eq_ignore_ascii_case("-NoProfile"));
        words.next_if(|w| w.eq_ignore_ascii_case("-Command"))?
    } else {
        return None;
    };
    let rest = words.0;
    let body = rest.trim_start_matches(js_space);
    (body.len() < rest.len()).then_some((flag, body))
}

/// The first word of `text` (up to JavaScript white space) and what follows it; `None`
/// when `text` does not start with a word.
fn word(text: &str) -> Option<(&str, &str)> {
    let end = text.find(js_space).unwrap_or(text.len());
    (end > 0).then(|| text.split_at(end))
}

/// The words of a wrapper after its program, each preceded by white space.
struct WordsAfter<'a>(&'a str);

impl<'a> WordsAfter<'a> {
    /// The next word when white space leads to it and it passes `test`; the words are then
    /// read on after it.
    fn next_if(&mut self, test: impl Fn(&str) -> bool) -> Option<&'a str> {
        let spaced = self.0.trim_start_matches(js_space);
        if spaced.len() == self.0.len() {
            return None;
        }
        let (w, after) = word(spaced)?;
        if !test(w) {
            return None;
        }
        self.0 = after;
        Some(w)
    }
}

/// `sh`, `bash` or `zsh` in any case, alone or after a directory (`/bin/sh`, `x/zsh`; a
/// name that is only `/sh` does not count, as in Gemini CLI's pattern).
fn is_posix_shell(program: &str) -> bool {
    let name = match program.rsplit_once('/') {
        Some((dir, name)) if !dir.is_empty() => name,
        Some(_) => return false,
        None => program,
    };
    ["sh", "bash", "zsh"]
        .iter()
        .any(|s| name.eq_ignore_ascii_case(s))
}

/// `powershell`, `powershell.exe`, `pwsh` or `pwsh.exe`, in any case.
fn is_powershell(program: &str) -> bool {
    ["powershell", "powershell.exe", "pwsh", "pwsh.exe"]
        .iter()
        .any(|p| program.eq_ignore_ascii_case(p))
}

/// JavaScript's `String.prototype.trim`.
fn js_trim(text: &str) -> &str {
    text.trim_matches(js_space)
}

/// The one plain word the `shell-quote` package's `parse` reads `text` as (with
/// variables kept as `$NAME`), as Gemini CLI calls it; `None` when it reads anything else
/// (several words, an operator, a glob, a comment) or throws (`${}`, an unclosed `${`).
///
/// `parse` splits `text` with the pattern `/(CONTROL)|((BAREWORD|"..."|'...')+)/g` and
/// skips what lies between the matches (white space, a quote that is never closed): one
/// word is one match, and it must not be an operator. JavaScript reads the text as UTF-16
/// code units, and so does this: a character the parser cuts in half reaches the shell as
/// U+FFFD, as Node.js passes it on.
fn one_shell_quote_word(text: &str) -> Option<String> {
    let units: Vec<u16> = text.encode_utf16().collect();
    let mut only = None;
    let mut at = 0;
    while let Some(&u) = units.get(at) {
        if is_operator(u) {
            return None;
        }
        match word_run_end(&units, at) {
            Some(_) if only.is_some() => return None,
            Some(end) => {
                only = Some((at, end));
                at = end;
            }
            None => at += 1,
        }
    }
    let (start, end) = only?;
    let word = shell_quote_word(units.get(start..end)?)?;
    Some(String::from_utf16_lossy(&word))
}

/// Whether `unit` is `c`.
fn is(unit: u16, c: char) -> bool {
    u32::from(unit) == u32::from(c)
}

/// Whether `unit` is one of `chars`.
fn among(unit: u16, chars: &str) -> bool {
    chars.chars().any(|c| is(unit, c))
}

/// Whether `unit` starts an operator (`CONTROL`) in `shell-quote`.
fn is_operator(unit: u16) -> bool {
    among(unit, "&;()|<>")
}

/// Whether `unit` is white space to JavaScript's `\s` (a surrogate never is).
fn is_js_space(unit: u16) -> bool {
    char::from_u32(u32::from(unit)).is_some_and(js_space)
}

/// The characters `shell-quote` ends a bare word at (`META`), besides quotes and white
/// space; a backslash before one of them or a quote keeps it in the word.
const META: &str = "|&;()<> \t";

/// The end of the run of bare words and quoted strings at `at` (`(BAREWORD|DQ|SQ)+`), or
/// `None` when none starts there.
fn word_run_end(text: &[u16], at: usize) -> Option<usize> {
    let mut end = at;
    loop {
        let next = bare_word_end(text, end)
            .or_else(|| quoted_end(text, end, '"'))
            .or_else(|| quoted_end(text, end, '\''));
        match next {
            Some(e) => end = e,
            None => return (end > at).then_some(end),
        }
    }
}

/// The end of the bare word at `at`: `(\\['"META]|[^\s'"META])+`.
fn bare_word_end(text: &[u16], at: usize) -> Option<usize> {
    let mut i = at;
    loop {
        let here = text.get(i).copied();
        let escaped = here.is_some_and(|u| is(u, '\\'))
            && text
                .get(i + 1)
                .is_some_and(|&u| among(u, "'\"") || among(u, META));
        let plain = here.is_some_and(|u| !is_js_space(u) && !among(u, "'\"") && !among(u, META));
        if escaped {
            i += 2;
        } else if plain {
            i += 1;
        } else {
            return (i > at).then_some(i);
        }
    }
}

/// The end of the string quoted with `quote` at `at`: `"((\\"|[^"])*?)"` (or with `'`), as
/// JavaScript matches it. A backslashed quote is skipped over only when another quote
/// follows; otherwise it is the closing one.
fn quoted_end(text: &[u16], at: usize, quote: char) -> Option<usize> {
    if !text.get(at).is_some_and(|&u| is(u, quote)) {
        return None;
    }
    let mut i = at + 1;
    while let Some(&u) = text.get(i) {
        if is(u, quote) {
            return Some(i + 1);
        }
        let skips_quote = is(u, '\\')
            && text.get(i + 1).is_some_and(|&n| is(n, quote))
            && text
                .get(i + 2..)
                .is_some_and(|rest| rest.iter().any(|&r| is(r, quote)));
        i += if skips_quote { 2 } else { 1 };
    }
    None
}

/// What `shell-quote`'s `parse` makes of one chunk of bare words and quoted strings: the
/// word, or `None` when it makes a glob (an unquoted `*` or `?`), a comment (an unquoted
/// `#`) or an operator (an unquoted `;` after a single-quoted `\'`, which the chunker
/// skipped over), or throws. Variables read as `$NAME`, as Gemini CLI's `(key) => "$" +
/// key` gives them back.
fn shell_quote_word(s: &[u16]) -> Option<Vec<u16>> {
    let mut out = Vec::new();
    let mut quote: Option<u16> = None;
    let mut escaped = false;
    let mut i = 0;
    while let Some(&c) = s.get(i) {
        if quote.is_none() && among(c, "*?") {
            return None;
        }
        if escaped {
            out.push(c);
            escaped = false;
        } else if let Some(q) = quote {
            if c == q {
                quote = None;
            } else if is(q, '\'') {
                out.push(c);
            } else if is(c, '\\') {
                i += 1;
                match s.get(i) {
                    Some(&n) if among(n, "\"\\$") => out.push(n),
                    Some(&n) => out.extend([c, n]),
                    None => out.push(c),
                }
            } else if is(c, '$') {
                i = shell_quote_variable(s, i, &mut out)?;
            } else {
                out.push(c);
            }
        } else if among(c, "\"'") {
            quote = Some(c);
        } else if is_operator(c) || is(c, '#') {
            return None;
        } else if is(c, '\\') {
            escaped = true;
        } else if is(c, '$') {
            i = shell_quote_variable(s, i, &mut out)?;
        } else {
            out.push(c);
        }
        i += 1;
    }
    Some(out)
}

/// `shell-quote`'s `parseEnvVar` for the `$` at `at`: pushes `$NAME` and returns the index
/// the chunk's loop goes on from (before its own step); `None` where it throws ("Bad
/// substitution": `${}`, or `${` without `}`). Its quirks are kept: after a one-character
/// name (`$_`, `$?`) the code unit that follows is skipped.
fn shell_quote_variable(s: &[u16], at: usize, out: &mut Vec<u16>) -> Option<usize> {
    let start = at + 1;
    out.extend("$".encode_utf16());
    match s.get(start) {
        Some(&c) if is(c, '{') => {
            let from = start + 1;
            if s.get(from).is_some_and(|&u| is(u, '}')) {
                return None;
            }
            let close = from + s.get(from..)?.iter().position(|&u| is(u, '}'))?;
            out.extend(s.get(from..close)?);
            Some(close)
        }
        Some(&c) if among(c, "*@#?$!_-") => {
            out.push(c);
            Some(start + 1)
        }
        _ => {
            let rest = s.get(start..).unwrap_or(&[]);
            let word = |u: &u16| {
                char::from_u32(u32::from(*u)).is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
            };
            let len = rest.iter().position(|u| !word(u)).unwrap_or(rest.len());
            out.extend(rest.get(..len)?);
            // JavaScript: `i += index - 1` after a name that ends inside the chunk, and
            // `i = length` at its end.
            Some(if len == rest.len() {
                s.len()
            } else {
                start + len - 1
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Commands and what Gemini CLI 0.61's `stripShellWrapper` returns for them, run in
    /// Node.js on the function and the `shell-quote` parser bundled in
    /// `@google/gemini-cli/bundle` (a code unit left alone as U+FFFD, as Node.js passes it
    /// on to the shell).
    const STRIPPED: &[(&str, &str)] = &[
        (
            "sh -c 'ls' ' ;touch PWNED; cat secrets/k.txt; echo '",
            "ls' ' ;touch PWNED; cat secrets/k.txt; echo ",
        ),
        (
            "bash -c \"ls\" \"; cat secrets/k.txt; echo \"",
            "ls\" \"; cat secrets/k.txt; echo ",
        ),
        ("bash -c 'git status'", "git status"),
        ("/bin/bash -c 'git status'", "git status"),
        ("/usr/bin/env/zsh -c 'ls'", "ls"),
        ("BASH -C 'ls' '; rm -rf x; '", "ls' '; rm -rf x; "),
        ("  sh   -c   'ls'  ", "ls"),
        ("/sh -c 'ls'", "/sh -c 'ls'"),
        ("sh -lc 'ls'", "sh -lc 'ls'"),
        ("sh -c", "sh -c"),
        ("sh -c ls; rm x", "ls; rm x"),
        ("sh -c \"echo \\\"hi\\\"\"", "echo \"hi\""),
        ("sh -c \"a b\" \"c\"", "a b\" \"c"),
        ("sh -c \"ls $HOME ${USER}x\"", "ls $HOME $USERx"),
        ("sh -c \"ls *.rs\"", "ls *.rs"),
        ("sh -c \"ls # x\"", "ls # x"),
        ("sh -c \"a${}b\"", "a${}b"),
        ("sh -c \"a\" '\"", "a"),
        ("sh -c \"a\"*\"b\"", "a\"*\"b"),
        ("sh -c \"a\"#\"b\"", "a\"#\"b"),
        ("sh -c \"$*\u{1f600}\"", "$*\u{fffd}"),
        ("sh -c \"a\" \"b\" \"", "a\" \"b\" "),
        ("sh -c \"a\\\\\"", "a\\"),
        ("bash -c \"ls;\"\"rm x\"", "ls;rm x"),
        ("sh -c \"x\" ; \"y\"", "x\" ; \"y"),
        ("bash -C \"ls\" \"; rm x\"", "ls\" \"; rm x"),
        ("cmd.exe /c 'del x' ' ; rm y'", "del x' ' ; rm y"),
        (
            "powershell -NoProfile -Command 'Get-Item' '; rm y'",
            "Get-Item' '; rm y",
        ),
        ("pwsh.exe -command \"ls\" \"; rm y\"", "ls\" \"; rm y"),
        ("powershell -NoProfile 'ls'", "powershell -NoProfile 'ls'"),
        ("\u{a0}bash -c 'ls'\u{feff}", "ls"),
        ("echo 'a' 'b'", "echo 'a' 'b'"),
        ("  ls -l  ", "ls -l"),
        ("sh -c \"'\"", "'"),
        ("sh -c '\"'", "\""),
    ];

    #[test]
    fn strips_the_wrapper_as_gemini_cli_does() {
        for (command, want) in STRIPPED {
            assert_eq!(strip_shell_wrapper(command), *want, "{command:?}");
        }
    }

    #[test]
    fn the_text_run_ends_with_a_space_after_a_backslash() {
        assert_eq!(command_run("sh -c 'cat k.txt\\'"), "cat k.txt\\ ");
        assert_eq!(command_run("\tls -l\n"), "ls -l");
        assert_eq!(command_run(""), "");
    }
}
