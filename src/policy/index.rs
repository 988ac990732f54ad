//! Compiled rule lists: every rule of one class (deny, ask or allow) across all layers, in
//! combined matchers (glob buckets per subject kind, hash maps for names and domains), so
//! that evaluation cost barely grows with the number of rules.

use std::borrow::Cow;
use std::collections::HashMap;

pub(crate) use super::globs::Id;
use super::globs::{Buckets, BucketsBuilder, GlobIndex, GlobIndexBuilder};
use super::literals::SortedLiterals;
use crate::error::Error;
use crate::rule::{
    Anchor, DomainPattern, FetchTarget, Rule, SegmentGlob, Specifier, ToolSelector, UrlPattern,
};
use crate::shell::Reach;
use crate::tool::ToolKind;

/// What the rules of a class are matched against for one call, apart from its subject.
pub(crate) struct ToolQuery<'a> {
    pub name: &'a str,
    pub kind: ToolKind,
    /// `(server, tool)` for MCP calls.
    pub mcp: Option<(&'a str, &'a str)>,
}

impl ToolQuery<'static> {
    /// A read, as the Read tool is judged: what a shell command opens is looked up so.
    pub(crate) const READ: Self = Self {
        name: "Read",
        kind: ToolKind::Read,
        mcp: None,
    };

    /// A write, as the Write tool is judged.
    pub(crate) const WRITE: Self = Self {
        name: "Write",
        kind: ToolKind::Write,
        mcp: None,
    };
}

/// A rule ready to be indexed: the rule, its precedence id and, for `/path` rules, the
/// layer's root.
pub(crate) struct Indexable<'a> {
    pub id: Id,
    pub rule: &'a Rule,
    pub root: Option<&'a str>,
}

/// What a path glob is relative to once its anchor is resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Base {
    /// An absolute glob.
    Abs,
    /// Relative to the working directory.
    Cwd,
    /// Relative to the home directory.
    Home,
}

/// A deny or ask path glob kept segment by segment, for what a glob set cannot answer
/// (searches, 8.3 short names). Compiled on first use, as the glob sets are, so that loading
/// a policy stays cheap.
struct ReachGlob {
    id: Id,
    base: Base,
    text: String,
    /// The "everything under it" form (`name/**`) of a pattern whose last name has a
    /// wildcard (`*.pem`): such patterns are about file names, so a narrowed search does not
    /// count a directory of that name.
    dir_of_wild_name: bool,
    /// The text before the first segment with a wildcard ([`literal_start`]), worked out
    /// once.
    literal: String,
    compiled: std::sync::OnceLock<Option<SegmentGlob>>,
}

impl ReachGlob {
    /// Whether the glob begins with `**` below its base: it names a file at any depth by
    /// what follows (`**/.env`, as a bare `.env` is read), not by where it lies.
    fn any_depth(&self) -> bool {
        self.text.trim_start_matches('/').starts_with("**")
    }

    /// Whether a name that begins with `start` may be one this glob's last segment
    /// matches by its ending (`*.pem`): `start` ends with a start of the ending (`key.p`,
    /// `x.pem`). Any other last segment (a name, `.env*`, `*`, an ending with wildcards of
    /// its own) may.
    fn may_end_after(&self, start: &str) -> bool {
        let last = self.text.rsplit('/').next().unwrap_or_default();
        let Some(ending) = last.strip_prefix('*') else {
            return true;
        };
        if ending.is_empty() || ending.contains(['*', '?', '[']) {
            return true;
        }
        let ending = ending.to_lowercase();
        ending
            .char_indices()
            .skip(1)
            .map(|(i, _)| i)
            .chain([ending.len()])
            .any(|i| {
                ending
                    .get(..i)
                    .is_some_and(|begins| start.ends_with(begins))
            })
    }

    /// The compiled glob; `None` when a segment does not compile on its own (the caller
    /// then counts the rule as matching: deny and ask fail closed).
    fn glob(&self) -> Option<&SegmentGlob> {
        self.compiled
            .get_or_init(|| SegmentGlob::new(&self.text).ok())
            .as_ref()
    }
}

/// Which deny and ask path rules a search below a directory counts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RuleDepth<'a> {
    /// Every rule.
    Any,
    /// Only the rules anchored at a place: not those that begin with `**`
    /// ([`ReachGlob::any_depth`]).
    Anchored,
    /// For names that begin with this (lowercased) text: every rule, but one on a name's
    /// ending only when the text ends with a start of it ([`ReachGlob::may_end_after`]).
    Begun(&'a str),
}

impl RuleDepth<'_> {
    fn counts(self, r: &ReachGlob) -> bool {
        match self {
            RuleDepth::Any => true,
            RuleDepth::Anchored => !r.any_depth(),
            RuleDepth::Begun(start) => r.may_end_after(start),
        }
    }
}

/// A search below a directory: the files it meets (`pattern` relative to the directory,
/// `None` for every file; `names_only` for a listing that opens none) and the rules it
/// counts.
struct Search<'a> {
    pattern: Option<&'a str>,
    names_only: bool,
    depth: RuleDepth<'a>,
}

struct PathSetsBuilder {
    abs: BucketsBuilder,
    cwd: BucketsBuilder,
    home: BucketsBuilder,
    /// Deny and ask globs segment by segment (for searches and 8.3 short names).
    reach: Vec<ReachGlob>,
}

impl PathSetsBuilder {
    fn new(restrictive: bool) -> Self {
        PathSetsBuilder {
            abs: BucketsBuilder::new('/', restrictive),
            cwd: BucketsBuilder::new('/', restrictive),
            home: BucketsBuilder::new('/', restrictive),
            reach: Vec::new(),
        }
    }
}

struct PathSets {
    abs: Buckets,
    cwd: Buckets,
    home: Buckets,
    reach: Vec<ReachGlob>,
    /// The literal paths of `reach`, one sorted list per base.
    literals: ReachLiterals,
}

/// The literal paths of deny and ask globs by base, for finding the rules a search may meet.
struct ReachLiterals {
    abs: SortedLiterals,
    cwd: SortedLiterals,
    home: SortedLiterals,
}

impl ReachLiterals {
    fn new(reach: &[ReachGlob]) -> Self {
        let of = |base: Base| {
            let items = reach.iter().enumerate().filter(|(_, r)| r.base == base);
            SortedLiterals::new(
                items
                    .map(|(at, r)| (r.literal.trim_start_matches('/').to_owned(), at))
                    .collect(),
            )
        };
        ReachLiterals {
            abs: of(Base::Abs),
            cwd: of(Base::Cwd),
            home: of(Base::Home),
        }
    }

    /// The positions in the reach list, in order, of the rules whose literal path meets the
    /// search's literal text `search` (all of a base's rules when the text or the base is not
    /// known); `cwd` and `home` folded as the rules are.
    fn meeting(&self, search: Option<&str>, cwd: Option<&str>, home: Option<&str>) -> Vec<usize> {
        let mut out = Vec::new();
        for (sorted, base) in [(&self.abs, Some("")), (&self.cwd, cwd), (&self.home, home)] {
            match base.zip(search) {
                Some((base, search)) => {
                    sorted.meeting(base.trim_end_matches('/'), search, &mut out)
                }
                None => sorted.all(&mut out),
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
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

/// The segments of a glob before its first wildcard segment (`/etc/cron.d/*` →
/// `/etc/cron.d`, `**/x` → ``).
pub(super) fn literal_start(glob: &str) -> &str {
    match first_wildcard(glob) {
        Some(at) => glob
            .get(..at)
            .and_then(|before| before.rfind('/'))
            .and_then(|slash| glob.get(..slash))
            .unwrap_or(""),
        None => glob,
    }
}

/// Where the first wildcard character of a glob is (`*`, `?`, a class or a brace).
fn first_wildcard(glob: &str) -> Option<usize> {
    glob.bytes()
        .position(|b| matches!(b, b'*' | b'?' | b'[' | b']' | b'{' | b'}'))
}

/// Whether `a` is `b` or a directory above it, segment by segment (`""` and `/` are above
/// everything).
fn at_or_above(a: &str, b: &str) -> bool {
    let a = a.trim_end_matches('/');
    a.is_empty()
        || b.strip_prefix(a)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// Whether the path `base/rule` (a rule's literal start below its base) and the absolute
/// path `search` lie on one line (one is at or above the other), so that a glob starting
/// with the one could meet a glob starting with the other.
fn related_under(base: &str, rule: &str, search: &str) -> bool {
    if base.is_empty() {
        return at_or_above(rule, search) || at_or_above(search, rule);
    }
    if at_or_above(search, base) {
        return true;
    }
    match crate::path::relative_to(base, search) {
        Some(rel) => {
            let rule = rule.trim_start_matches('/');
            at_or_above(rule, rel) || at_or_above(rel, rule)
        }
        None => false,
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
    /// Every rule that names a command, in the order of the rules.
    command_rules: Vec<Id>,
    /// Path rules grouped by the tool kinds they cover, so a rule that covers several
    /// kinds (`Read` covers Read, Glob and Grep) is compiled once, not once per kind.
    paths: Vec<(&'static [ToolKind], PathSets)>,
    fetch: FetchIndex,
    /// Deny and ask: paths take the widest reading (case folded, Windows spellings folded,
    /// 8.3 short names expanded).
    restrictive: bool,
    /// Paths compare case-insensitively (always for deny and ask; for allow unless the
    /// policy says the file system is case-sensitive).
    fold_case: bool,
}

impl ClassIndex {
    /// Compiles `rules`; `restrictive` is true for deny and ask (wider coverage, canonical
    /// command forms, the widest reading of paths), false for allow. `case_sensitive` says
    /// whether allow paths compare exactly; deny and ask paths never do. On error, returns
    /// the failing rule's id with it.
    pub(crate) fn build(
        rules: &[Indexable<'_>],
        restrictive: bool,
        case_sensitive: bool,
    ) -> std::result::Result<Self, (Id, Error)> {
        let fold_case = restrictive || !case_sensitive;
        let mut kind_wide: HashMap<ToolKind, Vec<Id>> = HashMap::new();
        let mut names: HashMap<String, Vec<Id>> = HashMap::new();
        let mut mcp: HashMap<String, Vec<(Id, Option<String>)>> = HashMap::new();
        let mut name_globs = GlobIndexBuilder::new(restrictive);
        let mut commands = BucketsBuilder::new(' ', restrictive);
        let mut commands_canonical = BucketsBuilder::new(' ', restrictive);
        let mut command_rules = Vec::new();
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
                        .map(crate::glob::escape)
                        .collect::<Vec<_>>()
                        .join("*");
                    name_globs.add(id, &glob, false).map_err(fail)?;
                }
                (_, Some(Specifier::Command(c))) => {
                    command_rules.push(id);
                    for g in c.literal_globs() {
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
                    let (set, base, relative) = match (p.anchor, r.root) {
                        (Anchor::Root, _) => (&mut sets.abs, Some(""), Base::Abs),
                        (Anchor::LayerRoot, Some(root)) => (&mut sets.abs, Some(root), Base::Abs),
                        (Anchor::Home, _) => (&mut sets.home, None, Base::Home),
                        _ => (&mut sets.cwd, None, Base::Cwd),
                    };
                    for (n, g) in p.globs(base, restrictive).into_iter().enumerate() {
                        let g = if fold_case { g.to_lowercase() } else { g };
                        set.add(id, &g).map_err(fail)?;
                        if restrictive {
                            let wild_name = p
                                .glob
                                .rsplit('/')
                                .next()
                                .is_some_and(|last| last.contains(['*', '?', '[']));
                            sets.reach.push(ReachGlob {
                                id,
                                base: relative,
                                literal: literal_start(&g).to_owned(),
                                text: g,
                                dir_of_wild_name: n > 0 && wild_name,
                                compiled: std::sync::OnceLock::new(),
                            });
                        }
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
                literals: ReachLiterals::new(&b.reach),
                reach: b.reach,
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
            command_rules,
            paths: built_paths,
            fetch,
            restrictive,
            fold_case,
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

    /// Every rule that names a command (`Bash(git push:*)`), whatever the command: those a
    /// command the line does not show may meet.
    pub(crate) fn command_rules(&self) -> &[Id] {
        &self.command_rules
    }

    /// Path rules for calls of `kind` that match the normalised absolute `path`. Deny and
    /// ask rules take the widest reading: case-insensitive, with the path's Windows spellings
    /// folded ([`crate::path::fold_windows`]) and its 8.3 short-name segments standing for
    /// any long name they could abbreviate. Allow rules compare case-insensitively unless
    /// the policy says the file system is case-sensitive, and never match a path with a
    /// Windows spelling.
    pub(crate) fn path_matches(
        &self,
        kind: ToolKind,
        path: &str,
        cwd: Option<&str>,
        home: Option<&str>,
        out: &mut Vec<Id>,
    ) {
        if !self.paths.iter().any(|(kinds, _)| kinds.contains(&kind)) {
            return;
        }
        // The narrowest reading for allows: a path that a Windows file system would read
        // differently (`.env.`, `x::$DATA`, `a\b`) matches no allow rule.
        if !self.restrictive && crate::path::has_windows_spelling(path) {
            return;
        }
        // Most paths are lower-case ASCII already: those are compared as they are.
        fn folded_text(fold_case: bool, p: &str) -> Cow<'_, str> {
            let plain = p.bytes().all(|b| b.is_ascii() && !b.is_ascii_uppercase());
            if fold_case && !plain {
                Cow::Owned(p.to_lowercase())
            } else {
                Cow::Borrowed(p)
            }
        }
        let fold = |p| folded_text(self.fold_case, p);
        let (cwd, home) = (cwd.map(fold), home.map(fold));
        let mut candidates = vec![fold(path)];
        let folded = (self.restrictive && crate::path::has_windows_spelling(path))
            .then(|| crate::path::normalize(&crate::path::fold_windows(path), None, None))
            .flatten();
        if let Some(folded) = &folded {
            candidates.push(fold(folded));
        }
        for p in &candidates {
            self.exact_path_matches(kind, p, cwd.as_deref(), home.as_deref(), out);
            if self.restrictive && crate::path::segments(p).any(|s| s.contains('~')) {
                self.reach_matches(kind, p, cwd.as_deref(), home.as_deref(), false, out);
            }
        }
    }

    fn exact_path_matches(
        &self,
        kind: ToolKind,
        path: &str,
        cwd: Option<&str>,
        home: Option<&str>,
        out: &mut Vec<Id>,
    ) {
        let rel_cwd = self.relative_parts(cwd, path);
        let rel_home = self.relative_parts(home, path);
        for (kinds, sets) in &self.paths {
            if !kinds.contains(&kind) {
                continue;
            }
            sets.abs.matches_into(path, out);
            for rel in &rel_cwd {
                sets.cwd.matches_into(rel, out);
            }
            for rel in &rel_home {
                sets.home.matches_into(rel, out);
            }
        }
    }

    /// The normalised absolute `path` relative to `base`, as rules anchored there see it.
    /// When the call does not know `base` (no usable working directory, no home directory),
    /// deny and ask rules take the widest reading and are read at any depth (`./secrets/**`
    /// as `**/secrets/**`): every tail of `path`. Allow rules then match nothing.
    fn relative_parts<'p>(&self, base: Option<&str>, path: &'p str) -> Vec<&'p str> {
        match base {
            Some(base) => crate::path::relative_to(base, path).into_iter().collect(),
            None if self.restrictive => tails(path).collect(),
            None => Vec::new(),
        }
    }

    /// Deny and ask path rules for calls of `kind` that could match a file at or below the
    /// normalised absolute directory `dir`: what a search rooted there (the Grep and Glob
    /// tools, `grep -r`, `rg`, `find`) could open. Compared as deny and ask rules compare
    /// (case-insensitively, Windows spellings folded). Always empty for allow rules.
    pub(crate) fn could_match_below(
        &self,
        kind: ToolKind,
        dir: &str,
        cwd: Option<&str>,
        home: Option<&str>,
        out: &mut Vec<Id>,
    ) {
        self.search_matches(kind, dir, None, false, cwd, home, out);
    }

    /// Like [`Self::could_match_below`], for a search that opens only the files below `dir`
    /// that match `pattern` (relative to `dir`, `**` allowed); `None` for every file. A
    /// rule still counts when a file it covers could match the pattern: a rule on a
    /// directory covers every name inside it, unless `names_only` (a listing such as the
    /// Glob tool's, which opens no file): then only a pattern that spells out its last name
    /// (`**/.env`, not `**/*.rs`) can meet a rule, and only the names a rule covers itself.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn search_matches(
        &self,
        kind: ToolKind,
        dir: &str,
        pattern: Option<&str>,
        names_only: bool,
        cwd: Option<&str>,
        home: Option<&str>,
        out: &mut Vec<Id>,
    ) {
        let search = Search {
            pattern,
            names_only,
            depth: RuleDepth::Any,
        };
        self.rules_meeting(kind, dir, &search, cwd, home, out);
    }

    /// Deny and ask path rules for calls of `kind` that could match what a write of the
    /// normalised absolute `path` reaches beyond the name itself (see [`Reach`]): with
    /// [`Reach::Tree`], a file below it; with [`Reach::Prefix`], a name in its directory
    /// that begins with its last segment (`/p/Mak` begins `/p/Makefile`), and a file below
    /// such a name. A rule that names a file at any depth by its name alone (`**/.env`)
    /// counts only for a name the program composes, not for the files below it, whose
    /// names the program chooses; and a rule on a name's ending (`*.pem`) only when the
    /// word ends with a start of it (`key.p`): another ending is another word's, judged on
    /// its own. Compared as [`Self::could_match_below`] compares.
    pub(crate) fn write_reach_matches(
        &self,
        kind: ToolKind,
        path: &str,
        reach: Reach,
        cwd: Option<&str>,
        home: Option<&str>,
        out: &mut Vec<Id>,
    ) {
        let mut meet = |dir: &str, pattern: Option<&str>, depth: RuleDepth<'_>| {
            let search = Search {
                pattern,
                names_only: false,
                depth,
            };
            self.rules_meeting(kind, dir, &search, cwd, home, out);
        };
        match reach {
            Reach::Name => {}
            Reach::Tree => meet(path, None, RuleDepth::Anchored),
            Reach::Prefix => {
                let Some((dir, last)) = path.rsplit_once('/') else {
                    return;
                };
                let dir = if dir.is_empty() { "/" } else { dir };
                let begun = last.to_lowercase();
                meet(dir, Some(&format!("{last}*")), RuleDepth::Begun(&begun));
                meet(dir, Some(&format!("{last}*/*/**")), RuleDepth::Anchored);
            }
        }
    }

    /// The search behind [`Self::search_matches`] and [`Self::write_reach_matches`].
    fn rules_meeting(
        &self,
        kind: ToolKind,
        dir: &str,
        search: &Search<'_>,
        cwd: Option<&str>,
        home: Option<&str>,
        out: &mut Vec<Id>,
    ) {
        let Search {
            pattern,
            names_only,
            depth,
        } = *search;
        let counted = |r: &&ReachGlob| !r.dir_of_wild_name && depth.counts(r);
        if !self.restrictive {
            return;
        }
        // A listing asks only when its pattern spells out the name it looks for.
        let spelt_out = pattern
            .and_then(|p| p.rsplit('/').next())
            .is_some_and(|last| !last.contains(['*', '?', '[']));
        if names_only && !spelt_out {
            return;
        }
        let has_rules = |(kinds, sets): &(&[ToolKind], PathSets)| {
            kinds.contains(&kind) && !sets.reach.is_empty()
        };
        if !self.paths.iter().any(has_rules) {
            return;
        }
        let lower = |p: &str| p.to_lowercase();
        let (cwd, home) = (cwd.map(lower), home.map(lower));
        let mut dirs = vec![lower(dir)];
        if crate::path::has_windows_spelling(dir) {
            if let Some(folded) =
                crate::path::normalize(&crate::path::fold_windows(dir), None, None)
            {
                dirs.push(lower(&folded));
            }
        }
        let pattern = lower(pattern.unwrap_or("**"));
        for d in &dirs {
            let joined = format!("{}/{pattern}", d.trim_end_matches('/'));
            // `joined` below, but for the root directory (`//**`, as the glob is compiled).
            let text = if d.ends_with('/') {
                Cow::Owned(format!("{d}/{pattern}"))
            } else {
                Cow::Borrowed(joined.as_str())
            };
            // Compiled when a rule first gets past the cheap checks: most do not.
            let compiled: std::cell::OnceCell<Option<SegmentGlob>> = std::cell::OnceCell::new();
            let search = || {
                compiled
                    .get_or_init(|| SegmentGlob::new(&text).ok())
                    .as_ref()
            };
            // A pattern that does not compile narrows nothing: every rule below `d` counts.
            let mut narrows_nothing = false;
            let search_start = literal_start(&text);
            // The search's text before its first wildcard, within a segment too (`/p/mak`
            // for `/p/mak*`): every name it stands for starts with that text, so a rule whose
            // own literal start leaves it cannot meet it. Not with a short name, which stands
            // for names it does not start like.
            let search_literal = first_wildcard(&joined)
                .and_then(|at| joined.get(..at))
                .filter(|l| !l.contains('~'));
            for (kinds, sets) in &self.paths {
                if !kinds.contains(&kind) {
                    continue;
                }
                // Cheapest first: the rule's literal path must meet the search's text.
                let meeting =
                    sets.literals
                        .meeting(search_literal, cwd.as_deref(), home.as_deref());
                for r in meeting.iter().filter_map(|&at| sets.reach.get(at)) {
                    let base = match r.base {
                        Base::Abs => Some(""),
                        Base::Cwd => cwd.as_deref(),
                        Base::Home => home.as_deref(),
                    };
                    if !counted(&r) {
                        continue;
                    }
                    // The literal starts of both must lie on one line.
                    if base.is_some_and(|base| !related_under(base, &r.literal, search_start)) {
                        continue;
                    }
                    let Some(search) = search() else {
                        narrows_nothing = true;
                        continue;
                    };
                    let hit = match base {
                        Some(base) => r
                            .glob()
                            .is_none_or(|glob| glob.intersects_below(base, search)),
                        // An unknown anchor: the rule at any depth ([`Self::relative_parts`]).
                        None => SegmentGlob::new(&format!("**/{}", r.text))
                            .map_or(true, |glob| glob.intersects_below("", search)),
                    };
                    if hit {
                        out.push(r.id);
                    }
                }
            }
            if narrows_nothing {
                self.reach_matches(kind, d, cwd.as_deref(), home.as_deref(), true, out);
            }
        }
    }

    /// The segment-wise check behind [`Self::could_match_below`] (`below`) and the matching
    /// of paths with 8.3 short names; every text is already folded.
    #[allow(clippy::too_many_arguments)]
    fn reach_matches(
        &self,
        kind: ToolKind,
        path: &str,
        cwd: Option<&str>,
        home: Option<&str>,
        below: bool,
        out: &mut Vec<Id>,
    ) {
        fn segments(p: &str) -> Vec<&str> {
            crate::path::segments(p).collect()
        }
        // Where rules anchored at `base` see `path`: `None` for everything under the base.
        let relative = |base: Option<&str>| -> Vec<Option<Vec<&str>>> {
            let Some(base) = base else {
                // An unknown anchor ([`Self::relative_parts`]): the rule at any depth, which
                // may lie below any search root.
                return if below {
                    vec![None]
                } else {
                    tails(path).map(|t| Some(segments(t))).collect()
                };
            };
            if let Some(rel) = crate::path::relative_to(base, path) {
                return vec![Some(segments(rel))];
            }
            // A search rooted above the base reaches everything under it.
            if below && crate::path::contains(path, base) {
                vec![None]
            } else {
                Vec::new()
            }
        };
        let abs = Some(segments(path));
        let rel_cwd = relative(cwd);
        let rel_home = relative(home);
        for (kinds, sets) in &self.paths {
            if !kinds.contains(&kind) {
                continue;
            }
            for r in &sets.reach {
                // Cheap first for searches: an absolute rule off the directory's line cannot
                // match below it (short names compare only segment by segment).
                let quick = below && !path.contains('~');
                if quick && r.base == Base::Abs && !related_under("", literal_start(&r.text), path)
                {
                    continue;
                }
                let seen: &[Option<Vec<&str>>] = match r.base {
                    Base::Abs => std::slice::from_ref(&abs),
                    Base::Cwd => &rel_cwd,
                    Base::Home => &rel_home,
                };
                let hit = seen.iter().any(|segs| match (segs, r.glob()) {
                    (None, _) | (Some(_), None) => true,
                    (Some(segs), Some(glob)) if below => glob.could_match_below(segs),
                    (Some(segs), Some(glob)) => glob.matches(segs),
                });
                if hit {
                    out.push(r.id);
                }
            }
        }
    }

    /// Fetch rules that match the URL.
    pub(crate) fn fetch_matches(&self, target: &FetchTarget, out: &mut Vec<Id>) {
        self.fetch.matches_into(target, out);
    }
}

/// Every relative tail of the normalised absolute `path`, longest first: `a/b/c`, `b/c`,
/// `c` for `/a/b/c`.
fn tails(path: &str) -> impl Iterator<Item = &str> {
    path.match_indices('/')
        .filter_map(move |(at, _)| path.get(at + 1..))
        .filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tail_of_a_path() {
        assert_eq!(tails("/a/b/c").collect::<Vec<_>>(), ["a/b/c", "b/c", "c"]);
        assert_eq!(tails("/").count(), 0);
    }

    #[test]
    fn rules_on_a_name_s_ending_meet_only_words_that_end_with_a_start_of_it() {
        let glob = |text: &str| ReachGlob {
            id: 0,
            base: Base::Cwd,
            literal: literal_start(text).to_owned(),
            text: text.to_owned(),
            dir_of_wild_name: false,
            compiled: std::sync::OnceLock::new(),
        };
        assert!(glob("**/*.pem").may_end_after("key.p"));
        assert!(glob("**/*.pem").may_end_after("x.pem"));
        assert!(glob("**/*.PEM").may_end_after("key."));
        assert!(!glob("**/*.pem").may_end_after("app"));
        assert!(glob("src/*").may_end_after("app"));
        assert!(glob("makefile").may_end_after("mak"));
        assert!(glob("**/*.p?m").may_end_after("app"));
        assert!(glob("**/.env").any_depth());
        assert!(glob("/**/.env").any_depth());
        assert!(!glob("src/**").any_depth());
    }

    #[test]
    fn literal_starts_and_relations() {
        assert_eq!(literal_start("/etc/cron.d/*"), "/etc/cron.d");
        assert_eq!(literal_start("**/x"), "");
        assert_eq!(literal_start("src/**"), "src");
        assert_eq!(literal_start("/p/.env"), "/p/.env");
        assert!(related_under("", "/etc/cron.d", "/etc"));
        assert!(related_under("", "/etc", "/etc/cron.d/x"));
        assert!(!related_under("", "/etc", "/home/ada"));
        assert!(related_under("", "", "/home/ada"));
        assert!(related_under("/p", ".env", "/p"));
        assert!(related_under("/p", "", "/p/src"));
        assert!(!related_under("/p", "secrets", "/p/src"));
        assert!(related_under("/p", "secrets", "/"));
        assert!(!related_under("/p", "secrets", "/q"));
        assert!(!related_under("/p", "sec", "/p/secrets"));
    }
}
