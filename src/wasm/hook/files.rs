//! The file and environment access of the native hook (`src/cli/files.rs`), over the
//! [`HookHost`](super::HookHost) that the npm package's `toolgate` bin hands in: the same
//! function names and the same error texts, so the shared hook modules compile unchanged
//! against either.

use std::path::{Path, PathBuf};

use crate::{Error, ErrorKind};

use super::host;

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

/// The home directory (`$HOME`).
pub fn home() -> Result<PathBuf, Error> {
    match host::env("HOME") {
        Some(h) if !h.is_empty() => Ok(PathBuf::from(h)),
        _ => Err(Error::new(ErrorKind::Storage, "`HOME` is not set")
            .with_hint("set `HOME` to your home directory")),
    }
}

fn xdg(var: &str, fallback: &[&str]) -> Result<PathBuf, Error> {
    match host::env(var) {
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
/// `/etc/toolgate/policy.json`.
pub fn managed_policy() -> PathBuf {
    host::env("TOOLGATE_MANAGED_POLICY")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/etc/toolgate/policy.json"))
}

/// A file's text, `None` when it does not exist. Any other failure is an error, and so is a
/// symbolic link on the way to it that leads nowhere (as the native hook reads it).
pub fn read_optional(path: &Path) -> Result<Option<String>, Error> {
    let text = host::read(&path.to_string_lossy())
        .map_err(|message| storage(path, "read", &std::io::Error::other(message)))?;
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
    let (entry, target) = path
        .ancestors()
        .filter(|a| !a.as_os_str().is_empty())
        .map(|a| (a, host::read_link(a)))
        .find(|(a, target)| target.is_some() || host::exists(a))?;
    let target = target.filter(|_| !host::exists(entry))?;
    Some((entry.to_path_buf(), target))
}

/// An I/O error as a toolgate error.
pub fn storage(path: &Path, what: &str, e: &std::io::Error) -> Error {
    Error::new(
        ErrorKind::Storage,
        format!("cannot {what} `{}`: {e}", path.display()),
    )
    .with_hint("check the file's permissions and the disk")
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
