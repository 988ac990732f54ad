//! git subcommands that change things: they update a repository (this one or another),
//! make one, or run programs. None is read-only ([`Program::changes`]); an allow rule on
//! one (`Bash(git push *)`) covers it while every option is in its entry and none runs a
//! program (`:runs`: `--receive-pack`, `--upload-pack`, `--exec`, `--template`, `-c`);
//! those that always run something are runners ([`Program::runs`]). What they write
//! (`git clone URL DIR`, `git worktree add DIR`, `git bundle create FILE`) is in
//! `shell::writes`, where protected paths and Edit rules judge it.
//!
//! Options from `git SUB -h` of git 2.47 (a superset of 2.39's): `--[no-]x` is listed as
//! both `--x` and `--no-x`. The subcommands of `git bisect` and `git submodule` (other than
//! those that run a command) take their words as operands: they are changers whatever the
//! words, and no option of theirs runs a program.

use super::git::REVS;
use crate::commands::spec::{Operands, Program, Syntax};

const SRC: &str = "git 2.39 (Debian 12) and 2.47, git SUB -h";

/// A subcommand that is never read-only, for `why`, with git's option syntax: an option its
/// entry does not list leaves it unjudged.
const fn changer(name: &'static str, why: &'static str) -> Program {
    Program {
        syntax: Syntax::Git,
        operands: Operands::NotFiles,
        changes: Some(why),
        ..Program::new(name, SRC)
    }
}

/// An entry that always runs a program: its words are not judged.
const fn runner(name: &'static str, why: &'static str) -> Program {
    Program {
        syntax: Syntax::NoOptions,
        operands: Operands::NotFiles,
        runs: Some(why),
        ..Program::new(name, SRC)
    }
}

/// A subcommand of a subcommand whose words are all operands (`git bisect good REV`).
const fn plain_changer(name: &'static str, why: &'static str) -> Program {
    Program {
        syntax: Syntax::NoOptions,
        ..changer(name, why)
    }
}

pub(super) const REBASE: Program = Program {
    options: &[&[
        "--onto =",
        "--no-onto",
        "--keep-base --no-keep-base",
        "--no-verify",
        "--verify",
        "-q --quiet --no-quiet",
        "-v --verbose --no-verbose",
        "-n --no-stat",
        "--stat",
        "--signoff --no-signoff",
        "--committer-date-is-author-date --no-committer-date-is-author-date",
        "--reset-author-date --no-reset-author-date",
        "-C =",
        "--ignore-whitespace --no-ignore-whitespace",
        "--ignore-date",
        "--whitespace =",
        "--no-whitespace",
        "-f --force-rebase --no-force-rebase",
        "--no-ff",
        "--ff",
        "--continue",
        "--skip",
        "--abort",
        "--quit",
        "--edit-todo",
        "--show-current-patch",
        "--apply",
        "-m --merge",
        "-i --interactive",
        "--rerere-autoupdate --no-rerere-autoupdate",
        "--empty =",
        "--autosquash --no-autosquash",
        "--update-refs --no-update-refs",
        // Signs with gpg (or ssh-keygen), as `--show-signature` verifies.
        "-S --gpg-sign =?:runs",
        "--no-gpg-sign",
        "--autostash --no-autostash",
        "-x --exec =:runs",
        "--no-exec",
        "-r --rebase-merges =?",
        "--no-rebase-merges",
        "--fork-point --no-fork-point",
        // A strategy is the program `git-merge-<strategy>`, found on `PATH`.
        "-s --strategy =:runs",
        "--no-strategy",
        "-X --strategy-option =",
        "--no-strategy-option",
        "--root --no-root",
        "--reschedule-failed-exec --no-reschedule-failed-exec",
        "--reapply-cherry-picks --no-reapply-cherry-picks",
    ]],
    ..changer(
        "rebase",
        "`git rebase` rewrites the commits of a branch and the working tree",
    )
};

pub(super) const PUSH: Program = Program {
    options: &[&[
        "-v --verbose --no-verbose",
        "-q --quiet --no-quiet",
        "--repo =",
        "--no-repo",
        "--all --no-all",
        "--branches --no-branches",
        "--mirror --no-mirror",
        "-d --delete --no-delete",
        "--tags --no-tags",
        "-n --dry-run --no-dry-run",
        "--porcelain --no-porcelain",
        "-f --force --no-force",
        "--force-with-lease =?",
        "--no-force-with-lease",
        "--force-if-includes --no-force-if-includes",
        "--recurse-submodules =",
        "--no-recurse-submodules",
        "--thin --no-thin",
        // The program run for the other side (over ssh, or here for a local path).
        "--receive-pack --exec =:runs",
        "--no-receive-pack --no-exec",
        "-u --set-upstream --no-set-upstream",
        "--progress --no-progress",
        "--prune --no-prune",
        "--no-verify",
        "--verify",
        "--follow-tags --no-follow-tags",
        "--signed =?:runs",
        "--no-signed",
        "--atomic --no-atomic",
        "-o --push-option =",
        "--no-push-option",
        "-4 --ipv4",
        "-6 --ipv6",
    ]],
    operands: Operands::Repository,
    ..changer("push", "`git push` updates another repository")
};

/// Options of `git fetch` that `git pull` shares.
const FETCH_SHARED: &[&str] = &[
    "-v --verbose --no-verbose",
    "-q --quiet --no-quiet",
    "--progress --no-progress",
    "--all --no-all",
    "-a --append --no-append",
    "--upload-pack =:runs",
    "--no-upload-pack",
    "-f --force --no-force",
    "-t --tags --no-tags",
    "-p --prune --no-prune",
    "--dry-run --no-dry-run",
    "-k --keep --no-keep",
    "--depth =",
    "--no-depth",
    "--shallow-since =",
    "--no-shallow-since",
    "--shallow-exclude =",
    "--no-shallow-exclude",
    "--deepen =",
    "--no-deepen",
    "--unshallow",
    "--update-shallow --no-update-shallow",
    "--refmap =",
    "-o --server-option =",
    "--no-server-option",
    "--negotiation-tip =",
    "--no-negotiation-tip",
    "--show-forced-updates --no-show-forced-updates",
    "--set-upstream --no-set-upstream",
    "-n",
];

pub(super) const FETCH: Program = Program {
    options: &[
        FETCH_SHARED,
        &[
            "--atomic --no-atomic",
            "-m --multiple --no-multiple",
            "-j --jobs =",
            "--no-jobs",
            "--prefetch --no-prefetch",
            "-P --prune-tags --no-prune-tags",
            "--recurse-submodules =?",
            "--no-recurse-submodules",
            "--recurse-submodules-default =",
            "--porcelain --no-porcelain",
            "--write-fetch-head --no-write-fetch-head",
            "-u --update-head-ok --no-update-head-ok",
            "--refetch",
            "-4 --ipv4",
            "-6 --ipv6",
            "--negotiate-only --no-negotiate-only",
            "--filter =",
            "--no-filter",
            "--auto-maintenance --no-auto-maintenance",
            "--auto-gc --no-auto-gc",
            // Named by the help text (`maintenance --auto`); git takes it as an ambiguous
            // prefix and stops.
            "--auto",
            "--write-commit-graph --no-write-commit-graph",
            "--stdin --no-stdin",
        ],
    ],
    operands: Operands::Repository,
    ..changer(
        "fetch",
        "`git fetch` updates the repository's references and objects",
    )
};

pub(super) const PULL: Program = Program {
    options: &[
        FETCH_SHARED,
        &[
            "--recurse-submodules =?",
            "--no-recurse-submodules",
            "-r --rebase =?",
            "--no-rebase",
            "--stat --no-stat",
            "--log =?",
            "--no-log",
            "--signoff =?",
            "--no-signoff",
            "--squash --no-squash",
            "--commit --no-commit",
            "--edit --no-edit",
            "--cleanup =",
            "--no-cleanup",
            "--ff --no-ff",
            "--ff-only",
            "--verify --no-verify",
            "--verify-signatures --no-verify-signatures :runs",
            "--autostash --no-autostash",
            "-s --strategy =:runs",
            "--no-strategy",
            "-X --strategy-option =",
            "--no-strategy-option",
            "-S --gpg-sign =?:runs",
            "--no-gpg-sign",
            "--allow-unrelated-histories --no-allow-unrelated-histories",
            "-j --jobs =?",
            "--no-jobs",
            "-4 --ipv4 --no-ipv4",
            "-6 --ipv6 --no-ipv6",
        ],
    ],
    operands: Operands::Repository,
    ..changer(
        "pull",
        "`git pull` fetches and merges into the working tree",
    )
};

pub(super) const LS_REMOTE: Program = Program {
    options: &[&[
        "-q --quiet --no-quiet",
        "--upload-pack --exec =:runs",
        "--no-upload-pack",
        "-t --tags --no-tags",
        "-b --branches --no-branches",
        "-h --heads",
        "--refs --no-refs",
        "--get-url --no-get-url",
        "--sort =:refsort",
        "--no-sort",
        "--exit-code --no-exit-code",
        "--symref --no-symref",
        "-o --server-option =",
        "--no-server-option",
    ]],
    operands: Operands::Repository,
    ..changer(
        "ls-remote",
        "`git ls-remote` connects to another repository",
    )
};

pub(super) const CLONE: Program = Program {
    options: &[&[
        "-v --verbose --no-verbose",
        "-q --quiet --no-quiet",
        "--progress --no-progress",
        "--reject-shallow --no-reject-shallow",
        "-n --no-checkout",
        "--checkout",
        "--bare --no-bare",
        "--mirror --no-mirror",
        "-l --local --no-local",
        "--no-hardlinks",
        "--hardlinks",
        "-s --shared --no-shared",
        "--recurse-submodules --recursive =?",
        "--no-recurse-submodules --no-recursive",
        "-j --jobs =",
        "--no-jobs",
        // Hooks copied from a template directory run later.
        "--template =:runs",
        "--no-template",
        "--reference --reference-if-able =:reads",
        "--no-reference --no-reference-if-able",
        "--dissociate --no-dissociate",
        "-o --origin =",
        "--no-origin",
        "-b --branch =",
        "--no-branch",
        "-u --upload-pack =:runs",
        "--no-upload-pack",
        "--depth =",
        "--no-depth",
        "--shallow-since =",
        "--no-shallow-since",
        "--shallow-exclude =",
        "--no-shallow-exclude",
        "--single-branch --no-single-branch",
        "--no-tags",
        "--tags",
        "--shallow-submodules --no-shallow-submodules",
        "--separate-git-dir =:writes",
        "--no-separate-git-dir",
        "--ref-format =",
        "--no-ref-format",
        // Configuration git may run later (`core.fsmonitor`, `core.sshCommand`).
        "-c --config =:runs",
        "--no-config",
        "--server-option =",
        "--no-server-option",
        "-4 --ipv4",
        "-6 --ipv6",
        "--filter =",
        "--no-filter",
        "--also-filter-submodules --no-also-filter-submodules",
        "--remote-submodules --no-remote-submodules",
        "--sparse --no-sparse",
        "--bundle-uri =",
        "--no-bundle-uri",
    ]],
    operands: Operands::Repository,
    ..changer(
        "clone",
        "`git clone` makes a repository and checks files out into it",
    )
};

pub(super) const INIT: Program = Program {
    options: &[&[
        "--template =:runs",
        "--no-template",
        "--bare --no-bare",
        "--shared =?",
        "--no-shared",
        "-q --quiet --no-quiet",
        "--separate-git-dir =:writes",
        "--no-separate-git-dir",
        "-b --initial-branch =",
        "--no-initial-branch",
        "--object-format =",
        "--no-object-format",
        "--ref-format =",
        "--no-ref-format",
    ]],
    ..changer("init", "`git init` makes a repository")
};

pub(super) const ARCHIVE: Program = Program {
    options: &[&[
        "--format =",
        "--no-format",
        "--prefix =",
        "--no-prefix",
        "--add-file =:reads",
        "--no-add-file",
        "--add-virtual-file =",
        "--no-add-virtual-file",
        "-o --output =:writes",
        "--no-output",
        "--worktree-attributes --no-worktree-attributes",
        "-v --verbose --no-verbose",
        "--mtime =",
        "-#",
        "-l --list --no-list",
        "--remote =",
        "--no-remote",
        "--exec =:runs",
        "--no-exec",
    ]],
    operands: Operands::GitRevisions,
    // The whole tree of a revision: as much as the working tree.
    recursive: true,
    ..changer("archive", "`git archive` writes an archive of a whole tree")
};

/// `git fast-export` prints every blob of the revisions it exports (`--all`: the whole
/// history), whatever its words: as much as the working tree, as `git archive` reads.
pub(super) const FAST_EXPORT: Program = Program {
    options: &[
        REVS,
        &[
            "--progress =",
            "--no-progress",
            "--signed-tags =",
            "--no-signed-tags",
            "--tag-of-filtered-object =",
            "--no-tag-of-filtered-object",
            "--reencode =",
            "--no-reencode",
            "--export-marks =:writes",
            "--no-export-marks",
            "--import-marks =:reads",
            "--no-import-marks",
            "--import-marks-if-exists =:reads",
            "--no-import-marks-if-exists",
            "--fake-missing-tagger --no-fake-missing-tagger",
            "--full-tree --no-full-tree",
            "--use-done-feature --no-use-done-feature",
            "--data --no-data",
            "--refspec =",
            "--no-refspec",
            "--anonymize --no-anonymize",
            "--anonymize-map =",
            "--reference-excluded-parents --no-reference-excluded-parents",
            "--show-original-ids --no-show-original-ids",
            "--mark-tags --no-mark-tags",
        ],
    ],
    operands: Operands::GitRevisions,
    recursive: true,
    ..changer(
        "fast-export",
        "`git fast-export` prints every file of every revision it exports",
    )
};

pub(super) const DIFFTOOL: Program = runner(
    "difftool",
    "`git difftool` runs the configured diff tool (or `-x`'s command)",
);

/// `git credential fill` asks the configured helpers, which are programs, for stored
/// passwords; `credential-store` and `credential-cache` are such helpers themselves.
pub(super) const CREDENTIAL: Program = Program {
    reads_unnamed: true,
    ..runner(
        "credential",
        "`git credential` runs the configured credential helpers, which print stored passwords",
    )
};

pub(super) const CREDENTIAL_STORE: Program = Program {
    reads_unnamed: true,
    ..runner(
        "credential-store",
        "`git credential-store` prints the passwords stored in `~/.git-credentials`",
    )
};

pub(super) const CREDENTIAL_CACHE: Program = Program {
    reads_unnamed: true,
    ..runner(
        "credential-cache",
        "`git credential-cache` prints the passwords its daemon holds",
    )
};

/// `git var -l` prints every configuration value (a token in a remote's URL among them);
/// `git var NAME` a logical variable read from the configuration.
pub(super) const VAR: Program = Program {
    options: &[&["-l"]],
    reads_unnamed: true,
    ..changer(
        "var",
        "`git var` prints configuration values, which may hold secrets",
    )
};

pub(super) const MERGETOOL: Program = runner(
    "mergetool",
    "`git mergetool` runs the configured merge tool",
);

pub(super) const FILTER_BRANCH: Program = runner(
    "filter-branch",
    "`git filter-branch` runs its filters as shell commands",
);

const BISECT_SUBCOMMANDS: &[Program] = &[
    runner("run", "`git bisect run` runs its command"),
    runner(
        "visualize",
        "`git bisect visualize` runs gitk or a log command",
    ),
    runner("view", "`git bisect view` runs gitk or a log command"),
    plain_changer("start", "`git bisect start` checks out revisions"),
    plain_changer("good", "`git bisect good` checks out a revision"),
    plain_changer("bad", "`git bisect bad` checks out a revision"),
    plain_changer("old", "`git bisect old` checks out a revision"),
    plain_changer("new", "`git bisect new` checks out a revision"),
    plain_changer("skip", "`git bisect skip` checks out a revision"),
    plain_changer("next", "`git bisect next` checks out a revision"),
    plain_changer("reset", "`git bisect reset` checks out a revision"),
    plain_changer("replay", "`git bisect replay` checks out revisions"),
    plain_changer("terms", "`git bisect terms` is part of a bisection"),
    plain_changer("log", "`git bisect log` is part of a bisection"),
    plain_changer("help", "`git bisect help` is part of a bisection"),
];

pub(super) const BISECT: Program = Program {
    subcommands: BISECT_SUBCOMMANDS,
    ..changer("bisect", "`git bisect` checks out revisions")
};

const SUBMODULE_SUBCOMMANDS: &[Program] = &[
    runner(
        "foreach",
        "`git submodule foreach` runs its command in each submodule",
    ),
    Program {
        operands: Operands::Repository,
        ..plain_changer(
            "add",
            "`git submodule add` clones a repository into the working tree",
        )
    },
    plain_changer(
        "update",
        "`git submodule update` clones and checks out submodules",
    ),
    plain_changer("status", "`git submodule status` may update submodules"),
    plain_changer("init", "`git submodule init` writes the configuration"),
    plain_changer("deinit", "`git submodule deinit` removes submodules"),
    plain_changer(
        "set-branch",
        "`git submodule set-branch` writes `.gitmodules`",
    ),
    plain_changer("set-url", "`git submodule set-url` writes `.gitmodules`"),
    plain_changer("summary", "`git submodule summary` may update submodules"),
    plain_changer("sync", "`git submodule sync` writes the configuration"),
    plain_changer(
        "absorbgitdirs",
        "`git submodule absorbgitdirs` moves repositories",
    ),
];

pub(super) const SUBMODULE: Program = Program {
    options: &[&["--quiet", "--cached"]],
    subcommands: SUBMODULE_SUBCOMMANDS,
    ..changer("submodule", "`git submodule` changes submodules")
};

const WORKTREE_SUBCOMMANDS: &[Program] = &[
    Program {
        options: &[&[
            "-f --force --no-force",
            "-b =",
            "-B =",
            "--orphan --no-orphan",
            "-d --detach --no-detach",
            "--checkout --no-checkout",
            "--lock --no-lock",
            "--reason =",
            "--no-reason",
            "-q --quiet --no-quiet",
            "--track --no-track",
            "--guess-remote --no-guess-remote",
        ]],
        ..changer(
            "add",
            "`git worktree add` checks a branch out into a new directory",
        )
    },
    Program {
        options: &[&[
            "--porcelain --no-porcelain",
            "-v --verbose --no-verbose",
            "--expire =",
            "--no-expire",
            "-z",
        ]],
        operands: Operands::None,
        changes: None,
        ..changer("list", "")
    },
    Program {
        options: &[&["-f --force --no-force"]],
        ..changer("move", "`git worktree move` moves a working tree")
    },
    Program {
        options: &[&["-f --force --no-force"]],
        ..changer("remove", "`git worktree remove` deletes a working tree")
    },
    Program {
        options: &[&["--reason =", "--no-reason"]],
        ..changer("lock", "`git worktree lock` locks a working tree")
    },
    changer("unlock", "`git worktree unlock` unlocks a working tree"),
    Program {
        options: &[&[
            "-n --dry-run --no-dry-run",
            "-v --verbose --no-verbose",
            "--expire =",
            "--no-expire",
        ]],
        ..changer("prune", "`git worktree prune` deletes working tree records")
    },
    changer(
        "repair",
        "`git worktree repair` rewrites working tree links",
    ),
];

pub(super) const WORKTREE: Program = Program {
    subcommands: WORKTREE_SUBCOMMANDS,
    ..Program {
        changes: None,
        ..changer("worktree", "")
    }
};

const BUNDLE_SUBCOMMANDS: &[Program] = &[
    Program {
        options: &[
            &[
                "-q --quiet --no-quiet",
                "--progress --no-progress",
                "--version =",
                "--no-version",
            ],
            REVS,
        ],
        ..changer("create", "`git bundle create` writes a bundle file")
    },
    Program {
        options: &[&["-q --quiet --no-quiet"]],
        operands: Operands::Files,
        ..changer(
            "verify",
            "`git bundle verify` reads a bundle file git may not know",
        )
    },
    Program {
        operands: Operands::Files,
        ..changer(
            "list-heads",
            "`git bundle list-heads` reads a bundle file git may not know",
        )
    },
    Program {
        options: &[&["--progress --no-progress"]],
        operands: Operands::Files,
        ..changer(
            "unbundle",
            "`git bundle unbundle` writes objects into the repository",
        )
    },
];

pub(super) const BUNDLE: Program = Program {
    subcommands: BUNDLE_SUBCOMMANDS,
    ..changer("bundle", "`git bundle` reads or writes bundle files")
};

/// Options of `git add`, `git commit` and `git stash push` that name their pathspecs in a
/// file, whose names may be any file below the repository.
const PATHSPEC_FILE: &[&str] = &[
    "--pathspec-from-file =:readslist",
    "--no-pathspec-from-file",
    "--pathspec-file-nul --no-pathspec-file-nul",
];

/// `git add` reads every file below its pathspecs into the object store, ignored ones with
/// `-f` (`git add -f .` stores `.env`, which `git diff --cached` then prints).
pub(super) const ADD: Program = Program {
    options: &[
        &[
            "-n --dry-run --no-dry-run",
            "-v --verbose --no-verbose",
            "-i --interactive --no-interactive",
            "-p --patch --no-patch",
            "-e --edit --no-edit",
            "-f --force --no-force",
            // Stages what tracked files hold now: no file git does not already have.
            "-u --update",
            "--no-update",
            "--renormalize --no-renormalize",
            "-N --intent-to-add --no-intent-to-add",
            "-A --all :wholetree",
            "--no-all",
            "--ignore-removal --no-ignore-removal",
            "--refresh --no-refresh",
            "--ignore-errors --no-ignore-errors",
            "--ignore-missing --no-ignore-missing",
            "--sparse --no-sparse",
            "--chmod =",
            "--no-chmod",
        ],
        PATHSPEC_FILE,
    ],
    operands: Operands::Pathspecs,
    ..changer("add", "`git add` updates the index")
};

/// `git commit` reads the files below its pathspecs (`--include`, `--only`, `-- PATHS`),
/// or with `-a` every tracked file, into a commit.
pub(super) const COMMIT: Program = Program {
    options: &[
        &[
            "-q --quiet --no-quiet",
            "-v --verbose --no-verbose",
            "-F --file =:reads",
            "--no-file",
            "--author =",
            "--no-author",
            "--date =",
            "--no-date",
            "-m --message =",
            "--no-message",
            "-c --reedit-message =",
            "--no-reedit-message",
            "-C --reuse-message =",
            "--no-reuse-message",
            "--fixup =",
            "--no-fixup",
            "--squash =",
            "--no-squash",
            "--reset-author --no-reset-author",
            "--trailer =",
            "-s --signoff --no-signoff",
            "-t --template =:reads",
            "--no-template",
            "-e --edit --no-edit",
            "--cleanup =",
            "--no-cleanup",
            "--status --no-status",
            // Signs with gpg (or ssh-keygen), as `--show-signature` verifies.
            "-S --gpg-sign =?:runs",
            "--no-gpg-sign",
            // Stages what tracked files hold now: no file git does not already have.
            "-a --all",
            "--no-all",
            "-i --include --no-include",
            "--interactive --no-interactive",
            "-p --patch --no-patch",
            "-o --only --no-only",
            "-n --no-verify",
            "--verify",
            "--dry-run --no-dry-run",
            "--short --no-short",
            "--branch --no-branch",
            "--ahead-behind --no-ahead-behind",
            "--porcelain --no-porcelain",
            "--long --no-long",
            "-z --null --no-null",
            "--amend --no-amend",
            "--no-post-rewrite",
            "--post-rewrite",
            "-u --untracked-files =?",
            "--no-untracked-files",
            "--allow-empty",
            "--allow-empty-message",
        ],
        PATHSPEC_FILE,
    ],
    operands: Operands::Pathspecs,
    ..changer("commit", "`git commit` records a commit")
};

/// Options of `git stash push` (and `save`): `-u` and `-a` store untracked (and ignored)
/// files of the whole tree, or below the pathspecs.
const STASH_PUSH_OPTIONS: &[&str] = &[
    "-k --keep-index --no-keep-index",
    "-S --staged --no-staged",
    "-p --patch --no-patch",
    "-q --quiet --no-quiet",
    "-u --include-untracked :wholetree",
    "--no-include-untracked",
    "-a --all :wholetree",
    "--no-all",
    "-m --message =",
    "--no-message",
];

pub(super) const STASH_PUSH: Program = Program {
    options: &[STASH_PUSH_OPTIONS, PATHSPEC_FILE],
    operands: Operands::Pathspecs,
    ..changer("push", "`git stash push` stores and resets changes")
};

pub(super) const STASH_SAVE: Program = Program {
    options: &[STASH_PUSH_OPTIONS],
    ..changer("save", "`git stash save` stores and resets changes")
};

pub(super) const STASH_POP: Program = Program {
    options: &[&["-q --quiet --no-quiet", "--index --no-index"]],
    ..changer(
        "pop",
        "`git stash pop` writes a stash into the working tree",
    )
};

pub(super) const STASH_APPLY: Program = Program {
    options: &[&["-q --quiet --no-quiet", "--index --no-index"]],
    ..changer(
        "apply",
        "`git stash apply` writes a stash into the working tree",
    )
};

pub(super) const STASH_DROP: Program = Program {
    options: &[&["-q --quiet --no-quiet"]],
    ..changer("drop", "`git stash drop` deletes a stash")
};

pub(super) const STASH_CLEAR: Program = changer("clear", "`git stash clear` deletes every stash");

pub(super) const STASH_BRANCH: Program = changer(
    "branch",
    "`git stash branch` checks a stash out on a new branch",
);

/// Options shared by `git checkout`, `git switch` and `git restore`.
const CHECKOUT_SHARED: &[&str] = &[
    "-q --quiet --no-quiet",
    "--recurse-submodules =?",
    "--no-recurse-submodules",
    "--progress --no-progress",
    "-m --merge --no-merge",
    "--conflict =",
    "--no-conflict",
];

pub(super) const CHECKOUT: Program = Program {
    options: &[
        CHECKOUT_SHARED,
        &[
            "-b =",
            "-B =",
            "-l",
            "--guess --no-guess",
            "--overlay --no-overlay",
            "-d --detach --no-detach",
            "-t --track =?",
            "--no-track",
            "-f --force --no-force",
            "--orphan =",
            "--no-orphan",
            "--overwrite-ignore --no-overwrite-ignore",
            "--ignore-other-worktrees --no-ignore-other-worktrees",
            "-2 --ours",
            "-3 --theirs",
            "-p --patch --no-patch",
            "--ignore-skip-worktree-bits --no-ignore-skip-worktree-bits",
        ],
        PATHSPEC_FILE,
    ],
    ..changer("checkout", "`git checkout` writes the working tree")
};

pub(super) const SWITCH: Program = Program {
    options: &[
        CHECKOUT_SHARED,
        &[
            "-c --create =",
            "--no-create",
            "-C --force-create =",
            "--no-force-create",
            "--guess --no-guess",
            "--discard-changes --no-discard-changes",
            "-d --detach --no-detach",
            "-t --track =?",
            "--no-track",
            "-f --force --no-force",
            "--orphan =",
            "--no-orphan",
            "--overwrite-ignore --no-overwrite-ignore",
            "--ignore-other-worktrees --no-ignore-other-worktrees",
        ],
    ],
    ..changer("switch", "`git switch` writes the working tree")
};

pub(super) const RESTORE: Program = Program {
    options: &[
        CHECKOUT_SHARED,
        &[
            "-s --source =",
            "--no-source",
            "-S --staged --no-staged",
            "-W --worktree --no-worktree",
            "--ignore-unmerged --no-ignore-unmerged",
            "--overlay --no-overlay",
            "-2 --ours",
            "-3 --theirs",
            "-p --patch --no-patch",
            "--ignore-skip-worktree-bits --no-ignore-skip-worktree-bits",
        ],
        PATHSPEC_FILE,
    ],
    ..changer(
        "restore",
        "`git restore` writes the working tree or the index",
    )
};

pub(super) const RESET: Program = Program {
    options: &[
        &[
            "-q --quiet --no-quiet",
            "--no-refresh",
            "--refresh",
            "--mixed",
            "--soft",
            "--hard",
            "--merge",
            "--keep",
            "--recurse-submodules =?",
            "--no-recurse-submodules",
            "-p --patch --no-patch",
            "-N --intent-to-add --no-intent-to-add",
        ],
        PATHSPEC_FILE,
    ],
    ..changer("reset", "`git reset` moves the branch and resets the index")
};

/// Options `git merge`, `git cherry-pick` and `git revert` share.
const PICK_SHARED: &[&str] = &[
    "--cleanup =",
    "--no-cleanup",
    "-e --edit --no-edit",
    "--rerere-autoupdate --no-rerere-autoupdate",
    // A strategy is the program `git-merge-<strategy>`, found on `PATH`.
    "-s --strategy =:runs",
    "--no-strategy",
    "-X --strategy-option =",
    "--no-strategy-option",
    // Signs with gpg (or ssh-keygen).
    "-S --gpg-sign =?:runs",
    "--no-gpg-sign",
    "--quit",
    "--continue",
    "--abort",
];

pub(super) const MERGE: Program = Program {
    options: &[
        PICK_SHARED,
        &[
            "-n",
            "--stat --no-stat",
            "--summary",
            "--no-summary",
            "--log =?",
            "--no-log",
            "--squash --no-squash",
            "--commit --no-commit",
            "--ff --no-ff",
            "--ff-only",
            "--verify-signatures :runs",
            "--no-verify-signatures",
            "-m --message =",
            "--no-message",
            "-F --file =:reads",
            "--no-file",
            "--into-name =",
            "--no-into-name",
            "-v --verbose --no-verbose",
            "-q --quiet --no-quiet",
            "--no-abort",
            "--no-quit",
            "--no-continue",
            "--allow-unrelated-histories --no-allow-unrelated-histories",
            "--progress --no-progress",
            "--autostash --no-autostash",
            "--overwrite-ignore --no-overwrite-ignore",
            "--signoff --no-signoff",
            "--no-verify",
            "--verify",
        ],
    ],
    ..changer("merge", "`git merge` writes the working tree and a commit")
};

/// Options `git cherry-pick` and `git revert` share beyond [`PICK_SHARED`].
const PICK: &[&str] = &[
    "--skip",
    "-n --no-commit",
    "--commit",
    "-s --signoff --no-signoff",
    "-m --mainline =",
    "--no-mainline",
];

pub(super) const CHERRY_PICK: Program = Program {
    options: &[
        PICK_SHARED,
        PICK,
        &[
            "-x",
            "--ff --no-ff",
            "--allow-empty --no-allow-empty",
            "--allow-empty-message --no-allow-empty-message",
            "--keep-redundant-commits --no-keep-redundant-commits",
            "--empty =",
        ],
    ],
    ..changer(
        "cherry-pick",
        "`git cherry-pick` writes the working tree and commits",
    )
};

pub(super) const REVERT: Program = Program {
    options: &[PICK_SHARED, PICK, &["--reference --no-reference"]],
    ..changer("revert", "`git revert` writes the working tree and commits")
};

pub(super) const RM: Program = Program {
    options: &[
        &[
            "-n --dry-run --no-dry-run",
            "-q --quiet --no-quiet",
            "--cached --no-cached",
            "-f --force --no-force",
            "-r",
            "--ignore-unmatch --no-ignore-unmatch",
            "--sparse --no-sparse",
        ],
        PATHSPEC_FILE,
    ],
    ..changer("rm", "`git rm` deletes files and updates the index")
};

pub(super) const MV: Program = Program {
    options: &[&[
        "-v --verbose --no-verbose",
        "-n --dry-run --no-dry-run",
        "-f --force --no-force",
        "-k",
        "--sparse --no-sparse",
    ]],
    ..changer("mv", "`git mv` moves files")
};

pub(super) const CLEAN: Program = Program {
    options: &[&[
        "-q --quiet --no-quiet",
        "-n --dry-run --no-dry-run",
        "-f --force --no-force",
        "-i --interactive --no-interactive",
        "-d",
        "-e --exclude =",
        "-x",
        "-X",
    ]],
    ..changer("clean", "`git clean` deletes untracked files")
};

/// `git maintenance start` schedules `git maintenance run` with systemd, cron or launchd
/// (writing their files and `~/.gitconfig`); `register` and the others write
/// `~/.gitconfig` (or `--config-file`), which `shell::writes` names.
const MAINTENANCE_SUBCOMMANDS: &[Program] = &[
    runner(
        "start",
        "`git maintenance start` schedules git to run outside the session (systemd, cron or launchd)",
    ),
    Program {
        options: &[&["--config-file =", "--no-config-file"]],
        ..changer(
            "register",
            "`git maintenance register` adds the repository to `~/.gitconfig`",
        )
    },
    Program {
        options: &[&["--config-file =", "--no-config-file", "--force"]],
        ..changer(
            "unregister",
            "`git maintenance unregister` changes `~/.gitconfig`",
        )
    },
    changer(
        "stop",
        "`git maintenance stop` removes the schedule and changes `~/.gitconfig`",
    ),
];

pub(super) const MAINTENANCE: Program = Program {
    subcommands: MAINTENANCE_SUBCOMMANDS,
    ..changer("maintenance", "`git maintenance` changes the repository")
};

/// `git for-each-repo -- ARGS` runs `git ARGS` in each repository a configuration key
/// names (`-c alias.x='!cmd' x` runs any command).
pub(super) const FOR_EACH_REPO: Program = runner(
    "for-each-repo",
    "`git for-each-repo` runs git with its arguments, which may run any command (`-c alias.x='!cmd'`)",
);

/// `git update-index --add F` reads `F` into the object store; `--stdin` takes the names
/// from standard input, `--again` every path of the index that differs from `HEAD`.
pub(super) const UPDATE_INDEX: Program = Program {
    options: &[&[
        "-q",
        "--ignore-submodules --no-ignore-submodules",
        "--add --no-add",
        "--replace --no-replace",
        "--remove --no-remove",
        "--unmerged --no-unmerged",
        "--refresh",
        "--really-refresh",
        "--assume-unchanged",
        "--no-assume-unchanged",
        "--skip-worktree",
        "--no-skip-worktree",
        "--info-only --no-info-only",
        "--force-remove --no-force-remove",
        "-z",
        "--stdin :readslist",
        "-g --again :readslist",
        "--ignore-missing --no-ignore-missing",
        "--verbose --no-verbose",
        // Index entries given by their object (`MODE,OBJECT,PATH`), not files read.
        "--cacheinfo =",
        "--index-info",
        "--chmod =",
        "--ignore-skip-worktree-entries --no-ignore-skip-worktree-entries",
        "--unresolve",
        "--clear-resolve-undo",
        "--index-version =",
        "--no-index-version",
        "--show-index-version --no-show-index-version",
        "--split-index --no-split-index",
        "--untracked-cache --no-untracked-cache",
        "--test-untracked-cache --no-test-untracked-cache",
        "--force-untracked-cache --no-force-untracked-cache",
        "--force-write-index --no-force-write-index",
        "--fsmonitor --no-fsmonitor",
        "--fsmonitor-valid",
        "--no-fsmonitor-valid",
    ]],
    operands: Operands::Pathspecs,
    ..changer("update-index", "`git update-index` changes the index")
};

pub(super) const GC: Program = Program {
    options: &[&[
        "-q --quiet --no-quiet",
        "--prune =?",
        "--no-prune",
        "--cruft --no-cruft",
        "--max-cruft-size =",
        "--aggressive --no-aggressive",
        "--auto --no-auto",
        "--detach --no-detach",
        "--force --no-force",
        "--keep-largest-pack --no-keep-largest-pack",
    ]],
    operands: Operands::None,
    ..changer("gc", "`git gc` repacks and prunes the repository")
};
