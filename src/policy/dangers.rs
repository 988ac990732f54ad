//! Danger classes in decisions: every decision lists the dangers found in its call, rules
//! can name classes (`Danger(publish)`, `Danger(recursive-delete:build/**)`), uploads of
//! secret files are denied unless an allow rule names them, and a stop with no class says
//! that the program is unknown to toolgate.
//!
//! A deny or ask rule on a class applies whatever the tool or spelling; an allow rule on a
//! class only turns the default ask for that class into an allow: it never beats a deny or
//! ask rule, a protected or critical path, or a call that cannot be analysed.

use crate::commands::danger::{
    classify_commands_and_program, classify_line_and_program, classify_tool_in, Classification,
    DangerClass, Finding,
};
use crate::decision::{Danger, Decider, Decision, Effect, Layer, PartDecision, Reason, RuleList};
use crate::error::{Error, ErrorKind, Result};
use crate::glob::{Glob, GlobOptions};
use crate::mode::Mode;
use crate::tool::ToolKind;
use crate::Risk;

use super::evaluate::{Call, Subject};
use super::explain::ConsultedRule;
use super::index::ToolQuery;
use super::settle::Effective;

/// The tool names that introduce a danger rule.
const DANGER_TOOL: &[&str] = &["Danger", "danger"];

/// A compiled `Danger(class)` or `Danger(class:pattern)` rule.
pub(crate) struct DangerRule {
    pub class: DangerClass,
    /// The pattern and, for `dir/**`, `dir` itself.
    pattern: Option<Vec<Glob>>,
    /// Whether the pattern has no `/`, so it matches the last segment of a target too.
    bare: bool,
    pub text: String,
    pub list: RuleList,
    pub layer: Layer,
    pub index: usize,
    /// The rule's place in the document (`permissions.deny[0]`), for provenance.
    pub path: String,
}

/// Whether `text` is a danger rule (`Danger(...)`), which the rule language leaves to this
/// module.
pub(crate) fn is_danger_rule(text: &str) -> bool {
    let t = text.trim();
    DANGER_TOOL.iter().any(|d| {
        t.strip_prefix(d)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('('))
    })
}

/// Parses a danger rule into its class and optional target pattern.
///
/// Errors name the classes that exist.
pub(crate) fn parse(text: &str) -> Result<(DangerClass, Option<String>)> {
    let t = text.trim();
    let inner = t
        .split_once('(')
        .and_then(|(_, rest)| rest.strip_suffix(')'))
        .map(str::trim)
        .filter(|i| !i.is_empty())
        .ok_or_else(|| {
            Error::new(
                ErrorKind::InvalidRule,
                format!("danger rule `{t}` names no class"),
            )
            .with_hint(format!(
                "write `Danger(class)` or `Danger(class:pattern)` with one of: {}",
                DangerClass::all_ids()
            ))
        })?;
    let (id, pattern) = match inner.split_once(':') {
        Some((id, p)) => (id.trim(), Some(p.trim().to_owned())),
        None => (inner, None),
    };
    let class = DangerClass::from_id(id).ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidRule,
            format!("unknown danger class `{id}` in rule `{t}`"),
        )
        .with_hint(format!("use one of: {}", DangerClass::all_ids()))
    })?;
    if pattern.as_deref() == Some("") {
        return Err(Error::new(
            ErrorKind::InvalidRule,
            format!("empty pattern after `{id}:` in rule `{t}`"),
        )
        .with_hint(format!(
            "drop the `:` to match every `{id}`, or add a pattern"
        )));
    }
    Ok((class, pattern))
}

/// Compiles a danger rule of `list`; deny and ask patterns match case-insensitively.
pub(crate) fn compile(
    text: &str,
    list: RuleList,
    layer: Layer,
    index: usize,
    path: &str,
) -> Result<DangerRule> {
    let (class, pattern) = parse(text)?;
    let bare = pattern.as_deref().is_some_and(|p| !p.contains('/'));
    let pattern = match pattern {
        None => None,
        Some(p) => {
            let p = p.trim_start_matches("./").to_owned();
            let mut forms = vec![p.clone()];
            if let Some(dir) = p.strip_suffix("/**") {
                forms.push(dir.to_owned());
            }
            let options = GlobOptions {
                literal_separator: true,
                case_insensitive: list != RuleList::Allow,
                // `\` escapes where it does not separate paths.
                backslash_escape: !std::path::is_separator('\\'),
            };
            let mut set = Vec::with_capacity(forms.len());
            for f in &forms {
                set.push(Glob::new(f, options).map_err(|e| {
                    Error::new(
                        ErrorKind::InvalidRule,
                        format!("bad pattern `{p}` in rule `{}`: {e}", text.trim()),
                    )
                    .with_hint("use `*` within a segment and `**` across segments")
                })?);
            }
            Some(set)
        }
    };
    Ok(DangerRule {
        class,
        pattern,
        bare,
        text: text.trim().to_owned(),
        list,
        layer,
        index,
        path: path.to_owned(),
    })
}

impl DangerRule {
    fn matches_target(&self, target: &str, cwd: Option<&str>) -> bool {
        let Some(set) = &self.pattern else {
            return true;
        };
        let t = target.trim_start_matches("./").trim_end_matches('/');
        let mut forms = vec![t.to_owned()];
        if let Some(rel) = cwd
            .and_then(|c| t.strip_prefix(c))
            .and_then(|r| r.strip_prefix('/'))
        {
            forms.push(rel.to_owned());
        }
        if self.bare {
            if let Some(last) = t.rsplit('/').next() {
                forms.push(last.to_owned());
            }
        }
        forms.iter().any(|f| set.iter().any(|g| g.is_match(f)))
    }

    /// Deny and ask rules: any target matches (the widest reading). Allow rules: every
    /// target matches, and an unscoped finding needs an unscoped rule.
    fn covers(&self, f: &Finding, cwd: Option<&str>) -> bool {
        if f.class != self.class {
            return false;
        }
        if self.pattern.is_none() {
            return true;
        }
        if self.list == RuleList::Allow {
            !f.targets.is_empty() && f.targets.iter().all(|t| self.matches_target(t, cwd))
        } else {
            f.targets.is_empty() || f.targets.iter().any(|t| self.matches_target(t, cwd))
        }
    }

    fn reason(&self) -> Reason {
        let (verb, list) = match self.list {
            RuleList::Deny => ("denied", "deny"),
            RuleList::Ask => ("needs approval", "ask"),
            RuleList::Allow => ("allowed", "allow"),
        };
        Reason {
            decider: Decider::DangerRule {
                rule: self.text.clone(),
                list: self.list,
                layer: self.layer,
                index: self.index,
            },
            text: format!(
                "{verb} by rule `{}` in the {} {list} list",
                self.text,
                self.layer.as_str()
            ),
        }
    }
}

fn first_rule<'p>(
    rules: &'p [DangerRule],
    list: RuleList,
    findings: &[Finding],
    cwd: Option<&str>,
) -> Option<&'p DangerRule> {
    rules
        .iter()
        .filter(|r| r.list == list)
        .find(|r| findings.iter().any(|f| r.covers(f, cwd)))
}

/// Whether allow rules cover every finding (and there is at least one).
fn allowed_by_class<'p>(
    rules: &'p [DangerRule],
    findings: &[Finding],
    cwd: Option<&str>,
) -> Option<&'p DangerRule> {
    let mut first = None;
    for f in findings {
        let r = rules
            .iter()
            .filter(|r| r.list == RuleList::Allow)
            .find(|r| r.covers(f, cwd))?;
        first.get_or_insert(r);
    }
    first
}

fn dangers_of(c: &Classification) -> Vec<Danger> {
    c.findings.iter().map(Danger::from).collect()
}

fn is_rule_allow(r: &Reason) -> bool {
    matches!(
        r.decider,
        Decider::Rule {
            list: RuleList::Allow,
            ..
        } | Decider::DangerRule {
            list: RuleList::Allow,
            ..
        }
    )
}

/// Whether an ask with this reason is a default that a class allow rule may loosen.
fn loosenable(r: &Reason) -> bool {
    matches!(
        r.decider,
        Decider::ToolDefault { .. } | Decider::SecretFile { .. }
    )
}

fn strict(mode: &Effective) -> bool {
    matches!(mode.mode, Mode::Plan | Mode::DontAsk)
}

/// Names the dangers in a default stop's reason, or says that the program is unknown.
fn annotate(reason: &mut Reason, findings: &[Finding], program: Option<&str>) {
    if matches!(
        reason.decider,
        Decider::Rule { .. }
            | Decider::DangerRule { .. }
            | Decider::Flag { .. }
            | Decider::SecretFile { .. }
    ) {
        return;
    }
    if !findings.is_empty() {
        let what = findings
            .iter()
            .map(|f| format!("{} ({})", f.detail, f.class.id()))
            .collect::<Vec<_>>()
            .join("; ");
        reason.text = format!("{what}; {}", reason.text);
    } else if let (Some(p), Decider::ToolDefault { .. } | Decider::Mode { .. }) =
        (program, &reason.decider)
    {
        reason.text = if crate::commands::lookup(p).is_some() {
            // In the program table, but not this use of it (an option, subcommand or operand
            // the table does not vouch for).
            format!(
                "toolgate does not know this use of `{p}` to be harmless; {}",
                reason.text
            )
        } else {
            format!("toolgate does not know what `{p}` does; {}", reason.text)
        };
    }
}

/// The reason of a call of several parts: all allowed, or the first part with the call's
/// effect.
pub(super) fn overall_reason(parts: &[PartDecision], effect: Effect) -> Reason {
    if effect == Effect::Allow {
        return Reason {
            decider: Decider::Parts,
            text: format!("all {} commands are allowed", parts.len()),
        };
    }
    parts
        .iter()
        .find(|p| p.effect == effect)
        .map(|p| Reason {
            decider: p.reason.decider.clone(),
            text: format!("`{}`: {}", p.part, p.reason.text),
        })
        .unwrap_or_else(|| Reason {
            decider: Decider::Parts,
            text: "a part of the command decided".into(),
        })
}

/// What the evaluation already worked out about a call, handed to the danger step so it is
/// not worked out twice (reading URLs and paths, parsing a shell line are the costly parts
/// of a call).
pub(crate) enum Known<'s> {
    /// Nothing: the danger step works out what it needs.
    Nothing,
    /// The subject of a call of a tool other than the shell.
    Subject(&'s Subject),
    /// The simple commands of a shell call's line (`commands_of(line)`), from the parse the
    /// shell analysis made.
    LineCommands(Vec<Vec<String>>),
}

/// The dangers of the whole call, from what the evaluation already knows of it. For a shell
/// call, also the program its line runs first (for "toolgate does not know what `x` does"),
/// from the same parse.
fn classify_call(call: &Call<'_>, known: Known<'_>) -> (Classification, Option<String>) {
    let kind = call.tool.defaults.kind;
    if kind == ToolKind::Shell {
        let Some(line) = call.request.input_str("command") else {
            return Default::default();
        };
        return match known {
            Known::LineCommands(commands) => classify_commands_and_program(line, commands),
            _ => classify_line_and_program(line),
        };
    }
    let computed;
    let subject = match known {
        Known::Subject(s) => s,
        _ => {
            computed = call.subject();
            &computed
        }
    };
    let paths: &[String] = match subject {
        Subject::Paths(p) => p,
        _ => &[],
    };
    (
        classify_tool_in(
            kind,
            &call.tool.name,
            &call.request.input,
            paths,
            call.home.as_deref(),
        ),
        None,
    )
}

/// The danger rules of `list`, for explanations: each applies to every tool, and matched
/// when it covers a danger of the call.
pub(crate) fn consulted(call: &Call<'_>, list: RuleList) -> Vec<ConsultedRule> {
    let (whole, _) = classify_call(call, Known::Nothing);
    let cwd = call.anchor.as_deref();
    call.policy
        .danger_rules
        .iter()
        .filter(|r| r.list == list)
        .map(|r| ConsultedRule {
            rule: r.text.clone(),
            list: r.list,
            layer: r.layer,
            index: r.index,
            flag: None,
            provenance: call.policy.provenance(&r.path).cloned(),
            matched: whole.findings.iter().any(|f| r.covers(f, cwd)),
            active: true,
        })
        .collect()
}

/// The first secret file a shell line reads that no rule names: neither the allow rules
/// that let the line through (by the file's name) nor a Read allow rule.
fn unnamed_secret_read(
    call: &Call<'_>,
    decision: &Decision,
    whole: &Classification,
) -> Option<Reason> {
    let mut allow_rules: Vec<&str> = Vec::new();
    for r in std::iter::once(&decision.reason).chain(decision.parts.iter().map(|p| &p.reason)) {
        if let Decider::Rule { rule, .. } = &r.decider {
            allow_rules.push(rule);
        }
    }
    let read = ToolQuery::READ;
    whole
        .findings
        .iter()
        .filter(|f| f.class == DangerClass::SecretRead)
        .flat_map(|f| f.targets.iter())
        .find_map(|t| {
            let name = t.rsplit(['/', '\\']).next().unwrap_or(t);
            if allow_rules.iter().any(|r| r.contains(name)) {
                return None;
            }
            let paths = call.path_candidates(t).ok()?;
            call.secret_read_by(&read, &paths)
        })
}

/// Applies danger classes to a decision the rules and the mode produced; `known` is what
/// the evaluation already worked out about the call.
pub(crate) fn finish(
    call: &Call<'_>,
    mode: &Effective,
    known: Known<'_>,
    mut decision: Decision,
) -> Decision {
    let kind = call.tool.defaults.kind;
    let cwd = call.anchor.as_deref();
    let rules = &call.policy.danger_rules;
    let shell = kind == ToolKind::Shell;
    let (whole, program) = classify_call(call, known);
    // A part that is the whole line (a single command) has the line's classification.
    let line = shell.then(|| call.request.input_str("command")).flatten();
    let part_classes: Vec<(Classification, Option<String>)> = decision
        .parts
        .iter()
        .map(|p| {
            if line == Some(p.part.as_str()) {
                (whole.clone(), program.clone())
            } else {
                classify_line_and_program(&p.part)
            }
        })
        .collect();

    // Allow rules on classes loosen default asks, part by part.
    let all_covered = allowed_by_class(rules, &whole.findings, cwd).is_some();
    if all_covered && decision.effect == Effect::Ask {
        if decision.parts.is_empty() {
            if loosenable(&decision.reason) {
                if let Some(r) = allowed_by_class(rules, &whole.findings, cwd) {
                    decision.effect = Effect::Allow;
                    decision.reason = r.reason();
                }
            }
        } else {
            for (p, (c, _)) in decision.parts.iter_mut().zip(&part_classes) {
                if p.effect == Effect::Ask && loosenable(&p.reason) {
                    if let Some(r) = allowed_by_class(rules, &c.findings, cwd) {
                        p.effect = Effect::Allow;
                        p.reason = r.reason();
                    }
                }
            }
            let effect = decision
                .parts
                .iter()
                .map(|p| p.effect)
                .max()
                .unwrap_or(Effect::Ask);
            decision.effect = effect;
            decision.reason = overall_reason(&decision.parts, effect);
        }
    }

    // Every part names its dangers; default stops say what they found.
    for (p, (c, part_program)) in decision.parts.iter_mut().zip(&part_classes) {
        p.dangers = dangers_of(c);
        if p.effect != Effect::Allow {
            annotate(&mut p.reason, &c.findings, part_program.as_deref());
        }
    }
    if decision.effect != Effect::Allow {
        if decision.parts.is_empty() {
            annotate(&mut decision.reason, &whole.findings, program.as_deref());
        } else {
            decision.reason = overall_reason(&decision.parts, decision.effect);
        }
    }

    // Deny and ask rules on classes apply whatever the tool or spelling.
    if let Some(r) = first_rule(rules, RuleList::Deny, &whole.findings, cwd) {
        decision.effect = Effect::Deny;
        decision.reason = r.reason();
        decision.trustable = false;
    } else if let Some(r) = first_rule(rules, RuleList::Ask, &whole.findings, cwd) {
        if decision.effect == Effect::Allow {
            let mut reason = r.reason();
            if strict(mode) {
                reason.text = crate::feedback::strict_mode_denial(&reason.text, mode.mode);
                decision.effect = Effect::Deny;
            } else {
                decision.effect = Effect::Ask;
            }
            decision.reason = reason;
        }
    }

    // A shell line an allow rule lets through still asks before reading a secret file,
    // unless a rule names the file (`Bash(cat .env)`, `Read(./.env)`).
    if shell && decision.effect == Effect::Allow {
        if let Some(reason) = unnamed_secret_read(call, &decision, &whole) {
            if strict(mode) {
                decision.effect = Effect::Deny;
                decision.reason = Reason {
                    text: crate::feedback::strict_mode_denial(&reason.text, mode.mode),
                    decider: reason.decider,
                };
            } else {
                decision.effect = Effect::Ask;
                decision.reason = reason;
            }
        }
    }

    // Uploads of secret files are denied unless an allow rule names the command.
    if let Some(path) = whole.secret_uploads.first() {
        let named = decision.effect == Effect::Allow
            && if decision.parts.is_empty() {
                is_rule_allow(&decision.reason)
            } else {
                decision
                    .parts
                    .iter()
                    .zip(&part_classes)
                    .filter(|(_, (c, _))| !c.secret_uploads.is_empty())
                    .all(|(p, _)| is_rule_allow(&p.reason))
            };
        if !named {
            decision.effect = Effect::Deny;
            decision.trustable = false;
            decision.reason = Reason {
                decider: Decider::SecretFile { path: path.clone() },
                text: format!(
                    "uploads the secret file `{path}` over the network; only an allow rule \
                     that names the command permits it"
                ),
            };
        }
    }

    // A remembered answer never stands in for a person on a recursive delete.
    if whole
        .findings
        .iter()
        .any(|f| f.class == DangerClass::RecursiveDelete)
    {
        decision.trustable = false;
    }
    decision.dangers = dangers_of(&whole);
    if !decision.dangers.is_empty() && decision.effect != Effect::Allow {
        decision.risk = Risk::High;
    }
    decision
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn danger_rules_parse_and_name_the_classes_on_error() {
        assert!(is_danger_rule("Danger(publish)"));
        assert!(is_danger_rule(" danger(kill) "));
        assert!(!is_danger_rule("DangerZone(x)"));
        assert_eq!(
            parse("Danger(publish)").unwrap(),
            (DangerClass::Publish, None)
        );
        assert_eq!(
            parse("Danger(recursive-delete:build/**)").unwrap(),
            (DangerClass::RecursiveDelete, Some("build/**".into()))
        );
        let e = parse("Danger(publsh)").unwrap_err();
        assert_eq!(e.code(), "INVALID_RULE");
        assert!(e.hint().unwrap().contains("recursive-delete"), "{e:?}");
        assert!(parse("Danger()").is_err());
        assert!(parse("Danger").is_err());
        assert!(parse("Danger(kill:)").is_err());
    }

    #[test]
    fn scoped_allow_rules_need_every_target() {
        let r = compile(
            "Danger(recursive-delete:build/**)",
            RuleList::Allow,
            Layer::Session,
            0,
            "allow[0]",
        )
        .unwrap();
        let f = |targets: &[&str]| Finding {
            class: DangerClass::RecursiveDelete,
            detail: String::new(),
            targets: targets.iter().map(|t| (*t).to_owned()).collect(),
        };
        assert!(r.covers(&f(&["build"]), None));
        assert!(r.covers(&f(&["./build/out"]), None));
        assert!(!r.covers(&f(&["build", "src"]), None));
        assert!(!r.covers(&f(&["BUILD"]), None));
        assert!(!r.covers(&f(&[]), None));
        let d = compile(
            "Danger(secret-read:.env)",
            RuleList::Deny,
            Layer::User,
            0,
            "deny[0]",
        )
        .unwrap();
        let s = Finding {
            class: DangerClass::SecretRead,
            detail: String::new(),
            targets: vec!["/p/app/.ENV".into()],
        };
        assert!(d.covers(&s, Some("/p")));
    }
}
