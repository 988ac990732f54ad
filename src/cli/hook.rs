//! `toolgate hook`: the command an agent runs before each tool call.
//!
//! ```text
//! toolgate hook [--agent claude|copilot|codex|gemini|cursor] [--policy FILE]...
//!               [--agent-settings] [--explain] [--deadline-ms N]
//! ```
//! Reads the agent's payload on stdin, decides with the layered policy files
//! ([`super::layers`]), the agent's own settings ([`super::settings`]) and the trust file
//! ([`super::trust_file`]), appends the decision to the audit log, and prints the agent's
//! answer. Every failure (bad payload, unreadable or invalid policy, trust file or settings,
//! its own deadline, a panic) ends in the agent's blocking answer: the hook never produces an
//! agent's "go ahead" on failure.

use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

use toolgate::agents::project::ProjectHost;
use toolgate::agents::{
    blocking_answer, decide, guess, overlay, parse_call, render, Agent, HookAnswer, HookCall,
    HookEvent, Outcome, Verdict,
};
use toolgate::{Error, Policy};

use super::{flag_value, has_flag, parse_flags};

pub use toolgate::agents::{DEFAULT_DEADLINE_MS, INSTALLED_TIMEOUT_SECS};

/// The largest payload read from stdin.
const MAX_PAYLOAD: u64 = 32 * 1024 * 1024;

static ANSWERED: AtomicBool = AtomicBool::new(false);
static KNOWN: OnceLock<(Agent, HookEvent)> = OnceLock::new();

/// Writes the answer once and exits; later callers (the deadline, a panic) do nothing.
fn emit(answer: &HookAnswer) {
    if ANSWERED.swap(true, Ordering::SeqCst) {
        return;
    }
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(answer.stdout.as_bytes());
    let _ = out.flush();
    if !answer.stderr.is_empty() {
        let mut err = std::io::stderr().lock();
        let _ = writeln!(err, "{}", answer.stderr);
        let _ = err.flush();
    }
    std::process::exit(answer.exit_code);
}

/// Runs the hook. Never returns an error: every failure is answered as a block.
pub fn run(args: &[String]) -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        let answer = blocking_answer(KNOWN.get().copied(), &format!("internal error: {info}"));
        emit(&HookAnswer {
            exit_code: 2,
            ..answer
        });
        std::process::exit(2);
    }));
    let flags = match parse_flags(
        args,
        &["--explain", "--agent-settings"],
        &["--agent", "--policy", "--deadline-ms"],
    ) {
        Ok(f) => f,
        Err(e) => {
            emit(&blocking_answer(None, &e.to_string()));
            return ExitCode::from(2);
        }
    };
    let agent = match flag_value(&flags, "--agent").map(Agent::parse).transpose() {
        Ok(a) => a,
        Err(e) => {
            emit(&blocking_answer(None, &e.to_string()));
            return ExitCode::from(2);
        }
    };
    let deadline = flag_value(&flags, "--deadline-ms")
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(DEFAULT_DEADLINE_MS);
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(deadline));
        emit(&blocking_answer(
            KNOWN.get().copied(),
            &format!("toolgate did not decide within {deadline} ms"),
        ));
    });
    let options = Options {
        agent,
        policies: flags
            .iter()
            .filter(|(f, _)| f == "--policy")
            .filter_map(|(_, v)| v.as_deref().map(PathBuf::from))
            .collect(),
        agent_settings: has_flag(&flags, "--agent-settings"),
        explain: has_flag(&flags, "--explain"),
        inbox_until: inbox_until(deadline),
    };
    let answer = answer(&options);
    emit(&answer);
    ExitCode::from(2)
}

struct Options {
    agent: Option<Agent>,
    policies: Vec<PathBuf>,
    agent_settings: bool,
    explain: bool,
    /// When waiting for the inbox ends: before the hook's own deadline, so the fallback
    /// (the agent's prompt) is what the agent gets.
    inbox_until: (std::time::Instant, u64),
}

/// The end of the inbox wait: the hook's deadline less a margin for answering (a quarter of
/// the deadline, at most one second).
fn inbox_until(deadline_ms: u64) -> (std::time::Instant, u64) {
    let wait = deadline_ms.saturating_sub((deadline_ms / 4).min(1_000));
    (
        std::time::Instant::now() + Duration::from_millis(wait),
        super::files::now_ms().saturating_add(wait),
    )
}

fn answer(o: &Options) -> HookAnswer {
    let mut payload = String::new();
    if let Err(e) = std::io::stdin()
        .take(MAX_PAYLOAD)
        .read_to_string(&mut payload)
    {
        return fail(
            o.agent.and_then(|a| guess(Some(a), "")),
            &format!("cannot read stdin: {e}"),
        );
    }
    let mut call = match parse_call(o.agent, &payload) {
        Ok(c) => c,
        Err(e) => return fail(guess(o.agent, &payload), &e.to_string()),
    };
    // Rules relative to the working directory are anchored at the project, whatever
    // directory the tool runs in (a shell that followed `cd`, Gemini CLI's `dir_path`).
    if let Ok(project) = project_dir(&call) {
        let root = project.to_string_lossy().into_owned();
        for r in &mut call.requests {
            r.root.get_or_insert_with(|| root.clone());
        }
    }
    // Symlinks in paths are followed, so that an allow needs the link and its target to
    // match (a link inside the project to a file outside is not a read inside it).
    for r in &mut call.requests {
        crate::add_realpaths(r);
    }
    let _ = KNOWN.set((call.agent, call.event));
    if call.event == HookEvent::Observe {
        return HookAnswer::default();
    }
    let now = super::files::now_ms();
    let (mut outcome, explain, inbox) = match evaluate(o, &call, now) {
        Ok(x) => x,
        Err(e) => return fail(Some((call.agent, call.event)), &e.to_string()),
    };
    let (edited, account) = match inbox {
        Some(c) => (c.edited, Some(c.account)),
        None => (None, None),
    };
    if let Some(note) = audit(&super::audit_file::record(&call, &outcome, account, now)) {
        match &mut outcome.verdict {
            Verdict::Allow(t) | Verdict::Ask(t) | Verdict::Deny(t) => t.push_str(&note),
            Verdict::Defer => {}
        }
    }
    let mut answer = render(call.agent, call.event, &outcome.verdict);
    if let Some(input) = edited {
        toolgate::agents::inbox::with_updated_input(&mut answer, input);
    }
    if o.explain {
        let (name, text) = super::audit_file::verdict_parts(&outcome.verdict);
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
    let record = super::audit_file::failure_record(error, super::files::now_ms());
    let note = audit(&record).unwrap_or_default();
    blocking_answer(known, &format!("{error}{note}"))
}

/// Appends to the audit log. A failure never changes the decision: it goes to stderr, and the
/// returned note is added to the decision's reason.
fn audit(record: &serde_json::Value) -> Option<String> {
    let result = super::audit_file::path().and_then(|p| super::audit_file::append(&p, record));
    let e = result.err()?;
    eprintln!("toolgate: the audit log was not written: {e}");
    Some(format!(" (toolgate could not write its audit log: {e})"))
}

/// The outcome, the lines `--explain` prints, and what asking the inbox came to (when it was
/// asked).
type Evaluated = (Outcome, Vec<String>, Option<super::inbox::Consulted>);

fn evaluate(o: &Options, call: &HookCall, now: u64) -> Result<Evaluated, Error> {
    let started = std::time::Instant::now();
    let project = project_dir(call)?;
    let sources = super::layers::sources(&project, &o.policies)?;
    let mut merged = super::layers::load(&sources)?;
    let settings = super::settings::add(
        &mut merged.document,
        call.agent,
        &project,
        o.agent_settings,
        std::env::consts::OS,
    )?;
    let mut explain = vec![format!("project {}", project.display())];
    for (path, _) in merged.read.iter().chain(&settings.read) {
        explain.push(format!("read {path}"));
    }
    for s in &settings.skipped {
        explain.push(format!("skipped a rule toolgate cannot read: {s}"));
    }
    let read_at = started.elapsed();
    // Examples are not run here (`toolgate test` runs them).
    let mut policy = Policy::compile_unchecked(std::mem::take(&mut merged.document))?;
    // Deny and ask rules written through a symlink (relative ones placed at the call's
    // project) meet the file under either spelling.
    crate::add_rule_realpaths(&mut policy, &call.requests);
    let compiled_at = started.elapsed();
    let trust_path = super::trust_file::path()?;
    let project_key = project.to_string_lossy();
    let store = super::trust_file::load(&trust_path, &project_key, &call.session_id, &policy, now)?;
    let overlay = overlay(&store, call, now);
    if !overlay.allow_rules.is_empty() {
        explain.push(format!("{} grant(s) apply", overlay.allow_rules.len()));
    }
    let mut outcome = decide(call, &policy, &overlay);
    explain.push(format!(
        "timing: files read {:.2} ms, policy compiled {:.2} ms, decided {:.2} ms",
        read_at.as_secs_f64() * 1000.0,
        (compiled_at - read_at).as_secs_f64() * 1000.0,
        (started.elapsed() - compiled_at).as_secs_f64() * 1000.0
    ));
    if settings.incomplete && matches!(outcome.verdict, Verdict::Allow(_)) {
        outcome.verdict = Verdict::Defer;
        explain.push(
            "allow not passed on: the agent's settings have rules toolgate cannot read".into(),
        );
    }
    let inbox = super::inbox::consult(
        call,
        &mut outcome,
        &super::inbox::Context {
            policy: &policy,
            overlay: &overlay,
            project: &project_key,
            trust_path: &trust_path,
            now_ms: now,
            until: o.inbox_until.0,
            until_ms: o.inbox_until.1,
        },
        &mut explain,
    );
    // The process ends right after answering: freeing the compiled policy would only cost
    // time (a few percent of a run with a thousand rules).
    std::mem::forget(policy);
    Ok((outcome, explain, inbox))
}

/// The project directory ([`toolgate::agents::project`]), over this process's environment
/// and file system.
pub fn project_dir(call: &HookCall) -> Result<PathBuf, Error> {
    toolgate::agents::project::project_dir(call, &LocalFiles)
}

/// The environment and file system of this process, as finding the project asks them.
struct LocalFiles;

impl ProjectHost for LocalFiles {
    /// A value that is not UTF-8 is passed over (the project is then searched for), never
    /// mangled into a directory that holds no policy.
    fn env(&self, name: &str) -> Option<String> {
        std::env::var_os(name).and_then(|v| v.into_string().ok())
    }
    fn is_dir(&self, path: &Path) -> bool {
        path.is_dir()
    }
    fn exists(&self, path: &Path) -> bool {
        path.exists()
    }
    fn current_dir(&self) -> Option<PathBuf> {
        std::env::current_dir().ok()
    }
}
