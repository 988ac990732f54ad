//! Programs that run code they are given: the one list every part of toolgate asks
//! ([`runs_code`]).

/// Shells: they run the script they are given (`-c`, a file, standard input).
pub const SHELLS: &[&str] = &["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish"];

/// Interpreters and the options that make them run code given on the command line.
pub const INTERPRETERS: &[(&str, &[&str])] = &[
    ("python", &["-c"]),
    ("node", &["-e", "--eval", "-p", "--print"]),
    ("nodejs", &["-e", "--eval", "-p", "--print"]),
    ("bun", &["-e", "--eval", "-p", "--print"]),
    ("deno", &["eval"]),
    ("perl", &["-e", "-E"]),
    ("ruby", &["-e"]),
    ("php", &["-r"]),
    ("lua", &["-e"]),
    ("luajit", &["-e"]),
    ("Rscript", &["-e"]),
    ("osascript", &["-e"]),
    ("pwsh", &["-c", "-command", "-encodedcommand"]),
    ("powershell", &["-c", "-command", "-encodedcommand"]),
];

/// Wrappers that run the command after their own options unchanged.
pub const TRANSPARENT_WRAPPERS: &[&str] = &[
    "timeout", "time", "nice", "nohup", "stdbuf", "command", "builtin",
];

/// Commands that run code they are given, build a command line from data, or change how
/// later commands run; an allow rule never covers what they run.
pub const RUNNERS: &[&str] = &[
    "env",
    "sudo",
    "doas",
    "su",
    "runuser",
    "pkexec",
    "watch",
    "xargs",
    "find",
    "eval",
    "source",
    ".",
    "exec",
    "trap",
    "alias",
    "chroot",
    "nsenter",
    "unshare",
    "setsid",
    "flock",
    "systemd-run",
    "strace",
    "ltrace",
    "valgrind",
    "ionice",
    "taskset",
    "chrt",
    "unbuffer",
    "script",
    "parallel",
    "export",
    "declare",
    "typeset",
    "local",
    "readonly",
    "unset",
    "set",
    "shopt",
    "enable",
    "hash",
    "awk",
    "gawk",
    "mawk",
    "nawk",
    "busybox",
    "fakeroot",
    "npx",
    "vim",
    "vi",
    "nvim",
    "ex",
    "view",
    "rvim",
    "gdb",
    "tmux",
    "screen",
    "docker",
    "podman",
    "kubectl",
    "ssh",
    "scp",
    "sftp",
    "rsync",
    "expect",
    "at",
    "batch",
    "crontab",
    "sg",
    "newgrp",
    "firejail",
    "bwrap",
    "proot",
    "fakechroot",
    "emacs",
    "less",
    "more",
    "man",
    "ed",
];

/// The interpreter a program name stands for (`python3.12` → `python`), if any.
pub(crate) fn interpreter_base(
    name: &str,
) -> Option<&'static (&'static str, &'static [&'static str])> {
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    INTERPRETERS.iter().find(|(n, _)| *n == base)
}

/// Whether `program` (a name or a path) runs code it is given: a shell, an interpreter,
/// a wrapper or any other runner. The one predicate for the shell analysis, the trust
/// rules and the broker.
///
/// ```
/// use toolgate::commands::runs_code;
/// assert!(runs_code("xargs"));
/// assert!(runs_code("/usr/bin/python3.12"));
/// assert!(runs_code("awk"));
/// assert!(runs_code("timeout"));
/// assert!(!runs_code("ls"));
/// assert!(!runs_code("git"));
/// ```
pub fn runs_code(program: &str) -> bool {
    let name = crate::commands::program_name(program);
    RUNNERS.contains(&name)
        || SHELLS.contains(&name)
        || TRANSPARENT_WRAPPERS.contains(&name)
        || interpreter_base(name).is_some()
}
