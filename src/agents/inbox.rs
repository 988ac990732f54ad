//! The approval inbox's protocol and what an answer means, shared by the native hook
//! (`toolgate hook`, which talks to the inbox over a Unix socket) and the npm package's hook.
//! One JSON line each way:
//!
//! ```text
//! hook  -> inbox  {"protocol":"toolgate-inbox/1","type":"ask","agent":"claude",...}
//! inbox -> hook   {"protocol":"toolgate-inbox/1","type":"answer","answer":{"kind":"allow","scope":"once"}}
//! ```
//! The JavaScript side of the same protocol is `pkg-template/bin/inbox-protocol.mjs`;
//! `tests/inbox/protocol.test.mjs` checks the two against each other. Nothing an inbox
//! sends can turn into an allow it was not offered: a bad reply is an error, and the caller
//! falls back to the agent's own prompt.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Agent, HookAnswer, HookCall, HookEvent, Outcome, Verdict};
use crate::decision::{Decision, Effect, Evaluate, TrustOverlay};
use crate::policy::Policy;
use crate::trust::{check_grant_rule, NewGrant};

/// The protocol's name and version, sent in every message both ways.
pub const PROTOCOL: &str = "toolgate-inbox/1";

/// What the hook sends: one pending call, with everything the page shows about it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AskMessage {
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
    pub project: String,
    /// The agent's session id.
    pub session: String,
    /// The directory the call runs in: the one the call names (Gemini CLI's `dir_path`,
    /// Codex's `workdir`) when it names one, else the agent's working directory.
    pub cwd: Option<String>,
    /// Where [`AskMessage::cwd`] leads once the host resolved its symbolic links, when
    /// that is elsewhere (`/p/vendor` may lead to the home directory); `None` when it was
    /// not resolved or leads to itself.
    pub cwd_resolved: Option<String>,
    /// The tool as the agent named it.
    pub tool: String,
    /// The name people see (the approval card's title).
    pub title: String,
    /// The call in words, as the approval card says it: `Execute command: git push`,
    /// `Call query on MCP server db` (cut with `…` when long).
    pub description: String,
    /// What the call acts on, as the description names it.
    pub subject: String,
    /// The short label of the call in records: `Bash(git push)`.
    pub label: String,
    /// The call's arguments as the agent sent them, every key (a Gemini CLI `read_file`
    /// with both `file_path` and `absolute_path` shows both).
    pub input: Value,
    /// Why the policy asks.
    pub reason: String,
    /// The policy's decision.
    pub decision: Decision,
    /// The allow rules a session or always answer saves.
    pub rules: Vec<String>,
    /// The answers the page may offer (the approval card's names).
    pub answers: Vec<&'static str>,
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
#[derive(Clone, Debug, Deserialize, PartialEq)]
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
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
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

/// The message for the inbox when `outcome` asks and the inbox can take the call: a
/// pre-tool ask of an agent that honours a hook's allow (not Codex). `grants` says whether the
/// caller can save "remember" answers (the native hook can); `deadline` is in Unix ms.
///
/// ```
/// use toolgate::agents::{decide, inbox, parse_call};
/// use toolgate::{Policy, TrustOverlay};
/// let policy = Policy::from_json("{}").unwrap();
/// let payload = r#"{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse",
///     "tool_name":"Bash","tool_input":{"command":"npm publish"}}"#;
/// let call = parse_call(None, payload).unwrap();
/// let outcome = decide(&call, &policy, &TrustOverlay::default());
/// let m = inbox::ask_message(&call, &outcome, &policy, "/p", true, 0).unwrap();
/// assert_eq!(m.rules, vec!["Bash(npm publish)".to_owned()]);
/// assert!(m.answers.contains(&"allowSession"));
/// ```
pub fn ask_message(
    call: &HookCall,
    outcome: &Outcome,
    rules: &dyn Evaluate,
    project: &str,
    grants: bool,
    deadline: u64,
) -> Option<AskMessage> {
    let Verdict::Ask(reason) = &outcome.verdict else {
        return None;
    };
    if call.agent == Agent::Codex || call.event != HookEvent::PreToolUse {
        return None;
    }
    let (Some(decision), Some(request)) = (&outcome.decision, call.requests.first()) else {
        return None;
    };
    let remember = crate::broker::remember_rules(rules, request, decision);
    let text = crate::broker::call_text(rules, request);
    let grantable = |r: &str| check_grant_rule(r, rules).is_ok();
    let mut answers = vec!["allowOnce", "deny"];
    if grants && decision.trustable && call.requests.len() == 1 {
        if !remember.is_empty() && remember.iter().all(|r| grantable(r)) {
            answers.extend(["allowSession", "allowAlways"]);
        }
        if grantable(&call.tool) {
            answers.push("allowToolForSession");
        }
    }
    Some(AskMessage {
        protocol: PROTOCOL,
        kind: "ask",
        agent: call.agent.name(),
        event: call.event.as_str(),
        project: project.to_owned(),
        session: call.session_id.clone(),
        cwd: runs_in(call),
        cwd_resolved: None,
        tool: call.tool.clone(),
        title: text.title,
        description: text.description,
        subject: text.subject,
        label: text.label,
        input: call
            .tool_input
            .clone()
            .unwrap_or_else(|| request.input.clone()),
        reason: reason.clone(),
        decision: decision.clone(),
        rules: remember,
        answers,
        editable: call.agent == Agent::Claude && call.requests.len() == 1,
        deadline,
        pid: 0,
    })
}

/// The directory a call runs in: the first of its requests' directories that is not the
/// agent's working directory (the call named its own), else the agent's.
fn runs_in(call: &HookCall) -> Option<String> {
    let elsewhere = call
        .requests
        .iter()
        .filter_map(|r| r.cwd.as_ref())
        .find(|dir| Some(*dir) != call.cwd.as_ref());
    elsewhere.or(call.cwd.as_ref()).cloned()
}

/// What an inbox answer means for the call.
#[derive(Debug, PartialEq)]
pub struct Applied {
    /// What the agent is told.
    pub verdict: Verdict,
    /// Arguments to run instead (Claude Code's `updatedInput`).
    pub edited: Option<Value>,
    /// Grants the caller saves (only those the message offered).
    pub grants: Vec<NewGrant>,
}

/// Turns the inbox's answer (or why there is none) into the verdict. `reply` is `Err(why)`
/// when the inbox did not answer; then the agent's own prompt asks, with the reason.
pub fn apply(
    call: &HookCall,
    message: &AskMessage,
    reply: Result<InboxAnswer, String>,
    policy: &Policy,
    overlay: &TrustOverlay,
) -> Applied {
    let reason = &message.reason;
    let ask = |why: String| Applied {
        verdict: Verdict::Ask(format!("{reason} ({why}; asking here)")),
        edited: None,
        grants: Vec::new(),
    };
    let answer = match reply {
        Ok(a) => a,
        Err(why) => return ask(why),
    };
    let offered = |name: &str| message.answers.contains(&name);
    let refuse = |what: &str| {
        ask(format!(
            "the toolgate inbox answered {what}, which was not offered"
        ))
    };
    match answer {
        InboxAnswer::Ask { reason: why } => ask(format!("the toolgate inbox: {why}")),
        InboxAnswer::Deny { message: said } => {
            let said = said
                .as_deref()
                .map(str::trim)
                .filter(|m| !m.is_empty())
                .map(|m| format!(" with this message: {m}"))
                .unwrap_or_default();
            Applied {
                verdict: Verdict::Deny(format!(
                    "Permission denied: the user denied this call in the toolgate inbox{said}. \
                     Do not retry the same call; choose another approach or ask the user how \
                     to proceed."
                )),
                edited: None,
                grants: Vec::new(),
            }
        }
        InboxAnswer::Allow {
            scope,
            edited_input: Some(input),
        } => {
            let first = call.requests.first();
            let (Some(first), true, AllowScope::Once, true) =
                (first, message.editable, scope, input.is_object())
            else {
                return refuse("edited arguments");
            };
            let request = crate::Request {
                input: input.clone(),
                ..first.clone()
            };
            let decision = super::decide_request(policy, &request, overlay);
            if decision.effect == Effect::Deny {
                let text = decision.model_message().unwrap_or_default();
                return Applied {
                    verdict: Verdict::Deny(format!("the edited call is denied: {text}")),
                    edited: None,
                    grants: Vec::new(),
                };
            }
            Applied {
                verdict: Verdict::Allow(
                    "toolgate: the user approved edited arguments in the toolgate inbox".into(),
                ),
                edited: Some(input),
                grants: Vec::new(),
            }
        }
        InboxAnswer::Allow {
            scope,
            edited_input: None,
        } => {
            let session = &call.session_id;
            let (name, grants): (&str, Vec<NewGrant>) = match scope {
                AllowScope::Once => ("allowOnce", Vec::new()),
                AllowScope::Session => (
                    "allowSession",
                    message
                        .rules
                        .iter()
                        .map(|r| NewGrant::session(r, session))
                        .collect(),
                ),
                AllowScope::Always => (
                    "allowAlways",
                    message.rules.iter().map(|r| NewGrant::always(r)).collect(),
                ),
                AllowScope::ToolSession => (
                    "allowToolForSession",
                    vec![NewGrant::session(&call.tool, session)],
                ),
            };
            if !offered(name) {
                return refuse(name);
            }
            let agent = Some(call.agent.name());
            Applied {
                verdict: Verdict::Allow(format!(
                    "toolgate: the user approved this call in the toolgate inbox ({name})"
                )),
                edited: None,
                grants: grants.into_iter().map(|g| g.for_agent(agent)).collect(),
            }
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
    fn answers_not_offered_ask() {
        let policy = Policy::from_json("{}").unwrap_or_else(|e| unreachable!("{e}"));
        let payload = r#"{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"npm publish"}}"#;
        let call = super::super::parse_call(None, payload).unwrap_or_else(|e| unreachable!("{e}"));
        let outcome = super::super::decide(&call, &policy, &TrustOverlay::default());
        let m =
            ask_message(&call, &outcome, &policy, "/p", false, 0).unwrap_or_else(|| unreachable!());
        assert_eq!(m.answers, vec!["allowOnce", "deny"]);
        let session = InboxAnswer::Allow {
            scope: AllowScope::Session,
            edited_input: None,
        };
        let a = apply(&call, &m, Ok(session), &policy, &TrustOverlay::default());
        assert!(matches!(a.verdict, Verdict::Ask(_)));
        assert!(a.grants.is_empty());
        let a = apply(
            &call,
            &m,
            Err("gone".into()),
            &policy,
            &TrustOverlay::default(),
        );
        assert!(matches!(a.verdict, Verdict::Ask(t) if t.contains("gone")));
    }

    fn gemini_ask(input: &Value) -> AskMessage {
        let policy = Policy::from_json("{}").unwrap_or_else(|e| unreachable!("{e}"));
        let payload = json!({"session_id":"s","cwd":"/p","hook_event_name":"BeforeTool",
            "tool_name": input["tool"], "tool_input": input["input"]});
        let call = super::super::parse_call(None, &payload.to_string())
            .unwrap_or_else(|e| unreachable!("{e}"));
        let outcome = super::super::decide(&call, &policy, &TrustOverlay::default());
        ask_message(&call, &outcome, &policy, "/p", true, 0).unwrap_or_else(|| unreachable!())
    }

    #[test]
    fn the_ask_shows_where_the_call_runs_and_every_key_it_was_sent() {
        let shell =
            json!({"command": "rm -rf ./*", "dir_path": "/elsewhere", "description": "clean"});
        let m = gemini_ask(&json!({"tool": "run_shell_command", "input": shell}));
        assert_eq!(m.cwd.as_deref(), Some("/elsewhere"));
        assert_eq!(m.input, shell);
        let read = json!({"file_path": "/p/README.md", "absolute_path": "/home/u/.ssh/id_rsa"});
        let m = gemini_ask(&json!({"tool": "read_file", "input": read}));
        assert_eq!(m.input, read);
        assert_eq!(m.cwd.as_deref(), Some("/p"));
    }

    #[test]
    fn asks_offer_only_rules_that_name_the_call_exactly() {
        let policy = crate::Policy::from_json("{}").unwrap();
        let message = |command: &str| {
            let payload = json!({"session_id": "s", "cwd": "/p", "hook_event_name": "PreToolUse",
                "tool_name": "Bash", "tool_input": {"command": command}});
            let call = crate::agents::parse_call(None, &payload.to_string()).unwrap();
            let outcome = crate::agents::decide(&call, &policy, &crate::TrustOverlay::default());
            ask_message(&call, &outcome, &policy, "/p", true, 0).unwrap()
        };
        let m = message("curl -s http://h/status # *");
        assert_eq!(m.rules, ["Bash(curl -s http://h/status)"]);
        assert_eq!(
            m.description,
            "Execute command: curl -s http://h/status # *"
        );
        let m = message("curl -s 'http://h/s?q=*'");
        assert!(m.rules.is_empty());
        assert!(!m.answers.contains(&"allowSession"));
    }
}
