//! The `copilot` CLI arguments that express a policy (and the trust grants that apply to a
//! run) without allowing more than toolgate would: the one reading that both
//! `toolgate export --to copilot` and the JS `copilotCliArgs` use.
//!
//! What the Copilot CLI does with its flags, and where each fact comes from:
//! - Its denies win over its allows, and it has no "ask" list (Copilot CLI's command
//!   reference, `--allow-tool`/`--deny-tool`; checked with `copilot -p` 1.0.102 in
//!   tests/agents/copilot-sdk.test.mjs). So an ask rule, or a deny it cannot be told, is left
//!   out, and so is every allow that could cover a call it covers.
//! - `shell(x)` allows or denies `x` with any arguments; `shell(x y)` is a prefix only when
//!   `y` is a subcommand the CLI knows (`git push`) and otherwise that exact command:
//!   `shell(touch a.txt)` does not stop `touch a.txt b.txt` (copilot-sdk.test.mjs, Path B).
//!   So an exact deny is passed as it is, and a deny with a wildcard or more than one prefix
//!   word denies its whole program. No shell allow is passed: every program toolgate allows
//!   takes arguments that read or write files or run programs (`cp x .git/hooks/pre-commit`,
//!   `cat .env`), which toolgate still asks about and the CLI would run unasked; the hook
//!   (`toolgate install --agent copilot`) decides shell calls instead.
//! - `write` is every file write, `server` / `server(tool)` an MCP server's tools as the CLI's
//!   own MCP configuration names them, and `shell`, `write`, `url` its built-in tools (Copilot
//!   CLI's command reference). The CLI has no per-path rule, so a path deny is widened to
//!   `write` when it guards writes.
//! - `--allow-url host` / `--deny-url host` name a host as toolgate reads Copilot's `url(...)`
//!   rules (docs/rules.md); a wildcard host, a scheme, a port or a path is not passed on an
//!   allow.
//! - `--allow-all*` let the CLI run every call unasked, including the ones toolgate still asks
//!   about (paths outside the project, protected paths): they are never passed.
//!
//! The rest of a program's spelling is read as widely as toolgate reads a deny: a deny on
//! `/usr/bin/rm` also denies `rm`, and `RM` also `rm`.

use serde::Deserialize;

use crate::decision::RuleList;
use crate::error::Result;
use crate::policy::PolicyDocument;
use crate::rule::{DomainPattern, Rule, Specifier, ToolSelector};
use crate::tool::ToolKind;
use crate::trust::{Grant, Scope};

use super::export::{command, items, literal_text, Cmd, Item};

/// An allow rule from outside the policy (a trust grant), with where it comes from: the
/// `origin` names it in the report (`grant g-1a2b...`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtraAllow {
    /// The allow rule, in the policy's rule syntax.
    pub rule: String,
    /// Where it comes from.
    pub origin: String,
}

/// A rule left out of the arguments, and why.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CopilotSkipped {
    /// The rule as written (a policy rule, a grant's rule, or an `--allow-all*` flag).
    pub rule: String,
    /// Why it is not passed: the CLI would allow more than toolgate with it.
    pub why: String,
}

/// `copilot` CLI arguments, and the allows that were left out (JS: `copilotCliArgs`'
/// result).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CopilotCliArgs {
    /// Flags and their values, one word each (`--deny-tool`, `shell(git)`, ...).
    pub args: Vec<String>,
    /// Allows and grants the CLI cannot be given without allowing more than toolgate.
    pub skipped: Vec<CopilotSkipped>,
}

/// What [`copilot_cli_args`] reads (JS: `copilotCliArgs`' options, camelCase JSON).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CopilotCliOptions {
    /// The policy whose rules are passed (every layer's).
    #[serde(default)]
    pub policy: Option<PolicyDocument>,
    /// The broker's grants: only those that apply to the run are passed.
    #[serde(default)]
    pub grants: Vec<Grant>,
    /// The session the run belongs to: its session grants apply; without it, none do.
    #[serde(default)]
    pub session_id: Option<String>,
    /// The agent grants are bound to (`copilot` when absent).
    #[serde(default)]
    pub agent: Option<String>,
    /// The time grants are checked against (Unix ms).
    pub now: u64,
}

/// A place in the report: a rule passed wider than written, or left out.
pub(super) struct Note {
    /// The rule's place in the policy, or the grant's origin.
    pub(super) path: String,
    /// The rule as written.
    pub(super) rule: String,
    /// What happened, for people.
    pub(super) why: String,
    /// Passed, but wider than written (a deny); otherwise left out.
    pub(super) widened: bool,
    /// An allow left out (what `copilotCliArgs` reports).
    pub(super) allow: bool,
}

/// Flags with their values, in the order found, and the notes.
pub(super) struct Plan {
    pub(super) pairs: Vec<(&'static str, String)>,
    pub(super) notes: Vec<Note>,
}

/// `copilot` arguments for the policy and grants in `options`: the grants that apply to the
/// run (the agent or none, the session or none, not expired; [`Grant::applies`]) become
/// allows, the others are in `skipped` with why.
///
/// ```
/// use toolgate::import::{copilot_cli_args, CopilotCliOptions};
/// let options: CopilotCliOptions = toolgate::json::from_str(
///     r#"{"policy":{"permissions":{"allow":["Bash(npm test *)","WebFetch(domain:docs.rs)"],"deny":["Bash(git push *)"]}},"now":0}"#,
///     "options",
/// ).unwrap();
/// let out = copilot_cli_args(&options).unwrap();
/// assert_eq!(out.args, ["--deny-tool", "shell(git)", "--allow-url", "docs.rs"]);
/// // `shell(npm test)` would run `npm test` with any arguments: the hook decides shell calls.
/// assert_eq!(out.skipped[0].rule, "Bash(npm test *)");
/// ```
pub fn copilot_cli_args(options: &CopilotCliOptions) -> Result<CopilotCliArgs> {
    let agent = options.agent.as_deref().unwrap_or("copilot");
    let session = options.session_id.as_deref();
    let mut skipped = Vec::new();
    let mut extra = Vec::new();
    for g in &options.grants {
        match grant_left_out(g, session, agent, options.now) {
            None => extra.push(ExtraAllow {
                rule: g.rule.clone(),
                origin: format!("grant {}", g.id),
            }),
            Some(why) => skipped.push(CopilotSkipped {
                rule: g.rule.clone(),
                why,
            }),
        }
    }
    let empty = PolicyDocument::default();
    let plan = plan(options.policy.as_ref().unwrap_or(&empty), &extra)?;
    let args = plan
        .pairs
        .into_iter()
        .flat_map(|(flag, value)| [flag.to_owned(), value])
        .collect();
    skipped.extend(
        plan.notes
            .into_iter()
            .filter(|n| n.allow && !n.widened)
            .map(|n| CopilotSkipped {
                rule: n.rule,
                why: n.why,
            }),
    );
    Ok(CopilotCliArgs { args, skipped })
}

/// Why `grant` does not apply to this run, or `None` when it does ([`Grant::applies`] decides;
/// without a session no session grant applies).
fn grant_left_out(grant: &Grant, session: Option<&str>, agent: &str, now: u64) -> Option<String> {
    let applies = match session {
        Some(s) => grant.applies(s, Some(agent), now),
        None => grant.scope != Scope::Session && grant.applies("", Some(agent), now),
    };
    if applies {
        return None;
    }
    Some(
        match (&grant.agent, grant.expires_at, grant.scope, session) {
            (Some(a), ..) if a != agent => format!("a grant for agent `{a}`, not `{agent}`"),
            (_, Some(t), ..) if t <= now => "an expired grant".to_owned(),
            (_, _, Scope::Session, None) => {
                "a session grant, and no `sessionId` was given".to_owned()
            }
            (_, _, Scope::Session, Some(s)) => format!(
                "a grant for session `{}`, not `{s}`",
                grant.session_id.as_deref().unwrap_or("")
            ),
            _ => "the grant does not apply to this run".to_owned(),
        },
    )
}

/// One rule to place: a readable rule, or an extra allow toolgate cannot read.
enum Entry {
    Rule(Item),
    Unreadable {
        text: String,
        origin: String,
        why: String,
    },
}

/// The flags for `doc` plus `extra` allows, and the notes (see the module docs).
pub(super) fn plan(doc: &PolicyDocument, extra: &[ExtraAllow]) -> Result<Plan> {
    let mut entries: Vec<Entry> = items(doc)?.into_iter().map(Entry::Rule).collect();
    let first_allow = entries
        .iter()
        .position(|e| matches!(e, Entry::Rule(i) if i.list == RuleList::Allow))
        .unwrap_or(entries.len());
    let grants = extra.iter().map(|e| match Rule::parse(&e.rule) {
        Ok(rule) => Entry::Rule(Item {
            list: RuleList::Allow,
            rule,
            text: e.rule.clone(),
            path: e.origin.clone(),
        }),
        Err(err) => Entry::Unreadable {
            text: e.rule.clone(),
            origin: e.origin.clone(),
            why: format!(
                "`{}` is not a rule toolgate reads: {}",
                e.rule,
                err.message()
            ),
        },
    });
    let tail = entries.split_off(first_allow);
    entries.extend(grants);
    entries.extend(tail);

    let mut p = Planner::default();
    for entry in &entries {
        match entry {
            Entry::Unreadable { text, origin, why } => p.notes.push(Note {
                path: origin.clone(),
                rule: text.clone(),
                why: why.clone(),
                widened: false,
                allow: true,
            }),
            Entry::Rule(it) => match it.list {
                RuleList::Deny => p.deny(it),
                RuleList::Ask => p.unexpressed(
                    it,
                    format!("Copilot CLI has no ask list: `{}` is left out", it.text),
                ),
                RuleList::Allow => p.allow(it),
            },
        }
    }
    let dirs = doc
        .permissions
        .iter()
        .chain(doc.layers.iter().map(|l| &l.permissions))
        .flat_map(|perms| perms.additional_directories.iter());
    for d in dirs {
        p.push("--add-dir", d.clone());
    }
    if let Some(c) = &doc.copilot {
        for (on, flag) in [
            (c.allow_all, "--allow-all"),
            (c.allow_all_tools, "--allow-all-tools"),
            (c.allow_all_paths, "--allow-all-paths"),
            (c.allow_all_urls, "--allow-all-urls"),
        ] {
            if on {
                p.notes.push(Note {
                    path: "copilot".to_owned(),
                    rule: flag.to_owned(),
                    why: format!(
                        "`{flag}` is left out: the CLI would run every such call unasked, also \
                         the ones toolgate asks about (protected paths, paths outside the project)"
                    ),
                    widened: false,
                    allow: true,
                });
            }
        }
    }
    Ok(Plan {
        pairs: p.pairs,
        notes: p.notes,
    })
}

#[derive(Default)]
struct Planner {
    pairs: Vec<(&'static str, String)>,
    notes: Vec<Note>,
    /// Deny and ask rules the CLI is not told exactly, as written, with their list.
    unexpressed: Vec<(RuleList, Rule, String)>,
}

impl Planner {
    fn push(&mut self, flag: &'static str, value: String) {
        if !self.pairs.iter().any(|(f, v)| *f == flag && *v == value) {
            self.pairs.push((flag, value));
        }
    }

    fn note(&mut self, it: &Item, why: String, widened: bool) {
        self.notes.push(Note {
            path: it.path.clone(),
            rule: it.text.clone(),
            why,
            widened,
            allow: it.list == RuleList::Allow,
        });
    }

    /// Leaves the deny or ask `it` out (or passes it only in part): the allows that could
    /// cover a call it covers are left out too.
    fn unexpressed(&mut self, it: &Item, why: String) {
        self.note(it, why, false);
        self.remember(it);
    }

    fn remember(&mut self, it: &Item) {
        self.unexpressed
            .push((it.list, it.rule.clone(), it.text.clone()));
    }

    fn deny(&mut self, it: &Item) {
        if let Some(cmd) = command(&it.rule) {
            let (values, why) = shell_deny(&cmd, &it.text);
            for v in values {
                self.push("--deny-tool", v);
            }
            if let Some(why) = why {
                self.note(it, why, true);
            }
            return;
        }
        match (it.rule.tool(), it.rule.specifier()) {
            (ToolSelector::Builtin { tool, .. }, spec) if tool.defaults.kind == ToolKind::Fetch => {
                let (host, narrower) = match spec {
                    Some(Specifier::Domain(d)) => (plain_host(d), false),
                    Some(Specifier::Url(u)) => (
                        plain_host(&u.host),
                        u.scheme.is_some() || u.port.is_some() || !u.path.is_empty(),
                    ),
                    _ => (None, false),
                };
                match host {
                    Some(h) => {
                        if narrower {
                            self.note(
                                it,
                                format!("`{}` is widened to the host `{h}`", it.text),
                                true,
                            );
                        }
                        self.push("--deny-url", h);
                    }
                    None => self.unexpressed(
                        it,
                        format!("Copilot CLI cannot deny `{}`: only a plain host", it.text),
                    ),
                }
            }
            (ToolSelector::Builtin { tool, .. }, spec)
                if matches!(tool.defaults.kind, ToolKind::Write | ToolKind::Edit) =>
            {
                self.push("--deny-tool", "write".to_owned());
                if spec.is_some() {
                    self.note(it, format!("`{}` is widened to every write", it.text), true);
                }
                // A program the shell runs can still write there.
                self.remember(it);
            }
            (ToolSelector::Mcp { server, tool, .. }, _) => {
                self.mcp_deny(it, server, tool.as_deref())
            }
            (ToolSelector::Name(n), Some(Specifier::McpTool(t))) => self.mcp_deny(it, n, Some(t)),
            (ToolSelector::Name(n), None) if plain_name(n) => self.push("--deny-tool", n.clone()),
            _ => self.unexpressed(it, format!("Copilot CLI cannot express `{}`", it.text)),
        }
    }

    fn mcp_deny(&mut self, it: &Item, server: &str, tool: Option<&str>) {
        if !plain_name(server) {
            return self.unexpressed(
                it,
                format!("Copilot CLI cannot name the server of `{}`", it.text),
            );
        }
        match tool {
            Some(t) if plain_name(t) => self.push("--deny-tool", format!("{server}({t})")),
            None => self.push("--deny-tool", server.to_owned()),
            Some(_) => {
                self.note(
                    it,
                    format!("`{}` is widened to every tool of `{server}`", it.text),
                    true,
                );
                self.push("--deny-tool", server.to_owned());
            }
        }
    }

    fn allow(&mut self, it: &Item) {
        let (flag, value) = match allow_spelling(it) {
            Ok(pair) => pair,
            Err(why) => return self.note(it, why, false),
        };
        let meets: Vec<String> = self
            .unexpressed
            .iter()
            .filter(|(_, rule, _)| allow_meets(flag, &value, rule))
            .map(|(list, _, text)| {
                let what = if *list == RuleList::Ask {
                    "ask"
                } else {
                    "deny"
                };
                format!("the {what} rule `{text}`")
            })
            .collect();
        if !meets.is_empty() {
            let why = format!(
                "`{}` is left out: it could allow calls that {} cover{}, which Copilot CLI \
                 cannot be told",
                it.text,
                meets.join(" and "),
                if meets.len() == 1 { "s" } else { "" }
            );
            return self.note(it, why, false);
        }
        self.push(flag, value);
    }
}

/// The `--allow-tool`/`--allow-url` spelling of an allow, when the CLI's reading allows no
/// more; otherwise why not.
fn allow_spelling(it: &Item) -> std::result::Result<(&'static str, String), String> {
    let rule = &it.text;
    if command(&it.rule).is_some() {
        return Err(shell_allow_refusal(rule));
    }
    match (it.rule.tool(), it.rule.specifier()) {
        (ToolSelector::Builtin { tool, .. }, Some(spec))
            if tool.defaults.kind == ToolKind::Fetch =>
        {
            let host = match spec {
                Specifier::Domain(d) => plain_host(d),
                Specifier::Url(u)
                    if u.scheme.is_none() && u.port.is_none() && u.path.is_empty() =>
                {
                    plain_host(&u.host)
                }
                _ => None,
            };
            host.map(|h| ("--allow-url", h)).ok_or_else(|| {
                format!("`{rule}` is left out: Copilot CLI can allow only a plain host")
            })
        }
        (ToolSelector::Builtin { tool, .. }, _)
            if matches!(tool.defaults.kind, ToolKind::Write | ToolKind::Edit) =>
        {
            Err(format!(
                "`{rule}` is left out: `write` would let the CLI write any file, also the ones \
                 toolgate asks about"
            ))
        }
        (ToolSelector::Mcp { .. }, _) | (ToolSelector::Name(_), _) => Err(format!(
            "`{rule}` is left out: the CLI names MCP servers as its own configuration does, and \
             `shell`, `write` and `url` are its built-in tools"
        )),
        _ => Err(format!(
            "`{rule}` is left out: Copilot CLI cannot express it"
        )),
    }
}

/// Why no shell allow is passed: the CLI reads `shell(x)` as `x` with any arguments, and
/// every program toolgate allows can be given arguments that read or write files or run
/// other programs (`cp hook.sh .git/hooks/pre-commit`, `cat .env`, `git diff
/// --output=...`), which toolgate still asks about (protected paths, secret files, paths
/// outside the project) and the CLI would run unasked.
fn shell_allow_refusal(rule: &str) -> String {
    format!(
        "`{rule}` is left out: Copilot CLI reads `shell(x)` as `x` with any arguments, so it \
         would run calls toolgate still asks about (protected paths such as `.git/hooks/`, \
         secret files such as `.env`, paths outside the project); for shell rules, install \
         toolgate as the CLI's hook (`toolgate install --agent copilot`)"
    )
}

/// Whether the passed allow `flag value` could cover a call the rule `other` (a deny or ask
/// the CLI is not told exactly) covers, read widely.
fn allow_meets(flag: &str, value: &str, other: &Rule) -> bool {
    if flag == "--allow-url" {
        return match (other.tool(), other.specifier()) {
            (ToolSelector::Builtin { tool, .. }, spec) if tool.defaults.kind == ToolKind::Fetch => {
                match spec {
                    Some(Specifier::Domain(d)) => hosts_meet(value, d),
                    Some(Specifier::Url(u)) => hosts_meet(value, &u.host),
                    _ => true,
                }
            }
            (ToolSelector::Glob(_), _) => true,
            _ => false,
        };
    }
    let allowed = value
        .strip_prefix("shell(")
        .and_then(|v| v.strip_suffix(')'))
        .unwrap_or(value);
    match command(other) {
        Some(c) => {
            let text = match &c {
                Cmd::All => "",
                Cmd::Prefix(p) | Cmd::Exact(p) => p.as_str(),
                Cmd::Glob(g) => literal_text(g),
            };
            let (a, b) = (command_start(allowed), command_start(text));
            a.starts_with(&b) || b.starts_with(&a)
        }
        // A URL rule and an MCP tool are not what a command acts on; a path rule (and
        // anything else the CLI cannot be told) is: `cat ~/.ssh/id_rsa`.
        None => match other.tool() {
            ToolSelector::Builtin { tool, .. } => tool.defaults.kind != ToolKind::Fetch,
            ToolSelector::Mcp { .. } | ToolSelector::Name(_) => false,
            ToolSelector::Glob(_) => true,
        },
    }
}

/// The literal start of a command, folded as deny and ask rules match: up to the first
/// wildcard, quote or operator, lower case, the program without its directory.
fn command_start(text: &str) -> String {
    let end = text
        .find(|c: char| "*?[]{}$`|;&<>()'\"\\".contains(c))
        .unwrap_or(text.len());
    let head = text.get(..end).unwrap_or("").trim_start().to_lowercase();
    match head.split_once(' ') {
        Some((program, rest)) => format!("{} {rest}", basename(program)),
        None => basename(&head).to_owned(),
    }
}

/// Whether a host allowed by `--allow-url allowed` could be one `pattern` covers: the same
/// host, one below the other, or a pattern the flags cannot name.
fn hosts_meet(allowed: &str, pattern: &DomainPattern) -> bool {
    if pattern.labels.iter().any(|l| l.contains('*')) {
        return true;
    }
    let host = pattern.labels.join(".");
    host == allowed
        || host.ends_with(&format!(".{allowed}"))
        || allowed.ends_with(&format!(".{host}"))
}

/// The `--deny-tool` values for a shell deny, never narrower than toolgate's reading, and
/// how it was widened (see the module docs).
fn shell_deny(cmd: &Cmd, rule: &str) -> (Vec<String>, Option<String>) {
    let (text, exact) = match cmd {
        Cmd::All => return (vec!["shell".to_owned()], None),
        Cmd::Exact(e) => (e.as_str(), true),
        Cmd::Prefix(p) => (p.as_str(), false),
        Cmd::Glob(g) => (g.as_str(), false),
    };
    let text = text.trim();
    let (program, rest) = text.split_once(' ').unwrap_or((text, ""));
    if !plain_words(program) || assigns(program) {
        let why = format!("`{rule}` is widened to every command: its program is not a plain word");
        return (vec!["shell".to_owned()], Some(why));
    }
    // The spellings of the program a deny covers.
    let mut programs = vec![program.to_owned()];
    for p in [
        basename(program).to_owned(),
        basename(program).to_lowercase(),
    ] {
        if !p.is_empty() && !programs.contains(&p) {
            programs.push(p);
        }
    }
    let also = |values: &[String]| {
        (values.len() > 1).then(|| {
            format!(
                "`{rule}` is also passed as `{}`: toolgate reads a denied program without its \
                 directory and in any case",
                values.get(1..).unwrap_or_default().join("`, `")
            )
        })
    };
    if exact && plain_words(text) {
        let values: Vec<String> = programs
            .iter()
            .map(|p| match rest {
                "" => format!("shell({p})"),
                r => format!("shell({p} {r})"),
            })
            .collect();
        let why = also(&values);
        return (values, why);
    }
    let values: Vec<String> = programs.iter().map(|p| format!("shell({p})")).collect();
    if rest.is_empty() && !exact {
        let why = also(&values);
        return (values, why);
    }
    let why = format!(
        "`{rule}` is widened to every `{program}` command: the CLI reads `shell({program} ...)` \
         as a prefix only for subcommands it knows"
    );
    (values, Some(why))
}

/// The program without its directory.
fn basename(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

/// Words of `[A-Za-z0-9_@%+=,./-]` separated by single spaces.
fn plain_words(text: &str) -> bool {
    !text.is_empty()
        && text.split(' ').all(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_@%+=,./-".contains(c))
        })
}

/// Whether the first word sets a variable (`FOO=1 rm x`), which the CLI may read past.
fn assigns(text: &str) -> bool {
    text.split(' ').next().is_some_and(|w| w.contains('='))
}

/// An MCP server or tool name the flags can carry.
fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// A host without wildcards, with at least two labels of `[a-z0-9-]`.
fn plain_host(d: &DomainPattern) -> Option<String> {
    let ok = !d.subdomains
        && d.labels.len() >= 2
        && d.labels.iter().all(|l| {
            !l.is_empty()
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        });
    ok.then(|| d.labels.join("."))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(policy: &str) -> CopilotCliArgs {
        let options = CopilotCliOptions {
            policy: Some(crate::json::from_str(policy, "policy").unwrap()),
            ..CopilotCliOptions::default()
        };
        copilot_cli_args(&options).unwrap()
    }

    fn pairs(out: &CopilotCliArgs) -> Vec<String> {
        out.args.chunks(2).map(|c| c.join(" ")).collect()
    }

    #[test]
    fn shell_denies_are_never_narrower_than_toolgate_reads_them() {
        let out = args(
            r#"{"permissions":{"deny":["Bash(touch denied.txt)","Bash(touch secret *)","Bash(npm:*)",
            "shell(git push)","Bash($SHELL -c x)","Bash(git * main)","Bash(npm*)","Bash(FOO=1 rm x)",
            "Bash(/usr/bin/RM *)","Bash"]}}"#,
        );
        assert_eq!(
            pairs(&out),
            [
                "--deny-tool shell(touch denied.txt)",
                "--deny-tool shell(touch)",
                "--deny-tool shell(npm)",
                "--deny-tool shell(git)",
                "--deny-tool shell",
                "--deny-tool shell(/usr/bin/RM)",
                "--deny-tool shell(RM)",
                "--deny-tool shell(rm)",
            ]
        );
        assert!(out.skipped.is_empty());
    }

    #[test]
    fn allows_only_plain_hosts() {
        let out = args(
            r#"{"permissions":{"allow":["Bash(npm test *)","shell(git:*)","Bash(npm test)","Bash",
            "Bash(git * main)","Bash(FOO=1 make *)","WebFetch(domain:Docs.rs)","WebFetch(domain:*.example.com)",
            "url(https://github.com/x)","mcp__shell","github(create_issue)","Write","Read"]}}"#,
        );
        assert_eq!(pairs(&out), ["--allow-url docs.rs"]);
        let left: Vec<&str> = out.skipped.iter().map(|s| s.rule.as_str()).collect();
        assert_eq!(
            left,
            [
                "Bash(npm test *)",
                "shell(git:*)",
                "Bash(npm test)",
                "Bash",
                "Bash(git * main)",
                "Bash(FOO=1 make *)",
                "WebFetch(domain:*.example.com)",
                "url(https://github.com/x)",
                "mcp__shell",
                "github(create_issue)",
                "Write",
                "Read"
            ]
        );
    }

    /// `shell(x)` is `x` with any arguments: `shell(cp)` would plant a git hook, `shell(cat)`
    /// read `.env`, `shell(git diff)` write through `--output`, all of which toolgate asks about.
    #[test]
    fn no_shell_allow_is_passed_and_the_note_names_the_hook() {
        let out = args(
            r#"{"permissions":{"allow":["Bash(cp *)","Bash(cat *)","Bash(git diff *)","Bash(ls *)",
            "Bash(bash *)","Bash(git *)","Bash(pwd *)"]}}"#,
        );
        assert!(out.args.is_empty(), "{:?}", out.args);
        assert_eq!(out.skipped.len(), 7);
        for s in &out.skipped {
            assert!(s.why.contains("with any arguments"), "{}", s.why);
            assert!(
                s.why.contains("toolgate install --agent copilot"),
                "{}",
                s.why
            );
        }
        let cp = out.skipped.first().unwrap();
        assert_eq!(cp.rule, "Bash(cp *)");
        assert!(
            cp.why.contains("`.git/hooks/`") && cp.why.contains("`.env`"),
            "{}",
            cp.why
        );
    }

    #[test]
    fn an_allow_an_unexpressed_rule_was_carved_out_of_is_left_out() {
        let out = args(
            r#"{"permissions":{"allow":["WebFetch(domain:github.com)","WebFetch(domain:docs.rs)"],
            "ask":["WebFetch(domain:api.docs.rs)"]}}"#,
        );
        assert_eq!(pairs(&out), ["--allow-url github.com"]);
        assert!(out
            .skipped
            .iter()
            .any(|s| s.rule == "WebFetch(domain:docs.rs)"
                && s.why.contains("`WebFetch(domain:api.docs.rs)`")));
    }

    #[test]
    fn urls_mcp_and_writes() {
        let out = args(
            r#"{"permissions":{"deny":["WebFetch(domain:gist.github.com)","url(https://evil.example/x)",
            "WebFetch(domain:*.bad.example)","mcp__github__delete_repository","mcp__shell_server","mcp__gh__del*",
            "Edit(./.env)"],"allow":["WebFetch(domain:ok.bad.example)","WebFetch(domain:docs.rs)"]},
            "copilot":{"allowAllTools":true}}"#,
        );
        assert_eq!(
            pairs(&out),
            [
                "--deny-url gist.github.com",
                "--deny-url evil.example",
                "--deny-tool github(delete_repository)",
                "--deny-tool shell_server",
                "--deny-tool gh",
                "--deny-tool write",
                "--allow-url docs.rs",
            ]
        );
        let left: Vec<&str> = out.skipped.iter().map(|s| s.rule.as_str()).collect();
        assert_eq!(
            left,
            ["WebFetch(domain:ok.bad.example)", "--allow-all-tools"]
        );
    }

    #[test]
    fn grants_apply_by_the_trust_rule() {
        let grant = |fields: &str| -> Grant {
            crate::json::from_str(&format!(r#"{{"id":"g","createdAt":0,{fields}}}"#), "grant")
                .unwrap()
        };
        let options = CopilotCliOptions {
            grants: vec![
                grant(r#""rule":"WebFetch(domain:a.example)","scope":"always","agent":"claude""#),
                grant(r#""rule":"WebFetch(domain:b.example)","scope":"always","expiresAt":10"#),
                grant(r#""rule":"WebFetch(domain:c.example)","scope":"session","sessionId":"s""#),
                grant(
                    r#""rule":"WebFetch(domain:d.example)","scope":"always","agent":"copilot","expiresAt":11"#,
                ),
            ],
            now: 10,
            ..CopilotCliOptions::default()
        };
        let out = copilot_cli_args(&options).unwrap();
        assert_eq!(out.args, ["--allow-url", "d.example"]);
        let why: Vec<&str> = out.skipped.iter().map(|s| s.why.as_str()).collect();
        assert_eq!(why.len(), 3, "{why:?}");
        assert!(why[0].contains("agent `claude`"));
        assert!(why[1].contains("expired"));
        assert!(why[2].contains("no `sessionId`"));
        let in_session = CopilotCliOptions {
            session_id: Some("s".to_owned()),
            ..options
        };
        let out = copilot_cli_args(&in_session).unwrap();
        assert_eq!(
            out.args,
            ["--allow-url", "c.example", "--allow-url", "d.example"]
        );
    }
}
