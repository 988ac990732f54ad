//! Commands that may run a command the line does not show: a subcommand a program does not
//! have built in, which it looks up among the user's aliases and the programs on `PATH`
//! (git, cargo, gh), and the package managers' commands that run the package's scripts
//! (npm, pnpm, yarn, bun). What such a command runs is written in a file (`~/.gitconfig`,
//! `.git/config`, `.cargo/config.toml`, `package.json`), so deny and ask rules on commands
//! cannot be matched against it.

use crate::shell::subcommand_readings;

/// git's commands (`git --list-cmds=main`, git 2.47), built in or shipped in its exec path:
/// an alias never takes their names. Not `replay` (git 2.44) or `refs` (git 2.46): on git
/// 2.39 (Debian 12) an alias may be named so. A subcommand not listed may be an alias of
/// any command (`git config alias.p push`; `!CMD` runs a shell command) or a program
/// `git-NAME` on `PATH`.
const GIT_COMMANDS: &[&str] = &[
    "add",
    "am",
    "annotate",
    "apply",
    "archimport",
    "archive",
    "bisect",
    "blame",
    "branch",
    "bugreport",
    "bundle",
    "cat-file",
    "check-attr",
    "check-ignore",
    "check-mailmap",
    "check-ref-format",
    "checkout",
    "checkout--worker",
    "checkout-index",
    "cherry",
    "cherry-pick",
    "clean",
    "clone",
    "column",
    "commit",
    "commit-graph",
    "commit-tree",
    "config",
    "count-objects",
    "credential",
    "credential-cache",
    "credential-cache--daemon",
    "credential-store",
    "cvsexportcommit",
    "cvsimport",
    "cvsserver",
    "daemon",
    "describe",
    "diagnose",
    "diff",
    "diff-files",
    "diff-index",
    "diff-tree",
    "difftool",
    "difftool--helper",
    "fast-export",
    "fast-import",
    "fetch",
    "fetch-pack",
    "filter-branch",
    "fmt-merge-msg",
    "for-each-ref",
    "for-each-repo",
    "format-patch",
    "fsck",
    "fsck-objects",
    "fsmonitor--daemon",
    "gc",
    "get-tar-commit-id",
    "grep",
    "hash-object",
    "help",
    "hook",
    "http-backend",
    "http-fetch",
    "http-push",
    "imap-send",
    "index-pack",
    "init",
    "init-db",
    "instaweb",
    "interpret-trailers",
    "log",
    "ls-files",
    "ls-remote",
    "ls-tree",
    "mailinfo",
    "mailsplit",
    "maintenance",
    "merge",
    "merge-base",
    "merge-file",
    "merge-index",
    "merge-octopus",
    "merge-one-file",
    "merge-ours",
    "merge-recursive",
    "merge-recursive-ours",
    "merge-recursive-theirs",
    "merge-resolve",
    "merge-subtree",
    "merge-tree",
    "mergetool",
    "mktag",
    "mktree",
    "multi-pack-index",
    "mv",
    "name-rev",
    "notes",
    "p4",
    "pack-objects",
    "pack-redundant",
    "pack-refs",
    "patch-id",
    "pickaxe",
    "prune",
    "prune-packed",
    "pull",
    "push",
    "quiltimport",
    "range-diff",
    "read-tree",
    "rebase",
    "receive-pack",
    "reflog",
    "remote",
    "remote-ext",
    "remote-fd",
    "remote-ftp",
    "remote-ftps",
    "remote-http",
    "remote-https",
    "repack",
    "replace",
    "request-pull",
    "rerere",
    "reset",
    "restore",
    "rev-list",
    "rev-parse",
    "revert",
    "rm",
    "send-email",
    "send-pack",
    "sh-i18n--envsubst",
    "shell",
    "shortlog",
    "show",
    "show-branch",
    "show-index",
    "show-ref",
    "sparse-checkout",
    "stage",
    "stash",
    "status",
    "stripspace",
    "submodule",
    "submodule--helper",
    "svn",
    "switch",
    "symbolic-ref",
    "tag",
    "unpack-file",
    "unpack-objects",
    "update-index",
    "update-ref",
    "update-server-info",
    "upload-archive",
    "upload-archive--writer",
    "upload-pack",
    "var",
    "verify-commit",
    "verify-pack",
    "verify-tag",
    "version",
    "web--browse",
    "whatchanged",
    "worktree",
    "write-tree",
];

/// cargo's built-in commands (`cargo --list`, cargo 1.95, without the programs on `PATH`):
/// an alias of `.cargo/config.toml` never takes their names. Not its built-in aliases (`b`,
/// `c`, `d`, `r`, `t`, `rm`) nor the rustup components run as `cargo-NAME` (`fmt`,
/// `clippy`, `miri`): an alias of the user's takes those names first.
const CARGO_COMMANDS: &[&str] = &[
    "add",
    "bench",
    "build",
    "check",
    "clean",
    "config",
    "doc",
    "fetch",
    "fix",
    "generate-lockfile",
    "git-checkout",
    "help",
    "info",
    "init",
    "install",
    "locate-project",
    "login",
    "logout",
    "metadata",
    "new",
    "owner",
    "package",
    "pkgid",
    "publish",
    "read-manifest",
    "remove",
    "report",
    "run",
    "rustc",
    "rustdoc",
    "search",
    "test",
    "tree",
    "uninstall",
    "update",
    "vendor",
    "verify-project",
    "version",
    "yank",
];

/// gh's commands (the GitHub CLI manual, gh 2.6x): `gh alias set` refuses their names. A
/// subcommand not listed may be an alias (`gh alias set p 'pr merge'`; `--shell` runs a
/// shell command) or an extension, a program `gh-NAME`.
const GH_COMMANDS: &[&str] = &[
    "accessibility",
    "agent-task",
    "alias",
    "api",
    "attestation",
    "auth",
    "browse",
    "cache",
    "codespace",
    "completion",
    "config",
    "copilot",
    "extension",
    "gist",
    "gpg-key",
    "help",
    "issue",
    "label",
    "org",
    "pr",
    "preview",
    "project",
    "release",
    "repo",
    "ruleset",
    "run",
    "search",
    "secret",
    "ssh-key",
    "status",
    "variable",
    "workflow",
];

/// Commands of pnpm, yarn and bun that run no package script: they show the project, its
/// dependencies or the configuration. Any other word may name a script (`yarn build`,
/// `pnpm build`, `bun build` run the package's `build` script when they have no command of
/// that name), and `run`, `test`, `start`, the installs, `pack`, `publish` and `version`
/// run scripts themselves.
const NO_SCRIPTS: &[(&str, &[&str])] = &[
    (
        "pnpm",
        &[
            "list", "ls", "ll", "la", "outdated", "why", "view", "info", "show", "config", "help",
            "root", "bin", "licenses", "store", "search", "whoami", "ping", "login", "logout",
        ],
    ),
    (
        "yarn",
        &[
            "list", "ls", "outdated", "why", "info", "config", "help", "bin", "licenses", "owner",
            "login", "logout", "versions", "dir",
        ],
    ),
    (
        "bun",
        &["pm", "outdated", "info", "why", "help", "completions"],
    ),
];

/// Why the command `words` may run a command its words do not show, if it may: a git,
/// cargo or gh subcommand the program does not have built in (an alias, or a program on
/// `PATH`), or a package manager's command that runs the package's scripts.
///
/// ```text
/// unseen_command("git p origin main") == Some(("`git p` is not a command `git` has built in …", "p"))
/// unseen_command("npm test") == Some(("`npm test` may run scripts of the package's `package.json` …", "test"))
/// unseen_command("git status") == None
/// unseen_command("npm view x") == None
/// ```
///
/// With the reason comes the word that names the hidden command (the alias `p` of `git p`,
/// npm's `run` or `test`, yarn's script name; empty for a bare `yarn`): an allow rule whose
/// words, before any wildcard, include it names that command ([`allow_names_unseen`]).
pub(crate) fn unseen_command(words: &[String]) -> Option<(String, String)> {
    let canonical = crate::shell::canonical_words(words);
    let name = canonical.first()?.as_str();
    let args = words.get(1..).unwrap_or_default();
    match name {
        "git" => {
            // The canonical form puts git's subcommand second, past git's own options.
            let sub = canonical.get(1).filter(|s| !s.starts_with('-'))?;
            (!GIT_COMMANDS.contains(&sub.as_str())).then(|| (not_built_in("git", sub), sub.clone()))
        }
        "cargo" | "gh" => {
            let known = if name == "cargo" {
                CARGO_COMMANDS
            } else {
                GH_COMMANDS
            };
            subcommand_words(name, args)
                .into_iter()
                .flatten()
                .find(|sub| !known.contains(&sub.as_str()))
                .map(|sub| (not_built_in(name, &sub), sub))
        }
        "npm" => subcommand_words(name, args)
            .into_iter()
            .flatten()
            .find(|word| {
                super::npm::npm_commands(word)
                    .into_iter()
                    .any(super::npm::runs_package_scripts)
            })
            .map(|word| (runs_scripts(name, &word), word)),
        "pnpm" | "yarn" | "bun" => {
            let quiet = NO_SCRIPTS
                .iter()
                .find(|(n, _)| *n == name)
                .map_or(&[][..], |(_, q)| *q);
            subcommand_words(name, args)
                .into_iter()
                .find(|word| match word {
                    Some(w) => !quiet.contains(&w.as_str()),
                    // `yarn` alone installs; `pnpm` and `bun` alone print their help.
                    None => name == "yarn" && !asks_for_help(args),
                })
                .map(|word| {
                    let word = word.unwrap_or_default();
                    (runs_scripts(name, &word), word)
                })
        }
        _ => None,
    }
}

/// The programs whose commands may hide another ([`unseen_command`]): an allow rule that
/// names only the program (`Bash(npm *)`) covers none of those.
pub(crate) const HIDING_PROGRAMS: &[&str] = &["git", "cargo", "gh", "npm", "pnpm", "yarn", "bun"];

/// The words a rule's command `pattern` (its text inside `Bash(...)`) spells before any
/// wildcard: `npm run test:*` and `npm run test *` give `npm run test`, `*` none.
pub(crate) fn literal_words(pattern: &str) -> impl Iterator<Item = &str> {
    pattern
        .trim_end_matches(":*")
        .split('*')
        .next()
        .unwrap_or_default()
        .split_whitespace()
}

/// Whether the allow rule's command `pattern` (its text inside `Bash(...)`) names the
/// hidden command `word` of [`unseen_command`]: the word is among the pattern's
/// [`literal_words`] past the program (`npm run test:*` and `npm run *` name `run`;
/// `npm *` names none).
///
/// ```
/// use toolgate::commands::allow_names_unseen;
/// assert!(allow_names_unseen("npm run test:*", "run"));
/// assert!(allow_names_unseen("git p:*", "p"));
/// assert!(!allow_names_unseen("npm *", "test"));
/// ```
pub fn allow_names_unseen(pattern: &str, word: &str) -> bool {
    // Past the program: its name alone names no command.
    !word.is_empty()
        && literal_words(pattern)
            .skip(1)
            .any(|w| w.eq_ignore_ascii_case(word))
}

/// Whether the package manager's command `words` may run the scripts of another package
/// than the one here: an option that picks the package or its directory (`--prefix DIR`,
/// `-C`, `--workspace`, `-ws`, `--global`, pnpm's `--filter`, `-r`, `--dir`, yarn's
/// `--cwd`), read in the widest way. An allow rule naming a script covers only this
/// package's script.
///
/// ```text
/// runs_another_package("npm run test --prefix node_modules/dep") == true
/// runs_another_package("npm run test -- --watch")                == false
/// ```
pub(crate) fn runs_another_package(words: &[String]) -> bool {
    const LONG: &[&str] = &[
        "prefix",
        "workspace",
        "workspaces",
        "global",
        "filter",
        "recursive",
        "dir",
        "cwd",
    ];
    let manager = words
        .first()
        .is_some_and(|w| ["npm", "pnpm", "yarn", "bun"].contains(&super::program_name(w)));
    let args = words.get(1..).unwrap_or_default();
    manager
        && super::option_words::has_option(
            args,
            &['C', 'w', 'g', 'r'],
            LONG,
            super::option_words::Reading::Widest,
        )
}

/// The word each reading of `name`'s subcommand starts with ([`subcommand_readings`]),
/// past a rustup toolchain (`cargo +nightly b`); `None` for a reading without one.
fn subcommand_words(name: &str, args: &[String]) -> Vec<Option<String>> {
    let Some(readings) = subcommand_readings(name, args) else {
        return Vec::new();
    };
    readings
        .iter()
        .map(|reading| {
            reading
                .iter()
                .filter_map(|i| args.get(*i))
                .find(|w| names_a_subcommand(w))
                .cloned()
        })
        .collect()
}

/// Whether `word` of a reading may name the subcommand: neither a rustup toolchain
/// (`+nightly`) nor an option.
fn names_a_subcommand(word: &str) -> bool {
    let option = word.starts_with('-') && word.len() > 1;
    !word.starts_with('+') && !option
}

/// Whether `args` only ask for the version or the help.
fn asks_for_help(args: &[String]) -> bool {
    args.iter()
        .any(|a| matches!(a.as_str(), "-v" | "--version" | "-h" | "--help"))
}

fn not_built_in(name: &str, sub: &str) -> String {
    format!(
        "`{name} {sub}` is not a command `{name}` has built in: it may be an alias of any \
         command, or a program `{name}-{sub}`"
    )
}

fn runs_scripts(name: &str, word: &str) -> String {
    let command = format!("{name} {word}");
    format!(
        "`{}` may run scripts of the package's `package.json`, which may run any command",
        command.trim()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unseen(line: &str) -> Option<String> {
        let words: Vec<String> = line.split(' ').map(str::to_owned).collect();
        unseen_command(&words).map(|(why, _)| why)
    }

    #[test]
    fn the_hiding_programs_are_those_whose_commands_may_hide_another() {
        // npm runs no command it does not have; its scripts run by name.
        for program in HIDING_PROGRAMS {
            let word = if *program == "npm" {
                "test"
            } else {
                "zz-not-a-command"
            };
            assert!(unseen(&format!("{program} {word}")).is_some(), "{program}");
        }
        for program in ["ls", "docker", "kubectl", "aws", "make"] {
            assert!(
                unseen(&format!("{program} zz-not-a-command")).is_none(),
                "{program}"
            );
        }
    }

    #[test]
    fn options_that_pick_another_package_are_read_in_the_widest_way() {
        let words = |line: &str| line.split(' ').map(str::to_owned).collect::<Vec<_>>();
        for line in [
            "npm run test --prefix node_modules/dep",
            "npm run test --pre=x",
            "npm run test -ws",
            "npm run test -w a",
            "npm run test --workspace=a",
            "pnpm run test --filter a",
            "pnpm -r test",
            "yarn --cwd x test",
            "npm -g run test",
        ] {
            assert!(runs_another_package(&words(line)), "{line}");
        }
        for line in [
            "npm run test",
            "npm run test --silent",
            "npm run test -- --prefix x",
        ] {
            assert!(!runs_another_package(&words(line)), "{line}");
        }
    }

    #[test]
    fn an_allow_rule_names_a_hidden_command_by_its_word_before_any_wildcard() {
        for (pattern, word) in [
            ("npm run test:*", "run"),
            ("npm run *", "run"),
            ("npm test", "test"),
            ("git p:*", "p"),
            ("cargo clippy *", "clippy"),
        ] {
            assert!(allow_names_unseen(pattern, word), "{pattern} {word}");
        }
        for (pattern, word) in [
            ("npm *", "test"),
            ("*", "run"),
            ("git *", "p"),
            ("npm r*", "run"),
            ("yarn", ""),
        ] {
            assert!(!allow_names_unseen(pattern, word), "{pattern} {word}");
        }
    }

    #[test]
    fn a_subcommand_git_does_not_have_may_be_an_alias() {
        for line in [
            "git p origin main",
            "git -C . p origin main",
            "git PUSH origin main",
            "git replay --onto main a..b",
            "/usr/bin/git co main",
        ] {
            assert!(unseen(line).is_some(), "{line}");
        }
        for line in [
            "git status",
            "git push origin main",
            "git -c a=b log",
            "git --version",
            "git",
            "git send-pack u main",
        ] {
            assert_eq!(unseen(line), None, "{line}");
        }
        // Every git subcommand the program table knows is one of git's own commands.
        let git = crate::commands::table::programs()
            .find(|p| p.name == "git")
            .map(|p| p.subcommands)
            .unwrap_or_default();
        assert!(!git.is_empty());
        for sub in git {
            assert!(GIT_COMMANDS.contains(&sub.name), "{}", sub.name);
        }
    }

    #[test]
    fn cargo_and_gh_subcommands_they_do_not_have_may_be_aliases() {
        for line in [
            "cargo p",
            "cargo t",
            "cargo fmt",
            "cargo +nightly p",
            "cargo --color always p",
            "gh p 1",
            "gh -R o/r p 1",
            "gh co 1",
        ] {
            assert!(unseen(line).is_some(), "{line}");
        }
        for line in [
            "cargo build",
            "cargo +nightly test",
            "cargo --color always publish",
            "gh pr merge 1",
            "gh -R o/r pr list",
        ] {
            assert_eq!(unseen(line), None, "{line}");
        }
    }

    #[test]
    fn package_manager_commands_that_run_scripts() {
        for line in [
            "npm test",
            "npm t",
            "npm tst",
            "npm start",
            "npm restart",
            "npm stop",
            "npm version patch",
            "npm install-test",
            "npm it",
            "npm ci",
            "npm install",
            "npm i",
            "npm pack",
            "npm publish",
            "npm run build",
            "npm rum build",
            "npm --prefix sub test",
            "npm rebuild",
            "yarn",
            "yarn build",
            "yarn run build",
            "yarn test",
            "pnpm build",
            "pnpm test",
            "pnpm -C sub install",
            "bun build",
            "bun run build",
        ] {
            assert!(unseen(line).is_some(), "{line}");
        }
        for line in [
            "npm view x",
            "npm ls",
            "npm --version",
            "npm config list",
            "npm frobnicate",
            "yarn --version",
            "yarn why x",
            "pnpm list",
            "pnpm",
            "bun pm ls",
        ] {
            assert_eq!(unseen(line), None, "{line}");
        }
    }
}
