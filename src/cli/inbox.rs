//! Asking the approval inbox: when the policy says ask, the hook hands the call to the inbox
//! (`npx toolgate inbox`, a page in the browser listing every agent's pending approvals) and
//! waits for a person's answer instead of the agent's own prompt.
//!
//! The channel is a Unix domain socket only the same user can open: `$TOOLGATE_INBOX_SOCKET`,
//! else `$XDG_RUNTIME_DIR/toolgate/inbox.sock`, else `toolgate-<uid>/inbox.sock` in the temp
//! directory. Its directory must belong to this user and be closed to everyone else (0700),
//! or the hook does not use it. One JSON line each way:
//!
//! ```text
//! hook  -> inbox  {"protocol":"toolgate-inbox/1","type":"ask","agent":"claude",...}
//! inbox -> hook   {"protocol":"toolgate-inbox/1","type":"answer","answer":{"kind":"allow","scope":"once"}}
//! ```
//! The JavaScript side of the same protocol is `pkg-template/bin/inbox-protocol.mjs`;
//! `tests/inbox/protocol.test.mjs` checks the two against each other.
//!
//! Whatever goes wrong (no inbox, a socket that is not private, no answer before the hook's
//! deadline, the inbox stopping, a reply that does not parse or answers with something that
//! was not offered) the call goes to the agent's own prompt with the reason: never an allow.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::os::unix::fs::{FileTypeExt as _, MetadataExt as _};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use toolgate::agents::{Agent, HookAnswer, HookCall, HookEvent, Outcome, Verdict};
use toolgate::trust::{check_grant_rule, NewGrant};
use toolgate::{Decision, Effect, Evaluate as _, Policy, TrustOverlay};

/// The protocol's name and version, sent in every message both ways.
pub const PROTOCOL: &str = "toolgate-inbox/1";

/// The largest reply read from the inbox.
const MAX_REPLY: u64 = 1024 * 1024;

/// What the hook sends: one pending call, with everything the page shows about it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AskMessage<'a> {
    /// Always [`PROTOCOL`].
    pub protocol: &'static str,
    /// Always `ask`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The agent's name (`claude`, `copilot`, ...).
    pub agent: &'static str,
    /// The hook event (`PreToolUse`).
    pub event: &'static str,
    /// The project directory.
    pub project: &'a str,
    /// The agent's session id.
    pub session: &'a str,
    /// The agent's working directory.
    pub cwd: Option<&'a str>,
    /// The tool as the agent named it.
    pub tool: &'a str,
    /// The call's arguments.
    pub input: &'a Value,
    /// Why the policy asks.
    pub reason: &'a str,
    /// The policy's decision.
    pub decision: &'a Decision,
    /// The allow rules a session or always answer saves.
    pub rules: &'a [String],
    /// The answers the page may offer (the approval card's names).
    pub answers: &'a [&'static str],
    /// Whether the arguments may be edited before approving.
    pub editable: bool,
    /// Unix milliseconds: the hook stops waiting then.
    pub deadline: u64,
    /// The hook's process id.
    pub pid: u32,
}

/// What the inbox sends back.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplyMessage {
    /// Must be [`PROTOCOL`].
    pub protocol: String,
    /// Must be `answer`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The person's answer.
    pub answer: InboxAnswer,
}

/// A person's answer in the inbox.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum InboxAnswer {
    /// Run the call; `scope` says what is remembered.
    Allow {
        /// `once`, `session`, `always` or `toolSession`.
        scope: AllowScope,
        /// Arguments the person edited (an object), to run instead.
        #[serde(rename = "editedInput", default)]
        edited_input: Option<Value>,
    },
    /// Block the call; the message goes to the model.
    Deny {
        /// The person's message to the model.
        #[serde(default)]
        message: Option<String>,
    },
    /// Leave it to the agent's own prompt (the inbox is shutting down, or the person chose so).
    Ask {
        /// Why.
        reason: String,
    },
}

/// How long an allow from the inbox holds.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub enum AllowScope {
    /// This call only.
    Once,
    /// The call's rules, for this session.
    Session,
    /// The call's rules, for every session in the project.
    Always,
    /// The whole tool, for this session.
    ToolSession,
}

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
pub fn ask(
    socket: &Path,
    message: &AskMessage<'_>,
    until: Instant,
) -> Result<InboxAnswer, NoAnswer> {
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

/// Reads the inbox's reply line.
pub fn parse_reply(line: &str) -> Result<InboxAnswer, String> {
    let reply: ReplyMessage = serde_json::from_str(line.trim_end())
        .map_err(|e| format!("the toolgate inbox's reply does not parse ({e})"))?;
    if reply.protocol != PROTOCOL || reply.kind != "answer" {
        return Err(format!(
            "the toolgate inbox speaks `{}` `{}`, expected `{PROTOCOL}` `answer`",
            reply.protocol, reply.kind
        ));
    }
    Ok(reply.answer)
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

/// Hands an ask to the inbox, if one is running, and turns its answer into the verdict.
/// Returns edited arguments the agent must run instead, and lines for `--explain`.
pub fn consult(
    call: &HookCall,
    outcome: &mut Outcome,
    cx: &Context<'_>,
    explain: &mut Vec<String>,
) -> Option<Value> {
    let Verdict::Ask(reason) = &outcome.verdict else {
        return None;
    };
    // Codex ignores a pre-tool allow or ask: its own approval flow decides.
    if call.agent == Agent::Codex || call.event != HookEvent::PreToolUse {
        return None;
    }
    let (Some(decision), Some(request)) = (&outcome.decision, call.requests.first()) else {
        return None;
    };
    let socket = socket_path()?;
    let rules = toolgate::broker::remember_rules(request, decision);
    let grantable = |r: &str| check_grant_rule(r, cx.policy).is_ok();
    let mut answers = vec!["allowOnce", "deny"];
    if decision.trustable && call.requests.len() == 1 {
        if !rules.is_empty() && rules.iter().all(|r| grantable(r)) {
            answers.extend(["allowSession", "allowAlways"]);
        }
        if grantable(&call.tool) {
            answers.push("allowToolForSession");
        }
    }
    let editable = call.agent == Agent::Claude && call.requests.len() == 1;
    let message = AskMessage {
        protocol: PROTOCOL,
        kind: "ask",
        agent: call.agent.name(),
        event: call.event.as_str(),
        project: cx.project,
        session: &call.session_id,
        cwd: call.cwd.as_deref(),
        tool: &call.tool,
        input: &request.input,
        reason,
        decision,
        rules: &rules,
        answers: &answers,
        editable,
        deadline: cx.until_ms,
        pid: std::process::id(),
    };
    let answer = ask(&socket, &message, cx.until);
    let reason = reason.clone();
    let (verdict, edited) = match answer {
        Err(NoAnswer(None)) => return None,
        Err(NoAnswer(Some(why))) => (Verdict::Ask(format!("{reason} ({why}; asking here)")), None),
        Ok(a) => apply(call, &a, &answers, &rules, editable, cx, &reason),
    };
    explain.push(format!("inbox {}: {verdict:?}", socket.display()));
    outcome.verdict = verdict;
    edited
}

fn apply(
    call: &HookCall,
    answer: &InboxAnswer,
    offered: &[&str],
    rules: &[String],
    editable: bool,
    cx: &Context<'_>,
    reason: &str,
) -> (Verdict, Option<Value>) {
    let refuse = |what: &str| {
        Verdict::Ask(format!(
            "{reason} (the toolgate inbox answered {what}, which was not offered; asking here)"
        ))
    };
    match answer {
        InboxAnswer::Ask { reason: why } => (
            Verdict::Ask(format!("{reason} (the toolgate inbox: {why}; asking here)")),
            None,
        ),
        InboxAnswer::Deny { message } => {
            let said = message
                .as_deref()
                .map(str::trim)
                .filter(|m| !m.is_empty())
                .map(|m| format!(" with this message: {m}"))
                .unwrap_or_default();
            (
                Verdict::Deny(format!(
                    "Permission denied: the user denied this call in the toolgate inbox{said}. \
                     Do not retry the same call; choose another approach or ask the user how \
                     to proceed."
                )),
                None,
            )
        }
        InboxAnswer::Allow {
            scope,
            edited_input: Some(input),
        } => {
            if !editable || *scope != AllowScope::Once || !input.is_object() {
                return (refuse("edited arguments"), None);
            }
            let Some(first) = call.requests.first() else {
                return (refuse("edited arguments"), None);
            };
            let request = toolgate::Request {
                input: input.clone(),
                ..first.clone()
            };
            let decision = cx.policy.evaluate_with(&request, cx.overlay);
            if decision.effect == Effect::Deny {
                let text = decision.model_message().unwrap_or_default();
                return (
                    Verdict::Deny(format!("the edited call is denied: {text}")),
                    None,
                );
            }
            (
                Verdict::Allow(
                    "toolgate: the user approved edited arguments in the toolgate inbox".into(),
                ),
                Some(input.clone()),
            )
        }
        InboxAnswer::Allow {
            scope,
            edited_input: None,
        } => {
            let (name, saved): (&str, Vec<NewGrant>) = match scope {
                AllowScope::Once => ("allowOnce", Vec::new()),
                AllowScope::Session => (
                    "allowSession",
                    rules
                        .iter()
                        .map(|r| NewGrant::session(r, &call.session_id))
                        .collect(),
                ),
                AllowScope::Always => (
                    "allowAlways",
                    rules.iter().map(|r| NewGrant::always(r)).collect(),
                ),
                AllowScope::ToolSession => (
                    "allowToolForSession",
                    vec![NewGrant::session(&call.tool, &call.session_id)],
                ),
            };
            if !offered.contains(&name) {
                return (refuse(name), None);
            }
            let mut note = String::new();
            for grant in saved {
                let grant = grant.for_agent(Some(call.agent.name()));
                if let Err(e) =
                    super::trust_file::add(cx.trust_path, cx.project, grant, cx.policy, cx.now_ms)
                {
                    note = format!(" (the grant was not saved: {e})");
                }
            }
            (
                Verdict::Allow(format!(
                    "toolgate: the user approved this call in the toolgate inbox ({name}){note}"
                )),
                None,
            )
        }
    }
}

/// Puts edited arguments into Claude Code's pre-tool allow (`updatedInput`).
pub fn with_updated_input(answer: &mut HookAnswer, input: Value) {
    let Ok(mut out) = serde_json::from_str::<Value>(&answer.stdout) else {
        return;
    };
    if let Some(hso) = out
        .get_mut("hookSpecificOutput")
        .and_then(Value::as_object_mut)
    {
        hso.insert("updatedInput".into(), input);
        if let Ok(text) = serde_json::to_string(&out) {
            answer.stdout = text;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn replies_parse() {
        let a = parse_reply(
            r#"{"protocol":"toolgate-inbox/1","type":"answer","answer":{"kind":"allow","scope":"session"}}"#,
        );
        assert_eq!(
            a,
            Ok(InboxAnswer::Allow {
                scope: AllowScope::Session,
                edited_input: None
            })
        );
        let d = parse_reply(
            r#"{"protocol":"toolgate-inbox/1","type":"answer","answer":{"kind":"deny","message":"use make"}}"#,
        );
        assert_eq!(
            d,
            Ok(InboxAnswer::Deny {
                message: Some("use make".into())
            })
        );
    }

    #[test]
    fn bad_replies_are_errors() {
        for bad in [
            "",
            "{}",
            r#"{"protocol":"toolgate-inbox/2","type":"answer","answer":{"kind":"deny"}}"#,
            r#"{"protocol":"toolgate-inbox/1","type":"ask","answer":{"kind":"deny"}}"#,
            r#"{"protocol":"toolgate-inbox/1","type":"answer","answer":{"kind":"yes"}}"#,
            r#"{"protocol":"toolgate-inbox/1","type":"answer","answer":{"kind":"allow","scope":"forever"}}"#,
            r#"{"protocol":"toolgate-inbox/1","type":"answer","answer":{"kind":"allow"}}"#,
            r#"{"protocol":"toolgate-inbox/1","type":"answer","answer":{"kind":"deny"},"x":1}"#,
        ] {
            assert!(parse_reply(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn updated_input_goes_into_the_allow() {
        let mut a = HookAnswer {
            stdout: r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#.into(),
            ..HookAnswer::default()
        };
        with_updated_input(&mut a, json!({"command": "npm test"}));
        let v: Value = serde_json::from_str(&a.stdout).unwrap_or_default();
        assert_eq!(
            v["hookSpecificOutput"]["updatedInput"]["command"],
            "npm test"
        );
    }

    #[test]
    fn a_missing_socket_means_no_inbox() {
        let msg_input = json!({});
        let decision = Policy::from_json("{}")
            .map(|p| p.evaluate(&toolgate::Request::default()))
            .unwrap_or_else(|e| unreachable!("{e}"));
        let m = AskMessage {
            protocol: PROTOCOL,
            kind: "ask",
            agent: "claude",
            event: "PreToolUse",
            project: "/p",
            session: "s",
            cwd: None,
            tool: "Bash",
            input: &msg_input,
            reason: "r",
            decision: &decision,
            rules: &[],
            answers: &["allowOnce", "deny"],
            editable: false,
            deadline: 0,
            pid: 1,
        };
        let r = ask(
            Path::new("/nonexistent/toolgate/inbox.sock"),
            &m,
            Instant::now(),
        );
        assert_eq!(r.err(), Some(NoAnswer(None)));
    }
}
