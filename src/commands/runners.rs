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
    // `build.rustc-wrapper`, a linker: programs cargo runs; `-Z` unstable features
    // (`-Zscript`, `-Zunstable-options -C DIR`).
    ("cargo", &["--config", "-Z"]),
    // rustdoc's test runners (rustc's and rustdoc's `-C` and `-Z`: [`rustc_runs`]).
    (
        "rustdoc",
        &[
            "--test-builder",
            "--test-runtool",
            "--test-wrapper",
            "--runtool",
        ],
    ),
    // Go: programs the build, test and vet commands run (`-toolexec`, `go test -exec`,
    // `-vettool`), in either of Go's spellings; the linker's `-extld` through `-ldflags`:
    // [`go_runs`].
    (
        "go",
        &[
            "-toolexec",
            "--toolexec",
            "-exec",
            "--exec",
            "-vettool",
            "--vettool",
        ],
    ),
    // GnuPG's helper programs (`--agent-program=PROG` starts PROG as the agent), and the
    // photo viewer and key server helpers it starts.
    ("gpg", GPG_RUNNING_OPTIONS),
    ("gpg2", GPG_RUNNING_OPTIONS),
];

/// GnuPG's options that name a program it starts.
const GPG_RUNNING_OPTIONS: &[&str] = &[
    "--agent-program",
    "--dirmngr-program",
    "--keyboxd-program",
    "--photo-viewer",
    "--exec-path",
    "--keyserver-options",
];

/// rustc's code generation settings (`-C KEY=VALUE`, `-CKEY=VALUE`, `--codegen KEY=VALUE`)
/// that name a program it runs or pass options on to one (the linker, LLVM's plugin loader).
const RUSTC_RUNNING_CODEGEN: &[&str] = &["linker", "link-arg", "link-args", "llvm-args"];

/// The programs rustup stands in for: a first word `+TOOLCHAIN` picks the toolchain, and
/// one written as a path (`cargo +/tmp/tc build`) runs the programs found there.
const RUSTUP_PROXIES: &[&str] = &[
    "cargo",
    "rustc",
    "rustdoc",
    "rustfmt",
    "cargo-fmt",
    "cargo-clippy",
    "clippy-driver",
    "rust-gdb",
    "rust-lldb",
    "rust-analyzer",
];

/// Long options of the compiler drivers known to run nothing: every other `--` option asks
/// (GCC maps `--prefix` to `-B`, `--for-linker` to `-Xlinker` and any `--X` to `-fX`).
const COMPILER_SAFE_LONG_OPTIONS: &[&str] = &[
    "--version",
    "--help",
    "--verbose",
    "--std",
    "--param",
    "--pedantic",
    "--pedantic-errors",
    "--ansi",
    "--no-warnings",
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

/// The compiler drivers of GCC and Clang: C, C++, the preprocessor, and GCC's other
/// languages, which take the same options.
const COMPILER_DRIVERS: &[&str] = &[
    "gcc", "g++", "cc", "c++", "clang", "clang++", "cpp", "c89", "c99", "gfortran", "gccgo", "gdc",
    "gm2", "g77",
];

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
/// assert!(runs_by_option(&words("gcc --prefix=/tmp/evil/ x.c")).is_some());
/// assert!(runs_by_option(&words("c99 -B/tmp/evil/ x.c")).is_some());
/// assert!(runs_by_option(&words("gcc --std=c11 --version")).is_none());
/// assert!(runs_by_option(&words("npm test -scr=/tmp/evil/sh")).is_some());
/// assert!(runs_by_option(&words("npm create vite app")).is_some());
/// assert!(runs_by_option(&words("npm init -y")).is_none());
/// assert!(runs_by_option(&words("rustc -C linker=/tmp/ld x.rs")).is_some());
/// assert!(runs_by_option(&words("rustc -C opt-level=3 x.rs")).is_none());
/// assert!(runs_by_option(&words("cargo rustc -- -Clinker=/tmp/ld")).is_some());
/// assert!(runs_by_option(&words("cargo +/tmp/tc build")).is_some());
/// assert!(runs_by_option(&words("cargo +nightly build")).is_none());
/// assert!(runs_by_option(&words("make SHELL=/tmp/sh x")).is_some());
/// assert!(runs_by_option(&words("make -j4 test")).is_none());
/// assert!(runs_by_option(&words("gpg --agent-program=/tmp/a --card-status")).is_some());
/// assert!(runs_by_option(&words("go build -toolexec=/tmp/x ./...")).is_some());
/// assert!(runs_by_option(&words("go test -race ./...")).is_none());
/// assert!(runs_by_option(&words("go build -ldflags=-extld=/tmp/ld .")).is_some());
/// assert!(runs_by_option(&words("go build -ldflags -s .")).is_none());
/// ```
pub fn runs_by_option(words: &[String]) -> Option<String> {
    let name = crate::commands::program_name(words.first()?);
    if let Some(driver) = compiler_driver(name) {
        return compiler_runs(&driver, words.get(1..).unwrap_or_default());
    }
    let toolchain = words.get(1).filter(|w| w.starts_with('+'));
    if RUSTUP_PROXIES.contains(&name) && toolchain.is_some_and(|t| t.contains(['/', '\\'])) {
        return Some(format!(
            "`{name}` is given a toolchain by its path, whose programs it runs"
        ));
    }
    if let Some(why) = rustc_runs(name, words) {
        return Some(why);
    }
    if name == "npm" {
        if let Some(why) = npm_init_runs(words) {
            return Some(why);
        }
    }
    if let Some(why) = make_runs(name, words) {
        return Some(why);
    }
    if let Some(why) = go_runs(name, words) {
        return Some(why);
    }
    if let Some((_, subs)) = RUNNING_SUBCOMMANDS.iter().find(|(p, _)| *p == name) {
        // Any word that is not an option may be the subcommand: an option before it may
        // take a value (`uv --project dir run CMD`), which a table of subcommands cannot tell.
        // npm takes its commands abbreviated and by alias (`npm exe`, `npm x`).
        let plain: Vec<&str> = operands(words)
            .into_iter()
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
    let any_dashes = LONG_OPTIONS_WITH_ANY_DASHES.contains(&name);
    let runs = option_words(name, words).iter().any(|w| {
        let given = w.split_once('=').map_or(w.as_str(), |(n, _)| n);
        let long_given = if any_dashes {
            given.strip_prefix('-').map(|g| g.trim_start_matches('-'))
        } else {
            given.strip_prefix("--")
        };
        options.iter().any(|o| match o.strip_prefix("--") {
            Some(long) => long_given.is_some_and(|g| g.len() >= 2 && long.starts_with(g)),
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

/// Why the compiler driver `driver` given `args` runs a program it is told of: an option of
/// [`COMPILER_RUNNING_OPTIONS`], or a long option not known to be safe
/// ([`COMPILER_SAFE_LONG_OPTIONS`]).
fn compiler_runs(driver: &str, args: &[String]) -> Option<String> {
    let option = args.iter().find(|w| {
        let long_unknown = w.starts_with("--") && {
            let name = w.split_once('=').map_or(w.as_str(), |(n, _)| n);
            !COMPILER_SAFE_LONG_OPTIONS.contains(&name)
        };
        long_unknown || COMPILER_RUNNING_OPTIONS.iter().any(|o| w.starts_with(o))
    })?;
    Some(format!(
        "`{driver}` is given `{option}`, which runs a program or passes options to one"
    ))
}

/// Why rustc or rustdoc, or `cargo rustc`/`cargo rustdoc` with the words after `--`, runs a
/// program: a code generation setting of [`RUSTC_RUNNING_CODEGEN`] (`-C linker=PROG`).
fn rustc_runs(name: &str, words: &[String]) -> Option<String> {
    let args: &[String] = match name {
        "rustc" | "rustdoc" => words.get(1..).unwrap_or_default(),
        "cargo"
            if words
                .iter()
                .any(|w| matches!(w.as_str(), "rustc" | "rustdoc")) =>
        {
            let after = words.iter().position(|w| w == "--")?;
            words.get(after + 1..).unwrap_or_default()
        }
        _ => return None,
    };
    let mut it = args.iter();
    while let Some(w) = it.next() {
        let setting = match w.as_str() {
            "-C" | "--codegen" => it.next().map(String::as_str),
            _ => w
                .strip_prefix("-C")
                .or_else(|| w.strip_prefix("--codegen=")),
        };
        let key = setting.map(|s| s.split_once('=').map_or(s, |(k, _)| k));
        if w.starts_with("-Z") || key.is_some_and(|k| RUSTC_RUNNING_CODEGEN.contains(&k)) {
            return Some(format!(
                "`{name}` is given `{w}`, which names a program it runs or options for one"
            ));
        }
    }
    None
}

/// Programs whose option parser reads a word with any number of leading dashes as a long
/// option, abbreviated too: npm (`-script-shell`, `---script-shell` and `-scr` are
/// `--script-shell`).
const LONG_OPTIONS_WITH_ANY_DASHES: &[&str] = &["npm"];

/// Why npm runs a package its words name: `npm init NAME` / `npm create NAME` runs the
/// package `create-NAME`, as `npm exec` does. The command and the initializer are read
/// from every operand, after a `--` too (`npm init -y -- vite`, `npm -- create vite`).
fn npm_init_runs(words: &[String]) -> Option<String> {
    let operands = operands(words);
    let init = operands
        .iter()
        .position(|w| crate::commands::npm_command(w) == Some("init"))?;
    let initializer = operands.get(init + 1)?;
    Some(format!(
        "`npm init {initializer}` runs the package that creates it (`npm exec create-...`)"
    ))
}

/// The words after the program that are not its options: those before the first `--` that
/// do not start with `-`, and every word after it. An option parser that stops at `--`
/// still reads the words after it as operands: make's variables (`make -- SHELL=sh`),
/// npm's command (`npm -- exec PKG`) and `npm init`'s initializer (`npm init -- vite`).
fn operands(words: &[String]) -> Vec<&str> {
    let args = words.get(1..).unwrap_or_default();
    let end = args.iter().position(|w| w == "--").unwrap_or(args.len());
    let before = args.get(..end).unwrap_or_default();
    let after = args.get(end + 1..).unwrap_or_default();
    before
        .iter()
        .filter(|w| !w.starts_with('-'))
        .chain(after)
        .map(String::as_str)
        .collect()
}

/// Programs whose option parser (GNU `getopt`) takes a `--` that follows an option needing a
/// value as that value, and goes on reading options: `make -f -- -E TEXT` reads `-E TEXT`.
/// Their options are looked for in every word ([`option_words`]).
const OPTIONS_PAST_DASH_DASH: &[&str] = &["make", "gmake"];

/// The words after the program that its options are read from: those before the first
/// `--`, or every word for a program of [`OPTIONS_PAST_DASH_DASH`].
fn option_words<'a>(name: &str, words: &'a [String]) -> &'a [String] {
    let args = words.get(1..).unwrap_or_default();
    if OPTIONS_PAST_DASH_DASH.contains(&name) {
        return args;
    }
    let end = args.iter().position(|w| w == "--").unwrap_or(args.len());
    args.get(..end).unwrap_or(args)
}

/// Why make (`gmake`) runs what its words say: a variable set on the command line
/// ([`make_assignment`]), or a makefile read from standard input ([`makefile_from_input`]).
fn make_runs(name: &str, words: &[String]) -> Option<String> {
    if !matches!(name, "make" | "gmake") {
        return None;
    }
    if let Some(assignment) = make_assignment(words) {
        return Some(format!(
            "`{name}` is given `{assignment}`, a variable the commands it runs may use or \
             whose value it runs as a command"
        ));
    }
    let makefile = makefile_from_input(option_words(name, words))?;
    Some(format!(
        "`{name}` is given the makefile `{makefile}`, which it reads from standard input or \
         another open descriptor: recipes the line itself holds, as `--eval` does"
    ))
}

/// The first word make reads as a variable assignment: an operand ([`operands`], after a
/// `--` too) holding `=`, whatever the name before it and the operator (`=`, `:=`, `::=`,
/// `:::=`, `?=`, `+=`, `!=`). A variable set on the command line overrides the makefile's
/// and the built-in rules' (`SHELL`, `CC`, `CFLAGS` reach the commands make runs), and
/// `!=` and `:=$(shell ...)` run a command as make reads the word, whatever the name
/// (`a/!=id`).
fn make_assignment(words: &[String]) -> Option<&str> {
    operands(words).into_iter().find(|w| w.contains('='))
}

/// The first makefile among make's option words that make reads from a descriptor
/// ([`reads_a_descriptor`]): `-f FILE`, `-fFILE`, in a cluster (`-pf FILE`), `--file=FILE`,
/// `--makefile FILE`, or any abbreviation of the long ones (`--fi=-`). Read widely: a
/// cluster's `f` counts even after a letter that takes the rest as its own value.
fn makefile_from_input(args: &[String]) -> Option<&str> {
    args.iter().enumerate().find_map(|(i, w)| {
        let attached = if let Some(long) = w.strip_prefix("--") {
            let (name, value) = long
                .split_once('=')
                .map_or((long, None), |(n, v)| (n, Some(v)));
            let file_option =
                !name.is_empty() && ["file", "makefile"].iter().any(|o| o.starts_with(name));
            file_option.then_some(value)?
        } else {
            let (_, rest) = w.strip_prefix('-')?.split_once('f')?;
            Some(rest).filter(|r| !r.is_empty())
        };
        let file = attached.or_else(|| args.get(i + 1).map(String::as_str))?;
        reads_a_descriptor(file).then_some(file)
    })
}

/// Whether make, reading the makefile `file`, reads standard input or another open
/// descriptor: `-`, or a descriptor path (`/dev/stdin`, `/proc/self/fd/0`), judged by its
/// last name alone, as after a `-C` or a `cd` that moved make (`stdin` is `/dev/stdin` in
/// `/dev`, `0` is `/dev/fd/0` in `/dev/fd`).
///
/// The descriptor names are [`crate::shell::is_descriptor_path`]'s.
fn reads_a_descriptor(file: &str) -> bool {
    let last = file
        .rsplit('/')
        .find(|s| !s.is_empty() && *s != ".")
        .unwrap_or(file);
    file == "-"
        || crate::shell::is_descriptor_path(&format!("/dev/{last}"))
        || crate::shell::is_descriptor_path(&format!("/dev/fd/{last}"))
}

/// Why go runs a program its words name through the linker's flags: `-ldflags` holding
/// `-extld` (the external linker) or `-extldflags` (options for it), attached or as the
/// next word.
fn go_runs(name: &str, words: &[String]) -> Option<String> {
    if name != "go" {
        return None;
    }
    let mut it = words.iter().skip(1);
    while let Some(w) = it.next() {
        let Some(rest) = w
            .strip_prefix("--ldflags")
            .or_else(|| w.strip_prefix("-ldflags"))
        else {
            continue;
        };
        let value = match rest.strip_prefix('=') {
            Some(v) => Some(v),
            None if rest.is_empty() => it.next().map(String::as_str),
            None => continue,
        };
        if value.is_some_and(|v| v.contains("extld")) {
            return Some(format!(
                "`go` is given `{w}`, which names the linker it runs"
            ));
        }
    }
    None
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

/// Programs that take instructions or keystrokes from their terminal while they run:
/// database and network clients, calculators, editors, process monitors and the interactive
/// shells of languages. What they do is typed after they start, not written on the command
/// line. (Runners that do the same, `vim`, `less`, `ed`, `gdb`, `sqlite3`, are in
/// [`RUNNERS`]; shells and interpreters without a script read their standard input.)
pub const TERMINAL_PROGRAMS: &[&str] = &[
    "psql",
    "mysql",
    "mariadb",
    "mongo",
    "mongosh",
    "redis-cli",
    "cqlsh",
    "sqlcmd",
    "ftp",
    "lftp",
    "tftp",
    "telnet",
    "bc",
    "dc",
    "nano",
    "pico",
    "micro",
    "joe",
    "mc",
    "top",
    "htop",
    "atop",
    "btop",
    "iotop",
    "irb",
    "ipython",
    "bpython",
    "ptpython",
    "jshell",
    "ghci",
    "iex",
];

/// Interpreters' options that leave them reading code from their terminal (after the
/// script, if any): `python -i`, `node -i`, `php -a`, `lua -i`. (`perl -i` and `ruby -i`
/// edit files in place.)
const INTERACTIVE_OPTIONS: &[(&str, &[&str])] = &[
    ("python", &["-i"]),
    ("node", &["-i", "--interactive"]),
    ("nodejs", &["-i", "--interactive"]),
    ("bun", &["-i", "--interactive"]),
    ("php", &["-a", "--interactive"]),
    ("lua", &["-i"]),
    ("luajit", &["-i"]),
];

/// git's subcommands and the options with which they read choices, or an editor's
/// keystrokes, from the terminal: `git add -p`, `git rebase -i`, `git commit -e`.
const GIT_INTERACTIVE_OPTIONS: &[(&str, &[&str])] = &[
    (
        "add",
        &["-p", "--patch", "-i", "--interactive", "-e", "--edit"],
    ),
    (
        "commit",
        &["-p", "--patch", "--interactive", "-e", "--edit"],
    ),
    ("checkout", &["-p", "--patch"]),
    ("restore", &["-p", "--patch"]),
    ("reset", &["-p", "--patch"]),
    ("stash", &["-p", "--patch"]),
    ("rebase", &["-i", "--interactive", "--edit-todo"]),
    ("clean", &["-i", "--interactive"]),
    ("am", &["-i", "--interactive"]),
    ("merge", &["-e", "--edit"]),
    ("revert", &["-e", "--edit"]),
    ("cherry-pick", &["-e", "--edit"]),
];

/// What a command takes from its terminal once it runs, when the command knowledge says
/// it does: a program of [`TERMINAL_PROGRAMS`], an interpreter given an interactive
/// option, or a git subcommand in an interactive mode. `name` is the program's name
/// (lowercase, without its directory); `args` the words after it. Options are read in the
/// widest way: a short option anywhere in a cluster (`-qi`), a long one by any prefix of
/// three letters or more, anywhere before `--`.
///
/// ```
/// use toolgate::commands::reads_terminal;
/// let words = |line: &str| line.split(' ').map(str::to_owned).collect::<Vec<_>>();
/// assert!(reads_terminal("psql", &[]).is_some());
/// assert!(reads_terminal("python3", &words("-i e.py")).is_some());
/// assert!(reads_terminal("git", &words("-C sub add -p")).is_some());
/// assert!(reads_terminal("git", &words("log -p")).is_none());
/// assert!(reads_terminal("perl", &words("-i -pe s/a/b/ f")).is_none());
/// assert!(reads_terminal("cat", &words("a.txt")).is_none());
/// ```
pub fn reads_terminal(name: &str, args: &[String]) -> Option<String> {
    let named = |list: &[&str]| list.iter().any(|p| p.eq_ignore_ascii_case(name));
    if named(TERMINAL_PROGRAMS) {
        return Some(format!("`{name}` takes its instructions from the terminal"));
    }
    if let Some((base, _)) = interpreter_base(name) {
        let options = INTERACTIVE_OPTIONS
            .iter()
            .find(|(n, _)| n == base)
            .map_or(&[][..], |(_, o)| *o);
        return given_any(args, options)
            .map(|o| format!("`{name} {o}` reads code from the terminal"));
    }
    if name == "git" {
        let mut i = 0;
        while let Some(a) = args.get(i) {
            if crate::shell::GIT_GLOBAL_WITH_VALUE.contains(&a.as_str()) {
                i += 2;
            } else if a.starts_with('-') {
                i += 1;
            } else {
                break;
            }
        }
        let sub = args.get(i)?;
        let (_, options) = GIT_INTERACTIVE_OPTIONS.iter().find(|(s, _)| s == sub)?;
        let rest = args.get(i + 1..).unwrap_or_default();
        return given_any(rest, options).map(|o| {
            format!("`git {sub} {o}` reads choices or an editor's keys from the terminal")
        });
    }
    None
}

/// The first word of `args` (before `--`) that gives one of `options`: the option itself,
/// a long option's prefix of three letters or more (`--inter`), with or without `=VALUE`,
/// or a cluster of short options holding a short one (`-pv`).
fn given_any<'a>(args: &'a [String], options: &[&str]) -> Option<&'a str> {
    args.iter()
        .take_while(|a| a.as_str() != "--")
        .map(String::as_str)
        .find(|a| options.iter().any(|o| gives(a, o)))
}

/// Whether the word `arg` gives the option `option` (see [`given_any`]).
fn gives(arg: &str, option: &str) -> bool {
    if let Some(long) = option.strip_prefix("--") {
        let Some(word) = arg.strip_prefix("--") else {
            return false;
        };
        let word = word.split('=').next().unwrap_or(word);
        return word.len() >= 3 && long.starts_with(word);
    }
    let Some(letter) = option.strip_prefix('-') else {
        return false;
    };
    match arg.strip_prefix('-') {
        Some(cluster) if !cluster.starts_with('-') && !cluster.is_empty() => {
            cluster.chars().all(|c| c.is_ascii_alphanumeric()) && cluster.contains(letter)
        }
        _ => false,
    }
}
