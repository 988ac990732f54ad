//! Lexical path normalisation and containment.
//!
//! Paths are compared as sequences of segments after resolving `.`, `..` and repeated
//! slashes against the working directory and the home directory, without touching a file
//! system. Containment is segment-wise: `/proj` contains `/proj/src`, never `/proj_evil`.
//! A host that can see the file system passes resolved symlink targets in the request's
//! `realpaths`; this module never follows links itself.

/// Normalises `path` to an absolute path with no `.`, `..` or empty segments.
///
/// A relative path is resolved against `cwd`, a leading `~` against `home`. Returns `None`
/// when the path needs a base that is missing (relative without `cwd`, `~` without `home`),
/// when a base is not absolute, when the path names another user's home (`~user`), or when
/// the path is empty or holds a NUL byte. `..` at the root stays at the root, as the kernel
/// does.
///
/// ```
/// use toolgate::path::normalize;
/// assert_eq!(normalize("src/../.env", Some("/p"), None).as_deref(), Some("/p/.env"));
/// assert_eq!(normalize("//etc/./passwd", None, None).as_deref(), Some("/etc/passwd"));
/// assert_eq!(normalize("~/.bashrc", None, Some("/home/ada")).as_deref(), Some("/home/ada/.bashrc"));
/// assert_eq!(normalize("/../../x", None, None).as_deref(), Some("/x"));
/// assert_eq!(normalize("x", None, None), None);
/// ```
pub fn normalize(path: &str, cwd: Option<&str>, home: Option<&str>) -> Option<String> {
    // `~user` names another user's home, which cannot be resolved lexically.
    let other_home = path.starts_with('~') && path != "~" && !path.starts_with("~/");
    if path.is_empty() || path.contains('\0') || other_home {
        return None;
    }
    let mut segments: Vec<&str> = Vec::with_capacity(16);
    let rest = if path == "~" || path.starts_with("~/") {
        let home = home.filter(|h| h.starts_with('/') && !h.contains('\0'))?;
        push_segments(&mut segments, home);
        path.get(1..).unwrap_or("")
    } else if path.starts_with('/') {
        path
    } else {
        let cwd = cwd.filter(|c| c.starts_with('/') && !c.contains('\0'))?;
        push_segments(&mut segments, cwd);
        path
    };
    push_segments(&mut segments, rest);
    Some(join(&segments))
}

fn push_segments<'a>(segments: &mut Vec<&'a str>, path: &'a str) {
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                segments.pop();
            }
            s => segments.push(s),
        }
    }
}

fn join(segments: &[&str]) -> String {
    if segments.is_empty() {
        return "/".to_owned();
    }
    let mut out = String::with_capacity(segments.iter().map(|s| s.len() + 1).sum());
    for s in segments {
        out.push('/');
        out.push_str(s);
    }
    out
}

/// Whether the normalised absolute path `path` is `dir` or lies under it, compared segment
/// by segment.
///
/// ```
/// use toolgate::path::contains;
/// assert!(contains("/proj", "/proj/src/main.rs"));
/// assert!(contains("/proj", "/proj"));
/// assert!(!contains("/proj", "/proj_evil/x"));
/// assert!(contains("/", "/etc"));
/// ```
pub fn contains(dir: &str, path: &str) -> bool {
    relative_to(dir, path).is_some()
}

/// `path` relative to `dir` (both normalised and absolute) when `dir` contains it: `""` for
/// `dir` itself, `src/main.rs` for `/proj/src/main.rs` under `/proj`.
///
/// ```
/// use toolgate::path::relative_to;
/// assert_eq!(relative_to("/proj", "/proj/src/a.rs"), Some("src/a.rs"));
/// assert_eq!(relative_to("/proj", "/proj"), Some(""));
/// assert_eq!(relative_to("/proj", "/projx/a"), None);
/// ```
pub fn relative_to<'a>(dir: &str, path: &'a str) -> Option<&'a str> {
    let dir = dir.trim_end_matches('/');
    let rest = path.strip_prefix(dir)?;
    if rest.is_empty() {
        Some("")
    } else {
        rest.strip_prefix('/')
    }
}

/// The home directory implied by a working directory (`/home/ada/proj` → `/home/ada`,
/// `/Users/ada/x` → `/Users/ada`, `/root/x` → `/root`), for policies that do not name one.
///
/// ```
/// use toolgate::path::home_from_cwd;
/// assert_eq!(home_from_cwd("/home/ada/proj").as_deref(), Some("/home/ada"));
/// assert_eq!(home_from_cwd("/srv/app"), None);
/// ```
pub fn home_from_cwd(cwd: &str) -> Option<String> {
    let mut segs = cwd.split('/').filter(|s| !s.is_empty());
    match (segs.next(), segs.next()) {
        (Some("root"), _) => Some("/root".to_owned()),
        (Some(top @ ("home" | "Users")), Some(user)) => {
            let mut home = String::with_capacity(top.len() + user.len() + 2);
            for part in [top, user] {
                home.push('/');
                home.push_str(part);
            }
            Some(home)
        }
        _ => None,
    }
}

/// The segments of a normalised absolute path.
pub fn segments(path: &str) -> impl Iterator<Item = &str> {
    path.split('/').filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_traversal_and_slashes() {
        let n = |p| normalize(p, Some("/home/ada/proj"), Some("/home/ada"));
        assert_eq!(n("./a//b/").as_deref(), Some("/home/ada/proj/a/b"));
        assert_eq!(n("../../../../etc").as_deref(), Some("/etc"));
        assert_eq!(n("~").as_deref(), Some("/home/ada"));
        assert_eq!(n("~user/x"), None);
        assert_eq!(n("a/~user").as_deref(), Some("/home/ada/proj/a/~user"));
        assert_eq!(n("").as_deref(), None);
        assert_eq!(n("a\0b").as_deref(), None);
        assert_eq!(normalize("a", Some("rel"), None), None);
    }

    #[test]
    fn containment_is_segment_wise() {
        assert!(!contains("/a/b", "/a/bc"));
        assert!(contains("/a/b/", "/a/b/c"));
        assert!(!contains("/a/b", "/a"));
    }
}
