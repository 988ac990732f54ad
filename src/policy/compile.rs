//! Turning a [`PolicyDocument`] into a compiled [`Policy`]: parse every rule once, order
//! them by layer, index them per class, collect warnings, check the examples.

use crate::decision::{Layer, RuleList};
use crate::error::{Error, ErrorKind, Result};
use crate::rule::{CommandMatch, Rule, Specifier, ToolSelector};
use crate::tool::{builtin, BUILTIN_TOOLS};

use super::document::{DisableBypass, Permissions, PolicyDocument, Warning};
use super::index::{ClassIndex, Indexable};
use super::{Entry, Flags, Policy};

/// One rule as it appears in the document, before parsing.
struct Source {
    layer: Layer,
    root: Option<String>,
    list: RuleList,
    index: usize,
    text: String,
    path: String,
    flag: Option<String>,
}

const LISTS: [RuleList; 3] = [RuleList::Deny, RuleList::Ask, RuleList::Allow];

fn list_name(list: RuleList) -> &'static str {
    match list {
        RuleList::Deny => "deny",
        RuleList::Ask => "ask",
        RuleList::Allow => "allow",
    }
}

fn push_permissions(
    out: &mut Vec<Source>,
    layer: Layer,
    root: Option<&str>,
    perms: &Permissions,
    prefix: &str,
) {
    for list in LISTS {
        let rules = match list {
            RuleList::Deny => &perms.deny,
            RuleList::Ask => &perms.ask,
            RuleList::Allow => &perms.allow,
        };
        for (index, text) in rules.iter().enumerate() {
            out.push(Source {
                layer,
                root: root.map(str::to_owned),
                list,
                index,
                text: text.clone(),
                path: format!("{prefix}.{}[{index}]", list_name(list)),
                flag: None,
            });
        }
    }
}

fn absolute(value: &str, path: &str, what: &str) -> Result<String> {
    crate::path::normalize(value, None, None).ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidPolicy,
            format!("{what} `{value}` is not an absolute path"),
        )
        .at(path)
        .with_hint("write an absolute path starting with `/`")
    })
}

pub(crate) fn compile(doc: PolicyDocument) -> Result<Policy> {
    let mut warnings = Vec::new();
    let home = match &doc.home {
        Some(h) => Some(absolute(h, "home", "home directory")?),
        None => None,
    };
    let mut sources = Vec::new();
    let mut additional = Vec::new();
    let mut bypass_disabled = false;
    let mut managed_only = false;
    let mut layer_modes = Vec::new();
    let mut layers: Vec<(Layer, Option<String>, &Permissions, String, bool)> = Vec::new();
    if let Some(p) = &doc.permissions {
        layers.push((Layer::Session, None, p, "permissions".to_owned(), false));
    }
    for (i, l) in doc.layers.iter().enumerate() {
        let at = format!("layers[{i}]");
        if l.source == Layer::Trust {
            return Err(Error::new(
                ErrorKind::InvalidPolicy,
                "layer source `trust` is reserved for remembered answers",
            )
            .at(format!("{at}.source"))
            .with_hint("use `managed`, `cli`, `local`, `project`, `user` or `session`"));
        }
        let root = match &l.root {
            Some(r) => Some(absolute(r, &format!("{at}.root"), "layer root")?),
            None => None,
        };
        layers.push((
            l.source,
            root,
            &l.permissions,
            format!("{at}.permissions"),
            l.allow_managed_permission_rules_only,
        ));
    }
    layers.sort_by_key(|(layer, ..)| *layer);
    for (layer, root, perms, prefix, only) in &layers {
        let managed = *layer == Layer::Managed;
        if *only {
            if managed {
                managed_only = true;
            } else {
                warnings.push(Warning::new(
                    "MANAGED_SETTING_IGNORED",
                    prefix.trim_end_matches(".permissions"),
                    "`allowManagedPermissionRulesOnly` is honoured in the managed layer only",
                ));
            }
        }
        if perms.disable_bypass_permissions_mode == Some(DisableBypass::Disable) {
            if managed {
                bypass_disabled = true;
            } else {
                warnings.push(Warning::new(
                    "MANAGED_SETTING_IGNORED",
                    format!("{prefix}.disableBypassPermissionsMode"),
                    "`disableBypassPermissionsMode` is honoured in the managed layer only",
                ));
            }
        }
        if let Some(m) = perms.default_mode {
            layer_modes.push(m);
        }
        for (i, d) in perms.additional_directories.iter().enumerate() {
            if d.is_empty() {
                return Err(Error::new(ErrorKind::InvalidPolicy, "empty directory")
                    .at(format!("{prefix}.additionalDirectories[{i}]"))
                    .with_hint("remove the entry or name a directory"));
            }
            additional.push(d.clone());
        }
        push_permissions(&mut sources, *layer, root.as_deref(), perms, prefix);
    }
    let copilot = doc.copilot.clone().unwrap_or_default();
    let flags = Flags {
        allow_all_tools: copilot.allow_all_tools || copilot.allow_all,
        allow_all_paths: copilot.allow_all_paths || copilot.allow_all,
        allow_all_urls: copilot.allow_all_urls || copilot.allow_all,
    };
    let flag_lists: [(&str, RuleList, &Vec<String>, bool); 4] = [
        ("denyTools", RuleList::Deny, &copilot.deny_tools, false),
        ("denyUrls", RuleList::Deny, &copilot.deny_urls, true),
        ("allowTools", RuleList::Allow, &copilot.allow_tools, false),
        ("allowUrls", RuleList::Allow, &copilot.allow_urls, true),
    ];
    let mut flag_sources = Vec::new();
    for (name, list, items, url) in flag_lists {
        for (index, item) in items.iter().enumerate() {
            let text = if url {
                format!("url({item})")
            } else {
                item.clone()
            };
            flag_sources.push(Source {
                layer: Layer::Cli,
                root: None,
                list,
                index,
                text,
                path: format!("copilot.{name}[{index}]"),
                flag: Some(format!("{name}[{index}]")),
            });
        }
    }
    // Flags sit with the `cli` layer, after its rules.
    let at = sources
        .iter()
        .position(|s| s.layer > Layer::Cli)
        .unwrap_or(sources.len());
    sources.splice(at..at, flag_sources);

    let flags = if managed_only {
        if flags.allow_all_tools || flags.allow_all_paths || flags.allow_all_urls {
            warnings.push(Warning::new(
                "IGNORED_BY_MANAGED_ONLY",
                "copilot",
                "allow-all flags are ignored: the managed layer allows only its own allow rules",
            ));
        }
        Flags::default()
    } else {
        flags
    };

    let mut entries = Vec::new();
    let mut danger_rules = Vec::new();
    for s in sources {
        if super::dangers::is_danger_rule(&s.text) {
            let rule = super::dangers::compile(&s.text, s.list, s.layer, s.index, &s.path)
                .map_err(|e| e.at(&s.path))?;
            if s.list != RuleList::Allow || !managed_only || s.layer == Layer::Managed {
                danger_rules.push(rule);
            }
            continue;
        }
        let rule = Rule::parse(&s.text).map_err(|e| {
            let hint = e.hint().map(str::to_owned);
            let err = Error::new(
                ErrorKind::InvalidRule,
                format!("{} list: {}", list_name(s.list), e.message()),
            )
            .at(&s.path);
            match hint {
                Some(h) => err.with_hint(h),
                None => err,
            }
        })?;
        let mut active = true;
        if s.list == RuleList::Allow && !rule.can_allow() {
            warnings.push(Warning::new(
                "INERT_ALLOW_GLOB",
                &s.path,
                format!(
                    "allow rule `{rule}` approves nothing: a tool-name glob in an allow list \
                     must name a literal MCP server (`mcp__server__*`, `server:*`)"
                ),
            ));
            active = false;
        }
        if s.list == RuleList::Allow && managed_only && s.layer != Layer::Managed {
            warnings.push(Warning::new(
                "IGNORED_BY_MANAGED_ONLY",
                &s.path,
                format!("allow rule `{rule}` is ignored: only managed allow rules apply"),
            ));
            active = false;
        }
        lint(&rule, &s, &doc, &mut warnings);
        entries.push(Entry {
            text: rule.to_string(),
            rule,
            list: s.list,
            layer: s.layer,
            index: s.index,
            flag: s.flag,
            root: s.root,
            path: s.path,
            active,
        });
    }
    lint_unseen_commands(&entries, flags.allow_all_tools, &mut warnings);
    let case_sensitive = doc.case_sensitive;
    let deny = build_class(&entries, RuleList::Deny, case_sensitive)?;
    let ask = build_class(&entries, RuleList::Ask, case_sensitive)?;
    let allow = build_class(&entries, RuleList::Allow, case_sensitive)?;
    for (name, t) in &doc.tools {
        if name.trim().is_empty() {
            return Err(Error::new(ErrorKind::InvalidPolicy, "empty tool name")
                .at("tools")
                .with_hint("key each entry by the tool's name"));
        }
        if t.kind == crate::tool::ToolKind::Mcp {
            return Err(Error::new(
                ErrorKind::InvalidPolicy,
                format!("tool `{name}` cannot have kind `mcp`"),
            )
            .at(format!("tools.{name}.kind"))
            .with_hint("MCP tools take their defaults from their annotations and `mcpServers`"));
        }
        if let Some(b) = builtin(name).filter(|b| b.defaults.kind != t.kind) {
            return Err(Error::new(
                ErrorKind::InvalidPolicy,
                format!(
                    "tool `{name}` is built in with kind `{}` and cannot be given kind `{}`",
                    kind_name(b.defaults.kind),
                    kind_name(t.kind)
                ),
            )
            .at(format!("tools.{name}.kind"))
            .with_hint(format!(
                "keep kind `{}` for `{name}` (its level, risk and trust may change), or name \
                 your own tool differently",
                kind_name(b.defaults.kind)
            )));
        }
    }
    for path in doc.provenance.keys() {
        if !entries.iter().any(|e| &e.path == path) && !danger_rules.iter().any(|d| &d.path == path)
        {
            return Err(Error::new(
                ErrorKind::InvalidPolicy,
                format!("provenance for `{path}`, which is not a rule of this document"),
            )
            .at(format!("provenance.{path}"))
            .with_hint("key provenance by a rule's place, e.g. `permissions.allow[0]`"));
        }
    }
    for name in doc.mcp_servers.keys() {
        if let Some(problem) = crate::rule::mcp_server_problem(name) {
            return Err(Error::new(
                ErrorKind::InvalidPolicy,
                format!("MCP server name `{name}` {problem}"),
            )
            .at(format!("mcpServers.{name}"))
            .with_hint(crate::rule::SERVER_NAME_HINT));
        }
    }
    let default_mode = doc
        .default_mode
        .or_else(|| layer_modes.first().copied())
        .unwrap_or_default();
    Ok(Policy {
        entries,
        deny,
        ask,
        allow,
        default_mode,
        home,
        rule_links: Vec::new(),
        additional,
        flags,
        bypass_disabled,
        managed_only,
        case_sensitive,
        tools: doc.tools.clone(),
        mcp_servers: doc.mcp_servers.clone(),
        agents: doc.agents.clone(),
        warnings,
        examples: doc.examples,
        provenance: doc.provenance,
        danger_rules,
    })
}

fn build_class(entries: &[Entry], list: RuleList, case_sensitive: bool) -> Result<ClassIndex> {
    let items: Vec<Indexable<'_>> = entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.list == list && e.active)
        .map(|(id, e)| Indexable {
            id,
            rule: &e.rule,
            root: e.root.as_deref(),
        })
        .collect();
    ClassIndex::build(&items, list != RuleList::Allow, case_sensitive).map_err(|(id, e)| {
        match entries.get(id) {
            Some(entry) => e.at(&entry.path),
            None => e,
        }
    })
}

/// A tool kind as policy documents spell it.
fn kind_name(kind: crate::tool::ToolKind) -> String {
    serde_json::to_value(kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{kind:?}"))
}

/// Warnings for rules that parse but can never match, or look like typos.
fn lint(rule: &Rule, s: &Source, doc: &PolicyDocument, warnings: &mut Vec<Warning>) {
    let ToolSelector::Name(name) = rule.tool() else {
        return;
    };
    if let Some(b) = near_builtin(name) {
        warnings.push(Warning::new(
            "UNKNOWN_TOOL_NAME",
            &s.path,
            format!(
                "`{name}` is not a built-in tool; did you mean `{b}`? the rule only matches a \
                 tool or MCP server named exactly `{name}`"
            ),
        ));
    }
    if let (Some(Specifier::McpTool(_)), Some(_)) = (rule.specifier(), doc.tools.get(name)) {
        warnings.push(Warning::new(
            "NEVER_MATCHES",
            &s.path,
            format!(
                "`{rule}` can never match: `{name}` is a tool, and a specifier after a \
                 non-built-in name names a tool of an MCP server"
            ),
        ));
    }
}

/// Warnings for allow rules (and Copilot's `allowAllTools`) that do not cover commands they
/// name while a deny or ask rule names a command: a command that may run one the line does
/// not show (a git alias, a package script: [`crate::commands::unseen_command`]) asks then,
/// unless an allow rule names it exactly (`Bash(npm run test:*)` does not cover `npm run
/// test`, `Bash(*)` does not cover `npm test`).
fn lint_unseen_commands(entries: &[Entry], allow_all_tools: bool, warnings: &mut Vec<Warning>) {
    let names_command = |e: &&Entry| matches!(e.rule.specifier(), Some(Specifier::Command(_)));
    let Some(guard) = entries
        .iter()
        .filter(|e| e.active && e.list != RuleList::Allow)
        .find(names_command)
    else {
        return;
    };
    let any = "commands that may run one the line does not show (a git, cargo or gh alias, a \
               package script: `npm test`, `npm install`, `yarn build`)";
    let fix = "an allow rule naming the command exactly (without a wildcard) allows it";
    if allow_all_tools {
        warnings.push(Warning::new(
            "ALLOW_NOT_EXACT",
            "copilot.allowAllTools",
            format!(
                "`allowAllTools` does not allow {any} while rule `{}` names a command; {fix}",
                guard.text
            ),
        ));
    }
    for e in entries
        .iter()
        .filter(|e| e.active && e.list == RuleList::Allow)
    {
        let Some(Specifier::Command(c)) = e.rule.specifier() else {
            continue;
        };
        let named = match &c.matcher {
            CommandMatch::Exact(s) if !s.contains('*') => continue,
            CommandMatch::Exact(s) | CommandMatch::Prefix(s) => s,
        };
        let words: Vec<&str> = crate::commands::literal_words(named).collect();
        // A rule that names the program alone (`Bash(npm *)`) covers none of the commands
        // it may hide; one that names a command (`Bash(npm run test:*)`) covers it.
        let what = match words.as_slice() {
            [] => any.to_owned(),
            [program] if crate::commands::HIDING_PROGRAMS.contains(program) => {
                format!("the `{program}` commands that may run another (aliases, package scripts)")
            }
            _ => continue,
        };
        warnings.push(Warning::new(
            "ALLOW_NOT_EXACT",
            &e.path,
            format!(
                "allow rule `{}` does not allow {what} while rule `{}` names a command; {fix}",
                e.text, guard.text
            ),
        ));
    }
}

/// A built-in spelling that `name` is probably a typo of.
fn near_builtin(name: &str) -> Option<&'static str> {
    if builtin(name).is_some() {
        return None;
    }
    BUILTIN_TOOLS
        .iter()
        .flat_map(|t| t.spellings.iter().copied())
        .find(|s| s.eq_ignore_ascii_case(name) || (s.len() >= 4 && edit_distance_one(s, name)))
}

fn edit_distance_one(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let longest = a.len().max(b.len());
    if prefix + suffix + 1 >= longest && a.len() != b.len() {
        return true;
    }
    if a.len() == b.len() {
        // one substitution or one adjacent swap
        let diffs: Vec<usize> = (0..a.len()).filter(|&i| a.get(i) != b.get(i)).collect();
        return match diffs.as_slice() {
            [_] => true,
            [i, j] if *j == i + 1 => a.get(*i) == b.get(*j) && a.get(*j) == b.get(*i),
            _ => false,
        };
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typo_detection() {
        assert_eq!(near_builtin("bassh"), Some("bash"));
        assert_eq!(near_builtin("Bsah"), Some("Bash"));
        assert_eq!(near_builtin("BASH"), Some("bash"));
        assert_eq!(near_builtin("Reed"), Some("Read"));
        assert_eq!(near_builtin("github"), None);
        assert_eq!(near_builtin("Bash"), None);
    }
}
