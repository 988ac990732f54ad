//! Evaluating one request: resolve the tool and its subject, look the rules up class by
//! class, then apply protected paths, the tool's defaults and the mode.

use std::cell::RefCell;

use crate::decision::{Decider, Decision, Effect, Reason, RuleList, TrustOverlay};
use crate::mode::Mode;
use crate::request::Request;
use crate::rule::FetchTarget;
use crate::tool::{Level, ToolKind};
use crate::Risk;

use super::index::{ClassIndex, Id, ToolQuery};
use super::resolve::{resolve_tool, Tool};
use super::settle::{settle, Basis, Effective};
use super::trust::TrustIndex;
use super::{Entry, Policy};

/// What a non-shell call is about.
pub(crate) enum Subject {
    None,
    Paths(Vec<String>),
    Url(FetchTarget),
    Bad(String),
}

/// One evaluation in progress.
pub(crate) struct Call<'a> {
    pub policy: &'a Policy,
    pub request: &'a Request,
    pub trust: Option<&'a TrustIndex>,
    pub cwd: Option<String>,
    pub home: Option<String>,
    pub dirs: Vec<String>,
    pub tool: Tool,
    /// Every rule that matched, for explanations: (from the trust overlay, id).
    pub hits: RefCell<Vec<(bool, Id)>>,
    /// Whether to fill `hits` (only explanations need them).
    pub record: bool,
}

impl<'a> Call<'a> {
    pub(crate) fn new(
        policy: &'a Policy,
        request: &'a Request,
        trust: Option<&'a TrustIndex>,
    ) -> Self {
        let cwd = request
            .cwd
            .as_deref()
            .and_then(|c| crate::path::normalize(c, None, None));
        let home = policy
            .home
            .clone()
            .or_else(|| cwd.as_deref().and_then(crate::path::home_from_cwd));
        let mut dirs: Vec<String> = cwd.iter().cloned().collect();
        for d in &policy.additional {
            if let Some(n) = crate::path::normalize(d, cwd.as_deref(), home.as_deref()) {
                dirs.push(n);
            }
        }
        Call {
            policy,
            request,
            trust,
            cwd,
            home,
            dirs,
            tool: resolve_tool(policy, request),
            hits: RefCell::new(Vec::new()),
            record: false,
        }
    }

    pub(crate) fn query(&self) -> ToolQuery<'_> {
        ToolQuery {
            name: &self.tool.name,
            kind: self.tool.defaults.kind,
            mcp: self
                .tool
                .mcp
                .as_ref()
                .map(|(s, t)| (s.as_str(), t.as_str())),
        }
    }

    fn class(&self, list: RuleList) -> &ClassIndex {
        match list {
            RuleList::Deny => &self.policy.deny,
            RuleList::Ask => &self.policy.ask,
            RuleList::Allow => &self.policy.allow,
        }
    }

    /// The first rule of `list` for which `matches` reports a hit (the policy's layers, then
    /// for allow the trust overlay), as a reason.
    pub(crate) fn first(
        &self,
        list: RuleList,
        matches: &dyn Fn(&ClassIndex) -> Vec<Id>,
    ) -> Option<Reason> {
        let hits = matches(self.class(list));
        self.remember(false, &hits);
        if let Some(id) = hits.iter().min() {
            return self.policy.entries.get(*id).map(|e| rule_reason(e, false));
        }
        if list != RuleList::Allow {
            return None;
        }
        let trust = self.trust?;
        let hits = matches(&trust.allow);
        self.remember(true, &hits);
        let id = hits.iter().min()?;
        trust.entries.get(*id).map(|e| rule_reason(e, true))
    }

    fn remember(&self, from_trust: bool, hits: &[Id]) {
        if !self.record {
            return;
        }
        if let Ok(mut rec) = self.hits.try_borrow_mut() {
            rec.extend(hits.iter().map(|id| (from_trust, *id)));
        }
    }

    /// Whether every path is inside the working directory or an additional directory.
    pub(crate) fn inside(&self, path: &str) -> bool {
        self.dirs.iter().any(|d| crate::path::contains(d, path))
    }

    pub(crate) fn normalize(&self, path: &str) -> Option<String> {
        crate::path::normalize(path, self.cwd.as_deref(), self.home.as_deref())
    }

    /// The written path and, when the request carries it, its real path.
    pub(crate) fn path_candidates(&self, written: &str) -> Result<Vec<String>, String> {
        let what = |p: &str| {
            format!("path `{p}` cannot be resolved (a relative path needs `cwd`, `~` a home)")
        };
        let mut out = vec![self.normalize(written).ok_or_else(|| what(written))?];
        if let Some(real) = self.request.realpaths.get(written) {
            out.push(self.normalize(real).ok_or_else(|| what(real))?);
        }
        Ok(out)
    }

    fn subject(&self) -> Subject {
        let kind = self.tool.defaults.kind;
        let input = &self.request.input;
        match kind {
            ToolKind::Read | ToolKind::Write | ToolKind::Edit | ToolKind::Delete => {
                let Some(written) = kind
                    .subject_keys()
                    .iter()
                    .find_map(|k| input.get(k).and_then(|v| v.as_str()))
                else {
                    return Subject::Bad(format!(
                        "`{}` has no `file_path` (or `path`) string in its input",
                        self.tool.name
                    ));
                };
                match self.path_candidates(written) {
                    Ok(p) => Subject::Paths(p),
                    Err(e) => Subject::Bad(e),
                }
            }
            ToolKind::Glob | ToolKind::Grep => {
                let base = match input.get("path") {
                    None => ".",
                    Some(v) => match v.as_str() {
                        Some(s) => s,
                        None => return Subject::Bad("`path` is not a string".to_owned()),
                    },
                };
                let mut paths = match self.path_candidates(base) {
                    Ok(p) => p,
                    Err(e) => return Subject::Bad(e),
                };
                if kind == ToolKind::Glob {
                    if let Some(pattern) = input.get("pattern").and_then(|v| v.as_str()) {
                        if let Some(prefix) = glob_base(pattern) {
                            let Some(first) = paths.first().cloned() else {
                                return Subject::Bad("no base path".to_owned());
                            };
                            match crate::path::normalize(
                                &prefix,
                                Some(&first),
                                self.home.as_deref(),
                            ) {
                                Some(p) => paths.push(p),
                                None => return Subject::Bad(format!("pattern `{pattern}`")),
                            }
                        }
                    }
                }
                Subject::Paths(paths)
            }
            ToolKind::Fetch => match input.get("url").and_then(|v| v.as_str()) {
                None => Subject::Bad(format!("`{}` has no `url` string", self.tool.name)),
                Some(u) => match FetchTarget::parse(u) {
                    Some(t) => Subject::Url(t),
                    None => Subject::Bad(format!("`{u}` is not an absolute URL with a host")),
                },
            },
            ToolKind::Shell | ToolKind::Mcp | ToolKind::Other => Subject::None,
        }
    }

    /// Rule lookups for a non-shell call.
    fn lookup(&self, list: RuleList, subject: &Subject) -> Option<Reason> {
        let q = self.query();
        let kind = q.kind;
        let cwd = self.cwd.as_deref();
        let home = self.home.as_deref();
        self.first(list, &|idx: &ClassIndex| {
            let mut out = Vec::new();
            idx.tool_matches(&q, &mut out);
            match subject {
                Subject::Paths(paths) if list != RuleList::Allow => {
                    for p in paths {
                        idx.path_matches(kind, p, cwd, home, &mut out);
                    }
                }
                Subject::Paths(paths) if out.is_empty() => {
                    // An allow needs every path (the link and its target) to match.
                    let mut first = Vec::new();
                    for (i, p) in paths.iter().enumerate() {
                        let mut hits = Vec::new();
                        idx.path_matches(kind, p, cwd, home, &mut hits);
                        if hits.is_empty() {
                            return Vec::new();
                        }
                        if i == 0 {
                            first = hits;
                        }
                    }
                    out = first;
                }
                Subject::Url(t) => idx.fetch_matches(t, &mut out),
                _ => {}
            }
            out
        })
    }

    /// The basis for a call that no rule decided.
    pub(crate) fn default_basis(&self, paths: &[String]) -> Basis {
        let d = self.tool.defaults;
        let flags = self.policy.flags;
        let tool = &self.tool.name;
        let reason = |text: String| Reason {
            decider: Decider::ToolDefault { tool: tool.clone() },
            text,
        };
        let flag = |name: &str, text: String| {
            Basis::Allowed(Reason {
                decider: Decider::Flag {
                    flag: name.to_owned(),
                },
                text,
            })
        };
        if d.level == Level::Deny {
            return Basis::Default {
                level: Level::Deny,
                inside: true,
                reason: reason(format!("`{tool}` is denied by default")),
            };
        }
        let outside = paths.iter().find(|p| !self.inside(p));
        let file_kind = matches!(
            d.kind,
            ToolKind::Read
                | ToolKind::Glob
                | ToolKind::Grep
                | ToolKind::Write
                | ToolKind::Edit
                | ToolKind::Delete
        );
        if let (Some(p), true, false) = (outside, file_kind, flags.allow_all_paths) {
            return Basis::Default {
                level: Level::Prompt,
                inside: false,
                reason: reason(format!(
                    "`{p}` is outside the working directory and the additional directories"
                )),
            };
        }
        if d.kind == ToolKind::Fetch {
            if flags.allow_all_urls {
                return flag(
                    "allowAllUrls",
                    "every URL is allowed by `allowAllUrls`".into(),
                );
            }
        } else if flags.allow_all_tools {
            return flag(
                "allowAllTools",
                format!("`{tool}` is allowed by `allowAllTools`"),
            );
        }
        let text = match (d.level, self.tool.known, d.kind) {
            (_, false, _) => format!("`{tool}` is not a known tool; unknown tools ask"),
            (Level::Allow, _, ToolKind::Mcp) => {
                format!("`{tool}` is a read-only tool of a trusted MCP server")
            }
            (_, _, ToolKind::Mcp) => format!(
                "`{tool}` is an MCP tool that is not known to be read-only on a trusted server"
            ),
            (Level::Allow, ..) => format!("`{tool}` is allowed by default"),
            _ => format!("`{tool}` asks by default"),
        };
        Basis::Default {
            level: d.level,
            inside: outside.is_none(),
            reason: reason(text),
        }
    }

    /// The mode in force.
    pub(crate) fn effective(&self, trust: Option<&TrustOverlay>) -> Effective {
        let requested = self.request.mode.unwrap_or(self.policy.default_mode);
        let disabled = self.policy.bypass_disabled;
        let mode = if requested == Mode::BypassPermissions && disabled {
            Mode::Default
        } else {
            requested
        };
        let agent = self.request.agent.as_deref();
        let by_policy = agent
            .and_then(|a| self.policy.agents.get(a))
            .is_some_and(|s| s.bypass_permissions);
        let by_trust = trust.is_some_and(|t| t.agent_bypass);
        let agent_bypass = (!disabled && mode != Mode::Plan && (by_policy || by_trust))
            .then(|| agent.unwrap_or("this agent").to_owned());
        Effective { mode, agent_bypass }
    }
}

/// The reason a rule gives.
fn rule_reason(e: &Entry, trust: bool) -> Reason {
    let verb = match e.list {
        RuleList::Deny => "denied",
        RuleList::Ask => "needs approval",
        RuleList::Allow => "allowed",
    };
    let list = match e.list {
        RuleList::Deny => "deny",
        RuleList::Ask => "ask",
        RuleList::Allow => "allow",
    };
    match &e.flag {
        Some(flag) => Reason {
            decider: Decider::Flag { flag: flag.clone() },
            text: format!("{verb} by Copilot flag `{flag}` (`{}`)", e.text),
        },
        None => Reason {
            decider: Decider::Rule {
                rule: e.text.clone(),
                list: e.list,
                layer: e.layer,
                index: e.index,
            },
            text: if trust {
                format!("{verb} by remembered rule `{}`", e.text)
            } else {
                format!(
                    "{verb} by rule `{}` in the {} {list} list",
                    e.text,
                    e.layer.as_str()
                )
            },
        },
    }
}

/// The literal directory of a glob pattern that leaves the search root (absolute, `~`, or
/// with `..`), e.g. `/etc/*.conf` → `/etc`.
fn glob_base(pattern: &str) -> Option<String> {
    let escapes = pattern.starts_with('/')
        || pattern.starts_with('~')
        || pattern.split('/').any(|s| s == "..");
    if !escapes {
        return None;
    }
    let literal: Vec<&str> = pattern
        .split('/')
        .take_while(|s| !s.contains(['*', '?', '[', '{']))
        .collect();
    let joined = literal.join("/");
    Some(if joined.is_empty() {
        "/".to_owned()
    } else {
        joined
    })
}

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

pub(crate) fn decide(call: &Call<'_>, overlay: Option<&TrustOverlay>) -> Decision {
    let mode = call.effective(overlay);
    let kind = call.tool.defaults.kind;
    if kind == ToolKind::Shell {
        return super::shell_view::decide_shell(call, &mode);
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
    Decision {
        effect,
        risk,
        trustable: effect != Effect::Deny
            && safe
            && !changes_outside
            && call.tool.defaults.trustable,
        reason,
        parts: Vec::new(),
    }
}

fn basis_for(call: &Call<'_>, subject: &Subject) -> Basis {
    if let Some(r) = call.lookup(RuleList::Deny, subject) {
        return Basis::Denied(r);
    }
    if let Some(r) = call.lookup(RuleList::Ask, subject) {
        return Basis::AskRule(r);
    }
    if let Subject::Bad(why) = subject {
        return Basis::Unanalysable(why.clone());
    }
    if !call.request.input.is_object() && !call.request.input.is_null() {
        return Basis::Unanalysable("`input` is not an object".to_owned());
    }
    let paths: &[String] = match subject {
        Subject::Paths(p) => p,
        _ => &[],
    };
    if call.tool.defaults.kind.writes_files() {
        if let Some(p) = paths.iter().find(|p| super::is_protected(p)) {
            return Basis::Protected(p.clone());
        }
    }
    if let Some(r) = call.lookup(RuleList::Allow, subject) {
        return Basis::Allowed(r);
    }
    call.default_basis(paths)
}
