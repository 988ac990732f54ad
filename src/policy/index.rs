//! Compiled rule lists: every rule of one class (deny, ask or allow) across all layers, in
//! combined matchers (one `GlobSet` per subject kind, hash maps for names and domains), so
//! that evaluation cost barely grows with the number of rules.

use std::collections::HashMap;

use super::globs::{Buckets, BucketsBuilder, GlobIndex, GlobIndexBuilder};
use crate::error::Error;
use crate::rule::{Anchor, DomainPattern, FetchTarget, Rule, Specifier, ToolSelector, UrlPattern};
use crate::tool::ToolKind;

/// The position of a rule in the policy's precedence order (lower wins within a class).
pub(crate) type Id = usize;

/// What the rules of a class are matched against for one call, apart from its subject.
pub(crate) struct ToolQuery<'a> {
    pub name: &'a str,
    pub kind: ToolKind,
    /// `(server, tool)` for MCP calls.
    pub mcp: Option<(&'a str, &'a str)>,
}

/// A rule ready to be indexed: the rule, its precedence id and, for `/path` rules, the
/// layer's root.
pub(crate) struct Indexable<'a> {
    pub id: Id,
    pub rule: &'a Rule,
    pub root: Option<&'a str>,
}

struct PathSetsBuilder {
    abs: BucketsBuilder,
    cwd: BucketsBuilder,
    home: BucketsBuilder,
}

impl PathSetsBuilder {
    fn new(restrictive: bool) -> Self {
        PathSetsBuilder {
            abs: BucketsBuilder::new('/', restrictive),
            cwd: BucketsBuilder::new('/', restrictive),
            home: BucketsBuilder::new('/', restrictive),
        }
    }
}

struct PathSets {
    abs: Buckets,
    cwd: Buckets,
    home: Buckets,
}

enum FetchMatcher {
    Domain(DomainPattern),
    Url(UrlPattern),
}

impl FetchMatcher {
    fn matches(&self, t: &FetchTarget) -> bool {
        match self {
            FetchMatcher::Domain(d) => d.matches_target(t),
            FetchMatcher::Url(u) => u.matches(t),
        }
    }
}

#[derive(Default)]
struct FetchIndex {
    exact: HashMap<String, Vec<(Id, FetchMatcher)>>,
    subdomains: HashMap<String, Vec<(Id, FetchMatcher)>>,
    other: Vec<(Id, FetchMatcher)>,
}

impl FetchIndex {
    fn add(&mut self, id: Id, domain: &DomainPattern, m: FetchMatcher) {
        match (domain.literal(), domain.subdomains) {
            (Some(lit), false) => self.exact.entry(lit).or_default().push((id, m)),
            (Some(lit), true) => self.subdomains.entry(lit).or_default().push((id, m)),
            (None, _) => self.other.push((id, m)),
        }
    }

    fn matches_into(&self, t: &FetchTarget, out: &mut Vec<Id>) {
        let mut check = |list: Option<&Vec<(Id, FetchMatcher)>>| {
            for (id, m) in list.into_iter().flatten() {
                if m.matches(t) {
                    out.push(*id);
                }
            }
        };
        check(self.exact.get(&t.host));
        let mut rest = t.host.as_str();
        while let Some((_, tail)) = rest.split_once('.') {
            check(self.subdomains.get(tail));
            rest = tail;
        }
        check(Some(&self.other));
    }
}

/// Every rule of one class, compiled.
pub(crate) struct ClassIndex {
    kind_wide: HashMap<ToolKind, Vec<Id>>,
    names: HashMap<String, Vec<Id>>,
    mcp: HashMap<String, Vec<(Id, Option<String>)>>,
    name_globs: GlobIndex,
    commands: Buckets,
    commands_canonical: Buckets,
    /// Path rules grouped by the tool kinds they cover, so a rule that covers several
    /// kinds (`Read` covers Read, Glob and Grep) is compiled once, not once per kind.
    paths: Vec<(&'static [ToolKind], PathSets)>,
    fetch: FetchIndex,
}

impl ClassIndex {
    /// Compiles `rules`; `restrictive` is true for deny and ask (wider coverage, canonical
    /// command forms), false for allow. On error, returns the failing rule's id with it.
    pub(crate) fn build(
        rules: &[Indexable<'_>],
        restrictive: bool,
    ) -> std::result::Result<Self, (Id, Error)> {
        let mut kind_wide: HashMap<ToolKind, Vec<Id>> = HashMap::new();
        let mut names: HashMap<String, Vec<Id>> = HashMap::new();
        let mut mcp: HashMap<String, Vec<(Id, Option<String>)>> = HashMap::new();
        let mut name_globs = GlobIndexBuilder::new(restrictive);
        let mut commands = BucketsBuilder::new(' ', restrictive);
        let mut commands_canonical = BucketsBuilder::new(' ', restrictive);
        let mut paths: Vec<(&'static [ToolKind], PathSetsBuilder)> = Vec::new();
        let mut fetch = FetchIndex::default();
        for r in rules {
            let id = r.id;
            let fail = |e: Error| (id, e);
            match (r.rule.tool(), r.rule.specifier()) {
                (sel @ ToolSelector::Builtin { .. }, None) => {
                    for k in sel.covered_kinds(restrictive) {
                        kind_wide.entry(*k).or_default().push(id);
                    }
                }
                (ToolSelector::Mcp { server, tool, .. }, _) => {
                    mcp.entry(server.clone())
                        .or_default()
                        .push((id, tool.clone()));
                }
                (ToolSelector::Name(n), None) => names.entry(n.clone()).or_default().push(id),
                (ToolSelector::Name(n), Some(Specifier::McpTool(t))) => {
                    mcp.entry(n.clone())
                        .or_default()
                        .push((id, Some(t.clone())));
                }
                (ToolSelector::Glob(g), _) => {
                    let glob = g
                        .split('*')
                        .map(globset::escape)
                        .collect::<Vec<_>>()
                        .join("*");
                    name_globs.add(id, &glob, false).map_err(fail)?;
                }
                (_, Some(Specifier::Command(c))) => {
                    for g in c.globs(&|w| w.to_vec()) {
                        commands.add(id, &g).map_err(fail)?;
                    }
                    if restrictive {
                        for g in c.globs(&crate::shell::canonical_words) {
                            commands_canonical.add(id, &g).map_err(fail)?;
                        }
                    }
                }
                (sel, Some(Specifier::Path(p))) => {
                    let kinds = sel.covered_kinds(restrictive);
                    if kinds.is_empty() {
                        continue;
                    }
                    let at = match paths.iter().position(|(k, _)| *k == kinds) {
                        Some(at) => at,
                        None => {
                            paths.push((kinds, PathSetsBuilder::new(restrictive)));
                            paths.len() - 1
                        }
                    };
                    let Some((_, sets)) = paths.get_mut(at) else {
                        continue;
                    };
                    let (set, base) = match (p.anchor, r.root) {
                        (Anchor::Root, _) => (&mut sets.abs, Some("")),
                        (Anchor::LayerRoot, Some(root)) => (&mut sets.abs, Some(root)),
                        (Anchor::Home, _) => (&mut sets.home, None),
                        _ => (&mut sets.cwd, None),
                    };
                    for g in p.globs(base) {
                        set.add(id, &g).map_err(fail)?;
                    }
                }
                (_, Some(Specifier::Domain(d))) => {
                    fetch.add(id, d, FetchMatcher::Domain(d.clone()));
                }
                (_, Some(Specifier::Url(u))) => {
                    fetch.add(id, &u.host, FetchMatcher::Url(u.clone()));
                }
                (_, Some(Specifier::McpTool(_))) => {}
            }
        }
        let mut built_paths = Vec::with_capacity(paths.len());
        for (k, b) in paths {
            let sets = PathSets {
                abs: b.abs.build().map_err(|e| (0, e))?,
                cwd: b.cwd.build().map_err(|e| (0, e))?,
                home: b.home.build().map_err(|e| (0, e))?,
            };
            built_paths.push((k, sets));
        }
        Ok(ClassIndex {
            kind_wide,
            names,
            mcp,
            name_globs: name_globs.build().map_err(|e| (0, e))?,
            commands: commands.build().map_err(|e| (0, e))?,
            commands_canonical: commands_canonical.build().map_err(|e| (0, e))?,
            paths: built_paths,
            fetch,
        })
    }

    /// Rules that match the call by tool alone (no specifier, or an MCP tool pattern).
    pub(crate) fn tool_matches(&self, q: &ToolQuery<'_>, out: &mut Vec<Id>) {
        if let Some(ids) = self.kind_wide.get(&q.kind) {
            out.extend(ids);
        }
        if let Some(ids) = self.names.get(q.name) {
            out.extend(ids);
        }
        self.name_globs.matches_into(q.name, out);
        if let Some((server, tool)) = q.mcp {
            if server != q.name {
                if let Some(ids) = self.names.get(server) {
                    out.extend(ids);
                }
            }
            for (id, pattern) in self.mcp.get(server).into_iter().flatten() {
                if pattern
                    .as_deref()
                    .is_none_or(|p| crate::rule::star_match(p, tool))
                {
                    out.push(*id);
                }
            }
            let spelt_canonically = q
                .name
                .strip_prefix("mcp__")
                .and_then(|rest| rest.strip_prefix(server))
                .and_then(|rest| rest.strip_prefix("__"))
                == Some(tool);
            if !spelt_canonically {
                self.name_globs
                    .matches_into(&format!("mcp__{server}__{tool}"), out);
            }
        }
    }

    /// Command rules that match the words `line` (joined by single spaces) or, for deny and
    /// ask, the canonical words `canonical`.
    pub(crate) fn command_matches(&self, line: &str, canonical: &str, out: &mut Vec<Id>) {
        self.commands.matches_into(line, out);
        self.commands_canonical.matches_into(canonical, out);
    }

    /// Path rules for calls of `kind` that match the normalised absolute `path`.
    pub(crate) fn path_matches(
        &self,
        kind: ToolKind,
        path: &str,
        cwd: Option<&str>,
        home: Option<&str>,
        out: &mut Vec<Id>,
    ) {
        let rel_cwd = cwd.and_then(|c| crate::path::relative_to(c, path));
        let rel_home = home.and_then(|h| crate::path::relative_to(h, path));
        for (kinds, sets) in &self.paths {
            if !kinds.contains(&kind) {
                continue;
            }
            sets.abs.matches_into(path, out);
            if let Some(rel) = rel_cwd {
                sets.cwd.matches_into(rel, out);
            }
            if let Some(rel) = rel_home {
                sets.home.matches_into(rel, out);
            }
        }
    }

    /// Fetch rules that match the URL.
    pub(crate) fn fetch_matches(&self, target: &FetchTarget, out: &mut Vec<Id>) {
        self.fetch.matches_into(target, out);
    }
}
