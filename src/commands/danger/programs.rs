//! Programs with subcommands: git, gh, package managers, containers, `find`, `rsync`,
//! `ssh`, `aws`, services.

use super::*;

/// The program `name` names, for a program with subcommands ([`crate::shell::has_subcommands`])
/// installed under a versioned name: `pip3.11` (as pyenv and python.org install it) is
/// `pip`, `go1.22` is `go`; a name the table knows, or whose versionless form it does not,
/// stays as it is.
pub(super) fn subcommand_program(name: String) -> String {
    let known = crate::shell::has_subcommands;
    let base = crate::commands::runners::terminal_name(&name);
    if known(&name) || base == name || !known(base) {
        return name;
    }
    base.to_owned()
}

/// The readings of `name`'s operands: each starts at a word that may be its subcommand, its
/// global options dropped, between the subcommand's words too where the program takes them
/// there ([`crate::shell::subcommand_readings`]). A program without subcommands has one
/// reading, every operand.
pub(super) fn operand_readings<'a>(name: &str, args: &'a [String]) -> Vec<Vec<&'a str>> {
    match crate::shell::subcommand_readings(name, args) {
        None => vec![operands(args)],
        Some(readings) => readings
            .into_iter()
            .map(|reading| {
                reading
                    .iter()
                    .filter_map(|i| args.get(*i))
                    .map(String::as_str)
                    .filter(|w| !is_option(w))
                    .collect()
            })
            .collect(),
    }
}

pub(super) fn publish(out: &mut Classification, name: &str, sub: &str, ops: &[&str]) {
    let rest: Vec<&str> = ops.iter().copied().filter(|o| *o != sub).collect();
    let what = if rest.is_empty() {
        String::new()
    } else {
        format!(" {}", quoted(&rest))
    };
    let command = format!("{name} {sub}");
    out.add(
        DangerClass::Publish,
        format!("`{}`{what}", command.trim()),
        owned(&rest),
    );
}

pub(super) fn install(out: &mut Classification, name: &str, ops: &[&str]) {
    let pkgs: Vec<&str> = ops.iter().copied().skip(1).collect();
    let what = if pkgs.is_empty() {
        "the project's dependencies".to_owned()
    } else {
        quoted(&pkgs)
    };
    out.add(
        DangerClass::PackageInstall,
        format!("installs {what} with `{name}`"),
        owned(&pkgs),
    );
    for p in &pkgs {
        if p.contains("://") || p.starts_with("git+") || p.starts_with("github:") {
            out.add(
                DangerClass::RemoteCode,
                format!("installs and runs code from `{p}`"),
                vec![(*p).to_owned()],
            );
        }
    }
}

/// Classifies a JavaScript package manager call; returns the command a package runner
/// (`npx pkg args`) runs, to be classified in turn.
pub(super) fn node_package_into(
    name: &str,
    args: &[String],
    ops: &[&str],
    out: &mut Classification,
) -> Option<Vec<String>> {
    let word = ops.first().copied().unwrap_or("");
    // npm reads its command through its aliases and any unique prefix (`npm pub`, `npm it`);
    // a prefix several share is read as each of them.
    let subs = match name {
        "npm" => crate::commands::npm_commands(word),
        _ => Vec::new(),
    };
    if subs.is_empty() {
        return node_command_into(name, args, ops, word, word, out);
    }
    let mut inner = None;
    for sub in subs {
        inner = inner.or(node_command_into(name, args, ops, word, sub, out));
    }
    inner
}

/// [`node_package_into`] for the command `sub` the word `word` names.
fn node_command_into(
    name: &str,
    args: &[String],
    ops: &[&str],
    word: &str,
    sub: &str,
    out: &mut Classification,
) -> Option<Vec<String>> {
    let runs_package = matches!(name, "npx" | "pnpx" | "bunx")
        || (name == "npm" && matches!(sub, "exec" | "x"))
        || (matches!(name, "pnpm" | "yarn") && sub == "dlx")
        || (name == "bun" && sub == "x");
    if runs_package {
        let skip = usize::from(!matches!(name, "npx" | "pnpx" | "bunx"));
        let pkg: Vec<&str> = ops.iter().copied().skip(skip).take(1).collect();
        out.add(
            DangerClass::RemoteCode,
            format!("downloads and runs the package {}", quoted(&pkg)),
            owned(&pkg),
        );
        let start = pkg.first().and_then(|p| args.iter().position(|a| a == p))?;
        return args.get(start..).map(<[String]>::to_vec);
    }
    let install_word = |s: &str| {
        matches!(
            s,
            "add"
                | "ci"
                | "update"
                | "up"
                | "upgrade"
                | "isntall"
                | "i"
                | "install-test"
                | "install-ci-test"
                | "rebuild"
                | "link"
        ) || (s.len() >= 2 && "install".starts_with(s) && s.starts_with("in"))
    };
    match sub {
        "publish" | "unpublish" | "deprecate" => publish(out, name, word, ops),
        // Yarn 2 and later: `yarn npm publish`.
        "npm" if name == "yarn" && ops.get(1) == Some(&"publish") => {
            publish(out, "yarn npm", "publish", ops.get(1..).unwrap_or_default())
        }
        "" if name == "yarn" => install(out, name, ops),
        s if install_word(s) => install(out, name, ops),
        "config"
            if ops
                .get(1)
                .is_some_and(|s| matches!(*s, "set" | "edit" | "delete")) =>
        {
            out.add(
                DangerClass::Persistence,
                format!("changes `{name}` configuration"),
                owned(ops),
            )
        }
        _ => {}
    }
    None
}

pub(super) fn package_manager_into(
    name: &str,
    args: &[String],
    ops: &[&str],
    out: &mut Classification,
) {
    let sub = ops.first().copied().unwrap_or("");
    let installs = match name {
        "pacman" => has_flag(args, &['S', 'U'], &["sync", "upgrade"]),
        "go" => matches!(sub, "install" | "get"),
        "uv" => matches!(sub, "add" | "sync") || (sub == "pip" && ops.get(1) == Some(&"install")),
        "dotnet" => matches!(sub, "add" | "tool") && ops.contains(&"install") || sub == "add",
        "nix-env" => has_flag(args, &['i'], &["install"]),
        "deno" => sub == "install",
        "apk" | "poetry" => matches!(sub, "add" | "install"),
        "composer" => matches!(sub, "install" | "require" | "update"),
        "bundle" => matches!(sub, "install" | "" | "update"),
        "conda" | "mamba" | "micromamba" => matches!(sub, "install" | "create" | "update"),
        "brew" => matches!(sub, "install" | "reinstall" | "upgrade" | "tap"),
        _ => matches!(sub, "install" | "reinstall" | "upgrade" | "add"),
    };
    if name == "deno" && sub == "run" {
        if let Some(url) = ops
            .iter()
            .find(|o| o.contains("://") || o.starts_with("npm:"))
        {
            out.add(
                DangerClass::RemoteCode,
                format!("downloads and runs `{url}`"),
                vec![(*url).to_owned()],
            );
        }
    }
    if name == "go" && sub == "run" && ops.iter().any(|o| o.contains('@')) {
        out.add(
            DangerClass::RemoteCode,
            format!(
                "downloads and runs {}",
                quoted(ops.get(1..).unwrap_or_default())
            ),
            owned(ops.get(1..).unwrap_or_default()),
        );
    }
    if name == "pipx" && sub == "run" || name == "uv" && sub == "tool" && ops.get(1) == Some(&"run")
    {
        out.add(
            DangerClass::RemoteCode,
            format!(
                "downloads and runs {}",
                quoted(ops.get(1..).unwrap_or_default())
            ),
            owned(ops.get(1..).unwrap_or_default()),
        );
    }
    if installs {
        let from = if name == "uv" && sub == "pip" { 1 } else { 0 };
        install(out, name, ops.get(from..).unwrap_or_default());
    }
    if matches!(name, "pip" | "pip3") && sub == "config" && ops.get(1) == Some(&"set") {
        out.add(
            DangerClass::Persistence,
            "changes pip configuration".to_owned(),
            owned(ops),
        );
    }
    if ["poetry", "uv", "pdm", "gem"].contains(&name) && matches!(sub, "publish" | "push") {
        publish(out, name, sub, ops);
    }
}

pub(super) fn container_into(name: &str, args: &[String], ops: &[&str], out: &mut Classification) {
    let sub = ops.first().copied().unwrap_or("");
    match sub {
        "push" => publish(out, name, sub, ops),
        "kill" | "stop" => out.add(
            DangerClass::Kill,
            format!(
                "stops containers {}",
                quoted(ops.get(1..).unwrap_or_default())
            ),
            owned(ops.get(1..).unwrap_or_default()),
        ),
        "run" | "exec" if has_flag(args, &[], &["privileged"]) => out.add(
            DangerClass::Privilege,
            "runs a privileged container".to_owned(),
            Vec::new(),
        ),
        "login" => out.add(
            DangerClass::Persistence,
            format!("stores registry credentials with `{name} login`"),
            Vec::new(),
        ),
        _ => {}
    }
}

pub(super) fn find_into(
    args: &[String],
    depth: usize,
    out: &mut Classification,
    facts: &mut LineFacts,
) {
    let roots: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .take_while(|a| !a.starts_with('-') && !matches!(*a, "(" | "!"))
        .collect();
    if args.iter().any(|a| a == "-delete") {
        out.add(
            DangerClass::RecursiveDelete,
            format!("deletes what `find` matches under {}", quoted(&roots)),
            owned(&roots),
        );
    }
    let mut rest = args;
    while let Some(pos) = rest
        .iter()
        .position(|a| matches!(a.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir"))
    {
        let after = rest.get(pos + 1..).unwrap_or_default();
        let end = after
            .iter()
            .position(|a| a == ";" || a == "+" || a == "\\;")
            .unwrap_or(after.len());
        let inner: Vec<String> = after
            .get(..end)
            .unwrap_or_default()
            .iter()
            .filter(|w| w.as_str() != "{}")
            .cloned()
            .collect();
        command_into(&inner, depth + 1, out, facts);
        rest = after.get(end..).unwrap_or_default();
    }
}

pub(super) fn rsync_into(args: &[String], out: &mut Classification) {
    let ops = operands(args);
    if has_flag(
        args,
        &[],
        &[
            "delete",
            "delete-before",
            "delete-after",
            "delete-during",
            "del",
            "remove-source-files",
        ],
    ) {
        out.add(
            DangerClass::RecursiveDelete,
            format!(
                "deletes files in {} that the source lacks",
                quoted(
                    &ops.iter()
                        .copied()
                        .skip(ops.len().saturating_sub(1))
                        .collect::<Vec<_>>()
                )
            ),
            owned(&ops),
        );
    }
    let hosts = hosts_of(&ops);
    if !hosts.is_empty() {
        out.add(
            DangerClass::NetworkUpload,
            format!("copies files to or from {}", quoted(&hosts)),
            owned(&hosts),
        );
        for o in ops.iter().filter(|o| secret_kind(o).is_some()) {
            out.secret_upload(o);
        }
    }
}

/// Operands that name another machine: `host:path`, `user@host`, `scheme://host`.
pub(super) fn hosts_of<'a>(ops: &[&'a str]) -> Vec<&'a str> {
    ops.iter()
        .copied()
        .filter(|o| {
            o.contains("://")
                || o.contains('@')
                || o.split_once(':')
                    .is_some_and(|(h, _)| !h.is_empty() && !h.contains('/') && h.len() > 1)
        })
        .collect()
}

pub(super) fn ssh_into(args: &[String], depth: usize, out: &mut Classification) {
    const VALUE: &str = "BbcDEeFIiJLlmOopQRSWw";
    let mut i = 0;
    while let Some(a) = args.get(i) {
        match a.strip_prefix('-') {
            Some(c) if !c.is_empty() => {
                let last = c.chars().last().unwrap_or(' ');
                i += if c.len() == 1 && VALUE.contains(last) {
                    2
                } else {
                    1
                };
            }
            _ => break,
        }
    }
    let host = args.get(i).map(String::as_str).unwrap_or("a host");
    out.add(
        DangerClass::NetworkUpload,
        format!("opens a shell connection to `{host}`"),
        vec![host.to_owned()],
    );
    let remote: Vec<&str> = args
        .get(i + 1..)
        .unwrap_or_default()
        .iter()
        .map(String::as_str)
        .collect();
    if !remote.is_empty() {
        line_into(&remote.join(" "), depth + 1, out);
    }
}

pub(super) fn aws_into(args: &[String], ops: &[&str], out: &mut Classification) {
    if ops.first() == Some(&"s3") {
        let sub = ops.get(1).copied().unwrap_or("");
        if matches!(sub, "rm" | "rb") && has_flag(args, &[], &["recursive", "force"]) {
            out.add(
                DangerClass::RecursiveDelete,
                format!(
                    "deletes {} recursively",
                    quoted(ops.get(2..).unwrap_or_default())
                ),
                owned(ops.get(2..).unwrap_or_default()),
            );
        }
        if matches!(sub, "cp" | "sync" | "mv") && ops.last().is_some_and(|d| d.starts_with("s3://"))
        {
            out.add(
                DangerClass::NetworkUpload,
                format!("uploads to `{}`", ops.last().copied().unwrap_or("")),
                owned(ops.get(2..).unwrap_or_default()),
            );
            for o in ops.iter().filter(|o| secret_kind(o).is_some()) {
                out.secret_upload(o);
            }
        }
    }
}

/// Archivers that delete what they archive (`tar --remove-files`, `zip -m`, `7z -sdel`),
/// and `tar` giving archived files a mode or owner (`--mode=4755` makes a set-user-id file
/// of whatever it archives, on creation or extraction).
pub(super) fn archive_into(name: &str, args: &[String], ops: &[&str], out: &mut Classification) {
    let deletes = match name {
        "tar" => has_flag(args, &[], &["remove-files"]),
        "zip" => has_flag(args, &['m'], &["move"]),
        _ => args.iter().any(|a| a.eq_ignore_ascii_case("-sdel")),
    };
    if deletes {
        out.add(
            DangerClass::RecursiveDelete,
            format!("deletes {} once archived (`{name}`)", quoted(ops)),
            owned(ops),
        );
    }
    if name != "tar" {
        return;
    }
    let modes = option_values(args, "--mode");
    let owners = ["--owner", "--group", "--owner-map", "--group-map"]
        .iter()
        .any(|o| !option_values(args, o).is_empty());
    if !modes.is_empty() || owners {
        out.add(
            DangerClass::DiskPermissions,
            format!(
                "sets the permissions or owner of archived files {}",
                quoted(ops)
            ),
            owned(ops),
        );
    }
    if modes.iter().any(|m| sets_id_bits(m)) {
        out.add(
            DangerClass::Privilege,
            format!(
                "gives archived files a set-user-id or set-group-id bit {}",
                quoted(ops)
            ),
            owned(ops),
        );
    }
}

/// The values of the long option `name` (`--mode=V` or `--mode V`) before `--`.
fn option_values<'a>(args: &'a [String], name: &str) -> Vec<&'a str> {
    let mut values = Vec::new();
    let mut words = args.iter().take_while(|a| a.as_str() != "--");
    while let Some(word) = words.next() {
        if let Some(value) = word.strip_prefix(name).and_then(|v| v.strip_prefix('=')) {
            values.push(value);
        } else if word == name {
            values.extend(words.next().map(String::as_str));
        }
    }
    values
}

pub(super) fn service_into(name: &str, ops: &[&str], out: &mut Classification) {
    let verb = if name == "service" {
        ops.get(1).copied().unwrap_or("")
    } else {
        ops.first().copied().unwrap_or("")
    };
    match verb {
        "stop"
        | "kill"
        | "restart"
        | "reboot"
        | "poweroff"
        | "halt"
        | "unload"
        | "bootout"
        | "isolate"
        | "try-restart"
        | "reload-or-restart"
        | "try-reload-or-restart"
        | "condrestart"
        | "force-reload"
        | "suspend"
        | "hibernate"
        | "hybrid-sleep"
        | "suspend-then-hibernate"
        | "kexec"
        | "soft-reboot"
        | "rescue"
        | "emergency"
        | "default"
        | "exit"
        | "switch-root" => out.add(
            DangerClass::Kill,
            format!("stops or restarts {}", quoted(ops)),
            owned(ops),
        ),
        "enable" | "load" | "bootstrap" | "link" | "edit" | "set-default" | "mask" | "disable" => {
            out.add(
                DangerClass::Persistence,
                format!("changes what starts automatically ({})", quoted(ops)),
                owned(ops),
            )
        }
        _ => {}
    }
}

pub(super) fn git_into(args: &[String], out: &mut Classification) {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if crate::shell::GIT_GLOBAL_WITH_VALUE.contains(&a.as_str()) {
            i += 2;
        } else if is_option(a) {
            i += 1;
        } else {
            break;
        }
    }
    let Some(sub) = args.get(i).map(String::as_str) else {
        return;
    };
    let sargs = args.get(i + 1..).unwrap_or_default();
    let ops = operands(sargs);
    let rewrite = |out: &mut Classification, detail: String| {
        out.add(DangerClass::HistoryRewrite, detail, owned(&ops));
    };
    match sub {
        "push" => {
            let force = has_flag(
                sargs,
                &['f'],
                &["force", "force-with-lease", "force-if-includes", "mirror"],
            ) || ops.iter().skip(1).any(|o| o.starts_with('+'));
            let delete = has_flag(sargs, &['d'], &["delete", "prune"])
                || ops.iter().skip(1).any(|o| o.starts_with(':'));
            let target = if ops.is_empty() {
                "the upstream branch".to_owned()
            } else {
                quoted(&ops)
            };
            if force {
                rewrite(
                    out,
                    format!("force-pushes {target}, replacing remote history"),
                );
            }
            if delete {
                rewrite(out, format!("deletes remote refs ({target})"));
            }
            out.add(
                DangerClass::NetworkUpload,
                format!("pushes commits to {target}"),
                owned(&ops),
            );
        }
        "reset" if has_flag(sargs, &[], &["hard", "merge", "keep"]) => rewrite(
            out,
            format!(
                "discards uncommitted changes (`git reset {}`)",
                sargs.join(" ")
            ),
        ),
        "clean" if has_flag(sargs, &['f'], &["force"]) => {
            rewrite(out, "deletes untracked files".to_owned())
        }
        "branch" if has_flag(sargs, &['D', 'M', 'C', 'f'], &["force"]) => rewrite(
            out,
            format!("force-deletes or overwrites branches {}", quoted(&ops)),
        ),
        "rebase" if !has_flag_surely(sargs, &[], &["abort", "quit", "show-current-patch"]) => {
            rewrite(
                out,
                format!("rewrites commits (`git rebase {}`)", sargs.join(" ")),
            )
        }
        "filter-branch" | "filter-repo" | "replace" => {
            rewrite(out, format!("rewrites history with `git {sub}`"))
        }
        "reflog" if matches!(ops.first().copied(), Some("expire" | "delete")) => {
            rewrite(out, "discards reflog entries".to_owned())
        }
        "update-ref" if has_flag(sargs, &['d'], &["stdin"]) || ops.len() >= 2 => {
            rewrite(out, format!("moves or deletes refs {}", quoted(&ops)))
        }
        "send-pack" => {
            if has_flag(sargs, &['f'], &["force", "mirror"])
                || ops.iter().skip(1).any(|o| o.starts_with('+'))
            {
                rewrite(out, format!("force-updates remote refs {}", quoted(&ops)));
            }
            out.add(
                DangerClass::NetworkUpload,
                format!("sends commits with `git send-pack` {}", quoted(&ops)),
                owned(&ops),
            );
        }
        "fetch" | "pull" if fetch_overwrites_local_refs(sargs, &ops) => rewrite(
            out,
            format!(
                "overwrites local branches with fetched ones {}",
                quoted(&ops)
            ),
        ),
        "worktree" if ops.first() == Some(&"remove") && has_flag(sargs, &['f'], &["force"]) => {
            rewrite(
                out,
                format!(
                    "removes a worktree with its uncommitted work {}",
                    quoted(&ops)
                ),
            )
        }
        "rm" if has_flag(sargs, &['f'], &["force"])
            && !has_flag_surely(sargs, &[], &["cached"]) =>
        {
            rewrite(
                out,
                format!(
                    "deletes files with their uncommitted changes {}",
                    quoted(&ops)
                ),
            );
            if has_flag(sargs, &['r'], &[]) {
                out.add(
                    DangerClass::RecursiveDelete,
                    format!("deletes {} recursively with `git rm`", quoted(&ops)),
                    owned(&ops),
                );
            }
        }
        "checkout-index" if has_flag(sargs, &['f'], &["force"]) => rewrite(
            out,
            "overwrites working files from the index, discarding their changes".to_owned(),
        ),
        "tag" if has_flag(sargs, &['d', 'f'], &["delete", "force"]) => {
            rewrite(out, format!("deletes or moves tags {}", quoted(&ops)))
        }
        "stash" if matches!(ops.first().copied(), Some("drop" | "clear")) => {
            rewrite(out, "discards stashed changes".to_owned())
        }
        "commit" if has_flag(sargs, &[], &["amend"]) => {
            rewrite(out, "rewrites the last commit".to_owned())
        }
        "checkout" if has_flag(sargs, &['B'], &[]) => {
            rewrite(out, format!("resets the branch {}", quoted(&ops)))
        }
        "switch" if has_flag(sargs, &['C'], &["force-create"]) => {
            rewrite(out, format!("resets the branch {}", quoted(&ops)))
        }
        "checkout" | "switch"
            if has_flag(sargs, &['f'], &["force", "discard-changes"])
                || sub == "checkout" && checkout_overwrites_paths(sargs, &ops) =>
        {
            rewrite(out, "discards uncommitted changes".to_owned())
        }
        "restore" => rewrite(out, format!("discards changes to {}", quoted(&ops))),
        "gc" | "prune" if has_flag(sargs, &[], &["prune", "aggressive"]) || sub == "prune" => {
            rewrite(out, "prunes unreachable commits".to_owned())
        }
        // `git config NAME VALUE`, the write options, and git 2.46's verbs (`git config set`,
        // `unset`, `edit`, `rename-section`, `remove-section`; `get` and `list` read).
        "config"
            if matches!(
                ops.first().copied(),
                Some("set" | "unset" | "edit" | "rename-section" | "remove-section")
            ) || has_flag(
                sargs,
                &['e'],
                &[
                    "edit",
                    "add",
                    "replace-all",
                    "unset",
                    "unset-all",
                    "rename-section",
                    "remove-section",
                ],
            ) || (!has_flag_surely(
                sargs,
                &['l'],
                &[
                    "get",
                    "get-all",
                    "get-regexp",
                    "list",
                    "show-origin",
                    "show-scope",
                    "get-urlmatch",
                ],
            ) && !matches!(ops.first().copied(), Some("get" | "list"))
                && ops.len() >= 2) =>
        {
            out.add(
                DangerClass::Persistence,
                format!("changes git configuration (`{}`)", ops.join(" ")),
                owned(&ops),
            )
        }
        "remote"
            if matches!(
                ops.first().copied(),
                Some("add" | "set-url" | "rename" | "remove" | "rm")
            ) =>
        {
            out.add(
                DangerClass::Persistence,
                format!("changes git remotes (`{}`)", ops.join(" ")),
                owned(&ops),
            )
        }
        "send-email" | "request-pull" => out.add(
            DangerClass::NetworkUpload,
            format!("sends patches with `git {sub}`"),
            owned(&ops),
        ),
        _ => {}
    }
}

/// Whether `git fetch` or `git pull` may overwrite a local branch: `--update-head-ok`, or a
/// refspec into a destination other than a remote-tracking branch that is forced (`+src:dst`,
/// or any with `-f`/`--force`).
fn fetch_overwrites_local_refs(sargs: &[String], ops: &[&str]) -> bool {
    let forced = has_flag(sargs, &['f'], &["force"]);
    has_flag(sargs, &[], &["update-head-ok"])
        || ops.iter().skip(1).any(|refspec| {
            let (plus, spec) = match refspec.strip_prefix('+') {
                Some(rest) => (true, rest),
                None => (false, *refspec),
            };
            let local = spec
                .split_once(':')
                .is_some_and(|(_, dst)| !dst.is_empty() && !dst.starts_with("refs/remotes/"));
            (plus || forced) && local
        })
}

/// Whether `git checkout` may overwrite working files, in the widest reading of its
/// `[<tree-ish>] [--] <pathspec>...` form: a pathspec after `--`, two operands or more (a
/// tree-ish and paths), a single operand that looks like a path rather than a branch (`.`,
/// `./x`, `/x`, `:/x`, a pattern, a file name with an extension), or `--pathspec-from-file`.
/// `-b`/`-B`/`--orphan` make a branch instead.
fn checkout_overwrites_paths(sargs: &[String], ops: &[&str]) -> bool {
    let dash_dash = sargs.iter().position(|a| a == "--");
    if dash_dash.is_some_and(|at| sargs.len() > at + 1)
        || has_flag(sargs, &[], &["pathspec-from-file"])
    {
        return true;
    }
    if has_flag(sargs, &['b', 'B'], &["orphan"]) {
        return false;
    }
    match ops {
        [] => false,
        [one] => looks_like_path(one),
        _ => true,
    }
}

/// Whether a `git checkout` operand reads as a path rather than a branch or commit.
fn looks_like_path(word: &str) -> bool {
    let last = word.rsplit('/').next().unwrap_or(word);
    matches!(word, "." | "..")
        || word.starts_with(['.', '/', ':'])
        || word.ends_with('/')
        || word.contains(['*', '?', '['])
        || last.rsplit_once('.').is_some_and(|(stem, ext)| {
            !stem.is_empty() && ext.chars().all(char::is_alphabetic) && !ext.is_empty()
        })
}

pub(super) fn gh_into(args: &[String], ops: &[&str], out: &mut Classification) {
    let (group, verb) = (
        ops.first().copied().unwrap_or(""),
        ops.get(1).copied().unwrap_or(""),
    );
    let rest = ops.get(2..).unwrap_or_default();
    match (group, verb) {
        ("release", "create" | "upload" | "edit" | "delete") => {
            publish(out, "gh release", verb, rest)
        }
        ("repo", "delete" | "archive" | "rename") | ("pr", "merge") => out.add(
            DangerClass::HistoryRewrite,
            format!(
                "changes remote state with `gh {group} {verb}` {}",
                quoted(rest)
            ),
            owned(rest),
        ),
        ("auth", "status") if has_flag(args, &['t'], &["show-token"]) => out.add(
            DangerClass::SecretRead,
            "prints the GitHub token".to_owned(),
            Vec::new(),
        ),
        ("auth", "token") => out.add(
            DangerClass::SecretRead,
            "prints the GitHub token".to_owned(),
            Vec::new(),
        ),
        ("secret" | "variable", "set" | "delete") | ("workflow", "run") | ("gist", "create") => {
            out.add(
                DangerClass::NetworkUpload,
                format!("sends data to GitHub with `gh {group} {verb}`"),
                owned(rest),
            );
            if group == "gist" {
                for f in rest.iter().filter(|f| secret_kind(f).is_some()) {
                    out.secret_upload(f);
                }
            }
        }
        ("api", _) => {
            let writes = has_flag(args, &['f', 'F'], &["field", "raw-field", "input"])
                || args.iter().any(|a| {
                    let up = a.to_uppercase();
                    ["POST", "PUT", "PATCH", "DELETE"]
                        .iter()
                        .any(|m| up.ends_with(m))
                });
            if writes {
                out.add(
                    DangerClass::NetworkUpload,
                    format!("changes GitHub data with `gh api {verb}`"),
                    vec![verb.to_owned()],
                );
            }
        }
        ("pr" | "issue", "create" | "comment" | "close" | "edit") => out.add(
            DangerClass::NetworkUpload,
            format!("posts to GitHub with `gh {group} {verb}`"),
            owned(rest),
        ),
        _ => {}
    }
}
