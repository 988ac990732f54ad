//! Agent hook protocols: a coding agent's pre-tool hook payload turned into [`Request`]s, and
//! toolgate's decision turned into the answer that agent obeys.
//!
//! One module per agent ([`claude`], [`copilot`], [`codex`], [`gemini`], [`cursor`]) knows its
//! payload fields, tool names and answer format. This module detects the agent, decides, and
//! turns every failure into the agent's *blocking* answer: [`answer_hook`] never fails.
//!
//! No I/O: the host reads the payload, loads the policy and the trust store, and writes the
//! [`HookAnswer`] (stdout, stderr, exit code) back to the agent.
//!
//! ```
//! use toolgate::agents::{answer_hook, Agent};
//! use toolgate::{Policy, TrustStore};
//! let policy = Policy::from_json(r#"{"permissions":{"deny":["Bash(rm *)"]}}"#).unwrap();
//! let payload = r#"{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse",
//!     "tool_name":"Bash","tool_input":{"command":"rm -rf build"}}"#;
//! let answer = answer_hook(Some(Agent::Claude), payload, &policy, &TrustStore::new(), 0);
//! assert!(answer.stdout.contains(r#""permissionDecision":"deny""#));
//! // A payload that cannot be read is blocked (exit 2), never let through.
//! let answer = answer_hook(Some(Agent::Claude), "{", &policy, &TrustStore::new(), 0);
//! assert_eq!(answer.exit_code, 2);
//! ```

pub mod claude;
pub mod codex;
pub mod copilot;
pub mod cursor;
pub mod gemini;
pub mod gemini_paths;
pub mod gemini_shell;
pub mod inbox;
mod payload;
pub mod project;

/// How long a hook waits at most before it answers (blocking) by itself, in milliseconds:
/// long enough for a person to answer in the approval inbox, and below
/// [`INSTALLED_TIMEOUT_SECS`], so no agent times the hook out (Copilot CLI would then let the
/// call through). The native hook and the npm bin both use it.
pub const DEFAULT_DEADLINE_MS: u64 = 25_000;

/// The timeout `toolgate install` writes into an agent's settings, in seconds: above
/// [`DEFAULT_DEADLINE_MS`].
pub const INSTALLED_TIMEOUT_SECS: u64 = 30;

/// The largest file a hook reads (a policy, an agent's settings, the trust file), in bytes:
/// a bigger one is an error ([`crate::Error::file_too_large`]), never read whole into memory.
/// The native hook and the npm bin both use it.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

use serde_json::Value;

use crate::decision::{Decider, Decision, Effect, RuleList, TrustOverlay};
use crate::error::{Error, ErrorKind, Result};
use crate::policy::Policy;
use crate::request::Request;
use crate::trust::TrustStore;

pub use payload::{field_str, object_field};

/// A coding agent whose hook protocol toolgate speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Agent {
    /// Claude Code (and claude-code-acp, which runs Claude Code's hooks).
    Claude,
    /// GitHub Copilot CLI.
    Copilot,
    /// OpenAI Codex CLI.
    Codex,
    /// Gemini CLI.
    Gemini,
    /// Cursor.
    Cursor,
}

impl Agent {
    /// Every agent, in a stable order.
    pub const ALL: [Agent; 5] = [
        Agent::Claude,
        Agent::Copilot,
        Agent::Codex,
        Agent::Gemini,
        Agent::Cursor,
    ];

    /// The lowercase name used on the command line and in grants: `claude`, `copilot`, ...
    pub const fn name(self) -> &'static str {
        match self {
            Agent::Claude => "claude",
            Agent::Copilot => "copilot",
            Agent::Codex => "codex",
            Agent::Gemini => "gemini",
            Agent::Cursor => "cursor",
        }
    }

    /// Parses a name as [`Agent::name`] spells it.
    ///
    /// ```
    /// use toolgate::agents::Agent;
    /// assert_eq!(Agent::parse("gemini").unwrap(), Agent::Gemini);
    /// assert_eq!(Agent::parse("vim").unwrap_err().code(), "INVALID_REQUEST");
    /// ```
    pub fn parse(name: &str) -> Result<Agent> {
        Agent::ALL
            .into_iter()
            .find(|a| a.name() == name)
            .ok_or_else(|| {
                Error::new(ErrorKind::InvalidRequest, format!("unknown agent `{name}`"))
                    .with_hint("use one of `claude`, `copilot`, `codex`, `gemini`, `cursor`")
            })
    }

    /// The exit code that goes with a blocking answer. Claude Code and Copilot CLI read the
    /// JSON answer only on exit 0 (exit 2 would leak the hook's command line to Claude's
    /// model, and Copilot drops the reason); Codex, Gemini CLI and Cursor block on exit 2
    /// whatever the output says, and read the reason from stderr.
    pub const fn blocking_exit_code(self) -> i32 {
        match self {
            Agent::Claude | Agent::Copilot => 0,
            Agent::Codex | Agent::Gemini | Agent::Cursor => 2,
        }
    }
}

/// Which hook of the agent fired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HookEvent {
    /// Before a tool call (Claude/Codex `PreToolUse`, Copilot `preToolUse`, Gemini
    /// `BeforeTool`, Cursor `beforeShellExecution`, `beforeMCPExecution`, `beforeReadFile`).
    PreToolUse,
    /// The agent is about to ask its user (Claude/Codex `PermissionRequest`, Copilot
    /// `permissionRequest`): allow or deny answers it, no verdict leaves it to the person.
    PermissionRequest,
    /// An event that cannot stop anything (`PostToolUse`, `AfterTool`, ...): answered with
    /// nothing.
    Observe,
}

impl HookEvent {
    /// A short name for logs.
    pub const fn as_str(self) -> &'static str {
        match self {
            HookEvent::PreToolUse => "preToolUse",
            HookEvent::PermissionRequest => "permissionRequest",
            HookEvent::Observe => "observe",
        }
    }
}

/// What a hook process prints and how it exits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HookAnswer {
    /// Written to standard output (the agent's JSON answer, or nothing).
    pub stdout: String,
    /// Written to standard error.
    pub stderr: String,
    /// The process's exit code.
    pub exit_code: i32,
}

/// What toolgate tells the agent, before it is put in the agent's format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Skip the agent's prompt and run; the text says why.
    Allow(String),
    /// Have the agent ask its user; the text is shown with the prompt.
    Ask(String),
    /// Block; the text is handed to the model.
    Deny(String),
    /// No opinion: the agent's own permission settings decide.
    Defer,
}

/// One hook invocation, read from the agent's payload.
#[derive(Clone, Debug, PartialEq)]
pub struct HookCall {
    /// The agent.
    pub agent: Agent,
    /// The event.
    pub event: HookEvent,
    /// The tool as the agent named it (empty for events without a tool).
    pub tool: String,
    /// The calls to decide: usually one; a patch touching several files gives one per file.
    /// The strictest effect wins.
    pub requests: Vec<Request>,
    /// The agent's session id (empty when the payload has none).
    pub session_id: String,
    /// The working directory the agent reported.
    pub cwd: Option<String>,
    /// The project directory the payload itself names (Cursor: the workspace root that
    /// holds the working directory); `None` when it names none. See [`project`].
    pub project: Option<String>,
    /// A tool of the agent's own bookkeeping (todo lists, sub-agents) whose own calls are
    /// gated separately: when no rule names it, the agent's settings decide.
    pub internal: bool,
    /// Whether the agent can ask its user at this event (Cursor's `beforeReadFile` cannot):
    /// where it cannot, a call that needs approval is denied.
    pub can_ask: bool,
    /// The tool's arguments as the agent sent them, every key (`tool_input`, Copilot's
    /// `toolArgs`), for showing a person what the call acts on; `None` when the payload has
    /// no such object (the requests' inputs then stand for it).
    pub tool_input: Option<Value>,
    /// For each of `requests`, in order, how the agent reads the path that request judges
    /// when that is not the path as written (Gemini CLI opens `secrets%2Fk.txt` as
    /// `secrets/k.txt`), else `None`; empty when every request judges the call as written.
    /// A decision that stops the call on such a request says how the agent reads the path.
    pub readings: Vec<Option<String>>,
}

/// Which agent sent a payload, and which event it is, from the payload's shape: Copilot
/// CLI's camelCase fields, Cursor's and Gemini CLI's event names, Codex's `turn_id`; other
/// snake_case payloads with `hook_event_name` are Claude Code's.
///
/// ```
/// use serde_json::json;
/// use toolgate::agents::{detect, Agent, HookEvent};
/// let p = json!({"hook_event_name":"BeforeTool","tool_name":"run_shell_command"});
/// assert_eq!(detect(&p), Some((Agent::Gemini, HookEvent::PreToolUse)));
/// assert_eq!(detect(&json!({"hello":1})), None);
/// ```
pub fn detect(payload: &Value) -> Option<(Agent, HookEvent)> {
    if let Some(e) = copilot::event(payload) {
        return Some((Agent::Copilot, e));
    }
    if let Some(e) = cursor::event(payload) {
        return Some((Agent::Cursor, e));
    }
    if let Some(e) = gemini::event(payload) {
        return Some((Agent::Gemini, e));
    }
    if payload.get("turn_id").is_some() {
        return codex::event(payload).map(|e| (Agent::Codex, e));
    }
    claude::event(payload).map(|e| (Agent::Claude, e))
}

/// Reads a payload. With `agent` given, the payload must be that agent's; without, it is
/// detected ([`detect`]). A payload that is not JSON, repeats a key, misses the tool or
/// names an unknown event is an error.
pub fn parse_call(agent: Option<Agent>, payload: &str) -> Result<HookCall> {
    let value: Value = crate::json::from_str(payload, "hook payload")?;
    let (agent, event) = match agent {
        Some(a) => (a, event_of(a, &value)?),
        None => detect(&value).ok_or_else(|| {
            Error::new(
                ErrorKind::InvalidRequest,
                "cannot tell which agent sent this hook payload",
            )
            .with_hint("pass `--agent claude|copilot|codex|gemini|cursor`")
        })?,
    };
    let mut call = match agent {
        Agent::Claude => claude::call(event, &value),
        Agent::Copilot => copilot::call(event, &value),
        Agent::Codex => codex::call(event, &value),
        Agent::Gemini => gemini::call(event, &value),
        Agent::Cursor => cursor::call(event, &value),
    }?;
    for r in &mut call.requests {
        r.agent = Some(agent.name().to_owned());
        if r.cwd.is_none() {
            r.cwd.clone_from(&call.cwd);
        }
    }
    call.tool_input = ["tool_input", "toolArgs"]
        .iter()
        .find_map(|key| payload::object_field(&value, key).ok());
    Ok(call)
}

fn event_of(agent: Agent, value: &Value) -> Result<HookEvent> {
    let event = match agent {
        Agent::Claude => claude::event(value),
        Agent::Copilot => copilot::event(value),
        Agent::Codex => codex::event(value),
        Agent::Gemini => gemini::event(value),
        Agent::Cursor => cursor::event(value),
    };
    event.ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidRequest,
            format!(
                "not a {} hook payload, or an unknown hook event",
                agent.name()
            ),
        )
        .with_hint("install the hook with `toolgate install` so it runs on the events it knows")
    })
}

/// The outcome of one hook call: the verdict and the decision behind it.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// What the agent is told.
    pub verdict: Verdict,
    /// The strictest decision over the call's requests (`None` for events that decide
    /// nothing).
    pub decision: Option<Decision>,
}

/// Decides a call. Every request is decided with remembered trust ([`decide_request`]); the
/// strictest decision wins. An allow is passed on only when a rule (or a remembered grant) or
/// toolgate's own analysis (read-only tools and commands inside the project) allowed it; an
/// allow that comes from the permission mode defers to the agent, which applies the same mode
/// itself.
pub fn decide(call: &HookCall, policy: &Policy, trust: &TrustOverlay) -> Outcome {
    if call.event == HookEvent::Observe {
        return Outcome {
            verdict: Verdict::Defer,
            decision: None,
        };
    }
    let Some(decision) = strictest(call, policy, trust) else {
        return Outcome {
            verdict: Verdict::Deny(format!(
                "Permission denied: toolgate found nothing to check in this `{}` call. Do not \
                 retry the same call.",
                call.tool
            )),
            decision: None,
        };
    };
    let verdict = verdict_for(call, &decision, policy);
    Outcome {
        verdict,
        decision: Some(decision),
    }
}

/// The strictest decision of the call's requests (the first of equals), its reason saying
/// how the agent reads the path when the request judges a reading other than the one
/// written ([`HookCall::readings`]); `None` when there is no request.
fn strictest(call: &HookCall, policy: &Policy, trust: &TrustOverlay) -> Option<Decision> {
    let (at, mut decision) = call
        .requests
        .iter()
        .map(|r| decide_request(policy, r, trust))
        .enumerate()
        .reduce(|first, next| {
            if next.1.effect > first.1.effect {
                next
            } else {
                first
            }
        })?;
    let reading = call.readings.get(at).and_then(Option::as_deref);
    if let (Some(how), false) = (reading, decision.effect == Effect::Allow) {
        decision.reason.text = format!("{} ({how})", decision.reason.text);
    }
    Some(decision)
}

/// Decides one request with remembered trust by the rule the broker applies
/// ([`crate::trust::decide_with_trust`]): grants stand in for a person only where the call
/// asks and the policy marks it `trustable`, and a bare-tool grant (`Write`) only for a tool
/// the policy trusts by its name.
///
/// ```
/// use toolgate::agents::decide_request;
/// use toolgate::{Effect, Policy, Request, TrustOverlay};
/// let policy = Policy::from_json("{}").unwrap();
/// let grant = TrustOverlay { allow_rules: vec!["Write".into()], agent_bypass: false };
/// let outside = Request::from_json(
///     r#"{"tool":"Write","input":{"file_path":"/tmp/x/notes.txt","content":""},"cwd":"/p"}"#,
/// )
/// .unwrap();
/// assert_eq!(decide_request(&policy, &outside, &grant).effect, Effect::Ask);
/// ```
pub fn decide_request(policy: &Policy, request: &Request, trust: &TrustOverlay) -> Decision {
    let plain = policy.evaluate(request);
    let tool_trustable = policy.tool_trustable(request);
    crate::trust::decide_with_trust(policy, request, &plain, trust, tool_trustable).unwrap_or(plain)
}

fn verdict_for(call: &HookCall, d: &Decision, policy: &Policy) -> Verdict {
    // Said once: a reason that already names toolgate gets no second prefix.
    let text = if d.reason.text.starts_with("toolgate ") {
        d.reason.text.clone()
    } else {
        format!("toolgate: {}", d.reason.text)
    };
    match d.effect {
        Effect::Deny => Verdict::Deny(d.model_message().unwrap_or(text)),
        Effect::Ask => ask_verdict(call, d, text, policy),
        Effect::Allow => match d.reason.decider {
            Decider::Mode { .. } | Decider::AgentBypass { .. } => Verdict::Defer,
            // The agent's own bookkeeping tools, allowed by default: the agent decides.
            Decider::ToolDefault { .. } if call.internal => Verdict::Defer,
            _ => Verdict::Allow(text),
        },
    }
}

/// What the agent is told for an ask: the person's prompt where the agent can show one;
/// nothing (the agent's settings) for its own bookkeeping tools and at a permission request;
/// a deny where the agent cannot ask, and for Codex where the ask stands for something the
/// policy may forbid ([`codex_refusal`]).
fn ask_verdict(call: &HookCall, d: &Decision, text: String, policy: &Policy) -> Verdict {
    match (&d.reason.decider, call.event) {
        (Decider::ToolDefault { .. }, _) if call.internal => return Verdict::Defer,
        (_, HookEvent::PermissionRequest) => return Verdict::Defer,
        _ => {}
    }
    if call.agent == Agent::Codex {
        if let Some(refusal) = codex_refusal(call, d, &text, policy) {
            return Verdict::Deny(refusal);
        }
    }
    if !call.can_ask {
        return Verdict::Deny(format!(
            "Permission denied: this call needs approval ({text}) and the agent cannot ask \
             here. Do not retry it; ask the user."
        ));
    }
    Verdict::Ask(text)
}

/// Why Codex must not run an ask, if it must not: Codex reads no pre-tool ask and runs the
/// call in its sandbox, so an ask that stands for something toolgate could not read
/// ([`unreadable`]), for a deny rule that may cover what the call reads or writes
/// ([`deny_rule_in_doubt`]), or for a program whose reads and writes toolgate does not know
/// while a deny rule on files stands ([`deny_rule_unkept`]), would let the call do what the
/// policy forbids unseen.
fn codex_refusal(call: &HookCall, d: &Decision, text: &str, policy: &Policy) -> Option<String> {
    if unreadable(d) {
        return Some(format!(
            "Permission denied: toolgate could not check this call ({text}), and Codex \
             would run it without asking. Do not retry it; run a plain command toolgate \
             can read, or ask the user."
        ));
    }
    if let Some(rule) = deny_rule_in_doubt(d) {
        return Some(format!(
            "Permission denied: the deny rule `{rule}` may cover what this call reads or \
             writes ({text}), and Codex would run it without asking. Do not retry it; name \
             the files the command needs (no folder it reads or writes whole, no pattern, no \
             path through a link a command of the line makes), or ask the user."
        ));
    }
    deny_rule_unkept(call, d, policy).map(|(rule, program)| {
        format!(
            "Permission denied: toolgate does not know what `{program}` reads or writes, so \
             it cannot keep the deny rule `{rule}` ({text}), and Codex would run it without \
             asking. Do not retry it; ask the user, who can allow this command with a rule."
        )
    })
}

/// The deny rule on files that an ask's command may break unseen, with the program that may
/// break it: a command whose reads and writes the program table does not vouch for
/// ([`crate::shell::program_of_unknown_effects`]: `npm pack` packs every file below `.`,
/// `make` runs what its recipes say) in a part that asks, while a deny rule on files stands.
fn deny_rule_unkept<'p>(
    call: &HookCall,
    d: &Decision,
    policy: &'p Policy,
) -> Option<(&'p str, String)> {
    let rule = policy.first_path_deny_rule()?;
    let program = if d.parts.is_empty() {
        call.requests
            .iter()
            .filter_map(|r| r.input_str("command"))
            .find_map(crate::shell::program_of_unknown_effects)
    } else {
        d.parts
            .iter()
            .filter(|p| p.effect == Effect::Ask)
            .find_map(|p| crate::shell::program_of_unknown_effects(&p.part))
    }?;
    Some((rule, program))
}

/// The deny rule behind an ask, in the call or in any of its parts, if one is: a rule of
/// the deny list that may match what the call reads or writes but cannot be shown to
/// (`grep -r KEY .` reads every file below `.`; a path may pass through a link an earlier
/// command made).
fn deny_rule_in_doubt(d: &Decision) -> Option<&str> {
    std::iter::once((&d.reason.decider, d.effect))
        .chain(d.parts.iter().map(|p| (&p.reason.decider, p.effect)))
        .find_map(|(decider, effect)| match decider {
            Decider::Rule {
                rule,
                list: RuleList::Deny,
                ..
            }
            | Decider::DangerRule {
                rule,
                list: RuleList::Deny,
                ..
            } if effect == Effect::Ask => Some(rule.as_str()),
            _ => None,
        })
}

/// Whether an ask comes from something toolgate could not read: a call it could not analyse
/// (a bad or unanalysable subject, a shell line outside the parsed subset, where a deny rule
/// might have matched) or one that hides what it runs, in the call or in any of its parts.
fn unreadable(d: &Decision) -> bool {
    let obscured = |dangers: &[crate::Danger]| {
        dangers
            .iter()
            .any(|x| x.class == crate::commands::danger::DangerClass::Obscured)
    };
    matches!(d.reason.decider, Decider::Unanalysable { .. })
        || obscured(&d.dangers)
        || d.parts.iter().any(|p| {
            p.effect != Effect::Allow
                && (matches!(p.reason.decider, Decider::Unanalysable { .. })
                    || obscured(&p.dangers))
        })
}

/// The agent's answer for a verdict.
pub fn render(agent: Agent, event: HookEvent, verdict: &Verdict) -> HookAnswer {
    match agent {
        Agent::Claude => claude::render(event, verdict),
        Agent::Copilot => copilot::render(event, verdict),
        Agent::Codex => codex::render(event, verdict),
        Agent::Gemini => gemini::render(event, verdict),
        Agent::Cursor => cursor::render(event, verdict),
    }
}

/// The blocking answer for a failure. With the agent and event known it is that agent's deny
/// answer; otherwise exit code 2 with the reason on stderr, which every supported agent
/// treats as "blocked".
///
/// ```
/// use toolgate::agents::{blocking_answer, Agent, HookEvent};
/// let a = blocking_answer(None, "policy unreadable");
/// assert_eq!(a.exit_code, 2);
/// let a = blocking_answer(Some((Agent::Copilot, HookEvent::PreToolUse)), "policy unreadable");
/// assert!(a.stdout.contains(r#""permissionDecision":"deny""#));
/// ```
pub fn blocking_answer(agent: Option<(Agent, HookEvent)>, reason: &str) -> HookAnswer {
    let message = format!(
        "Blocked by toolgate: {reason}. The call did not run; do not retry it until the user \
         has fixed toolgate (`toolgate doctor`)."
    );
    match agent {
        Some((agent, event)) => {
            let event = match event {
                HookEvent::Observe => HookEvent::PreToolUse,
                e => e,
            };
            render(agent, event, &Verdict::Deny(message))
        }
        None => HookAnswer {
            stdout: String::new(),
            stderr: message,
            exit_code: 2,
        },
    }
}

/// One hook call from payload to answer, for hosts that already hold the policy and the
/// trust store (the wasm build, tests). `agent` forces the protocol (else it is detected);
/// `trust` supplies the grants that apply to the payload's session and agent at `now_ms`
/// (Unix milliseconds). Never fails: an unreadable payload gets the blocking answer.
pub fn answer_hook(
    agent: Option<Agent>,
    payload: &str,
    policy: &Policy,
    trust: &TrustStore,
    now_ms: u64,
) -> HookAnswer {
    let call = match parse_call(agent, payload) {
        Ok(c) => c,
        Err(e) => return blocking_answer(guess(agent, payload), &e.to_string()),
    };
    let overlay = overlay(trust, &call, now_ms);
    let outcome = decide(&call, policy, &overlay);
    render(call.agent, call.event, &outcome.verdict)
}

/// The grants of `trust` that apply to `call`, as the policy's trust overlay.
pub fn overlay(trust: &TrustStore, call: &HookCall, now_ms: u64) -> TrustOverlay {
    let agent = Some(call.agent.name());
    TrustOverlay {
        allow_rules: trust
            .active(&call.session_id, agent, now_ms)
            .into_iter()
            .map(|g| g.rule.clone())
            .collect(),
        agent_bypass: trust.agent_bypass(agent),
    }
}

/// The agent and event of a payload that failed to read, as far as they can be told, so the
/// blocking answer is in the agent's own format.
pub fn guess(agent: Option<Agent>, payload: &str) -> Option<(Agent, HookEvent)> {
    let value: Option<Value> = serde_json::from_str(payload).ok();
    match (agent, value) {
        (Some(a), Some(v)) => Some((a, event_of(a, &v).ok()?)),
        (None, Some(v)) => detect(&v),
        (Some(_), None) | (None, None) => None,
    }
}

/// The JSON text of a value (serialising a `Value` cannot fail).
pub(crate) fn json_text(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// The captured payloads in `tests/fixtures/agents`, as the hook reads them (the `stdin`
/// part of a capture).
#[cfg(test)]
pub(crate) fn captured(name: &str) -> String {
    let text = match name {
        "claude-PreToolUse" => {
            include_str!("../../tests/fixtures/agents/captured-claude-PreToolUse.json")
        }
        "claude-PermissionRequest" => {
            include_str!("../../tests/fixtures/agents/captured-claude-PermissionRequest.json")
        }
        "codex-PreToolUse" => {
            include_str!("../../tests/fixtures/agents/captured-codex-PreToolUse.json")
        }
        "codex-PermissionRequest" => {
            include_str!("../../tests/fixtures/agents/captured-codex-PermissionRequest.json")
        }
        "copilot-preToolUse" => {
            include_str!("../../tests/fixtures/agents/captured-copilot-preToolUse.json")
        }
        "copilot-permissionRequest" => {
            include_str!("../../tests/fixtures/agents/captured-copilot-permissionRequest.json")
        }
        "gemini-BeforeTool" => {
            include_str!("../../tests/fixtures/agents/captured-gemini-BeforeTool.json")
        }
        _ => "",
    };
    let v: Value = serde_json::from_str(text).unwrap_or(Value::Null);
    v.get("stdin").unwrap_or(&v).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claude(tool: &str, input: Value, event: &str, mode: &str) -> String {
        serde_json::json!({"session_id":"s1","cwd":"/home/ada/p","hook_event_name":event,
            "permission_mode":mode,"tool_name":tool,"tool_input":input})
        .to_string()
    }

    fn verdict(policy: &str, payload: &str) -> Verdict {
        let policy = Policy::from_json(policy).unwrap();
        let call = parse_call(None, payload).unwrap();
        decide(&call, &policy, &TrustOverlay::default()).verdict
    }

    /// The verdict with the requests anchored at the project `root`, as the hook does.
    fn verdict_at(policy: &str, payload: &str, root: &str) -> Verdict {
        let policy = Policy::from_json(policy).unwrap();
        let mut call = parse_call(None, payload).unwrap();
        for r in &mut call.requests {
            r.root = Some(root.to_owned());
        }
        decide(&call, &policy, &TrustOverlay::default()).verdict
    }

    #[test]
    fn rules_are_anchored_at_the_project_not_where_the_tool_runs() {
        // Gemini CLI runs the command in `dir_path`: `./private/**` is the project's
        // `private`, not `private/private`.
        let deny = r#"{"permissions":{"deny":["Read(./private/**)"]}}"#;
        let p = serde_json::json!({"session_id":"s","cwd":"/p","hook_event_name":"BeforeTool",
            "tool_name":"run_shell_command",
            "tool_input":{"command":"cat notes.txt","dir_path":"private"}})
        .to_string();
        assert!(matches!(verdict_at(deny, &p, "/p"), Verdict::Deny(_)));
        // Claude Code's `cwd` follows `cd`; its `./` rules stay at the project.
        let mut p = claude(
            "Bash",
            serde_json::json!({"command":"cat ../private/a.txt"}),
            "PreToolUse",
            "default",
        );
        p = p.replace("\"/home/ada/p\"", "\"/home/ada/p/sub\"");
        let deny = r#"{"permissions":{"deny":["Read(./private/**)"]}}"#;
        let v = verdict_at(deny, &p, "/home/ada/p");
        assert!(matches!(v, Verdict::Deny(_)), "{v:?}");
        // A shell that went elsewhere is not inside the project.
        let mut p = claude(
            "Bash",
            serde_json::json!({"command":"cat passwd"}),
            "PreToolUse",
            "default",
        );
        p = p.replace("\"/home/ada/p\"", "\"/etc\"");
        let v = verdict_at("{}", &p, "/home/ada/p");
        assert!(!matches!(v, Verdict::Allow(_)), "{v:?}");
    }

    #[test]
    fn git_away_from_the_project_is_judged_as_after_a_cd() {
        // The shell followed `cd evil` in an earlier call: git there runs that directory's
        // configuration (an embedded bare repository's `core.fsmonitor`).
        let git = |cwd: &str| {
            claude(
                "Bash",
                serde_json::json!({"command":"git status"}),
                "PreToolUse",
                "default",
            )
            .replace("\"/home/ada/p\"", &format!("\"{cwd}\""))
        };
        let Verdict::Ask(text) = verdict_at("{}", &git("/home/ada/p/evil"), "/home/ada/p") else {
            panic!("expected ask")
        };
        assert!(
            text.contains("`/home/ada/p/evil`") && text.contains("`/home/ada/p`"),
            "{text}"
        );
        // The project directory itself, however it is spelt, and a call without a project.
        for cwd in ["/home/ada/p", "/home/ada/p/", "/home/ada/p/sub/.."] {
            let v = verdict_at("{}", &git(cwd), "/home/ada/p");
            assert!(matches!(v, Verdict::Allow(_)), "{cwd}: {v:?}");
        }
        assert!(matches!(
            verdict("{}", &git("/home/ada/p/evil")),
            Verdict::Allow(_)
        ));
        // Other read-only work there is not git's: it still runs.
        let p = git("/home/ada/p/evil").replace("git status", "ls");
        let v = verdict_at("{}", &p, "/home/ada/p");
        assert!(matches!(v, Verdict::Allow(_)), "{v:?}");
    }

    #[test]
    fn read_only_work_in_the_project_is_allowed() {
        let p = claude(
            "Bash",
            serde_json::json!({"command":"ls -la"}),
            "PreToolUse",
            "default",
        );
        assert!(matches!(verdict("{}", &p), Verdict::Allow(_)));
        let p = claude(
            "Read",
            serde_json::json!({"file_path":"/home/ada/p/a.rs"}),
            "PreToolUse",
            "default",
        );
        assert!(matches!(verdict("{}", &p), Verdict::Allow(_)));
    }

    #[test]
    fn writes_ask_and_deny_rules_deny() {
        let p = claude(
            "Bash",
            serde_json::json!({"command":"touch x"}),
            "PreToolUse",
            "default",
        );
        assert!(matches!(verdict("{}", &p), Verdict::Ask(_)));
        let policy = r#"{"permissions":{"deny":["Bash(touch *)"]}}"#;
        let Verdict::Deny(text) = verdict(policy, &p) else {
            panic!("expected deny")
        };
        assert!(text.contains("Bash(touch *)"), "{text}");
    }

    #[test]
    fn mode_allows_and_internal_tools_defer() {
        let p = claude(
            "Bash",
            serde_json::json!({"command":"touch x"}),
            "PreToolUse",
            "bypassPermissions",
        );
        assert_eq!(verdict("{}", &p), Verdict::Defer);
        let p = claude(
            "TodoWrite",
            serde_json::json!({"todos":[]}),
            "PreToolUse",
            "default",
        );
        assert_eq!(verdict("{}", &p), Verdict::Defer);
        let policy = r#"{"permissions":{"deny":["TodoWrite"]}}"#;
        assert!(matches!(verdict(policy, &p), Verdict::Deny(_)));
    }

    #[test]
    fn permission_requests_leave_asks_to_the_person() {
        let p = claude(
            "Bash",
            serde_json::json!({"command":"touch x"}),
            "PermissionRequest",
            "default",
        );
        assert_eq!(verdict("{}", &p), Verdict::Defer);
        let p = claude(
            "Bash",
            serde_json::json!({"command":"git status"}),
            "PermissionRequest",
            "default",
        );
        assert!(matches!(verdict("{}", &p), Verdict::Allow(_)));
    }

    #[test]
    fn grants_apply_to_their_session() {
        let policy = Policy::from_json("{}").unwrap();
        let mut store = TrustStore::new();
        store
            .grant(
                crate::trust::NewGrant::session("Bash(touch x)", "s1"),
                &policy,
                0,
            )
            .unwrap_or_else(|e| panic!("{e}"));
        let p = claude(
            "Bash",
            serde_json::json!({"command":"touch x"}),
            "PreToolUse",
            "default",
        );
        let a = answer_hook(None, &p, &policy, &store, 1);
        assert!(
            a.stdout.contains(r#""permissionDecision":"allow""#),
            "{a:?}"
        );
        let other = p.replace("\"s1\"", "\"s2\"");
        let a = answer_hook(None, &other, &policy, &store, 1);
        assert!(a.stdout.contains(r#""permissionDecision":"ask""#), "{a:?}");
    }

    #[test]
    fn grants_stand_in_only_where_the_broker_lets_them() {
        let policy = Policy::from_json("{}").unwrap();
        let mut store = TrustStore::new();
        store
            .grant(crate::trust::NewGrant::session("Write", "s1"), &policy, 0)
            .unwrap_or_else(|e| panic!("{e}"));
        let write = |path: &str| {
            let input = serde_json::json!({"file_path": path, "content": "x"});
            answer_hook(
                None,
                &claude("Write", input, "PreToolUse", "default"),
                &policy,
                &store,
                1,
            )
        };
        let a = write("/home/ada/p/notes.txt");
        assert!(
            a.stdout.contains(r#""permissionDecision":"allow""#),
            "{a:?}"
        );
        // Not trustable: outside the project, or a protected path.
        for path in [
            "/tmp/x/victim/notes.txt",
            "/home/ada/p/.git/hooks/pre-commit",
        ] {
            let a = write(path);
            assert!(
                a.stdout.contains(r#""permissionDecision":"ask""#),
                "{path}: {a:?}"
            );
        }
        // A bare `Write` is no grant for a shell line that writes.
        let line = serde_json::json!({"command": "echo pwned > /home/ada/p/notes.txt"});
        let a = answer_hook(
            None,
            &claude("Bash", line, "PreToolUse", "default"),
            &policy,
            &store,
            1,
        );
        assert!(a.stdout.contains(r#""permissionDecision":"ask""#), "{a:?}");
    }

    #[test]
    fn acp_and_sdk_messages_are_not_hook_payloads() {
        // claude-code-acp runs Claude Code's hooks; its ACP permission request and the SDK's
        // `can_use_tool` are answered by the client, not by a hook.
        for text in [
            include_str!(
                "../../tests/fixtures/agents/captured-acp-session_request_permission.json"
            ),
            include_str!("../../tests/fixtures/agents/captured-claude-sdk-can_use_tool.json"),
        ] {
            let v: Value = serde_json::from_str(text).unwrap();
            assert_eq!(detect(&v), None);
        }
    }

    fn codex(command: &str) -> String {
        serde_json::json!({"session_id":"s1","turn_id":"t","cwd":"/home/ada/p",
            "hook_event_name":"PreToolUse","model":"m","permission_mode":"default",
            "tool_name":"Bash","tool_input":{"command":command}})
        .to_string()
    }

    #[test]
    fn codex_never_runs_what_a_deny_rule_may_cover() {
        // Codex runs an ask unasked: a deny rule that may match what a recursive read or an
        // archive's writes reach must stop the call there.
        let policy = r#"{"permissions":{"deny":["Read(./.env)","Edit(./.toolgate/**)"]}}"#;
        for command in ["grep -r SECRET .", "tar xf x.tar"] {
            let Verdict::Deny(text) = verdict_at(policy, &codex(command), "/home/ada/p") else {
                panic!("{command}: expected deny")
            };
            assert!(
                text.contains("deny rule `") && text.contains("name"),
                "{text}"
            );
        }
        // Every other agent that can ask asks; an ordinary ask is still left to Codex.
        let claude = claude(
            "Bash",
            serde_json::json!({"command":"grep -r SECRET ."}),
            "PreToolUse",
            "default",
        );
        let v = verdict_at(policy, &claude, "/home/ada/p");
        assert!(matches!(v, Verdict::Ask(_)), "{v:?}");
        let v = verdict_at(policy, &codex("git push"), "/home/ada/p");
        assert!(matches!(v, Verdict::Ask(_)), "{v:?}");
    }

    #[test]
    fn codex_never_runs_a_program_of_unknown_effects_beside_a_deny_rule_on_files() {
        // `npm pack` reads every file below `.`, `make` runs its recipes, `npm version`
        // writes `package.json`: toolgate cannot show them to keep a rule on files.
        let policy = r#"{"permissions":{"deny":["Read(./secrets/**)","Edit(./package.json)"]}}"#;
        for command in [
            "npm pack --silent && zcat p.tgz | strings | grep KEY",
            "timeout 3 make",
            "npm version patch --no-git-tag-version",
            "cd sub && cargo fmt",
        ] {
            let Verdict::Deny(text) = verdict_at(policy, &codex(command), "/home/ada/p") else {
                panic!("{command}: expected deny")
            };
            assert!(text.contains("Permission denied"), "{text}");
        }
        let read_rule = r#"{"permissions":{"deny":["Read(./secrets/**)"]}}"#;
        let Verdict::Deny(text) = verdict_at(read_rule, &codex("timeout 3 make"), "/home/ada/p")
        else {
            panic!("make: expected deny")
        };
        assert!(
            text.contains("does not know what `make`") && text.contains("Read(./secrets/**)"),
            "{text}"
        );
        // What the table knows, and a part an allow rule covers, are Codex's to decide.
        let allowed = r#"{"permissions":{"deny":["Read(./secrets/**)"],"allow":["Bash(make)"]}}"#;
        for (policy, command) in [
            (policy, "git push"),
            (policy, "rm -rf build"),
            (allowed, "make && git push"),
        ] {
            let v = verdict_at(policy, &codex(command), "/home/ada/p");
            assert!(matches!(v, Verdict::Ask(_)), "{command}: {v:?}");
        }
        // Without a deny rule on files there is nothing to keep: Codex decides.
        let v = verdict_at(
            r#"{"permissions":{"deny":["Bash(git push:*)"]}}"#,
            &codex("make"),
            "/home/ada/p",
        );
        assert!(matches!(v, Verdict::Ask(_)), "{v:?}");
    }

    #[test]
    fn every_failure_blocks() {
        let policy = Policy::from_json("{}").unwrap();
        let store = TrustStore::new();
        for payload in [
            "",
            "{",
            "[]",
            r#"{"a":1}"#,
            r#"{"hook_event_name":"PreToolUse"}"#,
        ] {
            for agent in [None].into_iter().chain(Agent::ALL.map(Some)) {
                let a = answer_hook(agent, payload, &policy, &store, 0);
                let blocked = a.exit_code == 2
                    || a.stdout.contains("\"deny\"")
                    || a.stdout.contains("\"block\"");
                assert!(blocked, "{agent:?} {payload}: {a:?}");
                assert!(!a.stdout.contains("\"allow\""), "{a:?}");
            }
        }
    }
}
