//! Following symbolic links one hop at a time, over what a host's file system says about
//! each entry ([`Entry`]): where a path leads for the agent's shell, never for the process
//! that asks. Both hooks (the native one and the npm package's) resolve paths here, each
//! over its own `lstat`/`readlink`.
//!
//! A host's `realpath(3)` is not enough: it follows a link into a process's own view
//! (`/proc/self/cwd`, `/dev/stdin`) in the asking process, it stops at a link that leads
//! nowhere (a file about to be written through it), and it fails on a real path longer
//! than `PATH_MAX` that the kernel still opens through relative links.

use super::in_process_view;

/// How many symbolic links one path may pass through before it counts as unresolved
/// (Linux's `MAXSYMLINKS`: the kernel gives up there too, with `ELOOP`).
pub const MAX_LINK_HOPS: usize = 40;

/// What a host's file system holds at an absolute path, its last name not followed
/// (`lstat`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A symbolic link, with its target as the link writes it.
    Link(String),
    /// Something that is not a symbolic link: a file, a directory, a device.
    Other,
    /// Nothing: the name does not exist (`ENOENT`), or a name above it is not a directory
    /// (`ENOTDIR`); nothing can be opened or created there.
    Missing,
    /// The host cannot tell: permission denied, a name too long, a link whose target is not
    /// UTF-8.
    Unknown,
}

/// Where the absolute path `full` leads, each symbolic link on the way followed one hop at
/// a time from its directory's real path, as the agent's shell would follow it:
///
/// - `Some(real)`: the real path of an existing `full`; for a link (or chain of links) that
///   leads to a name that does not exist yet, where that name would be created (the real
///   directory and the missing names after it); for
///   a hop that leads into a process's own view ([`in_process_view`]: `/dev/stdin`,
///   `/proc/self/cwd`), that view's path as the link writes it, the rest appended, never
///   looked up: the asking process would see its own descriptors and working directory
///   there, not the shell's (the policy judges such a path as written, never inside the
///   project);
/// - `None`: `full` does not exist as written and no link leads it astray (a file about to
///   be written; the caller places it by its longest existing prefix);
/// - `Some("")`: unresolved, and the call asks: more than [`MAX_LINK_HOPS`] links, an entry
///   the host cannot look at, a `..` after a missing name or a process's view, or a `full`
///   that is not absolute.
///
/// ```
/// use toolgate::path::links::{real_path, Entry};
/// let fs = |p: &str| match p {
///     "/p" | "/other" => Entry::Other,
///     "/p/out" => Entry::Link("out2".into()),
///     "/p/out2" => Entry::Link("../other/Makefile".into()),
///     "/p/cw" => Entry::Link("/proc/self/cwd".into()),
///     _ => Entry::Missing,
/// };
/// assert_eq!(real_path("/p/out", &fs).as_deref(), Some("/other/Makefile"));
/// assert_eq!(real_path("/p/cw/secret", &fs).as_deref(), Some("/proc/self/cwd/secret"));
/// assert_eq!(real_path("/p/new/file", &fs), None);
/// ```
pub fn real_path(full: &str, entry: &dyn Fn(&str) -> Entry) -> Option<String> {
    match walk(full, entry) {
        Walk::Real(real) => Some(real),
        Walk::Missing => None,
        Walk::Unresolved => Some(String::new()),
    }
}

/// What walking a path came to.
enum Walk {
    /// Where the path leads (for a link to a missing name, where that name would be).
    Real(String),
    /// A name of the path as written does not exist.
    Missing,
    /// Where the path leads is unknown.
    Unresolved,
}

/// Walks `full` name by name ([`real_path`]): the names still to walk each say whether
/// they came from a link's target rather than the path as written.
fn walk(full: &str, entry: &dyn Fn(&str) -> Entry) -> Walk {
    if !full.starts_with('/') || in_process_view(full) {
        return Walk::Unresolved;
    }
    let mut pending: Vec<(String, bool)> = names_reversed(full, false);
    let mut real: Vec<String> = Vec::new();
    let mut hops = 0;
    while let Some((name, from_link)) = pending.pop() {
        match name.as_str() {
            "" | "." => continue,
            ".." => {
                real.pop();
                continue;
            }
            _ => {}
        }
        let here = joined(&real, &name);
        if in_process_view(&here) {
            return written_out(&here, &pending);
        }
        match entry(&here) {
            Entry::Other => real.push(name),
            Entry::Link(target) => {
                hops += 1;
                let leads_to = if target.starts_with('/') {
                    target.clone()
                } else {
                    format!("{}/{target}", joined(&real, ""))
                };
                if hops > MAX_LINK_HOPS || target.is_empty() {
                    return Walk::Unresolved;
                }
                if in_process_view(&leads_to) {
                    return written_out(&leads_to, &pending);
                }
                if target.starts_with('/') {
                    real.clear();
                }
                pending.extend(names_reversed(&target, true));
            }
            Entry::Missing if !from_link => return Walk::Missing,
            Entry::Missing => return missing_after_link(real, name, pending),
            Entry::Unknown => return Walk::Unresolved,
        }
    }
    Walk::Real(joined(&real, ""))
}

/// A path into a process's own view ([`in_process_view`]), `view`, with the names still
/// `pending` after it, written out and never looked up: the asking process would see its
/// own working directory and descriptors there, not the shell's. Unresolved when a `..`
/// follows (it could lead back out of the view).
fn written_out(view: &str, pending: &[(String, bool)]) -> Walk {
    let mut path = view.trim_end_matches('/').to_owned();
    for (next, _) in pending.iter().rev() {
        match next.as_str() {
            "" | "." => {}
            ".." => return Walk::Unresolved,
            _ => {
                path.push('/');
                path.push_str(next);
            }
        }
    }
    Walk::Real(path)
}

/// Where a link's missing target would be created: the real directory `real`, the missing
/// `name`, and the names still `pending` after it. Unresolved when a `..` follows the
/// missing name (the kernel cannot pass through a directory that does not exist).
fn missing_after_link(real: Vec<String>, name: String, pending: Vec<(String, bool)>) -> Walk {
    let mut path = real;
    path.push(name);
    for (next, _) in pending.into_iter().rev() {
        match next.as_str() {
            "" | "." => {}
            ".." => return Walk::Unresolved,
            _ => path.push(next),
        }
    }
    Walk::Real(joined(&path, ""))
}

/// The names of `path`, last first (to pop in order), each marked with `from_link`.
fn names_reversed(path: &str, from_link: bool) -> Vec<(String, bool)> {
    path.split('/')
        .rev()
        .map(|n| (n.to_owned(), from_link))
        .collect()
}

/// The absolute path of the real names `real` followed by `name` (none when empty).
fn joined(real: &[String], name: &str) -> String {
    let mut out = String::new();
    for n in real.iter().map(String::as_str).chain(Some(name)) {
        if !n.is_empty() {
            out.push('/');
            out.push_str(n);
        }
    }
    if out.is_empty() {
        out.push('/');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file system of links and entries (every other path is missing).
    fn fs<'a>(entries: &'a [(&'a str, Option<&'a str>)]) -> impl Fn(&str) -> Entry + 'a {
        move |p: &str| match entries.iter().find(|(at, _)| *at == p) {
            Some((_, Some(target))) => Entry::Link((*target).to_owned()),
            Some((_, None)) => Entry::Other,
            None => Entry::Missing,
        }
    }

    #[test]
    fn a_chain_of_links_to_a_missing_name_is_followed_to_its_end() {
        let tree = [
            ("/w", None),
            ("/other", None),
            ("/w/out", Some("out2")),
            ("/w/out2", Some("../other/Makefile")),
            ("/w/d2", Some("/other2")),
            ("/other2", None),
            ("/w/via", Some("d2/Makefile")),
            ("/w/a.out", Some("a2")),
            ("/w/a2", Some(".git/hooks/pre-commit")),
            ("/w/.git", None),
            ("/w/.git/hooks", None),
        ];
        let fs = fs(&tree);
        let real = |p: &str| real_path(p, &fs);
        assert_eq!(real("/w/out").as_deref(), Some("/other/Makefile"));
        assert_eq!(real("/w/via").as_deref(), Some("/other2/Makefile"));
        assert_eq!(
            real("/w/a.out").as_deref(),
            Some("/w/.git/hooks/pre-commit")
        );
        // Through a directory link to an existing place, and to a missing name below it.
        assert_eq!(real("/w/d2").as_deref(), Some("/other2"));
        assert_eq!(real("/w/d2/new"), None);
        assert_eq!(real("/w/new"), None);
        assert_eq!(real("/w").as_deref(), Some("/w"));
        assert_eq!(real("/").as_deref(), Some("/"));
    }

    #[test]
    fn a_hop_into_a_process_view_is_written_out_never_looked_up() {
        let tree = [
            ("/p", None),
            ("/p/cw", Some("/proc/self/cwd")),
            ("/p/in", Some("/dev/stdin")),
            ("/p/up", Some("../../dev/fd/0")),
            ("/p/pr", Some("/proc")),
            ("/proc", None),
            ("/proc/self", Some("4242")),
            ("/p/a", Some("b")),
            ("/p/b", Some("/proc/thread-self/cwd")),
        ];
        let fs = fs(&tree);
        let looked_up = std::cell::RefCell::new(Vec::new());
        let watched = |p: &str| {
            looked_up.borrow_mut().push(p.to_owned());
            fs(p)
        };
        for (p, real) in [
            ("/p/cw/secret", "/proc/self/cwd/secret"),
            ("/p/in", "/dev/stdin"),
            ("/p/up", "/p/../../dev/fd/0"),
            ("/p/pr/self/cwd", "/proc/self/cwd"),
            ("/p/a/x", "/proc/thread-self/cwd/x"),
            ("/p/cw/..", ""),
        ] {
            assert_eq!(real_path(p, &watched).as_deref(), Some(real), "{p}");
        }
        let looked_up = looked_up.borrow();
        assert!(
            !looked_up.iter().any(|p| in_process_view(p)),
            "{looked_up:?}"
        );
    }

    #[test]
    fn too_many_hops_an_unknown_entry_and_dot_dot_after_a_missing_name_are_unresolved() {
        let tree = [
            ("/p", None),
            ("/p/l", Some("l")),
            ("/p/d", Some("gone/../x")),
        ];
        let fs = fs(&tree);
        assert_eq!(real_path("/p/l", &fs).as_deref(), Some(""));
        assert_eq!(real_path("/p/d", &fs).as_deref(), Some(""));
        let chain: Vec<(String, Option<String>)> = (0..=MAX_LINK_HOPS)
            .map(|i| (format!("/c/{i}"), Some(format!("{}", i + 1))))
            .chain([
                ("/c".to_owned(), None),
                (format!("/c/{}", MAX_LINK_HOPS + 1), None),
            ])
            .collect();
        let long = |p: &str| match chain.iter().find(|(at, _)| at == p) {
            Some((_, Some(t))) => Entry::Link(t.clone()),
            Some((_, None)) => Entry::Other,
            None => Entry::Missing,
        };
        assert_eq!(real_path("/c/0", &long).as_deref(), Some(""));
        assert_eq!(real_path("/c/1", &long).as_deref(), Some("/c/41"));
        let unknown = |p: &str| {
            if p == "/deep" {
                Entry::Unknown
            } else {
                Entry::Other
            }
        };
        assert_eq!(real_path("/deep/x", &unknown).as_deref(), Some(""));
        assert_eq!(real_path("relative", &unknown).as_deref(), Some(""));
    }
}
