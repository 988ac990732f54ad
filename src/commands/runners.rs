//! Programs that run code they are given: the one list every part of toolgate asks
//! ([`runs_code`]).

use super::name_set::NameSet;
use super::option_words::{first_giving, gives_spelt};

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

/// Interpreters' options (of [`INTERPRETERS`]) that take the next word as their value when
/// it is not attached: `python -W ignore`, `node -r ./x.js`, `perl -I lib`, `ruby -r json`,
/// `php -d x=1`, `lua -l string`. That word is neither the script nor code: an interpreter
/// given only such options reads its program from standard input ([`interpreter_input`]).
/// A short one also ends a cluster (`python -uW ignore`); attached, it takes the rest of its
/// word (`-Wignore`). The list reads widely: a word taken for a value where the interpreter
/// reads a script only makes the call stop.
const INTERPRETER_OPTIONS_WITH_VALUE: &[(&str, &[&str])] = &[
    ("python", &["-W", "-X", "--check-hash-based-pycs"]),
    ("node", NODE_OPTIONS_WITH_VALUE),
    ("nodejs", NODE_OPTIONS_WITH_VALUE),
    (
        "bun",
        &[
            "-r",
            "--preload",
            "--require",
            "--import",
            "--cwd",
            "--config",
            "--env-file",
            "--conditions",
            "--tsconfig-override",
            "-d",
            "--define",
            "-l",
            "--loader",
        ],
    ),
    ("perl", &["-I", "-M", "-m"]),
    (
        "ruby",
        &[
            "-I",
            "-r",
            "-C",
            "-E",
            "--encoding",
            "--external-encoding",
            "--internal-encoding",
            "--enable",
            "--disable",
        ],
    ),
    ("php", &["-d", "-c", "-z"]),
    ("lua", &["-l"]),
    ("luajit", &["-l", "-j"]),
    ("osascript", &["-l", "-s"]),
];

/// Node's options that take the next word as their value (Node reads `--opt value` as
/// `--opt=value` for every option with a value).
const NODE_OPTIONS_WITH_VALUE: &[&str] = &[
    "-r",
    "--require",
    "--import",
    "--loader",
    "--experimental-loader",
    "--title",
    "-C",
    "--conditions",
    "--env-file",
    "--env-file-if-exists",
    "--input-type",
    "--experimental-default-type",
    "--inspect-port",
    "--debug-port",
    "--redirect-warnings",
    "--disable-warning",
    "--watch-path",
    "--stack-trace-limit",
    "--unhandled-rejections",
    "--dns-result-order",
    "--openssl-config",
    "--icu-data-dir",
    "--diagnostic-dir",
    "--report-dir",
    "--report-directory",
    "--report-filename",
    "--report-signal",
    "--cpu-prof-dir",
    "--cpu-prof-name",
    "--heap-prof-dir",
    "--heap-prof-name",
    "--secure-heap",
    "--secure-heap-min",
    "--localstorage-file",
    "--test-reporter",
    "--test-reporter-destination",
    "--test-name-pattern",
    "--test-skip-pattern",
    "--experimental-config-file",
    "--snapshot-blob",
];

/// Where an interpreter given some words takes its program from ([`interpreter_input`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum InterpreterInput<'a> {
    /// Code given inline with an option of [`INTERPRETERS`] (`python -c CODE`).
    Inline(&'a str),
    /// A script file (or what stands for one: a URL, `/dev/tty`).
    Script(&'a str),
    /// Standard input: no script, `-`, or an inline option without its code.
    Input,
}

/// Where the interpreter `name` given `args` takes its program from: the code of its first
/// inline option ([`INTERPRETERS`]), else its first operand, the words its options take as
/// values passed over ([`INTERPRETER_OPTIONS_WITH_VALUE`]) and `--` ending its options;
/// standard input when there is none, or it is `-`. Inline options are matched exactly
/// (PowerShell's in any case), so `ruby -E utf-8` is no `-e`.
///
/// ```text
/// interpreter_input("python3", "-W ignore") == Input
/// interpreter_input("node", "-r ./x.js app.js") == Script("app.js")
/// interpreter_input("perl", "-I lib -e 1") == Inline("1")
/// interpreter_input("python3", "-- x.py") == Script("x.py")
/// ```
pub(crate) fn interpreter_input<'a>(name: &str, args: &'a [String]) -> InterpreterInput<'a> {
    let Some((base, inline)) = interpreter_base(name) else {
        return InterpreterInput::Input;
    };
    let any_case = matches!(*base, "pwsh" | "powershell");
    let is_inline = |w: &str| {
        inline
            .iter()
            .any(|o| *o == w || (any_case && o.eq_ignore_ascii_case(w)))
    };
    let mut words = args.iter().map(String::as_str);
    while let Some(word) = words.next() {
        if is_inline(word) {
            return match words.next() {
                None | Some("-") => InterpreterInput::Input,
                Some(code) => InterpreterInput::Inline(code),
            };
        }
        if word == "--" {
            break;
        }
        if word == "-" {
            return InterpreterInput::Input;
        }
        if !word.starts_with('-') {
            return InterpreterInput::Script(word);
        }
        if takes_next_word(base, word) {
            words.next();
        }
    }
    words.next().map_or(InterpreterInput::Input, |w| match w {
        "-" => InterpreterInput::Input,
        script => InterpreterInput::Script(script),
    })
}

/// Whether the option word `word` of the interpreter `base` takes the next word as its value
/// ([`INTERPRETER_OPTIONS_WITH_VALUE`]): the option itself, or a cluster of short options
/// whose first one with a value closes it (`-uW`).
fn takes_next_word(base: &str, word: &str) -> bool {
    let options = INTERPRETER_OPTIONS_WITH_VALUE
        .iter()
        .find(|(n, _)| *n == base)
        .map_or(&[][..], |(_, o)| *o);
    if options.contains(&word) {
        return true;
    }
    let Some(cluster) = word.strip_prefix('-').filter(|c| !c.starts_with('-')) else {
        return false;
    };
    let short = |c: char| options.contains(&format!("-{c}").as_str());
    cluster
        .char_indices()
        .find(|(_, c)| short(*c))
        .is_some_and(|(at, c)| at + c.len_utf8() == cluster.len())
}

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
/// known to run no program and to load nothing: every other key asks (`linker`, `link-arg`,
/// `link-args`, `llvm-args`, `dlltool`, `linker-flavor`, `link-self-contained`, `ar`,
/// `passes`, `profile-use`, and keys this list does not know yet). rustc reads `_` in a key
/// as `-` (`link_arg` is `link-arg`), so a key is looked up with its `_` read as `-`.
/// `linker-plugin-lto` is safe only as a yes or no ([`RUSTC_SWITCH_VALUES`]): given a path,
/// it names a plugin the linker loads. `incremental=DIR` writes below DIR, which the shell
/// analysis judges as a write of a program whose writes are not known.
const RUSTC_SAFE_CODEGEN: &[&str] = &[
    "code-model",
    "codegen-units",
    "collapse-macro-debuginfo",
    "control-flow-guard",
    "debug-assertions",
    "debuginfo",
    "default-linker-libraries",
    "dwarf-version",
    "embed-bitcode",
    "force-frame-pointers",
    "force-unwind-tables",
    "help",
    "incremental",
    "inline-threshold",
    "instrument-coverage",
    "jump-tables",
    "link-dead-code",
    "lto",
    "metadata",
    "no-prepopulate-passes",
    "no-redzone",
    "no-stack-check",
    "no-vectorize-loops",
    "no-vectorize-slp",
    "opt-level",
    "overflow-checks",
    "panic",
    "prefer-dynamic",
    "relocation-model",
    "relro-level",
    "remark",
    "rpath",
    "save-temps",
    "soft-float",
    "split-debuginfo",
    "strip",
    "symbol-mangling-version",
    "target-cpu",
    "target-feature",
    "unsafe-allow-abi-mismatch",
];

/// The values of a rustc yes-or-no setting (`-C linker-plugin-lto=no`); none is a path.
const RUSTC_SWITCH_VALUES: &[&str] = &["y", "yes", "on", "true", "n", "no", "off", "false"];

/// The kinds of rustc's `-L KIND=DIR` that find only native libraries for the linker, never
/// a crate: every other `-L` (`-L DIR`, `-L dependency=DIR`, `-L crate=DIR`) is where the
/// source's `extern crate` and `--extern NAME` find crates, procedural macros among them.
const RUSTC_NATIVE_SEARCH_KINDS: &[&str] = &["native", "framework"];

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

/// Single-dash options of the compiler drivers (GCC, Clang: [`compiler_driver`]) known to run
/// nothing, load nothing and pass no options on, each the whole word (some take the next word
/// as their value: `-u SYM`, `-z now`, `-target T`). Every single-dash option that neither
/// this list, [`COMPILER_SAFE_OPTION_PREFIXES`] nor the switch families of
/// [`compiler_switch_known_safe`] holds asks: `-B DIR`, `-wrapper CMD`, `-specs=F`,
/// `-Xlinker`, `-Xarch_x86_64 OPT` and the like run a program, load one, or hand options to
/// one.
const COMPILER_SAFE_OPTIONS: &[&str] = &[
    "-c",
    "-S",
    "-E",
    "-v",
    "-w",
    "-s",
    "-P",
    "-C",
    "-CC",
    "-H",
    "-p",
    "-pg",
    "-Q",
    "-r",
    "-###",
    "-pipe",
    "-pie",
    "-no-pie",
    "-rdynamic",
    "-shared",
    "-symbolic",
    "-ansi",
    "-undef",
    "-trigraphs",
    "-nostartfiles",
    "-nodefaultlibs",
    "-nolibc",
    "-time",
    "-emit-llvm",
    "-u",
    "-z",
    "-target",
    "-dD",
    "-dM",
    "-dN",
    "-dI",
    "-dU",
];

/// Families of single-dash options of the compiler drivers known safe, each the start of its
/// word, the value attached or the next word: optimisation, macros, search directories,
/// libraries, the output and the language, dependency files, linker scripts, the standard,
/// static and shared linking, files to include, what to print.
const COMPILER_SAFE_OPTION_PREFIXES: &[&str] = &[
    "-O",
    "-D",
    "-U",
    "-I",
    "-L",
    "-l",
    "-o",
    "-x",
    "-M",
    "-T",
    "-std=",
    "-stdlib=",
    "-rtlib=",
    "-unwindlib=",
    "-static",
    "-shared-",
    "-nostdinc",
    "-nostdlib",
    "-pthread",
    "-pedantic",
    "-traditional",
    "-print-",
    "-save-temps",
    "-dump",
    "-include",
    "-imacros",
    "-iquote",
    "-isystem",
    "-idirafter",
    "-isysroot",
    "-iprefix",
    "-iwithprefix",
    "-imultilib",
];

/// `-f` options given a value (`-fvisibility=hidden`) known to name no program, plugin, file
/// or options: every other `-fNAME=VALUE` asks, as `-fplugin=P.so`, `-fpass-plugin=P.so`,
/// `-fuse-ld=PROG`, `-fmodule-mapper=|PROG` (a program GCC starts), `-fcompare-debug=OPTS`
/// and `-foffload-options=OPTS` (options the driver obeys, `-B` and `-wrapper` among them)
/// do. An `-f` switch without a value names nothing ([`compiler_switch_known_safe`]).
const COMPILER_SAFE_VALUED_F_OPTIONS: &[&str] = &[
    "-fvisibility",
    "-fsanitize",
    "-fno-sanitize",
    "-fsanitize-recover",
    "-fno-sanitize-recover",
    "-fsanitize-trap",
    "-fno-sanitize-trap",
    "-fsanitize-address-use-after-return",
    "-fsanitize-memory-track-origins",
    "-fsanitize-coverage",
    "-fdiagnostics-color",
    "-fdiagnostics-show-location",
    "-fdiagnostics-column-unit",
    "-fdiagnostics-path-format",
    "-fdiagnostics-urls",
    "-fmessage-length",
    "-fmax-errors",
    "-ferror-limit",
    "-ftemplate-depth",
    "-fconstexpr-depth",
    "-fconstexpr-steps",
    "-fconstexpr-ops-limit",
    "-fconstexpr-loop-limit",
    "-fabi-version",
    "-fstack-check",
    "-fcf-protection",
    "-ffp-contract",
    "-fexcess-precision",
    "-ffp-model",
    "-ffp-exception-behavior",
    "-fdenormal-fp-math",
    "-fdebug-prefix-map",
    "-fmacro-prefix-map",
    "-ffile-prefix-map",
    "-finput-charset",
    "-fexec-charset",
    "-fwide-exec-charset",
    "-flto",
    "-flto-partition",
    "-flto-compression-level",
    "-fzero-call-used-regs",
    "-ftrivial-auto-var-init",
    "-fstrict-flex-arrays",
    "-fpatchable-function-entry",
    "-ftls-model",
    "-fprofile-update",
    "-frandom-seed",
    "-ftabstop",
    "-falign-functions",
    "-falign-loops",
    "-falign-jumps",
    "-falign-labels",
    "-finline-limit",
    "-fopenmp",
];

/// The compiler drivers' options whose value is the next word when not attached and names
/// what is written (`-o -` writes to standard output): such a value is no source.
const COMPILER_OUTPUT_OPTIONS: &[&str] = &["-o", "-MF", "-MT", "-MQ", "--out-dir"];

/// Options of [`COMPILER_SAFE_OPTIONS`] and [`COMPILER_SAFE_OPTION_PREFIXES`] that take the
/// next word as their value when written alone (`-I dir`, `-include x.h`): that word is no
/// source file.
const COMPILER_OPTIONS_WITH_VALUE: &[&str] = &[
    "-o",
    "-x",
    "-I",
    "-D",
    "-U",
    "-L",
    "-l",
    "-T",
    "-MF",
    "-MT",
    "-MQ",
    "-include",
    "-imacros",
    "-iquote",
    "-isystem",
    "-idirafter",
    "-isysroot",
    "-iprefix",
    "-iwithprefix",
    "-iwithprefixbefore",
    "-imultilib",
    "-dumpdir",
    "-dumpbase",
    "-dumpbase-ext",
    "-u",
    "-z",
    "-target",
];

/// rustc's options whose value is the next word when not attached (`--emit asm`,
/// `--crate-name x`): that word is no source file.
const RUSTC_OPTIONS_WITH_VALUE: &[&str] = &[
    "--emit",
    "--crate-type",
    "--crate-name",
    "--edition",
    "--cfg",
    "--check-cfg",
    "--print",
    "--target",
    "--explain",
    "--cap-lints",
    "--error-format",
    "--json",
    "--color",
    "--remap-path-prefix",
    "--sysroot",
    "--extern",
    "-C",
    "-L",
    "-A",
    "-W",
    "-D",
    "-F",
    "-Z",
];

/// The operands of a compiler driver or rustc given `words` (the program first): the words
/// after it that are neither an option nor the next-word value of one (`-o app`, `-I inc`,
/// rustc's `--emit asm`), that is its sources and inputs, as written.
///
/// ```text
/// compiler_operands("gcc -O2 -o app -I inc main.c util.c") == ["main.c", "util.c"]
/// compiler_operands("rustc --emit asm --crate-name m x.rs") == ["x.rs"]
/// ```
pub(crate) fn compiler_operands(words: &[String]) -> Vec<&str> {
    let rust = words.first().is_some_and(|p| is_tool(p, "rustc"));
    let takes_value = |o: &str| {
        COMPILER_OUTPUT_OPTIONS.contains(&o)
            || if rust {
                RUSTC_OPTIONS_WITH_VALUE.contains(&o)
            } else {
                COMPILER_OPTIONS_WITH_VALUE.contains(&o)
            }
    };
    let mut operands = Vec::new();
    let mut value_next = false;
    for w in words.iter().skip(1) {
        if std::mem::take(&mut value_next) {
            continue;
        }
        if w.starts_with('-') && w != "-" {
            value_next = takes_value(w);
        } else {
            operands.push(w.as_str());
        }
    }
    operands
}

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
    let tool = unversioned_tool_as_written(name);
    COMPILER_DRIVERS
        .iter()
        .find(|d| d.eq_ignore_ascii_case(tool))
        .map(|d| (*d).to_owned())
}

/// A program's name without its directory, a version suffix and a target prefix, in lower
/// case (`x86_64-linux-gnu-gcc-12` → `gcc`, `ld.lld-15` → `ld.lld`).
pub(crate) fn unversioned_tool(name: &str) -> String {
    unversioned_tool_as_written(name).to_ascii_lowercase()
}

/// [`unversioned_tool`] in the case `name` is written in.
fn unversioned_tool_as_written(name: &str) -> &str {
    let name = crate::commands::program_name(name);
    let unversioned = match name.rsplit_once('-') {
        Some((base, version)) if version.chars().all(|c| c.is_ascii_digit() || c == '.') => base,
        _ => name,
    };
    unversioned.rsplit('-').next().unwrap_or(unversioned)
}

/// Whether `name` is the tool `tool` (lower case) once [`unversioned_tool`] reads it.
pub(crate) fn is_tool(name: &str, tool: &str) -> bool {
    unversioned_tool_as_written(name).eq_ignore_ascii_case(tool)
}

/// Subcommands of programs outside the program table that run a command they are given:
/// `npm exec -c CMD`, `npm x PKG`, `npm explore PKG -- CMD`.
const RUNNING_SUBCOMMANDS: &[(&str, &[&str])] = &[
    ("npm", &["exec", "x", "explore"]),
    ("pnpm", &["exec", "dlx", "x"]),
    ("yarn", &["exec", "dlx"]),
    ("bun", &["x"]),
    // Python's project and tool managers: `uv run CMD`, `uv tool run PKG`, `pipx run PKG`,
    // `pipenv run CMD`, `poetry run CMD`, and the same in pdm, rye, hatch, pixi and conda.
    ("uv", &["run", "tool run", "tool uvx"]),
    ("pipx", &["run"]),
    ("pipenv", &["run"]),
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
/// assert!(runs_by_option(&words("rustc -C link_arg=-fuse-ld=/tmp/ld x.rs")).is_some());
/// assert!(runs_by_option(&words("rustc --extern m=libm.so x.rs")).is_some());
/// assert!(runs_by_option(&words("gcc -fcompare-debug=-B/tmp/evil/ -c x.c")).is_some());
/// assert!(runs_by_option(&words("gcc -fPIC -fvisibility=hidden -c x.c")).is_none());
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

/// Why the compiler driver `driver` given `args` may run a program it is told of: an option
/// not known to be safe ([`compiler_option_known_safe`]). A word `-` is a source (standard
/// input), not an option.
fn compiler_runs(driver: &str, args: &[String]) -> Option<String> {
    let option = args
        .iter()
        .find(|w| w.starts_with('-') && w.as_str() != "-" && !compiler_option_known_safe(w))?;
    Some(format!(
        "`{driver}` is given `{option}`, an option not known to run nothing: it may run a \
         program, load a plugin, or pass options on to one"
    ))
}

/// Whether the compiler driver's option `word` is known to run nothing, load nothing and pass
/// no options on: a long option of [`COMPILER_SAFE_LONG_OPTIONS`], a single-dash option of
/// [`COMPILER_SAFE_OPTIONS`] or [`COMPILER_SAFE_OPTION_PREFIXES`], or a switch of a family
/// known safe ([`compiler_switch_known_safe`]).
fn compiler_option_known_safe(word: &str) -> bool {
    if word.starts_with("--") {
        let name = word.split_once('=').map_or(word, |(n, _)| n);
        return COMPILER_SAFE_LONG_OPTIONS.contains(&name);
    }
    COMPILER_SAFE_OPTIONS.contains(&word)
        || COMPILER_SAFE_OPTION_PREFIXES
            .iter()
            .any(|p| word.starts_with(p))
        || compiler_switch_known_safe(word)
}

/// Whether `word` is a safe member of a family of switches: `-f` (features) without a value,
/// or with a value of [`COMPILER_SAFE_VALUED_F_OPTIONS`]; `-m` (the machine) but `-mllvm`
/// (options for LLVM, plugins among them) and a value naming a file; `-W` (warnings) but the
/// pass-ons with a comma (`-Wl,`, `-Wa,`, `-Wp,`: options for the linker, the assembler, the
/// preprocessor); `-g` (debug information) but Clang's `-gcc-toolchain` (the directory of the
/// tools it runs).
fn compiler_switch_known_safe(word: &str) -> bool {
    let (name, value) = word
        .split_once('=')
        .map_or((word, None), |(n, v)| (n, Some(v)));
    if word.starts_with("-f") {
        value.is_none() || COMPILER_SAFE_VALUED_F_OPTIONS.contains(&name)
    } else if word.starts_with("-m") {
        name != "-mllvm" && !value.is_some_and(|v| v.contains(['/', '\\']))
    } else if word.starts_with("-W") {
        !word.contains(',')
    } else if word.starts_with("-g") {
        !word.starts_with("-gcc-")
    } else {
        false
    }
}

/// The word naming the source a compiler driver or rustc (rustdoc) given `words` reads from
/// standard input or another open descriptor: a word `-` or a descriptor's path
/// (`is_descriptor`: `/dev/stdin`, `/proc/self/fd/0`, a link to one), also attached to an
/// option that reads a file ([`reads_through_descriptor`]: `-include/dev/stdin`), that is not
/// an output's name (`-o -`), or `-` for `cpp` given no source, which reads standard input
/// then. Such a source is not on the line, and it names the files the compiler reads
/// (`#include ".env"`, `.incbin`, `include_str!`).
///
/// ```text
/// source_from_input("gcc -E -x c -") == Some("-")
/// source_from_input("rustc /dev/stdin") == Some("/dev/stdin")
/// source_from_input("cpp -P") == Some("-")
/// source_from_input("gcc -E -includemf x.c") == Some("-includemf")   (mf a link to /dev/stdin)
/// source_from_input("gcc -E -o - x.c") == None
/// ```
pub(crate) fn source_from_input(
    words: &[String],
    is_descriptor: impl Fn(&str) -> bool,
) -> Option<String> {
    let driver = compiler_driver(words.first()?);
    let rust = matches!(
        unversioned_tool(words.first()?).as_str(),
        "rustc" | "rustdoc"
    );
    if driver.is_none() && !rust {
        return None;
    }
    let args = words.get(1..).unwrap_or_default();
    let mut operands = 0;
    for (i, w) in args.iter().enumerate() {
        let value_of = i
            .checked_sub(1)
            .and_then(|p| args.get(p))
            .map(String::as_str);
        if value_of.is_some_and(|o| COMPILER_OUTPUT_OPTIONS.contains(&o)) {
            continue;
        }
        if w == "-" || reads_through_descriptor(w, &is_descriptor) {
            return Some(w.clone());
        }
        let option_value = value_of.is_some_and(|o| COMPILER_OPTIONS_WITH_VALUE.contains(&o));
        if !w.starts_with('-') && !option_value {
            operands += 1;
        }
    }
    let only_prints = args.iter().any(|w| {
        matches!(
            w.as_str(),
            "--version" | "--help" | "-dumpversion" | "-dumpfullversion" | "-dumpmachine"
        ) || w.starts_with("-print-")
    });
    (driver.as_deref() == Some("cpp") && operands == 0 && !only_prints).then(|| "-".to_owned())
}

/// Whether the compiler's word `w` names a descriptor it reads: the word, or a value it
/// carries attached (`-includeFILE`, `-imacrosFILE`, `@FILE`, any piece
/// [`crate::commands::danger::file_candidates`] reads as a file), that `is_descriptor` says is
/// one. The value of an option naming an output (`-o/dev/stdout`, `-MF-`) is written, not
/// read.
fn reads_through_descriptor(w: &str, is_descriptor: impl Fn(&str) -> bool) -> bool {
    let names_output = COMPILER_OUTPUT_OPTIONS
        .iter()
        .any(|o| w.starts_with(o) && !o.starts_with("--"));
    !names_output
        && crate::commands::danger::file_candidates(w)
            .into_iter()
            .any(|c| (c == "-" && c != w) || is_descriptor(c))
}

/// Why rustc or rustdoc, or `cargo rustc`/`cargo rustdoc` with the words after `--`, runs or
/// loads code it is told of ([`rustc_option_runs`]).
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
    args.iter().enumerate().find_map(|(i, w)| {
        let next = args.get(i + 1).map(String::as_str);
        let why = rustc_option_runs(w, next)?;
        Some(format!("`{name}` is given `{w}`, {why}"))
    })
}

/// What rustc's option `w` (its value attached, or the next word `next`) runs or loads, if it
/// runs or loads anything: `-Z` (unstable settings, code generation backends among them), a
/// code generation setting not known safe ([`rustc_codegen_known_safe`]), `--extern` (a
/// crate it loads: a procedural macro runs inside the compiler), `-L` for crates
/// ([`RUSTC_NATIVE_SEARCH_KINDS`]: where `extern crate` finds such macros), `--sysroot` (the
/// toolchain whose linker it runs and whose crates it loads) and `--target` naming a target
/// file (which names the linker).
fn rustc_option_runs(w: &str, next: Option<&str>) -> Option<&'static str> {
    if w.starts_with("-Z") {
        return Some("which turns on unstable settings, code it loads among them");
    }
    if let Some(setting) = rustc_value(w, next, Some("-C"), Some("--codegen")) {
        return (!setting.is_some_and(rustc_codegen_known_safe)).then_some(
            "a code generation setting not known to run nothing (a linker, its options, a plugin)",
        );
    }
    if rustc_value(w, next, None, Some("--extern")).is_some() {
        return Some("which loads a crate: a procedural macro runs inside the compiler");
    }
    if let Some(dir) = rustc_value(w, next, Some("-L"), None) {
        let kind = dir.and_then(|d| d.split_once('=')).map(|(k, _)| k);
        return (!kind.is_some_and(|k| RUSTC_NATIVE_SEARCH_KINDS.contains(&k))).then_some(
            "where the source's crates are found: a procedural macro among them runs inside \
             the compiler",
        );
    }
    if rustc_value(w, next, None, Some("--sysroot")).is_some() {
        return Some("the toolchain whose linker it runs and whose crates it loads");
    }
    let target = rustc_value(w, next, None, Some("--target")).flatten()?;
    let file = target.contains(['/', '\\']) || target.to_ascii_lowercase().ends_with(".json");
    file.then_some("a target file, which names the linker it runs")
}

/// The value of rustc's option written `short` (`-C`) or `long` (`--codegen`) if `w` is that
/// option: attached (`-Copt-level=3`, `--codegen=opt-level=3`) or the next word (`next`,
/// `None` at the end of the line).
fn rustc_value<'w>(
    w: &'w str,
    next: Option<&'w str>,
    short: Option<&str>,
    long: Option<&str>,
) -> Option<Option<&'w str>> {
    if short == Some(w) || long == Some(w) {
        return Some(next);
    }
    let attached = short
        .and_then(|s| w.strip_prefix(s))
        .or_else(|| long.and_then(|l| w.strip_prefix(l)?.strip_prefix('=')));
    attached.filter(|v| !v.is_empty()).map(Some)
}

/// Whether rustc's code generation setting `setting` (`KEY=VALUE` or `KEY`) is known to run
/// nothing: its key, with `_` read as `-`, in [`RUSTC_SAFE_CODEGEN`], or `linker-plugin-lto`
/// given no path ([`RUSTC_SWITCH_VALUES`]).
fn rustc_codegen_known_safe(setting: &str) -> bool {
    let (key, value) = setting
        .split_once('=')
        .map_or((setting, None), |(k, v)| (k, Some(v)));
    let key = key.replace('_', "-");
    match key.as_str() {
        "linker-plugin-lto" => value.is_none_or(|v| RUSTC_SWITCH_VALUES.contains(&v)),
        key => RUSTC_SAFE_CODEGEN.contains(&key),
    }
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
    let (before, after) = split_at_dash_dash(words.get(1..).unwrap_or_default());
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
    split_at_dash_dash(args).0
}

/// `args` before the first `--` and after it (empty when there is none).
fn split_at_dash_dash(args: &[String]) -> (&[String], &[String]) {
    match args.iter().position(|w| w == "--") {
        Some(end) => (
            args.get(..end).unwrap_or_default(),
            args.get(end + 1..).unwrap_or_default(),
        ),
        None => (args, &[]),
    }
}

/// Why make (`gmake`) runs what its words say: a variable set on the command line
/// ([`make_assignment`]). A makefile it reads from a descriptor is judged where links are
/// known ([`makefile_from_input`]).
fn make_runs(name: &str, words: &[String]) -> Option<String> {
    if !matches!(name, "make" | "gmake") {
        return None;
    }
    let assignment = make_assignment(words)?;
    Some(format!(
        "`{name}` is given `{assignment}`, a variable the commands it runs may use or whose \
         value it runs as a command"
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

/// The first makefile make (`gmake`) given `words` reads from standard input or another
/// open descriptor ([`reads_a_descriptor`]): `-f FILE`, `-fFILE`, in a cluster (`-pf FILE`),
/// `--file=FILE`, `--makefile FILE`, or any abbreviation of the long ones (`--fi=-`). Read
/// widely: a cluster's `f` counts even after a letter that takes the rest as its own value.
/// Such a makefile holds recipes the line itself carries (`make -f - x <<< 'x:;id'`), as
/// `--eval` does. `is_descriptor` says whether a path names a descriptor, links followed
/// (the shell analysis's `Analysis::is_descriptor`).
///
/// ```text
/// makefile_from_input("make -f - x") == Some("-")
/// makefile_from_input("make -f mf x") == Some("mf")      (mf a link to /dev/stdin)
/// makefile_from_input("make -C /dev -f stdin x") == Some("stdin")
/// makefile_from_input("make -f build.mk x") == None
/// ```
pub(crate) fn makefile_from_input(
    words: &[String],
    is_descriptor: impl Fn(&str) -> bool,
) -> Option<String> {
    let name = crate::commands::program_name(words.first()?);
    if !matches!(name, "make" | "gmake") {
        return None;
    }
    let args = option_words(name, words);
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
        reads_a_descriptor(file, &is_descriptor).then(|| file.to_owned())
    })
}

/// Whether make, reading the makefile `file`, reads standard input or another open
/// descriptor: `-`, a path `is_descriptor` says is one (`/dev/stdin`, `/proc/self/fd/0`, a
/// link to one), or one by its last name alone, as after a `-C` that moved make (`stdin` is
/// `/dev/stdin` in `/dev`, `0` is `/dev/fd/0` in `/dev/fd`).
fn reads_a_descriptor(file: &str, is_descriptor: impl Fn(&str) -> bool) -> bool {
    let last = file
        .rsplit('/')
        .find(|s| !s.is_empty() && *s != ".")
        .unwrap_or(file);
    file == "-"
        || is_descriptor(file)
        || is_descriptor(&format!("/dev/{last}"))
        || is_descriptor(&format!("/dev/fd/{last}"))
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
    "toybox",
    "fakeroot",
    // Run the command after their options: in another security context, with other
    // capabilities or memory policy, in a D-Bus session, under an X server, in a queue, on a
    // file change, or only when it fails or gives output.
    "setpriv",
    "capsh",
    "runcon",
    "numactl",
    "dbus-run-session",
    "xvfb-run",
    "catchsegv",
    "chronic",
    "ifne",
    "sem",
    "tsp",
    "entr",
    "caffeinate",
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
    // Debian's name for the pager (zsh's `$READNULLCMD` there).
    "pager",
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
/// database and network clients, calculators, editors, account tools that prompt, process
/// monitors and file managers, debuggers and the interactive shells of languages. What they
/// do is typed after they start, not written on the command line; what a network client is
/// typed goes to a service, which may be one that runs commands (a local daemon's socket).
/// (Runners that do the same, `vim`, `less`, `ed`, `gdb`, `sqlite3`, are in [`RUNNERS`];
/// shells and interpreters without a script read their standard input.) A name is found with
/// a version after it too (`ipython3`, `guile-3.0`: [`terminal_name`]).
pub const TERMINAL_PROGRAMS: &[&str] = &[
    // Database clients.
    "psql",
    "pgcli",
    "mysql",
    "mariadb",
    "mysqlsh",
    "mycli",
    "litecli",
    "duckdb",
    "usql",
    "mongo",
    "mongosh",
    "redis-cli",
    "valkey-cli",
    "cqlsh",
    "sqlcmd",
    "sqlplus",
    "isql",
    "clickhouse-client",
    "cypher-shell",
    // Network clients.
    "ftp",
    "lftp",
    "tftp",
    "telnet",
    "nc",
    "ncat",
    "netcat",
    "socat",
    "websocat",
    "wscat",
    "smbclient",
    // Calculators and mathematical systems.
    "bc",
    "dc",
    "units",
    "gnuplot",
    "octave",
    "matlab",
    "maxima",
    "gp",
    "sage",
    // Editors, and the tools that open one on a system file.
    "nano",
    "pico",
    "micro",
    "joe",
    "jed",
    "mcedit",
    "kak",
    "hx",
    "visudo",
    "vipw",
    "vigr",
    "sudoedit",
    // Account tools that prompt on the terminal.
    "passwd",
    "login",
    // Process monitors, file managers and git's terminal front ends (keys run commands).
    "mc",
    "top",
    "htop",
    "atop",
    "btop",
    "iotop",
    "nnn",
    "ranger",
    "vifm",
    "tig",
    "lazygit",
    "gitui",
    // Debuggers.
    "jdb",
    "lldb",
    "cgdb",
    "pdb",
    "ipdb",
    "pudb",
    "r2",
    "radare2",
    // The interactive shells of languages, and a wrapper that gives a program one.
    "irb",
    "pry",
    "ipython",
    "bpython",
    "ptpython",
    "ptipython",
    "jupyter-console",
    "xonsh",
    "jshell",
    "ghci",
    "iex",
    "erl",
    "R",
    "julia",
    "scala",
    "amm",
    "clj",
    "clojure",
    "racket",
    "guile",
    "sbcl",
    "clisp",
    "ecl",
    "ocaml",
    "utop",
    "swipl",
    "gforth",
    "wish",
    "groovysh",
    "csharp",
    "csi",
    "fsi",
    "fsharpi",
    "psysh",
    "evcxr",
    "chez",
    "scheme",
    "spark-shell",
    "pyspark",
    "rlwrap",
];

/// Programs that read commands from their terminal when given no operand: `openssl` (its
/// `OpenSSL>` prompt), `sbt` (its shell), the REPLs of compilers and script runners. An
/// operand is a word that is not an option and does not follow an option word that may
/// take it as its value (`sbt -mem 2048` has none).
const TERMINAL_WITHOUT_OPERANDS: &[&str] = &[
    "openssl", "sbt", "kotlinc", "kotlin", "swift", "ts-node", "tsx", "virsh", "nslookup",
];

/// Subcommands that start an interactive shell, a debugger or an editor on the terminal:
/// `(program, subcommands)`, a subcommand of two words written with a space
/// (`python manage.py shell`). Any operand may be the subcommand, as options before it may
/// take values.
const TERMINAL_SUBCOMMANDS: &[(&str, &[&str])] = &[
    ("node", &["inspect", "debug"]),
    ("nodejs", &["inspect", "debug"]),
    ("bun", &["repl"]),
    ("deno", &["repl"]),
    ("rails", &["c", "console", "db", "dbconsole"]),
    (
        "python",
        &[
            "manage.py shell",
            "manage.py dbshell",
            "manage.py shell_plus",
        ],
    ),
    ("manage.py", &["shell", "dbshell", "shell_plus"]),
    ("django-admin", &["shell", "dbshell"]),
    ("django", &["shell", "dbshell"]),
    ("flask", &["shell"]),
    ("php", &["artisan tinker"]),
    ("artisan", &["tinker"]),
    ("dotnet", &["fsi"]),
    ("mono", &["csharp"]),
    ("lein", &["repl"]),
    ("sbt", &["console", "consoleQuick", "consoleProject"]),
    ("scala-cli", &["repl"]),
    ("stack", &["ghci", "repl"]),
    ("cabal", &["repl", "v1-repl", "v2-repl", "new-repl"]),
    ("rebar3", &["shell"]),
    ("dune", &["utop"]),
    ("nix", &["repl"]),
    ("guix", &["repl"]),
    ("swift", &["repl"]),
    ("pipenv", &["shell"]),
    ("poetry", &["shell"]),
    ("hatch", &["shell"]),
    ("openssl", &["s_client", "s_server"]),
    ("systemctl", &["edit"]),
];

/// Python modules that, run with `python -m`, read code, debugger commands or keys from the
/// terminal: the REPLs (`code`, `asyncio`, `_pyrepl`), the debuggers, the SQLite shell, IDLE,
/// `pydoc` (its pager runs commands), and the interactive shells installed as modules. A
/// module named as a program is found too (`python -m IPython`, `python -m django shell`:
/// [`TERMINAL_PROGRAMS`], [`TERMINAL_SUBCOMMANDS`]).
const PYTHON_TERMINAL_MODULES: &[&str] = &[
    "code",
    "asyncio",
    "_pyrepl",
    "pdb",
    "pdbpp",
    "ipdb",
    "pudb",
    "bpdb",
    "sqlite3",
    "idlelib",
    "pydoc",
    "telnetlib",
    "jupyter",
    "jupyter_console",
];

/// Interpreters' options that leave them reading code from their terminal (after the
/// script, if any): `python -i`, `node -i`, `php -a`, `lua -i`, and Perl's debugger
/// (`perl -d`). (`perl -i` and `ruby -i` edit files in place.)
const INTERACTIVE_OPTIONS: &[(&str, &[&str])] = &[
    ("python", &["-i"]),
    ("node", &["-i", "--interactive"]),
    ("nodejs", &["-i", "--interactive"]),
    ("bun", &["-i", "--interactive"]),
    ("php", &["-a", "--interactive"]),
    ("lua", &["-i"]),
    ("luajit", &["-i"]),
    ("perl", &["-d"]),
];

/// git's subcommands and the options with which they read choices, or an editor's
/// keystrokes, from the terminal: `git add -p`, `git rebase -i`, `git commit -e`,
/// `git rebase --continue` and `--skip` (which go on with the sequence, opening the editor
/// for a commit it stops at or rewords).
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
    (
        "rebase",
        &["-i", "--interactive", "--edit-todo", "--continue", "--skip"],
    ),
    ("clean", &["-i", "--interactive"]),
    ("am", &["-i", "--interactive"]),
    ("merge", &["-e", "--edit"]),
    ("revert", &["-e", "--edit"]),
    ("cherry-pick", &["-e", "--edit", "--continue", "--skip"]),
    ("tag", &["-e", "--edit"]),
    ("notes", &["-e", "--edit"]),
    ("config", &["-e", "--edit"]),
    ("branch", &["--edit-description"]),
    ("replace", &["-e", "--edit"]),
    ("send-email", &["--compose", "--annotate"]),
];

/// git's subcommands that open the editor for a message unless they are given one:
/// `(subcommand, what makes it write a message (none: it always may), what gives the
/// message or keeps the editor closed)`. What makes it write one is an option, or an
/// operand naming the mode (`git notes add`). `git merge` and `git pull` open it for a merge
/// commit when their input and output are a terminal; `git tag` for an annotated or signed
/// tag. An option that keeps the editor closed is read narrowly ([`closes_editor`]); git's
/// configuration and environment (`core.editor`, `GIT_EDITOR`) are not read: the editor
/// they name may be anything.
const GIT_EDITOR_SUBCOMMANDS: &[(&str, &[&str], &[&str])] = &[
    (
        "commit",
        &[],
        &[
            "-m",
            "--message",
            "-F",
            "--file",
            "-C",
            "--reuse-message",
            "--no-edit",
        ],
    ),
    (
        "merge",
        &[],
        &[
            "-m",
            "--message",
            "-F",
            "--file",
            "--no-edit",
            "--no-commit",
            "--squash",
            "--ff-only",
            "--abort",
            "--quit",
        ],
    ),
    (
        "pull",
        &[],
        &["--no-edit", "--no-commit", "--squash", "--ff-only"],
    ),
    (
        "revert",
        &[],
        &["--no-edit", "-n", "--no-commit", "--abort", "--quit"],
    ),
    (
        "tag",
        &["-a", "--annotate", "-s", "--sign", "-u", "--local-user"],
        &["-m", "--message", "-F", "--file"],
    ),
    (
        "notes",
        &["add", "append", "edit"],
        &["-m", "--message", "-F", "--file", "-C", "--reuse-message"],
    ),
];

/// Options of the subcommands of [`GIT_EDITOR_SUBCOMMANDS`] known to take no value: a word
/// after one of them is read as written. After any other option word a message option may be
/// that option's value (`git commit --template -m`), so it keeps no editor closed.
const GIT_SWITCHES: &[&str] = &[
    "-a",
    "--all",
    "-q",
    "--quiet",
    "-v",
    "--verbose",
    "-n",
    "--no-verify",
    "--amend",
    "--allow-empty",
    "--allow-empty-message",
    "--reset-author",
    "--signoff",
    "--no-gpg-sign",
    "--no-ff",
    "--ff",
    "--ff-only",
    "--no-commit",
    "--squash",
    "--no-edit",
    "--stat",
    "--no-stat",
    "--autostash",
    "--no-autostash",
    "-i",
    "--include",
    "-o",
    "--only",
    "--dry-run",
    "-f",
    "--force",
    "--annotate",
    "--sign",
    "--no-sign",
];

/// Short options that take no value in one subcommand of [`GIT_EDITOR_SUBCOMMANDS`] but do
/// in another (`-s` signs off a commit, picks a strategy for `merge`): a switch only here.
const GIT_SUBCOMMAND_SWITCHES: &[(&str, &[&str])] = &[
    ("commit", &["-s", "-S"]),
    ("revert", &["-s", "-S"]),
    ("tag", &["-s"]),
];

/// Switches that may stand before a message option in one word (`git commit -am MSG`,
/// `-qm`): all, quiet, verbose.
const GIT_SWITCHES_BEFORE_A_MESSAGE: &[char] = &['a', 'q', 'v'];

/// `name` without a version after it, for the lists of this module: `ipython3` → `ipython`,
/// `guile-3.0` → `guile`, `python3.12` → `python`.
pub(crate) fn terminal_name(name: &str) -> &str {
    name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '-')
}

/// [`TERMINAL_PROGRAMS`] and [`TERMINAL_WITHOUT_OPERANDS`], looked up without a scan.
static TERMINAL_PROGRAM_SET: NameSet = NameSet::new(TERMINAL_PROGRAMS);
static TERMINAL_WITHOUT_OPERANDS_SET: NameSet = NameSet::new(TERMINAL_WITHOUT_OPERANDS);

/// Whether `set` names the program `name`, in any case and with any version after it.
fn names(set: &NameSet, name: &str) -> bool {
    set.contains(name) || set.contains(terminal_name(name))
}

/// What a command takes from its terminal once it runs, when the command knowledge says
/// it does: a program of [`TERMINAL_PROGRAMS`], one of [`TERMINAL_WITHOUT_OPERANDS`] given
/// nothing to run, a subcommand of [`TERMINAL_SUBCOMMANDS`], an interpreter given an
/// interactive option or a module of [`PYTHON_TERMINAL_MODULES`], or a git subcommand in an
/// interactive mode or one that opens the editor for a message. `name` is the program's name
/// (lowercase, without its directory); `args` the words after it. Options are read in the
/// widest way: a short option anywhere in a cluster (`-qi`), a long one by any prefix
/// (`git add --e` is `--edit`), anywhere before `--`; an option that keeps git's editor
/// closed in the narrowest.
///
/// ```
/// use toolgate::commands::reads_terminal;
/// let words = |line: &str| line.split(' ').map(str::to_owned).collect::<Vec<_>>();
/// assert!(reads_terminal("psql", &[]).is_some());
/// assert!(reads_terminal("python3", &words("-i e.py")).is_some());
/// assert!(reads_terminal("python3", &words("-m code")).is_some());
/// assert!(reads_terminal("node", &words("inspect app.js")).is_some());
/// assert!(reads_terminal("git", &words("-C sub add -p")).is_some());
/// assert!(reads_terminal("git", &words("commit --amend")).is_some());
/// assert!(reads_terminal("git", &words("commit -am fix")).is_none());
/// assert!(reads_terminal("git", &words("log -p")).is_none());
/// assert!(reads_terminal("openssl", &words("rand -hex 16")).is_none());
/// assert!(reads_terminal("perl", &words("-i -pe s/a/b/ f")).is_none());
/// assert!(reads_terminal("cat", &words("a.txt")).is_none());
/// ```
pub fn reads_terminal(name: &str, args: &[String]) -> Option<String> {
    if names(&TERMINAL_PROGRAM_SET, name) {
        return Some(format!("`{name}` takes its instructions from the terminal"));
    }
    if names(&TERMINAL_WITHOUT_OPERANDS_SET, name) && !has_operand(args) {
        return Some(format!(
            "`{name}` given nothing to run takes its instructions from the terminal"
        ));
    }
    if let Some(sub) = terminal_subcommand(name, args) {
        return Some(format!(
            "`{name} {sub}` takes its instructions from the terminal"
        ));
    }
    if name == "git" {
        return git_reads_terminal(args);
    }
    interpreter_reads_terminal(name, args)
}

/// Whether `args` hold an operand: a word that is not an option, before `--` or after it,
/// and does not follow an option word (without `=`) that may take it as its value.
fn has_operand(args: &[String]) -> bool {
    let end = args.iter().position(|w| w == "--").unwrap_or(args.len());
    if end < args.len().saturating_sub(1) {
        return true;
    }
    args.iter().take(end).enumerate().any(|(i, w)| {
        let after_option = i
            .checked_sub(1)
            .and_then(|p| args.get(p))
            .is_some_and(|p| p.starts_with('-') && !p.contains('='));
        !w.starts_with('-') && !after_option
    })
}

/// The subcommand of [`TERMINAL_SUBCOMMANDS`] that `args` give the program `name`, if any:
/// one operand, or two in a row (the first matched by its file name: `./manage.py`).
fn terminal_subcommand(name: &str, args: &[String]) -> Option<&'static str> {
    let base = terminal_name(name);
    let (_, subs) = TERMINAL_SUBCOMMANDS
        .iter()
        .find(|(p, _)| p.eq_ignore_ascii_case(name) || p.eq_ignore_ascii_case(base))?;
    let operands: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|w| !w.starts_with('-'))
        .collect();
    let same =
        |word: &str, sub: &str| crate::commands::program_name(word).eq_ignore_ascii_case(sub);
    subs.iter().copied().find(|sub| match sub.split_once(' ') {
        Some((a, b)) => operands
            .windows(2)
            .any(|p| matches!(p, [x, y] if same(x, a) && same(y, b))),
        None => operands.iter().any(|w| same(w, sub)),
    })
}

/// What an interpreter given `args` takes from its terminal: an interactive option
/// ([`INTERACTIVE_OPTIONS`]), or for Python a module that reads it (`python -m code`).
fn interpreter_reads_terminal(name: &str, args: &[String]) -> Option<String> {
    let (base, _) = interpreter_base(name)?;
    if *base == "python" {
        if let Some(how) = python_module_reads_terminal(name, args) {
            return Some(how);
        }
    }
    let options = INTERACTIVE_OPTIONS
        .iter()
        .find(|(n, _)| n == base)
        .map_or(&[][..], |(_, o)| *o);
    first_giving(args, options).map(|o| format!("`{name} {o}` reads code from the terminal"))
}

/// What `python -m MODULE` takes from its terminal: a module of
/// [`PYTHON_TERMINAL_MODULES`] (its top package: `idlelib.idle` is `idlelib`), or a module
/// named as a program that reads it (`python -m IPython`, `python -m django shell`).
fn python_module_reads_terminal(name: &str, args: &[String]) -> Option<String> {
    let (module, rest) = python_module(args)?;
    module_reads_terminal(name, module, rest)
}

/// Python modules that run another module they are given as `__main__`, and the option
/// that says so: `python -m cProfile -m MODULE`, `python -m trace --module MODULE`.
const PYTHON_MODULE_RUNNERS: &[(&str, &str)] =
    &[("cProfile", "-m"), ("profile", "-m"), ("trace", "--module")];

/// What the module `module`, run by `name` with the words `rest`, takes from its terminal
/// (see [`python_module_reads_terminal`]), also through a module it runs
/// ([`PYTHON_MODULE_RUNNERS`]): every operand after the runner's option is read as that
/// module, the widest reading of which one it runs.
fn module_reads_terminal(name: &str, module: &str, rest: &[String]) -> Option<String> {
    let top = module.split('.').next().unwrap_or(module);
    if let Some(how) = runs_module_that_reads_terminal(name, top, rest) {
        return Some(how);
    }
    if PYTHON_TERMINAL_MODULES
        .iter()
        .any(|m| m.eq_ignore_ascii_case(top))
    {
        return Some(format!(
            "`{name} -m {module}` reads code or commands from the terminal"
        ));
    }
    reads_terminal(top, rest).map(|how| format!("`{name} -m {module}`: {how}"))
}

/// What a module of [`PYTHON_MODULE_RUNNERS`] named `top`, given `rest`, takes from its
/// terminal through the module its option names.
fn runs_module_that_reads_terminal(name: &str, top: &str, rest: &[String]) -> Option<String> {
    let (_, option) = PYTHON_MODULE_RUNNERS.iter().find(|(m, _)| *m == top)?;
    let words = rest.iter().take_while(|w| w.as_str() != "--");
    let at = words.clone().position(|w| gives_spelt(w, option))?;
    let after = rest.get(at + 1..).unwrap_or_default();
    after.iter().enumerate().find_map(|(i, inner)| {
        if inner.starts_with('-') {
            return None;
        }
        let inner_rest = after.get(i + 1..).unwrap_or_default();
        module_reads_terminal(name, inner, inner_rest)
            .map(|how| format!("`{name} -m {top} {option} {inner}` runs `{inner}`: {how}"))
    })
}

/// The module `python` given `args` runs and the words after it: `-m MODULE`, `-mMODULE`,
/// or `-m` closing a cluster (`-Im MODULE`). The options that take a value
/// ([`INTERPRETER_OPTIONS_WITH_VALUE`]: `-W`, `-X`, `--check-hash-based-pycs`) are passed
/// over with it; `-c`, a script or `-` end the options, as Python reads them.
pub(crate) fn python_module(args: &[String]) -> Option<(&str, &[String])> {
    let mut i = 0;
    while let Some(word) = args.get(i) {
        i += 1;
        if word.starts_with("--") {
            i += usize::from(takes_next_word("python", word));
            continue;
        }
        let cluster = word.strip_prefix('-').filter(|c| !c.is_empty())?;
        for (at, letter) in cluster.char_indices() {
            let value = cluster.get(at + letter.len_utf8()..).unwrap_or("");
            match letter {
                'm' if value.is_empty() => {
                    let module = args.get(i)?;
                    return Some((module, args.get(i + 1..).unwrap_or_default()));
                }
                'm' => return Some((value, args.get(i..).unwrap_or_default())),
                'c' => return None,
                _ if takes_next_word("python", &format!("-{letter}")) => {
                    i += usize::from(value.is_empty());
                    break;
                }
                _ => {}
            }
        }
    }
    None
}

/// What git given `args` takes from its terminal: a subcommand in an interactive mode
/// ([`GIT_INTERACTIVE_OPTIONS`]), or one that opens the editor for a message
/// ([`GIT_EDITOR_SUBCOMMANDS`]).
fn git_reads_terminal(args: &[String]) -> Option<String> {
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
    let rest = args.get(i + 1..).unwrap_or_default();
    let interactive = GIT_INTERACTIVE_OPTIONS
        .iter()
        .find(|(s, _)| s == sub)
        .and_then(|(_, options)| first_giving(rest, options))
        .or_else(|| given_interactive_value(sub, rest));
    if let Some(o) = interactive {
        return Some(format!(
            "`git {sub} {o}` reads choices or an editor's keys from the terminal"
        ));
    }
    git_opens_editor(sub, rest).then(|| {
        format!(
            "`git {sub}` opens an editor on the terminal for its message (give it one with \
             `-m` or `-F`, or `--no-edit`)"
        )
    })
}

/// git's subcommands whose option takes a value that makes them interactive, whatever
/// keeps their editor closed: `(subcommand, long option, its short form, the value's first
/// letter)`. `git pull --rebase=interactive` (or `=i`, `-ri`) edits the rebase's todo list.
const GIT_INTERACTIVE_VALUES: &[(&str, &str, char, char)] = &[("pull", "--rebase", 'r', 'i')];

/// The word of `rest` (before `--`) that gives the subcommand `sub` a value of
/// [`GIT_INTERACTIVE_VALUES`], read widely: the long option by any prefix with `=VALUE`, or
/// the short one in a cluster with its value attached (`-qri`).
fn given_interactive_value<'a>(sub: &str, rest: &'a [String]) -> Option<&'a str> {
    let (_, long, short, letter) = GIT_INTERACTIVE_VALUES.iter().find(|(s, ..)| *s == sub)?;
    let long = long.trim_start_matches('-');
    let interactive = |word: &str| {
        if let Some((name, value)) = word.strip_prefix("--").and_then(|w| w.split_once('=')) {
            return !name.is_empty() && long.starts_with(name) && value.starts_with(*letter);
        }
        word.strip_prefix('-')
            .filter(|c| !c.starts_with('-'))
            .and_then(|c| c.split_once(*short))
            .is_some_and(|(_, value)| value.starts_with(*letter))
    };
    rest.iter()
        .take_while(|w| w.as_str() != "--")
        .map(String::as_str)
        .find(|w| interactive(w))
}

/// Whether the git subcommand `sub` given `rest` opens the editor for a message
/// ([`GIT_EDITOR_SUBCOMMANDS`]): it writes one (always, or given an option or mode that
/// makes it), and no option keeps the editor closed.
fn git_opens_editor(sub: &str, rest: &[String]) -> bool {
    let Some((_, makes, closers)) = GIT_EDITOR_SUBCOMMANDS.iter().find(|(s, ..)| *s == sub) else {
        return false;
    };
    let (modes, options): (Vec<&str>, Vec<&str>) = makes.iter().partition(|m| !m.starts_with('-'));
    let writes = makes.is_empty()
        || first_giving(rest, &options).is_some()
        || rest
            .iter()
            .take_while(|w| w.as_str() != "--")
            .any(|w| modes.contains(&w.as_str()));
    writes && !closes_editor(sub, rest, closers)
}

/// Whether a word of `rest` (before `--`) gives one of `closers`, read narrowly: the option
/// itself, a long one with `=VALUE`, a short one with its value attached (`-mfix`) or after
/// the switches of [`GIT_SWITCHES_BEFORE_A_MESSAGE`] (`-am`); and only where it is no other
/// option's value: the word before it is not an option, or a switch of [`GIT_SWITCHES`] or of
/// `sub`'s [`GIT_SUBCOMMAND_SWITCHES`], or an option with its value attached.
fn closes_editor(sub: &str, rest: &[String], closers: &[&str]) -> bool {
    let own: &[&str] = GIT_SUBCOMMAND_SWITCHES
        .iter()
        .find(|(s, _)| *s == sub)
        .map_or(&[], |(_, switches)| switches);
    let switch = |p: &&str| GIT_SWITCHES.contains(p) || own.contains(p);
    let words: Vec<&str> = rest
        .iter()
        .map(String::as_str)
        .take_while(|w| *w != "--")
        .collect();
    words.iter().enumerate().any(|(i, word)| {
        let free = i
            .checked_sub(1)
            .and_then(|p| words.get(p))
            .is_none_or(|p| !p.starts_with('-') || p.contains('=') || switch(p));
        free && closers.iter().any(|c| gives_closer(word, c))
    })
}

/// Whether the word `word` gives the option `closer` (see [`closes_editor`]).
fn gives_closer(word: &str, closer: &str) -> bool {
    if word == closer {
        return true;
    }
    if closer.starts_with("--") {
        return word
            .strip_prefix(closer)
            .is_some_and(|v| v.starts_with('='));
    }
    let Some(cluster) = word.strip_prefix('-').filter(|c| !c.starts_with('-')) else {
        return false;
    };
    let letters = cluster.trim_start_matches(GIT_SWITCHES_BEFORE_A_MESSAGE);
    let takes_value = matches!(closer, "-m" | "-F" | "-C");
    letters
        .strip_prefix(closer.trim_start_matches('-'))
        .is_some_and(|value| value.is_empty() || takes_value)
}

#[cfg(test)]
mod terminal_tests {
    use super::reads_terminal;

    fn reads(line: &str) -> Option<String> {
        let words: Vec<String> = line.split(' ').map(str::to_owned).collect();
        let (name, args) = words.split_first().expect("a program");
        reads_terminal(name, args)
    }

    #[test]
    fn python_modules_that_start_a_repl_or_a_debugger_read_the_terminal() {
        for line in [
            "python3 -m code",
            "python3 -m asyncio",
            "python3 -m pdb x.py",
            "python3 -m sqlite3",
            "python3 -m idlelib",
            "python3 -m idlelib.idle",
            "python3 -m pydoc os",
            "python3 -mcode",
            "python3 -Im code",
            "python3 -W ignore -m code",
            "python3.12 -m IPython",
            "python -m ptpython",
            "python -m django shell",
            "python3 manage.py shell",
            "python3 ./app/manage.py dbshell",
        ] {
            assert!(reads(line).is_some(), "{line}");
        }
        for line in [
            "python3 -m pytest",
            "python3 -m http.server",
            "python3 -m pip install x",
            "python3 x.py -m code",
            "python3 -c pass -m code",
            "python3 manage.py migrate",
        ] {
            assert!(reads(line).is_none(), "{line}");
        }
    }

    #[test]
    fn repls_debuggers_and_clients_read_the_terminal() {
        for line in [
            "node inspect app.js",
            "bun repl",
            "perl -d x.pl",
            "perl -de1",
            "mysqlsh",
            "jdb",
            "openssl",
            "openssl s_client -connect h:443",
            "wish",
            "nc localhost 6379",
            "socat - UNIX-CONNECT:/run/docker.sock",
            "visudo",
            "vipw",
            "passwd",
            "R",
            "julia",
            "erl",
            "scala",
            "sbcl",
            "guile-3.0",
            "racket",
            "ocaml",
            "swipl",
            "pry",
            "ipython3",
            "rails c",
            "rails console",
            "php artisan tinker",
            "dotnet fsi",
            "lein repl",
            "sbt",
            "sbt -mem 2048",
            "stack ghci",
            "systemctl edit nginx",
        ] {
            assert!(reads(line).is_some(), "{line}");
        }
        for line in [
            "node app.js",
            "openssl rand -hex 16",
            "sbt compile",
            "rails generate model x",
            "php artisan migrate",
            "perl -pe s/a/b/ f",
            "systemctl status nginx",
        ] {
            assert!(reads(line).is_none(), "{line}");
        }
    }

    #[test]
    fn git_subcommands_that_open_the_editor_for_a_message_read_the_terminal() {
        for line in [
            "git commit",
            "git commit -a",
            "git commit --amend",
            "git commit -c HEAD",
            "git commit -t -m x",
            "git commit --author -m x",
            "git commit -sm x",
            "git merge -s -m x feature",
            "git -c core.editor=true commit",
            "git revert HEAD",
            "git rebase --continue",
            "git cherry-pick --continue",
            "git tag -a v1",
            "git tag -s v1",
            "git tag -a -m x -e v1",
            "git notes add",
            "git notes --ref r edit HEAD",
            "git merge feature",
            "git merge --continue",
            "git pull",
            "git pull --rebase",
            "git config --edit",
            "git branch --edit-description",
        ] {
            assert!(reads(line).is_some(), "{line}");
        }
        for line in [
            "git commit -m x",
            "git commit -am x",
            "git commit -mfix",
            "git commit --message=x",
            "git commit -a -m x",
            "git commit -i -m x",
            "git commit -s -m x",
            "git commit -S -m x",
            "git revert -s --no-edit HEAD",
            "git tag -s -m x v1",
            "git commit --amend --no-edit",
            "git commit -F msg.txt",
            "git commit -C HEAD",
            "git revert --no-edit HEAD",
            "git revert -n HEAD",
            "git tag v1",
            "git tag -a -m x v1",
            "git tag -am x v1",
            "git notes add -m x",
            "git notes list",
            "git merge --no-edit feature",
            "git merge -m x feature",
            "git merge --abort",
            "git pull --ff-only",
            "git log -p",
        ] {
            assert!(reads(line).is_none(), "{line}");
        }
    }

    #[test]
    fn git_long_options_are_read_by_any_prefix() {
        // git takes any unique prefix of a long option, however short.
        for line in [
            "git add --e",
            "git add --ed",
            "git commit -m x --e",
            "git tag -m x v2 --e",
            "git merge --no-edit --e x",
            "git clean --i",
            "git rebase --ed",
        ] {
            assert!(reads(line).is_some(), "{line}");
        }
        for line in ["git add --all", "git commit -m x --amend", "git add --"] {
            assert!(reads(line).is_none(), "{line}");
        }
    }

    #[test]
    fn an_interactive_rebase_pull_reads_the_terminal_whatever_closes_its_editor() {
        for line in [
            "git pull --no-edit --rebase=i",
            "git pull --ff-only --rebase=interactive",
            "git pull --no-edit --reb=i",
            "git pull --no-edit -ri",
            "git pull --no-edit -qri origin",
        ] {
            assert!(reads(line).is_some(), "{line}");
        }
        for line in [
            "git pull --no-edit --rebase=merges",
            "git pull --ff-only -rfalse",
            "git pull --ff-only -- --rebase=i",
        ] {
            assert!(reads(line).is_none(), "{line}");
        }
    }

    #[test]
    fn skipping_goes_on_with_the_sequence_and_may_open_the_editor() {
        for line in [
            "git rebase --skip",
            "git cherry-pick --skip",
            "git revert --skip",
        ] {
            assert!(reads(line).is_some(), "{line}");
        }
        assert!(reads("git rebase --abort").is_none());
    }

    #[test]
    fn python_modules_that_run_a_module_are_read_through_to_it() {
        for line in [
            "python3 -m cProfile -m code",
            "python3 -m cProfile -o out.prof -m asyncio",
            "python3 -m profile -m pdb x.py",
            "python3 -m trace -t --module code",
            "python3 -m trace -t --mod code",
            "python3 -m cProfile -m cProfile -m code",
        ] {
            assert!(reads(line).is_some(), "{line}");
        }
        for line in [
            "python3 -m cProfile x.py",
            "python3 -m cProfile -m pytest",
            "python3 -m trace -t x.py",
        ] {
            assert!(reads(line).is_none(), "{line}");
        }
    }
}

#[cfg(test)]
mod interpreter_input_tests {
    use super::{interpreter_input, InterpreterInput};

    fn input(line: &str) -> InterpreterInput<'static> {
        let words: Vec<String> = line.split(' ').map(str::to_owned).collect();
        let words: &'static [String] = Vec::leak(words);
        let (name, args) = words.split_first().expect("a program");
        interpreter_input(name, args)
    }

    #[test]
    fn option_values_are_neither_the_script_nor_code() {
        for line in [
            "python3 -W ignore",
            "python3 -uW ignore",
            "python3 -Wignore",
            "python3 -X dev",
            "python3 --check-hash-based-pycs always",
            "python3 --",
            "python3 -- -",
            "node -r ./x.js",
            "node --require ./x.js",
            "node --import ./x.js",
            "node --title x",
            "perl -I lib",
            "perl -M strict",
            "perl -m strict",
            "ruby -I lib",
            "ruby -r json",
            "ruby -E utf-8",
            "php -d x=1",
            "lua -l string",
            "python3 -c",
            "pwsh -Command -",
        ] {
            assert_eq!(input(line), InterpreterInput::Input, "{line}");
        }
        for (line, script) in [
            ("python3 -W ignore x.py", "x.py"),
            ("python3 -Wignore x.py", "x.py"),
            ("python3 -u x.py", "x.py"),
            ("python3 -- x.py", "x.py"),
            ("node -r ./x.js app.js", "app.js"),
            ("ruby -E utf-8 x.rb", "x.rb"),
            ("python3 /dev/tty", "/dev/tty"),
        ] {
            assert_eq!(input(line), InterpreterInput::Script(script), "{line}");
        }
        for (line, code) in [
            ("node -r ./x.js -e 1", "1"),
            ("perl -I lib -e 1", "1"),
            ("php -r 1", "1"),
            ("pwsh -command ls", "ls"),
        ] {
            assert_eq!(input(line), InterpreterInput::Inline(code), "{line}");
        }
    }
}
