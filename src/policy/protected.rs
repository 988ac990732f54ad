//! Protected paths: files whose change would let an agent widen its own permissions or run
//! code later (version control internals, agent settings, shell start-up files, package
//! manager credentials). No allow rule or mode short of bypass allows a write to them.

use crate::path::FirstBytes;
use crate::shell::Reach;

/// Directory names that protect everything beneath them, at any depth.
const PROTECTED_DIRS: &[&str] = &[
    ".git",
    ".ssh",
    ".gnupg",
    ".claude",
    ".copilot",
    ".vscode",
    ".idea",
    ".husky",
    // Agent hook settings and toolgate's own policy files: an agent that could write them
    // could turn its own gate off.
    ".toolgate",
    ".gemini",
    ".codex",
    ".cursor",
    // cargo's configuration (`[alias]` can shadow a subcommand, `rustc-wrapper` runs a
    // program) at any depth, and its `bin` on `PATH`.
    ".cargo",
    ".emacs.d",
    ".vim",
    // Vim's own directory on Windows, the `.vim` there.
    "vimfiles",
    ".hg",
    // Sourced by the shell's start-up files, or the version managers' shims and tools they
    // run at every start and put first on `PATH`.
    ".bashrc.d",
    ".oh-my-zsh",
    ".nvm",
    ".pyenv",
    ".rbenv",
    ".nodenv",
    ".asdf",
    ".volta",
    ".bun",
    // The programs that `PATH`'s proxies and shims run, and the files that pick them:
    // rustup's toolchains and `settings.toml` (`~/.cargo/bin/cargo` runs
    // `~/.rustup/toolchains/*/bin/cargo`), and the like for Lean (elan), Haskell (ghcup),
    // Julia (juliaup), Foundry, the JVM's SDKMAN! (`~/.sdkman/bin/sdkman-init.sh` is sourced
    // at every start), Rye, pixi, fnm, .NET (a user install's `dotnet` and `tools`), and the
    // Nix profile, a link into the store that `ln -sfn` could point elsewhere.
    ".rustup",
    ".elan",
    ".ghcup",
    ".juliaup",
    ".foundry",
    ".sdkman",
    ".rye",
    ".pixi",
    ".fnm",
    ".dotnet",
    ".nix-profile",
    ".pip",
    // Python imports what is there at every start (`.pth` lines run, a package shadows
    // another, `sitecustomize.py`), of every Python program, `pip --version` included.
    "site-packages",
    "dist-packages",
];

/// File names protected at any depth.
const PROTECTED_FILES: &[&str] = &[
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zprofile",
    ".zshenv",
    ".zlogin",
    ".zlogout",
    ".kshrc",
    ".cshrc",
    ".tcshrc",
    ".login",
    ".bash_aliases",
    ".inputrc",
    // Read by the graphical session and the log-in.
    ".xprofile",
    ".xsession",
    ".xsessionrc",
    ".xinitrc",
    ".pam_environment",
    // Start-up files of programs a person runs later, which run what they say: editors,
    // debuggers, REPLs and database shells (`\!`, `.shell`), a project's R session.
    ".vimrc",
    ".gvimrc",
    ".exrc",
    // Their Windows spellings, which Vim on Windows reads in the home directory, and Vim
    // anywhere reads in the working directory with `exrc` set (after `.vimrc`).
    "_vimrc",
    "_gvimrc",
    "_exrc",
    ".emacs",
    ".gdbinit",
    ".lldbinit",
    ".irbrc",
    ".pryrc",
    ".psqlrc",
    ".sqliterc",
    ".rprofile",
    // Package managers' hooks run at install: pnpm's `readPackage`, bun's `preload`.
    ".pdbrc",
    ".ghci",
    ".tmux.conf",
    ".screenrc",
    ".mavenrc",
    ".renviron",
    ".hgrc",
    // A virtual environment's `home` says where its standard library is imported from.
    "pyvenv.cfg",
    // Where packages are fetched from: another index serves other code.
    "pip.conf",
    // pip's configuration file on Windows, in a virtual environment or the user's profile.
    "pip.ini",
    "uv.toml",
    ".pnpmfile.cjs",
    "bunfig.toml",
    ".bunfig.toml",
    "sitecustomize.py",
    "usercustomize.py",
    ".envrc",
    ".gitconfig",
    ".gitmodules",
    ".npmrc",
    ".yarnrc",
    ".yarnrc.yml",
    ".pypirc",
    ".netrc",
    // curl and wget read their defaults at every run: an `output` or `upload-file` line
    // there writes or sends any file the next plain `curl URL` touches.
    ".curlrc",
    "_curlrc",
    ".wgetrc",
    ".pgpass",
    ".mcp.json",
    ".claude.json",
    "toolgate.json",
    ".toolgate.json",
    // Toolchain pins that make a version manager's shim run another program: rustup's
    // `cargo`/`rustc` proxies run `<path>/bin/cargo` for `[toolchain] path = "..."`, asdf
    // and mise run `path:/dir` versions and mise's `[env] _.source` scripts. They are looked
    // for in every parent directory, so any depth counts.
    "rust-toolchain",
    "rust-toolchain.toml",
    ".tool-versions",
    "mise.toml",
    ".mise.toml",
    "mise.local.toml",
    ".mise.local.toml",
    // More start-up files that run what they say: `npm init`'s module, bash-completion's
    // user file, mksh's, xonsh's and csh's (`.logout`) start-up files, direnv's library,
    // mailcap's viewers, xbindkeys' bindings, WezTerm's Lua configuration, and the package
    // sources of conda, RubyGems and Terraform (`dev_overrides` runs a local provider).
    ".npm-init.js",
    ".bash_completion",
    ".mkshrc",
    ".xonshrc",
    ".logout",
    ".direnvrc",
    ".mailcap",
    ".xbindkeysrc",
    ".wezterm.lua",
    ".condarc",
    ".gemrc",
    ".terraformrc",
    // A directory holding `HEAD`, `objects/` and `refs/` is a bare repository, which git
    // discovers from that directory or any below it before any `.git` above, and whose
    // `config` then runs programs (`core.fsmonitor` for `git status`). Every git directory
    // needs a `HEAD` (`commondir` or not), and a file of that name is rare in a project.
    "head",
];

/// File names protected directly in the working directory and in each of its parents (the
/// project's root among them): in a bare repository git discovers there (its `HEAD` is
/// protected at any depth), `config` is the repository's configuration (`core.fsmonitor`
/// runs a program for `git status`) and `commondir` points git at another directory's
/// `config`. Deeper, they are ordinary names (`src/config/`), and a repository there needs
/// a `HEAD`, which cannot be written without a prompt.
const PROTECTED_AT_ROOT: &[&str] = &["config", "commondir"];

/// Directory paths (as consecutive segments) protected at any depth: tool configuration and
/// the places an agent could plant code that runs later (at log-in, on a timer, on boot). A
/// segment `*` stands for any one segment (a version in the path).
const PROTECTED_SEQUENCES: &[&[&str]] = &[
    &[".config", "fish"],
    &[".config", "git"],
    &[".config", "gh"],
    &[".config", "github-copilot"],
    &[".config", "toolgate"],
    // toolgate's trust file (remembered grants) and audit log: a write there could grant
    // the agent anything, or erase the record of what it did.
    &[".local", "state", "toolgate"],
    &[".config", "autostart"],
    &[".config", "systemd"],
    &[".local", "bin"],
    // On `PATH`, or what the programs there run: Deno's, npm's (a `prefix` of
    // `~/.npm-global`), pnpm's and Yarn's global programs, mise's shims and installs, fnm's
    // Node versions, uv's tools and Pythons, and the packages `npx` runs from its cache. On
    // macOS and Windows pnpm, fnm, uv, mise and Yarn keep them under `Library` or `AppData`.
    &[".deno", "bin"],
    &[".npm-global"],
    &[".local", "share", "pnpm"],
    &["library", "pnpm"],
    &["appdata", "local", "pnpm"],
    &[".yarn", "bin"],
    &["appdata", "local", "yarn", "bin"],
    &[".local", "share", "mise"],
    &["appdata", "local", "mise"],
    &[".local", "share", "fnm"],
    &["library", "application support", "fnm"],
    &["appdata", "roaming", "fnm"],
    &[".local", "share", "uv", "tools"],
    &[".local", "share", "uv", "python"],
    &["appdata", "roaming", "uv"],
    &[".npm", "_npx"],
    &["library", "launchagents"],
    &["library", "launchdaemons"],
    &[".docker"],
    &[".kube"],
    &[".aws"],
    &[".github", "hooks"],
    &[".config", "mise"],
    &[".config", "mise.toml"],
    &[".config", "curlrc"],
    &[".mise"],
    &[".config", "environment.d"],
    &[".config", "gdb"],
    &[".config", "tmux"],
    &[".config", "pip"],
    &[".config", "uv"],
    // Go's `go env -w` settings (`GOFLAGS=-toolexec=...` for every later build).
    &[".config", "go"],
    &[".local", "share", "systemd"],
    &[".local", "share", "nvim"],
    &["go", "bin"],
    &[".config", "nvim"],
    &[".config", "emacs"],
    // A virtual environment's programs, first on `PATH` while it is active.
    &[".venv", "bin"],
    &["venv", "bin"],
    // The same on Windows, where activation (and VS Code's terminals) run `Activate.ps1`.
    &[".venv", "scripts"],
    &["venv", "scripts"],
    // PowerShell's profiles, run at every start: `pwsh` on Linux and macOS, then PowerShell
    // and Windows PowerShell on Windows.
    &[".config", "powershell"],
    &["documents", "powershell"],
    &["documents", "windowspowershell"],
    // Run at every Windows log-in.
    &[
        "appdata",
        "roaming",
        "microsoft",
        "windows",
        "start menu",
        "programs",
        "startup",
    ],
    // On `PATH`: npm's global programs on Windows, Python's user scripts on Windows and
    // macOS (`*` is the Python version: `Python311`, `3.11`).
    &["appdata", "roaming", "npm"],
    &["appdata", "roaming", "python", "*", "scripts"],
    &["library", "python", "*", "bin"],
    // Neovim's configuration on Windows, the `.config/nvim` there.
    &["appdata", "local", "nvim"],
    // Run at every Gradle build, every IPython start, every completion of a command.
    &[".gradle", "init.d"],
    &[".gradle", "init.gradle"],
    &[".gradle", "init.gradle.kts"],
    &[".ipython"],
    &[".local", "share", "bash-completion"],
    // Window managers' and desktop sessions' configuration, which starts programs at
    // log-in or on a key (`exec`, `exec-once`, `autostart`, `env/*.sh` sourced).
    &[".config", "i3"],
    &[".config", "sway"],
    &[".config", "hypr"],
    &[".config", "openbox"],
    &[".config", "lxsession"],
    &[".config", "plasma-workspace"],
    &[".kde", "autostart"],
    &[".kde4", "autostart"],
    // Other shells' start-up files and direnv's library.
    &[".config", "xonsh"],
    &[".config", "nushell"],
    &[".config", "direnv"],
    // Terminals whose configuration names the shell or programs they start, and VS Code's
    // user settings (terminal profiles, interpreter and tool paths).
    &[".config", "kitty"],
    &[".config", "alacritty"],
    &[".config", "wezterm"],
    &[".config", "code", "user"],
    // Maven's settings: where artifacts, plugins among them, are fetched from.
    &[".m2", "settings.xml"],
];

/// Absolute directories protected with everything under them; a last segment ending in `*`
/// is a prefix (`/etc/cron*` covers `/etc/crontab` and `/etc/cron.d/x`).
const PROTECTED_ABSOLUTE: &[&[&str]] = &[
    // The administrator's managed policy, which no other layer overrides.
    &["etc", "toolgate"],
    &["etc", "cron*"],
    &["etc", "anacrontab"],
    // The BSDs' and macOS's daily, weekly and monthly scripts.
    &["etc", "periodic"],
    &["etc", "systemd"],
    &["etc", "init.d"],
    &["etc", "rc.local"],
    &["etc", "profile"],
    &["etc", "profile.d"],
    &["var", "spool", "cron"],
    &["usr", "lib", "systemd"],
    // Read by every git, every shell, every program's loader, every log-in: where the
    // agent runs as root (a container), a write there runs code later.
    &["etc", "gitconfig"],
    &["etc", "ld.so.preload"],
    &["etc", "ld.so.conf"],
    &["etc", "ld.so.conf.d"],
    &["etc", "bash.bashrc"],
    &["etc", "bashrc"],
    &["etc", "bash_completion.d"],
    &["etc", "zsh"],
    &["etc", "zshenv"],
    &["etc", "zshrc"],
    &["etc", "zprofile"],
    &["etc", "zlogin"],
    &["etc", "environment"],
    &["etc", "sudoers"],
    &["etc", "sudoers.d"],
    &["etc", "passwd"],
    &["etc", "shadow"],
    &["etc", "group"],
    &["etc", "ssh"],
    &["etc", "pam.d"],
    &["etc", "security"],
    &["etc", "xdg", "autostart"],
    &["etc", "apt", "apt.conf.d"],
    &["etc", "npmrc"],
    &["etc", "update-motd.d"],
    &["etc", "logrotate.d"],
    &["etc", "udev"],
    &["etc", "sysctl.conf"],
    &["etc", "sysctl.d"],
    &["etc", "x11", "xsession.d"],
    &["usr", "local", "lib", "systemd"],
    // Python's standard library, imported by every Python program.
    &["usr", "lib", "python*"],
    &["usr", "local", "lib", "python*"],
    // The programs on `PATH`.
    &["usr", "local", "bin"],
    &["usr", "local", "sbin"],
    &["usr", "bin"],
    &["usr", "sbin"],
    &["usr", "games"],
    &["usr", "local", "games"],
    &["bin"],
    &["sbin"],
];

/// Directories under the home directory protected with everything under them.
const PROTECTED_IN_HOME: &[&str] = &["bin"];

/// Whether a normalised absolute path is protected, with the home directory inferred from
/// the path (`/home/<user>`, `/Users/<user>`, `/root`). See [`is_protected_in`].
///
/// ```
/// use toolgate::policy::is_protected;
/// assert!(is_protected("/p/.git/hooks/pre-commit"));
/// assert!(is_protected("/home/ada/.bashrc"));
/// assert!(is_protected("/p/.claude/settings.json"));
/// assert!(is_protected("/p/.GIT/hooks/pre-commit"));
/// assert!(is_protected("/p/.Claude/SETTIN~1.JSO"));
/// assert!(is_protected("/home/ada/.local/bin/ls"));
/// assert!(is_protected("/etc/cron.d/job"));
/// assert!(!is_protected("/p/src/git.rs"));
/// assert!(!is_protected("/p/.github/workflows/ci.yml"));
/// assert!(!is_protected("/p/bin/build.sh"));
/// ```
pub fn is_protected(path: &str) -> bool {
    is_protected_in(path, None)
}

/// Whether a normalised absolute path is protected, given the home directory (inferred from
/// the path when `None`). Compared in the widest reading: case-insensitively, with Windows
/// spellings folded (backslashes, `::$DATA` streams, trailing dots and spaces) and 8.3 short
/// names (`SETTIN~1.JSO`) standing for any name they could abbreviate.
pub fn is_protected_in(path: &str, home: Option<&str>) -> bool {
    is_protected_from(path, home, None)
}

/// [`is_protected_in`] for a call made in the working directory `cwd` (normalised,
/// absolute): also the files that configure a bare repository git would discover in `cwd`
/// or one of its parents (`config`, `commondir` directly in it; `HEAD`, which makes one, is
/// protected at any depth).
///
/// ```
/// use toolgate::policy::is_protected_from;
/// let cwd = Some("/home/ada/proj/src");
/// assert!(is_protected_from("/home/ada/proj/src/config", None, cwd));
/// assert!(is_protected_from("/home/ada/proj/HEAD", None, cwd));
/// assert!(is_protected_from("/home/ada/proj/Config", None, cwd));
/// assert!(!is_protected_from("/home/ada/proj/src/app/config", None, cwd));
/// assert!(!is_protected_from("/home/ada/proj/src/config.rs", None, cwd));
/// assert!(is_protected_from("/home/ada/proj/src/app/sub/HEAD", None, cwd));
/// ```
pub fn is_protected_from(path: &str, home: Option<&str>, cwd: Option<&str>) -> bool {
    is_protected_reach(path, home, cwd, Reach::Name)
}

/// [`is_protected_from`] for a name that reaches beyond itself (see [`Reach`]): also when
/// a protected place may lie below it (`Reach::Tree`), or begin with it (`Reach::Prefix`).
/// The places anywhere (`.git`, `.bashrc`) count below a tree only by name: a tree's own
/// files were each written under a check of their own, while a name the program composes
/// is not.
///
pub(crate) fn is_protected_reach(
    path: &str,
    home: Option<&str>,
    cwd: Option<&str>,
    reach: Reach,
) -> bool {
    let lower = path.to_lowercase();
    let home = home
        .map(str::to_lowercase)
        .or_else(|| crate::path::home_from_cwd(&lower));
    let cwd = cwd.map(str::to_lowercase);
    let folded = crate::path::has_windows_spelling(&lower)
        .then(|| crate::path::normalize(&crate::path::fold_windows(&lower), None, None))
        .flatten();
    let (home, cwd) = (home.as_deref(), cwd.as_deref());
    std::iter::once(lower.as_str())
        .chain(folded.as_deref())
        .any(|p| {
            protected_form(p, home)
                || at_root(p, cwd)
                || (reach != Reach::Name && holds_protected(p, home))
                || (reach == Reach::Prefix && begins_protected(p, home, cwd))
        })
}

/// Whether a protected place that is anchored (a directory sequence such as
/// `.config/autostart`, an absolute place such as `/etc/cron.d`, the home directory's
/// `bin` and start-up files) lies strictly below the lowercased, normalised `path`.
fn holds_protected(path: &str, home: Option<&str>) -> bool {
    let segs: Vec<&str> = crate::path::segments(path).collect();
    let short = segs.iter().any(|s| s.as_bytes().contains(&b'~'));
    let ends_with = |start: &[&str]| {
        segs.len() >= start.len()
            && start
                .iter()
                .rev()
                .zip(segs.iter().rev())
                .all(|(n, s)| same_or_prefix(n, s, short))
    };
    // `~/.config` begins `.config/autostart`; `~/.local/state` begins `.local/state/toolgate`.
    let begins_sequence = PROTECTED_SEQUENCES
        .iter()
        .any(|seq| (1..seq.len()).any(|k| seq.get(..k).is_some_and(ends_with)));
    // `/etc` holds `/etc/cron.d`; `/` holds every absolute place.
    let above_absolute = PROTECTED_ABSOLUTE.iter().any(|seq| {
        segs.len() < seq.len()
            && segs
                .iter()
                .zip(*seq)
                .all(|(s, n)| same_or_prefix(n, s, short))
    });
    // The home directory or one above it: `~/bin` and `~/.bashrc` land below.
    let above_home = home.is_some_and(|h| crate::path::contains(path, h));
    begins_sequence || above_absolute || above_home
}

/// Whether a protected name may begin with the last segment of the lowercased, normalised
/// `path`, where it stands: a name anywhere (`.bash` begins `.bashrc`), the last segment of
/// a sequence or an absolute place (`~/.local/b`, `/etc/cro`), the home directory's `bin`,
/// or a bare repository's files directly in the working directory or above it. A composed
/// name is a file's: the earlier segments of a place are not composed.
fn begins_protected(path: &str, home: Option<&str>, cwd: Option<&str>) -> bool {
    let Some((dir, last)) = path.rsplit_once('/') else {
        return false;
    };
    let dir = if dir.is_empty() { "/" } else { dir };
    let parent: Vec<&str> = crate::path::segments(dir).collect();
    let begins = |name: &&str| {
        let name = name.trim_end_matches('*');
        name.len() > last.len() && name.starts_with(last)
    };
    let parent_ends_with = |start: &[&str]| {
        parent.len() >= start.len()
            && start
                .iter()
                .rev()
                .zip(parent.iter().rev())
                .all(|(n, s)| same_or_prefix(n, s, false))
    };
    PROTECTED_DIRS.iter().chain(PROTECTED_FILES).any(begins)
        || PROTECTED_SEQUENCES.iter().any(|seq| {
            seq.split_last()
                .is_some_and(|(name, start)| begins(name) && parent_ends_with(start))
        })
        || PROTECTED_ABSOLUTE.iter().any(|seq| {
            seq.split_last().is_some_and(|(name, start)| {
                parent.len() == start.len()
                    && parent
                        .iter()
                        .zip(start)
                        .all(|(s, n)| same_or_prefix(n, s, false))
                    && begins(name)
            })
        })
        || (home == Some(dir) && PROTECTED_IN_HOME.iter().any(begins))
        || (cwd.is_some_and(|c| crate::path::contains(dir, c))
            && PROTECTED_AT_ROOT.iter().any(begins))
}

/// Whether `path` (lowercased) is one of [`PROTECTED_AT_ROOT`] directly in `cwd` or a
/// parent of it.
fn at_root(path: &str, cwd: Option<&str>) -> bool {
    let (Some(cwd), Some((dir, name))) = (cwd, path.rsplit_once('/')) else {
        return false;
    };
    let dir = if dir.is_empty() { "/" } else { dir };
    let short = name.as_bytes().contains(&b'~');
    PROTECTED_AT_ROOT.iter().any(|f| same(f, name, short)) && crate::path::contains(dir, cwd)
}

/// Whether a path rule's specifier (`~/.local/bin/**`, `.git/hooks/*`, `//etc/cron.d/x`)
/// names a protected location in its literal start (the segments before the first
/// wildcard), for refusing to remember a grant that could never apply there anyway.
/// Specifiers relative to the working directory are read as under any directory.
///
/// ```
/// use toolgate::policy::pattern_names_protected;
/// assert!(pattern_names_protected("~/.local/bin/**"));
/// assert!(pattern_names_protected(".git/hooks/*"));
/// assert!(pattern_names_protected("//etc/cron.d/**"));
/// assert!(pattern_names_protected("~/.BASHRC"));
/// assert!(pattern_names_protected("./config"));
/// assert!(!pattern_names_protected("~/**"));
/// assert!(!pattern_names_protected("src/**"));
/// ```
pub fn pattern_names_protected(spec: &str) -> bool {
    const HOME: &str = "/home/toolgate-user";
    let spec = spec.trim();
    let absolute = if let Some(rest) = spec.strip_prefix("//") {
        format!("/{rest}")
    } else if spec == "~" || spec.starts_with("~/") {
        format!("{HOME}{}", spec.get(1..).unwrap_or(""))
    } else {
        format!(
            "/project/{}",
            spec.trim_start_matches("./").trim_start_matches('/')
        )
    };
    let literal: Vec<&str> = absolute
        .split('/')
        .take_while(|s| !s.contains(['*', '?', '[', '{']))
        .collect();
    let start = format!("{}/x", literal.join("/"));
    let project = Some("/project");
    is_protected_from(&literal.join("/"), Some(HOME), project)
        || is_protected_from(&start, Some(HOME), project)
}

/// Whether the path segment `seg` (lowercased) is `name`, or an 8.3 short name of it;
/// `short_names` is false when no segment of the path holds a `~`, so none is a short name
/// (checked once per path rather than once per comparison).
fn same(name: &str, seg: &str, short_names: bool) -> bool {
    if short_names {
        crate::path::names(name, seg)
    } else {
        seg == name
    }
}

/// Like [`same`], where a `name` ending in `*` is a prefix.
fn same_or_prefix(name: &str, seg: &str, short_names: bool) -> bool {
    match name.as_bytes().split_last() {
        Some((b'*', prefix)) => {
            seg.as_bytes().starts_with(prefix)
                || std::str::from_utf8(prefix).is_ok_and(|p| same(p, seg, short_names))
        }
        _ => same(name, seg, short_names),
    }
}

const DIRS_START: FirstBytes = FirstBytes::of(PROTECTED_DIRS);
const FILES_START: FirstBytes = FirstBytes::of(PROTECTED_FILES);
const SEQUENCES_START: FirstBytes = FirstBytes::of_firsts(PROTECTED_SEQUENCES);
const ABSOLUTE_START: FirstBytes = FirstBytes::of_firsts(PROTECTED_ABSOLUTE);

/// The protected tables keyed for a path without short names, where a segment names an
/// entry only by being it: the names of [`PROTECTED_DIRS`] and [`PROTECTED_FILES`] as sets,
/// and the sequences of [`PROTECTED_SEQUENCES`] by their first name (those whose first name
/// is a prefix, `python3*`, apart).
struct Tables {
    dirs: std::collections::HashSet<&'static str>,
    files: std::collections::HashSet<&'static str>,
    sequences: std::collections::HashMap<&'static str, Vec<&'static [&'static str]>>,
    prefixed_sequences: Vec<&'static [&'static str]>,
}

fn tables() -> &'static Tables {
    static TABLES: std::sync::OnceLock<Tables> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        let mut sequences: std::collections::HashMap<_, Vec<&'static [&'static str]>> =
            std::collections::HashMap::new();
        let mut prefixed_sequences = Vec::new();
        for seq in PROTECTED_SEQUENCES {
            match seq.first() {
                Some(first) if first.ends_with('*') => prefixed_sequences.push(*seq),
                Some(first) => sequences.entry(*first).or_default().push(*seq),
                None => {}
            }
        }
        Tables {
            dirs: PROTECTED_DIRS.iter().copied().collect(),
            files: PROTECTED_FILES.iter().copied().collect(),
            sequences,
            prefixed_sequences,
        }
    })
}

fn protected_form(path: &str, home: Option<&str>) -> bool {
    let segs: Vec<&str> = crate::path::segments(path).collect();
    let short = segs.iter().any(|s| s.as_bytes().contains(&b'~'));
    // With no short name in the path, a segment can only equal a name it starts like.
    let may = |table: &FirstBytes, seg: &str| short || table.may_start(seg);
    let t = tables();
    let is_dir = |s: &str| {
        if short {
            PROTECTED_DIRS.iter().any(|d| same(d, s, short))
        } else {
            t.dirs.contains(s)
        }
    };
    if segs.iter().any(|s| may(&DIRS_START, s) && is_dir(s)) {
        return true;
    }
    let is_file = |s: &str| {
        if short {
            PROTECTED_FILES.iter().any(|f| same(f, s, short))
        } else {
            t.files.contains(s)
        }
    };
    if segs
        .last()
        .is_some_and(|s| may(&FILES_START, s) && is_file(s))
    {
        return true;
    }
    let seq_at = |seq: &[&str], at: &[&str]| {
        seq.len() <= at.len() && seq.iter().zip(at).all(|(n, s)| same_or_prefix(n, s, short))
    };
    let sequence_at = |rest: &[&str]| {
        let Some(first) = rest.first().filter(|s| may(&SEQUENCES_START, s)) else {
            return false;
        };
        if short {
            return PROTECTED_SEQUENCES.iter().any(|seq| seq_at(seq, rest));
        }
        let named = t.sequences.get(first).into_iter().flatten();
        named
            .chain(&t.prefixed_sequences)
            .any(|seq| seq_at(seq, rest))
    };
    if (0..segs.len()).any(|i| segs.get(i..).is_some_and(sequence_at)) {
        return true;
    }
    let absolute_may = segs.first().is_some_and(|s| may(&ABSOLUTE_START, s));
    if absolute_may && PROTECTED_ABSOLUTE.iter().any(|seq| seq_at(seq, &segs)) {
        return true;
    }
    let in_home = home.and_then(|h| crate::path::relative_to(h, path));
    in_home.is_some_and(|rel| {
        let first = crate::path::segments(rel).next().unwrap_or("");
        PROTECTED_IN_HOME.iter().any(|d| same(d, first, true))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reach_below_and_beyond_a_name() {
        let home = Some("/home/ada");
        let cwd = Some("/home/ada/p");
        let reach = |p: &str, r: Reach| is_protected_reach(p, home, cwd, r);
        // A tree moved or linked there puts its files below: anchored places only.
        for p in [
            "/home/ada/.config",
            "/home/ada/.local",
            "/home/ada/.local/state",
            "/home/ada",
            "/home",
            "/",
            "/etc",
            "/usr/lib",
            "/p/LIBRARY",
        ] {
            assert!(reach(p, Reach::Tree), "{p}");
            assert!(!reach(p, Reach::Name), "{p}");
        }
        for p in [
            "/home/ada/p/build",
            "/home/ada/p",
            "/home/ada/p/src/config",
            "/tmp/x",
            "/home/ada/.bash",
        ] {
            assert!(!reach(p, Reach::Tree), "{p}");
        }
        // A name composed from it: a protected name may begin with its last segment.
        for p in [
            "/home/ada/.bash",
            "/home/ada/.local/b",
            "/home/ada/p/.gi",
            "/home/ada/p/.ENV",
            "/etc/cro",
            "/home/ada/b",
            "/home/ada/p/con",
            "/home/ada/.config/autos",
            "/home/ada/p/h",
        ] {
            assert!(reach(p, Reach::Prefix), "{p}");
            assert!(!reach(p, Reach::Tree), "{p}");
        }
        for p in [
            "/home/ada/p/dist/app",
            "/home/ada/p/src/lib",
            "/home/ada/p/src/con",
            "/home/ada/p/out.gz",
            "/tmp/q",
            "/etc/x",
        ] {
            assert!(!reach(p, Reach::Prefix), "{p}");
        }
    }

    #[test]
    fn names_are_lowercase() {
        let names = PROTECTED_DIRS
            .iter()
            .chain(PROTECTED_FILES)
            .chain(PROTECTED_AT_ROOT)
            .chain(PROTECTED_IN_HOME)
            .chain(PROTECTED_SEQUENCES.iter().flat_map(|s| s.iter()))
            .chain(PROTECTED_ABSOLUTE.iter().flat_map(|s| s.iter()));
        for name in names {
            assert_eq!(*name, name.to_lowercase(), "compared after lowercasing");
        }
    }

    #[test]
    fn first_bytes_hold_every_name_start() {
        for name in PROTECTED_DIRS {
            assert!(DIRS_START.may_start(name), "{name}");
        }
        for name in PROTECTED_FILES {
            assert!(FILES_START.may_start(name), "{name}");
        }
        for seq in PROTECTED_SEQUENCES {
            assert!(SEQUENCES_START.may_start(seq.first().copied().unwrap_or("")));
        }
        for seq in PROTECTED_ABSOLUTE {
            assert!(ABSOLUTE_START.may_start(seq.first().copied().unwrap_or("")));
        }
        assert!(!DIRS_START.may_start("lib"));
        assert!(FirstBytes::of(&["é"]).may_start("é"));
        assert!(FirstBytes::of(&["cron*"]).may_start("cron.d"));
        assert!(FirstBytes::of(&["*"]).may_start("x"));
    }

    #[test]
    fn persistence_locations_are_protected() {
        for p in [
            "/home/ada/.config/autostart/x.desktop",
            "/etc/crontab",
            "/etc/cron.daily/job",
            "/var/spool/cron/crontabs/ada",
            "/Users/ada/Library/LaunchAgents/com.x.plist",
            "/Library/LaunchAgents/com.x.plist",
            "/Library/LaunchDaemons/com.x.plist",
            "/home/ada/.config/systemd/user/x.service",
            "/etc/systemd/system/x.service",
            "/home/ada/.local/bin/git",
            "/home/ada/bin/git",
            "/home/ada/.profile",
            "/home/ada/.bash_profile",
            "/home/ada/.zprofile",
            "/home/ada/.config/fish/config.fish",
        ] {
            assert!(is_protected(p), "{p}");
        }
        assert!(is_protected_in("/srv/ada/bin/x", Some("/srv/ada")));
        assert!(!is_protected_in("/srv/ada/proj/bin/x", Some("/srv/ada")));
        assert!(!is_protected("/home/ada/proj/bin/x"));
        assert!(!is_protected("/p/etc/cron.d/x"));
    }

    #[test]
    fn toolgates_own_state_and_managed_policy_are_protected() {
        for p in [
            "/home/ada/.local/state/toolgate/trust.json",
            "/home/ada/.local/state/toolgate/trust.json.lock",
            "/home/ada/.local/state/toolgate/audit.jsonl",
            "/home/ada/.local/state/toolgate",
            "/home/ada/.LOCAL/State/TOOLGATE/trust.json",
            "/etc/toolgate/policy.json",
            "/etc/toolgate",
            "/ETC/Toolgate/policy.json",
        ] {
            assert!(is_protected(p), "{p}");
        }
        assert!(!is_protected("/home/ada/.local/state/other/x"));
        assert!(!is_protected("/p/etc/toolgate/policy.json"));
        assert!(pattern_names_protected("~/.local/state/toolgate/**"));
        assert!(pattern_names_protected("//etc/toolgate/policy.json"));
    }

    #[test]
    fn widest_reading() {
        for p in [
            "/p/.GIT/config",
            "/p/.git./config",
            "/p/.git /config",
            "/p/.git::$INDEX_ALLOCATION/config",
            "/p/.git\\hooks\\pre-commit",
            "/p/.ENVRC",
            "/p/.envrc::$DATA",
            "/home/ada/.BASHRC.",
            "/p/CLAUDE~1/settings.json",
            "/home/ada/GITCON~1",
        ] {
            assert!(is_protected(p), "{p}");
        }
        assert!(!is_protected("/p/src/GIT~1.RS"));
    }

    #[test]
    fn files_that_make_a_bare_repository_are_protected_at_the_root() {
        let cwd = Some("/home/ada/proj");
        for p in [
            "/home/ada/proj/config",
            "/home/ada/proj/HEAD",
            "/home/ada/proj/head",
            "/home/ada/proj/commondir",
            "/home/ada/config",
            "/home/ada/proj/CONFIG::$DATA",
        ] {
            assert!(is_protected_from(p, None, cwd), "{p}");
        }
        for p in [
            "/home/ada/proj/src/config",
            "/home/ada/proj/config/app.toml",
            "/home/ada/proj/HEAD.md",
            "/home/ada/other/config",
        ] {
            assert!(!is_protected_from(p, None, cwd), "{p}");
        }
        assert!(!is_protected("/home/ada/proj/config"));
    }

    #[test]
    fn head_is_protected_at_any_depth() {
        // `sub/HEAD` with `sub/objects/` and `sub/refs/` is a bare repository for a
        // `git status` run in `sub`, and then `sub/config` is its configuration.
        for p in [
            "/home/ada/proj/sub/HEAD",
            "/home/ada/proj/a/b/c/head",
            "/home/ada/proj/sub/Head",
            "/home/ada/proj/sub/HEAD.",
            "/home/ada/proj/sub/HEAD::$DATA",
            "/home/ada/proj/sub\\HEAD",
        ] {
            assert!(is_protected(p), "{p}");
            assert!(is_protected_from(p, None, Some("/home/ada/proj")), "{p}");
        }
        for p in ["/home/ada/proj/sub/HEAD.md", "/home/ada/proj/sub/heads/x"] {
            assert!(!is_protected(p), "{p}");
        }
        assert!(pattern_names_protected("sub/HEAD"));
    }

    #[test]
    fn windows_and_macos_spellings_of_start_up_files_and_path_are_protected() {
        for p in [
            "/p/_vimrc",
            "/home/ada/_gvimrc",
            "/p/_EXRC",
            "/p/vimfiles/plugin/x.vim",
            "/p/.venv/pip.ini",
            "/Users/ada/AppData/Roaming/pip/pip.ini",
            "/p/.venv/Scripts/Activate.ps1",
            "/p/venv/Scripts/pip.exe",
            "/home/ada/.config/powershell/Microsoft.PowerShell_profile.ps1",
            "/Users/ada/Documents/PowerShell/Microsoft.PowerShell_profile.ps1",
            "/Users/ada/Documents/WindowsPowerShell/profile.ps1",
            "/Users/ada/AppData/Roaming/Microsoft/Windows/Start Menu/Programs/Startup/x.bat",
            "/Users/ada/AppData/Roaming/npm/git.cmd",
            "/Users/ada/AppData/Roaming/Python/Python311/Scripts/pip.exe",
            "/Users/ada/Library/Python/3.11/bin/pip",
            "/Users/ada/AppData/Local/nvim/init.lua",
            "/Users/ada/APPDAT~1/Roaming/npm/git.cmd",
            "/p/.venv\\Scripts\\activate.bat",
        ] {
            assert!(is_protected(p), "{p}");
        }
        for p in [
            "/p/src/vimrc.rs",
            "/p/scripts/build.sh",
            "/p/Documents/notes.md",
            "/Users/ada/AppData/Roaming/Code/x.json",
            "/Users/ada/AppData/Roaming/Python/Python311/site.txt",
            "/Users/ada/Library/Python/notes.txt",
        ] {
            assert!(!is_protected(p), "{p}");
        }
        assert!(pattern_names_protected("~/AppData/Roaming/npm/**"));
    }

    #[test]
    fn programs_on_path_and_the_toolchains_they_run_are_protected() {
        for p in [
            "/home/ada/.rustup/toolchains/stable-x86_64-unknown-linux-gnu/bin/cargo",
            "/home/ada/.rustup/settings.toml",
            "/Users/ada/.RUSTUP\\toolchains\\stable\\bin\\rustc.exe",
            "/home/ada/.deno/bin/deployctl",
            "/home/ada/.npm-global/bin/tsc",
            "/home/ada/.npm-global/lib/node_modules/typescript/bin/tsc",
            "/home/ada/.local/share/pnpm/pnpm",
            "/Users/ada/Library/pnpm/tsc",
            "/Users/ada/AppData/Local/pnpm/tsc.cmd",
            "/home/ada/.yarn/bin/tsc",
            "/Users/ada/AppData/Local/Yarn/bin/tsc.cmd",
            "/home/ada/.nix-profile/bin/git",
            "/home/ada/.nix-profile",
            "/home/ada/.sdkman/candidates/java/current/bin/java",
            "/home/ada/.sdkman/bin/sdkman-init.sh",
            "/home/ada/.local/share/mise/shims/node",
            "/home/ada/.local/share/mise/installs/node/20/bin/node",
            "/Users/ada/AppData/Local/mise/shims/node.exe",
            "/home/ada/.rye/shims/python",
            "/home/ada/.pixi/bin/python",
            "/home/ada/.dotnet/tools/dotnet-ef",
            "/home/ada/.ghcup/bin/ghc",
            "/home/ada/.elan/bin/lake",
            "/home/ada/.juliaup/bin/julia",
            "/home/ada/.foundry/bin/forge",
            "/home/ada/.local/share/fnm/node-versions/v20/installation/bin/node",
            "/home/ada/.fnm/node-versions/v20/installation/bin/node",
            "/Users/ada/Library/Application Support/fnm/aliases/default/bin/node",
            "/Users/ada/AppData/Roaming/fnm/aliases/default/node.exe",
            "/home/ada/.local/share/uv/tools/ruff/bin/ruff",
            "/home/ada/.local/share/uv/python/cpython-3.12/bin/python3",
            "/Users/ada/AppData/Roaming/uv/data/tools/ruff/Scripts/ruff.exe",
            "/home/ada/.npm/_npx/0123abcd/node_modules/.bin/cowsay",
        ] {
            assert!(is_protected(p), "{p}");
        }
        for p in [
            "/home/ada/.npm/_cacache/index-v5/x",
            "/home/ada/.local/share/uv/cache-notes.txt",
            "/home/ada/.local/share/other/bin/x",
            "/home/ada/proj/.yarn/releases/notes.md",
            "/home/ada/proj/src/rustup.rs",
            "/home/ada/proj/deno/bin.ts",
        ] {
            assert!(!is_protected(p), "{p}");
        }
        assert!(pattern_names_protected("~/.rustup/toolchains/**"));
        assert!(pattern_names_protected("~/.local/share/pnpm/**"));
    }

    #[test]
    fn toolchain_pins_are_protected_at_any_depth() {
        for p in [
            "/p/rust-toolchain.toml",
            "/p/sub/rust-toolchain",
            "/p/.tool-versions",
            "/p/mise.toml",
            "/p/.mise.toml",
            "/p/mise.local.toml",
            "/p/.config/mise/config.toml",
            "/p/.config/mise.toml",
            "/p/.mise/config.toml",
        ] {
            assert!(is_protected(p), "{p}");
        }
        assert!(!is_protected("/p/toolchain.toml"));
    }
}
