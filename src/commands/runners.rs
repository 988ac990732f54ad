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
    ("tclsh", &[]),
    ("pwsh", &["-c", "-command", "-encodedcommand"]),
    ("powershell", &["-c", "-command", "-encodedcommand"]),
];

/// Options of programs outside the program table that run a command they are given
/// ([`runs_by_option`] reads them with [`RUNNING_SUBCOMMANDS`]):
/// `(program, options)`, each option spelt in full (a long one may be abbreviated to any
/// prefix of two letters or more, as GNU `getopt` and Info-ZIP accept).
const RUNNING_OPTIONS: &[(&str, &[&str])] = &[
    // Info-ZIP zip 3.0: `-TT CMD` / `--unzip-command CMD` tests the archive with `CMD`.
    ("zip", &["-TT", "--unzip-command"]),
    // GNU split: `--filter=CMD` writes each piece to `CMD`'s input.
    ("split", &["--filter"]),
    // GNU make: `--eval=TEXT` / `-E TEXT` reads TEXT as a makefile, recipes and all.
    ("make", &["-E", "--eval"]),
    ("gmake", &["-E", "--eval"]),
    // GNU install: `-s` runs `strip` (found on `PATH`), `--strip-program` the one named.
    ("install", &["-s", "--strip", "--strip-program"]),
    // npm: the shell that runs scripts, Node's options for every process it starts, the
    // programs it starts for git dependencies, `npm explore`, `npm edit`, `npm docs`/`npm
    // help`, node-gyp and `npm init`'s module, and configuration files, which may set any
    // of these.
    (
        "npm",
        &[
            "--script-shell",
            "--node-options",
            "--git",
            "--shell",
            "--editor",
            "--browser",
            "--viewer",
            "--node-gyp",
            "--init-module",
            "--userconfig",
            "--globalconfig",
        ],
    ),
    // cargo: `--config KEY=VALUE` (or a file) sets `target.<triple>.runner`,
    // `build.rustc-wrapper`, a linker: programs cargo runs.
    ("cargo", &["--config"]),
];

/// Options of C and C++ compiler drivers (GCC, Clang: [`compiler_driver`]) that run a
/// program they name or load code into the compiler, or pass options on to the tools it
/// runs (`-Wl,@FILE`, `-Wl,-plugin,x.so`): each spelt as the start of its word, the value
/// attached or not (`-Bdir`, `-specs=f`, `-fplugin=x.so`, `-wrapper sh,-c,CMD`).
const COMPILER_RUNNING_OPTIONS: &[&str] = &[
    "-wrapper",
    "-B",
    "-specs",
    "--specs",
    "-fplugin",
    "-fuse-ld",
    "--ld-path",
    "-Xclang",
    "-Xlinker",
    "-Wl,",
    "-Xassembler",
    "-Wa,",
    "-Xpreprocessor",
    "-Wp,",
    "-mllvm",
    "--gcc-toolchain",
    "--gcc-install-dir",
];

/// The C and C++ compiler drivers.
const COMPILER_DRIVERS: &[&str] = &["gcc", "g++", "cc", "c++", "clang", "clang++"];

/// The compiler driver `name` is (`gcc` for `x86_64-linux-gnu-gcc-12`, `clang++` for
/// `/usr/bin/clang++-15`), in lower case, if it is one.
///
/// ```
/// use toolgate::commands::compiler_driver;
/// assert_eq!(compiler_driver("x86_64-linux-gnu-gcc-12"), Some("gcc".to_owned()));
/// assert_eq!(compiler_driver("/usr/bin/Clang++-15"), Some("clang++".to_owned()));
/// assert_eq!(compiler_driver("gcc-ar"), None);
/// ```
pub fn compiler_driver(name: &str) -> Option<String> {
    let tool = unversioned_tool(name);
    COMPILER_DRIVERS.contains(&tool.as_str()).then_some(tool)
}

/// A program's name without its directory, a version suffix and a target prefix, in lower
/// case (`x86_64-linux-gnu-gcc-12` → `gcc`, `ld.lld-15` → `ld.lld`).
pub(crate) fn unversioned_tool(name: &str) -> String {
    let name = crate::commands::program_name(name).to_ascii_lowercase();
    let unversioned = match name.rsplit_once('-') {
        Some((base, version)) if version.chars().all(|c| c.is_ascii_digit() || c == '.') => base,
        _ => name.as_str(),
    };
    unversioned
        .rsplit('-')
        .next()
        .unwrap_or(unversioned)
        .to_owned()
}

/// Subcommands of programs outside the program table that run a command they are given:
/// `npm exec -c CMD`, `npm x PKG`, `npm explore PKG -- CMD`.
const RUNNING_SUBCOMMANDS: &[(&str, &[&str])] = &[
    ("npm", &["exec", "x", "explore"]),
    ("pnpm", &["exec", "dlx", "x"]),
    ("yarn", &["exec", "dlx"]),
    ("bun", &["x"]),
    // Python's project and tool managers: `uv run CMD`, `uv tool run PKG`, `pipx run PKG`,
    // `poetry run CMD`, and the same in pdm, rye, hatch, pixi and conda.
    ("uv", &["run", "tool run", "tool uvx"]),
    ("pipx", &["run"]),
    ("poetry", &["run"]),
    ("pdm", &["run"]),
    ("rye", &["run"]),
    ("hatch", &["run"]),
    ("pixi", &["run", "exec"]),
    ("conda", &["run"]),
    ("mamba", &["run"]),
    ("micromamba", &["run"]),
    // Version and tool managers: `volta run`, `mise exec`/`x`/`run` (tasks), `asdf exec`,
    // `nix run`/`shell`/`develop`, `deno run`/`task`/`eval`/`x`, and `yarnpkg` (yarn).
    ("volta", &["run"]),
    ("mise", &["exec", "x", "run"]),
    ("asdf", &["exec"]),
    ("nix", &["run", "shell", "develop"]),
    ("deno", &["run", "task", "eval", "x", "repl"]),
    ("yarnpkg", &["exec", "dlx"]),
];

/// Why `words` runs a command through one of its options ([`RUNNING_OPTIONS`]) or
/// subcommands ([`RUNNING_SUBCOMMANDS`]), if it does.
///
/// ```
/// use toolgate::commands::runs_by_option;
/// let words = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
/// assert!(runs_by_option(&words("zip -TT sh x.zip a")).is_some());
/// assert!(runs_by_option(&words("zip --unzip-comm=sh x.zip a")).is_some());
/// assert!(runs_by_option(&words("split --filter=sh x")).is_some());
/// assert!(runs_by_option(&words("zip -r x.zip a")).is_none());
/// assert!(runs_by_option(&words("make --eval=x:;id x")).is_some());
/// assert!(runs_by_option(&words("npm exec -c id")).is_some());
/// assert!(runs_by_option(&words("npm test --script-shell=/tmp/evil.sh")).is_some());
/// assert!(runs_by_option(&words("npm test")).is_none());
/// assert!(runs_by_option(&words("uv --project app run pytest")).is_some());
/// assert!(runs_by_option(&words("uv tool run ruff")).is_some());
/// assert!(runs_by_option(&words("uv sync")).is_none());
/// assert!(runs_by_option(&words("install -Dsm 755 a /usr/bin/a")).is_some());
/// assert!(runs_by_option(&words("npm exe -c id")).is_some());
/// assert!(runs_by_option(&words("npm install --git=./evil.sh git+file:///r")).is_some());
/// assert!(runs_by_option(&words("cargo test --config target.x.runner=sh")).is_some());
/// assert!(runs_by_option(&words("gcc -wrapper sh,-c,id x.c")).is_some());
/// assert!(runs_by_option(&words("gcc x.c -Wl,@opts")).is_some());
/// assert!(runs_by_option(&words("gcc -O2 -DBAR=1 -o app x.c")).is_none());
/// ```
pub fn runs_by_option(words: &[String]) -> Option<String> {
    let name = crate::commands::program_name(words.first()?);
    if let Some(driver) = compiler_driver(name) {
        let runs = words
            .iter()
            .skip(1)
            .find(|w| COMPILER_RUNNING_OPTIONS.iter().any(|o| w.starts_with(o)));
        if let Some(option) = runs {
            return Some(format!(
                "`{driver}` is given `{option}`, which runs a program or passes options to one"
            ));
        }
        return None;
    }
    if let Some((_, subs)) = RUNNING_SUBCOMMANDS.iter().find(|(p, _)| *p == name) {
        // Any word that is not an option may be the subcommand: an option before it may
        // take a value (`uv --project dir run CMD`), which a table of subcommands cannot tell.
        // npm takes its commands abbreviated and by alias (`npm exe`, `npm x`).
        let plain: Vec<&str> = words
            .iter()
            .skip(1)
            .take_while(|w| *w != "--")
            .map(String::as_str)
            .filter(|w| !w.starts_with('-'))
            .map(|w| match name {
                "npm" => crate::commands::npm_command(w).unwrap_or(w),
                _ => w,
            })
            .collect();
        let found = subs.iter().find(|sub| match sub.split_once(' ') {
            Some((a, b)) => plain.windows(2).any(|p| p == [a, b]),
            None => plain.contains(sub),
        });
        if let Some(sub) = found {
            return Some(format!("`{name} {sub}` runs a command it is given"));
        }
    }
    let (_, options) = RUNNING_OPTIONS.iter().find(|(p, _)| *p == name)?;
    let runs = words.iter().skip(1).take_while(|w| *w != "--").any(|w| {
        let given = w.split_once('=').map_or(w.as_str(), |(n, _)| n);
        options.iter().any(|o| match o.strip_prefix("--") {
            Some(long) => given
                .strip_prefix("--")
                .is_some_and(|g| g.len() >= 2 && long.starts_with(g)),
            // A one-letter option may sit in a cluster (`install -Dsm 755`).
            None if o.len() == 2 => {
                !given.starts_with("--")
                    && given.strip_prefix('-').is_some_and(|c| c.contains(&o[1..]))
            }
            None => given == *o,
        })
    });
    runs.then(|| format!("`{name}` is given an option that runs a command"))
}

/// Wrappers that run the command after their own options unchanged.
pub const TRANSPARENT_WRAPPERS: &[&str] = &[
    "timeout", "time", "nice", "nohup", "stdbuf", "command", "builtin",
];

/// Commands that run code they are given, build a command line from data, or change how
/// later commands run; an allow rule never covers what they run.
pub const RUNNERS: &[&str] = &[
    // The SQLite shell runs `.shell CMD` and `.system CMD`, and its SQL reads and writes
    // any file (`readfile()`, `writefile()`, `.output F`).
    "sqlite3",
    "sqlite",
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
    "uvx",
    "bunx",
    "pnpx",
    // Runs the package manager named after it (`corepack npm exec -c CMD`).
    "corepack",
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
    INTERPRETERS
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(base))
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
    // Any case: a runner spelt `XARGS` on a case-insensitive file system is still one.
    let name = crate::commands::program_name(program);
    let named = |list: &[&str]| list.iter().any(|p| p.eq_ignore_ascii_case(name));
    named(RUNNERS)
        || named(SHELLS)
        || named(TRANSPARENT_WRAPPERS)
        || interpreter_base(name).is_some()
}

/// Programs that start programs they find or are given (build tools, package managers and
/// runners, service managers, relays) without being runners of their own arguments: an allow
/// rule may name them, but a remembered grant on them is refused ([`may_start_programs`]).
pub const STARTS_PROGRAMS: &[&str] = &[
    "toybox",
    "sed",
    "gsed",
    "m4",
    "csh",
    "tcsh",
    "lldb",
    "sshpass",
    "emacsclient",
    "systemctl",
    "service",
    "launchctl",
    "schtasks",
    "start",
    "open",
    "xdg-open",
    "cmd",
    "wsl",
    "make",
    "gmake",
    "cmake",
    "ninja",
    "pip",
    "pipx",
    "uv",
    "uvx",
    "poetry",
    "tsx",
    "ts-node",
    "pythonw",
    "pypy",
    "java",
    "jshell",
    "julia",
    "r",
    "irb",
    "tclsh",
    "wish",
    "nc",
    "ncat",
    "socat",
    "tar",
    "zip",
    "git-shell",
];

/// Whether a remembered grant on `program` would trust code it runs: a runner
/// ([`runs_code`]) or a program in [`STARTS_PROGRAMS`]. The one list that refuses grants.
/// (Options that run a program, such as `sort --compress-program`, make the command a
/// runner in the shell analysis, so a grant on such a program never covers them.)
///
/// ```
/// use toolgate::commands::may_start_programs;
/// assert!(may_start_programs("make"));
/// assert!(may_start_programs("python3"));
/// assert!(may_start_programs("SED"));
/// assert!(!may_start_programs("cat"));
/// assert!(!may_start_programs("git"));
/// ```
pub fn may_start_programs(program: &str) -> bool {
    let name = crate::commands::program_name(program);
    runs_code(name) || STARTS_PROGRAMS.iter().any(|p| p.eq_ignore_ascii_case(name))
}
