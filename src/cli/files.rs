//! Where toolgate's files live, and reading and writing them safely: missing files are
//! `None`, unreadable ones are errors (never an empty default), writes go to a temporary file
//! that is renamed into place, and read-modify-write cycles hold an exclusive file lock.

use std::fs::{File, OpenOptions};
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};

use toolgate::agents::MAX_FILE_BYTES;
use toolgate::{Error, ErrorKind};

/// The home directory (`$HOME`).
pub fn home() -> Result<PathBuf, Error> {
    match std::env::var_os("HOME") {
        Some(h) if !h.is_empty() => Ok(PathBuf::from(h)),
        _ => Err(Error::new(ErrorKind::Storage, "`HOME` is not set")
            .with_hint("set `HOME` to your home directory")),
    }
}

/// Where the directory `path` really is, links resolved (`path` itself when it cannot be
/// resolved).
pub fn real_dir(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

fn xdg(var: &str, fallback: &[&str]) -> Result<PathBuf, Error> {
    match std::env::var_os(var) {
        Some(d) if Path::new(&d).is_absolute() => Ok(PathBuf::from(d)),
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
/// `/etc/toolgate/policy.json`. Never an error here (the variable's bytes are read as they
/// are); the npm hook's, which sees the variable decoded, can refuse it.
pub fn managed_policy() -> Result<PathBuf, Error> {
    Ok(std::env::var_os("TOOLGATE_MANAGED_POLICY")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/etc/toolgate/policy.json")))
}

/// A file's text, `None` when it does not exist. Any other failure is an error, and so is a
/// symbolic link on the way to it that leads nowhere: the file was meant to be there (a
/// policy whose deny rules would otherwise vanish in silence). The file is opened without
/// waiting ([`no_wait`]) and read only when it is a regular file of at most
/// [`MAX_FILE_BYTES`] bytes: a FIFO, a device or a link to one (`/dev/tty`, `/dev/zero`) is
/// an error, never a read that blocks or never ends.
pub fn read_optional(path: &Path) -> Result<Option<String>, Error> {
    let file = match no_wait(OpenOptions::new().read(true)).open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return match dangling_link(path) {
                Some((link, target)) => Err(Error::dangling_link(path, &link, &target)),
                None => Ok(None),
            }
        }
        Err(e) => return Err(storage(path, "read", &e)),
    };
    regular(&file, path, "read")?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| storage(path, "read", &e))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(Error::file_too_large(path, MAX_FILE_BYTES));
    }
    String::from_utf8(bytes).map(Some).map_err(|_| {
        let e = std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        );
        storage(path, "read", &e)
    })
}

/// `options` set to open without waiting (`O_NONBLOCK`, and `O_NOCTTY`): opening a FIFO
/// or a terminal returns at once, so [`regular`] can refuse it.
pub fn no_wait(options: &mut OpenOptions) -> &mut OpenOptions {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
    }
    #[cfg(not(unix))]
    {
        options
    }
}

/// Refuses an open `file` at `path` (to `what`: `read`, `append to`) that is not a regular
/// file ([`Error::not_a_regular_file`]).
pub fn regular(file: &File, path: &Path, what: &str) -> Result<(), Error> {
    let meta = file.metadata().map_err(|e| storage(path, what, &e))?;
    if meta.is_file() {
        Ok(())
    } else {
        Err(Error::not_a_regular_file(path, what))
    }
}

/// The nearest entry on the way to the missing `path` (itself or a parent directory) that
/// exists, when it is a symbolic link whose target does not: the link and where it points.
fn dangling_link(path: &Path) -> Option<(PathBuf, PathBuf)> {
    let entry = path
        .ancestors()
        .filter(|a| !a.as_os_str().is_empty())
        .find(|a| std::fs::symlink_metadata(a).is_ok())?;
    let is_link = std::fs::symlink_metadata(entry).is_ok_and(|m| m.file_type().is_symlink());
    if !is_link || std::fs::metadata(entry).is_ok() {
        return None;
    }
    let target = std::fs::read_link(entry).unwrap_or_default();
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

/// Appends `text` to `path` in one `write`, creating the file and its directory. The file is
/// opened without waiting ([`no_wait`]: a FIFO with no reader is an error, not a wait) and
/// must be a regular file ([`regular`]).
pub fn append(path: &Path, text: &str) -> Result<(), Error> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| storage(dir, "create", &e))?;
    }
    let mut f = no_wait(OpenOptions::new().create(true).append(true))
        .open(path)
        .map_err(|e| storage(path, "open", &e))?;
    regular(&f, path, "append to")?;
    f.write_all(text.as_bytes())
        .map_err(|e| storage(path, "append to", &e))
}

/// Writes `text` to `path` atomically: a temporary file beside it, flushed, then renamed.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), Error> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| storage(dir, "create", &e))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        storage(path, "write", &e)
    })
}

/// An exclusive (or shared) lock on `<path>.lock`, held until dropped.
pub struct FileLock(File);

impl FileLock {
    /// Waits for the lock on `path`'s lock file.
    pub fn acquire(path: &Path, exclusive: bool) -> Result<FileLock, Error> {
        let mut name = path.as_os_str().to_owned();
        name.push(".lock");
        let lock_path = PathBuf::from(name);
        if let Some(dir) = lock_path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| storage(dir, "create", &e))?;
        }
        let f = no_wait(OpenOptions::new().create(true).truncate(false).write(true))
            .open(&lock_path)
            .map_err(|e| storage(&lock_path, "open", &e))?;
        regular(&f, &lock_path, "open")?;
        let locked = if exclusive { f.lock() } else { f.lock_shared() };
        locked.map_err(|e| storage(&lock_path, "lock", &e))?;
        Ok(FileLock(f))
    }
}

impl Drop for FileLock {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    // Symbolic links are made with the Unix call.
    #[cfg(unix)]
    #[test]
    fn missing_files_are_none_and_dangling_links_are_errors() {
        use super::read_optional;
        let dir = std::env::temp_dir().join(format!("toolgate-files-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(read_optional(&dir.join("policy.json")).unwrap(), None);
        assert_eq!(read_optional(&dir.join("no/policy.json")).unwrap(), None);
        let gone = dir.join("gone.json");
        std::os::unix::fs::symlink(&gone, dir.join("policy.json")).unwrap();
        let e = read_optional(&dir.join("policy.json")).unwrap_err();
        assert_eq!(e.code(), "STORAGE");
        let text = e.to_string();
        assert!(
            text.contains("policy.json") && text.contains("gone.json"),
            "{text}"
        );
        assert!(e.hint().unwrap().contains("policy.json"), "{e:?}");
        // A link on the way to the file counts too.
        std::os::unix::fs::symlink(dir.join("nowhere"), dir.join("conf")).unwrap();
        let e = read_optional(&dir.join("conf/policy.json")).unwrap_err();
        assert!(e.to_string().contains("nowhere"), "{e}");
        // A link to a file that exists reads it.
        std::fs::write(&gone, "{}").unwrap();
        assert_eq!(
            read_optional(&dir.join("policy.json")).unwrap().as_deref(),
            Some("{}")
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    // FIFOs are made with the Unix command.
    #[cfg(unix)]
    #[test]
    fn files_that_are_not_regular_or_too_large_are_errors_at_once() {
        use super::{append, read_optional, MAX_FILE_BYTES};
        let dir = std::env::temp_dir().join(format!("toolgate-files-nb-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("fifo.json");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success());
        std::os::unix::fs::symlink("/dev/null", dir.join("null.json")).unwrap();
        for name in ["fifo.json", "null.json"] {
            let e = read_optional(&dir.join(name)).unwrap_err();
            assert!(e.message().contains("not a regular file"), "{name}: {e}");
            assert!(e.hint().unwrap().contains(name), "{e:?}");
        }
        // Nobody reads the FIFO: appending to it fails at once, as does appending to a device.
        let e = append(&fifo, "line\n").unwrap_err();
        assert_eq!(e.code(), "STORAGE");
        let e = append(&dir.join("null.json"), "line\n").unwrap_err();
        assert!(e.message().contains("not a regular file"), "{e}");
        let big = dir.join("big.json");
        let size = usize::try_from(MAX_FILE_BYTES).unwrap() + 1;
        std::fs::write(&big, vec![b' '; size]).unwrap();
        let e = read_optional(&big).unwrap_err();
        assert!(e.message().contains("larger than"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
