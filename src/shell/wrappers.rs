//! Transparent wrappers, runners of other code, and harmless variables: closed lists.

use super::canonical::program_name;
use super::parse::Dialect;

/// Variables that may be set in front of a command without blocking an allow rule.
pub const HARMLESS_VARIABLES: &[&str] = &[
    "NODE_ENV",
    "CI",
    "LANG",
    "LANGUAGE",
    "LC_ALL",
    "LC_CTYPE",
    "LC_MESSAGES",
    "TZ",
    "RUST_BACKTRACE",
    "RUST_LOG",
    "NO_COLOR",
    "FORCE_COLOR",
    "CARGO_TERM_COLOR",
    "PYTHONUNBUFFERED",
    "PYTHONDONTWRITEBYTECODE",
    "COLUMNS",
    "TERM",
];

/// Whether `name=value` in front of a command (or in `export`) leaves the command as
/// harmless as it was: the name is one of [`HARMLESS_VARIABLES`] and the value names no file.
/// A locale (`LANG`, `LC_*`, `LANGUAGE`) or `TZ` that is a path makes the C library read
/// that file (`TZ=/home/ada/.ssh/id_rsa`, `LC_ALL=/tmp/x` and `../` spellings), so only
/// plain names pass: letters, digits and `_.,:=+-@<>`, and for `TZ` also `/` inside a zone
/// name (`Europe/Paris`), never first, after a leading `:`, or beside `..`.
///
/// ```
/// use toolgate::shell::is_harmless_assignment;
/// assert!(is_harmless_assignment("LC_ALL", "C.UTF-8"));
/// assert!(is_harmless_assignment("TZ", "America/New_York"));
/// assert!(!is_harmless_assignment("TZ", ":/etc/shadow"));
/// assert!(!is_harmless_assignment("LANGUAGE", "../../tmp/x"));
/// assert!(!is_harmless_assignment("LD_PRELOAD", "x.so"));
/// ```
pub fn is_harmless_assignment(name: &str, value: &str) -> bool {
    if !HARMLESS_VARIABLES.contains(&name) || value.contains("..") {
        return false;
    }
    let plain = |c: char| c.is_ascii_alphanumeric() || "_.,:=+-@<>".contains(c);
    if name == "TZ" {
        let zone = value.strip_prefix(':').unwrap_or(value);
        return !zone.starts_with('/') && zone.chars().all(|c| plain(c) || c == '/');
    }
    value.chars().all(plain)
}

pub use crate::commands::{INTERPRETERS, RUNNERS, SHELLS, TRANSPARENT_WRAPPERS};

/// What the first word of a command makes of it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A transparent wrapper: the wrapped command starts at this index.
    Wrapper(usize),
    /// A shell running the script at this index (`bash -c SCRIPT`).
    ShellScript(usize),
    /// Something that runs other code: never covered by an allow rule on what it runs.
    /// `inner` says where the code it runs can be read, if it can.
    Runner {
        /// Where the payload is, if readable.
        inner: Inner,
    },
    /// An ordinary command.
    Plain,
}

/// Where a runner's payload is.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Inner {
    /// The words from this index are a command.
    Command(usize),
    /// The words from this index, joined with spaces, are a shell script.
    Script(usize),
    /// Only the word at this index is a shell script.
    ScriptWord(usize),
    /// `find -exec`: commands between `-exec` and `;`/`+` (start, end) pairs.
    FindExec(Vec<(usize, usize)>),
    /// Nothing readable.
    None,
}

fn runner(inner: Inner) -> Kind {
    Kind::Runner { inner }
}

/// Skips options: `with_value` options take the next word (or an attached value); any
/// other word starting with `-` is a flag. Returns the index of the first operand.
fn skip_options(words: &[String], from: usize, with_value: &[&str]) -> usize {
    let mut i = from;
    while let Some(w) = words.get(i) {
        if w == "--" {
            return i + 1;
        }
        if !w.starts_with('-') || w == "-" {
            return i;
        }
        // `--opt=value` and `-uroot` carry their value; `-u root` takes the next word.
        i += if with_value.contains(&w.as_str()) {
            2
        } else {
            1
        };
    }
    i
}

/// Classifies a command by its words (argv after quote removal).
/// Where the command a wrapper or a command-running runner runs starts in `words`
/// (`timeout 5 rm x` → 2, `sudo -u a rm x` → 3); `None` for anything else.
pub(crate) fn wrapped_command_start(words: &[String]) -> Option<usize> {
    match classify(words) {
        Kind::Wrapper(i)
        | Kind::Runner {
            inner: Inner::Command(i),
        } if i > 0 => Some(i),
        _ => None,
    }
}

pub(crate) fn classify(words: &[String]) -> Kind {
    let Some(first) = words.first() else {
        return Kind::Plain;
    };
    let name = program_name(first);
    let arg = |i: usize| words.get(i).map(String::as_str);
    match name {
        "timeout" => timeout(words),
        "time" => time(words),
        "nice" => {
            let mut i = 1;
            while let Some(w) = arg(i) {
                if w == "-n" {
                    i += 2;
                } else if w.starts_with("--adjustment=")
                    || w.get(1..)
                        .is_some_and(|n| w.starts_with('-') && n.parse::<i32>().is_ok())
                    || w.starts_with("-n")
                {
                    i += 1;
                } else if w.starts_with('-') {
                    return runner(Inner::Command(skip_options(words, i, &[])));
                } else {
                    break;
                }
            }
            Kind::Wrapper(i)
        }
        "nohup" | "builtin" => match arg(1) {
            Some("--") => Kind::Wrapper(2),
            Some(w) if w.starts_with('-') => runner(Inner::Command(skip_options(words, 1, &[]))),
            _ => Kind::Wrapper(1),
        },
        "stdbuf" => {
            let mut i = 1;
            while let Some(w) = arg(i) {
                if matches!(w, "-i" | "-o" | "-e") {
                    i += 2;
                } else if ["-i", "-o", "-e", "--input=", "--output=", "--error="]
                    .iter()
                    .any(|p| w.starts_with(p))
                {
                    i += 1;
                } else if w.starts_with('-') {
                    return runner(Inner::Command(skip_options(words, i, &[])));
                } else {
                    break;
                }
            }
            Kind::Wrapper(i)
        }
        "command" => command(words),
        // `xargs` builds command lines from its input: always a runner.
        "xargs" => runner(Inner::Command(skip_options(
            words,
            1,
            &[
                "-I",
                "-n",
                "-P",
                "-L",
                "-s",
                "-d",
                "-E",
                "-a",
                "--arg-file",
                "--delimiter",
                "--max-args",
                "--max-procs",
                "--max-lines",
                "--max-chars",
                "--replace",
                "--eof",
            ],
        ))),
        _ if SHELLS.contains(&name) => shell(words),
        "sudo" => runner(Inner::Command(skip_options(
            words,
            1,
            &[
                "-u",
                "-g",
                "-h",
                "-p",
                "-C",
                "-D",
                "-r",
                "-t",
                "-U",
                "-T",
                "--user",
                "--group",
                "--host",
                "--prompt",
                "--chdir",
                "--role",
                "--type",
                "--other-user",
            ],
        ))),
        "doas" => runner(Inner::Command(skip_options(words, 1, &["-u", "-C"]))),
        "su" | "runuser" => match words.iter().position(|w| w == "-c" || w == "--command") {
            Some(i) => runner(Inner::ScriptWord(i + 1)),
            None => runner(Inner::None),
        },
        "script" => match words.iter().position(|w| w == "-c" || w == "--command") {
            Some(i) => runner(Inner::ScriptWord(i + 1)),
            None => runner(Inner::None),
        },
        "env" => env(words),
        "watch" => runner(Inner::Script(skip_options(
            words,
            1,
            &["-n", "--interval", "-q", "--equexit", "--differences"],
        ))),
        "eval" => runner(Inner::Script(1)),
        "trap" => runner(Inner::ScriptWord(skip_options(words, 1, &[]))),
        "exec" => runner(Inner::Command(skip_options(words, 1, &["-a"]))),
        "chroot" => runner(Inner::Command(
            skip_options(words, 1, &["--userspec", "--groups"]) + 1,
        )),
        "find" => find(words),
        "git" => git(words),
        "pkexec" | "nsenter" | "unshare" | "setsid" | "flock" | "systemd-run" | "strace"
        | "ltrace" | "valgrind" | "ionice" | "taskset" | "chrt" | "unbuffer" | "parallel"
        | "busybox" | "toybox" | "catchsegv" | "chronic" | "ifne" => {
            runner(Inner::Command(skip_options(words, 1, &[])))
        }
        "setpriv" => runner(Inner::Command(skip_options(words, 1, SETPRIV_WITH_VALUE))),
        "numactl" => runner(Inner::Command(skip_options(words, 1, NUMACTL_WITH_VALUE))),
        "dbus-run-session" => runner(Inner::Command(skip_options(
            words,
            1,
            &["--config-file", "--dbus-daemon"],
        ))),
        "caffeinate" => runner(Inner::Command(skip_options(words, 1, &["-t", "-w"]))),
        "xvfb-run" => runner(Inner::Command(skip_options(words, 1, XVFB_RUN_WITH_VALUE))),
        "sem" => runner(Inner::Command(skip_options(words, 1, SEM_WITH_VALUE))),
        "tsp" => runner(Inner::Command(skip_options(
            words,
            1,
            &["-L", "-D", "-W", "-N"],
        ))),
        "runcon" => runcon(words),
        "capsh" => capsh(words),
        "entr" => entr(words),
        // Without arguments `set` prints every variable (the environment's secrets too).
        "set"
            if words.len() > 1
                && words
                    .iter()
                    .skip(1)
                    .all(|w| SAFE_SET_OPTIONS.contains(&w.as_str())) =>
        {
            Kind::Plain
        }
        "export" | "declare" | "typeset" | "local" | "readonly"
            if sets_harmless_variables(words) =>
        {
            Kind::Plain
        }
        _ if RUNNERS.contains(&name) => runner(Inner::None),
        _ => interpreter(name, words),
    }
}

/// `setpriv`'s options that take the next word as their value.
const SETPRIV_WITH_VALUE: &[&str] = &[
    "--reuid",
    "--regid",
    "--groups",
    "--inh-caps",
    "--ambient-caps",
    "--bounding-set",
    "--securebits",
    "--pdeathsig",
    "--selinux-label",
    "--apparmor-profile",
    "--landlock-access",
    "--landlock-rule",
    "--rlimit",
];

/// `numactl`'s options that take the next word as their value.
const NUMACTL_WITH_VALUE: &[&str] = &[
    "-i",
    "--interleave",
    "-p",
    "--preferred",
    "-P",
    "--preferred-many",
    "-m",
    "--membind",
    "-N",
    "--cpunodebind",
    "-C",
    "--physcpubind",
    "-w",
    "--weighted-interleave",
];

/// `xvfb-run`'s options that take the next word as their value.
const XVFB_RUN_WITH_VALUE: &[&str] = &[
    "-e",
    "--error-file",
    "-f",
    "--auth-file",
    "-n",
    "--server-num",
    "-p",
    "--xauth-protocol",
    "-s",
    "--server-args",
    "-w",
    "--wait",
];

/// GNU parallel's `sem`'s options that take the next word as their value.
const SEM_WITH_VALUE: &[&str] = &[
    "-j",
    "--jobs",
    "--id",
    "--semaphorename",
    "--timeout",
    "--st",
    "--semaphoretimeout",
];

/// `runcon CONTEXT COMMAND`, or `runcon [-c] [-u USER] [-r ROLE] [-t TYPE] [-l RANGE]
/// COMMAND`: without a part of the context given by an option, the first operand is the
/// context.
fn runcon(words: &[String]) -> Kind {
    const WITH_VALUE: &[&str] = &[
        "-u", "-r", "-t", "-l", "--user", "--role", "--type", "--range",
    ];
    let start = skip_options(words, 1, WITH_VALUE);
    let by_option = words.iter().take(start).skip(1).any(|w| {
        WITH_VALUE
            .iter()
            .any(|o| w == o || w.starts_with(&format!("{o}=")))
    });
    runner(Inner::Command(if by_option { start } else { start + 1 }))
}

/// `capsh [OPTIONS] -- ARGS` runs `/bin/bash ARGS`: `-- -c SCRIPT` is a shell script.
fn capsh(words: &[String]) -> Kind {
    match words.iter().position(|w| w == "--") {
        Some(at) if words.get(at + 1).is_some_and(|w| w == "-c") => {
            runner(Inner::ScriptWord(at + 2))
        }
        _ => runner(Inner::None),
    }
}

/// `entr [-acdnprsz] UTILITY [ARGS]`: with `-s`, its one operand is a shell script.
fn entr(words: &[String]) -> Kind {
    let start = skip_options(words, 1, &[]);
    let script = words.iter().take(start).skip(1).any(|w| {
        w.strip_prefix('-')
            .is_some_and(|flags| !flags.starts_with('-') && flags.contains('s'))
    });
    if script {
        runner(Inner::ScriptWord(start))
    } else {
        runner(Inner::Command(start))
    }
}

/// The shell script a runner runs, when one word or its words from one on are the script
/// (`script -c SCRIPT`, `watch SCRIPT`, `trap SCRIPT SIGNAL`, `capsh -- -c SCRIPT`).
pub(crate) fn wrapped_script(words: &[String]) -> Option<String> {
    match classify(words) {
        Kind::Runner {
            inner: Inner::ScriptWord(i),
        } => words.get(i).cloned(),
        Kind::Runner {
            inner: Inner::Script(i),
        } => Some(words.get(i..).unwrap_or_default().join(" ")),
        _ => None,
    }
}

/// The `-o NAME` option names of `set` and of a shell's command line that only make a script
/// stricter or noisier.
const SAFE_SHELL_OPTION_NAMES: &[&str] = &["pipefail", "errexit", "nounset", "xtrace", "verbose"];

/// `set` options that only make a script stricter or noisier.
pub const SAFE_SET_OPTIONS: &[&str] = &[
    "-e", "-u", "-x", "-v", "-eu", "-ue", "-ex", "-xe", "-eux", "-euo", "-eo", "-o", "+e", "+x",
    "+u", "pipefail", "errexit", "nounset", "xtrace",
];

/// `export`, `declare` and the like that only set (or export) harmless variables: at least
/// one variable, each `NAME=value` with [`is_harmless_assignment`] or a bare harmless `NAME`,
/// and no flag but `-x`, `-r` or `-g`. Without a variable they print every variable (`export`,
/// `declare -p`); `-i` evaluates the value as arithmetic, which can run commands
/// (`declare -i LANG='a[$(id)]'`); `-n` makes a reference to another variable; `-f` prints
/// or exports functions.
fn sets_harmless_variables(words: &[String]) -> bool {
    let mut names = 0;
    for w in words.iter().skip(1) {
        match w.split_once('=') {
            Some((name, value)) if is_harmless_assignment(name, value) => names += 1,
            None if HARMLESS_VARIABLES.contains(&w.as_str()) => names += 1,
            None if matches!(w.as_str(), "-x" | "-r" | "-g") => {}
            _ => return false,
        }
    }
    names > 0
}

fn timeout(words: &[String]) -> Kind {
    let mut i = 1;
    while let Some(w) = words.get(i) {
        match w.as_str() {
            "--preserve-status" | "--foreground" | "-v" | "--verbose" => i += 1,
            "-s" | "-k" | "--signal" | "--kill-after" => i += 2,
            "--" => {
                i += 1;
                break;
            }
            _ if w.starts_with("--signal=") || w.starts_with("--kill-after=") => i += 1,
            _ if (w.starts_with("-s") || w.starts_with("-k")) && w.len() > 2 => i += 1,
            _ if w.starts_with('-') => return runner(Inner::Command(skip_options(words, i, &[]))),
            _ => break,
        }
    }
    // The duration.
    Kind::Wrapper(i + 1)
}

/// bash's `command` (`help command`), whose options are read as bash's builtins read theirs:
/// bundles of `p`, `v` and `V` (`-pp` is `-p`), then `--`. With `v` or `V` anywhere it only
/// looks the names up (an ordinary command, judged by the table); otherwise it runs the
/// command that follows (a wrapper). Any other option asks, with what follows still checked
/// against the deny and ask rules.
fn command(words: &[String]) -> Kind {
    let mut lookup = false;
    let mut i = 1;
    while let Some(w) = words.get(i) {
        if w == "--" {
            i += 1;
            break;
        }
        let Some(letters) = w.strip_prefix('-').filter(|l| !l.is_empty()) else {
            break;
        };
        if !letters.chars().all(|c| "pvV".contains(c)) {
            return runner(Inner::Command(skip_options(words, i, &[])));
        }
        lookup |= letters.contains(['v', 'V']);
        i += 1;
    }
    if lookup {
        Kind::Plain
    } else {
        Kind::Wrapper(i)
    }
}

/// GNU time 1.9's long options (`time --help`) and whether each takes a value.
const TIME_LONG_OPTIONS: &[(&str, bool)] = &[
    ("append", false),
    ("format", true),
    ("output", true),
    ("portability", false),
    ("quiet", false),
    ("verbose", false),
    ("help", false),
    ("version", false),
];

/// GNU time's short options without a value, and with one (`+af:o:pqvV`).
const TIME_FLAGS: &str = "apqvV";
const TIME_VALUE_LETTERS: &str = "fo";

/// `time`: a wrapper of the command after its options. Its options are read as GNU time
/// reads them with `getopt_long` (bundles `-po FILE`, attached values `-oFILE`, long options
/// abbreviated to a unique prefix `--o=FILE`), which also covers bash's `time` keyword
/// (`time -p`, `time -p --`). With an output file (`-o FILE`, `--output=FILE`, `-a`
/// appending to it) it writes that file: a runner whose write is judged from the writes
/// table like any other. An option GNU time does not have asks.
fn time(words: &[String]) -> Kind {
    let Some(start) = time_command_start(words) else {
        return runner(Inner::Command(skip_options(words, 1, &[])));
    };
    let own = words.get(..start).unwrap_or_default();
    if super::writes_files(own) {
        runner(Inner::Command(start))
    } else {
        Kind::Wrapper(start)
    }
}

/// Where the command GNU time runs starts, or `None` when an option is unknown, ambiguous,
/// given a value it does not take, or missing its value.
fn time_command_start(words: &[String]) -> Option<usize> {
    let mut i = 1;
    while let Some(w) = words.get(i) {
        if w == "--" {
            return Some(i + 1);
        }
        if let Some(long) = w.strip_prefix("--") {
            let (name, attached) = long
                .split_once('=')
                .map_or((long, None), |(n, v)| (n, Some(v)));
            match (long_option(TIME_LONG_OPTIONS, name)?, attached) {
                (true, None) => i += 1,
                (false, Some(_)) => return None,
                _ => {}
            }
        } else if let Some(letters) = w.strip_prefix('-').filter(|l| !l.is_empty()) {
            for (k, c) in letters.char_indices() {
                if TIME_VALUE_LETTERS.contains(c) {
                    // The rest of the word is the value, or else the next word.
                    if k + c.len_utf8() == letters.len() {
                        i += 1;
                    }
                    break;
                }
                if !TIME_FLAGS.contains(c) {
                    return None;
                }
            }
        } else {
            return Some(i);
        }
        i += 1;
    }
    // Options and no command: GNU time only complains; a value missing is an error.
    (i <= words.len()).then_some(i)
}

/// Resolves a long option `name` (without its dashes) as `getopt_long` does: the exact name,
/// or else the one option it is a prefix of. Returns whether it takes a value; `None` for an
/// unknown or ambiguous name.
fn long_option(options: &[(&str, bool)], name: &str) -> Option<bool> {
    if let Some((_, value)) = options.iter().find(|(o, _)| *o == name) {
        return Some(*value);
    }
    let mut matching = options
        .iter()
        .filter(|(o, _)| !name.is_empty() && o.starts_with(name));
    match (matching.next(), matching.next()) {
        (Some((_, value)), None) => Some(*value),
        _ => None,
    }
}

/// A shell of [`SHELLS`]. Only the shells whose grammar the parser reads
/// ([`Dialect::of_shell`]) have their options and `-c` script looked at; any other (fish,
/// ksh, mksh) has options and a script grammar of its own (fish's `-c` bundles take a
/// value, its unquoted `\x2e` is `.`; ksh's `|&` starts a co-process), so what it runs is
/// not read: it asks.
fn shell(words: &[String]) -> Kind {
    let name = words.first().map_or("", |w| program_name(w));
    if Dialect::of_shell(&name.to_lowercase()).is_none() {
        return runner(Inner::None);
    }
    const LONG: &[&str] = &["--login", "--norc", "--noprofile", "--posix", "--noediting"];
    let mut i = 1;
    let mut has_c = false;
    while let Some(w) = words.get(i) {
        if w == "-o" || w == "+o" {
            // Only the options that make a script stricter or noisier: others change how it
            // is read (`-o keyword` moves `NAME=VALUE` words into the environment,
            // `+o interactive-comments` makes `#` run what follows).
            match words.get(i + 1) {
                Some(name) if SAFE_SHELL_OPTION_NAMES.contains(&name.as_str()) => i += 2,
                _ => return runner(Inner::None),
            }
            continue;
        }
        if LONG.contains(&w.as_str()) {
            i += 1;
            continue;
        }
        let Some(letters) = w.strip_prefix('-').or_else(|| w.strip_prefix('+')) else {
            break;
        };
        if letters.is_empty() || letters.starts_with('-') {
            return runner(Inner::None);
        }
        if !letters.chars().all(|c| "celuxvinafhpB".contains(c)) {
            return runner(Inner::None);
        }
        has_c |= letters.contains('c');
        i += 1;
    }
    if has_c {
        Kind::ShellScript(i)
    } else {
        // A script file or standard input: nothing to read.
        runner(Inner::None)
    }
}

fn env(words: &[String]) -> Kind {
    let mut i = 1;
    while let Some(w) = words.get(i) {
        match w.as_str() {
            "-u" | "--unset" | "-C" | "--chdir" => i += 2,
            "-S" | "--split-string" => return runner(Inner::Script(i + 1)),
            "--" => {
                i += 1;
                break;
            }
            _ if w.starts_with("-S") || w.starts_with("--split-string=") => {
                return runner(Inner::None)
            }
            _ if w.starts_with('-') => i += 1,
            _ => break,
        }
    }
    while words.get(i).is_some_and(|w| w.contains('=')) {
        i += 1;
    }
    runner(Inner::Command(i))
}

/// `find` is read-only unless it runs, deletes or writes.
pub(crate) const FIND_ACTIONS: &[&str] = &[
    "-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls",
];

fn find(words: &[String]) -> Kind {
    if !words.iter().any(|w| FIND_ACTIONS.contains(&w.as_str())) {
        return Kind::Plain;
    }
    let mut execs = Vec::new();
    let mut i = 0;
    while let Some(w) = words.get(i) {
        i += 1;
        if matches!(w.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
            let start = i;
            while words.get(i).is_some_and(|w| w != ";" && w != "+") {
                i += 1;
            }
            execs.push((start, i));
        }
    }
    runner(Inner::FindExec(execs))
}

fn git(words: &[String]) -> Kind {
    // `git -c alias.x='!cmd'`, `--exec-path`, `--config-env` run configured programs.
    for w in words.iter().skip(1) {
        if !w.starts_with('-') {
            break;
        }
        if w == "-c" || w.starts_with("--config-env") || w.starts_with("--exec-path") {
            return runner(Inner::None);
        }
    }
    Kind::Plain
}

fn interpreter(name: &str, words: &[String]) -> Kind {
    let Some((_, inline)) = crate::commands::interpreter_base(name) else {
        return Kind::Plain;
    };
    for w in words.iter().skip(1) {
        let lower = w.to_ascii_lowercase();
        if inline.contains(&lower.as_str()) {
            return runner(Inner::None);
        }
        let clustered = !w.starts_with("--")
            && w.starts_with('-')
            && inline
                .iter()
                .filter_map(|o| o.strip_prefix('-'))
                .filter(|o| o.len() == 1)
                .any(|o| w.contains(o));
        if clustered {
            return runner(Inner::None);
        }
        if !w.starts_with('-') {
            break;
        }
    }
    Kind::Plain
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(line: &str) -> Kind {
        let words: Vec<String> = line.split(' ').map(str::to_owned).collect();
        classify(&words)
    }

    #[test]
    fn wrappers_skip_their_options() {
        assert_eq!(kind("timeout -s KILL 5 rm x"), Kind::Wrapper(4));
        assert_eq!(kind("timeout --signal=KILL 5s rm"), Kind::Wrapper(3));
        assert_eq!(kind("nice -n 10 rm"), Kind::Wrapper(3));
        assert_eq!(kind("nice -5 rm"), Kind::Wrapper(2));
        assert_eq!(kind("stdbuf -oL rm"), Kind::Wrapper(2));
        assert_eq!(kind("command -p rm"), Kind::Wrapper(2));
        assert_eq!(kind("command -v rm"), Kind::Plain);
        assert_eq!(kind("time -f %e rm"), Kind::Wrapper(3));
        assert_eq!(kind("xargs rm"), runner(Inner::Command(1)));
        assert_eq!(kind("time -p rm"), Kind::Wrapper(2));
        assert!(matches!(kind("time -o out rm"), Kind::Runner { .. }));
        assert!(matches!(
            kind("xargs -0 rm"),
            Kind::Runner {
                inner: Inner::Command(2)
            }
        ));
    }

    /// Whether the line's first program is a runner of the command that follows it: the
    /// wrapper itself asks, and what follows still meets the deny rules.
    fn runs_a_command(line: &str) -> bool {
        matches!(
            kind(line),
            Kind::Runner {
                inner: Inner::Command(_)
            }
        )
    }

    #[test]
    fn command_reads_its_options_as_bash_does() {
        // `-pp` and `-p -p` are `-p`: what follows runs.
        for (line, start) in [
            ("command -pp rm -rf x", 2),
            ("command -ppp bash -c x", 2),
            ("command -p -p rm", 3),
            ("command -- rm", 2),
            ("command -p -- rm", 3),
            ("command rm", 1),
        ] {
            assert_eq!(kind(line), Kind::Wrapper(start), "{line}");
        }
        // A `v` or `V` anywhere only looks the names up.
        for line in [
            "command -v rm",
            "command -pv rm",
            "command -p -V rm",
            "command -vp -- rm",
        ] {
            assert_eq!(kind(line), Kind::Plain, "{line}");
        }
        // Any other option asks, and what follows still meets the deny rules.
        for line in ["command -x rm", "command -px rm", "command --help rm"] {
            assert!(runs_a_command(line), "{line}");
        }
    }

    #[test]
    fn time_reads_its_options_as_gnu_time_does() {
        for (line, start) in [
            ("time rm", 1),
            ("time -p rm", 2),
            ("time -p -- rm", 3),
            ("time -f %e rm", 3),
            ("time -f%e rm", 2),
            ("time -pf %e rm", 3),
            ("time -fo rm", 2),
            ("time --format %e rm", 3),
            ("time --form=%e rm", 2),
            ("time --verb --port -q rm", 4),
        ] {
            assert_eq!(kind(line), Kind::Wrapper(start), "{line}");
        }
        // An output file, however it is spelt, makes `time` a writer: its write is judged.
        for (line, start) in [
            ("time -o out rm", 3),
            ("time -oout rm", 2),
            ("time -po /usr/bin/ls -f x a", 5),
            ("time -a -o out rm", 4),
            ("time -ao out rm", 3),
            ("time --o=.git/config -f x true", 4),
            ("time --outp out rm", 3),
            ("time -a --output=~/.bashrc rm", 3),
        ] {
            assert_eq!(kind(line), runner(Inner::Command(start)), "{line}");
        }
        // Options GNU time does not have, ambiguous prefixes, values given to a flag or
        // missing: asked about.
        for line in [
            "time -x rm",
            "time -h rm",
            "time --v rm",
            "time --p=1 rm",
            "time --colour rm",
            "time -o",
        ] {
            assert!(runs_a_command(line), "{line}");
        }
    }

    #[test]
    fn shells_whose_grammar_is_not_read_run_what_they_are_given_unread() {
        for line in [
            "fish -c ls",
            "fish -cex ls",
            "fish -pc ls",
            "fish -o errexit -c true",
            "/usr/bin/fish -c cat\\x2eenv",
            "ksh -c ls",
            "mksh -c ls",
        ] {
            assert_eq!(kind(line), runner(Inner::None), "{line}");
        }
        for line in [
            "sh -c ls",
            "bash -c ls",
            "dash -c ls",
            "ash -c ls",
            "zsh -c ls",
        ] {
            assert_eq!(kind(line), Kind::ShellScript(2), "{line}");
        }
    }

    #[test]
    fn shells_with_scripts() {
        assert_eq!(kind("bash -c x"), Kind::ShellScript(2));
        assert_eq!(kind("bash -lc x"), Kind::ShellScript(2));
        assert_eq!(kind("sh -e -u -c x"), Kind::ShellScript(4));
        assert_eq!(kind("/bin/zsh -o pipefail -c x"), Kind::ShellScript(4));
        assert!(matches!(
            kind("bash script.sh"),
            Kind::Runner { inner: Inner::None }
        ));
        assert!(matches!(kind("bash --rcfile x -c y"), Kind::Runner { .. }));
        // Options that change how the script is read make it a program of its own.
        for line in [
            "bash -o keyword -c x",
            "bash -i +o interactive-comments -c x",
            "bash +o posix -c x",
            "bash -o -c x",
        ] {
            assert!(matches!(kind(line), Kind::Runner { .. }), "{line}");
        }
        assert_eq!(kind("bash +o xtrace -c x"), Kind::ShellScript(4));
    }

    #[test]
    fn runners_and_their_payloads() {
        assert_eq!(kind("sudo -u root rm x"), runner(Inner::Command(3)));
        assert_eq!(kind("env -i A=1 rm x"), runner(Inner::Command(3)));
        assert_eq!(kind("env -S x"), runner(Inner::Script(2)));
        assert_eq!(kind("eval rm x"), runner(Inner::Script(1)));
        assert_eq!(kind("watch -n 1 rm x"), runner(Inner::Script(3)));
        assert_eq!(
            kind("find . -exec rm {} ; -print"),
            runner(Inner::FindExec(vec![(3, 5)]))
        );
        assert_eq!(kind("find . -name x"), Kind::Plain);
        assert_eq!(kind("git -c a=b status"), runner(Inner::None));
        assert_eq!(kind("su -c x"), runner(Inner::ScriptWord(2)));
    }

    #[test]
    fn interpreters_with_inline_code() {
        for line in [
            "python -c x",
            "python3 -c x",
            "python3.12 -Ic x",
            "node -e x",
            "node --eval x",
            "perl -ne x",
            "ruby -e x",
            "pwsh -Command x",
        ] {
            assert_eq!(kind(line), runner(Inner::None), "{line}");
        }
        assert_eq!(kind("python script.py -c x"), Kind::Plain);
        assert_eq!(kind("node server.js"), Kind::Plain);
    }
}
