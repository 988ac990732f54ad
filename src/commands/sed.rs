//! sed scripts: read-only when every command only prints, deletes, reads the next line,
//! quits or substitutes without the `e` and `w` flags (GNU sed 4.9, `info sed`).
//!
//! Accepted commands: `p`, `d`, `n`, `q`/`Q` (with an exit code), `=`, `s` with the flags
//! `g`, `p`, `i`, `I`, `m`, `M` and a number. Addresses: a line number, `$`, `first~step`,
//! `/regex/` or `\cregexc` (flags `I`, `M`), a second address after `,` (also `+N`, `~N`),
//! and `!`. Anything else (`e`, `w`, `r`, `R`, `W`, `{ }`, `y`, labels, ...) is not read-only.
//! A bracket expression that holds the delimiter or a backslash is not accepted either,
//! since sed versions disagree on where such a regex ends.

/// Why a `sed` command line (`argv`, the program first) cannot be judged at all, whatever
/// rule covers it: a script that may write a file (`w`, `W`, the `s` flag `w`), read one into
/// its output (`r`, `R`) or run a command (`e`, the `s` flag `e`), or a script read from a file
/// (`-f`). Scripts that [`check_script`] accepts are fine, and so is every script under
/// `--sandbox` (GNU sed then refuses `e`, `w` and `r`). A script that fails the check without
/// any of those letters (`a`, `i`, `y`, `{ }`, ...) only changes the stream: `None`. The
/// letters are looked for anywhere in the script, which may also find them in text or a
/// regex; that only ever asks more.
///
/// ```text
/// sed -n 'w .git/hooks/pre-commit' x   -> Some(..)
/// sed '1e touch x' f                   -> Some(..)
/// sed -i '/x/a foo' f                  -> None
/// sed --sandbox 'w x' f                -> None (sed refuses it)
/// ```
pub(crate) fn unjudgeable(argv: &[String]) -> Option<String> {
    let mut scripts: Vec<&str> = Vec::new();
    let mut operands: Vec<&str> = Vec::new();
    let mut from_file = false;
    let mut sandbox = false;
    let mut args = argv.iter().skip(1);
    let mut options_end = false;
    while let Some(a) = args.next() {
        let a = a.as_str();
        if options_end || a == "-" || !a.starts_with('-') {
            operands.push(a);
            continue;
        }
        if a == "--" {
            options_end = true;
            continue;
        }
        if let Some(long) = a.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            // getopt_long takes any unique prefix; a prefix of two names is an error to
            // sed, so reading it as either only asks more.
            let is = |full: &str| !name.is_empty() && full.starts_with(name);
            if is("expression") {
                match value.or_else(|| args.next().map(String::as_str)) {
                    Some(v) => scripts.push(v),
                    None => return Some("`sed --expression` has no script".to_owned()),
                }
            } else if is("file") {
                from_file = true;
            } else if name == "sandbox" {
                sandbox = true;
            }
            continue;
        }
        // A cluster of short options: `e` and `f` take the rest or the next word, `l` a
        // number, `i` an optional suffix (the rest of the cluster).
        let cluster = a.get(1..).unwrap_or_default();
        for (at, c) in cluster.char_indices() {
            let rest = cluster.get(at + c.len_utf8()..).unwrap_or_default();
            match c {
                'e' | 'f' | 'l' => {
                    let value = if rest.is_empty() {
                        args.next().map(String::as_str)
                    } else {
                        Some(rest)
                    };
                    match (c, value) {
                        ('e', Some(v)) => scripts.push(v),
                        ('f', _) => from_file = true,
                        ('e', None) => return Some("`sed -e` has no script".to_owned()),
                        _ => {}
                    }
                    break;
                }
                'i' => break,
                _ => {}
            }
        }
    }
    if sandbox {
        return None;
    }
    if from_file {
        return Some(
            "the sed script is read from a file, which may write, read or run anything".to_owned(),
        );
    }
    if scripts.is_empty() {
        scripts.extend(operands.first());
    }
    scripts
        .iter()
        .find(|s| check_script(s).is_err() && s.contains(['w', 'W', 'e', 'r', 'R']))
        .map(|_| {
            "the sed script may write a file (`w`, `W`), read one (`r`, `R`) or run a command (`e`): \
             it is judged only by a person"
                .to_owned()
        })
}

/// Checks `script`.
pub(crate) fn check_script(script: &str) -> Result<(), String> {
    let chars: Vec<char> = script.chars().collect();
    let mut i = 0;
    loop {
        while chars.get(i).is_some_and(|c| c.is_whitespace() || *c == ';') {
            i += 1;
        }
        if i >= chars.len() {
            return Ok(());
        }
        i = address(&chars, i)?;
        if chars.get(i) == Some(&',') {
            i = second_address(&chars, i + 1)?;
        }
        while chars.get(i).is_some_and(|c| *c == ' ' || *c == '\t') {
            i += 1;
        }
        if chars.get(i) == Some(&'!') {
            i += 1;
            while chars.get(i).is_some_and(|c| *c == ' ' || *c == '\t') {
                i += 1;
            }
        }
        let Some(&command) = chars.get(i) else {
            return Err(refused("an address without a command"));
        };
        i += 1;
        match command {
            'p' | 'd' | 'n' | '=' => {}
            'q' | 'Q' => {
                while chars.get(i).is_some_and(|c| *c == ' ') {
                    i += 1;
                }
                while chars.get(i).is_some_and(char::is_ascii_digit) {
                    i += 1;
                }
            }
            's' => i = substitute(&chars, i)?,
            c => return Err(refused(&format!("the command `{c}`"))),
        }
        while chars.get(i).is_some_and(|c| *c == ' ' || *c == '\t') {
            i += 1;
        }
        match chars.get(i) {
            None | Some(';') | Some('\n') => {}
            Some(c) => return Err(refused(&format!("`{c}` after a command"))),
        }
    }
}

fn refused(what: &str) -> String {
    format!("the sed script has {what}, which is not known to be read-only (only p, d, n, q, = and s without the e and w flags are)")
}

fn address(chars: &[char], mut i: usize) -> Result<usize, String> {
    match chars.get(i) {
        Some(c) if c.is_ascii_digit() => {
            while chars.get(i).is_some_and(char::is_ascii_digit) {
                i += 1;
            }
            if chars.get(i) == Some(&'~') {
                i += 1;
                while chars.get(i).is_some_and(char::is_ascii_digit) {
                    i += 1;
                }
            }
            Ok(i)
        }
        Some('$') => Ok(i + 1),
        Some('/') => regex_address(chars, i + 1, '/'),
        Some('\\') => match chars.get(i + 1) {
            Some(&d) if d != '\n' && d != '\\' => regex_address(chars, i + 2, d),
            _ => Err(refused("a malformed address")),
        },
        _ => Ok(i),
    }
}

fn second_address(chars: &[char], i: usize) -> Result<usize, String> {
    match chars.get(i) {
        Some('+') | Some('~') => {
            let mut j = i + 1;
            while chars.get(j).is_some_and(char::is_ascii_digit) {
                j += 1;
            }
            Ok(j)
        }
        _ => {
            let j = address(chars, i)?;
            if j == i {
                Err(refused("a missing second address"))
            } else {
                Ok(j)
            }
        }
    }
}

fn regex_address(chars: &[char], i: usize, delim: char) -> Result<usize, String> {
    let mut j = delimited(chars, i, delim, true)?;
    while chars.get(j).is_some_and(|c| *c == 'I' || *c == 'M') {
        j += 1;
    }
    Ok(j)
}

/// The index after the closing `delim` of a regex or replacement starting at `i`.
fn delimited(chars: &[char], mut i: usize, delim: char, regex: bool) -> Result<usize, String> {
    loop {
        match chars.get(i) {
            None | Some('\n') => return Err(refused("an unterminated regex or replacement")),
            Some('\\') => i += 2,
            Some('[') if regex => i = bracket(chars, i + 1, delim)?,
            Some(c) if *c == delim => return Ok(i + 1),
            Some(_) => i += 1,
        }
    }
}

/// A POSIX bracket expression from just after `[`; the index after its `]`.
fn bracket(chars: &[char], mut i: usize, delim: char) -> Result<usize, String> {
    if chars.get(i) == Some(&'^') {
        i += 1;
    }
    if chars.get(i) == Some(&']') {
        i += 1;
    }
    loop {
        match chars.get(i) {
            None | Some('\n') | Some('\\') => {
                return Err(refused("a bracket expression with a backslash or no end"))
            }
            Some(c) if *c == delim => {
                return Err(refused("a bracket expression that holds the delimiter"))
            }
            Some(']') => return Ok(i + 1),
            Some('[') if matches!(chars.get(i + 1), Some(':' | '.' | '=')) => {
                let close = chars.get(i + 1).copied().unwrap_or(':');
                i += 2;
                loop {
                    match chars.get(i) {
                        None | Some('\n') | Some('\\') => {
                            return Err(refused("a malformed bracket expression"))
                        }
                        Some(c) if *c == delim => {
                            return Err(refused("a bracket expression that holds the delimiter"))
                        }
                        Some(c) if *c == close && chars.get(i + 1) == Some(&']') => {
                            i += 2;
                            break;
                        }
                        Some(_) => i += 1,
                    }
                }
            }
            Some(_) => i += 1,
        }
    }
}

fn substitute(chars: &[char], i: usize) -> Result<usize, String> {
    let delim = match chars.get(i) {
        Some(&d) if d != '\n' && d != '\\' && !d.is_whitespace() => d,
        _ => return Err(refused("a malformed `s` command")),
    };
    let j = delimited(chars, i + 1, delim, true)?;
    let mut j = delimited(chars, j, delim, false)?;
    while let Some(&c) = chars.get(j) {
        match c {
            'g' | 'p' | 'i' | 'I' | 'm' | 'M' => j += 1,
            c if c.is_ascii_digit() => j += 1,
            ' ' | '\t' | ';' | '\n' => break,
            c => return Err(refused(&format!("the `s` flag `{c}`"))),
        }
    }
    Ok(j)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printing_scripts_pass() {
        for s in [
            "1,40p",
            "1,40p;45q",
            "/foo/,/bar/p",
            "$p",
            "s/a/b/g",
            "s|a|b|gp",
            "s/[[:alpha:]]*//2",
            "0~2d",
            "/x/!d",
            "\\,x,p",
            "5,+3p",
            "=",
            "s/\\//x/",
            "10q",
        ] {
            assert_eq!(check_script(s), Ok(()), "{s}");
        }
    }

    #[test]
    fn writing_and_running_scripts_do_not() {
        for s in [
            "s/a/b/e",
            "s/a/b/w out",
            "s/a/b/gw out",
            "w out",
            "1w out",
            "e id",
            "r /etc/passwd",
            "R x",
            "W x",
            "1{p}",
            "y/a/b/",
            "s/[/]/x/",
            "s/[/]/x/e",
            "s/[\\]/]/x/e",
            "s/[[:alpha:]/]/x/",
            "s/a/b",
            "p x",
            "1,",
            "s/a/b/;e id",
            "s/a/b/\ne id",
            ":a",
        ] {
            assert!(check_script(s).is_err(), "{s}");
        }
    }
}
