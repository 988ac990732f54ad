//! Writing a policy in an agent's own format: Claude Code `settings.json`, Copilot CLI
//! arguments, a Gemini CLI policy TOML file, Codex execpolicy rules.
//!
//! What the target cannot express is reported as a warning (the `path` is the rule's place in
//! the policy document). Like the import, the export only approximates in the stricter
//! direction: an allow that the target would read more widely is left out, a deny or ask is
//! widened. A deny or ask that the target cannot express at all is reported as such.

use crate::decision::RuleList;
use crate::error::{Error, ErrorKind, Result};
use crate::policy::{PolicyDocument, Warning};
use crate::rule::{CommandMatch, Rule, Specifier, ToolSelector};
use crate::tool::ToolKind;

use super::{spellings, Format};

/// Warning code: a rule or setting that the target cannot express was left out.
const NOT_EXPRESSED: &str = "EXPORT_NOT_EXPRESSED";
/// Warning code: a rule was approximated (an allow narrowed, a deny or ask widened).
const APPROXIMATED: &str = "EXPORT_APPROXIMATED";

/// An exported configuration and what it could not carry (JS: `exportPolicy`'s
/// `ExportResult`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "ExportResult"))]
pub struct Exported {
    /// The text of the agent's file.
    pub text: String,
    /// What the target cannot express, each at its place in the policy document.
    pub warnings: Vec<Warning>,
}

/// One rule of the document with its place.
pub(super) struct Item {
    pub(super) list: RuleList,
    pub(super) rule: Rule,
    /// The rule as written.
    pub(super) text: String,
    pub(super) path: String,
}

/// Writes `doc` in the format of `target` (`claude`, `copilot`, `gemini` or `codex`).
///
/// ```
/// use toolgate::import::{export, Format};
/// let doc = toolgate::json::from_str(
///     r#"{"permissions":{"allow":["Bash(git status *)"],"deny":["Bash(rm -rf*)"]}}"#,
///     "policy",
/// ).unwrap();
/// let out = export(Format::Codex, &doc).unwrap();
/// assert!(out.text.contains(r#"pattern = ["git", "status"]"#));
/// ```
pub fn export(target: Format, doc: &PolicyDocument) -> Result<Exported> {
    let items = items(doc)?;
    let mut w = Writer {
        warnings: Vec::new(),
        unexpressed: Vec::new(),
    };
    let text = match target {
        Format::Claude => claude(&mut w, doc, &items),
        Format::Copilot => copilot(&mut w, doc)?,
        Format::Gemini => gemini(&mut w, doc, &items),
        Format::Codex => codex(&mut w, doc, &items),
        Format::Vscode | Format::Zed => {
            return Err(Error::new(
                ErrorKind::InvalidRequest,
                format!("export to `{}` is not supported", target.as_str()),
            )
            .with_hint("export to claude, copilot, gemini or codex"))
        }
    };
    common(&mut w, doc, target);
    Ok(Exported {
        text,
        warnings: w.warnings,
    })
}

struct Writer {
    warnings: Vec<Warning>,
    /// Deny and ask rules the target does not carry: an allow that could cover a call they
    /// match is left out too, so the export is never looser than the policy.
    unexpressed: Vec<(RuleList, Rule)>,
}

impl Writer {
    fn left_out(&mut self, path: &str, message: impl Into<String>) {
        self.warnings
            .push(Warning::new(NOT_EXPRESSED, path, message));
    }

    fn approximated(&mut self, path: &str, message: impl Into<String>) {
        self.warnings
            .push(Warning::new(APPROXIMATED, path, message));
    }

    /// Leaves `it` out with `message`; a deny or ask rule left out is remembered, so the
    /// allows it was carved out of are left out as well ([`Writer::keeps`]).
    fn dropped(&mut self, it: &Item, message: impl Into<String>) {
        self.left_out(&it.path, message);
        if it.list != RuleList::Allow {
            self.unexpressed.push((it.list, it.rule.clone()));
        }
    }

    /// Remembers a deny or ask shell rule the target writes as its literal words when
    /// toolgate also matches it in spellings the target's prefix does not (reordered or long
    /// flags, global options, abbreviations: [`spellings::respelt`]): the allows it could
    /// overlap are left out ([`Writer::keeps`]), so the target asks for those commands rather
    /// than run a respelt one unprompted.
    fn note_respellings(&mut self, it: &Item) {
        if it.list == RuleList::Allow {
            return;
        }
        let start = match command(&it.rule) {
            Some(Cmd::Prefix(p) | Cmd::Exact(p)) => p,
            Some(Cmd::Glob(g)) => literal_text(&g).to_owned(),
            Some(Cmd::All) | None => return,
        };
        if spellings::respelt(start.trim()) {
            self.unexpressed.push((it.list, it.rule.clone()));
        }
    }

    /// Whether the allow `it` may be written: not when it could cover a call that a deny or
    /// ask rule the target does not carry matches (the target would run that call
    /// unprompted), which is said in a warning. Deny and ask rules come first in `items`.
    fn keeps(&mut self, it: &Item) -> bool {
        if it.list != RuleList::Allow {
            return true;
        }
        let Some((list, rule)) = self
            .unexpressed
            .iter()
            .find(|(_, r)| could_overlap(&it.rule, r))
        else {
            return true;
        };
        let what = if *list == RuleList::Ask {
            "ask"
        } else {
            "deny"
        };
        let message = format!(
            "`{}` is left out: it could allow calls that the {what} rule `{rule}` covers, \
             which the target cannot express in every spelling toolgate matches",
            it.rule
        );
        self.left_out(&it.path, message);
        false
    }
}

/// Whether some call could match both `allow` and `other` (a deny or ask rule), read
/// widely: shell rules whose literal starts (program name without its directory, any case)
/// are one a prefix of the other; MCP rules on the same server and tool (or every tool);
/// built-in tools of the same kind (the read tools count as one kind); the same tool name
/// (a bare name may also be an MCP server's); a tool-name glob overlaps everything.
fn could_overlap(allow: &Rule, other: &Rule) -> bool {
    match (command(allow), command(other)) {
        (Some(a), Some(b)) => {
            let (a, b) = (command_start(&a), command_start(&b));
            return a.starts_with(&b) || b.starts_with(&a);
        }
        (Some(_), None) | (None, Some(_)) => return false,
        (None, None) => {}
    }
    let family = |r: &Rule| -> Option<String> {
        match r.tool() {
            ToolSelector::Builtin { tool, .. } => Some(match tool.defaults.kind {
                ToolKind::Read | ToolKind::Glob | ToolKind::Grep => "read".to_owned(),
                ToolKind::Write | ToolKind::Edit => "write".to_owned(),
                k => format!("{k:?}"),
            }),
            ToolSelector::Mcp { server, .. } => Some(format!("mcp:{}", server.to_lowercase())),
            ToolSelector::Name(n) => Some(format!("mcp:{}", n.to_lowercase())),
            ToolSelector::Glob(_) => None,
        }
    };
    let (Some(fa), Some(fb)) = (family(allow), family(other)) else {
        return true;
    };
    if fa != fb {
        // A bare name is a tool of that name too.
        return matches!((allow.tool(), other.tool()), (ToolSelector::Name(a), ToolSelector::Name(b)) if a.eq_ignore_ascii_case(b));
    }
    let mcp_tool = |r: &Rule| match (r.tool(), r.specifier()) {
        (ToolSelector::Mcp { tool, .. }, _) => tool.clone(),
        (ToolSelector::Name(_), Some(Specifier::McpTool(t))) => Some(t.clone()),
        _ => None,
    };
    match (mcp_tool(allow), mcp_tool(other)) {
        (Some(a), Some(b)) => a == b || a.contains('*') || b.contains('*'),
        _ => true,
    }
}

/// The literal start of a shell rule's match, folded as deny and ask rules match: lower
/// case, the program without its directory.
fn command_start(c: &Cmd) -> String {
    let text = match c {
        Cmd::All => "",
        Cmd::Prefix(p) | Cmd::Exact(p) => p.as_str(),
        Cmd::Glob(g) => literal_text(g),
    };
    let text = text.trim_start().to_lowercase();
    match text.split_once(' ') {
        Some((program, rest)) => {
            let program = program.rsplit('/').next().unwrap_or(program);
            format!("{program} {rest}")
        }
        None => text.rsplit('/').next().unwrap_or(&text).to_owned(),
    }
}

pub(super) fn items(doc: &PolicyDocument) -> Result<Vec<Item>> {
    let mut out = Vec::new();
    let mut push = |list: RuleList, text: &str, path: String| -> Result<()> {
        let rule = Rule::parse(text).map_err(|e| e.at(path.clone()))?;
        out.push(Item {
            list,
            rule,
            text: text.to_owned(),
            path,
        });
        Ok(())
    };
    let mut layers: Vec<(String, &crate::policy::Permissions)> = Vec::new();
    if let Some(p) = &doc.permissions {
        layers.push(("permissions".to_owned(), p));
    }
    for (i, l) in doc.layers.iter().enumerate() {
        layers.push((format!("layers[{i}].permissions"), &l.permissions));
    }
    for (prefix, p) in layers {
        for (list, name, rules) in [
            (RuleList::Deny, "deny", &p.deny),
            (RuleList::Ask, "ask", &p.ask),
            (RuleList::Allow, "allow", &p.allow),
        ] {
            for (i, r) in rules.iter().enumerate() {
                push(list, r, format!("{prefix}.{name}[{i}]"))?;
            }
        }
    }
    if let Some(c) = &doc.copilot {
        for (i, r) in c.deny_tools.iter().enumerate() {
            push(RuleList::Deny, r, format!("copilot.denyTools[{i}]"))?;
        }
        for (i, r) in c.deny_urls.iter().enumerate() {
            push(
                RuleList::Deny,
                &format!("url({r})"),
                format!("copilot.denyUrls[{i}]"),
            )?;
        }
        for (i, r) in c.allow_tools.iter().enumerate() {
            push(RuleList::Allow, r, format!("copilot.allowTools[{i}]"))?;
        }
        for (i, r) in c.allow_urls.iter().enumerate() {
            push(
                RuleList::Allow,
                &format!("url({r})"),
                format!("copilot.allowUrls[{i}]"),
            )?;
        }
    }
    let rank = |l: RuleList| match l {
        RuleList::Deny => 0,
        RuleList::Ask => 1,
        RuleList::Allow => 2,
    };
    out.sort_by_key(|i| rank(i.list));
    Ok(out)
}

/// Settings every target but Claude Code lacks, or none has.
fn common(w: &mut Writer, doc: &PolicyDocument, target: Format) {
    if !doc.tools.is_empty() {
        w.left_out("tools", "per-tool defaults are not exported");
    }
    if doc.mcp_servers.values().any(|s| s.trusted) {
        w.left_out(
            "mcpServers",
            "trusted MCP servers are not exported: their read-only tools ask",
        );
    }
    if doc.agents.values().any(|a| a.bypass_permissions) {
        w.left_out("agents", "per-agent bypass is not exported");
    }
    for (i, l) in doc.layers.iter().enumerate() {
        if l.root.is_some() {
            w.approximated(&format!("layers[{i}].root"), "the layer's root is not exported: `/path` rules are relative to the working directory");
        }
        if l.allow_managed_permission_rules_only && target != Format::Claude {
            w.left_out(
                &format!("layers[{i}]"),
                "`allowManagedPermissionRulesOnly` is not exported",
            );
        }
    }
    if target != Format::Claude {
        let mode = doc
            .default_mode
            .or_else(|| doc.layers.iter().find_map(|l| l.permissions.default_mode))
            .or_else(|| doc.permissions.as_ref().and_then(|p| p.default_mode));
        if let Some(m) = mode.filter(|m| *m != crate::mode::Mode::Default) {
            w.left_out(
                "defaultMode",
                format!("the mode `{}` is not exported", m.as_str()),
            );
        }
    }
}

/// The words before the first one with a `*`, for widening a deny.
fn literal_words(glob: &str) -> String {
    glob.split(' ')
        .take_while(|w| !w.contains('*'))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The text prefix before the first `*`, for widening a deny.
pub(super) fn literal_text(glob: &str) -> &str {
    glob.split('*').next().unwrap_or("")
}

/// What a shell rule matches.
pub(super) enum Cmd {
    /// Every command.
    All,
    /// These words, then a space or the end.
    Prefix(String),
    /// Exactly this command.
    Exact(String),
    /// A glob (`*` spans anything), as written between the parentheses.
    Glob(String),
}

/// A shell rule's matcher, or `None` for other rules.
pub(super) fn command(rule: &Rule) -> Option<Cmd> {
    let (ToolSelector::Builtin { tool, .. }, spec) = (rule.tool(), rule.specifier()) else {
        return None;
    };
    if tool.defaults.kind != ToolKind::Shell {
        return None;
    }
    Some(match spec {
        None => Cmd::All,
        Some(Specifier::Command(c)) => match &c.matcher {
            CommandMatch::Exact(e) if e == "*" => Cmd::All,
            CommandMatch::Exact(e) if e.contains('*') => Cmd::Glob(e.clone()),
            CommandMatch::Exact(e) => Cmd::Exact(e.clone()),
            CommandMatch::Prefix(p) if p.contains('*') => Cmd::Glob(format!("{p} *")),
            CommandMatch::Prefix(p) => Cmd::Prefix(p.clone()),
        },
        Some(_) => return None,
    })
}

fn spec_text(rule: &Rule) -> String {
    let text = rule.to_string();
    text.split_once('(')
        .and_then(|(_, r)| r.strip_suffix(')'))
        .unwrap_or("")
        .to_owned()
}

fn claude(w: &mut Writer, doc: &PolicyDocument, items: &[Item]) -> String {
    let mut lists: [Vec<String>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    for it in items {
        if !w.keeps(it) {
            continue;
        }
        let out = match (it.rule.tool(), it.rule.specifier()) {
            _ if command(&it.rule).is_some() => match command(&it.rule) {
                Some(Cmd::Prefix(p)) => Some(format!("Bash({p} *)")),
                Some(Cmd::Exact(e) | Cmd::Glob(e)) => Some(format!("Bash({e})")),
                _ => Some("Bash".to_owned()),
            },
            (ToolSelector::Builtin { tool, .. }, spec) => {
                let name = match tool.defaults.kind {
                    ToolKind::Read => Some("Read"),
                    ToolKind::Glob => Some("Glob"),
                    ToolKind::Grep => Some("Grep"),
                    ToolKind::Write => Some("Write"),
                    ToolKind::Edit => Some("Edit"),
                    ToolKind::Fetch => Some("WebFetch"),
                    _ => None,
                };
                match (name, spec) {
                    (None, _) => {
                        w.dropped(it, format!("Claude Code has no tool for `{}`", it.rule));
                        None
                    }
                    (Some(n), None) => Some(n.to_owned()),
                    (Some(_), Some(Specifier::Domain(_))) => Some(it.rule.to_string()),
                    (Some(_), Some(Specifier::Url(u))) => {
                        let host = spec_text(&it.rule);
                        let plain = u.scheme.is_none() && u.port.is_none() && u.path.is_empty();
                        if plain {
                            Some(format!("WebFetch(domain:{host})"))
                        } else if it.list == RuleList::Allow {
                            w.dropped(
                                it,
                                format!("`{}` is narrower than a domain; it is left out", it.rule),
                            );
                            None
                        } else {
                            let h = host.split_once("://").map_or(host.as_str(), |(_, r)| r);
                            let h = h.split(['/', ':']).next().unwrap_or(h);
                            w.approximated(
                                &it.path,
                                format!("`{}` is widened to its domain", it.rule),
                            );
                            Some(format!("WebFetch(domain:{h})"))
                        }
                    }
                    (Some(n), Some(_)) => Some(format!("{n}({})", spec_text(&it.rule))),
                }
            }
            (ToolSelector::Name(n), Some(Specifier::McpTool(t))) => Some(format!("mcp__{n}__{t}")),
            _ => Some(it.rule.to_string()),
        };
        if let Some(r) = out {
            let slot = match it.list {
                RuleList::Allow => 0,
                RuleList::Ask => 1,
                RuleList::Deny => 2,
            };
            if let Some(l) = lists.get_mut(slot) {
                if !l.contains(&r) {
                    l.push(r);
                }
            }
        }
    }
    let [allow, ask, deny] = lists;
    let mut perms = serde_json::Map::new();
    for (k, v) in [("allow", allow), ("ask", ask), ("deny", deny)] {
        if !v.is_empty() {
            perms.insert(k.to_owned(), v.into());
        }
    }
    let mut dirs: Vec<String> = Vec::new();
    let all_perms = doc
        .permissions
        .iter()
        .chain(doc.layers.iter().map(|l| &l.permissions));
    let mut mode = doc.default_mode;
    let mut disable = false;
    for p in all_perms {
        for d in &p.additional_directories {
            if !dirs.contains(d) {
                dirs.push(d.clone());
            }
        }
        mode = mode.or(p.default_mode);
        disable |= p.disable_bypass_permissions_mode.is_some();
    }
    if !dirs.is_empty() {
        perms.insert("additionalDirectories".to_owned(), dirs.into());
    }
    if let Some(m) = mode {
        perms.insert("defaultMode".to_owned(), m.as_str().into());
    }
    if disable {
        perms.insert("disableBypassPermissionsMode".to_owned(), "disable".into());
        w.left_out(
            "layers",
            "`disableBypassPermissionsMode` holds only in managed-settings.json: copy it there",
        );
    }
    if doc
        .layers
        .iter()
        .any(|l| l.allow_managed_permission_rules_only)
    {
        w.left_out(
            "layers",
            "`allowManagedPermissionRulesOnly` holds only in managed-settings.json: copy it there",
        );
    }
    if let Some(c) = &doc.copilot {
        if c.allow_all || c.allow_all_tools || c.allow_all_paths || c.allow_all_urls {
            w.left_out(
                "copilot",
                "the allow-all flags are not exported: those calls ask",
            );
        }
    }
    if doc.layers.len() > 1 {
        w.approximated("layers", "the layers are merged into one settings file");
    }
    let mut top = serde_json::Map::new();
    top.insert("permissions".to_owned(), perms.into());
    serde_json::to_string_pretty(&serde_json::Value::Object(top)).unwrap_or_default() + "\n"
}

/// Copilot CLI arguments, one flag per line: the reading `copilotCliArgs` uses too
/// ([`super::copilot_cli`]), without grants.
fn copilot(w: &mut Writer, doc: &PolicyDocument) -> Result<String> {
    let plan = super::copilot_cli::plan(doc, &[])?;
    for note in plan.notes {
        if note.widened {
            w.approximated(&note.path, note.why);
        } else {
            w.left_out(&note.path, note.why);
        }
    }
    let mut lines: Vec<String> = Vec::new();
    for (flag, value) in plan.pairs {
        let line = format!("{flag} {}", quote(&value));
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    let order = [
        "--deny-tool",
        "--deny-url",
        "--allow-tool",
        "--allow-url",
        "--add-dir",
    ];
    lines.sort_by_key(|l| {
        order
            .iter()
            .position(|o| l.starts_with(o))
            .unwrap_or(order.len())
    });
    let mut text = lines.join(" \\\n");
    text.push('\n');
    Ok(text)
}

/// Quotes a shell word when it needs it.
fn quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:@,+=".contains(c))
    {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// A TOML basic string.
fn toml_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

fn gemini(w: &mut Writer, _doc: &PolicyDocument, items: &[Item]) -> String {
    let mut out = String::new();
    let mut seen: Vec<String> = Vec::new();
    let mut rule = |out: &mut String, list: RuleList, body: String| {
        let (decision, priority) = match list {
            RuleList::Deny => ("deny", 300),
            RuleList::Ask => ("ask_user", 200),
            RuleList::Allow => ("allow", 100),
        };
        let block = format!("[[rule]]\n{body}decision = \"{decision}\"\npriority = {priority}\n");
        if !seen.contains(&block) {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&block);
            seen.push(block);
        }
    };
    for it in items {
        w.note_respellings(it);
        if !w.keeps(it) {
            continue;
        }
        let allow = it.list == RuleList::Allow;
        if let Some(m) = command(&it.rule) {
            let tool = "toolName = \"run_shell_command\"\n".to_owned();
            match m {
                Cmd::All => rule(&mut out, it.list, tool),
                Cmd::Prefix(p) if allow => {
                    // Gemini CLI requires white space or the end of the command after the
                    // prefix by itself.
                    w.approximated(&it.path, format!("`{}` becomes the prefix `{p}`: Gemini CLI also reads a word glued to its last word by quotes (`{p}\"x\"`) as this prefix; run Gemini CLI with toolgate's hook to keep toolgate's reading", it.rule));
                    rule(
                        &mut out,
                        it.list,
                        format!("{tool}commandPrefix = {}\n", toml_str(&p)),
                    );
                }
                Cmd::Prefix(p) => {
                    for p in spelt_as_toolgate_matches(w, it, &p) {
                        rule(
                            &mut out,
                            it.list,
                            format!("{tool}commandPrefix = {}\n", toml_str(&p)),
                        );
                    }
                }
                Cmd::Exact(_) | Cmd::Glob(_) if allow => w.dropped(
                    it,
                    format!(
                        "Gemini CLI prefixes would allow more than `{}`; it is left out",
                        it.rule
                    ),
                ),
                Cmd::Exact(e) | Cmd::Glob(e) => {
                    let p = literal_text(&e);
                    if p.trim().is_empty() {
                        rule(&mut out, it.list, tool);
                    } else {
                        for p in spelt_as_toolgate_matches(w, it, p) {
                            rule(
                                &mut out,
                                it.list,
                                format!("{tool}commandPrefix = {}\n", toml_str(&p)),
                            );
                        }
                    }
                    w.approximated(&it.path, format!("`{}` is widened to a prefix", it.rule));
                }
            }
            continue;
        }
        if let Some(bodies) = gemini_mcp_rule(w, it) {
            for body in bodies {
                rule(&mut out, it.list, body);
            }
            continue;
        }
        // A deny or ask covers every Gemini tool of its kind (a `Read` deny also the
        // searches and listings), an allow only the tools of exactly its kind.
        let names: Vec<String> = match it.rule.tool() {
            ToolSelector::Builtin { tool, .. } => {
                super::gemini::gemini_tools(tool.defaults.kind, !allow)
                    .into_iter()
                    .map(str::to_owned)
                    .collect()
            }
            ToolSelector::Mcp { .. } => Vec::new(),
            ToolSelector::Name(n) => vec![n.clone()],
            ToolSelector::Glob(_) => Vec::new(),
        };
        if names.is_empty() {
            w.dropped(it, format!("Gemini CLI cannot express `{}`", it.rule));
            continue;
        }
        let name = names.join("`, `");
        let has_spec = it.rule.specifier().is_some()
            && !matches!(it.rule.specifier(), Some(Specifier::McpTool(_)));
        if has_spec && allow {
            w.dropped(
                it,
                format!(
                    "Gemini CLI cannot express `{}` as narrowly; it is left out",
                    it.rule
                ),
            );
            continue;
        }
        if has_spec {
            w.approximated(
                &it.path,
                format!("`{}` is widened to every call of `{name}`", it.rule),
            );
        }
        for n in &names {
            rule(&mut out, it.list, format!("toolName = {}\n", toml_str(n)));
        }
    }
    out
}

/// The Gemini CLI rule bodies of an MCP rule (`mcp__github__delete_repository`,
/// `github(delete_repository)`), named as Gemini CLI 0.61 matches them: `mcpName = "github"`
/// and `toolName = "delete_repository"`, or `toolName = "*"` for the whole server; `None`
/// for other rules. A bare name (`github`, Copilot CLI's server) in a deny or ask also names
/// the server. Gemini CLI reads a tool pattern (`get_*`) as a server name, so a deny or ask
/// on one is widened to the server and an allow is left out (`Some` of nothing).
fn gemini_mcp_rule(w: &mut Writer, it: &Item) -> Option<Vec<String>> {
    let (server, tool) = match (it.rule.tool(), it.rule.specifier()) {
        (ToolSelector::Mcp { server, tool, .. }, _) => (server.clone(), tool.clone()),
        (ToolSelector::Name(n), Some(Specifier::McpTool(t))) => (n.clone(), Some(t.clone())),
        (ToolSelector::Name(n), None) if it.list != RuleList::Allow => {
            let bodies = vec![
                format!("toolName = {}\n", toml_str(n)),
                gemini_mcp_body(n, "*"),
            ];
            return Some(bodies);
        }
        _ => return None,
    };
    let tool = match tool {
        None => "*".to_owned(),
        Some(t) if !t.contains('*') => t,
        Some(_) if it.list == RuleList::Allow => {
            w.dropped(
                it,
                format!(
                    "Gemini CLI reads a tool pattern as a server name, so `{}` cannot be \
                     expressed; it is left out",
                    it.rule
                ),
            );
            return Some(Vec::new());
        }
        Some(_) => {
            w.approximated(
                &it.path,
                format!(
                    "Gemini CLI reads a tool pattern as a server name: `{}` is widened to \
                     every tool of `{server}`",
                    it.rule
                ),
            );
            "*".to_owned()
        }
    };
    Some(vec![gemini_mcp_body(&server, &tool)])
}

/// A Gemini CLI rule body naming an MCP server's tool (`*` for every tool).
fn gemini_mcp_body(server: &str, tool: &str) -> String {
    format!(
        "mcpName = {}\ntoolName = {}\n",
        toml_str(server),
        toml_str(tool)
    )
}

/// The spellings a deny or ask on `words` needs in the target: the words, and the words with
/// the program as toolgate folds it when that differs (`/usr/bin/curl` also as `curl`, `GIT`
/// also as `git`), with a warning.
fn spelt_as_toolgate_matches(w: &mut Writer, it: &Item, words: &str) -> Vec<String> {
    let mut out = vec![words.to_owned()];
    if let Some(folded) = spellings::with_folded_program(words) {
        w.approximated(
            &it.path,
            format!(
                "`{}` also covers its program as `{folded}`, as toolgate matches it",
                it.rule
            ),
        );
        out.push(folded);
    }
    out
}

fn codex(w: &mut Writer, _doc: &PolicyDocument, items: &[Item]) -> String {
    let mut out = String::new();
    for it in items {
        w.note_respellings(it);
        if !w.keeps(it) {
            continue;
        }
        let decision = match it.list {
            RuleList::Allow => "allow",
            RuleList::Ask => "prompt",
            RuleList::Deny => "forbidden",
        };
        let Some(m) = command(&it.rule) else {
            w.dropped(
                it,
                format!(
                    "Codex rules cover shell commands only: `{}` is left out",
                    it.rule
                ),
            );
            continue;
        };
        let words: String = match m {
            Cmd::All => String::new(),
            Cmd::Prefix(p) => p,
            Cmd::Exact(_) | Cmd::Glob(_) if it.list == RuleList::Allow => {
                w.dropped(
                    it,
                    format!(
                        "Codex rules are prefixes: `{}` would allow more, so it is left out",
                        it.rule
                    ),
                );
                continue;
            }
            Cmd::Exact(e) | Cmd::Glob(e) => {
                w.approximated(&it.path, format!("`{}` is widened to a prefix", it.rule));
                literal_words(&e)
            }
        };
        if words.is_empty() {
            w.dropped(
                it,
                format!(
                    "Codex cannot express a rule on every command: `{}` is left out",
                    it.rule
                ),
            );
            continue;
        }
        let spellings = if it.list == RuleList::Allow {
            vec![words]
        } else {
            spelt_as_toolgate_matches(w, it, &words)
        };
        for words in spellings {
            let pattern: Vec<String> = words.split(' ').map(toml_str).collect();
            let line = format!(
                "prefix_rule(pattern = [{}], decision = \"{decision}\")\n",
                pattern.join(", ")
            );
            if !out.contains(&line) {
                out.push_str(&line);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers() {
        assert_eq!(literal_words("git * main"), "git");
        assert_eq!(literal_text("rm -rf*"), "rm -rf");
        assert_eq!(quote("shell(git push)"), "'shell(git push)'");
        assert_eq!(quote("github.com"), "github.com");
    }
}
