//! Where git finds the top of the working tree from a directory, when the file system says
//! so plainly: the nearest directory, going up, that holds a `.git` directory with `HEAD`,
//! `objects` and `refs` in it, the way git's discovery walks up.
//!
//! The answer only ever narrows where `git show REV:path` may read (`path` is named from the
//! top), so anything git could read differently gives no answer: a `.git` file (a linked
//! worktree or a submodule, whose directory is elsewhere), a `.git` that is not a
//! repository (git then goes on to the parent), a directory that is itself a bare
//! repository, a repository configuration that moves the working tree (`core.worktree`) or
//! includes other files, `GIT_DIR` or `GIT_WORK_TREE` in the environment, or a directory
//! that cannot be listed.

/// The most directories looked at above the starting one.
const MAX_DEPTH: usize = 64;

/// What a repository's directory holds, at least (git's `is_git_directory`): a directory
/// that holds them all is taken for a bare repository.
const REPOSITORY_ENTRIES: &[&str] = &["HEAD", "objects", "refs"];

/// The environment variables that tell git where the repository or its working tree is.
const LOCATING_VARIABLES: &[&str] = &["GIT_DIR", "GIT_WORK_TREE"];

/// The top of the working tree git finds from the absolute directory `dir` (symlinks
/// resolved: git walks up from the physical directory), or `None` when it is not plainly
/// known. `list` gives a directory's names (`None` when it cannot be listed), `read` a small
/// text file, `env` a variable of the environment git runs in.
///
/// ```text
/// /p/.git/{HEAD,objects,refs,config}   /p/src/
/// working_tree_top("/p/src", ..) == Some("/p")
/// working_tree_top("/p", ..)     == Some("/p")
/// with GIT_DIR set, or `worktree = ..` in /p/.git/config: None
/// ```
pub(crate) fn working_tree_top(
    dir: &str,
    list: &dyn Fn(&str) -> Option<Vec<String>>,
    read: &dyn Fn(&str) -> Option<String>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Option<String> {
    if !dir.starts_with('/') || LOCATING_VARIABLES.iter().any(|v| env(v).is_some()) {
        return None;
    }
    let mut here = crate::path::normalize(dir, None, None)?;
    for _ in 0..=MAX_DEPTH {
        let names = list(&here)?;
        if names.iter().any(|n| n == ".git") {
            let git_dir = joined(&here, ".git");
            let config = read(&joined(&git_dir, "config"))?;
            return (is_repository(&git_dir, list, read) && !moves_working_tree(&config))
                .then_some(here);
        }
        // A directory that is itself a repository is taken as a bare one.
        if REPOSITORY_ENTRIES
            .iter()
            .all(|e| names.iter().any(|n| n == e))
        {
            return None;
        }
        if here == "/" {
            return None;
        }
        here = match here.rsplit_once('/') {
            Some(("", _)) => "/".to_owned(),
            Some((parent, _)) => parent.to_owned(),
            None => return None,
        };
    }
    None
}

/// Whether `git_dir` is a repository as git checks one before it stops looking further up
/// (`is_git_directory`): `objects` and `refs` directories, a `HEAD` that names a branch
/// (`ref: refs/...`) or holds an object id, and no `commondir` (a linked worktree's
/// directory, whose objects are elsewhere). Anything else, git passes over to the parent.
fn is_repository(
    git_dir: &str,
    list: &dyn Fn(&str) -> Option<Vec<String>>,
    read: &dyn Fn(&str) -> Option<String>,
) -> bool {
    let Some(inside) = list(git_dir) else {
        return false;
    };
    let holds = |name: &str| inside.iter().any(|n| n == name);
    let directories = ["objects", "refs"]
        .iter()
        .all(|d| holds(d) && list(&joined(git_dir, d)).is_some());
    let head = read(&joined(git_dir, "HEAD")).is_some_and(|h| names_a_commit(&h));
    directories && head && !holds("commondir")
}

/// Whether the text of `HEAD` is one git accepts: `ref: refs/...`, or an object id.
fn names_a_commit(head: &str) -> bool {
    let head = head.trim_end();
    match head.strip_prefix("ref:") {
        Some(target) => target.trim_start().starts_with("refs/"),
        None => matches!(head.len(), 40 | 64) && head.bytes().all(|b| b.is_ascii_hexdigit()),
    }
}

/// Whether a repository configuration may put the working tree elsewhere: it sets
/// `core.worktree`, uses per-worktree configuration, or includes other files (which may).
fn moves_working_tree(config: &str) -> bool {
    let lower = config.to_ascii_lowercase();
    lower.contains("worktree") || lower.contains("include")
}

/// The path of `name` in the directory `dir`.
fn joined(dir: &str, name: &str) -> String {
    format!("{}/{name}", dir.trim_end_matches('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn top(
        dir: &str,
        dirs: &[(&str, &[&str])],
        config: Option<&str>,
        env: &[&str],
    ) -> Option<String> {
        let list = |d: &str| {
            dirs.iter()
                .find(|(p, _)| *p == d)
                .map(|(_, names)| names.iter().map(|n| (*n).to_owned()).collect())
        };
        let read = |f: &str| {
            if f.ends_with("/.git/HEAD") {
                return Some("ref: refs/heads/main\n".to_owned());
            }
            f.ends_with("/.git/config")
                .then(|| config.map(str::to_owned))
                .flatten()
        };
        let env = |v: &str| env.contains(&v).then(|| "/elsewhere".to_owned());
        working_tree_top(dir, &list, &read, &env)
    }

    const GIT: &[&str] = &["HEAD", "objects", "refs", "config"];
    const PLAIN: &str = "[core]\n\tbare = false\n";

    #[test]
    fn the_nearest_directory_holding_a_repository_is_the_top() {
        let dirs: &[(&str, &[&str])] = &[
            ("/", &["p"]),
            ("/p", &[".git", "src"]),
            ("/p/.git", GIT),
            ("/p/.git/objects", &[]),
            ("/p/.git/refs", &["heads"]),
            ("/p/src", &["deep"]),
            ("/p/src/deep", &[]),
        ];
        assert_eq!(
            top("/p/src/deep", dirs, Some(PLAIN), &[]).as_deref(),
            Some("/p")
        );
        assert_eq!(top("/p", dirs, Some(PLAIN), &[]).as_deref(), Some("/p"));
        assert_eq!(
            top("/p/src/", dirs, Some(PLAIN), &[]).as_deref(),
            Some("/p")
        );
    }

    #[test]
    fn anything_git_may_read_otherwise_gives_no_top() {
        let dirs: &[(&str, &[&str])] = &[
            ("/", &["p"]),
            ("/p", &[".git", "src"]),
            ("/p/.git", GIT),
            ("/p/.git/objects", &[]),
            ("/p/.git/refs", &[]),
            ("/p/src", &[]),
        ];
        // The environment or the configuration moves the repository or its working tree.
        assert_eq!(top("/p/src", dirs, Some(PLAIN), &["GIT_DIR"]), None);
        assert_eq!(top("/p/src", dirs, Some(PLAIN), &["GIT_WORK_TREE"]), None);
        let moved = "[core]\n\tworktree = ..\n";
        assert_eq!(top("/p/src", dirs, Some(moved), &[]), None);
        let included = "[include]\n\tpath = other\n";
        assert_eq!(top("/p/src", dirs, Some(included), &[]), None);
        // An unreadable configuration, or a relative directory.
        assert_eq!(top("/p/src", dirs, None, &[]), None);
        assert_eq!(top("p/src", dirs, Some(PLAIN), &[]), None);
        // A `.git` that is not a repository: git goes on to the parent.
        let not_one: &[(&str, &[&str])] = &[
            ("/", &["p", ".git"]),
            ("/.git", GIT),
            ("/p", &[".git"]),
            ("/p/.git", &["HEAD"]),
        ];
        assert_eq!(top("/p", not_one, Some(PLAIN), &[]), None);
        // A `.git` file (a linked worktree): its directory is elsewhere.
        let file: &[(&str, &[&str])] = &[("/", &["p"]), ("/p", &[".git"])];
        assert_eq!(top("/p", file, Some(PLAIN), &[]), None);
        // A bare repository on the way up, an unlistable directory, no repository at all.
        let bare: &[(&str, &[&str])] = &[
            ("/", &["r"]),
            ("/r", &["HEAD", "objects", "refs", "x"]),
            ("/r/x", &[]),
        ];
        assert_eq!(top("/r/x", bare, Some(PLAIN), &[]), None);
        assert_eq!(top("/q", &[("/", &["q"])], Some(PLAIN), &[]), None);
        assert_eq!(
            top("/q", &[("/", &["q"]), ("/q", &[])], Some(PLAIN), &[]),
            None
        );
    }

    #[test]
    fn a_git_directory_git_would_pass_over_gives_no_top() {
        // git goes on to the parent's repository from a `.git` it does not take for one.
        let decide = |inside: &[&str], listable: &[&str], head: &str| {
            let list = |d: &str| match d {
                "/" => Some(vec!["p".to_owned()]),
                "/p" => Some(vec![".git".to_owned()]),
                "/p/.git" => Some(inside.iter().map(|n| (*n).to_owned()).collect()),
                _ => d
                    .strip_prefix("/p/.git/")
                    .filter(|n| listable.contains(n))
                    .map(|_| Vec::new()),
            };
            let read = |f: &str| match f {
                "/p/.git/HEAD" => Some(head.to_owned()),
                "/p/.git/config" => Some(PLAIN.to_owned()),
                _ => None,
            };
            working_tree_top("/p", &list, &read, &|_| None)
        };
        let all = &["HEAD", "objects", "refs", "config"][..];
        let dirs = &["objects", "refs"][..];
        assert_eq!(
            decide(all, dirs, "ref: refs/heads/main\n").as_deref(),
            Some("/p")
        );
        let id = "0123456789abcdef0123456789abcdef01234567";
        assert_eq!(decide(all, dirs, id).as_deref(), Some("/p"));
        for head in ["", "garbage", "ref: heads/main", "0123"] {
            assert_eq!(decide(all, dirs, head), None, "{head:?}");
        }
        // `objects` or `refs` not a directory, or a linked worktree's `commondir`.
        assert_eq!(decide(all, &["refs"], "ref: refs/heads/main"), None);
        let worktree = &["HEAD", "objects", "refs", "config", "commondir"][..];
        assert_eq!(decide(worktree, dirs, "ref: refs/heads/main"), None);
    }
}
