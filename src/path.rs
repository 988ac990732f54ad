//! Lexical path normalisation and containment.
//!
//! Paths are compared as sequences of segments after resolving `.`, `..` and repeated
//! slashes against the working directory and the home directory, without touching a file
//! system. Containment is segment-wise: `/proj` contains `/proj/src`, never `/proj_evil`.
//! A host that can see the file system passes resolved symlink targets in the request's
//! `realpaths`, found by following each link over the host's file system ([`links`]).

mod compose;
pub mod links;

/// Normalises `path` to an absolute path with no `.`, `..` or empty segments.
///
/// A relative path is resolved against `cwd`, a leading `~` against `home`. Returns `None`
/// when the path needs a base that is missing (relative without `cwd`, `~` without `home`),
/// when a base is not absolute, when the path names another user's home (`~user`), when
/// the path is empty or holds a NUL byte, or when a `..` would remove a segment holding a
/// `\`: Windows reads that `\` as a separator before it folds `..`, so there the path leads
/// elsewhere (`secrets\k.txt\x/..` is `secrets\k.txt` on Windows, `.` on POSIX), and one
/// normalised path cannot stand for both. `..` at the root stays at the root, as the kernel
/// does.
///
/// ```
/// use toolgate::path::normalize;
/// assert_eq!(normalize("src/../.env", Some("/p"), None).as_deref(), Some("/p/.env"));
/// assert_eq!(normalize("//etc/./passwd", None, None).as_deref(), Some("/etc/passwd"));
/// assert_eq!(normalize("~/.bashrc", None, Some("/home/ada")).as_deref(), Some("/home/ada/.bashrc"));
/// assert_eq!(normalize("/../../x", None, None).as_deref(), Some("/x"));
/// assert_eq!(normalize("x", None, None), None);
/// assert_eq!(normalize("secrets\\k.txt\\x/..", Some("/p"), None), None);
/// assert_eq!(normalize("x\\..\\.env", Some("/p"), None).as_deref(), Some("/p/x\\..\\.env"));
/// ```
pub fn normalize(path: &str, cwd: Option<&str>, home: Option<&str>) -> Option<String> {
    // `~user` names another user's home, which cannot be resolved lexically.
    let other_home = path.starts_with('~') && path != "~" && !path.starts_with("~/");
    if path.is_empty() || path.contains('\0') || other_home {
        return None;
    }
    if is_normal_absolute(path) {
        return Some(path.to_owned());
    }
    let mut segments: Vec<&str> = Vec::with_capacity(16);
    let rest = if path == "~" || path.starts_with("~/") {
        let home = home.filter(|h| h.starts_with('/') && !h.contains('\0'))?;
        push_segments(&mut segments, home)?;
        path.get(1..).unwrap_or("")
    } else if path.starts_with('/') {
        path
    } else {
        let cwd = cwd.filter(|c| c.starts_with('/') && !c.contains('\0'))?;
        push_segments(&mut segments, cwd)?;
        path
    };
    push_segments(&mut segments, rest)?;
    Some(join(&segments))
}

/// Why [`normalize`] gives no path for `path`, in words for an error message: the `..` that
/// would remove a segment holding a `\\`, or the base a relative or `~` path needs.
///
/// ```
/// use toolgate::path::unresolved_because;
/// assert!(unresolved_because("secrets\\k.txt\\x/..").contains("Windows"));
/// assert!(unresolved_because("src/a.rs").contains("`cwd`"));
/// ```
pub fn unresolved_because(path: &str) -> &'static str {
    if push_segments(&mut Vec::new(), path).is_none() {
        "a `..` there removes a segment holding a `\\`, which Windows reads as a separator \
         first, so the path names another file there; write the path with `/` only"
    } else {
        "a relative path needs `cwd`, `~` a home"
    }
}

/// Whether `path` is already what [`normalize`] makes of it: `/`, or `/` followed by
/// segments none of which is empty, `.` or `..` (no repeated or trailing slash).
fn is_normal_absolute(path: &str) -> bool {
    let Some(rest) = path.strip_prefix('/') else {
        return false;
    };
    rest.is_empty() || slash_segments(rest).all(|seg| !matches!(seg, "" | "." | ".."))
}

/// The pieces of `path` between slashes, as `path.split('/')` gives them, found byte by
/// byte (the size-first build runs `split` through the generic pattern searcher).
fn slash_segments(path: &str) -> impl Iterator<Item = &str> {
    let mut start = Some(0);
    std::iter::from_fn(move || {
        let from = start?;
        let rest = path.get(from..)?;
        match rest.bytes().position(|b| b == b'/') {
            Some(at) => {
                start = Some(from + at + 1);
                rest.get(..at)
            }
            None => {
                start = None;
                Some(rest)
            }
        }
    })
}

/// Adds the segments of `path` to `segments`, folding `.` and `..`; `None` when a `..`
/// would remove a segment holding a `\` (see [`normalize`]).
fn push_segments<'a>(segments: &mut Vec<&'a str>, path: &'a str) -> Option<()> {
    for seg in slash_segments(path) {
        match seg {
            "" | "." => {}
            ".." => {
                if segments.pop().is_some_and(|s| s.contains('\\')) {
                    return None;
                }
            }
            s => segments.push(s),
        }
    }
    Some(())
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

/// Whether the absolute path `path` passes through a directory whose contents depend on the
/// process that opens it: `/proc/self`, `/proc/thread-self`, `/proc/<pid>`, `/dev/fd`, or is
/// `/dev/stdin`, `/dev/stdout` or `/dev/stderr` (or lies below one of them). `/proc/self/cwd`
/// is the working directory of whoever opens it: resolved by toolgate, it names toolgate's
/// own, not that of the shell that will run the command, so such a path cannot be resolved
/// on the agent's behalf. `.` and `..` are followed segment by segment, so a path that only
/// passes through (`/proc/self/cwd/../../etc`) counts too. A relative path never does.
///
/// ```
/// use toolgate::path::in_process_view;
/// assert!(in_process_view("/proc/self/cwd/../secrets/key.txt"));
/// assert!(in_process_view("/proc/self/cwd/../../etc/passwd"));
/// assert!(in_process_view("/proc/4242/root/etc"));
/// assert!(in_process_view("//dev/./fd/3"));
/// assert!(in_process_view("/tmp/../dev/stdin"));
/// assert!(!in_process_view("/proc/cpuinfo"));
/// assert!(!in_process_view("/dev/null"));
/// assert!(!in_process_view("/p/proc/self/x"));
/// assert!(!in_process_view("proc/self/cwd"));
/// ```
pub fn in_process_view(path: &str) -> bool {
    if !path.starts_with('/') {
        return false;
    }
    let mut walked: Vec<&str> = Vec::with_capacity(4);
    for seg in slash_segments(path) {
        match seg {
            "" | "." => continue,
            ".." => {
                walked.pop();
            }
            seg => walked.push(seg),
        }
        if is_process_view(&walked) {
            return true;
        }
    }
    false
}

/// Whether the segments, from the root, name a directory or file of [`in_process_view`].
fn is_process_view(segments: &[&str]) -> bool {
    match segments {
        ["proc", who, ..] => {
            matches!(*who, "self" | "thread-self") || who.bytes().all(|b| b.is_ascii_digit())
        }
        ["dev", "fd" | "stdin" | "stdout" | "stderr", ..] => true,
        _ => false,
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
    let mut segs = slash_segments(cwd).filter(|s| !s.is_empty());
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
    slash_segments(path).filter(|s| !s.is_empty())
}

/// The path as a Windows file system would read it, for the widest reading of deny, ask and
/// protected paths: backslashes are separators, each segment loses an alternate data
/// stream suffix (`.env::$DATA`, `a:stream`) and its trailing dots and spaces (`.env.`,
/// `.env  `). A segment of dots only (`.`, `..`) keeps them. Letters whose upper case is an
/// ASCII letter (`ſ`, `ı`) become it, characters HFS+ leaves out of names (`\u{200c}`,
/// `\u{feff}`, ...) are dropped, and combining marks (U+0300 to U+036F) are composed onto
/// the Latin or Cyrillic letter before them (`A\u{308}` is `Ä`), as those file systems
/// compare names (APFS ignores the normalisation form, HFS+ stores names decomposed). The
/// result is not normalised.
///
/// ```
/// use toolgate::path::fold_windows;
/// assert_eq!(fold_windows("/p/.env::$DATA"), "/p/.env");
/// assert_eq!(fold_windows("/p/.git\\hooks\\pre-commit. "), "/p/.git/hooks/pre-commit");
/// assert_eq!(fold_windows("..\\..\\etc"), "../../etc");
/// assert_eq!(fold_windows("/p/src/main.rs"), "/p/src/main.rs");
/// assert_eq!(fold_windows("/p/.g\u{200c}it/hooks"), "/p/.git/hooks");
/// assert_eq!(fold_windows("/p/ſecrets/k"), "/p/secrets/k");
/// assert_eq!(fold_windows("/p/A\u{308}rzte.txt"), "/p/\u{c4}rzte.txt");
/// ```
pub fn fold_windows(path: &str) -> String {
    let slashed: String = path
        .chars()
        .filter(|c| !is_ignorable_in_names(*c))
        .map(|c| match c {
            '\\' => '/',
            // Characters whose upper case is an ASCII letter: NTFS compares names by their
            // upper case (`ſ` is `S`, `ı` is `I`).
            'ſ' => 's',
            'ı' => 'i',
            c => c,
        })
        .collect();
    compose_marks(&slashed)
        .split('/')
        .map(fold_segment)
        .collect::<Vec<_>>()
        .join("/")
}

/// `text` with each combining mark (U+0300 to U+036F) composed onto the Latin or Cyrillic
/// letter before it, as Unicode's canonical composition (NFC) does for those letters: the
/// name a normalisation-insensitive file system (APFS) or one that stores names decomposed
/// (HFS+) takes it for. A mark that composes with nothing stays.
///
/// ```
/// use toolgate::path::compose_marks;
/// assert_eq!(compose_marks("A\u{308}rzte.txt"), "\u{c4}rzte.txt");
/// assert_eq!(compose_marks("e\u{323}\u{302}"), "\u{1ec7}");
/// assert_eq!(compose_marks("q\u{308}"), "q\u{308}");
/// assert_eq!(compose_marks("plain"), "plain");
/// ```
pub fn compose_marks(text: &str) -> std::borrow::Cow<'_, str> {
    if text.is_ascii() || !text.chars().any(compose::is_combining_mark) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let composed = compose::is_combining_mark(c)
            .then(|| out.chars().next_back())
            .flatten()
            .and_then(|base| compose::compose(base, c));
        if let Some(letter) = composed {
            out.pop();
            out.push(letter);
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Characters HFS+ leaves out of file names when it compares them (zero-width joiners and
/// non-joiners, direction marks and overrides, the byte-order mark): `.g\u{200c}it` is `.git`
/// there.
fn is_ignorable_in_names(c: char) -> bool {
    matches!(
        c,
        '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{206a}'..='\u{206f}' | '\u{feff}'
    )
}

fn fold_segment(seg: &str) -> &str {
    let seg = match seg.split_once(':') {
        Some((name, _)) if !name.is_empty() => name,
        _ => seg,
    };
    let trimmed = seg.trim_end_matches([' ', '.']);
    if trimmed.is_empty() {
        seg.trim_end_matches(' ')
    } else {
        trimmed
    }
}

/// Whether a host's `trim()` may remove `c` from the ends of a path: Unicode white space
/// (Rust's `trim`, which takes `\u{85}` too), JavaScript's (`\s`, which adds `\u{feff}`) and
/// Python's (`str.strip`, which adds `\x1c` to `\x1f`).
pub fn is_trimmable(c: char) -> bool {
    c.is_whitespace() || matches!(c, '\u{feff}' | '\x1c'..='\x1f')
}

/// `path` as a host that trims its tools' paths opens it (Claude Code trims `file_path`
/// before it resolves it), or `None` when trimming leaves it as written.
///
/// ```
/// use toolgate::path::trimmed;
/// assert_eq!(trimmed(" /etc/shadow"), Some("/etc/shadow"));
/// assert_eq!(trimmed(".env\u{3000}\n"), Some(".env"));
/// assert_eq!(trimmed("\u{feff}key.pem"), Some("key.pem"));
/// assert_eq!(trimmed("my notes.txt"), None);
/// ```
pub fn trimmed(path: &str) -> Option<&str> {
    let t = path.trim_matches(is_trimmable);
    (t.len() != path.len()).then_some(t)
}

/// Whether a path is absolute on Windows only: a drive (`C:\\x`, `c:/x`, `C:x`), a network
/// share (`\\\\server\\share`), the current drive's root (`\\Windows`), or one of these
/// written with forward slashes where POSIX reads a plain directory: a device path
/// (`//./C:/x`, `//?/C:/x`), a drive's administrative share (`//localhost/c$/x`), or two
/// leading separators one of which is a `\\` (`/\\server\\share`). Such paths cannot be
/// resolved lexically against a POSIX working directory.
///
/// A share written with forward slashes only (`//server/share/x`) is left to its POSIX
/// reading (`/server/share/x`), which is what the deny rules of a POSIX host meet.
///
/// ```
/// use toolgate::path::is_windows_absolute;
/// assert!(is_windows_absolute("C:\\Windows\\System32"));
/// assert!(is_windows_absolute("c:/x"));
/// assert!(is_windows_absolute("\\\\server\\share"));
/// assert!(is_windows_absolute("//./C:/Users/ada/.env"));
/// assert!(is_windows_absolute("//?/C:/Users/ada/.env"));
/// assert!(is_windows_absolute("//localhost/c$/Users/ada/.env"));
/// assert!(is_windows_absolute("/\\localhost\\share"));
/// assert!(!is_windows_absolute("/etc/passwd"));
/// assert!(!is_windows_absolute("//etc//passwd"));
/// assert!(!is_windows_absolute("src/a:b"));
/// ```
pub fn is_windows_absolute(path: &str) -> bool {
    let mut chars = path.chars();
    let drive = matches!(
        (chars.next(), chars.next()),
        (Some(c), Some(':')) if c.is_ascii_alphabetic()
    );
    drive || path.starts_with('\\') || is_forward_slash_device_or_share(path)
}

/// The forward-slash Windows prefixes of [`is_windows_absolute`]: two leading separators
/// followed by a device (`.`, `?`) or by a host and a drive's share (`c$`, `c:`), or two
/// leading separators one of which is a `\\`.
fn is_forward_slash_device_or_share(path: &str) -> bool {
    let is_separator = |c: char| matches!(c, '/' | '\\');
    let mut chars = path.chars();
    let (Some(first), Some(second)) = (chars.next(), chars.next()) else {
        return false;
    };
    let rest = chars.as_str();
    if !is_separator(first) || !is_separator(second) || rest.starts_with(is_separator) {
        return false;
    }
    let mut parts = rest.split(is_separator);
    let host = parts.next().unwrap_or("");
    let share = parts.next().unwrap_or("");
    let drive_share = matches!(
        share.as_bytes(),
        [letter, b'$' | b':'] if letter.is_ascii_alphabetic()
    );
    (second == '\\' && !host.is_empty()) || matches!(host, "." | "?") || drive_share
}

/// Whether a path needs [`fold_windows`] at all (most do not): it holds a `\\` or a `:`, a
/// segment ending in a dot or a space, a letter NTFS folds, a character HFS+ leaves out, or a
/// combining mark (a name in the other Unicode normalisation form). No allow rule matches
/// such a path.
///
/// ```
/// use toolgate::path::has_windows_spelling;
/// assert!(has_windows_spelling("/p/a\\b"));
/// assert!(has_windows_spelling("/p/.env."));
/// assert!(has_windows_spelling("/p/cafe\u{301}.txt"));
/// assert!(!has_windows_spelling("/p/caf\u{e9}.txt"));
/// ```
pub fn has_windows_spelling(path: &str) -> bool {
    // Byte by byte: every character looked for is ASCII, and no byte of a multi-byte
    // character is ASCII; only a path with a multi-byte character is looked at again.
    let bytes = path.as_bytes();
    bytes.iter().any(|b| matches!(b, b'\\' | b':'))
        || bytes
            .split(|b| *b == b'/')
            .any(|s| matches!(s.last(), Some(b' ' | b'.')) && !s.iter().all(|b| *b == b'.'))
        || (!path.is_ascii()
            && path.chars().any(|c| {
                matches!(c, 'ſ' | 'ı') || is_ignorable_in_names(c) || compose::is_combining_mark(c)
            }))
}

/// A Windows 8.3 short name (`SETTIN~1.JSO`): the start of the long name's base and of its
/// extension, lowercased. A short name stands for any long name that starts that way.
///
/// ```
/// use toolgate::path::{short_name, short_name_matches};
/// assert_eq!(short_name("SETTIN~1.JSO"), Some(("settin".to_owned(), "jso".to_owned())));
/// assert_eq!(short_name("GIT~1"), Some(("git".to_owned(), String::new())));
/// assert_eq!(short_name("main.rs"), None);
/// assert!(short_name_matches("settings.json", "SETTIN~1.JSO"));
/// assert!(short_name_matches(".git", "GIT~1"));
/// assert!(!short_name_matches("src", "GIT~1"));
/// assert!(short_name_matches("credentials.json", "CR8D2E~1.JSO"));
/// // A one-letter base keeps its letter before the hash.
/// assert!(short_name_matches("s.secrets", "S1A2B~1.SEC"));
/// ```
pub fn short_name(seg: &str) -> Option<(String, String)> {
    let (base, rest) = seg.split_once('~')?;
    let (number, ext) = match rest.split_once('.') {
        Some((n, e)) => (n, e),
        None => (rest, ""),
    };
    let plain = |s: &str| !s.contains(['~', '.', ' ', '*', '?', '[', ']']);
    let ok = (1..=8).contains(&base.chars().count())
        && plain(base)
        && !number.is_empty()
        && number.len() <= 6
        && number.bytes().all(|b| b.is_ascii_digit())
        && ext.chars().count() <= 3
        && plain(ext);
    ok.then(|| (base.to_lowercase(), ext.to_lowercase()))
}

/// Whether the path segment `seg` names `name` (both lowercased): it is `name`, or an 8.3
/// short name that could stand for it (only a segment holding a `~` can be one).
///
/// ```
/// use toolgate::path::names;
/// assert!(names(".git", ".git"));
/// assert!(names(".git", "git~1"));
/// assert!(!names(".git", "src"));
/// ```
pub fn names(name: &str, seg: &str) -> bool {
    seg == name || (seg.as_bytes().contains(&b'~') && short_name_matches(name, seg))
}

/// Whether the long name `long` could have the 8.3 short name `short`: Windows drops
/// leading dots, spaces and inner dots, keeps the start of the base and of the extension.
pub fn short_name_matches(long: &str, short: &str) -> bool {
    let Some((base, ext)) = short_name(short) else {
        return false;
    };
    let long = long.to_lowercase();
    let stripped = long.trim_start_matches('.');
    let (long_base, long_ext) = match stripped.rsplit_once('.') {
        Some((b, e)) if !b.is_empty() => (b, e),
        _ => (stripped, ""),
    };
    let compact: String = long_base
        .chars()
        .filter(|c| !matches!(c, '.' | ' '))
        .collect();
    let all: String = stripped
        .chars()
        .filter(|c| !matches!(c, '.' | ' '))
        .collect();
    let base = spelt_start(&base);
    (compact.starts_with(base) && long_ext.starts_with(&ext))
        || (ext.is_empty() && all.starts_with(base))
}

/// The part of a short name's base that the long name spells: all of it, or, in the hashed
/// form Windows gives a name once several share a start (`EN4A1B~1`: two letters of the
/// name, or the one a one-letter base has, then four hexadecimal digits of a hash), those
/// letters.
fn spelt_start(base: &str) -> &str {
    let letters = base.len().saturating_sub(HASH_DIGITS);
    let hashed = matches!(letters, 1 | 2)
        && base
            .get(letters..)
            .is_some_and(|h| h.bytes().all(|b| b.is_ascii_hexdigit()));
    if hashed {
        base.get(..letters).unwrap_or(base)
    } else {
        base
    }
}

/// The hexadecimal digits of the hash in a hashed short name ([`spelt_start`]).
const HASH_DIGITS: usize = 4;

/// Whether the 8.3 short name `short` could stand for a long name that the one-segment glob
/// `glob` matches (`*`, `?`, `[...]`, `{a,b}`). Decided by what the glob spells out: the
/// literal text before its first wildcard must start the name (so `HEAD~1` stands for no
/// name that `.env.*` matches), and a literal extension after its last wildcard must begin
/// with the short name's extension (`KEY~1.TXT` is no `*.pem`). Anything the glob leaves open
/// may match: the reading is as wide as [`short_name_matches`]'s.
///
/// ```
/// use toolgate::path::short_name_may_match_glob;
/// assert!(short_name_may_match_glob(".env.*", "ENVLOC~1"));
/// assert!(short_name_may_match_glob("*.pem", "KEY~1.PEM"));
/// assert!(short_name_may_match_glob("*.pem", "KEY~1"));
/// assert!(!short_name_may_match_glob(".env.*", "HEAD~1"));
/// assert!(!short_name_may_match_glob("*.pem", "KEY~1.TXT"));
/// assert!(!short_name_may_match_glob("main.rs", "HEAD~1"));
/// // The hashed form spells only the name's first two letters, or its only one.
/// assert!(short_name_may_match_glob(".env.*", "EN4A1B~1.PRO"));
/// assert!(short_name_may_match_glob("a.env*", "A1A2B~5.ENV"));
/// ```
pub fn short_name_may_match_glob(glob: &str, short: &str) -> bool {
    let Some((base, ext)) = short_name(short) else {
        return false;
    };
    let wildcard = |c: char| matches!(c, '*' | '?' | '[' | ']' | '{' | '}' | '\\');
    let lead = glob.split(wildcard).next().unwrap_or_default();
    if let Some(start) = short_name_start(lead) {
        let base = spelt_start(&base);
        if !(base.starts_with(&start) || start.starts_with(base)) {
            return false;
        }
    }
    if !ext.is_empty() && glob.contains(wildcard) {
        let tail = glob.rsplit(wildcard).next().unwrap_or_default();
        if let Some((_, long_ext)) = tail.rsplit_once('.') {
            let long_ext = long_ext.to_lowercase();
            if !long_ext.is_empty() && long_ext.is_ascii() && !long_ext.starts_with(&ext) {
                return false;
            }
        }
    }
    true
}

/// How the start `lead` of a long name begins its 8.3 short name: lowercased, without
/// leading dots, inner dots and spaces; `None` when Windows might spell a character of it
/// otherwise (`+,;=[]` and non-ASCII characters become `_`), so the start says nothing.
fn short_name_start(lead: &str) -> Option<String> {
    let kept: String = lead
        .trim_start_matches('.')
        .chars()
        .filter(|c| !matches!(c, '.' | ' '))
        .collect();
    kept.chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_!#$%&'()@^`~".contains(c))
        .then(|| kept.to_lowercase())
}

/// The bytes that the path segment names of a table start with, as a set: a segment
/// starting with another byte equals none of them, so it need not be compared with each
/// (a caller that also matches 8.3 short names checks those apart). Worked out from the
/// tables when compiling, so the tables stay the one source.
pub(crate) struct FirstBytes(u128, u128);

impl FirstBytes {
    /// The first bytes of `names`.
    pub(crate) const fn of(mut names: &[&str]) -> Self {
        let mut set = FirstBytes(0, 0);
        while let Some((name, rest)) = names.split_first() {
            set = set.with(name);
            names = rest;
        }
        set
    }

    /// The first bytes of the first names of `sequences`.
    pub(crate) const fn of_firsts(mut sequences: &[&[&str]]) -> Self {
        let mut set = FirstBytes(0, 0);
        while let Some((seq, rest)) = sequences.split_first() {
            set = match seq.split_first() {
                Some((name, _)) => set.with(name),
                None => FirstBytes(u128::MAX, u128::MAX),
            };
            sequences = rest;
        }
        set
    }

    /// The set with `name`'s first byte added.
    const fn with(self, name: &str) -> Self {
        match name.as_bytes().first() {
            // A name that is a bare prefix pattern (or empty) may start with anything.
            Some(b'*') | None => FirstBytes(u128::MAX, u128::MAX),
            Some(&b) if b < 128 => FirstBytes(self.0 | (1 << b), self.1),
            Some(&b) => FirstBytes(self.0, self.1 | (1 << (b - 128))),
        }
    }

    /// Whether `seg` may equal one of the names (always true for an empty segment).
    pub(crate) fn may_start(&self, seg: &str) -> bool {
        match seg.as_bytes().first() {
            None => true,
            Some(&b) if b < 128 => (self.0 >> b) & 1 == 1,
            Some(&b) => (self.1 >> (b - 128)) & 1 == 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPELLINGS: &[&str] = &[
        "",
        "/",
        "//",
        "/a",
        "/a/",
        "a/b",
        "/a//b",
        "/./a",
        "/a/.",
        "/a/..",
        "/..",
        "/...",
        "/.a/b.",
        "/é/ü",
        "/a/b/c/d",
        "///",
        "/a/./b/../c",
        "x",
        ".",
        "..",
        "/ /a",
    ];

    #[test]
    fn slash_segments_are_split_on_slashes() {
        for p in SPELLINGS {
            let ours: Vec<&str> = slash_segments(p).collect();
            let theirs: Vec<&str> = p.split('/').collect();
            assert_eq!(ours, theirs, "`{p}`");
        }
    }

    #[test]
    fn a_path_taken_as_normal_is_what_normalising_it_gives() {
        for p in SPELLINGS {
            let mut segs = Vec::new();
            push_segments(&mut segs, p);
            let slow = join(&segs);
            if is_normal_absolute(p) {
                assert_eq!(&slow, p, "`{p}`");
            } else if p.starts_with('/') {
                assert_ne!(&slow, p, "`{p}` is normal but was not taken as such");
            }
        }
    }

    #[test]
    fn windows_spelling_byte_check_reads_as_the_character_check() {
        let by_chars = |path: &str| {
            path.contains(['\\', ':'])
                || path
                    .split('/')
                    .any(|s| s.ends_with([' ', '.']) && !s.chars().all(|c| c == '.'))
                || path.contains(|c| matches!(c, '\u{300}'..='\u{36f}'))
        };
        for p in [
            "",
            "/",
            "/p/src/main.rs",
            "/p/.env.",
            "/p/.env ",
            "/p/../x",
            "/p/./x",
            "..",
            "...",
            "/p/a\\b",
            "/p/.env::$DATA",
            "/p/é.",
            "/p/日本/x",
            "/p/ä ",
            "/p/x/",
            "//",
            "/p/ . /x",
            "/p/…",
            "/p/.ｅnv.",
            "/p/e\u{301}",
            "/p/\u{e9}",
        ] {
            assert_eq!(has_windows_spelling(p), by_chars(p), "{p:?}");
        }
    }

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
        // Windows folds `..` after its `\\` separators: the readings part, so neither holds.
        assert_eq!(n("secrets\\k.txt\\x/.."), None);
        assert_eq!(n("src/..\\.git\\hooks\\x/../.."), None);
        assert_eq!(n("/a\\b/.."), None);
        assert_eq!(n("a\\b/c").as_deref(), Some("/home/ada/proj/a\\b/c"));
        assert_eq!(n("a/b/..\\c").as_deref(), Some("/home/ada/proj/a/b/..\\c"));
    }

    #[test]
    fn forward_slash_device_and_share_prefixes_are_windows_absolute() {
        for p in [
            "//./C:/x",
            "//?/C:/x",
            "//?/UNC/host/share",
            "//localhost/c$/Users",
            "//host/D:/x",
            "/\\host\\share",
            "\\/./C:/x",
        ] {
            assert!(is_windows_absolute(p), "{p}");
        }
        for p in [
            "//",
            "///x",
            "//etc/passwd",
            "//etc//shadow",
            "/./x",
            "//usr/bin/cc",
        ] {
            assert!(!is_windows_absolute(p), "{p}");
        }
    }

    #[test]
    fn containment_is_segment_wise() {
        assert!(!contains("/a/b", "/a/bc"));
        assert!(contains("/a/b/", "/a/b/c"));
        assert!(!contains("/a/b", "/a"));
    }
}
