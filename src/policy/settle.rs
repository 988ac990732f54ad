//! Applying the mode: from why a call would get its effect ([`Basis`]) to the effect and
//! the reason.

use crate::decision::{Decider, Effect, Reason};
use crate::feedback::{plan_mode_denial, strict_mode_denial};
use crate::mode::Mode;
use crate::tool::{Level, ToolKind};

/// Why a call (or one part of a shell call) gets its effect, before the mode is applied.
pub(crate) enum Basis {
    Denied(Reason),
    AskRule(Reason),
    Critical(String),
    Protected(String),
    Allowed(Reason),
    ReadOnly(String),
    Default {
        level: Level,
        inside: bool,
        reason: Reason,
    },
    Unanalysable(String),
}

impl Basis {
    pub(crate) fn analysable_and_safe(&self) -> bool {
        !matches!(
            self,
            Basis::Critical(_) | Basis::Protected(_) | Basis::Unanalysable(_)
        )
    }
}

/// The mode in force for one call.
#[derive(Clone, Debug)]
pub(crate) struct Effective {
    pub mode: Mode,
    pub agent_bypass: Option<String>,
}

impl Effective {
    fn bypass(&self) -> bool {
        self.mode == Mode::BypassPermissions || self.agent_bypass.is_some()
    }
    /// `plan` and `dontAsk` never ask: what would ask is denied. Agent bypass does not change
    /// that; it allows what would ask by default, and the rest (ask rules, critical paths,
    /// unanalysable calls) is still denied.
    fn strict(&self) -> bool {
        matches!(self.mode, Mode::Plan | Mode::DontAsk)
    }
    fn reason(&self, text: String) -> Reason {
        let decider = match &self.agent_bypass {
            Some(agent) => Decider::AgentBypass {
                agent: agent.clone(),
            },
            None => Decider::Mode { mode: self.mode },
        };
        Reason { decider, text }
    }
}

/// Applies the mode to a basis: the effect and the reason.
pub(crate) fn settle(basis: Basis, mode: &Effective, kind: ToolKind) -> (Effect, Reason) {
    let strict_deny = |why: &str| {
        (
            Effect::Deny,
            mode.reason(strict_mode_denial(why, mode.mode)),
        )
    };
    let bypass_allow = |why: &str| {
        (
            Effect::Allow,
            mode.reason(format!("{why}; allowed by bypass")),
        )
    };
    // What would ask because of something explicit (an ask rule, a critical or protected
    // path, an unanalysable call) asks, or in `plan` and `dontAsk` is denied with the same
    // decider, so the reason still names what made the call unsafe to run unasked.
    let ask_or_deny = |reason: Reason| {
        if mode.strict() {
            let text = strict_mode_denial(&reason.text, mode.mode);
            (
                Effect::Deny,
                Reason {
                    decider: reason.decider,
                    text,
                },
            )
        } else {
            (Effect::Ask, reason)
        }
    };
    match basis {
        Basis::Denied(r) => (Effect::Deny, r),
        Basis::AskRule(r) => ask_or_deny(r),
        Basis::Critical(path) => ask_or_deny(Reason {
            text: format!("destructive command on critical path `{path}`"),
            decider: Decider::CriticalPath { path },
        }),
        Basis::Unanalysable(detail) => ask_or_deny(Reason {
            text: format!("cannot be analysed: {detail}"),
            decider: Decider::Unanalysable { detail },
        }),
        Basis::Protected(path) => {
            // `dir/**`: a command writes names it does not give below `dir` (an archive's,
            // a checkout's), any of which may be a protected path; `start*`: a name it
            // composes from `start` (`gzip -S rc ~/.bash`).
            let text = if let Some(dir) = path.strip_suffix("/**") {
                let dir = if dir.is_empty() { "/" } else { dir };
                format!(
                    "it writes files below `{dir}` whose names it does not give (an archive's, \
                     a commit's, a copied or moved tree's, a link's), and any of them may be a \
                     protected path"
                )
            } else if let Some(start) = path.strip_suffix('*') {
                format!(
                    "it may write a file whose name it makes from `{start}` (a suffix or a \
                     directory added to it), and such a name may be a protected path"
                )
            } else {
                format!("`{path}` is a protected path")
            };
            if mode.bypass() {
                bypass_allow(&text)
            } else {
                ask_or_deny(Reason {
                    decider: Decider::ProtectedPath { path },
                    text,
                })
            }
        }
        Basis::Allowed(r) if mode.mode == Mode::Plan && changes_things(kind) => {
            (Effect::Deny, mode.reason(plan_mode_denial(&r.text)))
        }
        Basis::Allowed(r) => (Effect::Allow, r),
        Basis::ReadOnly(text) => (
            Effect::Allow,
            Reason {
                decider: Decider::ToolDefault {
                    tool: "bash".to_owned(),
                },
                text,
            },
        ),
        Basis::Default {
            level,
            inside,
            reason,
        } => match level {
            Level::Deny => (Effect::Deny, reason),
            Level::Allow if mode.mode == Mode::Plan && kind.writes_files() => {
                (Effect::Deny, mode.reason(plan_mode_denial(&reason.text)))
            }
            Level::Allow => (Effect::Allow, reason),
            Level::Prompt if mode.bypass() => bypass_allow(&reason.text),
            Level::Prompt if mode.mode == Mode::Plan && kind.writes_files() => (
                Effect::Deny,
                mode.reason("plan mode is read-only: writes, edits and deletes are denied".into()),
            ),
            Level::Prompt if mode.strict() => strict_deny(&reason.text),
            Level::Prompt
                if mode.mode == Mode::AcceptEdits
                    && inside
                    && matches!(kind, ToolKind::Write | ToolKind::Edit) =>
            {
                (
                    Effect::Allow,
                    mode.reason(
                        "acceptEdits mode allows edits inside the working directory".into(),
                    ),
                )
            }
            Level::Prompt => (Effect::Ask, reason),
        },
    }
}

/// Whether an allowed call of `kind` may change things, so that plan mode denies it. Shell
/// parts reach here as `Allowed` only when they are not read-only built-ins (those are
/// `ReadOnly`), and redirection targets are writes.
fn changes_things(kind: ToolKind) -> bool {
    kind.writes_files() || kind == ToolKind::Shell
}
