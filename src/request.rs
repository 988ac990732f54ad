//! The request document: one tool call an agent wants to make.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{Error, ErrorKind, Result};
use crate::mode::Mode;

/// One tool call, as the host sees it before it runs.
///
/// The field of `input` that carries the subject follows the tool: `command` for shell tools,
/// `file_path` or `path` for file tools, `url` for fetch tools, `pattern` for glob and grep.
///
/// ```
/// let req = toolgate::Request::from_json(
///     r#"{"tool":"Bash","input":{"command":"git status"},"cwd":"/home/ada/proj"}"#,
/// ).unwrap();
/// assert_eq!(req.tool, "Bash");
/// assert_eq!(req.input_str("command"), Some("git status"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "ToolRequest", optional_fields)
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Request {
    /// The tool's name as the agent spells it (`Bash`, `shell`, `mcp__github__create_issue`).
    pub tool: String,
    /// The tool's arguments. Anything but an object is treated as unanalysable (ask).
    #[serde(default)]
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub input: Value,
    /// The working directory, absolute. Without it, path rules anchored to it cannot match and
    /// path-bearing calls ask.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// The project directory, absolute: where `./` rules (and other rules relative to the
    /// working directory) are anchored, and the directory a call must stay in to count as
    /// inside the project. The working directory when absent. Hosts set it when the tool runs
    /// somewhere else than the project (a shell that followed `cd`, a tool's own directory
    /// parameter): rules keep their meaning, and relative paths still resolve against `cwd`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root: Option<String>,
    /// The mode for this call; the policy's `defaultMode` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
    /// The agent making the call, for per-agent bypass and the audit trail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// For MCP tools: the server's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// For MCP tools: the tool's annotations from `tools/list`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ToolAnnotations>,
    /// Resolved real paths (symlinks followed) of paths in `input`, keyed by the path as
    /// written, and for a file tool's path also by its lexical absolute form (`..` folded in
    /// the text, as a host using Node's `path.resolve` opens it) when that differs. An allow
    /// needs the written path and every real path to match; a deny any of them. A path mapped
    /// to the empty string could not be resolved: the call cannot be judged, and asks. For a
    /// shell call, the paths a glob word names are keyed as the glob writes them (`docs/b.md`
    /// for `docs/*`), and `.` mapped to the empty string says that the host could not resolve
    /// every path the command line names. A host that lists directories also keys, by its
    /// absolute path, each secret file it found below the root of a search (the Grep tool,
    /// `grep -r`): see [`Request::add_realpaths_listing`]. A path with no key of its own that
    /// passes through a directory with one (`sec/token`, which the shell analysis builds from
    /// `tar -C sec token`) is judged through that directory's real path, the longest such
    /// directory first.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub realpaths: BTreeMap<String, String>,
    /// For a shell call, the top of the git working tree the working directory is in
    /// (absolute, symlinks resolved), when the host found it plainly: a `.git` directory
    /// holding `HEAD`, `objects` and `refs` in the nearest directory up that has a `.git`, a
    /// repository configuration that neither moves the working tree nor includes other
    /// files, and no `GIT_DIR` or `GIT_WORK_TREE` in the environment. `git show REV:path`
    /// names `path` from there; without it, the working directory and every parent of it may
    /// be the top, and each reading is judged. [`Request::add_realpaths_reading`] sets it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub git_top: Option<String>,
}

impl Request {
    /// Records where the paths of `input` really lead ([`Request::realpaths`]), for every path
    /// the tool's schema names (`file_path`, `path`, `paths[]`, `edits[].file_path`, ...); for
    /// a shell call (`input.command`), also for `.` (the working directory itself), each
    /// word of the command line that may name a path and each directory such a word passes
    /// through ([`crate::shell::path_words`], at most
    /// [`MAX_RESOLVED_WORDS`] of each; beyond that the call is marked as not fully resolved); and for the project directory (`root`, else `cwd`), keyed by
    /// itself, so that a project reached through a symlink stays inside itself.
    ///
    /// `realpath` resolves an absolute path on the host (symlinks followed,
    /// [`crate::path::links::real_path`]), `None` when it does not exist, the empty string
    /// when where it leads is unknown (the call asks). A path whose last components do not
    /// exist yet (a file about to be written) is resolved through its longest existing
    /// prefix, the rest appended; one with more than 64 missing components is marked as unresolved (mapped to the empty string), and asks.
    /// So is a path through a directory that each process sees as its own
    /// ([`crate::path::in_process_view`]: `/proc/self/cwd`, `/dev/fd/3`, `/dev/stdin`): the
    /// host resolving it would name its own working directory or descriptors, not those of
    /// the agent's shell, so `realpath` is never asked about it. Hosts without a file system
    /// leave `realpaths` empty.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolgate::Request;
    /// let mut r = Request { tool: "Read".into(), input: json!({"file_path": "link"}),
    ///     cwd: Some("/p".into()), ..Request::default() };
    /// r.add_realpaths(|p| (p == "/p/link").then(|| "/etc/passwd".to_owned()));
    /// assert_eq!(r.realpaths["link"], "/etc/passwd");
    ///
    /// // A shell call: `r -> /` in the project, and a file not yet written below it.
    /// let mut r = Request { tool: "Bash".into(), input: json!({"command": "cat r/etc/x > r/tmp/new"}),
    ///     cwd: Some("/p".into()), ..Request::default() };
    /// r.add_realpaths(|p| match p {
    ///     "/p/r" | "/p/r/etc" | "/p/r/tmp" | "/p/r/etc/x" => Some(p.replacen("/p/r", "", 1)),
    ///     "/p" | "/p/." => Some("/p".to_owned()),
    ///     _ => None,
    /// });
    /// assert_eq!(r.realpaths["r/etc/x"], "/etc/x");
    /// assert_eq!(r.realpaths["r/tmp/new"], "/tmp/new");
    /// assert!(!r.realpaths.contains_key("."));
    /// ```
    pub fn add_realpaths(&mut self, realpath: impl Fn(&str) -> Option<String>) {
        self.resolve(&realpath, None, None);
    }

    /// [`Request::add_realpaths`] for a host that can also list a directory: each glob word
    /// of a shell call that the analysis judges as the files it names (`docs/*`,
    /// `src/**/*.rs`, [`crate::shell::PathWords::globs`]) is expanded on the host, and every
    /// path it names is resolved and kept, keyed by that path (`docs/b.md`). The
    /// expansion is wider than bash's (names starting with `.`, either case, `**` at any
    /// depth): it may resolve a file bash would not read, never miss one. A glob whose
    /// directory cannot be listed, or that names too many files, marks the call as not fully
    /// resolved (`.` mapped to the empty string); so does every glob under
    /// [`Request::add_realpaths`], which cannot list.
    ///
    /// The host also looks below each directory the call reads every file of (the Grep
    /// tool's `path`, or the working directory without one; a shell line's recursive
    /// searches, [`crate::shell::search_roots`]), breadth first, at most [`MAX_SEARCHED`]
    /// names, and keys each secret file found there ([`crate::policy::is_secret`]) by its
    /// absolute path, so that the search is judged as reading it. It descends into every
    /// directory, whatever its name, as the search does; the names in a directory that
    /// tools fill (`node_modules`, `target`, `.git/objects`, ...), judged by its real path,
    /// found below a root and not at or above the working or project directory, count
    /// apart, at most [`MAX_SEARCHED_FILLED_BY_TOOLS`]. A search it cannot look through
    /// (more names than that, a root written with `~`, which the request cannot place, or
    /// `/`) is marked as not fully resolved: a shell line by `.`, the Grep tool by its
    /// roots (`.` without one), mapped to the empty string; it asks.
    ///
    /// `list` gives the names in an absolute directory (without `.` and `..`): empty for a
    /// path that does not exist or is not a directory, `None` when it cannot be listed.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolgate::Request;
    /// // `docs/b.md` is a link to `/h/.ssh/id_rsa`.
    /// let mut r = Request { tool: "Bash".into(), input: json!({"command": "cat docs/*"}),
    ///     cwd: Some("/p".into()), ..Request::default() };
    /// r.add_realpaths_listing(
    ///     |p| match p {
    ///         "/p/docs/b.md" => Some("/h/.ssh/id_rsa".to_owned()),
    ///         "/p/." => Some("/p".to_owned()),
    ///         _ => Some(p.to_owned()),
    ///     },
    ///     |dir| Some(if dir == "/p/docs" { vec!["a.md".into(), "b.md".into()] } else { vec![] }),
    /// );
    /// assert_eq!(r.realpaths["docs/b.md"], "/h/.ssh/id_rsa");
    /// // Every file a glob names is a key, so each is judged by its name too.
    /// assert_eq!(r.realpaths["docs/a.md"], "/p/docs/a.md");
    /// assert!(!r.realpaths.contains_key("."));
    ///
    /// // Without a listing, the files of the glob are unknown: the call asks.
    /// let mut r = Request { tool: "Bash".into(), input: json!({"command": "cat docs/*"}),
    ///     cwd: Some("/p".into()), ..Request::default() };
    /// r.add_realpaths(|p| Some(p.to_owned()));
    /// assert_eq!(r.realpaths["."], "");
    ///
    /// // A search below `~` cannot be looked through: the call asks.
    /// let mut r = Request { tool: "Bash".into(), input: json!({"command": "grep -r TOKEN ~/p"}),
    ///     cwd: Some("/p".into()), ..Request::default() };
    /// r.add_realpaths_listing(|p| Some(p.to_owned()), |_| Some(Vec::new()));
    /// assert_eq!(r.realpaths["."], "");
    /// ```
    pub fn add_realpaths_listing(
        &mut self,
        realpath: impl Fn(&str) -> Option<String>,
        list: impl Fn(&str) -> Option<Vec<String>>,
    ) {
        self.resolve(&realpath, Some(&list), None);
    }

    /// [`Request::add_realpaths_listing`] for a host that can also read small text files:
    /// a search that obeys a repository's ignore files (Claude Code's Grep, ripgrep with
    /// `--hidden` and no `glob`) does not count a secret file that `.gitignore`, `.ignore`,
    /// `.rgignore` or `.git/info/exclude` plainly leave out (`.env` listed in `.gitignore`,
    /// no line bringing files back with `!`). `read` gives a file's text, `None` when it
    /// cannot be read (which leaves the file counted); `env` a variable of the host's
    /// environment: with `RIPGREP_CONFIG_PATH` set, ripgrep reads a configuration file that may
    /// turn ignoring off, so no ignore file is read.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolgate::{Policy, Request};
    /// let names = |dir: &str| Some(match dir {
    ///     "/p" => vec![".git".to_owned(), ".gitignore".to_owned(), ".env".to_owned()],
    ///     _ => Vec::new(),
    /// });
    /// let grep = || Request { tool: "Grep".into(), input: json!({"pattern": "TOKEN"}),
    ///     cwd: Some("/p".into()), ..Request::default() };
    /// let policy = Policy::from_json("{}").unwrap();
    /// let mut r = grep();
    /// let gitignore = |f: &str| (f == "/p/.gitignore").then(|| ".env\n".to_owned());
    /// r.add_realpaths_reading(|p| Some(p.to_owned()), names, gitignore, |_| None);
    /// assert_eq!(policy.evaluate(&r).effect.as_str(), "allow");
    /// // With a ripgrep configuration, the ignore files may not count: it asks.
    /// let mut r = grep();
    /// r.add_realpaths_reading(|p| Some(p.to_owned()), names, gitignore,
    ///     |v| (v == "RIPGREP_CONFIG_PATH").then(|| "/h/.ripgreprc".to_owned()));
    /// assert_eq!(policy.evaluate(&r).effect.as_str(), "ask");
    /// // Without the ignore file's text, the `.env` beside the search counts: it asks.
    /// let mut r = grep();
    /// r.add_realpaths_listing(|p| Some(p.to_owned()), names);
    /// assert_eq!(policy.evaluate(&r).effect.as_str(), "ask");
    /// ```
    pub fn add_realpaths_reading(
        &mut self,
        realpath: impl Fn(&str) -> Option<String>,
        list: impl Fn(&str) -> Option<Vec<String>>,
        read: impl Fn(&str) -> Option<String>,
        env: impl Fn(&str) -> Option<String>,
    ) {
        let ignore_files: Option<ReadText<'_>> = env(RIPGREP_CONFIG).is_none().then_some(&read);
        self.resolve(&realpath, Some(&list), ignore_files);
        self.git_top = self.find_git_top(&realpath, &list, &read, &env);
    }

    /// [`Request::git_top`] on the host, for a shell call whose line runs git: found from
    /// the working directory's real path.
    fn find_git_top(
        &self,
        realpath: &dyn Fn(&str) -> Option<String>,
        list: ListDirectory<'_>,
        read: ReadText<'_>,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Option<String> {
        let line = self.input_str("command")?;
        if !line.contains("git") {
            return None;
        }
        let cwd = self.cwd.as_deref()?;
        let real = outside_process_views(realpath)(cwd).filter(|r| !r.is_empty())?;
        let list = outside_process_views(list);
        let read = outside_process_views(read);
        crate::git_top::working_tree_top(&real, &list, &read, env)
    }

    /// Whether this call is a search that obeys the repository's ignore files: Claude Code's
    /// Grep (ripgrep) with no `glob`, which would bring ignored files back in.
    fn search_obeys_ignore_files(&self) -> bool {
        crate::tool::kind_without_policy(&self.tool, self.server.is_some())
            == crate::tool::ToolKind::Grep
            && crate::tool::has_claude_tools(self.agent.as_deref())
            && self
                .input
                .get("glob")
                .is_none_or(serde_json::Value::is_null)
    }

    fn resolve(
        &mut self,
        host_realpath: &dyn Fn(&str) -> Option<String>,
        host_list: Option<ListDirectory<'_>>,
        host_read: Option<ReadText<'_>>,
    ) {
        let realpath = outside_process_views(host_realpath);
        let listing = host_list.map(outside_process_views);
        let realpath: &dyn Fn(&str) -> Option<String> = &realpath;
        let list: Option<ListDirectory<'_>> = listing.as_ref().map(|l| l as ListDirectory<'_>);
        let cwd = self.cwd.clone();
        let tool_paths: Vec<String> = match crate::tool::input_paths(&self.input) {
            Ok(paths) => paths.iter().map(|p| p.path.to_owned()).collect(),
            Err(_) => Vec::new(),
        };
        let mut line_paths: Vec<String> = Vec::new();
        // The files globs name, each kept as a key even where it is no link: the analysis
        // finds a glob's files among the keys, to judge each by its name too (`keys/*`
        // names `keys/id_rsa`, a secret file).
        let mut glob_files: Vec<String> = Vec::new();
        let mut complete = true;
        // The directories the call reads every file below: a secret file found there is
        // judged as read (`grep -r TOKEN .` beside a `.env`).
        let mut search_roots: Vec<String> = Vec::new();
        if let Some(line) = self.input_str("command") {
            search_roots = crate::shell::search_roots(line);
            line_paths.push(".".to_owned());
            let found = crate::shell::path_words(line, MAX_RESOLVED_WORDS);
            complete = found.complete;
            line_paths.extend(found.words);
            line_paths.extend(found.directories);
            match list {
                Some(list) => {
                    let expanded = expand_globs(&found.globs, cwd.as_deref(), realpath, list);
                    complete &= expanded.is_some();
                    glob_files = expanded.unwrap_or_default();
                }
                None => complete &= found.globs.is_empty(),
            }
        }
        if crate::tool::kind_without_policy(&self.tool, self.server.is_some())
            == crate::tool::ToolKind::Grep
        {
            search_roots.extend(tool_paths.iter().cloned());
            if tool_paths.is_empty() {
                search_roots.push(".".to_owned());
            }
        }
        let mut secrets = match list {
            Some(list) => secrets_below(
                &search_roots,
                cwd.as_deref(),
                self.root.as_deref(),
                realpath,
                list,
            ),
            None => Walked {
                found: Vec::new(),
                complete: true,
            },
        };
        if let (Some(list), Some(read)) = (list, host_read) {
            if self.search_obeys_ignore_files() {
                let read = outside_process_views(read);
                let (roots, _) = placed_roots(&search_roots, cwd.as_deref());
                secrets.found.retain(|f| {
                    // The search's own root above the file: one given by name is read even
                    // when it is ignored.
                    let root = roots
                        .iter()
                        .filter(|r| crate::path::contains(r, f))
                        .max_by_key(|r| r.len());
                    !root.is_some_and(|root| ignored_in_search(f, root, realpath, list, &read))
                });
            }
        }
        if let Some(project) = self.root.as_deref().or(cwd.as_deref()) {
            if project.starts_with('/') {
                line_paths.push(project.to_owned());
            }
        }
        let absolute = |written: &str| match &cwd {
            Some(c) if !written.starts_with('/') => {
                format!("{}/{written}", c.trim_end_matches('/'))
            }
            _ => written.to_owned(),
        };
        for written in tool_paths.iter().cloned() {
            if self.realpaths.contains_key(&written) {
                continue;
            }
            let lexical = crate::path::normalize(&written, cwd.as_deref(), None);
            let full = absolute(&written);
            let real = resolve_existing_prefix(&full, realpath);
            match &real {
                Some(r) if lexical.as_ref() != Some(r) => {
                    self.realpaths.insert(written.clone(), r.clone());
                }
                Some(_) => {}
                // Where it leads is unknown: the call cannot be judged, and asks.
                None if full.starts_with('/') => {
                    self.realpaths.insert(written.clone(), String::new());
                }
                None => {}
            }
            // A host that folds `..` in the text before opening (Node's `path.resolve`)
            // opens the lexical path: where that leads counts too (`link/d/../x`).
            let Some(lexical) = lexical.filter(|l| *l != written) else {
                continue;
            };
            if self.realpaths.contains_key(&lexical) {
                continue;
            }
            match resolve_existing_prefix(&lexical, realpath) {
                Some(r) if r == lexical || real.as_ref() == Some(&r) => {}
                Some(r) => {
                    self.realpaths.insert(lexical, r);
                }
                None => {
                    self.realpaths.insert(lexical, String::new());
                }
            }
        }
        if let (Some(list), Some(project)) = (list, self.root.as_deref().or(cwd.as_deref())) {
            if crate::agents::gemini_paths::searches_by_suffix(self.agent.as_deref(), &self.tool) {
                for written in &tool_paths {
                    let full = absolute(written);
                    if written.starts_with('/') || realpath(&full).is_some() {
                        continue;
                    }
                    let walked = files_ending_with(project, written, list);
                    let real = match walked.found.as_slice() {
                        // Not every file was looked at: which one Gemini CLI finds is unknown.
                        _ if !walked.complete => String::new(),
                        [] => continue,
                        [one] => resolve_existing_prefix(one, realpath).unwrap_or_default(),
                        // Gemini CLI refuses an ambiguous path; a wider search than its own
                        // may find more than it does: which it would edit is unknown.
                        _ => String::new(),
                    };
                    self.realpaths.insert(written.clone(), real);
                }
            }
        }
        let named = line_paths.len();
        for (i, written) in line_paths.into_iter().chain(glob_files).enumerate() {
            if self.realpaths.contains_key(&written) {
                continue;
            }
            let full = absolute(&written);
            match resolve_existing_prefix(&full, realpath) {
                Some(real) => {
                    let lexical = crate::path::normalize(&written, cwd.as_deref(), None);
                    if i >= named || lexical.as_deref() != Some(real.as_str()) {
                        self.realpaths.insert(written, real);
                    }
                }
                None if full.starts_with('/') => complete = false,
                None => {}
            }
        }
        for secret in secrets.found {
            let real = resolve_existing_prefix(&secret, realpath).unwrap_or_default();
            self.realpaths.entry(secret).or_insert(real);
        }
        // ripgrep reads the ignore files below and above its roots; one that is a link
        // reads its target, whose lines it may print (`error parsing glob '...'`).
        let ignore_roots = self.ignore_file_roots(&search_roots);
        if let (Some(list), false) = (list, ignore_roots.is_empty()) {
            if !ignore_files_unlinked(&ignore_roots, cwd.as_deref(), realpath, list, host_read) {
                secrets.complete = false;
            }
        }
        if !secrets.complete {
            // Not every file the search opens was looked at: the call asks.
            match self.input_str("command") {
                Some(_) => complete = false,
                None => self.mark_roots_unresolved(&tool_paths),
            }
        }
        if !complete {
            // Not every path of the line is resolved: the marker makes the call ask.
            self.realpaths.insert(".".to_owned(), String::new());
        }
    }

    /// Marks each root of a search tool (`tool_paths`, or `.` for the working directory
    /// when there is none) as not resolved (mapped to the empty string): the host could not
    /// look at every file the search opens.
    /// The directories whose ignore files the call's search reads: a Grep tool's search
    /// roots (`search_roots`); for each `rg` of a shell line that does more than print its
    /// version or help, its words that may be directories, and `.`.
    fn ignore_file_roots(&self, search_roots: &[String]) -> Vec<String> {
        if crate::tool::kind_without_policy(&self.tool, self.server.is_some())
            == crate::tool::ToolKind::Grep
        {
            return search_roots.to_vec();
        }
        let Some(line) = self.input_str("command") else {
            return Vec::new();
        };
        let mut roots = Vec::new();
        for words in crate::shell::commands_of(line) {
            let Some((program, args)) = words.split_first() else {
                continue;
            };
            if crate::commands::program_name(program) != "rg" || prints_about_itself(args) {
                continue;
            }
            roots.push(".".to_owned());
            roots.extend(args.iter().filter(|a| !a.starts_with('-')).cloned());
        }
        roots
    }

    fn mark_roots_unresolved(&mut self, tool_paths: &[String]) {
        let roots = if tool_paths.is_empty() {
            vec![".".to_owned()]
        } else {
            tool_paths.to_vec()
        };
        for root in roots {
            self.realpaths.insert(root, String::new());
        }
    }

    /// Parses a request document, with errors that name the bad field. A key repeated in
    /// any object (`{"command": "ls", "command": "rm -rf /"}`) is an error: the engine must
    /// judge the same call the host runs, whichever copy the host's parser would keep.
    ///
    /// The MCP identity must be certain (see [`Request::check`]):
    ///
    /// ```
    /// let e = toolgate::Request::from_json(
    ///     r#"{"tool":"mcp__github__get_issue","server":"evil"}"#,
    /// ).unwrap_err();
    /// assert_eq!(e.code(), "INVALID_REQUEST");
    /// ```
    pub fn from_json(text: &str) -> Result<Self> {
        let request: Request = crate::json::from_str(text, "request")?;
        request.check()?;
        Ok(request)
    }

    /// Checks what a request's fields must agree on: a `server` is a valid MCP server name
    /// (not empty, no `__`, not ending in `_`), and a tool name of the form
    /// `mcp__<server>__<tool>` names the same server as `server`. A request that fails is
    /// still judged safely by the policy (deny and ask rules see every reading, nothing
    /// allows it), but hosts should refuse it.
    ///
    /// ```
    /// use toolgate::Request;
    /// let req = |tool: &str, server: &str| Request {
    ///     tool: tool.into(),
    ///     server: Some(server.into()),
    ///     ..Request::default()
    /// };
    /// assert!(req("mcp__docs__lookup", "docs").check().is_ok());
    /// assert!(req("lookup", "docs").check().is_ok());
    /// assert!(req("mcp__docs__lookup", "evil").check().is_err());
    /// assert!(req("c", "a__b").check().is_err());
    /// ```
    pub fn check(&self) -> Result<()> {
        match crate::policy::mcp::identity_problem(self) {
            None => Ok(()),
            Some(problem) => {
                let at = if self
                    .server
                    .as_deref()
                    .is_some_and(|s| crate::rule::mcp_server_problem(s).is_some())
                {
                    "server"
                } else {
                    "tool"
                };
                Err(Error::new(ErrorKind::InvalidRequest, problem)
                    .at(at)
                    .with_hint(
                        "send the MCP server's name in `server` and the tool's own name in \
                         `tool` (or `mcp__<server>__<tool>` with the same server); a server \
                         name must not contain `__` or end with `_`",
                    ))
            }
        }
    }

    /// A string field of `input`, if `input` is an object and the field is a string.
    pub fn input_str(&self, key: &str) -> Option<&str> {
        self.input.get(key).and_then(Value::as_str)
    }
}

/// How many words of a shell command line [`Request::add_realpaths`] resolves at most; a line
/// with more is marked as not fully resolved ([`Request::realpaths`] maps `.` to the empty
/// string), and the policy asks about it.
pub const MAX_RESOLVED_WORDS: usize = 1024;

/// A host's directory listing ([`Request::add_realpaths_listing`]).
pub(crate) type ListDirectory<'a> = &'a dyn Fn(&str) -> Option<Vec<String>>;

/// The variable naming ripgrep's configuration file, whose options may make a search read
/// ignored files ([`Request::add_realpaths_reading`]).
pub(crate) const RIPGREP_CONFIG: &str = "RIPGREP_CONFIG_PATH";

/// A host's reading of a small text file ([`Request::add_realpaths_reading`]).
pub(crate) type ReadText<'a> = &'a dyn Fn(&str) -> Option<String>;

/// A host look-up (`realpath`, a listing) that is never asked about a path in a process's
/// own view ([`crate::path::in_process_view`]): what the host sees there is its own working
/// directory and descriptors, not the agent's, so the answer is "cannot tell" (`None`).
fn outside_process_views<'a, T>(
    host: &'a dyn Fn(&str) -> Option<T>,
) -> impl Fn(&str) -> Option<T> + 'a {
    move |path| {
        if crate::path::in_process_view(path) {
            None
        } else {
            host(path)
        }
    }
}

/// Whether the ignore files leave the secret file `file`, found below the search root
/// `root`, out of a search that obeys them, read as ripgrep reads them: from the root's real
/// path (ripgrep resolves it to find the ignore files above it), and only when no link lies
/// between the root and the file. ripgrep does not follow a link below its root, so a file
/// found through one (an ignored `current -> config/prod`) is read, if at all, at its real
/// path, which other lines judge.
fn ignored_in_search(
    file: &str,
    root: &str,
    realpath: &dyn Fn(&str) -> Option<String>,
    list: ListDirectory<'_>,
    read: ReadText<'_>,
) -> bool {
    let real = |p: &str| realpath(p).filter(|r| !r.is_empty());
    let (Some(real_root), Some(real_file)) = (real(root), real(file)) else {
        return false;
    };
    let Some(below) = crate::path::relative_to(root, file) else {
        return false;
    };
    let unlinked = format!("{}/{below}", real_root.trim_end_matches('/'));
    if below.is_empty() || unlinked != real_file {
        return false;
    }
    // A dangling link resolves to where it points, which does not resolve in turn.
    let exists = |p: &str| real(p).is_some_and(|r| real(&r).is_some());
    crate::ignore_files::ignored_by_repository(&real_file, &real_root, list, read, &exists)
}

/// The paths the glob patterns name on the host (at most [`crate::shell::glob::MAX_MATCHED`]
/// in all); `None` when they cannot all be found.
fn expand_globs(
    patterns: &[String],
    cwd: Option<&str>,
    realpath: &dyn Fn(&str) -> Option<String>,
    list: ListDirectory<'_>,
) -> Option<Vec<String>> {
    let mut fs = crate::shell::glob::FileSystem {
        list,
        realpath,
        listed: 0,
    };
    let mut out: Vec<String> = Vec::new();
    for pattern in patterns {
        for path in crate::shell::glob::expand(pattern, cwd, &mut fs)? {
            if !out.contains(&path) {
                out.push(path);
            }
        }
        if out.len() > crate::shell::glob::MAX_MATCHED {
            return None;
        }
    }
    Some(out)
}

/// How many names a walk below search roots looks at ([`Request::add_realpaths_listing`]),
/// across all the roots of one call, besides those in directories that tools fill
/// ([`MAX_SEARCHED_FILLED_BY_TOOLS`]). A walk that would need more stops there, and the call
/// it serves is marked as not fully resolved: it asks.
pub const MAX_SEARCHED: usize = 10_000;

/// How many names in directories that tools fill ([`filled_by_tools`]: installed packages,
/// build output, caches) a walk below search roots looks at, besides the [`MAX_SEARCHED`]
/// others: a search of a project passes through them, and they hold most of its names. A
/// walk that would need more stops there, and the call it serves asks.
pub const MAX_SEARCHED_FILLED_BY_TOOLS: usize = 200_000;

/// What a walk below search roots found, and whether it looked at every name there.
struct Walked {
    /// The absolute paths found.
    found: Vec<String>,
    /// Every root was walked to its end, within [`MAX_SEARCHED`] and
    /// [`MAX_SEARCHED_FILLED_BY_TOOLS`] names.
    complete: bool,
}

/// One directory as a walk sees it.
#[derive(Default)]
struct Listing {
    /// The names in it, without `.` and `..`.
    names: Vec<String>,
    /// Its real path (links followed), when known.
    real: Option<String>,
    /// Its names count against [`MAX_SEARCHED_FILLED_BY_TOOLS`] rather than [`MAX_SEARCHED`].
    filled_by_tools: bool,
}

impl Listing {
    /// The names of a directory whose real path the walk does not need, counted as any.
    fn plain(names: Vec<String>) -> Self {
        Listing {
            names,
            ..Listing::default()
        }
    }
}

/// How many names a walk has looked at, each against its own bound.
#[derive(Default)]
struct Tally {
    /// Names in directories that tools fill ([`Listing::filled_by_tools`]).
    filled_by_tools: usize,
    /// Every other name.
    others: usize,
}

impl Tally {
    /// Counts one more name, found in a directory that tools fill or not; false once past
    /// the bound it counts against.
    fn count_one(&mut self, filled_by_tools: bool) -> bool {
        if filled_by_tools {
            self.filled_by_tools += 1;
            self.filled_by_tools <= MAX_SEARCHED_FILLED_BY_TOOLS
        } else {
            self.others += 1;
            self.others <= MAX_SEARCHED
        }
    }
}

/// Visits the names below the absolute directories `roots`, breadth first (the names
/// nearest a root first), each with its full path and the listing of its directory, until
/// more names than a bound allows have been seen ([`Tally`]). A name is listed as a
/// directory whatever it is (links followed: the wider reading); a file lists as nothing.
/// Returns whether every name was visited: not when a directory could not be listed
/// (`list` gives `None`: the host may not read it, or holds a name it cannot spell), whose
/// names are then unknown, nor when the walk stopped at a bound.
fn walk_below(
    roots: Vec<String>,
    list: impl Fn(&str) -> Option<Listing>,
    mut visit: impl FnMut(&str, &str, &Listing),
) -> bool {
    let mut queue = std::collections::VecDeque::from(roots);
    let mut tally = Tally::default();
    let mut complete = true;
    while let Some(dir) = queue.pop_front() {
        let Some(listing) = list(&dir) else {
            complete = false;
            continue;
        };
        for name in &listing.names {
            if !tally.count_one(listing.filled_by_tools) {
                return false;
            }
            let full = format!("{}/{name}", dir.trim_end_matches('/'));
            visit(name, &full, &listing);
            queue.push_back(full);
        }
    }
    complete
}

/// Whether the directory `dir` is, by its name, one that tools fill: installed packages
/// (`node_modules`, `bower_components`, a Python virtual environment `.venv`/`venv`), git's
/// object store (`.git/objects`, files named by their hash and compressed), and build
/// output and caches (`target`, `__pycache__`, `.tox`, `.nox`, `.mypy_cache`,
/// `.pytest_cache`, `.ruff_cache`, `.gradle`, `.next`). They hold most of a project's
/// names; a search that passes through them reads them, so a walk looks through them too,
/// counting their names apart ([`MAX_SEARCHED_FILLED_BY_TOOLS`]).
fn filled_by_tools(dir: &str) -> bool {
    const FILLED_BY_TOOLS: &[&str] = &[
        "node_modules",
        "bower_components",
        ".venv",
        "venv",
        "target",
        "__pycache__",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".gradle",
        ".next",
    ];
    let name = dir.rsplit('/').next().unwrap_or(dir);
    FILLED_BY_TOOLS.contains(&name) || dir.ends_with("/.git/objects")
}

/// Whether the real path `real` is, or lies below, a directory that tools fill
/// ([`filled_by_tools`]) other than one at or above a path of `kept` (the real paths of the
/// search roots and of the working and project directories): a search that names `target`,
/// or runs in a project called `venv`, reads the files there as any others.
fn in_tree_filled_by_tools(real: &str, kept: &[String]) -> bool {
    let at_or_above_kept = |dir: &str| {
        kept.iter().any(|k| {
            k.strip_prefix(dir)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        })
    };
    let ends = real
        .match_indices('/')
        .map(|(at, _)| at)
        .chain([real.len()]);
    ends.filter_map(|end| real.get(..end))
        .any(|dir| filled_by_tools(dir) && !at_or_above_kept(dir))
}

/// `list` for a walk looking for secret files, each directory with its real path: a
/// directory already listed under another spelling (a link back to a directory above it,
/// two links to one place) lists as empty, its names having been visited once. Every
/// directory is listed whole, whatever its name; one that lies in a directory tools fill
/// ([`in_tree_filled_by_tools`], judged by its real path, past the directories of `kept`)
/// has its names counted apart. A directory the host cannot list gives `None`, as `list`
/// does: the walk does not know what it holds.
fn list_for_secrets<'a>(
    list: ListDirectory<'a>,
    realpath: &'a dyn Fn(&str) -> Option<String>,
    kept: Vec<String>,
) -> impl Fn(&str) -> Option<Listing> + 'a {
    let listed = std::cell::RefCell::new(std::collections::HashSet::new());
    move |dir| {
        let names = list(dir)?;
        if names.is_empty() {
            return Some(Listing::default());
        }
        let real = realpath(dir).filter(|r| !r.is_empty());
        if let Some(real) = &real {
            if !listed.borrow_mut().insert(real.clone()) {
                return Some(Listing::default());
            }
        }
        let filled_by_tools = real
            .as_deref()
            .is_some_and(|r| in_tree_filled_by_tools(r, &kept));
        Some(Listing {
            names,
            real,
            filled_by_tools,
        })
    }
}

/// Whether the name `name`, found at `full` in a directory listed as `listing`, is a secret
/// file ([`crate::policy::is_secret`]) as written or in the directory's real path (a file
/// of `.aws` reached through a link to it).
fn secret_in(name: &str, full: &str, listing: &Listing) -> bool {
    let real = listing
        .real
        .as_deref()
        .map(|dir| format!("{}/{name}", dir.trim_end_matches('/')))
        .filter(|real| real != full);
    crate::policy::is_secret(full) || real.is_some_and(|r| crate::policy::is_secret(&r))
}

/// The secret files ([`secret_in`]) below the search roots `roots` (as the call writes
/// them; relative ones from `cwd`), as absolute paths ([`walk_below`], into every
/// directory, whatever its name). The walk is not complete when a root cannot be placed (a
/// `~` root: the request does not carry the home directory; a root known only at run
/// time), when it is `/` itself, when a directory below them cannot be listed, or when the
/// roots hold more names than it looks at
/// ([`MAX_SEARCHED`], [`MAX_SEARCHED_FILLED_BY_TOOLS`]). The roots, `cwd` and the project
/// directory `project` (and the directories above them) count as any other directory,
/// whatever their names.
fn secrets_below(
    roots: &[String],
    cwd: Option<&str>,
    project: Option<&str>,
    realpath: &dyn Fn(&str) -> Option<String>,
    list: ListDirectory<'_>,
) -> Walked {
    let (absolute, placed) = placed_roots(roots, cwd);
    let kept = absolute
        .iter()
        .map(String::as_str)
        .chain(cwd)
        .chain(project)
        .map(|p| {
            realpath(p)
                .filter(|r| !r.is_empty())
                .unwrap_or_else(|| p.to_owned())
        })
        .collect();
    let mut found: Vec<String> = Vec::new();
    let list = list_for_secrets(list, realpath, kept);
    let walked = walk_below(absolute, list, |name, full, listing| {
        if secret_in(name, full, listing) && !found.iter().any(|f| f == full) {
            found.push(full.to_owned());
        }
    });
    Walked {
        found,
        complete: placed && walked,
    }
}

/// Whether `args` only make ripgrep print its version or help, reading no ignore file.
fn prints_about_itself(args: &[String]) -> bool {
    matches!(
        args,
        [one] if ["-V", "--version", "-h", "--help", "--pcre2-version"].contains(&one.as_str())
    )
}

/// The names of the ignore files ripgrep reads in a directory.
const RIPGREP_READS: &[&str] = &[".ignore", ".rgignore", ".gitignore"];

/// Whether no ignore file a search below `roots` reads is a link (the roots as the call
/// writes them, relative ones from `cwd`; those that are no directory are left out): in
/// every directory below them and above them, `.ignore`, `.rgignore`, `.gitignore`, and a
/// repository's `info/exclude` (in `.git`, or where a `.git` file's `gitdir:` and that
/// directory's `commondir` lead, which `read` gives). `false` too when not every directory
/// could be looked at.
fn ignore_files_unlinked(
    roots: &[String],
    cwd: Option<&str>,
    realpath: &dyn Fn(&str) -> Option<String>,
    list: ListDirectory<'_>,
    read: Option<ReadText<'_>>,
) -> bool {
    let exclude_linked = |dir: &str| {
        let git = format!("{}/.git", dir.trim_end_matches('/'));
        git_directories(&git, list, read).is_none_or(|bases| {
            bases.iter().any(|base| {
                let exclude = format!("{base}/info/exclude");
                let real_base = realpath(base).filter(|r| !r.is_empty());
                let unlinked =
                    real_base.map(|r| format!("{}/info/exclude", r.trim_end_matches('/')));
                realpath(&exclude).is_some_and(|r| Some(r) != unlinked)
            })
        })
    };
    let (placed, all_placed) = placed_roots(roots, cwd);
    let directories: Vec<String> = placed.into_iter().filter(|r| list(r).is_some()).collect();
    // An entry is a link when it does not resolve to itself inside its directory's real path.
    let linked = |dir_real: &str, name: &str, full: &str| {
        let unlinked = format!("{}/{name}", dir_real.trim_end_matches('/'));
        realpath(full).filter(|r| !r.is_empty()) != Some(unlinked)
    };
    let links_in = |dir: &str, dir_real: &str, names: &[String]| {
        let holds = |n: &str| names.iter().any(|x| x == n);
        RIPGREP_READS
            .iter()
            .filter(|n| holds(n))
            .any(|n| linked(dir_real, n, &format!("{}/{n}", dir.trim_end_matches('/'))))
            || (holds(".git") && {
                let exclude = format!("{}/.git/info/exclude", dir.trim_end_matches('/'));
                (realpath(&exclude).is_some() && linked(dir_real, ".git/info/exclude", &exclude))
                    || exclude_linked(dir)
            })
    };
    let mut found = false;
    let walked = walk_below(
        directories.clone(),
        list_for_secrets(list, realpath, Vec::new()),
        |name, full, listing| {
            if RIPGREP_READS.contains(&name) || name == ".git" {
                let dir = full.rsplit_once('/').map_or("/", |(d, _)| d);
                let dir_real = listing.real.as_deref().unwrap_or(dir);
                found |= links_in(dir, dir_real, std::slice::from_ref(&name.to_owned()));
            }
        },
    );
    // The directories above each root, up to `/`, by their real paths (ripgrep opens the
    // ignore files there without listing the directory).
    for root in &directories {
        let real = realpath(root)
            .filter(|r| !r.is_empty())
            .unwrap_or_else(|| root.clone());
        let mut dir = real.as_str();
        while let Some((parent, _)) = dir.rsplit_once('/') {
            let parent = if parent.is_empty() { "/" } else { parent };
            // A directory that cannot be listed is looked into name by name.
            let present: Vec<String> = list(parent).unwrap_or_else(|| {
                RIPGREP_READS
                    .iter()
                    .chain(&[".git"])
                    .filter(|n| {
                        realpath(&format!("{}/{n}", parent.trim_end_matches('/'))).is_some()
                    })
                    .map(|n| (*n).to_owned())
                    .collect()
            });
            found |= links_in(parent, parent, &present);
            if parent == "/" {
                break;
            }
            dir = parent;
        }
    }
    all_placed && walked && !found
}

/// The directories whose `info/exclude` git and ripgrep read for the `.git` entry `git`:
/// itself when it is a directory; for a `.git` file, the directory its `gitdir:` line names
/// and that directory's `commondir` (linked worktrees, submodules). `None` when they cannot
/// be read.
fn git_directories(
    git: &str,
    list: ListDirectory<'_>,
    read: Option<ReadText<'_>>,
) -> Option<Vec<String>> {
    // A file lists as nothing, and only a file reads as text.
    let Some(text) = read.and_then(|read| read(git)) else {
        let directory = list(git).filter(|names| read.is_some() || !names.is_empty());
        return directory.map(|_| vec![git.to_owned()]);
    };
    let here = git.rsplit_once('/').map_or("/", |(d, _)| d);
    let target = text.lines().next()?.strip_prefix("gitdir:")?.trim();
    let gitdir = crate::path::normalize(target, Some(here), None)?;
    let mut out = vec![gitdir.clone()];
    if let Some(common) = read?(&format!("{gitdir}/commondir")) {
        out.push(crate::path::normalize(common.trim(), Some(&gitdir), None)?);
    }
    Some(out)
}

/// The search roots `roots` as absolute paths from `cwd`, and whether every one could be
/// placed: a root written with `~`, known only at run time, or `/` itself is left out
/// ([`secrets_below`] does not look below it).
fn placed_roots(roots: &[String], cwd: Option<&str>) -> (Vec<String>, bool) {
    let mut placed = true;
    let mut absolute = Vec::with_capacity(roots.len());
    for root in roots {
        match crate::path::normalize(root, cwd, None).filter(|r| r != "/") {
            Some(r) => absolute.push(r),
            None => placed = false,
        }
    }
    (absolute, placed)
}

/// The files below the absolute directory `root` whose path ends with `target` (its
/// separators read as `/`) and whose name is `target`'s last name ([`walk_below`]): where
/// Gemini CLI's `replace` finds a relative path that does not exist as written
/// ([`crate::agents::gemini_paths::searches_by_suffix`]). Not complete when `root` holds
/// more than [`MAX_SEARCHED`] names, or a directory below it cannot be listed.
fn files_ending_with(root: &str, target: &str, list: ListDirectory<'_>) -> Walked {
    let target = target.replace('\\', "/");
    let name = target.rsplit('/').next().unwrap_or(&target);
    let mut found = Vec::new();
    let listing = |dir: &str| list(dir).map(Listing::plain);
    let complete = walk_below(vec![root.to_owned()], listing, |entry, full, _| {
        if entry == name && full.ends_with(&target) {
            found.push(full.to_owned());
        }
    });
    Walked { found, complete }
}

/// How many missing trailing components [`resolve_existing_prefix`] walks back over.
const MAX_MISSING_COMPONENTS: usize = 64;

/// Where the absolute path `full` really leads: `realpath` of it, else of its longest prefix
/// that resolves with the missing components appended (`/p/link/new/file` whose `link` leads
/// to `/tmp` gives `/tmp/new/file`). `None` when no prefix resolves, and for a path through a
/// process's own view ([`crate::path::in_process_view`]), whose prefix `/proc` would resolve.
/// The empty string (unresolved) when `realpath` answers so for the path or its prefix.
pub(crate) fn resolve_existing_prefix(
    full: &str,
    realpath: &dyn Fn(&str) -> Option<String>,
) -> Option<String> {
    if !full.starts_with('/') || crate::path::in_process_view(full) {
        return None;
    }
    let mut prefix = full.trim_end_matches('/');
    let mut rest: Vec<&str> = Vec::new();
    for _ in 0..MAX_MISSING_COMPONENTS {
        // The root always exists, and is itself.
        let real = if prefix.is_empty() {
            Some("/".to_owned())
        } else {
            realpath(prefix)
        };
        if let Some(real) = real {
            // Unresolved (the empty string) stays unresolved, whatever follows.
            if rest.is_empty() || real.is_empty() {
                return Some(real);
            }
            rest.reverse();
            return Some(format!("{}/{}", real.trim_end_matches('/'), rest.join("/")));
        }
        let (parent, last) = prefix.rsplit_once('/')?;
        rest.push(last);
        prefix = parent;
    }
    None
}

/// MCP tool annotations (hints), as `tools/list` reports them.
///
/// Missing hints take the MCP specification's defaults, which assume the worst: not
/// read-only, destructive, not idempotent, open-world.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations {
    /// A human-readable title for the tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The tool does not modify its environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// The tool may perform destructive updates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// Calling the tool again with the same arguments has no additional effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// The tool interacts with an open world of external entities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
}

impl ToolAnnotations {
    /// `readOnlyHint`, defaulting to `false`.
    pub fn read_only(&self) -> bool {
        self.read_only_hint.unwrap_or(false)
    }
    /// `destructiveHint`, defaulting to `true`; meaningless when read-only.
    pub fn destructive(&self) -> bool {
        self.destructive_hint.unwrap_or(true)
    }
    /// `openWorldHint`, defaulting to `true`.
    pub fn open_world(&self) -> bool {
        self.open_world_hint.unwrap_or(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file system of `dirs`, each with its names; anything else is a file or missing.
    fn listing<'a>(dirs: &'a [(&str, &[&str])]) -> impl Fn(&str) -> Option<Vec<String>> + 'a {
        move |dir| {
            Some(
                dirs.iter()
                    .find(|(d, _)| *d == dir)
                    .map_or_else(Vec::new, |(_, names)| {
                        names.iter().map(|n| (*n).to_owned()).collect()
                    }),
            )
        }
    }

    #[test]
    fn a_search_records_the_secret_files_below_its_roots() {
        let fs: &[(&str, &[&str])] = &[
            ("/p", &[".env", "src", "certs"]),
            ("/p/src", &["a.rs"]),
            ("/p/certs", &["server.key", "ca.crt"]),
        ];
        let search = |tool: &str, input: serde_json::Value| {
            let mut r = Request {
                tool: tool.into(),
                input,
                cwd: Some("/p".into()),
                ..Request::default()
            };
            r.add_realpaths_listing(|p| crate::path::normalize(p, None, None), listing(fs));
            r.realpaths.into_keys().collect::<Vec<_>>()
        };
        let line = |c: &str| search("Bash", serde_json::json!({ "command": c }));
        let found = line("grep -r TOKEN .");
        assert!(found.contains(&"/p/.env".to_owned()), "{found:?}");
        assert!(
            found.contains(&"/p/certs/server.key".to_owned()),
            "{found:?}"
        );
        assert!(!found
            .iter()
            .any(|k| k.ends_with("a.rs") || k.ends_with("ca.crt")));
        assert_eq!(line("grep -r TOKEN src"), Vec::<String>::new());
        // Naming a file is no search; a `~` root cannot be walked (the request does not
        // know the home directory): the line is not fully resolved.
        assert!(!line("grep TOKEN src/a.rs")
            .iter()
            .any(|k| k.contains(".env")));
        assert_eq!(line("grep -r TOKEN ~"), ["."]);
        let grep = search("Grep", serde_json::json!({ "pattern": "TOKEN" }));
        assert!(grep.contains(&"/p/.env".to_owned()), "{grep:?}");
        let grep = search(
            "Grep",
            serde_json::json!({ "pattern": "TOKEN", "path": "certs" }),
        );
        assert_eq!(grep, ["/p/certs/server.key"]);
        // Other tools do not search.
        assert!(search("Read", serde_json::json!({ "file_path": "/p/src/a.rs" })).is_empty());
    }

    #[test]
    fn gemini_edits_a_relative_path_it_finds_by_its_ending() {
        let fs: &[(&str, &[&str])] = &[
            ("/p", &[".toolgate", "src", "a", "b"]),
            ("/p/.toolgate", &["policy.json"]),
            ("/p/src", &["main.rs"]),
            ("/p/a", &["x.txt"]),
            ("/p/b", &["x.txt"]),
        ];
        let exists = |p: &str| {
            let known = [
                "/p",
                "/p/.toolgate",
                "/p/.toolgate/policy.json",
                "/p/src",
                "/p/src/main.rs",
            ];
            known.contains(&p).then(|| p.to_owned())
        };
        let edit = |agent: &str, path: &str| {
            let mut r = Request {
                tool: "Edit".into(),
                input: serde_json::json!({ "file_path": path }),
                cwd: Some("/p".into()),
                agent: Some(agent.into()),
                ..Request::default()
            };
            r.add_realpaths_listing(exists, listing(fs));
            r.realpaths.get(path).cloned()
        };
        assert_eq!(
            edit("gemini", "policy.json").as_deref(),
            Some("/p/.toolgate/policy.json")
        );
        // Ambiguous: which one Gemini CLI would edit is unknown.
        assert_eq!(edit("gemini", "x.txt").as_deref(), Some(""));
        // Where the path exists as written, or nothing ends so, it is that path.
        assert_eq!(edit("gemini", "src/main.rs"), None);
        assert_eq!(edit("gemini", "new.txt"), None);
        assert_eq!(edit("claude", "policy.json"), None);
    }

    #[test]
    fn a_gemini_edit_of_a_path_not_found_within_the_walk_asks() {
        let many: Vec<String> = (0..=MAX_SEARCHED).map(|i| format!("f{i}")).collect();
        let list = |dir: &str| match dir {
            "/p" => Some(vec!["aaa".to_owned(), "src".to_owned()]),
            "/p/aaa" => Some(many.clone()),
            "/p/src" => Some(vec!["x.txt".to_owned()]),
            _ => Some(Vec::new()),
        };
        let exists = |p: &str| {
            ["/p", "/p/src", "/p/src/x.txt"]
                .contains(&p)
                .then(|| p.to_owned())
        };
        let mut r = Request {
            tool: "Edit".into(),
            input: serde_json::json!({ "file_path": "x.txt" }),
            cwd: Some("/p".into()),
            agent: Some("gemini".into()),
            ..Request::default()
        };
        r.add_realpaths_listing(exists, list);
        assert_eq!(r.realpaths.get("x.txt").map(String::as_str), Some(""));
    }

    #[test]
    fn a_search_looks_at_a_bounded_number_of_names() {
        let many: Vec<String> = (0..MAX_SEARCHED).map(|i| format!("f{i}")).collect();
        let list = |dir: &str| match dir {
            "/p" => Some(many.clone()),
            "/p/f0" => Some(vec!["deep".to_owned()]),
            _ => Some(Vec::new()),
        };
        let itself = |p: &str| Some(p.to_owned());
        // The names nearest the root come first: with more than the bound, the walk says
        // it did not finish.
        let walked = secrets_below(&[".".to_owned()], Some("/p"), None, &itself, &list);
        assert!(walked.found.is_empty());
        assert!(!walked.complete);
        let with_key = |dir: &str| match dir {
            "/p" => Some(vec!["id_rsa".to_owned()]),
            _ => Some(Vec::new()),
        };
        let walked = secrets_below(&["/p".to_owned()], None, None, &itself, &with_key);
        assert_eq!(walked.found, ["/p/id_rsa"]);
        assert!(walked.complete);
        // `/`, and a root the request cannot place, are not walked: not complete either.
        for root in ["/", "~/p", "~ada/p"] {
            let walked = secrets_below(&[root.to_owned()], Some("/p"), None, &itself, &with_key);
            assert!(walked.found.is_empty() && !walked.complete, "{root}");
        }
    }

    #[test]
    fn a_search_that_cannot_look_at_every_file_asks() {
        let many: Vec<String> = (0..=MAX_SEARCHED).map(|i| format!("f{i}")).collect();
        let list = |dir: &str| match dir {
            "/p" => Some(vec!["aaa".to_owned(), "zzz".to_owned()]),
            "/p/aaa" => Some(many.clone()),
            "/p/zzz" => Some(vec![".env".to_owned()]),
            _ => Some(Vec::new()),
        };
        let realpaths = |tool: &str, input: serde_json::Value| {
            let mut r = Request {
                tool: tool.into(),
                input,
                cwd: Some("/p".into()),
                ..Request::default()
            };
            r.add_realpaths_listing(|p| crate::path::normalize(p, None, None), list);
            r.realpaths
        };
        let line = realpaths("Bash", serde_json::json!({ "command": "grep -r TOKEN ." }));
        assert_eq!(line["."], "");
        let grep = realpaths("Grep", serde_json::json!({ "pattern": "TOKEN" }));
        assert_eq!(grep["."], "");
        let grep = realpaths(
            "Grep",
            serde_json::json!({ "pattern": "TOKEN", "path": "/p" }),
        );
        assert_eq!(grep["/p"], "");
        // A `~` root: the request does not know the home directory.
        let grep = realpaths(
            "Grep",
            serde_json::json!({ "pattern": "TOKEN", "path": "~/p" }),
        );
        assert_eq!(grep["~/p"], "");
        let line = realpaths(
            "Bash",
            serde_json::json!({ "command": "grep -r TOKEN ~/p" }),
        );
        assert_eq!(line["."], "");
        // A search of fewer names is resolved.
        let line = realpaths(
            "Bash",
            serde_json::json!({ "command": "grep -r TOKEN zzz" }),
        );
        assert_eq!(line.get("."), None);
        assert!(line.contains_key("/p/zzz/.env"));
    }

    #[test]
    fn a_search_walks_a_directory_reached_through_a_loop_of_links_once() {
        // `/p/up` leads back to `/p`: every spelling below it is the same few files.
        let list = |dir: &str| {
            let names: &[&str] = if dir == "/p" || dir.ends_with("/up") {
                &["up", "src"]
            } else if dir.ends_with("/src") {
                &["a.rs", ".env"]
            } else {
                &[]
            };
            Some(names.iter().map(|n| (*n).to_owned()).collect())
        };
        let realpath = |p: &str| {
            let mut real = p.to_owned();
            while let Some(shorter) = real.strip_prefix("/p/up").map(|r| format!("/p{r}")) {
                real = shorter;
            }
            Some(real)
        };
        let walked = secrets_below(&["/p".to_owned()], None, None, &realpath, &list);
        assert!(walked.complete);
        assert_eq!(walked.found, ["/p/src/.env"]);
    }

    /// The names of `many` files, `f0`, `f1`, ...
    fn files(many: usize) -> Vec<String> {
        (0..many).map(|i| format!("f{i}")).collect()
    }

    #[test]
    fn a_search_counts_the_names_in_directories_tools_fill_apart() {
        let list = |dir: &str| match dir {
            "/p" => Some(vec!["node_modules".into(), "target".into(), "src".into()]),
            "/p/node_modules" => Some(vec!["big".into(), "x".into()]),
            "/p/node_modules/big" | "/p/target" => Some(files(MAX_SEARCHED + 1)),
            "/p/node_modules/x" => Some(vec!["lib".into()]),
            "/p/node_modules/x/lib" => Some(vec![".env".into()]),
            "/p/src" => Some(vec!["server.key".into()]),
            _ => Some(Vec::new()),
        };
        let itself = |p: &str| Some(p.to_owned());
        let walked = secrets_below(&["/p".to_owned()], None, None, &itself, &list);
        assert!(walked.complete);
        let mut found = walked.found;
        found.sort();
        assert_eq!(found, ["/p/node_modules/x/lib/.env", "/p/src/server.key"]);
        // A search that names such a directory counts its names as any others.
        for root in ["node_modules", "target"] {
            let walked = secrets_below(&[root.to_owned()], Some("/p"), None, &itself, &list);
            assert!(!walked.complete, "{root}");
        }
        // Past their own bound, the walk stops too.
        let huge = |dir: &str| match dir {
            "/p" => Some(vec!["node_modules".into()]),
            "/p/node_modules" => Some(files(MAX_SEARCHED_FILLED_BY_TOOLS + 1)),
            _ => Some(Vec::new()),
        };
        let walked = secrets_below(&["/p".to_owned()], None, None, &itself, &huge);
        assert!(!walked.complete);
        // Gemini's search for a file by its ending counts every name alike.
        assert!(!files_ending_with("/p", "x.txt", &list).complete);
    }

    #[test]
    fn a_search_through_a_directory_the_host_cannot_list_is_not_complete() {
        // `/p/odd` cannot be listed (the host may not read it, or it holds a name the host
        // cannot spell): what lies below it is unknown, and the secret beside it still found.
        let list = |dir: &str| match dir {
            "/p" => Some(vec!["odd".into(), "sub".into()]),
            "/p/odd" => None,
            "/p/sub" => Some(vec![".env".into()]),
            _ => Some(Vec::new()),
        };
        let itself = |p: &str| Some(p.to_owned());
        let walked = secrets_below(&["/p".to_owned()], None, None, &itself, &list);
        assert!(!walked.complete);
        assert_eq!(walked.found, ["/p/sub/.env"]);
        // The root itself, unlistable.
        let walked = secrets_below(&["/p/odd".to_owned()], None, None, &itself, &list);
        assert!(!walked.complete && walked.found.is_empty());
        // Gemini's search for a file by its ending cannot tell where the file is either.
        assert!(!files_ending_with("/p", "x.txt", &list).complete);
        // A search line through it asks.
        let mut r = Request {
            tool: "Bash".into(),
            input: serde_json::json!({"command": "grep -r TOKEN ."}),
            cwd: Some("/p/odd".into()),
            ..Request::default()
        };
        r.add_realpaths_listing(itself, list);
        assert_eq!(r.realpaths["."], "");
    }

    #[test]
    fn a_project_named_as_a_directory_tools_fill_counts_its_names_as_any() {
        // The working directory, the project and the directories above them are the
        // project's own, whatever their names.
        let list = |dir: &str| match dir {
            "/w" => Some(vec!["venv".into()]),
            "/w/venv" => Some(files(MAX_SEARCHED + 1)),
            _ => Some(Vec::new()),
        };
        let itself = |p: &str| Some(p.to_owned());
        let from = |root: &str, cwd: &str, project: Option<&str>| {
            secrets_below(&[root.to_owned()], Some(cwd), project, &itself, &list).complete
        };
        assert!(!from(".", "/w/venv", None));
        assert!(!from("..", "/w/venv/sub", None));
        assert!(!from("/w", "/w/venv/sub", None));
        assert!(!from("/w", "/tmp", Some("/w/venv")));
        // Below a project of another name, a `venv` is one that tools fill.
        assert!(from("/w", "/w", None));
        assert!(from("/w", "/tmp", None));
    }

    #[test]
    fn a_file_is_secret_by_the_real_path_of_its_directory_too() {
        // `/p/keys` is a link to `/p/.aws`, listed first: `.aws` is then walked already.
        let list = |dir: &str| match dir {
            "/p" => Some(vec!["keys".into(), ".aws".into()]),
            "/p/keys" | "/p/.aws" => Some(vec!["credentials".into()]),
            _ => Some(Vec::new()),
        };
        let realpath = |p: &str| Some(p.replace("/p/keys", "/p/.aws"));
        let walked = secrets_below(&["/p".to_owned()], None, None, &realpath, &list);
        assert!(walked.complete);
        assert_eq!(walked.found, ["/p/keys/credentials"]);
    }

    #[test]
    fn a_link_named_as_a_directory_tools_fill_hides_nothing() {
        // `/p/target` is a link to `/p/config`, listed first.
        let list = |dir: &str| match dir {
            "/p" => Some(vec!["target".into(), "config".into()]),
            "/p/target" | "/p/config" => Some(vec!["prod".into()]),
            "/p/target/prod" | "/p/config/prod" => Some(vec![".env".into()]),
            _ => Some(Vec::new()),
        };
        let realpath = |p: &str| Some(p.replace("/p/target", "/p/config"));
        let walked = secrets_below(&["/p".to_owned()], None, None, &realpath, &list);
        assert!(walked.complete);
        assert_eq!(walked.found, ["/p/target/prod/.env"]);
    }

    /// Trees of real directories and files below the system's temporary directory, walked
    /// through the host functions the command line gives ([`Request::add_realpaths_listing`]).
    #[cfg(unix)]
    mod on_disk {
        use super::super::secrets_below;
        use std::path::{Path, PathBuf};

        /// A fresh, empty directory named for `test` (its real path, links followed).
        fn scratch(test: &str) -> PathBuf {
            let dir =
                std::env::temp_dir().join(format!("toolgate-walk-{test}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::canonicalize(dir).unwrap()
        }

        /// Writes a file at `rel` below `dir`, making its directories.
        fn write(dir: &Path, rel: &str) {
            let path = dir.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "TOKEN=secret").unwrap();
        }

        fn realpath(p: &str) -> Option<String> {
            Some(std::fs::canonicalize(p).ok()?.to_str()?.to_owned())
        }

        fn list(dir: &str) -> Option<Vec<String>> {
            match std::fs::read_dir(dir) {
                Ok(entries) => entries
                    .map(|e| e.ok()?.file_name().into_string().ok())
                    .collect(),
                Err(_) => Some(Vec::new()),
            }
        }

        /// The secret files a search from `cwd` of `root` finds, below `cwd`.
        fn found(cwd: &Path, root: &str) -> Vec<String> {
            let cwd = cwd.to_str().unwrap();
            let walked = secrets_below(&[root.to_owned()], Some(cwd), None, &realpath, &list);
            assert!(walked.complete, "{root}");
            let mut found: Vec<String> = walked
                .found
                .iter()
                .map(|f| f.strip_prefix(cwd).unwrap().to_owned())
                .collect();
            found.sort();
            found
        }

        #[test]
        fn a_search_reads_the_secrets_in_directories_tools_fill() {
            let p = scratch("filled");
            write(&p, "target/prod/id_rsa");
            write(&p, "target/deep/.env");
            write(&p, "node_modules/x/.env");
            write(&p, "src/main.rs");
            for root in ["target", "target/", "./target"] {
                let found = found(&p, root);
                assert_eq!(
                    found,
                    ["/target/deep/.env", "/target/prod/id_rsa"],
                    "{root}"
                );
            }
            assert_eq!(found(&p, "node_modules"), ["/node_modules/x/.env"]);
            assert_eq!(
                found(&p, "."),
                [
                    "/node_modules/x/.env",
                    "/target/deep/.env",
                    "/target/prod/id_rsa"
                ]
            );
            assert!(found(&p, "src").is_empty());
            let _ = std::fs::remove_dir_all(&p);
        }

        #[test]
        fn a_search_in_a_project_named_as_a_directory_tools_fill_reads_its_secrets() {
            let w = scratch("venv");
            let project = w.join("venv");
            write(&project, "config/.env");
            write(&project, "config/id_ed25519");
            assert_eq!(found(&project, "."), ["/config/.env", "/config/id_ed25519"]);
            assert_eq!(
                found(&w, "venv"),
                ["/venv/config/.env", "/venv/config/id_ed25519"]
            );
            let _ = std::fs::remove_dir_all(&w);
        }

        #[test]
        fn a_link_named_as_a_directory_tools_fill_hides_nothing() {
            // `target` leads to `config`: whichever spelling is listed first, the secret
            // file is found under it.
            let p = scratch("linked");
            write(&p, "config/prod/.env");
            std::os::unix::fs::symlink("config", p.join("target")).unwrap();
            let found = found(&p, ".");
            assert!(
                found == ["/config/prod/.env"] || found == ["/target/prod/.env"],
                "{found:?}"
            );
            let _ = std::fs::remove_dir_all(&p);
        }
    }

    #[test]
    fn rejects_unknown_keys() {
        let e = Request::from_json(r#"{"tool":"Bash","comand":"ls"}"#).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::UnknownField);
    }

    #[test]
    fn rejects_a_key_repeated_in_the_input() {
        // Hosts disagree on which copy wins; the engine must not judge `ls` while `rm` runs.
        for text in [
            r#"{"tool":"Bash","input":{"command":"rm -rf /","command":"ls"}}"#,
            r#"{"tool":"Bash","tool":"Read","input":{}}"#,
        ] {
            let e = Request::from_json(text).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::InvalidJson, "{text}");
            assert!(e.to_string().contains("duplicate key"), "{e}");
        }
    }

    #[test]
    fn refuses_an_uncertain_mcp_identity() {
        for (text, at) in [
            (r#"{"tool":"mcp__github__get_x","server":"evil"}"#, "tool"),
            (r#"{"tool":"c","server":"a__b"}"#, "server"),
            (r#"{"tool":"x","server":"a_"}"#, "server"),
            (r#"{"tool":"x","server":""}"#, "server"),
            (r#"{"tool":"mcp__docs","server":"docs"}"#, "tool"),
        ] {
            let e = Request::from_json(text).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::InvalidRequest, "{text}");
            assert_eq!(e.path(), at, "{text}");
        }
        for ok in [
            r#"{"tool":"mcp__github__get_x","server":"github"}"#,
            r#"{"tool":"get_x","server":"github"}"#,
            r#"{"tool":"mcp__a__b__c"}"#,
            r#"{"tool":"Read","server":"web"}"#,
        ] {
            Request::from_json(ok).unwrap_or_else(|e| panic!("{ok}: {e}"));
        }
    }

    /// A host's file system: `/p/src/cfg` is a link to `/h/.config`; everything else that
    /// exists is the project and `/h`.
    fn linked_host(p: &str) -> Option<String> {
        let dirs = ["/p", "/p/src", "/h", "/h/.config", "/h/.config/autostart"];
        if let Some(rest) = p.strip_prefix("/p/src/cfg") {
            let real = format!("/h/.config{rest}");
            return dirs.contains(&real.as_str()).then_some(real);
        }
        dirs.contains(&p).then(|| p.to_owned())
    }

    fn write_of(path: &str) -> Request {
        let mut r = Request {
            tool: "Write".into(),
            input: serde_json::json!({"file_path": path, "content": "x"}),
            cwd: Some("/p".into()),
            ..Request::default()
        };
        r.add_realpaths(linked_host);
        r
    }

    #[test]
    fn the_lexical_form_of_a_path_is_resolved_too() {
        // Node's `path.resolve` folds `d/..` before opening: the host writes below the link.
        let padded = format!("src/cfg/{}autostart/x.desktop", "d/../".repeat(40));
        let r = write_of(&padded);
        assert_eq!(
            r.realpaths["/p/src/cfg/autostart/x.desktop"],
            "/h/.config/autostart/x.desktop"
        );
        let r = write_of("src/cfg/autostart/x.desktop");
        assert_eq!(
            r.realpaths["src/cfg/autostart/x.desktop"],
            "/h/.config/autostart/x.desktop"
        );
        assert_eq!(r.realpaths.len(), 1, "{:?}", r.realpaths);
    }

    #[test]
    fn a_path_too_deep_to_resolve_is_marked_unresolved() {
        let deep = format!("src/cfg/{}x", "d/".repeat(70));
        let r = write_of(&deep);
        assert_eq!(r.realpaths[&deep], "");
        let mut r = Request {
            tool: "Bash".into(),
            input: serde_json::json!({"command": format!("touch {deep}")}),
            cwd: Some("/p".into()),
            ..Request::default()
        };
        r.add_realpaths(linked_host);
        assert_eq!(r.realpaths["."], "");
    }

    /// A host's file system for globs: `/p/docs` holds `a.md`, `b.md -> /h/.ssh/id_rsa`,
    /// `.k -> /h/.ssh/key` and `sub/` with `c.md -> /h/c`; `/p/big` holds 2000 files.
    fn glob_realpath(p: &str) -> Option<String> {
        Some(match p {
            "/p/docs/b.md" => "/h/.ssh/id_rsa".to_owned(),
            "/p/docs/.k" => "/h/.ssh/key".to_owned(),
            "/p/docs/sub/c.md" => "/h/c".to_owned(),
            _ => crate::path::normalize(p, None, None)?,
        })
    }

    fn glob_list(dir: &str) -> Option<Vec<String>> {
        let names: Vec<String> = match dir {
            "/p/docs" => vec!["a.md".into(), "b.md".into(), ".k".into(), "sub".into()],
            "/p/docs/sub" => vec!["c.md".into()],
            "/p/big" => (0..2000).map(|i| format!("f{i}")).collect(),
            "/p/locked" => return None,
            _ => Vec::new(),
        };
        Some(names)
    }

    fn shell_call(command: &str) -> Request {
        let mut r = Request {
            tool: "Bash".into(),
            input: serde_json::json!({ "command": command }),
            cwd: Some("/p".into()),
            ..Request::default()
        };
        r.add_realpaths_listing(glob_realpath, glob_list);
        r
    }

    #[test]
    fn links_behind_a_glob_are_resolved() {
        for command in [
            "cat docs/*",
            "cat docs/[b].md",
            "tail -n+1 docs/?.md",
            "cat docs/*.MD",
        ] {
            let r = shell_call(command);
            assert_eq!(r.realpaths["docs/b.md"], "/h/.ssh/id_rsa", "{command}");
            assert!(!r.realpaths.contains_key("."), "{command}");
        }
        // Every file a glob names is kept, so each is judged by its name too.
        assert_eq!(
            shell_call("cat docs/*").realpaths["docs/a.md"],
            "/p/docs/a.md"
        );
        let r = shell_call("cat docs/a*");
        assert!(!r.realpaths.contains_key("docs/b.md"), "{:?}", r.realpaths);
        // Several glob segments, and `**` at any depth; after `cd`, from its directory too.
        assert_eq!(
            shell_call("cat docs/*/*.md").realpaths["docs/sub/c.md"],
            "/h/c"
        );
        assert_eq!(
            shell_call("cat docs/**/*.md").realpaths["docs/sub/c.md"],
            "/h/c"
        );
        let r = shell_call("cd docs && cat sub/*");
        assert_eq!(r.realpaths["docs/sub/c.md"], "/h/c");
        // A quoted glob character is literal.
        assert!(!shell_call("cat docs/'*'*")
            .realpaths
            .contains_key("docs/b.md"));
    }

    #[test]
    fn a_dot_file_is_resolved_though_bash_leaves_it_out_by_default() {
        // `*` skips `.k` unless `dotglob` is set, which may be: the widest reading counts.
        let r = shell_call("cat docs/*");
        assert_eq!(r.realpaths["docs/.k"], "/h/.ssh/key");
    }

    #[test]
    fn a_glob_past_the_bound_or_unlisted_is_not_fully_resolved() {
        assert!(!shell_call("cat big/f19*").realpaths.contains_key("."));
        // 2000 paths: more than a line resolves.
        assert_eq!(shell_call("cat big/*").realpaths["."], "");
        assert_eq!(shell_call("cat locked/*").realpaths["."], "");
        // Listing 2000 names six times: more than a line reads.
        let many = "cat big/a* big/b* big/c* big/d* big/e* big/g*";
        assert_eq!(shell_call(many).realpaths["."], "");
        // A host that cannot list cannot vouch for a glob.
        let mut r = Request {
            tool: "Bash".into(),
            input: serde_json::json!({"command": "cat docs/*.md"}),
            cwd: Some("/p".into()),
            ..Request::default()
        };
        r.add_realpaths(glob_realpath);
        assert_eq!(r.realpaths["."], "");
    }

    #[test]
    fn mcp_defaults_assume_the_worst() {
        let a = ToolAnnotations::default();
        assert!(!a.read_only() && a.destructive() && a.open_world());
    }

    /// A host's `realpath` that resolves every path lexically, noting each path in `asked`.
    fn recording_host(
        asked: &std::cell::RefCell<Vec<String>>,
    ) -> impl Fn(&str) -> Option<String> + '_ {
        move |p: &str| {
            asked.borrow_mut().push(p.to_owned());
            crate::path::normalize(p, None, None)
        }
    }

    #[test]
    fn paths_in_a_processs_own_view_are_never_resolved_on_the_host() {
        // The host's `/proc/self/cwd` is its own working directory, not the agent's shell's.
        let file = |path: &str| Request {
            tool: "Read".into(),
            input: serde_json::json!({ "file_path": path }),
            cwd: Some("/p/docs".into()),
            root: Some("/p".into()),
            ..Request::default()
        };
        for path in [
            "/proc/self/cwd/../secrets/key.txt",
            "/proc/self/cwd/../../etc/passwd",
            "/proc/thread-self/root/etc/shadow",
            "/proc/1/cwd/x",
            "/dev/fd/3",
            "/dev/stdin",
        ] {
            let asked = std::cell::RefCell::new(Vec::new());
            let mut r = file(path);
            r.add_realpaths(recording_host(&asked));
            assert_eq!(
                r.realpaths.get(path).map(String::as_str),
                Some(""),
                "{path}"
            );
            let asked = asked.borrow();
            assert!(
                !asked.iter().any(|p| crate::path::in_process_view(p)),
                "{path}: {asked:?}"
            );
        }
        // In a shell line, the line is marked as not fully resolved; a glob there is not
        // listed.
        for command in [
            "cat /proc/self/cwd/../secrets/key.txt",
            "cd /proc/self/cwd/.. && cat secrets/key.txt",
            "cd /proc/self/cwd && wc -l docs/*",
        ] {
            let asked = std::cell::RefCell::new(Vec::new());
            let listed = std::cell::RefCell::new(Vec::new());
            let mut r = Request {
                tool: "Bash".into(),
                input: serde_json::json!({ "command": command }),
                cwd: Some("/p/docs".into()),
                ..Request::default()
            };
            r.add_realpaths_listing(recording_host(&asked), |dir| {
                listed.borrow_mut().push(dir.to_owned());
                Some(vec!["key.txt".to_owned()])
            });
            assert_eq!(
                r.realpaths.get(".").map(String::as_str),
                Some(""),
                "{command}"
            );
            let seen: Vec<String> = asked
                .borrow()
                .iter()
                .chain(listed.borrow().iter())
                .cloned()
                .collect();
            assert!(
                !seen.iter().any(|p| crate::path::in_process_view(p)),
                "{command}: {seen:?}"
            );
        }
        // Other paths under `/proc` and `/dev` resolve as before.
        let asked = std::cell::RefCell::new(Vec::new());
        let mut r = file("/proc/cpuinfo");
        r.add_realpaths(recording_host(&asked));
        assert!(!r.realpaths.contains_key("/proc/cpuinfo"));
    }
}
