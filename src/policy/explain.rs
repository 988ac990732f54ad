//! Explanations: a decision together with every rule that was consulted for it.

use serde::{Deserialize, Serialize};

use crate::decision::{Decision, Layer, RuleList, TrustOverlay};
use crate::mode::Mode;
use crate::request::Request;
use crate::rule::{star_match, ToolSelector};
use crate::tool::ToolKind;

use super::decide::decide;
use super::evaluate::Call;
use super::trust::TrustIndex;
use super::{Entry, Policy};

/// A decision and the rules behind it, for people (`toolgate explain`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Explanation {
    /// The decision.
    pub decision: Decision,
    /// The mode that was in force (after `disableBypassPermissionsMode`).
    pub mode: Mode,
    /// The tool's name as requested.
    pub tool: String,
    /// What the tool was taken to be (`shell`, `read`, `mcp`, `other`, ...).
    pub kind: ToolKind,
    /// Every rule that applies to this tool, and every rule that matched, in precedence
    /// order (deny, ask, allow; layers from managed to trust).
    pub rules: Vec<ConsultedRule>,
}

/// One rule consulted for an explanation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConsultedRule {
    /// The rule as written.
    pub rule: String,
    /// Its list.
    pub list: RuleList,
    /// Its layer.
    pub layer: Layer,
    /// Its index in the list.
    pub index: usize,
    /// For Copilot flags, the flag (`denyTools[0]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flag: Option<String>,
    /// Whether it matched this call.
    pub matched: bool,
    /// False when the rule is kept for reference only (an allow glob that approves nothing,
    /// an allow rule outside a managed-only policy).
    pub active: bool,
    /// Where the rule was imported from (`toolgate import`), when it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<super::Provenance>,
}

pub(crate) fn explain(policy: &Policy, request: &Request, trust: &TrustOverlay) -> Explanation {
    let overlay = TrustIndex::build(policy, trust);
    let mut call = Call::new(policy, request, overlay.as_ref());
    call.record = true;
    let decision = decide(&call, Some(trust));
    let mode = call.effective(Some(trust)).mode;
    let hits = call.hits.borrow().clone();
    let mut rules = Vec::new();
    for list in [RuleList::Deny, RuleList::Ask, RuleList::Allow] {
        let mut add = |entries: &[Entry], from_trust: bool| {
            for (id, e) in entries.iter().enumerate() {
                if e.list != list {
                    continue;
                }
                let matched = hits.contains(&(from_trust, id));
                if matched || targets(e, &call) {
                    rules.push(ConsultedRule {
                        rule: e.text.clone(),
                        list: e.list,
                        layer: e.layer,
                        index: e.index,
                        flag: e.flag.clone(),
                        matched,
                        active: e.active,
                        provenance: policy.provenance(&e.path).cloned(),
                    });
                }
            }
        };
        add(&policy.entries, false);
        if let Some(t) = &overlay {
            add(t.entries(), true);
        }
        rules.extend(super::dangers::consulted(&call, list));
    }
    Explanation {
        decision,
        mode,
        tool: crate::shown(&request.tool),
        kind: call.tool.defaults.kind,
        rules,
    }
}

/// Whether a rule is about the call's tool at all (whether or not its specifier matched).
fn targets(e: &Entry, call: &Call<'_>) -> bool {
    let q = call.query();
    match e.rule.tool() {
        sel @ ToolSelector::Builtin { .. } => sel
            .covered_kinds(e.list != RuleList::Allow)
            .contains(&q.kind),
        ToolSelector::Mcp { server, .. } => q.mcp.is_some_and(|(s, _)| s == server),
        ToolSelector::Name(n) => n == q.name || q.mcp.is_some_and(|(s, _)| s == n),
        ToolSelector::Glob(g) => star_match(g, q.name),
    }
}
