//! git 2.39 (Debian 12) and later: global options and read-only subcommands, from
//! `git help <command>` (the OPTIONS sections). Long options are matched only as spelled
//! in full: git accepts unique prefixes, which the table does not resolve, so an
//! abbreviation asks.

use crate::commands::spec::{Operands, Program, Syntax};

const SRC: &str = "git 2.39 (Debian 12), git help COMMAND";

/// Options of the diff machinery (`git help diff`, "OPTIONS" shared by log, show, diff).
const DIFF: &[&str] = &[
    "-p -u --patch", "-s --no-patch", "-U --unified =", "--output =:writes",
    "--output-indicator-new =", "--output-indicator-old =", "--output-indicator-context =",
    "--raw", "--patch-with-raw", "--indent-heuristic", "--no-indent-heuristic", "--minimal",
    "--patience", "--histogram", "--anchored =", "--diff-algorithm =", "--stat =?",
    "--stat-width =", "--stat-name-width =", "--stat-count =", "--stat-graph-width =",
    "--compact-summary", "--numstat", "--shortstat", "-X --dirstat =?", "--cumulative",
    "--dirstat-by-file =?", "--summary", "--patch-with-stat", "-z", "--name-only",
    "--name-status", "--submodule =?", "--color =?", "--no-color", "--color-moved =?",
    "--no-color-moved", "--color-moved-ws =", "--no-color-moved-ws", "--word-diff =?",
    "--word-diff-regex =", "--color-words =?", "--no-renames", "--rename-empty",
    "--no-rename-empty", "--check", "--ws-error-highlight =", "--full-index", "--binary",
    "--abbrev =?", "-B --break-rewrites =?", "-M --find-renames =?", "-C --find-copies =?",
    "--find-copies-harder", "-D --irreversible-delete", "-l =", "--diff-filter =", "-S =",
    "-G =", "--find-object =", "--pickaxe-all", "--pickaxe-regex", "-O =:reads",
    "--skip-to =", "--rotate-to =", "-R", "--relative =?", "--no-relative", "-a --text",
    "--ignore-cr-at-eol", "--ignore-space-at-eol", "-b --ignore-space-change",
    "-w --ignore-all-space", "--ignore-blank-lines", "-I --ignore-matching-lines =",
    "--inter-hunk-context =", "-W --function-context", "--exit-code", "--quiet",
    "--ext-diff :runs", "--no-ext-diff", "--textconv", "--no-textconv",
    "--ignore-submodules =?", "--src-prefix =", "--dst-prefix =", "--no-prefix",
    "--default-prefix", "--line-prefix =", "--ita-invisible-in-index",
    "--ita-visible-in-index",
];

/// Options of the revision walk (`git help log`, "Commit Limiting" to "Commit Formatting").
const REVS: &[&str] = &[
    "-n --max-count =", "-#", "--skip =", "--since --after =", "--since-as-filter =",
    "--until --before =", "--author =", "--committer =", "--grep-reflog =", "--grep =",
    "--all-match", "--invert-grep", "-i --regexp-ignore-case", "--basic-regexp",
    "-E --extended-regexp", "-F --fixed-strings", "-P --perl-regexp", "--remove-empty",
    "--merges", "--no-merges", "--min-parents =", "--max-parents =", "--no-min-parents",
    "--no-max-parents", "--first-parent", "--exclude-first-parent-only", "--not", "--all",
    "--branches =?", "--tags =?", "--remotes =?", "--glob =", "--exclude =", "--reflog",
    "--alternate-refs", "--single-worktree", "--ignore-missing", "--bisect", "--cherry-mark",
    "--cherry-pick", "--left-only", "--right-only", "--cherry", "-g --walk-reflogs", "--merge",
    "--boundary", "--simplify-by-decoration", "--show-pulls", "--full-history", "--dense",
    "--sparse", "--simplify-merges", "--ancestry-path =?", "--date-order",
    "--author-date-order", "--topo-order", "--reverse", "--no-walk =?", "--do-walk",
    "--pretty --format =?", "--abbrev-commit", "--no-abbrev-commit", "--oneline",
    "--encoding =", "--expand-tabs =?", "--no-expand-tabs", "--notes --show-notes =?",
    "--no-notes", "--show-signature", "--relative-date", "--date =", "--parents",
    "--children", "--left-right", "--graph", "--show-linear-break =?", "-c", "--cc", "--dd",
    "--remerge-diff", "--no-diff-merges", "--diff-merges =", "--combined-all-paths", "-m",
    "-r", "-t", "--follow", "--no-decorate", "--decorate =?", "--decorate-refs =",
    "--decorate-refs-exclude =", "--clear-decorations", "--source",
    "--mailmap --use-mailmap", "--no-mailmap --no-use-mailmap", "--full-diff", "--log-size",
    "-L =", "--no-abbrev",
];

const fn git(name: &'static str) -> Program {
    Program {
        syntax: Syntax::Git,
        operands: Operands::GitRevisions,
        ..Program::new(name, SRC)
    }
}

/// `git stash` subcommands that only show.
const STASH: &[Program] = &[
    Program {
        options: &[REVS, DIFF],
        ..git("list")
    },
    Program {
        options: &[REVS, DIFF, &["--include-untracked", "--only-untracked"]],
        ..git("show")
    },
];

/// Read-only git subcommands.
const SUBCOMMANDS: &[Program] = &[
    Program {
        options: &[&[
            "-s --short", "-b --branch", "--show-stash", "--porcelain =?", "--long",
            "-v --verbose", "-u --untracked-files =?", "--ignore-submodules =?",
            "--ignored =?", "-z --null", "--column =?", "--no-column", "--ahead-behind",
            "--no-ahead-behind", "--renames", "--no-renames", "--find-renames =?",
        ]],
        ..git("status")
    },
    Program {
        options: &[REVS, DIFF],
        aliases: &["whatchanged"],
        ..git("log")
    },
    Program {
        options: &[REVS, DIFF],
        ..git("show")
    },
    Program {
        options: &[DIFF, &[
            "--cached --staged", "--merge-base", "--no-index :changes", "-1 --base",
            "-2 --ours", "-3 --theirs", "-0",
        ]],
        recursive: true,
        ..git("diff")
    },
    Program {
        options: &[&[
            "-b", "--root", "--show-stats", "-L =", "-l", "-t", "-S =:reads", "--reverse =",
            "--first-parent", "-p --porcelain", "--line-porcelain", "--incremental",
            "--encoding =", "--contents =:reads", "--date =", "--progress", "--no-progress",
            "-M =?", "-C =?", "--ignore-rev =", "--ignore-revs-file =:reads", "--color-lines",
            "--color-by-age", "--minimal", "-c", "--score-debug", "-f --show-name",
            "-n --show-number", "-s", "-e --show-email", "-w", "--abbrev =?",
        ]],
        ..git("blame")
    },
    Program {
        options: &[&[
            "--parseopt :changes", "--sq-quote", "--keep-dashdash", "--stop-at-non-option",
            "--stuck-long", "--revs-only", "--no-revs", "--flags", "--no-flags", "--default =",
            "--prefix =", "--verify", "-q --quiet", "--sq", "--short =?", "--not",
            "--abbrev-ref =?", "--symbolic", "--symbolic-full-name", "--all", "--branches =?",
            "--tags =?", "--remotes =?", "--glob =", "--exclude =", "--disambiguate =",
            "--local-env-vars", "--path-format =", "--git-dir", "--git-common-dir",
            "--resolve-git-dir =", "--git-path =", "--show-toplevel",
            "--show-superproject-working-tree", "--shared-index-path", "--absolute-git-dir",
            "--is-inside-git-dir", "--is-inside-work-tree", "--is-bare-repository",
            "--is-shallow-repository", "--show-cdup", "--show-prefix",
            "--show-object-format =?", "--since --after =", "--until --before =",
            "--show-ref-format",
        ]],
        ..git("rev-parse")
    },
    Program {
        options: &[&[
            "-c --cached", "-d --deleted", "-m --modified", "-o --others", "-i --ignored",
            "-s --stage", "--directory", "--no-empty-directory", "--empty-directory", "-u --unmerged", "-k --killed",
            "-z", "--eol", "--deduplicate", "-x --exclude =", "-X --exclude-from =:reads",
            "--exclude-per-directory =", "--exclude-standard", "--error-unmatch",
            "--with-tree =", "-t", "-v", "-f", "--full-name", "--recurse-submodules",
            "--abbrev =?", "--debug", "--format =", "--sparse", "--resolve-undo",
        ]],
        ..git("ls-files")
    },
    Program {
        options: &[&[
            "-d", "-r", "-t", "-l --long", "-z", "--name-only --name-status", "--object-only",
            "--full-name", "--full-tree", "--abbrev =?", "--format =",
        ]],
        ..git("ls-tree")
    },
    Program {
        options: &[
            &["-n --numbered", "-s --summary", "-e --email", "--group =", "-w =?"],
            REVS,
        ],
        ..git("shortlog")
    },
    Program {
        options: &[&[
            "--dirty =?", "--broken =?", "--all", "--tags", "--contains", "--abbrev =",
            "--candidates =", "--exact-match", "--debug", "--long", "--match =", "--exclude =",
            "--always", "--first-parent",
        ]],
        ..git("describe")
    },
    Program {
        options: &[&[
            "--cached", "--no-index :changes", "--untracked", "--no-exclude-standard",
            "--exclude-standard", "--recurse-submodules", "-a --text", "--textconv",
            "--no-textconv", "-i --ignore-case", "-I", "--max-depth =", "-r --recursive",
            "--no-recursive", "-w --word-regexp", "-v --invert-match", "-h", "-H",
            "--full-name", "-E --extended-regexp", "-G --basic-regexp", "-F --fixed-strings",
            "-P --perl-regexp", "-n --line-number", "--column",
            "-l --files-with-matches --name-only", "-L --files-without-match",
            "-O --open-files-in-pager =?:runs", "-z --null", "-o --only-matching",
            "-c --count", "--color =?", "--no-color", "--break", "--heading",
            "-p --show-function", "-C --context =", "-A --after-context =",
            "-B --before-context =", "-W --function-context", "-m --max-count =",
            "--threads =", "-f =:patternfile", "-e =:pattern", "--and", "--or", "--not",
            "--all-match", "-q --quiet", "-#", "--index", "--ext-grep",
        ]],
        operands: Operands::PatternThenFiles,
        recursive: true,
        ..git("grep")
    },
    Program {
        options: &[&[
            "-t", "-s", "-e", "-p", "--textconv", "--filters", "--path =", "--batch =?",
            "--batch-check =?", "--batch-command =?", "--batch-all-objects", "--buffer",
            "--follow-symlinks", "--unordered", "--allow-unknown-type", "-Z",
            "--use-mailmap --mailmap", "--no-use-mailmap --no-mailmap",
        ]],
        ..git("cat-file")
    },
    Program {
        options: &[&[
            "-a --all", "-r --remotes", "-l --list", "-v --verbose", "--show-current",
            "--contains =?", "--no-contains =?", "--merged =?", "--no-merged =?",
            "--points-at =", "--sort =", "--format =", "--color =?", "--no-color",
            "--column =?", "--no-column", "-i --ignore-case", "--abbrev =?", "--no-abbrev",
            "-q --quiet", "-d --delete :changes", "-D :changes", "-m --move :changes",
            "-M :changes", "-c --copy :changes", "-C :changes", "-f --force :changes",
            "-u --set-upstream-to =:changes", "--unset-upstream :changes",
            "-t --track =?:changes", "--no-track :changes", "--edit-description :changes",
            "--create-reflog :changes", "--recurse-submodules :changes", "--omit-empty",
        ]],
        operands: Operands::None,
        ..git("branch")
    },
    Program {
        options: &[&[
            "-l --list", "-n =?", "--sort =", "--contains =?", "--no-contains =?",
            "--merged =?", "--no-merged =?", "--points-at =", "--format =", "--color =?",
            "--column =?", "--no-column", "-i --ignore-case", "--omit-empty",
            "--trailer =:changes", "--create-reflog :changes", "-d --delete :changes",
            "-v --verify :runs", "-a --annotate :changes", "-m --message =:changes",
            "-F --file =:changes", "-e --edit :changes", "-s --sign :changes",
            "--cleanup =:changes", "-u --local-user =:changes", "-f --force :changes",
        ]],
        operands: Operands::None,
        ..git("tag")
    },
    Program {
        options: &[&[
            "-v --verbose", "--tags :changes", "--no-tags :changes", "--mirror =?:changes",
            "--progress :changes", "--auto :changes", "--delete :changes", "--dry-run :changes",
            "--prune :changes", "--add :changes", "--push :changes", "--all :changes",
        ]],
        operands: Operands::None,
        ..git("remote")
    },
    Program {
        subcommands: STASH,
        ..git("stash")
    },
    Program {
        options: &[&[
            "--get", "--get-all", "--get-regexp", "--get-urlmatch", "-l --list",
            "--show-origin", "--show-scope", "--global", "--system", "--local", "--worktree",
            "-f --file =:reads", "--blob =", "--name-only", "-z --null", "--type =", "--bool",
            "--int", "--bool-or-int", "--path", "--expiry-date", "--default =", "--includes",
            "--no-includes", "--all", "--regexp", "--value =", "--fixed-value",
            "--get-colorbool", "--get-color",
        ]],
        operands: Operands::AtMostOne,
        ..git("config")
    },
    Program {
        options: &[&["--build-options"]],
        operands: Operands::None,
        ..git("version")
    },
];

/// git.
pub(crate) const GIT: Program = Program {
    options: &[&[
        "--no-pager -P", "--no-optional-locks", "--literal-pathspecs", "--glob-pathspecs",
        "--noglob-pathspecs", "--icase-pathspecs", "--no-replace-objects", "--version -v",
        "--help -h", "-C =:changes", "-c =:runs", "--config-env =:runs", "--exec-path =?:runs",
        "--git-dir =:changes", "--work-tree =:changes", "--namespace =:changes",
        "--bare :changes", "-p --paginate :runs", "--no-lazy-fetch", "--no-advice",
        "--html-path", "--man-path", "--info-path", "--super-prefix =:changes",
        "--list-cmds =",
    ]],
    subcommands: SUBCOMMANDS,
    ..git("git")
};
