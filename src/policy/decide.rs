//! Deciding one request: resolve the tool and its subject ([`Call`]), look the rules up,
//! apply protected paths, the tool's defaults and the mode, then the danger classes.
//!
//! This module sits above the parts it combines: [`Call`] (in `evaluate`), the shell view
//! and the danger step all stand on `evaluate` alone, so no module imports one that
//! imports it back.

use crate::decision::{Decision, Effect, RuleList, TrustOverlay};
use crate::request::Request;
use crate::tool::ToolKind;
use crate::Risk;

use super::dangers::Known;
use super::evaluate::{Call, Subject};
use super::settle::{settle, Basis};
use super::trust::TrustIndex;
use super::Policy;

/// Evaluates `request`; `trust` is the compiled overlay, `overlay` the raw one (for
/// per-agent bypass).
pub(crate) fn evaluate(
    policy: &Policy,
    request: &Request,
    trust: Option<&TrustIndex>,
    overlay: Option<&TrustOverlay>,
) -> Decision {
    let call = Call::new(policy, request, trust);
    decide(&call, overlay)
}

/// The decision for `call`, its texts made safe to show ([`crate::shown`]).
pub(crate) fn decide(call: &Call<'_>, overlay: Option<&TrustOverlay>) -> Decision {
    let mut decision = decide_unescaped(call, overlay);
    decision.escape_shown_text();
    decision
}

fn decide_unescaped(call: &Call<'_>, overlay: Option<&TrustOverlay>) -> Decision {
    let mode = call.effective(overlay);
    let kind = call.tool.defaults.kind;
    if kind == ToolKind::Shell {
        let (decision, commands) = super::shell_view::decide_shell(call, &mode);
        let known = commands.map_or(Known::Nothing, Known::LineCommands);
        return super::dangers::finish(call, &mode, known, decision);
    }
    let subject = call.subject();
    let basis = basis_for(call, &subject);
    let safe = basis.analysable_and_safe();
    let risk = match basis {
        Basis::Protected(_) | Basis::Critical(_) => Risk::High,
        _ => call.tool.defaults.risk,
    };
    // A remembered answer never reaches a change outside the project's roots.
    let changes_outside = kind.writes_files()
        && matches!(&subject, Subject::Paths(paths) if paths.iter().any(|p| !call.inside(p)));
    let (effect, reason) = settle(basis, &mode, kind);
    let decision = Decision {
        effect,
        risk,
        trustable: effect != Effect::Deny
            && safe
            && !changes_outside
            && call.tool.defaults.trustable,
        reason,
        parts: Vec::new(),
        dangers: Vec::new(),
    };
    super::dangers::finish(call, &mode, Known::Subject(&subject), decision)
}

fn basis_for(call: &Call<'_>, subject: &Subject) -> Basis {
    if let Some(r) = call.lookup(RuleList::Deny, subject) {
        return Basis::Denied(r);
    }
    if let Some(r) = call.lookup(RuleList::Ask, subject) {
        return Basis::AskRule(r);
    }
    if let (Subject::Paths(roots), ToolKind::Glob | ToolKind::Grep) =
        (subject, call.tool.defaults.kind)
    {
        if let Some(r) = call.search_reach(roots) {
            return Basis::AskRule(r);
        }
        if let Some(r) = call.search_finds_secret(roots) {
            return Basis::AskRule(r);
        }
    }
    if let Subject::Bad(why) | Subject::Flawed(_, why) = subject {
        return Basis::Unanalysable(why.clone());
    }
    if let Some(why) = match subject {
        Subject::Url(u) => u.doubt(),
        _ => None,
    } {
        return Basis::Unanalysable(why.to_owned());
    }
    if !call.request.input.is_object() && !call.request.input.is_null() {
        return Basis::Unanalysable("`input` is not an object".to_owned());
    }
    let paths: &[String] = match subject {
        Subject::Paths(p) => p,
        _ => &[],
    };
    if call.tool.defaults.kind.writes_files() {
        let cwd = call.cwd.as_deref();
        if let Some(p) = paths
            .iter()
            .find(|p| call.reaches_protected(p, cwd, crate::shell::Reach::Name))
        {
            return Basis::Protected(p.clone());
        }
    }
    if let Some(r) = call.secret_read(paths) {
        return Basis::AskRule(r);
    }
    if let Some(r) = call.lookup(RuleList::Allow, subject) {
        return Basis::Allowed(r);
    }
    call.default_basis(paths)
}
