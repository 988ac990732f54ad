//! The file and environment access of the native hook (`src/cli/files.rs`), over the
//! [`HookHost`](super::HookHost) that the npm package's `toolgate` bin hands in: the same
//! function names and the same error texts, so the shared hook modules compile unchanged
//! against either.

use std::path::{Path, PathBuf};

use crate::agents::MAX_FILE_BYTES;
use crate::path::links::Entry;
use crate::{Error, ErrorKind};

use super::host::{self, ReadFailure};

/// Whether `path` is absolute, as on Unix (`Path::is_absolute` is false for every path on
/// wasm32-unknown-unknown, which has no notion of a root).
pub fn is_absolute(path: &str) -> bool {
    path.starts_with('/')
}

/// Where the directory `path` really is, links resolved (`path` itself when it cannot be
/// resolved).
pub fn real_dir(path: &Path) -> PathBuf {
    let text = path.to_string_lossy();
    host::realpath(&text).map_or_else(|| path.to_path_buf(), PathBuf::from)
}

/// An environment variable that names a file or directory. Node decodes a value that is not
/// UTF-8 with U+FFFD in place of the bytes, which names a path that does not exist: its
/// rules would vanish in silence, so such a value is an error (the native hook reads the
/// bytes as they are).
pub fn path_var(name: &str) -> Result<Option<String>, Error> {
    match host::env(name) {
        Some(v) if v.contains(char::REPLACEMENT_CHARACTER) => Err(Error::new(
            ErrorKind::Storage,
            format!("`{name}` is not valid UTF-8 (or holds U+FFFD), so the npm hook cannot name its path"),
        )
        .with_hint(format!(
            "set `{name}` to a path that is valid UTF-8, or run the native `toolgate hook`"
        ))),
        v => Ok(v),
    }
}

/// The home directory (`$HOME`).
pub fn home() -> Result<PathBuf, Error> {
    match path_var("HOME")? {
        Some(h) if !h.is_empty() => Ok(PathBuf::from(h)),
        _ => Err(Error::new(ErrorKind::Storage, "`HOME` is not set")
            .with_hint("set `HOME` to your home directory")),
    }
}

fn xdg(var: &str, fallback: &[&str]) -> Result<PathBuf, Error> {
    match path_var(var)? {
        Some(d) if is_absolute(&d) => Ok(PathBuf::from(d)),
        _ => {
            let mut p = home()?;
            for part in fallback {
                p.push(part);
            }
            Ok(p)
        }
    }
}

/// `$XDG_CONFIG_HOME/toolgate` or `~/.config/toolgate`.
pub fn config_dir() -> Result<PathBuf, Error> {
    Ok(xdg("XDG_CONFIG_HOME", &[".config"])?.join("toolgate"))
}

/// `$XDG_STATE_HOME/toolgate` or `~/.local/state/toolgate`.
pub fn state_dir() -> Result<PathBuf, Error> {
    Ok(xdg("XDG_STATE_HOME", &[".local", "state"])?.join("toolgate"))
}

/// The managed (administrator's) policy: `$TOOLGATE_MANAGED_POLICY` or
/// `/etc/toolgate/policy.json`; an error when the variable is not UTF-8 ([`path_var`]).
pub fn managed_policy() -> Result<PathBuf, Error> {
    Ok(path_var("TOOLGATE_MANAGED_POLICY")?
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/etc/toolgate/policy.json")))
}

/// A file's text, `None` when it does not exist. Any other failure is an error, and so is a
/// symbolic link on the way to it that leads nowhere, a file that is not a regular one (a
/// FIFO, a device: the host opens it without waiting and refuses it) and one larger than
/// [`MAX_FILE_BYTES`] (as the native hook reads it).
pub fn read_optional(path: &Path) -> Result<Option<String>, Error> {
    let text = host::read(&path.to_string_lossy(), MAX_FILE_BYTES).map_err(|f| match f {
        ReadFailure::NotRegular => Error::not_a_regular_file(path, "read"),
        ReadFailure::TooLarge => Error::file_too_large(path, MAX_FILE_BYTES),
        ReadFailure::Other(message) => storage(path, "read", &std::io::Error::other(message)),
    })?;
    if text.is_some() {
        return Ok(text);
    }
    match dangling_link(path) {
        Some((link, target)) => Err(Error::dangling_link(path, &link, &target)),
        None => Ok(None),
    }
}

/// The nearest entry on the way to the missing `path` (itself or a parent directory) that
/// exists, when it is a symbolic link whose target does not: the link and where it points.
fn dangling_link(path: &Path) -> Option<(PathBuf, PathBuf)> {
    let (entry, found) = path
        .ancestors()
        .filter(|a| !a.as_os_str().is_empty())
        .map(|a| (a, host::entry(&a.to_string_lossy())))
        .find(|(_, found)| *found != Entry::Missing)?;
    match found {
        Entry::Link(target) if !host::exists(entry) => {
            Some((entry.to_path_buf(), PathBuf::from(target)))
        }
        _ => None,
    }
}

/// An I/O error as a toolgate error.
pub fn storage(path: &Path, what: &str, e: &std::io::Error) -> Error {
    Error::new(
        ErrorKind::Storage,
        format!("cannot {what} `{}`: {e}", path.display()),
    )
    .with_hint("check the file's permissions and the disk")
}

/// Appends `text` to `path`, creating the file and its directory; the host opens it without
/// waiting and refuses a file that is not a regular one.
pub fn append(path: &Path, text: &str) -> Result<(), Error> {
    host::append(path, text)
}

/// The hook only reads the trust file; writing it is the native CLI's (`toolgate trust`).
pub fn write_atomic(path: &Path, _text: &str) -> Result<(), Error> {
    Err(Error::new(
        ErrorKind::Storage,
        format!("cannot write `{}` from the npm package", path.display()),
    )
    .with_hint("use the native `toolgate trust` command to change grants"))
}

/// A lock on `<path>.lock`. Node has no file locks, and the trust file is replaced by rename,
/// so a reader sees the old file or the new one, never half of one; the lock file and its
/// directory are still created as the native hook creates them, with the same errors.
pub struct FileLock;

impl FileLock {
    /// Creates `<path>.lock` (see [`FileLock`]).
    pub fn acquire(path: &Path, _exclusive: bool) -> Result<FileLock, Error> {
        let mut name = path.as_os_str().to_owned();
        name.push(".lock");
        host::append(Path::new(&name), "")?;
        Ok(FileLock)
    }
}

/// Milliseconds since the Unix epoch, from the host's clock.
pub fn now_ms() -> u64 {
    host::now_ms()
}
