//! Whether a repository's ignore files leave a file out of a search that obeys them
//! (ripgrep, and so Claude Code's Grep): `.gitignore`, `.ignore` and `.rgignore` in each
//! directory from the repository's top down to the file, and `.git/info/exclude`.
//!
//! The answer only ever lets a search skip a secret file it would otherwise be judged as
//! reading, so it is "yes" only when the files say so plainly: a line that brings files back
//! (`!.env`), an ignore file that cannot be read, a line with an escape, or no repository
//! (ripgrep reads `.gitignore` only inside one) all make it "no". Patterns match as git
//! matches them, case-sensitively: a name without `/` at any depth, one with `/` from the
//! ignore file's directory, a trailing `/` only directories, an ignored directory everything
//! below it.

use crate::glob::{Glob, GlobOptions};

/// The most directories looked at above a file for the repository's top.
const MAX_DEPTH: usize = 64;

/// The names of the ignore files a search that obeys them reads in each directory of the
/// repository.
const IGNORE_FILES: &[&str] = &[".gitignore", ".ignore", ".rgignore"];

/// ripgrep's own ignore files, which it also reads in the directories above the repository.
const RIPGREP_IGNORE_FILES: &[&str] = &[".ignore", ".rgignore"];

/// Whether the ignore files of the repository holding the absolute path `file` plainly leave
/// it out of a search of the directory `root` (at or above `file`). A search given a
/// directory by name reads it even when it is ignored, and what is below it is then checked
/// name by name, so only a match on `file` or on a directory strictly below `root` counts.
/// `list` gives a directory's names (`None` when it cannot be listed), `read` a small text
/// file (`None` when it cannot be read), `exists` whether a path leads to something (links
/// followed: ripgrep takes a dangling `.git` link for no repository).
///
/// ```text
/// /p/.git/  /p/.gitignore: ".env\ntarget/"
/// ignored_by_repository("/p/.env", ..)            == true
/// ignored_by_repository("/p/target/debug/k", ..)   == true
/// ignored_by_repository("/p/src/.env", ..)         == true   (a name at any depth)
/// ignored_by_repository("/p/certs/server.key", ..) == false
/// ```
pub(crate) fn ignored_by_repository(
    file: &str,
    root: &str,
    list: &dyn Fn(&str) -> Option<Vec<String>>,
    read: &dyn Fn(&str) -> Option<String>,
    exists: &dyn Fn(&str) -> bool,
) -> bool {
    let Some(dirs) = directories_above(file, list) else {
        return false;
    };
    // The repository's top: the nearest directory holding a `.git` that leads somewhere, at
    // most MAX_DEPTH up.
    let Some(top) = dirs
        .iter()
        .rposition(|(dir, names)| holds(names, ".git") && exists(&joined(dir, ".git")))
    else {
        return false;
    };
    if top + MAX_DEPTH < dirs.len() {
        return false;
    }
    let top_dir = dirs.get(top).map_or("/", |(dir, _)| dir.as_str());
    let mut sources = vec![(
        top_dir.to_owned(),
        joined(top_dir, ".git/info/exclude"),
        true,
    )];
    for (at, (dir, names)) in dirs.iter().enumerate() {
        // Above the repository, ripgrep still reads its own ignore files, not `.gitignore`.
        let here = if at < top {
            RIPGREP_IGNORE_FILES
        } else {
            IGNORE_FILES
        };
        for name in here.iter().filter(|n| holds(names, n)) {
            sources.push((dir.clone(), joined(dir, name), false));
        }
    }
    let depth = |p: &str| p.split('/').filter(|s| !s.is_empty()).count();
    let root_depth = depth(root);
    let mut ignored = false;
    for (base, path, optional) in sources {
        let Some(text) = read(&path) else {
            if optional {
                continue;
            }
            return false;
        };
        let Some(relative) = relative_segments(&base, file) else {
            continue;
        };
        // The first segments of `relative` that name `root` or a directory above it.
        let fixed = root_depth.saturating_sub(depth(&base));
        match leaves_out(&text, &relative, fixed) {
            Verdict::Unsure => return false,
            Verdict::Ignored => ignored = true,
            Verdict::Kept => {}
        }
    }
    ignored
}

/// Every directory from `/` down to the one holding the absolute `file`, with the names in
/// each; `None` when one of them cannot be listed.
fn directories_above(
    file: &str,
    list: &dyn Fn(&str) -> Option<Vec<String>>,
) -> Option<Vec<(String, Vec<String>)>> {
    let segments: Vec<&str> = file.split('/').filter(|s| !s.is_empty()).collect();
    let parents = segments.len().checked_sub(1)?;
    (0..=parents)
        .map(|keep| {
            let dir = format!("/{}", segments.get(..keep)?.join("/"));
            let names = list(&dir)?;
            Some((dir, names))
        })
        .collect()
}

/// Whether the listing `names` holds `name`.
fn holds(names: &[String], name: &str) -> bool {
    names.iter().any(|n| n == name)
}

/// The path of `name` in the directory `dir`.
fn joined(dir: &str, name: &str) -> String {
    format!("{}/{name}", dir.trim_end_matches('/'))
}

/// What one ignore file says of a path.
#[derive(Debug, PartialEq, Eq)]
enum Verdict {
    Ignored,
    Kept,
    /// It holds a line that may bring files back, or one this reading does not take apart.
    Unsure,
}

/// What the ignore file `text` says of the path `relative` (its segments below the file's
/// directory), where a match on one of the first `fixed` segments does not count.
fn leaves_out(text: &str, relative: &[&str], fixed: usize) -> Verdict {
    let mut verdict = Verdict::Kept;
    for line in text.lines() {
        let line = line.trim_end_matches('\r');
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with('!') || line.contains('\\') {
            return Verdict::Unsure;
        }
        let pattern = line.trim_end_matches(' ');
        let (pattern, directories_only) = match pattern.strip_suffix('/') {
            Some(p) => (p, true),
            None => (pattern, false),
        };
        if pattern.is_empty() {
            continue;
        }
        if matches_pattern(pattern, directories_only, relative, fixed) {
            verdict = Verdict::Ignored;
        }
    }
    verdict
}

/// Whether the gitignore `pattern` (its trailing `/` taken off as `directories_only`)
/// matches the path `relative` or a directory above it that is not among its first `fixed`
/// segments.
fn matches_pattern(pattern: &str, directories_only: bool, relative: &[&str], fixed: usize) -> bool {
    let anchored = pattern.contains('/');
    let pattern = pattern.strip_prefix('/').unwrap_or(pattern);
    let Ok(glob) = Glob::new(pattern, GlobOptions::plain(true)) else {
        return false;
    };
    // The directories above the file, and the file itself unless only directories count.
    let last = if directories_only {
        relative.len().saturating_sub(1)
    } else {
        relative.len()
    };
    if anchored {
        (fixed + 1..=last).any(|n| glob.is_match(&relative.get(..n).unwrap_or_default().join("/")))
    } else {
        (fixed..last).any(|i| relative.get(i).is_some_and(|s| glob.is_match(s)))
    }
}

/// The segments of the absolute `file` below the directory `base`.
fn relative_segments<'f>(base: &str, file: &'f str) -> Option<Vec<&'f str>> {
    let rest = if base == "/" {
        file.strip_prefix('/')?
    } else {
        file.strip_prefix(base)?.strip_prefix('/')?
    };
    Some(rest.split('/').filter(|s| !s.is_empty()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small file system: directories with their names, and the text of files.
    fn decide(file: &str, dirs: &[(&str, &[&str])], texts: &[(&str, &str)]) -> bool {
        let list = |d: &str| {
            dirs.iter()
                .find(|(p, _)| *p == d)
                .map(|(_, names)| names.iter().map(|n| (*n).to_owned()).collect())
                .or(Some(Vec::new()))
        };
        let read = |p: &str| {
            texts
                .iter()
                .find(|(f, _)| *f == p)
                .map(|(_, t)| (*t).to_owned())
        };
        ignored_by_repository(file, "/p", &list, &read, &|_| true)
    }

    const DIRS: &[(&str, &[&str])] = &[
        ("/p", &[".git", ".gitignore", "src", "certs", ".env"]),
        ("/p/src", &[".env", "main.rs", ".gitignore"]),
    ];

    #[test]
    fn plain_patterns_leave_files_out() {
        let texts = [
            ("/p/.gitignore", ".env\ntarget/\n# c\n\n/certs/\n"),
            ("/p/src/.gitignore", ""),
        ];
        for file in [
            "/p/.env",
            "/p/src/.env",
            "/p/target/debug/k",
            "/p/certs/server.key",
        ] {
            assert!(decide(file, DIRS, &texts), "{file}");
        }
        for file in ["/p/src/main.rs", "/p/src/certs/k", "/p/key.pem"] {
            assert!(!decide(file, DIRS, &texts), "{file}");
        }
    }

    #[test]
    fn a_line_that_brings_files_back_or_an_unread_file_leaves_nothing_out() {
        let back = [
            ("/p/.gitignore", ".env\n"),
            ("/p/src/.gitignore", "!.env\n"),
        ];
        assert!(!decide("/p/src/.env", DIRS, &back));
        let unread = [("/p/.gitignore", ".env\n")];
        assert!(!decide("/p/src/.env", DIRS, &unread));
        let escaped = [("/p/.gitignore", ".env\n\\#x\n"), ("/p/src/.gitignore", "")];
        assert!(!decide("/p/.env", DIRS, &escaped));
        // Above the repository, ripgrep's own ignore files still count.
        let dirs_above: &[(&str, &[&str])] =
            &[("/", &[".ignore", "p"]), ("/p", &[".git", ".gitignore"])];
        let above = [("/.ignore", "!.env\n"), ("/p/.gitignore", ".env\n")];
        assert!(!decide("/p/.env", dirs_above, &above));
        let rg_back = [
            ("/p/.gitignore", ".env\n"),
            ("/p/src/.gitignore", ""),
            ("/p/.rgignore", "!.env\n"),
        ];
        let dirs: &[(&str, &[&str])] = &[("/p", &[".git", ".gitignore", ".rgignore", "src"])];
        assert!(!decide("/p/.env", dirs, &rg_back));
    }

    #[test]
    fn an_ignored_directory_searched_by_name_is_read() {
        let dirs: &[(&str, &[&str])] = &[("/p", &[".git", ".gitignore", "certs"])];
        let list = |d: &str| {
            dirs.iter()
                .find(|(p, _)| *p == d)
                .map(|(_, n)| n.iter().map(|x| (*x).to_owned()).collect())
                .or(Some(Vec::new()))
        };
        let read = |p: &str| (p == "/p/.gitignore").then(|| "certs/\n.env\n".to_owned());
        // From `/p`, ripgrep never enters `certs`; given `certs` itself, it reads it.
        assert!(ignored_by_repository(
            "/p/certs/server.key",
            "/p",
            &list,
            &read,
            &|_| true
        ));
        assert!(!ignored_by_repository(
            "/p/certs/server.key",
            "/p/certs",
            &list,
            &read,
            &|_| true
        ));
        // A name that matches the file itself counts wherever the search starts.
        assert!(ignored_by_repository(
            "/p/certs/.env",
            "/p/certs",
            &list,
            &read,
            &|_| true
        ));
    }

    #[test]
    fn a_git_entry_that_leads_nowhere_is_no_repository() {
        let dirs: &[(&str, &[&str])] = &[("/p", &[".git", ".gitignore", ".env"])];
        let list = |d: &str| {
            dirs.iter()
                .find(|(p, _)| *p == d)
                .map(|(_, n)| n.iter().map(|x| (*x).to_owned()).collect())
                .or(Some(Vec::new()))
        };
        let read = |p: &str| (p == "/p/.gitignore").then(|| ".env\n".to_owned());
        assert!(ignored_by_repository(
            "/p/.env",
            "/p",
            &list,
            &read,
            &|_| true
        ));
        // A dangling `.git` link: ripgrep finds no repository, and reads `.env`.
        let dangling = |p: &str| p != "/p/.git";
        assert!(!ignored_by_repository(
            "/p/.env", "/p", &list, &read, &dangling
        ));
    }

    #[test]
    fn outside_a_repository_nothing_is_left_out() {
        let dirs: &[(&str, &[&str])] = &[("/p", &[".gitignore"])];
        assert!(!decide("/p/.env", dirs, &[("/p/.gitignore", ".env\n")]));
    }

    #[test]
    fn patterns_match_as_git_matches_them() {
        let texts = [
            ("/p/.gitignore", "*.key\nsrc/*.local\n.ENV\n"),
            ("/p/src/.gitignore", ""),
        ];
        assert!(decide("/p/certs/server.key", DIRS, &texts));
        assert!(decide("/p/src/x.local", DIRS, &texts));
        assert!(!decide("/p/src/deep/x.local", DIRS, &texts));
        // Case-sensitive: `.ENV` leaves `.env` in.
        assert!(!decide("/p/.env", DIRS, &texts));
        // Only directories: `.env/` leaves a file named `.env` in.
        let dir_only = [("/p/.gitignore", ".env/\n"), ("/p/src/.gitignore", "")];
        assert!(!decide("/p/.env", DIRS, &dir_only));
    }
}
