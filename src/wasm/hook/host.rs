//! The [`HookHost`] a hook run reads through, held for the length of one `runHook` call.

use std::cell::RefCell;
use std::path::{Path, PathBuf};

use wasm_bindgen::prelude::*;

use crate::path::links::Entry;
use crate::{Error, ErrorKind};

#[wasm_bindgen]
extern "C" {
    /// The file system and environment of the process running the hook (the npm bin's
    /// `node:fs` and `process.env`).
    #[wasm_bindgen(typescript_type = "HookHost")]
    pub type HookHost;

    #[wasm_bindgen(method, catch)]
    fn read(this: &HookHost, path: &str, max: f64) -> Result<Option<String>, JsValue>;

    #[wasm_bindgen(method, catch)]
    fn env(this: &HookHost, name: &str) -> Result<Option<String>, JsValue>;

    #[wasm_bindgen(method, catch, js_name = isDir)]
    fn is_dir(this: &HookHost, path: &str) -> Result<bool, JsValue>;

    #[wasm_bindgen(method, catch)]
    fn exists(this: &HookHost, path: &str) -> Result<bool, JsValue>;

    #[wasm_bindgen(method, catch)]
    fn append(this: &HookHost, path: &str, text: &str) -> Result<(), JsValue>;

    #[wasm_bindgen(method, catch)]
    fn now(this: &HookHost) -> Result<f64, JsValue>;

    #[wasm_bindgen(method, catch)]
    fn clock(this: &HookHost) -> Result<f64, JsValue>;

    #[wasm_bindgen(method, catch, js_name = realpath)]
    fn real_path(this: &HookHost, path: &str) -> Result<Option<String>, JsValue>;

    #[wasm_bindgen(method, catch, js_name = entry)]
    fn lstat(this: &HookHost, path: &str) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(method, catch, js_name = listDir)]
    fn list_dir(this: &HookHost, path: &str) -> Result<Option<Vec<String>>, JsValue>;

    #[wasm_bindgen(method, catch)]
    fn platform(this: &HookHost) -> Result<String, JsValue>;

    #[wasm_bindgen(method, catch)]
    fn cwd(this: &HookHost) -> Result<String, JsValue>;

    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(text: &str);
}

thread_local! {
    static HOST: RefCell<Option<HookHost>> = const { RefCell::new(None) };
}

/// Holds `host` for the calls below.
pub(super) fn install(host: HookHost) {
    HOST.with(|h| *h.borrow_mut() = Some(host));
}

/// Drops the host.
pub(super) fn remove() {
    HOST.with(|h| *h.borrow_mut() = None);
}

/// Runs `f` on the host; `None` when there is none (a call outside `runHook`).
fn with<T>(f: impl FnOnce(&HookHost) -> T) -> Option<T> {
    HOST.with(|h| h.borrow().as_ref().map(f))
}

/// The message of a value JS threw.
fn message(e: &JsValue) -> String {
    js_sys::Reflect::get(e, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "unknown error".to_owned())
}

/// An environment variable. A host that fails to answer counts as "unset".
pub(super) fn env(name: &str) -> Option<String> {
    with(|h| h.env(name).ok().flatten()).flatten()
}

/// Why the host could not read a file.
pub(super) enum ReadFailure {
    /// Not a regular file (a FIFO, a device, a socket): the host did not read it.
    NotRegular,
    /// Larger than the most the host was asked to read.
    TooLarge,
    /// Any other failure, with the OS error's text.
    Other(String),
}

/// A file's text, read only when it is a regular file of at most `max` bytes; `Ok(None)`
/// when it does not exist.
pub(super) fn read(path: &str, max: u64) -> Result<Option<String>, ReadFailure> {
    let failure = |e: &JsValue| match code(e).as_deref() {
        Some("NOT_REGULAR") => ReadFailure::NotRegular,
        Some("TOO_LARGE") => ReadFailure::TooLarge,
        _ => ReadFailure::Other(message(e)),
    };
    // Exact: a cap in bytes is far below 2^53.
    #[allow(clippy::cast_precision_loss)]
    let max = max as f64;
    with(|h| h.read(path, max).map_err(|e| failure(&e)))
        .unwrap_or_else(|| Err(ReadFailure::Other("no file system to read from".to_owned())))
}

/// The `code` a value JS threw carries (`ENOENT`, `NOT_REGULAR`).
fn code(e: &JsValue) -> Option<String> {
    js_sys::Reflect::get(e, &"code".into())
        .ok()
        .and_then(|c| c.as_string())
}

/// Whether `path` is a directory (false when the host cannot tell).
pub(super) fn is_dir(path: &Path) -> bool {
    with(|h| h.is_dir(&path.to_string_lossy()).unwrap_or(false)).unwrap_or(false)
}

/// What is at `path`, its last name not followed (`lstat`): the host answers a link's
/// target, `true` for anything else, `null` for nothing, and throws when it cannot tell (a
/// link whose target is not UTF-8 among them).
pub(super) fn entry(path: &str) -> Entry {
    let Some(Ok(value)) = with(|h| h.lstat(path)) else {
        return Entry::Unknown;
    };
    match value.as_string() {
        Some(target) => Entry::Link(target),
        None if value.is_null() || value.is_undefined() => Entry::Missing,
        None if value.as_bool() == Some(true) => Entry::Other,
        None => Entry::Unknown,
    }
}

/// Where `path` leads for the agent's shell, each link followed one hop at a time
/// ([`crate::path::links::real_path`]) over the host's [`entry`].
pub(super) fn real_path(path: &str) -> Option<String> {
    crate::path::links::real_path(path, &entry)
}

/// Whether `path` exists (false when the host cannot tell).
pub(super) fn exists(path: &Path) -> bool {
    with(|h| h.exists(&path.to_string_lossy()).unwrap_or(false)).unwrap_or(false)
}

/// The host's clock in Unix milliseconds (0, the epoch, when it cannot tell).
pub(super) fn now_ms() -> u64 {
    super::super::ms(with(|h| h.now().unwrap_or(0.0)).unwrap_or(0.0))
}

/// A monotonic clock in milliseconds (0 when the host cannot tell), for timings only.
pub(super) fn clock_ms() -> f64 {
    with(|h| h.clock().unwrap_or(0.0)).unwrap_or(0.0)
}

/// The operating system the hook runs on, named as Rust's `std::env::consts::OS` names it
/// (`linux`, `macos`, `windows`), from Node's `process.platform`; `linux` when the host
/// cannot tell.
pub(super) fn os() -> String {
    let platform = with(|h| h.platform().ok()).flatten().unwrap_or_default();
    match platform.as_str() {
        "darwin" => "macos".to_owned(),
        "win32" => "windows".to_owned(),
        "" => "linux".to_owned(),
        other => other.to_owned(),
    }
}

/// The hook process's working directory; `None` when the host cannot tell, and when its
/// name holds U+FFFD: Node decodes a name that is not UTF-8 with U+FFFD in place of the
/// bytes, which names a directory that does not exist (and holds no policy).
pub(super) fn current_dir() -> Option<PathBuf> {
    with(|h| h.cwd().ok())
        .flatten()
        .filter(|dir| !dir.contains(char::REPLACEMENT_CHARACTER))
        .map(PathBuf::from)
}

/// The canonical path of `path` (`realpath(3)`); `None` when it cannot be resolved.
pub(super) fn realpath(path: &str) -> Option<String> {
    with(|h| h.real_path(path).ok().flatten()).flatten()
}

/// The names in the directory `path` (empty when it does not exist or is not a directory);
/// `None` when it cannot be listed, or the host cannot list directories.
pub(super) fn list_dir(path: &str) -> Option<Vec<String>> {
    with(|h| h.list_dir(path).ok().flatten()).flatten()
}

/// Appends `record` as one JSON line to `path`. The error reads as the native hook's: the
/// host says which step failed (`create`, `open`, `append to`) and on which path.
pub(super) fn append_line(path: &Path, record: &serde_json::Value) -> Result<(), Error> {
    let mut line = serde_json::to_string(record).unwrap_or_default();
    line.push('\n');
    append(path, &line)
}

/// Appends `text` to `path`, creating the file and its directory (with an empty `text`,
/// creates them only, as opening a lock file does). The host opens it without waiting and
/// refuses a file that is not a regular one (a FIFO, a device), as the native hook does.
pub(super) fn append(path: &Path, text: &str) -> Result<(), Error> {
    let failed = |e: &JsValue| {
        let field = |k: &str| {
            js_sys::Reflect::get(e, &k.into())
                .ok()
                .and_then(|v| v.as_string())
        };
        let what = field("what").unwrap_or_else(|| "append to".to_owned());
        let at = field("path").unwrap_or_else(|| path.to_string_lossy().into_owned());
        if code(e).as_deref() == Some("NOT_REGULAR") {
            return Error::not_a_regular_file(Path::new(&at), &what);
        }
        Error::new(
            ErrorKind::Storage,
            format!("cannot {what} `{at}`: {}", message(e)),
        )
        .with_hint("check the file's permissions and the disk")
    };
    with(|h| {
        h.append(&path.to_string_lossy(), text)
            .map_err(|e| failed(&e))
    })
    .unwrap_or_else(|| Err(failed(&JsValue::from_str("no file system to write to"))))
}

/// Writes a warning line to stderr (the native hook's `eprintln!`).
pub(super) fn warn(text: &str) {
    console_error(text);
}
