//! One call as the policy sees it ([`Call`]): its tool, its subject (paths, URL), and the
//! look-ups of its rules class by class. Deciding a call from these is
//! [`super::decide`]'s job; the shell view and the danger step build on [`Call`] too, so
//! this module uses none of them.

use std::cell::RefCell;

use crate::decision::{Decider, Reason, RuleList, TrustOverlay};
use crate::mode::Mode;
use crate::request::Request;
use crate::rule::RequestedUrl;
use crate::shell::Reach;
use crate::tool::{Level, ToolKind};

use super::index::{ClassIndex, Id, ToolQuery};
use super::resolve::{resolve_tool, Tool};
use super::settle::{Basis, Effective};
use super::trust::TrustIndex;
use super::{Entry, Policy};

/// What a non-shell call is about.
pub(crate) enum Subject {
    None,
    Paths(Vec<String>),
    /// Paths of a call that cannot be analysed as a whole (an unknown key): deny and ask
    /// rules still judge the paths, then the call is unanalysable.
    Flawed(Vec<String>, String),
    Url(RequestedUrl),
    Bad(String),
}

/// One evaluation in progress.
pub(crate) struct Call<'a> {
    pub policy: &'a Policy,
    pub request: &'a Request,
    pub trust: Option<&'a TrustIndex>,
    pub cwd: Option<String>,
    /// Where rules relative to the working directory are anchored: the request's `root`
    /// (the project), else its `cwd`.
    pub anchor: Option<String>,
    pub home: Option<String>,
    /// The directories the request names that the host resolved to another spelling (the
    /// project, the working directory, the home directory), and the deny and ask rules'
    /// literal starts that lead elsewhere ([`Policy::add_rule_realpaths`]), each as
    /// (written, real path): see [`Call::spellings`].
    pub linked: Vec<(String, String)>,
    pub dirs: Vec<String>,
    pub tool: Tool,
    /// Every rule that matched, for explanations: (from the trust overlay, id).
    pub hits: RefCell<Vec<(bool, Id)>>,
    /// Whether to fill `hits` (only explanations need them).
    pub record: bool,
    /// Where an allow from a Copilot flag stops ([`Call::beyond_flags`]), worked out on
    /// first use.
    pub reach: std::cell::OnceCell<Option<String>>,
    /// Whether the shell analysis asked about a write outside the working directory and the
    /// additional directories (set as it asks, read when the line's decision is made).
    pub writes_outside: std::cell::Cell<bool>,
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
        let anchor = rule_anchor(request);
        let home = policy
            .home
            .clone()
            .or_else(|| anchor.as_deref().and_then(crate::path::home_from_cwd))
            .or_else(|| cwd.as_deref().and_then(crate::path::home_from_cwd));
        let project = request.root.as_deref().or(request.cwd.as_deref());
        let home_as_given = policy.home.as_deref();
        let linked: Vec<(String, String)> = [project, request.cwd.as_deref(), home_as_given]
            .into_iter()
            .flatten()
            .filter_map(|dir| real_spelling(request, dir))
            .chain(policy.rule_links.iter().cloned())
            .fold(Vec::new(), |mut out, pair| {
                if !out.contains(&pair) {
                    out.push(pair);
                }
                out
            });
        let mut dirs: Vec<String> = anchor.iter().cloned().collect();
        // The project reached through a symlink: its real directory is inside it too (its
        // files' real paths lead there).
        if let Some((_, real)) = project.and_then(|p| real_spelling(request, p)) {
            if !dirs.contains(&real) {
                dirs.push(real);
            }
        }
        for d in &policy.additional {
            if let Some(n) = crate::path::normalize(d, anchor.as_deref(), home.as_deref()) {
                dirs.push(n);
            }
        }
        Call {
            policy,
            request,
            trust,
            cwd,
            anchor,
            home,
            linked,
            dirs,
            tool: resolve_tool(policy, request),
            hits: RefCell::new(Vec::new()),
            record: false,
            reach: std::cell::OnceCell::new(),
            writes_outside: std::cell::Cell::new(false),
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
        let mut hits = matches(self.class(list));
        self.set_aside_flags(list, &mut hits);
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

    /// Drops from allow `hits` the Copilot flags' rules when the call reaches beyond them
    /// ([`Call::beyond_flags`]): such an allow covers the tool, not paths outside the
    /// project. Other allow rules are kept as they are.
    pub(crate) fn set_aside_flags(&self, list: RuleList, hits: &mut Vec<Id>) {
        if list != RuleList::Allow {
            return;
        }
        let from_flag = |id: &Id| {
            self.policy
                .entries
                .get(*id)
                .is_some_and(|e| e.flag.is_some())
        };
        if hits.iter().any(from_flag) && self.beyond_flags().is_some() {
            hits.retain(|id| !from_flag(id));
        }
    }

    fn remember(&self, from_trust: bool, hits: &[Id]) {
        if !self.record {
            return;
        }
        if let Ok(mut rec) = self.hits.try_borrow_mut() {
            rec.extend(hits.iter().map(|id| (from_trust, *id)));
        }
    }

    /// Whether the path is inside the working directory or an additional directory, also
    /// as a Windows file system would read it (`..\\..\\etc` leaves the project there). A
    /// path in a process's own view (`/proc/self/cwd/x`, `/dev/fd/3`) never is, whatever
    /// the project: where it leads depends on the process that opens it.
    pub(crate) fn inside(&self, path: &str) -> bool {
        let within = |p: &str| self.dirs.iter().any(|d| crate::path::contains(d, p));
        within(path)
            && !crate::path::in_process_view(path)
            && (!crate::path::has_windows_spelling(path)
                || crate::path::normalize(&crate::path::fold_windows(path), None, None)
                    .is_some_and(|p| within(&p)))
    }

    /// `path` (normalised, absolute) and its other spellings through [`Call::linked`]: at
    /// or below one spelling of a linked directory, the same path below the other
    /// (`/tmp/p/secrets/k` with the project `/tmp/link` resolved to `/tmp/p` is also
    /// `/tmp/link/secrets/k`). Deny, ask and protected checks judge every spelling, so a rule
    /// anchored at the project, a layer root or the home directory meets the file however
    /// it is spelt; allow rules judge the path only.
    pub(crate) fn spellings(&self, path: &str) -> Vec<String> {
        let mut out = vec![path.to_owned()];
        for (written, real) in &self.linked {
            for (from, to) in [(written, real), (real, written)] {
                if let Some(rest) = crate::path::relative_to(from, path) {
                    let other = join_below(to, rest);
                    if !out.contains(&other) {
                        out.push(other);
                    }
                }
            }
        }
        out
    }

    /// Whether a write of `path` reaches a protected path ([`super::is_protected_reach`]) in
    /// any of its [`Call::spellings`], for a call in the working directory `cwd`. Without
    /// one the call could be anywhere: the files protected directly in the working directory
    /// or a parent of it (a bare repository's `config`) count in any directory.
    pub(crate) fn reaches_protected(
        &self,
        path: &str,
        cwd: Option<&str>,
        reach: crate::shell::Reach,
    ) -> bool {
        let home = self.home.as_deref();
        self.spellings(path).iter().any(|p| {
            let cwd = cwd.or_else(|| parent_dir(p));
            super::is_protected_reach(p, home, cwd, reach)
        })
    }

    /// The directories a search rooted at `root` reaches through [`Call::linked`] that its
    /// [`Call::spellings`] do not name: the other spelling of a linked directory that lies
    /// below `root` (a search of `/private` reaches `/private/tmp/p`, which is the project
    /// `/tmp/p` as written). Each is searched whole.
    fn linked_below(&self, root: &str) -> Vec<String> {
        let mut out = Vec::new();
        for (written, real) in &self.linked {
            for (inner, other) in [(written, real), (real, written)] {
                let above = crate::path::contains(root, inner) && root != inner.as_str();
                if above && !crate::path::contains(root, other) && !out.contains(other) {
                    out.push(other.clone());
                }
            }
        }
        out
    }

    pub(crate) fn normalize(&self, path: &str) -> Option<String> {
        crate::path::normalize(path, self.cwd.as_deref(), self.home.as_deref())
    }

    /// The written path (normalised) and, when the request carries them, its real paths (of
    /// the path as written and of its lexical form). A path the host marked as unresolved
    /// (mapped to the empty string) is an error: where it leads is unknown.
    pub(crate) fn path_candidates(&self, written: &str) -> Result<Vec<String>, String> {
        let what = |p: &str| {
            format!(
                "path `{p}` cannot be resolved ({})",
                crate::path::unresolved_because(p)
            )
        };
        if crate::path::is_windows_absolute(written) {
            return Err(format!(
                "path `{written}` is a Windows drive or network path, which cannot be resolved \
                 against this working directory"
            ));
        }
        let lexical = self.normalize(written).ok_or_else(|| what(written))?;
        let unresolved = |p: &str| {
            if crate::path::in_process_view(p) || crate::path::in_process_view(&lexical) {
                format!(
                    "path `{p}` leads where the process that opens it sees (`/proc/self`, \
                     `/dev/fd`), which the host cannot resolve for the agent; name the file \
                     itself"
                )
            } else {
                format!(
                    "the host could not resolve where path `{p}` leads, or, for a search \
                     root, could not look at every file below it (too many missing \
                     directories below a link, more names than it looks at, a `~` root)"
                )
            }
        };
        let mut out = Vec::with_capacity(3);
        for (key, real) in [(written, self.request.realpaths.get(written))]
            .into_iter()
            .chain(
                (lexical != written)
                    .then(|| (lexical.as_str(), self.request.realpaths.get(&lexical))),
            )
        {
            match real {
                Some(r) if r.is_empty() => return Err(unresolved(key)),
                Some(r) => out.push(self.normalize(r).ok_or_else(|| what(r))?),
                None => {}
            }
        }
        if out.is_empty() {
            let relative = self.relative_to_cwd(&lexical);
            for text in std::iter::once(written).chain(relative.as_deref()) {
                match self.through_resolved_directory(text) {
                    Some(Err(key)) => return Err(unresolved(&key)),
                    Some(Ok(r)) => out.push(self.normalize(&r).ok_or_else(|| what(&r))?),
                    None => {}
                }
            }
        }
        out.insert(0, lexical);
        out.dedup();
        Ok(out)
    }

    /// `path` (absolute) relative to the working directory, when it is below it.
    fn relative_to_cwd(&self, path: &str) -> Option<String> {
        let cwd = self.cwd.as_deref()?.trim_end_matches('/');
        let rest = path.strip_prefix(cwd)?.strip_prefix('/')?;
        (!rest.is_empty()).then(|| rest.to_owned())
    }

    /// Where `path` leads through the longest of its leading directories whose real path
    /// the host found ([`Request::realpaths`]): that real path with the rest of `path`
    /// joined on. The analysis builds paths the host never saw whole (`lb/payload` from
    /// `curl --output-dir lb -O .../payload`, `sec/token` from `tar -C sec token`); a link
    /// among their directories leads them elsewhere as it leads a path written in full.
    /// `None` when no leading directory is known; `Err` with the directory's key when the
    /// host could not resolve it. The working directory's own entry (`.`) says whether every
    /// path was resolved, and is not a directory here.
    ///
    /// ```text
    /// realpaths {"sec": "/secret"}:  "sec/token"  -> Some(Ok("/secret/token"))
    /// realpaths {"d/": "/x"}:        "d/a/b"      -> Some(Ok("/x/a/b"))
    /// ```
    pub(crate) fn through_resolved_directory(&self, path: &str) -> Option<Result<String, String>> {
        let realpaths = &self.request.realpaths;
        if realpaths.is_empty() {
            return None;
        }
        let cuts = path
            .match_indices('/')
            .map(|(at, _)| at)
            .chain([path.len()])
            .rev();
        for at in cuts {
            let (dir, rest) = path.split_at(at);
            let dir = dir.trim_end_matches('/');
            if dir.is_empty() || dir == "." {
                continue;
            }
            let with_slash = format!("{dir}/");
            for key in [dir, with_slash.as_str()] {
                match realpaths.get(key) {
                    Some(real) if real.is_empty() => return Some(Err(key.to_owned())),
                    Some(real) => {
                        let joined = format!("{}{rest}", real.trim_end_matches('/'));
                        return Some(Ok(if joined.is_empty() {
                            "/".to_owned()
                        } else {
                            joined
                        }));
                    }
                    None => {}
                }
            }
        }
        None
    }

    pub(crate) fn subject(&self) -> Subject {
        let kind = self.tool.defaults.kind;
        let input = &self.request.input;
        let name = &self.tool.name;
        let searches = matches!(kind, ToolKind::Glob | ToolKind::Grep);
        match kind {
            ToolKind::Read
            | ToolKind::Write
            | ToolKind::Edit
            | ToolKind::Delete
            | ToolKind::Glob
            | ToolKind::Grep => {
                let flaw = self
                    .tool
                    .builtin
                    .and_then(|b| crate::tool::unknown_parameter(b, name, input));
                let named = match crate::tool::input_paths(input) {
                    Ok(named) => named,
                    Err(why) => return Subject::Bad(format!("{why} in a call of `{name}`")),
                };
                let mut written: Vec<&str> = named.iter().map(|p| p.path).collect();
                if written.is_empty() {
                    if let Some(why) = flaw {
                        return Subject::Bad(why);
                    }
                    if !searches {
                        return Subject::Bad(format!(
                            "`{name}` has no `file_path` (or `path`) string in its input"
                        ));
                    }
                    // A search without a root searches the working directory.
                    written.push(".");
                }
                let mut paths = Vec::with_capacity(written.len());
                for w in &written {
                    match self.path_candidates(w) {
                        Ok(p) => paths.extend(p),
                        Err(e) => return Subject::Bad(e),
                    }
                }
                if searches {
                    // A pattern that leaves the root (absolute, `~`, `..`) searches there too;
                    // a Glob pattern's leading directories (`secrets/*`) are searched.
                    let Some(first) = paths.first().cloned() else {
                        return Subject::Bad("no search root".to_owned());
                    };
                    for key in ["pattern", "glob", "include"] {
                        if key == "pattern" && kind == ToolKind::Grep {
                            continue;
                        }
                        let Some(value) = input.get(key) else {
                            continue;
                        };
                        let Some(value) = value.as_str() else {
                            return Subject::Bad(format!(
                                "`input.{key}` of `{name}` is not a string"
                            ));
                        };
                        let patterns = if key == "pattern" {
                            vec![value]
                        } else {
                            crate::tool::grep_globs(value)
                        };
                        for pattern in patterns {
                            let base = glob_base(pattern).or_else(|| {
                                (key == "pattern").then(|| literal_dirs(pattern)).flatten()
                            });
                            let Some(prefix) = base else {
                                continue;
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
                if searches {
                    // A stand-in for "every file below the root" (a NUL byte never names a
                    // file): a deny or ask rule that covers every file there covers the
                    // search, as a read of each.
                    let children: Vec<String> = paths
                        .iter()
                        .map(|root| format!("{}/\u{0}", root.trim_end_matches('/')))
                        .collect();
                    paths.extend(children);
                }
                match flaw {
                    Some(why) => Subject::Flawed(paths, why),
                    None => Subject::Paths(paths),
                }
            }
            ToolKind::Fetch => match input.get("url").and_then(|v| v.as_str()) {
                None => Subject::Bad(format!("`{}` has no `url` string", self.tool.name)),
                Some(u) => Subject::Url(RequestedUrl::parse(u)),
            },
            ToolKind::Mcp => match self.tool.identity.doubt() {
                Some(why) => Subject::Bad(why.to_owned()),
                None => Subject::None,
            },
            ToolKind::Shell | ToolKind::Other => Subject::None,
        }
    }

    /// The files a search opens, as globs relative to its root: the Glob tool's `pattern`,
    /// the Grep tool's `glob` (or `include`), braces expanded (`*.{ts,tsx}`); a name without
    /// `/` matches at any depth. `None` (every file) when there is none, or it could not
    /// narrow safely (nested braces, `!`, `\\`, a pattern that leaves the root, Grep's
    /// `type`).
    pub(crate) fn search_patterns(&self) -> Option<Vec<String>> {
        let input = &self.request.input;
        let key = if self.tool.defaults.kind == ToolKind::Glob {
            "pattern"
        } else {
            if input.get("type").is_some() {
                return None;
            }
            if input.get("glob").is_some() && input.get("include").is_some() {
                return None;
            }
            if input.get("glob").is_some() {
                "glob"
            } else {
                "include"
            }
        };
        let value = input.get(key)?.as_str()?.trim();
        // Grep takes several globs in one value; the Glob tool's pattern is one glob.
        let patterns = if key == "pattern" {
            vec![value]
        } else {
            crate::tool::grep_globs(value)
        };
        let mut out = Vec::new();
        for pattern in patterns {
            let unsafe_to_narrow =
                pattern.is_empty() || pattern.contains(['\\', '!']) || glob_base(pattern).is_some();
            if unsafe_to_narrow {
                return None;
            }
            out.extend(expand_braces(pattern)?.iter().map(|p| {
                let p = p.trim_start_matches("./").trim_start_matches('/');
                if p.contains('/') {
                    p.to_owned()
                } else {
                    format!("**/{p}")
                }
            }));
        }
        Some(out)
    }

    /// For a search (the Grep and Glob tools), the first deny, then ask, rule that could
    /// match a file at or below one of its roots: the search could open that file, so the
    /// call asks, naming the rule. Rules that match a root itself decide in [`Self::lookup`].
    /// A listing (Glob) whose pattern cannot be read counts as a search of every file.
    pub(crate) fn search_reach(&self, roots: &[String]) -> Option<Reason> {
        let kind = self.tool.defaults.kind;
        let roots: Vec<&str> = roots
            .iter()
            .map(String::as_str)
            .filter(|r| !r.contains('\0'))
            .collect();
        let names_only = kind == ToolKind::Glob;
        // A Glob pattern that leaves the root (`/etc/*.conf`, `../x/*`) searches only where it
        // leads (the roots after the first), and every file there counts.
        let escapes = names_only
            && self
                .request
                .input
                .get("pattern")
                .and_then(|v| v.as_str())
                .is_some_and(|p| glob_base(p).is_some());
        if escapes {
            return roots
                .iter()
                .skip(1)
                .find_map(|r| self.could_read_below(kind, r));
        }
        let Some(patterns) = self.search_patterns().filter(|p| !p.is_empty()) else {
            let listing = names_only && self.request.input.get("pattern").is_none();
            if listing {
                // `LS`: the names directly in its root, spelt out by no pattern.
                return None;
            }
            return roots.iter().find_map(|r| self.could_read_below(kind, r));
        };
        patterns
            .iter()
            .find_map(|p| self.search_rule(kind, &roots, Some(p), names_only))
    }

    /// For the Grep tool: the reason it asks because the host found a secret file below one
    /// of its `roots` that the search opens: any, or with a glob that narrows it
    /// ([`Self::search_patterns`]), one the glob matches. Hidden files count: every agent's
    /// search tool opens them (Claude Code's Grep runs ripgrep with `--hidden`).
    pub(crate) fn search_finds_secret(&self, roots: &[String]) -> Option<Reason> {
        if self.tool.defaults.kind != ToolKind::Grep {
            return None;
        }
        let patterns = self.search_patterns().filter(|p| !p.is_empty());
        let q = self.query();
        roots
            .iter()
            .find_map(|r| self.secret_below(&q, r, patterns.as_deref()))
    }

    /// The first deny, then ask, rule for reads of `kind` (Read rules cover Grep and Glob)
    /// that could match a file a recursive search under the normalised absolute `dir`
    /// could open, as a reason that says so. For `grep -r`, `rg`, `find` and the like in a
    /// shell line: such a search asks when this returns a rule.
    pub(crate) fn could_read_below(&self, kind: ToolKind, dir: &str) -> Option<Reason> {
        self.search_rule(kind, &[dir], None, false)
    }

    /// The first Edit or Write deny, then ask, rule that could match what a write of the
    /// normalised absolute `path` reaches beyond the name itself
    /// ([`ClassIndex::write_reach_matches`]): a file below it, or a name a program composes
    /// from it (`split IN Mak` writes `Makefile`; `npm --prefix ~/.local` writes
    /// `~/.local/bin`). Every spelling of `path` counts, and a linked directory below it
    /// counts whole under its other spelling.
    pub(crate) fn write_reach_rule(&self, path: &str, reach: Reach) -> Option<Reason> {
        if reach == Reach::Name {
            return None;
        }
        let cwd = self.anchor.as_deref();
        let home = self.home.as_deref();
        let spelt = self.spellings(path);
        let whole = self.linked_below(path);
        for list in [RuleList::Deny, RuleList::Ask] {
            let mut ids = Vec::new();
            let class = self.class(list);
            for p in &spelt {
                class.write_reach_matches(ToolKind::Write, p, reach, cwd, home, &mut ids);
            }
            for root in &whole {
                class.could_match_below(ToolKind::Write, root, cwd, home, &mut ids);
            }
            self.remember(false, &ids);
            if let Some(entry) = ids.iter().min().and_then(|id| self.policy.entries.get(*id)) {
                return Some(rule_reason(entry, false));
            }
        }
        None
    }

    /// See [`ClassIndex::search_matches`].
    fn search_rule(
        &self,
        kind: ToolKind,
        roots: &[&str],
        pattern: Option<&str>,
        names_only: bool,
    ) -> Option<Reason> {
        let cwd = self.anchor.as_deref();
        let home = self.home.as_deref();
        // Every spelling of each root is searched as it is; a linked directory below a root
        // is searched whole under its other spelling.
        let spelt: Vec<String> = roots.iter().flat_map(|r| self.spellings(r)).collect();
        let whole: Vec<String> = roots.iter().flat_map(|r| self.linked_below(r)).collect();
        for list in [RuleList::Deny, RuleList::Ask] {
            let mut ids = Vec::new();
            let class = self.class(list);
            for root in &spelt {
                match pattern {
                    None if !names_only => class.could_match_below(kind, root, cwd, home, &mut ids),
                    _ => class.search_matches(kind, root, pattern, names_only, cwd, home, &mut ids),
                }
            }
            for root in &whole {
                class.could_match_below(kind, root, cwd, home, &mut ids);
            }
            self.remember(false, &ids);
            let Some(entry) = ids.iter().min().and_then(|id| self.policy.entries.get(*id)) else {
                continue;
            };
            let mut reason = rule_reason(entry, false);
            let root = roots.first().copied().unwrap_or("");
            let list = if list == RuleList::Deny {
                "deny"
            } else {
                "ask"
            };
            reason.text = format!(
                "the search under `{root}` could read files that rule `{}` in the {} {list} \
                 list covers",
                entry.text,
                entry.layer.as_str(),
            );
            return Some(reason);
        }
        None
    }

    /// Rule lookups for a non-shell call.
    pub(crate) fn lookup(&self, list: RuleList, subject: &Subject) -> Option<Reason> {
        let q = self.query();
        let kind = q.kind;
        let cwd = self.anchor.as_deref();
        let home = self.home.as_deref();
        // Deny and ask rules see every reading of a doubtful MCP identity.
        let others = if list == RuleList::Allow {
            Vec::new()
        } else {
            self.tool.identity.other_readings()
        };
        self.first(list, &|idx: &ClassIndex| {
            let mut out = Vec::new();
            idx.tool_matches(&q, &mut out);
            for (server, tool) in &others {
                let other = ToolQuery {
                    mcp: Some((server.as_str(), tool.as_str())),
                    ..q
                };
                idx.tool_matches(&other, &mut out);
            }
            // A path rule may still allow what a flag does not reach.
            self.set_aside_flags(list, &mut out);
            match subject {
                Subject::Paths(paths) | Subject::Flawed(paths, _) if list != RuleList::Allow => {
                    for p in paths.iter().flat_map(|p| self.spellings(p)) {
                        idx.path_matches(kind, &p, cwd, home, &mut out);
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
                Subject::Url(u) => u.matches_with(
                    list != RuleList::Allow,
                    &|t, hits| idx.fetch_matches(t, hits),
                    &mut out,
                ),
                _ => {}
            }
            out
        })
    }

    /// Why the call reaches beyond what a Copilot flag (an `allowTools` entry,
    /// `allowAllTools`) may allow, or `None` when it stays inside: Copilot CLI keeps path
    /// permissions apart from tool permissions, and lets a tool touch only the working
    /// directory and the additional directories unless `allowAllPaths` is given. A file
    /// tool reaches a path outside; a shell command names one (any word that may be a path,
    /// its real path included), or a path known only when it runs (`$HOME/x`, `~/x`, a
    /// relative word after `cd $D`). Other tools (fetches, MCP tools) reach no path.
    pub(crate) fn beyond_flags(&self) -> Option<&str> {
        self.reach
            .get_or_init(|| {
                if self.policy.flags.allow_all_paths {
                    return None;
                }
                match self.tool.defaults.kind {
                    ToolKind::Shell => self.line_beyond(),
                    k if is_file_kind(k) => match self.subject() {
                        Subject::Paths(paths) | Subject::Flawed(paths, _) => {
                            self.path_outside(&paths)
                        }
                        _ => None,
                    },
                    _ => None,
                }
            })
            .as_deref()
    }

    /// The first of `paths` outside the working directory and the additional directories,
    /// as a reason's text.
    fn path_outside(&self, paths: &[String]) -> Option<String> {
        paths.iter().find(|p| !self.inside(p)).map(|p| {
            format!("`{p}` is outside the working directory and the additional directories")
        })
    }

    /// [`Call::beyond_flags`] for a shell command line.
    fn line_beyond(&self) -> Option<String> {
        let line = self.request.input_str("command")?;
        let found = crate::shell::path_words(line, crate::request::MAX_RESOLVED_WORDS);
        if !found.complete || found.unresolved {
            return Some(
                "the command names a path that is known only when it runs (a variable, `~`, \
                 a `cd` that cannot be followed) or names too many paths, and Copilot flags \
                 allow only inside the working directory and the additional directories"
                    .to_owned(),
            );
        }
        found
            .words
            .iter()
            .filter(|w| !crate::shell::STANDARD_STREAMS.contains(&w.as_str()))
            .find_map(|w| match self.path_candidates(w) {
                Ok(paths) => self.path_outside(&paths),
                Err(why) => Some(why),
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
        // Outside the project a file tool asks, and `allowAllTools` allows no shell command
        // (the limit of [`Call::beyond_flags`]).
        let beyond = if is_file_kind(d.kind) && !flags.allow_all_paths {
            self.path_outside(paths)
        } else if d.kind == ToolKind::Shell && flags.allow_all_tools {
            self.beyond_flags().map(str::to_owned)
        } else {
            None
        };
        if let Some(why) = beyond {
            return Basis::Default {
                level: Level::Prompt,
                inside: false,
                reason: reason(why),
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
            // A Copilot flag's allow was set aside for the paths ([`Call::first`]).
            _ => match self.reach.get().and_then(Option::as_deref) {
                Some(why) => format!("`{tool}` asks by default: {why}"),
                None => format!("`{tool}` asks by default"),
            },
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

/// The directory `dir` as written (normalised) and its real path, when the host resolved it
/// to another spelling (the request's `realpaths`, keyed by `dir` as given). The real path
/// is never a top-level directory (`/tmp`), nor the written one `/`.
fn real_spelling(request: &Request, dir: &str) -> Option<(String, String)> {
    link_pair(dir, request.realpaths.get(dir)?)
}

/// The absolute `written` path and its `real` path, both normalised, when they differ: a
/// pair for [`Call::linked`]. The real path is never a top-level directory (`/tmp`), nor
/// the written one `/`.
fn link_pair(written: &str, real: &str) -> Option<(String, String)> {
    let real = crate::path::normalize(real, None, None)?;
    let written = crate::path::normalize(written, None, None)?;
    let depth = |p: &str| crate::path::segments(p).count();
    (real != written && depth(&written) > 0 && depth(&real) > 1).then_some((written, real))
}

/// Where rules relative to the working directory are anchored for `request`: its `root`
/// (the project), else its `cwd`, normalised.
fn rule_anchor(request: &Request) -> Option<String> {
    match request.root.as_deref() {
        Some(r) => crate::path::normalize(r, None, None),
        None => request
            .cwd
            .as_deref()
            .and_then(|c| crate::path::normalize(c, None, None)),
    }
}

/// The link pairs of the deny and ask path rules whose literal start `realpath` resolves
/// (through its longest existing prefix) to another spelling: see
/// [`Policy::add_rule_realpaths`] and [`Policy::add_rule_realpaths_for`]. Rules relative to
/// the working directory are placed at the anchor of each of `requests` ([`rule_anchor`]).
/// With `list`, the links directly in the literal start of a rule whose wildcard part
/// follows it ([`links_in`]) are paired too.
pub(super) fn rule_links(
    policy: &Policy,
    realpath: &dyn Fn(&str) -> Option<String>,
    requests: &[Request],
    list: Option<crate::request::ListDirectory<'_>>,
) -> Vec<(String, String)> {
    let anchors: Vec<String> = requests.iter().filter_map(rule_anchor).collect();
    let starts: std::collections::BTreeSet<(String, bool)> = policy
        .entries
        .iter()
        .filter(|e| e.list != RuleList::Allow)
        .flat_map(|e| rule_literal_starts(e, policy.home.as_deref(), &anchors))
        .collect();
    let mut budget = crate::request::MAX_SEARCHED;
    let mut pairs: Vec<(String, String)> = Vec::new();
    for (start, wild) in &starts {
        let listed = match list {
            Some(list) if *wild => links_in(start, realpath, list, &mut budget),
            _ => Vec::new(),
        };
        let at_start = crate::request::resolve_existing_prefix(start, realpath)
            .and_then(|real| link_pair(start, &real));
        for pair in at_start.into_iter().chain(listed) {
            if !pairs.contains(&pair) {
                pairs.push(pair);
            }
        }
    }
    pairs
}

/// The link pairs of the names directly in the directory `dir` that lead elsewhere
/// ([`link_pair`]): the links a rule's wildcard part may pass through first
/// (`//tmp/s/x*/k.txt` with `/tmp/s/xl` a link, `~/.config/*/hosts.yml`). At most `budget`
/// names are looked at, over every directory of a policy ([`crate::request::MAX_SEARCHED`]).
fn links_in(
    dir: &str,
    realpath: &dyn Fn(&str) -> Option<String>,
    list: crate::request::ListDirectory<'_>,
    budget: &mut usize,
) -> Vec<(String, String)> {
    let names = list(dir).unwrap_or_default();
    let take = names.len().min(*budget);
    *budget -= take;
    names
        .iter()
        .take(take)
        .filter_map(|name| {
            let full = format!("{}/{name}", dir.trim_end_matches('/'));
            link_pair(&full, &realpath(&full)?)
        })
        .collect()
}

/// The literal starts of a path rule ([`super::index::literal_start`]) as absolute paths,
/// each with whether a wildcard part follows it, where its anchor is a known place: the
/// root, the rule's layer root, the home directory `home`, or, for a rule relative to the
/// working directory (`./secrets/**`, `secrets/**`, a bare name), each of `anchors`. A
/// relative rule or a bare name is placed at the anchor only, not at the other depths it
/// also matches at; a start that is `/` itself is left out.
fn rule_literal_starts(
    entry: &Entry,
    home: Option<&str>,
    anchors: &[String],
) -> Vec<(String, bool)> {
    use crate::rule::{Anchor, Specifier};
    let Some(Specifier::Path(p)) = entry.rule.specifier() else {
        return Vec::new();
    };
    let bases: Vec<&str> = match p.anchor {
        Anchor::Root => vec![""],
        Anchor::LayerRoot => entry.root.as_deref().into_iter().collect(),
        Anchor::Home => home.into_iter().collect(),
        Anchor::Cwd | Anchor::Relative | Anchor::AnyDepth => {
            anchors.iter().map(String::as_str).collect()
        }
    };
    bases
        .into_iter()
        .filter_map(|base| {
            let full = format!("{}/{}", base.trim_end_matches('/'), p.glob);
            let literal = super::index::literal_start(&full);
            let wild = literal.len() < full.trim_end_matches('/').len();
            let start = crate::path::normalize(literal, None, None)?;
            Some((start, wild))
        })
        .filter(|(start, _)| start != "/")
        .collect()
}

/// The directory that holds the normalised absolute `path` (`/` for `/x`).
fn parent_dir(path: &str) -> Option<&str> {
    path.rsplit_once('/')
        .map(|(dir, _)| if dir.is_empty() { "/" } else { dir })
}

/// `rest` (relative, possibly empty) below the absolute directory `dir`.
fn join_below(dir: &str, rest: &str) -> String {
    if rest.is_empty() {
        dir.to_owned()
    } else {
        format!("{}/{rest}", dir.trim_end_matches('/'))
    }
}

/// Whether tools of `kind` read or change files named in their input.
fn is_file_kind(kind: ToolKind) -> bool {
    matches!(
        kind,
        ToolKind::Read
            | ToolKind::Glob
            | ToolKind::Grep
            | ToolKind::Write
            | ToolKind::Edit
            | ToolKind::Delete
    )
}

/// The reason a rule gives.
pub(crate) fn rule_reason(e: &Entry, trust: bool) -> Reason {
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

/// The alternatives of a glob with braces (`*.{ts,tsx}` → `*.ts`, `*.tsx`), at most 64;
/// `None` for nested or unbalanced braces.
pub(crate) fn expand_braces(pattern: &str) -> Option<Vec<String>> {
    const MAX: usize = 64;
    let Some(open) = pattern.find('{') else {
        return (!pattern.contains('}')).then(|| vec![pattern.to_owned()]);
    };
    let head = pattern.get(..open)?;
    let rest = pattern.get(open + 1..)?;
    let close = rest.find('}')?;
    let body = rest.get(..close)?;
    if body.contains('{') || head.contains('}') {
        return None;
    }
    let tails = expand_braces(rest.get(close + 1..)?)?;
    let mut out = Vec::new();
    for alt in body.split(',') {
        for tail in &tails {
            if out.len() >= MAX {
                return None;
            }
            out.push(format!("{head}{alt}{tail}"));
        }
    }
    Some(out)
}

/// The leading directories of a relative glob that are spelt out (`secrets/*` → `secrets`,
/// `a/b/*.rs` → `a/b`); `None` when there are none (`*.rs`, `.env`, `**/x`).
fn literal_dirs(pattern: &str) -> Option<String> {
    let segments: Vec<&str> = pattern.split('/').filter(|s| !s.is_empty()).collect();
    let dirs = segments.get(..segments.len().saturating_sub(1))?;
    let literal: Vec<&str> = dirs
        .iter()
        .copied()
        .take_while(|s| !s.contains(['*', '?', '[', '{', '\\']))
        .collect();
    (!literal.is_empty()).then(|| literal.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn braces_expand_into_alternatives() {
        assert_eq!(expand_braces("*.rs").unwrap(), ["*.rs"]);
        assert_eq!(
            expand_braces("src/*.{ts,tsx}").unwrap(),
            ["src/*.ts", "src/*.tsx"]
        );
        assert_eq!(expand_braces("{a,b}/{c,d}").unwrap().len(), 4);
        assert!(expand_braces("{a,{b,c}}").is_none());
        assert!(expand_braces("a}").is_none());
        assert!(expand_braces("{a").is_none());
        assert!(expand_braces("{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}").is_none());
    }

    #[test]
    fn a_path_in_a_processs_own_view_is_never_inside_the_project() {
        // Even with no host to resolve it, and a working directory spelt through it.
        let policy = crate::Policy::from_json("{}").unwrap();
        let request = |tool: &str, input: serde_json::Value, cwd: &str| crate::Request {
            tool: tool.into(),
            input,
            cwd: Some(cwd.into()),
            ..crate::Request::default()
        };
        for (tool, input, cwd) in [
            (
                "Read",
                serde_json::json!({"file_path": "/proc/self/cwd/secrets/key.txt"}),
                "/proc/self/cwd",
            ),
            (
                "Read",
                serde_json::json!({"file_path": "key.txt"}),
                "/proc/self/cwd",
            ),
            ("Read", serde_json::json!({"file_path": "3"}), "/dev/fd"),
            (
                "Bash",
                serde_json::json!({"command": "cat key.txt"}),
                "/proc/42/cwd",
            ),
            (
                "Grep",
                serde_json::json!({"pattern": "k"}),
                "/proc/thread-self/cwd",
            ),
        ] {
            let d = policy.evaluate(&request(tool, input.clone(), cwd));
            assert_ne!(
                d.effect,
                crate::Effect::Allow,
                "{tool} {input} in {cwd}: {d:?}"
            );
        }
        // An ordinary project still reads without asking.
        let d = policy.evaluate(&request(
            "Read",
            serde_json::json!({"file_path": "/p/key.txt"}),
            "/p",
        ));
        assert_eq!(d.effect, crate::Effect::Allow, "{d:?}");
    }

    fn call_in(
        policy: &str,
        tool: &str,
        input: serde_json::Value,
        cwd: &str,
        root: Option<&str>,
        realpaths: &[(&str, &str)],
    ) -> crate::Decision {
        let policy = crate::Policy::from_json(policy).unwrap();
        policy.evaluate(&crate::Request {
            tool: tool.into(),
            input,
            cwd: Some(cwd.into()),
            root: root.map(Into::into),
            realpaths: realpaths
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
            ..crate::Request::default()
        })
    }

    #[test]
    fn rules_anchored_at_a_linked_project_meet_its_real_path() {
        use crate::Effect::{Allow, Ask, Deny};
        use serde_json::json;
        let rules = r#"{"permissions":{"deny":["Read(./secrets/**)","Edit(./secrets/**)"]}}"#;
        // The project `/w/link` is a link to `/w/p`: the host resolved it.
        let linked = [("/w/link", "/w/p")];
        let secret = json!({"file_path": "/w/p/secrets/k.txt"});
        for (cwd, root) in [("/w/link", None), ("/w/p", Some("/w/link"))] {
            let d = call_in(rules, "Read", secret.clone(), cwd, root, &linked);
            assert_eq!(d.effect, Deny, "{cwd} {root:?}: {d:?}");
        }
        for (tool, input) in [
            ("Bash", json!({"command": "cat /w/p/secrets/k.txt"})),
            ("Bash", json!({"command": "cat ../p/secrets/k.txt"})),
            ("Grep", json!({"pattern": "k", "path": "/w/p/secrets"})),
            ("Glob", json!({"pattern": "*", "path": "/w/p/secrets"})),
            // A search above the real project reaches it whole.
            ("Grep", json!({"pattern": "k", "path": "/w/p/.."})),
        ] {
            let d = call_in(rules, tool, input.clone(), "/w/link", None, &linked);
            assert_ne!(d.effect, Allow, "{tool} {input}: {d:?}");
        }
        let edit = json!({"file_path": "/w/p/secrets/k.txt", "old_string": "a", "new_string": "b"});
        let accept =
            r#"{"defaultMode":"acceptEdits","permissions":{"deny":["Edit(./secrets/**)"]}}"#;
        let d = call_in(accept, "Edit", edit, "/w/link", None, &linked);
        assert_eq!(d.effect, Deny, "{d:?}");
        // A protected file directly in the project, at its real path.
        let config = json!({"file_path": "/w/p/config", "content": "x"});
        let d = call_in(accept, "Write", config, "/w/link", None, &linked);
        assert_eq!(d.effect, Ask, "{d:?}");
        // Rules written at the real path meet the path spelt through the link.
        let real = r#"{"permissions":{"deny":["Read(//w/p/secrets/**)"]}}"#;
        let through = json!({"file_path": "/w/link/secrets/k.txt"});
        let d = call_in(real, "Read", through, "/w/link", None, &linked);
        assert_eq!(d.effect, Deny, "{d:?}");
        // Ordinary files of the project still read, and allow rules keep the written anchor.
        let d = call_in(
            rules,
            "Read",
            json!({"file_path": "/w/p/src/a.rs"}),
            "/w/link",
            None,
            &linked,
        );
        assert_eq!(d.effect, Allow, "{d:?}");
        let allow = r#"{"permissions":{"allow":["Edit(./src/**)"]}}"#;
        let edit = json!({"file_path": "/w/p/src/a.rs", "old_string": "a", "new_string": "b"});
        let d = call_in(allow, "Edit", edit.clone(), "/w/link", None, &linked);
        assert_eq!(d.effect, Ask, "{d:?}");
        let d = call_in(allow, "Edit", edit, "/w/p", None, &linked);
        assert_eq!(d.effect, Allow, "{d:?}");
    }

    /// The host of [`rules_written_through_a_link_meet_the_real_path`]: `/x/lp` is a link to
    /// `/x/p`, and `/x/lp/notes.txt` and `/x/lp/src` exist; `/h/n` is a link to `/srv/n`.
    fn linked_rule_host(path: &str) -> Option<String> {
        let real = match path {
            "/x" | "/x/p" | "/x/p/notes.txt" | "/srv/n" => path.to_owned(),
            "/x/lp" | "/x/lp/notes.txt" => path.replacen("/x/lp", "/x/p", 1),
            "/h" => "/h".to_owned(),
            "/h/n" => "/srv/n".to_owned(),
            _ => return None,
        };
        Some(real)
    }

    #[test]
    fn rules_written_through_a_link_meet_the_real_path() {
        use crate::Effect::{Allow, Ask, Deny};
        use serde_json::json;
        let decide = |rules: &str, tool: &str, input: serde_json::Value| {
            let mut policy = crate::Policy::from_json(rules).unwrap();
            policy.add_rule_realpaths(linked_rule_host);
            policy.evaluate(&crate::Request {
                tool: tool.into(),
                input,
                cwd: Some("/x/p".into()),
                ..crate::Request::default()
            })
        };
        // The agent works in the real directory; the rules name it through the link.
        let read = r#"{"permissions":{"deny":["Read(//x/lp/notes.txt)"]}}"#;
        for (tool, input) in [
            ("Bash", json!({"command": "cat notes.txt"})),
            ("Bash", json!({"command": "cat /x/p/notes.txt"})),
            ("Read", json!({"file_path": "/x/p/notes.txt"})),
        ] {
            let d = decide(read, tool, input.clone());
            assert_eq!(d.effect, Deny, "{tool} {input}: {d:?}");
        }
        // A literal start that does not exist yet resolves through its existing prefix.
        let edit = r#"{"permissions":{"allow":["Bash(gcc *)"],"ask":["Edit(//x/lp/src/**)"]}}"#;
        let d = decide(edit, "Bash", json!({"command": "gcc -o src/x x.c"}));
        assert_eq!(d.effect, Ask, "{d:?}");
        // A rule below the policy's `home`, through a link there.
        let home = r#"{"home":"/h","permissions":{"deny":["Read(~/n/**)"]}}"#;
        let d = decide(home, "Read", json!({"file_path": "/srv/n/todo.txt"}));
        assert_eq!(d.effect, Deny, "{d:?}");
        // Allow rules stay as written, and other files are not touched.
        let allow = r#"{"permissions":{"allow":["Edit(//x/lp/**)"]}}"#;
        let change = json!({"file_path": "/x/p/notes.txt", "old_string": "a", "new_string": "b"});
        let d = decide(allow, "Edit", change);
        assert_eq!(d.effect, Ask, "{d:?}");
        let d = decide(read, "Bash", json!({"command": "cat other.txt"}));
        assert_eq!(d.effect, Allow, "{d:?}");
    }

    #[test]
    fn rule_links_name_only_rules_on_a_known_place_that_lead_elsewhere() {
        let links = |rules: &str| {
            let policy = crate::Policy::from_json(rules).unwrap();
            rule_links(&policy, &linked_rule_host, &[], None)
        };
        let pair = |w: &str, r: &str| (w.to_owned(), r.to_owned());
        assert_eq!(
            links(
                r#"{"permissions":{"deny":["Edit(//x/lp/src/**)"],"ask":["Read(//x/lp/*.txt)"]}}"#
            ),
            vec![pair("/x/lp", "/x/p"), pair("/x/lp/src", "/x/p/src")]
        );
        // Allow rules, rules relative to the working directory, names at any depth, paths
        // that lead nowhere else and the root itself hand the engine no pair.
        for rules in [
            r#"{"permissions":{"allow":["Read(//x/lp/**)"]}}"#,
            r#"{"permissions":{"deny":["Read(./lp/**)","Read(lp/x)","Read(.env)"]}}"#,
            r#"{"permissions":{"deny":["Read(//x/p/**)","Read(//**/x)","Read(//gone/x)"]}}"#,
            r#"{"permissions":{"deny":["Read(~/n/**)"]}}"#,
        ] {
            assert_eq!(links(rules), Vec::new(), "{rules}");
        }
    }

    #[test]
    fn rules_relative_to_the_working_directory_are_resolved_at_the_calls_anchor() {
        use crate::Effect::{Allow, Deny};
        use serde_json::json;
        let pair = |w: &str, r: &str| (w.to_owned(), r.to_owned());
        let request = |cwd: &str, root: Option<&str>, input: serde_json::Value| crate::Request {
            tool: "Bash".into(),
            input,
            cwd: Some(cwd.into()),
            root: root.map(Into::into),
            ..crate::Request::default()
        };
        let links = |rules: &str, requests: &[crate::Request]| {
            let policy = crate::Policy::from_json(rules).unwrap();
            rule_links(&policy, &linked_rule_host, requests, None)
        };
        // In `/x`, `lp` is a link to `p`: each spelling of a rule relative to the working
        // directory is placed at the call's anchor (its root, else its cwd).
        let at_x = [request("/x", None, json!({}))];
        let from_p = [request("/x/p", Some("/x"), json!({}))];
        for rules in [
            r#"{"permissions":{"deny":["Read(./lp/**)"]}}"#,
            r#"{"permissions":{"ask":["Read(lp/**)"]}}"#,
            r#"{"permissions":{"deny":["Read(./lp/notes.txt)"]}}"#,
            r#"{"permissions":{"deny":["Read(lp)"]}}"#,
        ] {
            let want = if rules.contains("notes") {
                vec![pair("/x/lp/notes.txt", "/x/p/notes.txt")]
            } else {
                vec![pair("/x/lp", "/x/p")]
            };
            assert_eq!(links(rules, &at_x), want, "{rules}");
            assert_eq!(links(rules, &from_p), want, "{rules}");
            // Without a call, they are not placed.
            assert_eq!(links(rules, &[]), Vec::new(), "{rules}");
        }
        // Allow rules stay as written; without a listing, a wildcard before the link is
        // not followed.
        for rules in [
            r#"{"permissions":{"allow":["Read(./lp/**)"]}}"#,
            r#"{"permissions":{"deny":["Read(**/lp/**)","Read(./l*/**)"]}}"#,
        ] {
            assert_eq!(links(rules, &at_x), Vec::new(), "{rules}");
        }
        // With one, the links directly in a wildcard's literal start are paired, and only
        // for deny and ask rules that have a wildcard part.
        let list = |dir: &str| match dir {
            "/x" => Some(vec!["lp".to_owned(), "p".to_owned()]),
            "/h" => Some(vec!["n".to_owned()]),
            "/x/p" => None,
            _ => Some(Vec::new()),
        };
        let listed = |rules: &str| {
            let policy = crate::Policy::from_json(rules).unwrap();
            rule_links(&policy, &linked_rule_host, &at_x, Some(&list))
        };
        for rules in [
            r#"{"permissions":{"deny":["Read(**/lp/**)"]}}"#,
            r#"{"permissions":{"ask":["Read(./l*/notes.txt)"]}}"#,
            r#"{"permissions":{"deny":["Read(//x/[l]p/**)"]}}"#,
        ] {
            assert_eq!(listed(rules), vec![pair("/x/lp", "/x/p")], "{rules}");
        }
        let home = r#"{"home":"/h","permissions":{"deny":["Read(~/*/todo.txt)"]}}"#;
        assert_eq!(listed(home), vec![pair("/h/n", "/srv/n")]);
        for rules in [
            r#"{"permissions":{"allow":["Read(**/lp/**)"]}}"#,
            r#"{"permissions":{"deny":["Read(./notes.txt)","Read(./p/*.txt)"]}}"#,
        ] {
            assert_eq!(listed(rules), Vec::new(), "{rules}");
        }
        // The rule then meets the file at its real path.
        let cat = request("/x", None, json!({"command": "cat p/notes.txt"}));
        let mut policy =
            crate::Policy::from_json(r#"{"permissions":{"deny":["Read(./lp/**)"]}}"#).unwrap();
        policy.add_rule_realpaths_for(std::slice::from_ref(&cat), linked_rule_host, list);
        assert_eq!(policy.evaluate(&cat).effect, Deny);
        let other = request("/x", None, json!({"command": "cat other.txt"}));
        assert_eq!(policy.evaluate(&other).effect, Allow);
    }

    #[test]
    fn rules_anchored_at_a_linked_home_meet_its_real_path() {
        use serde_json::json;
        let policy = r#"{"home":"/w/homelink","defaultMode":"bypassPermissions",
            "permissions":{"deny":["Read(~/private/**)"]}}"#;
        let d = call_in(
            policy,
            "Read",
            json!({"file_path": "/w/home/private/x.txt"}),
            "/w/p",
            None,
            &[("/w/homelink", "/w/home")],
        );
        assert_eq!(d.effect, crate::Effect::Deny, "{d:?}");
    }

    #[test]
    fn rules_whose_anchor_is_unknown_are_read_at_any_depth() {
        use crate::Effect::{Ask, Deny};
        use serde_json::json;
        let bypass = r#"{"defaultMode":"bypassPermissions",
            "permissions":{"deny":["Read(./secrets/**)","Read(~/private/**)"]}}"#;
        let secret = json!({"file_path": "/Users/me/proj/secrets/k.txt"});
        // A Windows working directory, a relative root: no project to anchor at.
        let d = call_in(
            bypass,
            "Read",
            secret.clone(),
            r"C:\Users\me\proj",
            None,
            &[],
        );
        assert_eq!(d.effect, Deny, "{d:?}");
        let d = call_in(
            bypass,
            "Read",
            json!({"file_path": "secrets/k.txt"}),
            "/srv/p",
            Some("rel"),
            &[],
        );
        assert_eq!(d.effect, Deny, "{d:?}");
        let grep = json!({"pattern": "k", "path": "/Users/me/proj"});
        let d = call_in(bypass, "Grep", grep, r"C:\Users\me\proj", None, &[]);
        assert_ne!(d.effect, crate::Effect::Allow, "{d:?}");
        // No home directory known (`/srv/p` is under none): `~/private/**` anywhere.
        let private = json!({"file_path": "/srv/home/ada/private/x.txt"});
        let d = call_in(bypass, "Read", private, "/srv/p", None, &[]);
        assert_eq!(d.effect, Deny, "{d:?}");
        // A bare repository's `config` is protected directly in any directory.
        let config = json!({"file_path": "/Users/me/proj/config", "content": "x"});
        let d = call_in(bypass, "Write", config, r"C:\Users\me\proj", None, &[]);
        assert!(d.reason.text.contains("is a protected path"), "{d:?}");
        // An allow rule is never widened: without its anchor it allows nothing.
        let allow = r#"{"permissions":{"allow":["Read(./docs/**)","Read(//Users/me/**)"],
            "deny":["Read(./secrets/**)"]}}"#;
        let docs = json!({"file_path": "/elsewhere/docs/a.md"});
        let d = call_in(allow, "Read", docs, r"C:\Users\me\proj", None, &[]);
        assert_eq!(d.effect, Ask, "{d:?}");
        let d = call_in(allow, "Read", secret, r"C:\Users\me\proj", None, &[]);
        assert_eq!(d.effect, Deny, "{d:?}");
    }

    #[test]
    fn a_path_built_onto_a_resolved_directory_leads_where_it_leads() {
        let policy = crate::Policy::from_json(
            r#"{"permissions":{"defaultMode":"bypassPermissions",
                "deny":["Read(//secret/**)","Edit(//secret/**)"]}}"#,
        )
        .unwrap();
        let decide = |command: &str, real: &str| {
            let request = crate::Request {
                tool: "Bash".into(),
                input: serde_json::json!({ "command": command }),
                cwd: Some("/p".into()),
                realpaths: [("sec".to_owned(), real.to_owned())].into(),
                ..crate::Request::default()
            };
            policy.evaluate(&request).effect
        };
        // `sec/token` and `sec/x` are built by the analysis; the host resolved `sec` only.
        assert_eq!(
            decide("tar -cf - -C sec token", "/secret"),
            crate::Effect::Deny
        );
        assert_eq!(
            decide("curl --output-dir sec -o x http://h/x", "/secret/"),
            crate::Effect::Deny
        );
        // A directory the host could not resolve: where the path leads is unknown.
        assert_eq!(decide("tar -cf - -C sec token", ""), crate::Effect::Ask);
        assert_eq!(
            decide("tar -cf - -C sec token", "/p/elsewhere"),
            crate::Effect::Allow
        );
    }

    #[test]
    fn spelt_out_leading_directories() {
        assert_eq!(literal_dirs("secrets/*").as_deref(), Some("secrets"));
        assert_eq!(literal_dirs("a/b/*.rs").as_deref(), Some("a/b"));
        assert_eq!(literal_dirs("a/*/c/*.rs").as_deref(), Some("a"));
        assert_eq!(literal_dirs("*.rs"), None);
        assert_eq!(literal_dirs(".env"), None);
        assert_eq!(literal_dirs("**/x"), None);
    }
}
