//! `runHook` and `blockingAnswer`: the npm package's `toolgate hook`, deciding exactly as the
//! native `toolgate hook` does.
//!
//! The policy layers, the agent's settings, the trust file and the audit record are the
//! native hook's own modules (`src/cli/`), compiled here against [`files`], which reaches the
//! file system and the environment through a [`HookHost`] that the JS bin implements with
//! `node:fs` and `process.env`. The JS side does I/O only; every decision and every answer
//! text comes from the same Rust code as the native binary's.

mod files;
mod host;

#[allow(
    dead_code,
    reason = "the native hook's module; the npm bin uses part of it"
)]
#[path = "../../cli/audit_file.rs"]
mod audit_file;
#[allow(
    dead_code,
    reason = "the native hook's module; the npm bin uses part of it"
)]
#[path = "../../cli/layers.rs"]
mod layers;
#[allow(
    dead_code,
    reason = "the native hook's module; the npm bin uses part of it"
)]
#[path = "../../cli/settings.rs"]
mod settings;
#[allow(
    dead_code,
    reason = "the native hook's module; the npm bin uses part of it"
)]
#[path = "../../cli/trust_file.rs"]
mod trust_file;

use std::path::{Path, PathBuf};

use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::*;

pub use host::HookHost;

use crate::agents::project::ProjectHost;
use crate::agents::{
    blocking_answer, decide, guess, overlay, parse_call, render, Agent, HookAnswer, HookCall,
    HookEvent, Outcome, Verdict,
};
use crate::{Error, ErrorKind, Policy};

use crate::agents::DEFAULT_DEADLINE_MS;

/// The largest payload read from stdin.
const MAX_PAYLOAD: usize = 32 * 1024 * 1024;

#[wasm_bindgen(typescript_custom_section)]
const TS_HOOK: &'static str = r#"
/** What a hook process prints and how it exits. */
export interface HookAnswer {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** The file system and environment `runHook` reads through (the npm bin's `node:fs`). */
export interface HookHost {
  /**
   * A file's text, opened without waiting (`O_NONBLOCK`) and read only when it is a regular file of at most
   * `max` bytes; `null` when it does not exist. Throws an Error with `code` `NOT_REGULAR` (a FIFO, a device),
   * `TOO_LARGE`, or else one whose message is the OS error.
   */
  read(path: string, max: number): string | null;
  /** An environment variable, or `undefined`. */
  env(name: string): string | undefined;
  /** Whether `path` is a directory. */
  isDir(path: string): boolean;
  /** Whether `path` exists. */
  exists(path: string): boolean;
  /**
   * Appends `text` to the file, creating it and its directories, opened without waiting; throws an Error with
   * `what` (`create`, `open`, `append to`) and `path`, and `code` `NOT_REGULAR` for a file that is not a regular one.
   */
  append(path: string, text: string): void;
  /** Unix milliseconds. */
  now(): number;
  /** A monotonic clock in milliseconds, for the timings `--explain` prints. */
  clock(): number;
  /** Where a path really leads, symlinks resolved (`realpath`); `null` when it cannot be resolved. */
  realpath(path: string): string | null;
  /**
   * What is at `path`, its last name not followed (`lstat`): a symbolic link's target (`readlink`), `true` for
   * anything else, `null` when nothing is; throws when it cannot tell (a link whose target is not UTF-8 among them).
   */
  entry(path: string): string | true | null;
  /** The names in a directory, without `.` and `..`: `[]` when it does not exist or is not a directory, `null` when it cannot be listed. */
  listDir(path: string): string[] | null;
  /** The operating system, as Node's `process.platform` names it (`linux`, `darwin`, `win32`). */
  platform(): string;
  /** The process's working directory (`process.cwd()`): where the agent started the hook. A name with U+FFFD counts as unknown. */
  cwd(): string;
}
"#;

/// Runs `toolgate hook ARGS` on the payload bytes read from stdin, through `host`. Never
/// throws: every failure is the agent's blocking answer. The caller prints `stdout` as it is,
/// `stderr` followed by a newline when it is not empty, and exits with `exitCode`.
#[wasm_bindgen(js_name = runHook, unchecked_return_type = "HookAnswer")]
pub fn run_hook(
    args: Vec<String>,
    payload: &[u8],
    host: HookHost,
    inbox_reply: Option<String>,
    inbox_fallback: Option<String>,
) -> JsValue {
    host::install(host);
    let step = match (&inbox_reply, &inbox_fallback) {
        (Some(line), _) => InboxStep::Reply(Ok(line)),
        (None, Some(why)) => InboxStep::Reply(Err(why)),
        (None, None) => InboxStep::Skip,
    };
    let answer = answer_args(&args, payload, &step);
    host::remove();
    answer_js(&answer)
}

/// The message for the approval inbox (`toolgate-inbox/1`, JSON text) when this call asks and
/// the inbox can take it, else `undefined`. Reads the same files as `runHook` and writes
/// nothing. The caller sends it (with its `pid`), then passes the inbox's reply line (or why
/// there is none) to `runHook`, which decides again and applies the answer. The npm hook
/// offers no "remember" answers: `answers` is `allowOnce` and `deny`.
#[wasm_bindgen(js_name = hookInboxMessage)]
pub fn hook_inbox_message(
    args: Vec<String>,
    payload: &[u8],
    host: HookHost,
    deadline: f64,
) -> Option<String> {
    host::install(host);
    let message = inbox_message(&args, payload, ms_of(deadline));
    host::remove();
    message
}

#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "a Unix time in ms, clamped at zero"
)]
fn ms_of(v: f64) -> u64 {
    v.max(0.0) as u64
}

fn inbox_message(args: &[String], payload: &[u8], deadline: u64) -> Option<String> {
    let o = options(args).ok()?;
    let payload = std::str::from_utf8(payload.get(..MAX_PAYLOAD).unwrap_or(payload)).ok()?;
    let mut call = parse_call(o.agent, payload).ok()?;
    anchor_at_project(&mut call);
    for r in &mut call.requests {
        add_realpaths(r);
    }
    if call.event == HookEvent::Observe {
        return None;
    }
    let (_, _, _, message) =
        evaluate(&o, &call, files::now_ms(), &InboxStep::Probe(deadline)).ok()?;
    message
}

/// What `evaluate` does about the approval inbox.
enum InboxStep<'a> {
    /// Nothing.
    Skip,
    /// Build the message for the inbox, with this deadline (Unix ms).
    Probe(u64),
    /// Apply the inbox's reply line, or why there is none.
    Reply(Result<&'a String, &'a String>),
}

/// The blocking answer for a failure outside the engine (the JS side's own errors and its
/// deadline): in the format of `agent` (a name, or detected from `payload`) when it can be
/// told, else exit code 2 with the reason on stderr.
#[wasm_bindgen(js_name = blockingAnswer, unchecked_return_type = "HookAnswer")]
pub fn blocking_answer_js(agent: Option<String>, payload: Option<String>, reason: &str) -> JsValue {
    let agent = agent.as_deref().and_then(|a| Agent::parse(a).ok());
    let known = guess(agent, payload.as_deref().unwrap_or(""));
    answer_js(&blocking_answer(known, reason))
}

/// The answer as a plain JS object. Setting properties on a fresh object cannot fail.
fn answer_js(answer: &HookAnswer) -> JsValue {
    let out = Object::new();
    let _ = Reflect::set(&out, &"stdout".into(), &answer.stdout.as_str().into());
    let _ = Reflect::set(&out, &"stderr".into(), &answer.stderr.as_str().into());
    let _ = Reflect::set(&out, &"exitCode".into(), &answer.exit_code.into());
    out.into()
}

/// The options of `toolgate hook`.
struct Options {
    agent: Option<Agent>,
    policies: Vec<PathBuf>,
    agent_settings: bool,
    explain: bool,
}

fn usage_error(message: &str) -> Error {
    Error::new(ErrorKind::InvalidRequest, message.to_owned()).with_hint("run `toolgate --help`")
}

/// Reads the flags as the native hook does; the deadline is the JS side's to keep.
fn options(args: &[String]) -> Result<Options, Error> {
    let mut o = Options {
        agent: None,
        policies: Vec::new(),
        agent_settings: false,
        explain: false,
    };
    let mut agent = None;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--explain" => o.explain = true,
            "--agent-settings" => o.agent_settings = true,
            "--agent" | "--policy" | "--deadline-ms" => {
                let Some(v) = it.next() else {
                    return Err(usage_error(&format!("`{flag}` needs a value")));
                };
                match flag.as_str() {
                    "--agent" => agent = Some(v),
                    "--policy" => o.policies.push(PathBuf::from(v)),
                    _ => {}
                }
            }
            other => return Err(usage_error(&format!("unexpected argument `{other}`"))),
        }
    }
    // The last `--agent` counts, and is checked once every flag has been read.
    o.agent = agent.map(|a| Agent::parse(a)).transpose()?;
    Ok(o)
}

fn answer_args(args: &[String], payload: &[u8], step: &InboxStep<'_>) -> HookAnswer {
    match options(args) {
        Ok(o) => answer(&o, payload, step),
        Err(e) => blocking_answer(None, &e.to_string()),
    }
}

fn answer(o: &Options, payload: &[u8], step: &InboxStep<'_>) -> HookAnswer {
    let payload = payload.get(..MAX_PAYLOAD).unwrap_or(payload);
    let Ok(payload) = std::str::from_utf8(payload) else {
        return fail(
            o.agent.and_then(|a| guess(Some(a), "")),
            "cannot read stdin: stream did not contain valid UTF-8",
        );
    };
    let mut call = match parse_call(o.agent, payload) {
        Ok(c) => c,
        Err(e) => return fail(guess(o.agent, payload), &e.to_string()),
    };
    // Symlinks in paths are followed, so that an allow needs the link and its target to
    // match (a link inside the project to a file outside is not a read inside it).
    anchor_at_project(&mut call);
    for r in &mut call.requests {
        add_realpaths(r);
    }
    if call.event == HookEvent::Observe {
        return HookAnswer::default();
    }
    let now = files::now_ms();
    let (mut outcome, explain, inbox, _) = match evaluate(o, &call, now, step) {
        Ok(x) => x,
        Err(e) => return fail(Some((call.agent, call.event)), &e.to_string()),
    };
    let (edited, account) = match inbox {
        Some(a) => (a.edited, Some(a.account)),
        None => (None, None),
    };
    if let Some(note) = audit(&audit_file::record(&call, &outcome, account, now)) {
        match &mut outcome.verdict {
            Verdict::Allow(t) | Verdict::Ask(t) | Verdict::Deny(t) => t.push_str(&note),
            Verdict::Defer => {}
        }
    }
    let mut answer = render(call.agent, call.event, &outcome.verdict);
    if let Some(input) = edited {
        crate::agents::inbox::with_updated_input(&mut answer, input);
    }
    if o.explain {
        let (name, text) = audit_file::verdict_parts(&outcome.verdict);
        let mut lines = explain;
        lines.push(format!(
            "agent {} event {} tool `{}`: {name} {text}",
            call.agent.name(),
            call.event.as_str(),
            call.tool
        ));
        if !answer.stderr.is_empty() {
            lines.push(answer.stderr.clone());
        }
        answer.stderr = lines.join("\n");
    }
    answer
}

/// The blocking answer for a failure, recorded in the audit log.
fn fail(known: Option<(Agent, HookEvent)>, error: &str) -> HookAnswer {
    let record = audit_file::failure_record(error, files::now_ms());
    let note = audit(&record).unwrap_or_default();
    blocking_answer(known, &format!("{error}{note}"))
}

/// Appends to the audit log. A failure never changes the decision: it goes to stderr, and the
/// returned note is added to the decision's reason.
fn audit(record: &serde_json::Value) -> Option<String> {
    let result = audit_path().and_then(|p| host::append_line(&p, record));
    let e = result.err()?;
    host::warn(&format!("toolgate: the audit log was not written: {e}"));
    Some(format!(" (toolgate could not write its audit log: {e})"))
}

/// `$TOOLGATE_AUDIT_LOG`, or `audit.jsonl` in the state directory.
fn audit_path() -> Result<PathBuf, Error> {
    match files::path_var("TOOLGATE_AUDIT_LOG")? {
        Some(p) => Ok(PathBuf::from(p)),
        None => Ok(files::state_dir()?.join("audit.jsonl")),
    }
}

/// `$TOOLGATE_TRUST_FILE`, or `trust.json` in the state directory.
fn trust_path() -> Result<PathBuf, Error> {
    match files::path_var("TOOLGATE_TRUST_FILE")? {
        Some(p) => Ok(PathBuf::from(p)),
        None => Ok(files::state_dir()?.join("trust.json")),
    }
}

/// The outcome, the lines `--explain` prints, what the inbox's reply came to, and
/// the message for the inbox (when probing).
type Evaluated = (Outcome, Vec<String>, Option<InboxAnswered>, Option<String>);

fn evaluate(
    o: &Options,
    call: &HookCall,
    now: u64,
    step: &InboxStep<'_>,
) -> Result<Evaluated, Error> {
    let started = host::clock_ms();
    let project = project_dir(call)?;
    let sources = layers::sources(&project, &o.policies)?;
    let mut merged = layers::load(&sources)?;
    let settings = settings::add(
        &mut merged.document,
        call.agent,
        &project,
        o.agent_settings,
        &host::os(),
    )?;
    let mut explain = vec![format!("project {}", project.display())];
    for (path, _) in merged.read.iter().chain(&settings.read) {
        explain.push(format!("read {path}"));
    }
    for s in &settings.skipped {
        explain.push(format!("skipped a rule toolgate cannot read: {s}"));
    }
    let read_at = host::clock_ms() - started;
    // Examples are not run here (`toolgate test` runs them).
    let mut policy = Policy::compile_unchecked(std::mem::take(&mut merged.document))?;
    // Deny and ask rules written through a symlink (relative ones placed at the call's
    // project) meet the file under either spelling, as in the native hook.
    policy.add_rule_realpaths_for(&call.requests, host::real_path, host::list_dir);
    let compiled_at = host::clock_ms() - started;
    let trust_path = trust_path()?;
    let project_key = project.to_string_lossy();
    let store = trust_file::load(&trust_path, &project_key, &call.session_id, &policy, now)?;
    let overlay = overlay(&store, call, now);
    if !overlay.allow_rules.is_empty() {
        explain.push(format!("{} grant(s) apply", overlay.allow_rules.len()));
    }
    let mut outcome = decide(call, &policy, &overlay);
    explain.push(format!(
        "timing: files read {read_at:.2} ms, policy compiled {:.2} ms, decided {:.2} ms",
        compiled_at - read_at,
        host::clock_ms() - started - compiled_at
    ));
    if settings.incomplete && matches!(outcome.verdict, Verdict::Allow(_)) {
        outcome.verdict = Verdict::Defer;
        explain.push(
            "allow not passed on: the agent's settings have rules toolgate cannot read".into(),
        );
    }
    let (inbox, message) = inbox_step(step, call, &mut outcome, &policy, &overlay, &project_key);
    // The process ends right after answering: freeing the compiled policy would only cost
    // time (a few percent of a run with a thousand rules).
    std::mem::forget(policy);
    Ok((outcome, explain, inbox, message))
}

fn inbox_step(
    step: &InboxStep<'_>,
    call: &HookCall,
    outcome: &mut Outcome,
    policy: &Policy,
    overlay: &crate::TrustOverlay,
    project: &str,
) -> (Option<InboxAnswered>, Option<String>) {
    use crate::agents::inbox::{apply, ask_message, parse_reply};
    let deadline = match step {
        InboxStep::Skip => return (None, None),
        InboxStep::Probe(d) => *d,
        InboxStep::Reply(_) => 0,
    };
    let Some(message) = ask_message(call, outcome, policy, project, false, deadline) else {
        return (None, None);
    };
    let reply = match step {
        InboxStep::Reply(Ok(line)) => parse_reply(line),
        InboxStep::Reply(Err(why)) => Err((*why).clone()),
        InboxStep::Skip | InboxStep::Probe(_) => {
            return (None, serde_json::to_string(&message).ok())
        }
    };
    let applied = apply(call, &message, reply.clone(), policy, overlay);
    let account = audit_file::inbox_account(&reply, &applied);
    outcome.verdict = applied.verdict;
    let answered = InboxAnswered {
        edited: applied.edited,
        account,
    };
    (Some(answered), None)
}

/// What the inbox's reply came to, besides the verdict.
struct InboxAnswered {
    /// Arguments a person edited, to run instead of the agent's.
    edited: Option<serde_json::Value>,
    /// The inbox's part, for the audit record ([`audit_file::inbox_account`]).
    account: serde_json::Value,
}

/// Anchors the requests' rules at the project directory ([`crate::Request::root`]), whatever
/// directory the tool runs in, as the native hook does.
fn anchor_at_project(call: &mut HookCall) {
    if let Ok(project) = project_dir(call) {
        let root = project.to_string_lossy().into_owned();
        for r in &mut call.requests {
            r.root.get_or_insert_with(|| root.clone());
        }
    }
}

/// Records where symlinks in the request's paths (and in the files a shell call's globs
/// name) really lead, as the native CLI does, over the host's `realpath` and `listDir`, so
/// an allow needs both the link and its target to match.
fn add_realpaths(request: &mut crate::Request) {
    let read = |path: &str| {
        host::read(path, crate::agents::MAX_FILE_BYTES)
            .ok()
            .flatten()
    };
    request.add_realpaths_reading(host::real_path, host::list_dir, read, host::env);
}

/// The project directory ([`crate::agents::project`]), over the host's environment and file
/// system, as the native hook finds it.
fn project_dir(call: &HookCall) -> Result<PathBuf, Error> {
    crate::agents::project::project_dir(call, &HostFiles)
}

/// The host's environment and file system, as finding the project asks them.
struct HostFiles;

impl ProjectHost for HostFiles {
    /// A value Node decoded with U+FFFD (it was not UTF-8) is passed over, as the native
    /// hook passes over a value that is not UTF-8: the project is then searched for.
    fn env(&self, name: &str) -> Option<String> {
        host::env(name).filter(|v| !v.contains(char::REPLACEMENT_CHARACTER))
    }
    fn is_dir(&self, path: &Path) -> bool {
        host::is_dir(path)
    }
    fn exists(&self, path: &Path) -> bool {
        host::exists(path)
    }
    fn current_dir(&self) -> Option<PathBuf> {
        host::current_dir()
    }
}

/// The deadline `--deadline-ms` asks for (the JS side keeps it), as the native hook reads it.
#[wasm_bindgen(js_name = hookDeadlineMs)]
pub fn hook_deadline_ms(args: Vec<String>) -> f64 {
    let mut it = args.iter();
    let mut deadline = None;
    while let Some(flag) = it.next() {
        if flag == "--deadline-ms" {
            deadline = it.next().map(|v| v.parse::<u64>().ok());
        }
    }
    #[allow(
        clippy::cast_precision_loss,
        reason = "deadlines are far below 2^53 ms"
    )]
    let ms = deadline.flatten().unwrap_or(DEFAULT_DEADLINE_MS) as f64;
    ms
}
