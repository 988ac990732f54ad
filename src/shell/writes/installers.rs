//! Where package managers install programs the command line does not name: a global
//! prefix's `bin` (`npm link`, `npm i -g ./pkg`, `pnpm add -g`, `yarn global add`, `bun add
//! -g`), `~/.cargo/bin` (`cargo install`), `~/go/bin` (`go install`), each a directory on
//! `PATH`; a user's `~/.local/bin` and shell start-up files (`pip install --user`, `pipx`,
//! `uv tool`). Also the spellings of Python's installers: `python3 -m pip` and `pip3.11`
//! are `pip`.

use super::{part_of, program_name, Word, Writes};

/// The global prefix of a JavaScript package manager, which the line does not name (npm's
/// `prefix` setting, `PNPM_HOME`, `~/.bun`, ...): any directory, so below `/`.
fn global_prefix() -> Word {
    Word::literal("/")
}

/// The words after the program that are not options.
fn operands(words: &[Word]) -> Vec<&str> {
    words
        .iter()
        .skip(1)
        .map(|w| w.value.as_str())
        .filter(|v| !v.starts_with('-'))
        .collect()
}

/// Whether `words` asks for the global place: `-g` (also in a cluster of single-letter
/// options, as npm's option parser expands them), `--global` or any prefix of it (not
/// `--global=false`), or `--location=global` (`--location global`, `--loc=global`).
fn global(words: &[Word]) -> bool {
    let mut it = words.iter().skip(1).map(|w| w.value.as_str());
    while let Some(v) = it.next() {
        if let Some(long) = v.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            if name.is_empty() {
                return false;
            }
            if "global".starts_with(name) && value != Some("false") {
                return true;
            }
            if "location".starts_with(name) {
                let value = value.or_else(|| it.next());
                if value == Some("global") {
                    return true;
                }
            }
        } else if let Some(cluster) = v.strip_prefix('-') {
            // npm's `-L` is `--location`: `-L global`, `-L=global`, `-Lglobal`.
            if let Some(value) = cluster.strip_prefix('L') {
                let value = match value.strip_prefix('=').unwrap_or(value) {
                    "" => it.next(),
                    attached => Some(attached),
                };
                if value == Some("global") {
                    return true;
                }
                continue;
            }
            if !cluster.contains('=') && cluster.contains('g') {
                return true;
            }
        }
    }
    false
}

/// npm's commands that install, link, rebuild or remove packages: with `-g`, in the global
/// prefix.
const NPM_GLOBAL_WRITERS: &[&str] = &[
    "install",
    "install-test",
    "install-ci-test",
    "ci",
    "update",
    "rebuild",
    "link",
    "uninstall",
    "dedupe",
    "prune",
];

/// `npm link` (`ln`), and npm's installing commands with `-g`/`--global`/
/// `--location=global`, write the global prefix's `bin`: below `/`. The command is the first
/// operand npm knows (aliases and abbreviations as npm takes them); with `-g`, one npm does
/// not know counts too.
pub(super) fn npm_global_writes(words: &[Word]) -> Vec<Word> {
    let command = operands(words)
        .into_iter()
        .find_map(crate::commands::npm_command);
    let writes = match command {
        Some("link") => true,
        Some(c) => global(words) && NPM_GLOBAL_WRITERS.contains(&c),
        None => global(words),
    };
    if writes {
        vec![global_prefix()]
    } else {
        Vec::new()
    }
}

/// Commands of pnpm and bun that only read what is installed.
const LISTS: &[&str] = &[
    "ls", "list", "ll", "la", "root", "bin", "outdated", "why", "info", "view", "audit", "help",
    "pm",
];

/// `pnpm` and `bun` with `-g`/`--global` (any command but a listing), and `pnpm link`/`bun
/// link` with no package named (the current package, linked into the global place), write
/// the global `bin`: below `/`.
pub(super) fn pnpm_bun_writes(words: &[Word]) -> Writes {
    let ops = operands(words);
    let command = ops.first().copied().unwrap_or("");
    let links_this_package = matches!(command, "link" | "ln") && ops.len() == 1;
    let mut out = Writes::default();
    if links_this_package || (global(words) && !LISTS.contains(&command)) {
        out.below.push(global_prefix());
    }
    out
}

/// `yarn global add` (any `global` command but `list`, `bin`, `dir`) and `yarn link` with no
/// package named write yarn's global place: below `/`.
pub(super) fn yarn_writes(words: &[Word]) -> Writes {
    let ops = operands(words);
    let writes = match ops.as_slice() {
        ["global", sub, ..] => !matches!(*sub, "list" | "ls" | "bin" | "dir"),
        ["global"] => false,
        ["link"] => true,
        _ => false,
    };
    let mut out = Writes::default();
    if writes {
        out.below.push(global_prefix());
    }
    out
}

/// cargo's options before the subcommand that take the next word as their value.
pub(crate) const CARGO_GLOBAL_VALUES: &[&str] = &["--color", "--config", "-Z", "-C"];

/// `cargo install` without `--root` writes the crate's programs below `~/.cargo/bin`
/// (`$CARGO_HOME/bin`; a `CARGO_HOME` or `CARGO_INSTALL_ROOT` set on the line is not a
/// harmless variable, so the line asks anyway). With `--root DIR` the programs land in
/// `DIR/bin`, which the words of a program of unknown writes judge (`--root ~/.local`
/// asks); `--list` writes nothing.
pub(super) fn cargo_writes(words: &[Word]) -> Writes {
    let mut out = Writes::default();
    let mut it = words.iter().skip(1).map(|w| w.value.as_str());
    let mut sub = None;
    while let Some(v) = it.next() {
        if CARGO_GLOBAL_VALUES.contains(&v) {
            it.next();
        } else if !v.starts_with(['-', '+']) {
            sub = Some(v);
            break;
        }
    }
    if sub != Some("install") {
        return out;
    }
    let rest: Vec<&str> = it.collect();
    let has = |long: &str| {
        rest.iter().any(|v| {
            v.strip_prefix("--")
                .map(|n| n.split_once('=').map_or(n, |(n, _)| n))
                .is_some_and(|n| n == long)
        })
    };
    if !has("root") && !has("list") {
        out.below.push(Word::in_home("~/.cargo/bin"));
    }
    out
}

/// `go install` writes the packages' programs below `~/go/bin` (`$GOBIN`, `$GOPATH/bin`; a
/// `GOBIN` or `GOPATH` set on the line is not a harmless variable, so the line asks anyway).
pub(super) fn go_writes(words: &[Word]) -> Writes {
    let mut out = Writes::default();
    // Any operand may be the command: an option before it may take a value (`go -C cmd
    // install`).
    if operands(words).contains(&"install") {
        out.below.push(Word::in_home("~/go/bin"));
    }
    // `go env -w NAME=VALUE` writes Go's settings file (`GOFLAGS` for every later build).
    if operands(words).contains(&"env") && words.iter().any(|w| w.value == "-w") {
        out.files.push(Word::in_home("~/.config/go/env"));
    }
    out
}

/// Where Python's installers put a user's programs and change the shell's start-up: `pip
/// install --user`, `pipx install` (and its `inject`, `upgrade`, `reinstall`), `uv tool
/// install` (`upgrade`) and `uv python install` write programs below `~/.local/bin`, under
/// names the packages choose; `pipx ensurepath` and `uv tool update-shell` add to the shell's
/// start-up files. Other words are judged as an unknown writer's.
pub(super) fn user_installer_writes(words: &[Word]) -> Writes {
    let program = words.first().map_or("", |w| program_name(&w.value));
    let program = if is_pip(program) { "pip" } else { program };
    // Any operand may be the command, and any two in a row a command and its subcommand:
    // an option before them may take a value (`pip --timeout 5 install`, `uv --color auto
    // tool install`), which the installers' option tables would have to tell.
    let ops = operands(words);
    let has = |option: &str| words.iter().any(|w| w.value == option);
    let any = |names: &[&str]| ops.iter().any(|o| names.contains(o));
    let pair = |a: &str, bs: &[&str]| {
        ops.windows(2)
            .any(|p| matches!(p, [x, y] if *x == a && bs.contains(y)))
    };
    let installs = match program {
        "pip" => any(&["install"]) && has("--user"),
        "pipx" => any(&[
            "install",
            "install-all",
            "inject",
            "upgrade",
            "upgrade-all",
            "reinstall",
            "reinstall-all",
            "upgrade-shared",
        ]),
        "uv" => pair("tool", &["install", "upgrade"]) || pair("python", &["install"]),
        _ => false,
    };
    let shell_setup = match program {
        "pipx" => any(&["ensurepath"]),
        "uv" => pair("tool", &["update-shell"]),
        _ => false,
    };
    let mut out = Writes::default();
    if installs {
        out.below.push(Word::in_home("~/.local/bin"));
    }
    // `pip config set|unset|edit` writes pip's configuration (a `python`, an index, ...):
    // the user's, or with `--global`/`--site` one elsewhere.
    if program == "pip" && pair("config", &["set", "unset", "edit"]) {
        out.files.push(Word::in_home("~/.config/pip/pip.conf"));
        out.files.push(Word::in_home("~/.pip/pip.conf"));
        if has("--global") || has("--site") {
            out.below.push(Word::literal("/"));
        }
    }
    if shell_setup {
        for f in [
            "~/.bashrc",
            "~/.bash_profile",
            "~/.profile",
            "~/.zshrc",
            "~/.zshenv",
            "~/.config/fish/config.fish",
        ] {
            out.files.push(Word::in_home(f));
        }
    }
    out
}

/// Whether `name` is pip under a versioned name (`pip3`, `pip3.11`).
pub(super) fn is_pip(name: &str) -> bool {
    name.strip_prefix("pip")
        .is_some_and(|v| v.chars().all(|c| c.is_ascii_digit() || c == '.'))
}

/// The installers a Python interpreter runs as a module (`python3 -m pip`).
const PYTHON_INSTALLERS: &[&str] = &["pip", "pipx", "uv"];

/// The command `python -m pip ...` runs, as `pip ...` (also `python3.11 -Im pipx`, `pipx`
/// and `uv` likewise), when `words` runs one of Python's installers as a module.
pub(super) fn python_installer(words: &[Word]) -> Option<Vec<Word>> {
    let first = words.first()?;
    let name = program_name(&first.value);
    if crate::commands::interpreter_base(name).map(|(base, _)| *base) != Some("python") {
        return None;
    }
    let mut i = 1;
    while let Some(w) = words.get(i) {
        let v = w.value.as_str();
        i += 1;
        if v == "--check-hash-based-pycs" {
            i += 1;
            continue;
        }
        // A script, `-` (standard input) or `--` before it: no module.
        let cluster = v
            .strip_prefix('-')
            .filter(|c| !c.is_empty() && !c.starts_with('-'))?;
        for (at, c) in cluster.char_indices() {
            let value = cluster.get(at + c.len_utf8()..).unwrap_or_default();
            match c {
                'c' => return None,
                'X' | 'W' => {
                    i += usize::from(value.is_empty());
                    break;
                }
                'm' => {
                    let module = if value.is_empty() {
                        i += 1;
                        words.get(i - 1)?.clone()
                    } else {
                        part_of(w, value)
                    };
                    if !PYTHON_INSTALLERS.contains(&module.value.as_str()) {
                        return None;
                    }
                    let mut out = vec![module];
                    out.extend(words.get(i..).unwrap_or_default().iter().cloned());
                    return Some(out);
                }
                _ => {}
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::tests::{below, written};
    use super::*;

    #[test]
    fn global_installs_write_the_global_bin() {
        for line in [
            "npm link",
            "npm ln",
            "npm link ./pkg",
            "npm i -g ./pkg",
            "npm install --global ./pkg",
            "npm i --location=global ./pkg",
            "npm i --location global ./pkg",
            "npm i --glob ./pkg",
            "npm i -L global ./pkg",
            "npm i -L=global ./pkg",
            "npm i -Lglobal ./pkg",
            "npm update -g",
            "npm rebuild -gq",
            "npm --prefix ./out link",
            "pnpm add -g ./pkg",
            "pnpm link --global",
            "pnpm link",
            "yarn global add ./pkg",
            "yarn link",
            "bun add -g ./pkg",
            "bun link",
        ] {
            assert_eq!(below(line), ["/"], "{line}");
        }
        for line in [
            "npm install",
            "npm ci",
            "npm i -D left-pad",
            "npm ls -g",
            "npm i --global=false x",
            "npm i --global-style x",
            "npm i -L project x",
            "pnpm ls -g",
            "pnpm link ../lib",
            "pnpm install",
            "yarn global list",
            "yarn link left-pad",
            "yarn add x",
            "bun install",
            "bun link left-pad",
        ] {
            assert!(below(line).is_empty(), "{line}");
        }
    }

    #[test]
    fn cargo_and_go_install_below_their_bin() {
        assert_eq!(below("cargo install --path ."), ["~/.cargo/bin"]);
        assert_eq!(
            below("cargo +nightly --color always install x"),
            ["~/.cargo/bin"]
        );
        assert!(below("cargo install --path . --root ./out").is_empty());
        assert!(below("cargo install --root=./out x").is_empty());
        assert!(below("cargo install --list").is_empty());
        assert!(below("cargo build --release").is_empty());
        assert!(below("cargo run -- install").is_empty());
        assert_eq!(below("go install ./cmd/x"), ["~/go/bin"]);
        assert_eq!(below("go -C cmd install ./x"), ["~/go/bin"]);
        assert_eq!(
            written("go env -w GOFLAGS=-toolexec=x"),
            ["~/.config/go/env"]
        );
        assert!(written("go env GOPATH").is_empty());
        assert!(below("go build ./...").is_empty());
    }

    #[test]
    fn python_runs_its_installers_as_modules() {
        let words = |line: &str| line.split(' ').map(Word::literal).collect::<Vec<_>>();
        let module = |line: &str| {
            python_installer(&words(line))
                .map(|w| w.into_iter().map(|w| w.value).collect::<Vec<_>>())
        };
        assert_eq!(
            module("python -m pip install --user x"),
            Some(vec![
                "pip".into(),
                "install".into(),
                "--user".into(),
                "x".into()
            ])
        );
        assert_eq!(
            module("/usr/bin/python3.11 -Im pipx install x"),
            Some(vec!["pipx".into(), "install".into(), "x".into()])
        );
        assert_eq!(
            module("python3 -X dev -mpip list"),
            Some(vec!["pip".into(), "list".into()])
        );
        assert_eq!(module("python3 -m venv .venv"), None);
        assert_eq!(module("python3 script.py -m pip"), None);
        assert_eq!(module("python3 -c x -m pip"), None);
        assert_eq!(module("node -m pip"), None);
        assert!(is_pip("pip3.11"));
        assert!(!is_pip("pipx"));
        assert_eq!(
            below("python3.11 -m pip install --user ./evil.whl"),
            ["~/.local/bin"]
        );
        assert_eq!(below("pip3.11 install --user x"), ["~/.local/bin"]);
        assert_eq!(below("python -m pipx install ./evil"), ["~/.local/bin"]);
        assert!(below("python -m pip install -r requirements.txt").is_empty());
        // An option's value before the command does not hide it.
        assert_eq!(
            below("pip --timeout 5 install --user ./x.whl"),
            ["~/.local/bin"]
        );
        assert_eq!(below("uv --color auto tool install ruff"), ["~/.local/bin"]);
        assert_eq!(below("pipx --verbose install x"), ["~/.local/bin"]);
        assert_eq!(
            written("pip config set global.python v"),
            ["~/.config/pip/pip.conf", "~/.pip/pip.conf"]
        );
        assert!(written("pip config list").is_empty());
        assert!(written("pip3.11 install x").is_empty());
    }
}
