//! Asking the approval inbox: when the policy says ask, the hook hands the call to the inbox
//! (`npx toolgate inbox`, a page in the browser listing every agent's pending approvals) and
//! waits for a person's answer instead of the agent's own prompt. The messages and what an
//! answer means are [`toolgate::agents::inbox`]; this module is the socket and the trust file.
//!
//! The channel is a Unix domain socket only the same user can open: `$TOOLGATE_INBOX_SOCKET`,
//! else `$XDG_RUNTIME_DIR/toolgate/inbox.sock`, else `toolgate-<uid>/inbox.sock` in the temp
//! directory. Its directory must belong to this user and be closed to everyone else (0700),
//! or the hook does not use it. Whatever goes wrong (a socket that is not private, no answer
//! before the hook's deadline, the inbox stopping, a reply that does not parse or answers with
//! something that was not offered) the call goes to the agent's own prompt with the reason.

#[cfg(unix)]
use std::io::{BufRead as _, BufReader, Read as _, Write as _};
#[cfg(unix)]
use std::os::unix::fs::{FileTypeExt as _, MetadataExt as _};
#[cfg(unix)]
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
#[cfg(unix)]
use std::time::Duration;
use std::time::Instant;

use serde_json::Value;
#[cfg(unix)]
use toolgate::agents::inbox::parse_reply;
use toolgate::agents::inbox::{apply, ask_message, AskMessage, InboxAnswer};
use toolgate::agents::{HookCall, Outcome};
use toolgate::{Policy, TrustOverlay};

/// The largest reply read from the inbox.
#[cfg(unix)]
const MAX_REPLY: u64 = 1024 * 1024;

/// The inbox's socket path, or `None` when the inbox is switched off (`TOOLGATE_INBOX=off`).
pub fn socket_path() -> Option<PathBuf> {
    if std::env::var_os("TOOLGATE_INBOX").is_some_and(|v| v == "off") {
        return None;
    }
    if let Some(p) = std::env::var_os("TOOLGATE_INBOX_SOCKET") {
        return Some(PathBuf::from(p)).filter(|p| p.is_absolute());
    }
    if let Some(d) = std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from) {
        if d.is_absolute() {
            return Some(d.join("toolgate").join("inbox.sock"));
        }
    }
    let uid = current_uid()?;
    Some(
        std::env::temp_dir()
            .join(format!("toolgate-{uid}"))
            .join("inbox.sock"),
    )
}

/// This process's user id: the owner of `/proc/self`, else of the home directory.
#[cfg(unix)]
fn current_uid() -> Option<u32> {
    match std::fs::metadata("/proc/self") {
        Ok(m) => Some(m.uid()),
        Err(_) => std::fs::metadata(std::env::var_os("HOME")?)
            .ok()
            .map(|m| m.uid()),
    }
}

/// Checks that the socket and its directory belong to this user and the directory is closed
/// to everyone else, so no other user can stand in for the inbox.
#[cfg(unix)]
fn check_private(socket: &Path) -> Result<(), String> {
    let uid = current_uid().ok_or("cannot tell this process's user")?;
    let meta = std::fs::symlink_metadata(socket).map_err(|e| e.to_string())?;
    if !meta.file_type().is_socket() || meta.uid() != uid {
        return Err(format!(
            "`{}` is not a socket of this user",
            socket.display()
        ));
    }
    let dir = socket.parent().ok_or("the socket has no directory")?;
    let dmeta = std::fs::symlink_metadata(dir).map_err(|e| e.to_string())?;
    if !dmeta.is_dir() || dmeta.uid() != uid || dmeta.mode() & 0o077 != 0 {
        return Err(format!(
            "`{}` must be a directory of this user with mode 0700",
            dir.display()
        ));
    }
    Ok(())
}

/// Why the inbox did not answer; `None` when no inbox is running (nothing to say).
#[derive(Debug, PartialEq, Eq)]
pub struct NoAnswer(pub Option<String>);

/// Sends `message` to the inbox at `socket` and waits until `until` for its reply.
#[cfg(unix)]
pub fn ask(socket: &Path, message: &AskMessage, until: Instant) -> Result<InboxAnswer, NoAnswer> {
    if !socket.exists() {
        return Err(NoAnswer(None));
    }
    let said = |what: String| NoAnswer(Some(what));
    check_private(socket).map_err(said)?;
    let mut stream = UnixStream::connect(socket)
        .map_err(|e| said(format!("the toolgate inbox is not running ({e})")))?;
    let left = |until: Instant| {
        until
            .checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
            .unwrap_or(Duration::from_millis(1))
    };
    let mut line = serde_json::to_string(message).map_err(|e| said(e.to_string()))?;
    line.push('\n');
    let _ = stream.set_write_timeout(Some(left(until)));
    stream
        .write_all(line.as_bytes())
        .map_err(|e| said(format!("the toolgate inbox did not take the request ({e})")))?;
    let mut reader = BufReader::new(
        stream
            .try_clone()
            .map_err(|e| said(e.to_string()))?
            .take(MAX_REPLY),
    );
    let mut reply = String::new();
    loop {
        if Instant::now() >= until {
            return Err(said("no answer in the toolgate inbox in time".into()));
        }
        let _ = stream.set_read_timeout(Some(left(until)));
        match reader.read_line(&mut reply) {
            Ok(0) => {
                return Err(said(
                    "the toolgate inbox stopped before anyone answered".into(),
                ))
            }
            Ok(_) if reply.ends_with('\n') => break,
            Ok(_) => {
                if reply.len() as u64 >= MAX_REPLY {
                    return Err(said("the toolgate inbox's reply is too long".into()));
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock
                        | std::io::ErrorKind::TimedOut
                        | std::io::ErrorKind::Interrupted
                ) => {}
            Err(e) => return Err(said(format!("the toolgate inbox failed ({e})"))),
        }
    }
    parse_reply(&reply).map_err(said)
}

/// Where there are no Unix domain sockets (Windows, wasm) there is no inbox channel yet: the
/// call goes to the agent's own prompt.
#[cfg(not(unix))]
fn current_uid() -> Option<u32> {
    None
}

/// Where there are no Unix domain sockets there is no inbox channel yet (a named pipe on
/// Windows is not built): the call goes to the agent's own prompt, saying so when a socket
/// path was named.
#[cfg(not(unix))]
pub fn ask(socket: &Path, _message: &AskMessage, _until: Instant) -> Result<InboxAnswer, NoAnswer> {
    if !socket.exists() {
        return Err(NoAnswer(None));
    }
    Err(NoAnswer(Some(
        "the toolgate inbox can only be reached over a Unix domain socket on this platform"
            .to_owned(),
    )))
}

/// What the trust file and the policy are, for saving grants and checking edited calls.
pub struct Context<'a> {
    /// The compiled policy.
    pub policy: &'a Policy,
    /// The grants in force.
    pub overlay: &'a TrustOverlay,
    /// The project directory.
    pub project: &'a str,
    /// The trust file.
    pub trust_path: &'a Path,
    /// Unix milliseconds now.
    pub now_ms: u64,
    /// When the hook must stop waiting.
    pub until: Instant,
    /// The same, in Unix milliseconds.
    pub until_ms: u64,
}

/// Where `dir` leads once its symbolic links are resolved, when that is another path.
fn resolved_elsewhere(dir: &str) -> Option<String> {
    let real = std::fs::canonicalize(dir).ok()?;
    let real = real.to_str()?.to_owned();
    (real != dir.trim_end_matches('/')).then_some(real)
}

/// Hands an ask to the inbox, if one is running, and turns its answer into the verdict,
/// saving the grants a "remember" answer gives. Returns, when an inbox was asked, edited
/// arguments the agent must run instead and the inbox's part for the audit record, and adds a
/// line for `--explain`.
pub fn consult(
    call: &HookCall,
    outcome: &mut Outcome,
    cx: &Context<'_>,
    explain: &mut Vec<String>,
) -> Option<Consulted> {
    let socket = socket_path()?;
    let mut message = ask_message(call, outcome, cx.policy, cx.project, true, cx.until_ms)?;
    message.pid = std::process::id();
    message.cwd_resolved = message.cwd.as_deref().and_then(resolved_elsewhere);
    let reply = match ask(&socket, &message, cx.until) {
        Err(NoAnswer(None)) => return None,
        Err(NoAnswer(Some(why))) => Err(why),
        Ok(a) => Ok(a),
    };
    let mut applied = apply(call, &message, reply.clone(), cx.policy, cx.overlay);
    let account = super::audit_file::inbox_account(&reply, &applied);
    for grant in applied.grants {
        if let Err(e) =
            super::trust_file::add(cx.trust_path, cx.project, grant, cx.policy, cx.now_ms)
        {
            if let toolgate::agents::Verdict::Allow(t) = &mut applied.verdict {
                t.push_str(&format!(" (the grant was not saved: {e})"));
            }
        }
    }
    explain.push(format!("inbox {}: {:?}", socket.display(), applied.verdict));
    outcome.verdict = applied.verdict;
    Some(Consulted {
        edited: applied.edited,
        account,
    })
}

/// What asking the inbox came to, besides the verdict.
pub struct Consulted {
    /// Arguments a person edited, to run instead of the agent's.
    pub edited: Option<Value>,
    /// The inbox's part, for the audit record ([`super::audit_file::inbox_account`]).
    pub account: Value,
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_missing_socket_means_no_inbox() {
        let policy = Policy::from_json("{}").unwrap_or_else(|e| unreachable!("{e}"));
        let payload = r#"{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"npm publish"}}"#;
        let call =
            toolgate::agents::parse_call(None, payload).unwrap_or_else(|e| unreachable!("{e}"));
        let outcome = toolgate::agents::decide(&call, &policy, &TrustOverlay::default());
        let m =
            ask_message(&call, &outcome, &policy, "/p", true, 0).unwrap_or_else(|| unreachable!());
        let r = ask(
            Path::new("/nonexistent/toolgate/inbox.sock"),
            &m,
            Instant::now(),
        );
        assert_eq!(r.err(), Some(NoAnswer(None)));
    }
}
