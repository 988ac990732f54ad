//! Paths that name a process's open descriptors (`/dev/stdin`, `/dev/fd/1`,
//! `/proc/self/fd/2`). On Linux, opening one opens again whatever file is behind the
//! descriptor, with the new access: `printf x <.git/config >>/dev/stdin` appends to
//! `.git/config`, and `cat /dev/stderr 2>>.env` prints `.env`. So a line that opens such a
//! path reaches every file the line redirects a descriptor to, for writing when the path is
//! written and for reading when it is read.

use super::Outcome;

/// Whether `path` names a descriptor of the process: it ends in `dev/stdin`, `dev/stdout`,
/// `dev/stderr`, or `fd/N` (`/dev/fd/N`, `/proc/self/fd/N`, `/proc/PID/fd/N`), however the
/// directories before are spelled.
///
/// ```text
/// is_descriptor_path("/dev/stdin") == true
/// is_descriptor_path("/proc/self/fd/2") == true
/// is_descriptor_path("/dev//./fd/0") == true
/// is_descriptor_path("/dev/null") == false
/// ```
pub(crate) fn is_descriptor_path(path: &str) -> bool {
    let mut segments = path.rsplit('/').filter(|s| !s.is_empty() && *s != ".");
    match (segments.next(), segments.next()) {
        (Some("stdin" | "stdout" | "stderr"), Some("dev")) => true,
        (Some(n), Some("fd")) => !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()),
        _ => false,
    }
}

/// Whether `path` names a terminal device: `/dev/tty` (the process's controlling
/// terminal), `/dev/ttyN`, `/dev/ttyS0`, `/dev/console`, `/dev/pts/N`, however the
/// directories before are spelled. Opening one reads what is typed there, never a file the
/// line redirects, so it reopens nothing ([`Reopened`]).
///
/// ```text
/// is_terminal_path("/dev/tty") == true
/// is_terminal_path("/dev//pts/0") == true
/// is_terminal_path("/dev/tty.txt") == false
/// ```
pub(crate) fn is_terminal_path(path: &str) -> bool {
    let mut segments = path.rsplit('/').filter(|s| !s.is_empty() && *s != ".");
    match (segments.next(), segments.next()) {
        (Some("console"), Some("dev")) => true,
        (Some(name), Some("dev")) => name
            .strip_prefix("tty")
            .is_some_and(|n| n.bytes().all(|b| b.is_ascii_alphanumeric())),
        (Some(n), Some("pts")) => !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()),
        _ => false,
    }
}

/// Whether a program that reads `path` takes what is not on the line: a descriptor's file
/// ([`is_descriptor_path`]) or what is typed on a terminal ([`is_terminal_path`]). A
/// makefile, a source or a script read from one (`make -f /dev/tty`, `python3 /dev/tty`)
/// holds whatever comes there.
pub(crate) fn is_input_path(path: &str) -> bool {
    is_descriptor_path(path) || is_terminal_path(path)
}

/// What a line does with descriptor paths, and how the files its redirections name would
/// be judged if reopened through one.
#[derive(Default)]
pub(crate) struct Reopened {
    /// The first descriptor path the line writes, if any.
    written: Option<String>,
    /// The first descriptor path the line reads, if any.
    read: Option<String>,
    /// Each redirection to a file: its text, and its judgement as a read and as a write.
    files: Vec<(String, Outcome, Outcome)>,
}

impl Reopened {
    /// Notes a descriptor path the line writes (`>>/dev/stdin`, `tee /dev/fd/0`).
    pub(crate) fn write(&mut self, path: &str) {
        self.written.get_or_insert_with(|| path.to_owned());
    }

    /// Notes a descriptor path the line reads (`cat /dev/stderr`, `</dev/fd/1`).
    pub(crate) fn read(&mut self, path: &str) {
        self.read.get_or_insert_with(|| path.to_owned());
    }

    /// Notes a redirection to a file, with how a read and a write of it are judged.
    pub(crate) fn file(&mut self, text: &str, read: Outcome, write: Outcome) {
        self.files.push((text.to_owned(), read, write));
    }

    /// The parts the reopening adds: every redirected file, as written when a descriptor
    /// path is written and as read when one is read.
    pub(crate) fn parts(self) -> Vec<(String, Outcome)> {
        let mut out = Vec::new();
        for (text, read, write) in self.files {
            if let Some(path) = &self.written {
                out.push((format!("{text} (written through `{path}`)"), write));
            }
            if let Some(path) = &self.read {
                out.push((format!("{text} (read through `{path}`)"), read));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptor_paths_in_any_spelling() {
        for p in [
            "/dev/stdin",
            "/dev/stdout",
            "/dev/stderr",
            "/dev/fd/0",
            "/dev/fd/12",
            "/proc/self/fd/1",
            "/proc/thread-self/fd/2",
            "/proc/1234/fd/0",
            "//dev/./stdin",
            "/dev/fd/1/",
            "../../dev/stdin",
        ] {
            assert!(is_descriptor_path(p), "{p}");
        }
        for p in [
            "/dev/null",
            "/dev/tty",
            "/dev/fd",
            "/dev/fd/x",
            "stdin",
            "src/fd/",
        ] {
            assert!(!is_descriptor_path(p), "{p}");
        }
    }

    #[test]
    fn terminals_are_input_but_reopen_no_file() {
        for p in [
            "/dev/tty",
            "/dev/tty1",
            "/dev/ttyS0",
            "/dev/console",
            "/dev/pts/0",
            "/dev//pts/12",
        ] {
            assert!(is_terminal_path(p) && is_input_path(p), "{p}");
            assert!(!is_descriptor_path(p), "{p}");
        }
        for p in [
            "/dev/null",
            "/dev/zero",
            "/dev/pts",
            "/dev/pts/x",
            "/dev/tty.txt",
            "tty",
        ] {
            assert!(!is_terminal_path(p) && !is_input_path(p), "{p}");
        }
        assert!(is_input_path("/proc/self/fd/0"));
    }
}
