//! What `git` writes: the output files of any subcommand, the repositories and checkouts
//! it makes (`clone`, `init`, `worktree add`, `submodule add`), the files `git apply` and
//! `git config --file` write, and the working tree its checkouts, merges and resets fill
//! with the names a commit, the index or a stash holds.

use super::{
    files_written, into_directories, joined, joined_from, parse_options, part_of, Parsed, Word,
    Writes,
};

/// The index and value of `git`'s subcommand, past its global options (`-C DIR`, `-c k=v`).
fn git_subcommand(words: &[Word]) -> Option<(usize, &str)> {
    let mut i = 1;
    while let Some(w) = words.get(i) {
        let v = w.value.as_str();
        if !v.starts_with('-') {
            return Some((i, v));
        }
        let takes = crate::shell::canonical::GIT_GLOBAL_WITH_VALUE.contains(&v);
        i += if takes { 2 } else { 1 };
    }
    None
}

/// What a `git` command writes: `--output`/`-o` files of any subcommand, and the
/// destinations of the subcommands that make repositories or check files out
/// ([`git_destinations`]).
pub(super) fn git_writes(words: &[Word]) -> Writes {
    let Some((sub, name)) = git_subcommand(words) else {
        return Writes::default();
    };
    let written = if name == "apply" {
        git_apply_writes(words)
    } else {
        subcommand_writes(words, sub, name)
    };
    from_git_directory(words, written)
}

/// What git writes, every relative path named from where `git -C DIR` moves it (each
/// relative `-C` below the one before, [`crate::shell::base`]): `--work-tree`, `-o`,
/// pathspecs, destinations. A directory known only at run time writes below `/`.
fn from_git_directory(words: &[Word], written: Writes) -> Writes {
    let values: Vec<String> = words.iter().map(|w| w.value.clone()).collect();
    let bases = crate::commands::effects(&values).map_or_else(Vec::new, |e| e.bases);
    let dir = crate::shell::base::directory(words, &bases, usize::MAX);
    let mut out = Writes {
        links: written.links,
        ..Writes::default()
    };
    let mut anywhere = false;
    for w in written.files {
        match dir.place(&w) {
            Some(placed) => out.files.push(placed),
            None => anywhere = true,
        }
    }
    for w in written.below {
        match dir.place(&w) {
            Some(placed) => out.below.push(placed),
            None => anywhere = true,
        }
    }
    if anywhere {
        out.below.push(Word::literal("/"));
    }
    out
}

/// What a subcommand other than `apply` writes, each path as git names it, from where it
/// runs.
fn subcommand_writes(words: &[Word], sub: usize, name: &str) -> Writes {
    let mut out = git_destinations(words, sub, name);
    let tree = work_tree_writes(words, sub, name);
    out.files.extend(tree.files);
    out.below.extend(tree.below);
    out.links |= tree.links;
    // `-o` names the remote (`clone`) or a server option (`fetch`, `pull`, `push`,
    // `ls-remote`) there, not an output file.
    if !["clone", "fetch", "pull", "push", "ls-remote"].contains(&name) {
        let written = files_written(words);
        out.files.extend(written.files);
        out.below.extend(written.below);
    }
    out
}

/// What a subcommand writes in the working tree from a commit, the index or a stash.
///
/// The names come from the repository, not from the command line: a branch fetched from
/// anywhere, a commit or an index that plumbing built (`git update-index --cacheinfo`), a
/// `git reset --soft` that moved `HEAD` first. Any of them may be a protected path
/// (`.claude/settings.json`, `.toolgate/policy.json`) or a link, so the working tree (or
/// each literal pathspec) is written below, as an archive's directory is:
///
/// - `checkout`, `switch`, `restore`, `reset --hard`/`--merge`/`--keep`, `merge`, `pull`,
///   `rebase`, `cherry-pick`, `revert`, `am`, `stash` (but `list`, `show`, `drop`, `clear`,
///   `create`, `store`), `bisect` (but `log`, `visualize`, `view`, `terms`, `help`),
///   `checkout-index` (and its `--prefix`), `read-tree -u`, `submodule update`,
///   `sparse-checkout` (but `list`), `mv` (its destination, as `mv`), `rm` (its pathspecs,
///   unless `--cached`), `merge-file` (its first file, unless `-p`).
/// - A switch that only makes a branch where `HEAD` is (`checkout -b NEW`, `switch -c
///   NEW`), `restore --staged`, and a `reset` of the index only write nothing there.
/// - Pathspecs (after `--`, or every operand of `restore`) are written below, relative to
///   the working directory; one with pathspec magic (`:/`, `:(glob)`) or a glob character,
///   `--pathspec-from-file`, and a `checkout` whose operands may be a branch write below
///   the working tree's root.
///
/// The root is `git --work-tree DIR`, else `git -C DIR`, else `.`: a root above the working
/// directory is that of a `git` run away from the project, which is judged as after a `cd`.
fn work_tree_writes(words: &[Word], sub: usize, name: &str) -> Writes {
    let named_root = work_tree_root(words, sub);
    let root = named_root.clone().unwrap_or_else(|| Word::literal("."));
    let rest = words.get(sub + 1..).unwrap_or_default();
    let mut out = Writes::default();
    let written = match name {
        "checkout" => checkout_writes(rest),
        "switch" => {
            let p = parse_options(
                rest,
                "cC",
                "",
                &["create", "force-create", "orphan", "conflict"],
            );
            // `--orphan` empties the tree: every tracked file is deleted.
            whole_if(!p.operands.is_empty() || p.has('\0', "orphan"))
        }
        "restore" => {
            let p = parse_options(rest, "s", "", &["source", "conflict", "pathspec-from-file"]);
            if p.has('S', "staged") && !p.has('W', "worktree") {
                Tree::Nothing
            } else {
                pathspecs(&p, p.operands.clone())
            }
        }
        "reset" => {
            let p = parse_options(rest, "", "", &["pathspec-from-file"]);
            whole_if(p.has('\0', "hard") || p.has('\0', "merge") || p.has('\0', "keep"))
        }
        // A bare `git pull` merges the branch's configured upstream, whose commits anyone who
        // can push there chose (the agent too, with `git push` and the plumbing that builds
        // any tree without writing a file): the same as a `git pull` of a named branch.
        "merge" | "pull" | "rebase" | "cherry-pick" | "revert" | "am" => Tree::Whole,
        // The merge strategies, run by hand (`git merge-recursive BASE -- HEAD OTHER`).
        "merge-recursive" | "merge-octopus" | "merge-subtree" | "merge-resolve" | "merge-ours"
        | "merge-ort" | "merge-one-file" => Tree::Whole,
        // `git clean` deletes untracked files below the tree or its pathspecs (a policy
        // file, a settings file): a deletion is judged as a write.
        "clean" => {
            let p = parse_options(rest, "e", "", &["exclude"]);
            if p.has('n', "dry-run") {
                Tree::Nothing
            } else if p.operands.is_empty() {
                Tree::Whole
            } else {
                pathspecs(&p, p.operands.clone())
            }
        }
        "stash" => {
            let p = parse_options(rest, "m", "", &["message", "pathspec-from-file"]);
            let named = p.operands.first().filter(|_| p.dashdash != Some(0));
            whole_if(!named.is_some_and(|w| {
                ["list", "show", "drop", "clear", "create", "store"].contains(&w.value.as_str())
            }))
        }
        "bisect" => whole_if(!rest.first().is_some_and(|w| {
            ["log", "visualize", "view", "terms", "help"].contains(&w.value.as_str())
        })),
        "checkout-index" => {
            let p = parse_options(rest, "", "", &["prefix", "stage"]);
            out.below.extend(p.values('\0', "prefix").cloned());
            Tree::Whole
        }
        "read-tree" => {
            let p = parse_options(
                rest,
                "",
                "",
                &["prefix", "exclude-per-directory", "index-output"],
            );
            whole_if(p.has('u', ""))
        }
        "submodule" => whole_if(first_operand(rest) == Some("update")),
        "sparse-checkout" => {
            whole_if(first_operand(rest).is_some_and(|w| !matches!(w, "list" | "check-rules")))
        }
        "mv" => {
            let mut operands = parse_options(rest, "", "", &[]).operands;
            let Some(dest) = operands.pop() else {
                return out;
            };
            // It moves links as they are.
            let mut moved = into_directories(vec![dest.clone()], &operands, false);
            moved.links = true;
            // The sources are removed: moving a settings file away changes it.
            moved.files.extend(operands.iter().cloned());
            moved.files = in_work_tree(named_root.as_ref(), moved.files);
            moved.below = in_work_tree(named_root.as_ref(), moved.below);
            return moved;
        }
        "rm" => {
            let p = parse_options(rest, "", "", &["pathspec-from-file"]);
            if p.has('\0', "cached") {
                Tree::Nothing
            } else {
                pathspecs(&p, p.operands.clone())
            }
        }
        "merge-file" => {
            let p = parse_options(rest, "L", "", &[]);
            if p.has('p', "stdout") {
                Tree::Nothing
            } else {
                out.files.extend(p.operands.first().cloned());
                Tree::Nothing
            }
        }
        _ => Tree::Nothing,
    };
    match written {
        Tree::Nothing => {}
        Tree::Whole => out.below.push(root),
        Tree::Paths(paths) => out.below.extend(in_work_tree(named_root.as_ref(), paths)),
    }
    out
}

/// Where the pathspecs `paths` lead when `git --work-tree DIR` names the working tree
/// (`root`): git names them from the tree's top when the working directory is outside it,
/// and from the working directory when it is inside, so each relative path counts at both
/// `./PATH` and `DIR/PATH`. Without `--work-tree`, the paths as they are.
///
/// ```text
/// in_work_tree(Some(".toolgate"), ["policy.json"]) == ["policy.json", ".toolgate/policy.json"]
/// in_work_tree(None, ["a"])                         == ["a"]
/// ```
fn in_work_tree(root: Option<&Word>, paths: Vec<Word>) -> Vec<Word> {
    let Some(root) = root else {
        return paths;
    };
    let mut out = Vec::with_capacity(paths.len() * 2);
    for path in paths {
        let rooted = path.home || path.value.starts_with('/');
        let below_root = (!rooted).then(|| joined_from(root, &path.value, &path));
        out.push(path);
        out.extend(below_root);
    }
    out
}

/// The first word that is not an option (`git submodule --quiet update`).
fn first_operand(words: &[Word]) -> Option<&str> {
    words
        .iter()
        .map(|w| w.value.as_str())
        .find(|v| !v.starts_with('-'))
}

/// Where a subcommand writes the working tree ([`work_tree_writes`]).
enum Tree {
    Nothing,
    Whole,
    Paths(Vec<Word>),
}

fn whole_if(writes: bool) -> Tree {
    if writes {
        Tree::Whole
    } else {
        Tree::Nothing
    }
}

/// `git checkout`: `-b NEW` alone makes a branch where `HEAD` is; `X -- PATHS` and
/// `-- PATHS` write the pathspecs; any other operand may be a branch to switch to.
fn checkout_writes(rest: &[Word]) -> Tree {
    let p = parse_options(
        rest,
        "bB",
        "",
        &["orphan", "conflict", "pathspec-from-file"],
    );
    // `-f`/`--force` and `-m`/`--merge` rewrite the whole tree from `HEAD` (which `git reset
    // --soft` may have moved), with a branch or without.
    let rewrites = p.has('f', "force") || p.has('m', "merge");
    match p.dashdash {
        _ if p.has('\0', "pathspec-from-file") || p.has('p', "patch") => Tree::Whole,
        None if rewrites && p.operands.is_empty() => Tree::Whole,
        Some(k) if k < p.operands.len() => {
            pathspecs(&p, p.operands.get(k..).unwrap_or_default().to_vec())
        }
        Some(0) => Tree::Nothing,
        Some(_) => Tree::Whole,
        None => whole_if(!p.operands.is_empty()),
    }
}

/// Literal pathspecs are written below themselves; magic (`:/`, `:(glob)`), a glob
/// character or `--pathspec-from-file` makes it the whole tree; none, nothing.
fn pathspecs(p: &Parsed, paths: Vec<Word>) -> Tree {
    let wide = |w: &Word| w.value.starts_with(':') || w.value.contains(['*', '?', '[', '\\']);
    if p.has('\0', "pathspec-from-file") || paths.iter().any(wide) {
        Tree::Whole
    } else if paths.is_empty() {
        Tree::Nothing
    } else {
        Tree::Paths(paths)
    }
}

/// The working tree `git --work-tree DIR` (or `--work-tree=DIR`) names.
fn work_tree_root(words: &[Word], sub: usize) -> Option<Word> {
    let global = parse_options(
        words.get(1..sub).unwrap_or_default(),
        "Cc",
        "",
        &[
            "git-dir",
            "work-tree",
            "namespace",
            "config-env",
            "super-prefix",
        ],
    );
    global.values('\0', "work-tree").last().cloned()
}

/// Where git puts what it makes, by subcommand:
///
/// - `git clone URL [DIR]` and `git submodule add URL [DIR]` check the remote's files out
///   below `DIR` (or the name git derives from the URL, [`clone_directory_name`]): files
///   whose names the remote chooses, any of which may be a protected path (an embedded
///   bare repository's `HEAD`, a `.claude/settings.json`). With `--bare` or `--mirror`,
///   `DIR` is a repository: its `HEAD` is written. With `--no-checkout`, `DIR` itself.
/// - `git init [DIR]` makes `DIR` (with `--bare`, its `HEAD`); `--separate-git-dir X`
///   makes a repository in `X`.
/// - `git worktree add PATH` checks a branch out below `PATH`; `git worktree move A B`
///   moves a working tree below `B`.
/// - `git bundle create FILE` writes `FILE`.
/// - `git config --file F` writes `F` when it sets something.
fn git_destinations(words: &[Word], sub: usize, name: &str) -> Writes {
    let rest = words.get(sub + 1..).unwrap_or_default();
    let mut out = Writes::default();
    match name {
        "clone" => {
            let p = parse_options(rest, "jobuc", "", CLONE_VALUES);
            let bare = p.has('\0', "bare") || p.has('\0', "mirror");
            let made = p.operands.get(1).cloned().or_else(|| {
                let url = p.operands.first()?;
                let derived = clone_directory_name(&url.value)?;
                let derived = if bare {
                    format!("{derived}.git")
                } else {
                    derived
                };
                Some(part_of(url, &derived))
            });
            separate_git_dir(&p, &mut out);
            match made {
                Some(d) if bare => {
                    out.files.push(joined(&d, "HEAD"));
                    out.files.push(d);
                }
                Some(d) if p.has('n', "no-checkout") => out.files.push(d),
                Some(d) => out.below.push(d),
                None => out.below.push(Word::literal(".")),
            }
        }
        "init" => {
            let p = parse_options(rest, "b", "", INIT_VALUES);
            let d = p
                .operands
                .first()
                .cloned()
                .unwrap_or_else(|| Word::literal("."));
            separate_git_dir(&p, &mut out);
            if p.has('\0', "bare") {
                out.files.push(joined(&d, "HEAD"));
            }
            out.files.push(d);
        }
        "worktree" => {
            let p = parse_options(rest, "bB", "", &["reason", "expire"]);
            let mut operands = p.operands.iter();
            match operands.next().map(|w| w.value.as_str()) {
                Some("add") => {
                    if let Some(path) = operands.next() {
                        if p.has('\0', "no-checkout") {
                            out.files.push(path.clone());
                        } else {
                            out.below.push(path.clone());
                        }
                    }
                }
                Some("move") => out.below.extend(operands.nth(1).cloned()),
                _ => {}
            }
        }
        "bundle" => {
            let p = parse_options(rest, "", "", &["version"]);
            let mut operands = p.operands.iter();
            if operands.next().is_some_and(|w| w.value == "create") {
                out.files
                    .extend(operands.next().filter(|w| w.value != "-").cloned());
            }
        }
        "submodule" => {
            let p = parse_options(rest, "b", "", &["name", "reference", "depth", "branch"]);
            let mut operands = p.operands.iter();
            if operands.next().is_some_and(|w| w.value == "add") {
                let url = operands.next();
                let made = operands.next().cloned().or_else(|| {
                    let url = url?;
                    Some(part_of(url, &clone_directory_name(&url.value)?))
                });
                if url.is_some() {
                    out.below.push(made.unwrap_or_else(|| Word::literal(".")));
                }
            }
        }
        "maintenance" => maintenance_writes(rest, &mut out),
        // `git remote add`, `set-url`, `rename`, `remove`, ... change `.git/config`.
        "remote" => {
            let p = parse_options(rest, "mt", "", &["mirror"]);
            let verb = p.operands.first().map(|w| w.value.as_str());
            if !matches!(verb, None | Some("show" | "get-url")) {
                out.files.push(Word::literal(".git/config"));
            }
        }
        "config" => {
            let p = parse_options(
                rest,
                "f",
                "",
                &["file", "blob", "type", "default", "value", "comment"],
            );
            let options: Vec<&str> = p.options.iter().map(|(o, _)| o.as_str()).collect();
            let operands: Vec<&str> = p.operands.iter().map(|w| w.value.as_str()).collect();
            if crate::commands::git_config_sets(&options, &operands) {
                out.files.extend(config_files(&p).iter().cloned());
            }
        }
        _ => {}
    }
    out
}

/// `git maintenance register`, `unregister`, `start` and `stop` write the global
/// configuration (`~/.gitconfig`, or `--config-file F`); `start` and `stop` also write the
/// scheduler's files: systemd's user units below `~/.config/systemd/user`, launchd's agents
/// below `~/Library/LaunchAgents` (or the crontab, which has no path here; `start` is a
/// runner anyway).
fn maintenance_writes(rest: &[Word], out: &mut Writes) {
    let p = parse_options(rest, "", "", &["config-file", "scheduler"]);
    let verb = p.operands.first().map(|w| w.value.as_str());
    if !matches!(verb, Some("register" | "unregister" | "start" | "stop")) {
        return;
    }
    let named: Vec<Word> = p.values('\0', "config-file").cloned().collect();
    if named.is_empty() {
        out.files.push(Word::in_home("~/.gitconfig"));
    } else {
        out.files.extend(named);
    }
    if matches!(verb, Some("start" | "stop")) {
        out.below.push(Word::in_home("~/.config/systemd/user"));
        out.below.push(Word::in_home("~/Library/LaunchAgents"));
    }
}

/// The files `git config` writes when it sets something: `--file F`, else the scope's file
/// (`--global`: `~/.gitconfig` and `~/.config/git/config`, git writing whichever exists;
/// `--system`: `/etc/gitconfig`; `--worktree`: `.git/config.worktree`), else the
/// repository's `.git/config`.
fn config_files(p: &Parsed) -> Vec<Word> {
    let named: Vec<Word> = p.values('f', "file").cloned().collect();
    if !named.is_empty() {
        return named;
    }
    let home = |tail: &str| Word::in_home(&format!("~/{tail}"));
    if p.has('\0', "global") {
        vec![home(".gitconfig"), home(".config/git/config")]
    } else if p.has('\0', "system") {
        vec![Word::literal("/etc/gitconfig")]
    } else if p.has('\0', "worktree") {
        vec![Word::literal(".git/config.worktree")]
    } else {
        vec![Word::literal(".git/config")]
    }
}

/// `--separate-git-dir X` makes a repository in `X`: its `HEAD` and `X` itself are written.
fn separate_git_dir(p: &Parsed, out: &mut Writes) {
    for x in p.values('\0', "separate-git-dir") {
        out.files.push(joined(x, "HEAD"));
        out.files.push(x.clone());
    }
}

/// Long options of `git clone` that take a value (`git clone -h`, git 2.47).
const CLONE_VALUES: &[&str] = &[
    "jobs",
    "template",
    "reference",
    "reference-if-able",
    "origin",
    "branch",
    "upload-pack",
    "depth",
    "shallow-since",
    "shallow-exclude",
    "separate-git-dir",
    "ref-format",
    "config",
    "server-option",
    "filter",
    "bundle-uri",
];

/// Long options of `git init` that take a value.
const INIT_VALUES: &[&str] = &[
    "template",
    "separate-git-dir",
    "initial-branch",
    "object-format",
    "ref-format",
];

/// The directory `git clone URL` makes when no directory is given, as git derives it:
/// trailing `/` and `/.git` removed, the part after the last `/` or `:`, without a
/// `.git` or `.bundle` suffix. `None` when nothing is left.
///
/// ```text
/// https://h/o/repo.git  -> repo
/// git@h:o/repo/.git/    -> repo
/// https://h/.claude     -> .claude
/// ```
fn clone_directory_name(url: &str) -> Option<String> {
    let mut s = url.trim_end_matches('/');
    while let Some(rest) = s.strip_suffix("/.git") {
        s = rest.trim_end_matches('/');
    }
    let start = s.rfind(['/', ':']).map_or(0, |at| at + 1);
    let name = s.get(start..)?;
    let name = name
        .strip_suffix(".git")
        .or_else(|| name.strip_suffix(".bundle"))
        .unwrap_or(name);
    (!name.is_empty()).then(|| name.to_owned())
}

/// `git apply` writes the files the patch names, below `.`, unless it
/// only reports (`--check`, `--stat`, `--numstat`, `--summary` without `--apply`).
fn git_apply_writes(words: &[Word]) -> Writes {
    let Some((sub, _)) = git_subcommand(words) else {
        return Writes::default();
    };
    let p = parse_options(words.get(sub + 1..).unwrap_or_default(), "p", "C", &[]);
    let report_only = ["check", "stat", "numstat", "summary"]
        .iter()
        .any(|o| p.options.iter().any(|(x, _)| x == &format!("--{o}")));
    if report_only && !p.options.iter().any(|(x, _)| x == "--apply") {
        return Writes::default();
    }
    Writes {
        files: Vec::new(),
        below: vec![Word::literal(".")],
        links: false,
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{below, written};
    use super::super::writes;
    use super::Word;

    #[test]
    fn git_writes_what_it_makes() {
        // A clone checks out files the remote names, below its directory.
        assert_eq!(below("git clone https://h/o/r.git"), ["r"]);
        assert_eq!(below("git clone https://h/r x/y"), ["x/y"]);
        assert_eq!(below("git clone https://h/.claude"), [".claude"]);
        assert_eq!(below("git clone git@h:o/.claude.git/"), [".claude"]);
        assert_eq!(
            below("git clone -b main --depth 1 /src/repo/.git"),
            ["repo"]
        );
        assert_eq!(below("git clone https://h/r.bundle"), ["r"]);
        assert_eq!(below("git clone /"), ["."]);
        assert_eq!(below("git -C sub clone u d"), ["sub/d"]);
        assert_eq!(below("git clone -o up u d"), ["d"]);
        assert_eq!(written("git clone -o up u d"), Vec::<String>::new());
        assert_eq!(written("git push -o ci.skip"), Vec::<String>::new());
        assert_eq!(
            written("git clone --bare https://h/r"),
            ["r.git/HEAD", "r.git"]
        );
        assert_eq!(written("git clone -n u d"), ["d"]);
        assert_eq!(
            written("git clone --separate-git-dir=g u d"),
            ["g/HEAD", "g"]
        );
        assert_eq!(below("git submodule add https://h/.claude"), [".claude"]);
        assert_eq!(below("git submodule add -b x u sub"), ["sub"]);
        // A new repository is git's own; a bare one is a `HEAD` and a `config`.
        assert_eq!(written("git init .claude"), [".claude"]);
        assert_eq!(written("git init"), ["."]);
        assert_eq!(written("git init -b main --bare x"), ["x/HEAD", "x"]);
        assert_eq!(below("git worktree add .claude"), [".claude"]);
        assert_eq!(below("git worktree add -b feat ../wt main"), ["../wt"]);
        assert_eq!(written("git worktree add --no-checkout wt"), ["wt"]);
        assert_eq!(below("git worktree move wt .claude"), [".claude"]);
        assert_eq!(below("git worktree list"), Vec::<String>::new());
        assert_eq!(written("git bundle create .bashrc HEAD"), [".bashrc"]);
        assert_eq!(written("git bundle create --version=3 b HEAD"), ["b"]);
        assert_eq!(written("git bundle verify b"), Vec::<String>::new());
        // `git config --file F` writes `F` only when it sets something.
        assert_eq!(written("git config --file .bashrc a.b c"), [".bashrc"]);
        assert_eq!(written("git config -f x --unset a.b"), ["x"]);
        assert_eq!(written("git config --file=x set a.b c"), ["x"]);
        assert_eq!(written("git config -f x a.b"), Vec::<String>::new());
        assert_eq!(written("git config -f x --get a.b"), Vec::<String>::new());
        // The output options of any subcommand still write.
        assert_eq!(written("git diff --output=d.txt"), ["d.txt"]);
    }

    fn links(line: &str) -> bool {
        let words: Vec<Word> = line.split(' ').map(Word::literal).collect();
        writes(&words).may_make_links()
    }

    #[test]
    fn every_path_git_writes_is_named_from_its_directory() {
        // `-o` of any subcommand, relative to `-C DIR`, each `-C` below the one before.
        assert_eq!(
            written("git -C ~/.config --git-dir=/x/.git format-patch -o autostart -1"),
            ["~/.config/autostart"]
        );
        assert_eq!(
            written("git -C a -C b format-patch --output-directory=out -1"),
            ["a/b/out"]
        );
        assert_eq!(written("git -C sub log --output=o"), ["sub/o"]);
        assert_eq!(
            written("git -C sub bundle create b.bundle HEAD"),
            ["sub/b.bundle"]
        );
        assert_eq!(below("git -C a -C b --work-tree t checkout x"), ["a/b/t"]);
        assert_eq!(written("git -C /r format-patch -o /tmp/p -1"), ["/tmp/p"]);
        assert_eq!(below("git -C a apply p.diff"), ["a"]);
        // A directory known only at run time: anywhere.
        let mut words: Vec<Word> = "git -C $d format-patch -o autostart -1"
            .split(' ')
            .map(Word::literal)
            .collect();
        words[2].make_dynamic("parameter expansion");
        let w = writes(&words);
        assert!(w.files.is_empty());
        assert_eq!(
            w.below.iter().map(|w| w.value.as_str()).collect::<Vec<_>>(),
            ["/"]
        );
    }

    #[test]
    fn pathspecs_are_written_below_the_named_work_tree_too() {
        for line in [
            "git --work-tree=.toolgate checkout HEAD -- policy.json",
            "git --work-tree .toolgate restore policy.json",
            "git --work-tree=.toolgate rm -f policy.json",
            "git --work-tree=.toolgate clean -f policy.json",
        ] {
            assert_eq!(
                below(line),
                ["policy.json", ".toolgate/policy.json"],
                "{line}"
            );
        }
        assert_eq!(
            below("git --work-tree=/p/.toolgate restore policy.json /abs"),
            ["policy.json", "/p/.toolgate/policy.json", "/abs"]
        );
        assert_eq!(below("git -C a --work-tree=t restore p"), ["a/p", "a/t/p"]);
        let moved = written("git --work-tree=.toolgate mv a policy.json");
        for path in ["policy.json", ".toolgate/policy.json", "a", ".toolgate/a"] {
            assert!(moved.contains(&path.to_owned()), "{path}: {moved:?}");
        }
        // Without `--work-tree`, the pathspecs as they are.
        assert_eq!(below("git restore policy.json"), ["policy.json"]);
    }

    #[test]
    fn checkouts_write_the_working_tree_with_the_repository_s_names() {
        // Switching to another commit writes what it holds, anywhere in the tree.
        for line in [
            "git checkout evil",
            "git checkout -b new origin/evil",
            "git checkout evil --",
            "git checkout -p",
            "git checkout --pathspec-from-file=f",
            "git switch evil",
            "git switch -c new origin/evil",
            "git reset --hard evil",
            "git reset --ha",
            "git reset --keep x",
            "git reset --merge",
            "git merge evil",
            "git pull origin evil",
            "git pull --rebase https://h/r main",
            "git rebase x",
            "git cherry-pick x",
            "git revert x",
            "git am p.mbox",
            "git stash",
            "git stash pop",
            "git stash -m msg",
            "git stash -- src",
            "git bisect start",
            "git read-tree -u x",
            "git submodule --quiet update",
            "git sparse-checkout set a",
            "git checkout-index -a",
            "git restore -- :/",
            "git restore *.json",
            "git checkout x -- :(glob)**",
            "git checkout -f",
            "git checkout --for",
            "git checkout --detach -f",
            "git checkout -m",
            "git merge-recursive HEAD -- HEAD evil",
            "git merge-octopus HEAD -- HEAD a b",
            "git clean -fdx",
            "git --attr-source HEAD checkout evil",
        ] {
            assert_eq!(below(line), ["."], "{line}");
            assert!(links(line), "{line}");
        }
        assert_eq!(below("git -C sub checkout evil"), ["sub"]);
        assert_eq!(below("git --work-tree=/w checkout evil"), ["/w"]);
        assert_eq!(below("git -C sub --work-tree t switch x"), ["sub/t"]);
        assert_eq!(below("git checkout-index -a --prefix=o/"), ["o/", "."]);
        // Pathspecs are written below themselves, relative to `-C DIR`.
        assert_eq!(below("git checkout evil -- .claude a"), [".claude", "a"]);
        assert_eq!(
            below("git checkout -- .claude/settings.json"),
            [".claude/settings.json"]
        );
        assert_eq!(below("git restore --source=evil .toolgate"), [".toolgate"]);
        assert_eq!(below("git -C sub restore -s x a"), ["sub/a"]);
        assert_eq!(below("git restore --staged --worktree a"), ["a"]);
        assert_eq!(below("git rm a"), ["a"]);
        assert_eq!(
            below("git clean -f .claude/settings.json"),
            [".claude/settings.json"]
        );
        assert_eq!(below("git clean -n"), Vec::<String>::new());
        assert!(links("git mv lnk d"));
    }

    #[test]
    fn what_leaves_the_working_tree_alone() {
        for line in [
            "git checkout -b new",
            "git checkout --orphan new",
            "git checkout",
            "git checkout --",
            "git switch -c new",
            "git switch --detach",
            "git remote",
            "git remote -v",
            "git remote show origin",
            "git remote get-url origin",
            "git restore --staged a",
            "git reset HEAD~1",
            "git reset --soft x",
            "git reset -- a",
            "git stash list",
            "git stash show -p",
            "git bisect log",
            "git read-tree x",
            "git submodule status",
            "git sparse-checkout list",
            "git rm --cached a",
            "git status",
            "git commit -m x",
        ] {
            assert_eq!(below(line), Vec::<String>::new(), "{line}");
            assert!(!links(line), "{line}");
        }
        // A bare pull merges whatever was pushed to the upstream: the whole tree, as a merge.
        for line in ["git pull", "git pull --rebase", "git pull -j 4 --ff-only"] {
            assert_eq!(below(line), ["."], "{line}");
            assert!(links(line), "{line}");
        }
    }

    #[test]
    fn configuration_writes_its_scope_s_file() {
        assert_eq!(written("git config user.email a@b"), [".git/config"]);
        assert_eq!(written("git -C sub config a.b c"), ["sub/.git/config"]);
        assert_eq!(
            written("git config --global core.pager less"),
            ["~/.gitconfig", "~/.config/git/config"]
        );
        assert_eq!(
            written("git config --glob a.b c"),
            ["~/.gitconfig", "~/.config/git/config"]
        );
        assert_eq!(written("git config --system a.b c"), ["/etc/gitconfig"]);
        assert_eq!(
            written("git config --worktree a.b c"),
            [".git/config.worktree"]
        );
        assert_eq!(
            written("git config --global --get a.b"),
            Vec::<String>::new()
        );
        assert_eq!(written("git config --list"), Vec::<String>::new());
    }

    #[test]
    fn maintenance_writes_the_global_configuration_and_the_scheduler() {
        assert_eq!(written("git maintenance register"), ["~/.gitconfig"]);
        assert_eq!(
            written("git maintenance unregister --force"),
            ["~/.gitconfig"]
        );
        assert_eq!(
            written("git maintenance register --config-file .bashrc"),
            [".bashrc"]
        );
        assert_eq!(written("git maintenance start"), ["~/.gitconfig"]);
        assert_eq!(
            below("git maintenance start --scheduler=crontab"),
            ["~/.config/systemd/user", "~/Library/LaunchAgents"]
        );
        assert_eq!(below("git maintenance stop").len(), 2);
        assert_eq!(written("git maintenance run --auto"), Vec::<String>::new());
    }

    #[test]
    fn remotes_and_orphans() {
        assert_eq!(written("git remote add evil /x/evil.git"), [".git/config"]);
        assert_eq!(
            written("git -C sub remote set-url origin u"),
            ["sub/.git/config"]
        );
        assert_eq!(below("git switch --orphan fresh"), ["."]);
    }

    #[test]
    fn moves_and_merges_of_named_files() {
        assert_eq!(written("git mv a .claude"), [".claude", ".claude/a", "a"]);
        assert_eq!(written("git -C sub mv a b"), ["sub/b", "sub/b/a", "sub/a"]);
        assert_eq!(written("git merge-file .bashrc base other"), [".bashrc"]);
        assert_eq!(written("git merge-file -p a b c"), Vec::<String>::new());
    }
}
