//! `git config KEY` prints a value from every configuration file git reads: the
//! repository's `.git/config`, and outside the project `~/.gitconfig`,
//! `~/.config/git/config`, `/etc/gitconfig` and any file an `include.path` names. Values
//! may be secrets (`sendemail.smtpPass`, an `http.<url>.extraHeader` token, a token in a
//! `remote.<name>.url`), so a lookup is read-only only for the keys below, whose values are
//! known not to be secrets. Section and variable names compare case-insensitively, as git
//! compares them (`User.Name` is `user.name`); a subsection (`branch.<name>.remote`) is any.

/// Keys whose values are not secrets but which a command may not set without a person
/// naming it (programs git runs, settings that change how it reads the repository):
/// `section.variable`, or `section.*.variable` for any subsection. Lowercase. The keys a
/// lookup may print are these and [`SETTABLE_KEYS`] ([`is_plain`]).
const READ_ONLY_KEYS: &[&str] = &[
    "core.editor",
    "core.pager",
    "core.filemode",
    "core.ignorecase",
    "core.symlinks",
    "core.bare",
    "core.repositoryformatversion",
    "core.logallrefupdates",
    "core.precomposeunicode",
    "commit.gpgsign",
    "tag.gpgsign",
    "gpg.format",
];

/// Keys a command may set (`git config user.name x`) without a person naming the command
/// exactly: their values are data git never runs, nor do they turn on a step that runs a
/// program (`commit.gpgSign` runs gpg, `core.pager` and `core.editor` are programs,
/// `core.fsmonitor` and `core.hooksPath` run code on the next `git status`), nor change
/// how git reads the repository (`core.bare`, `core.worktree`). Lowercase, as
/// [`READ_ONLY_KEYS`]; a lookup may print them too.
const SETTABLE_KEYS: &[&str] = &[
    "user.name",
    "user.email",
    "init.defaultbranch",
    "core.autocrlf",
    "core.eol",
    "core.quotepath",
    "core.whitespace",
    "core.safecrlf",
    "core.abbrev",
    "pull.rebase",
    "pull.ff",
    "push.default",
    "push.autosetupremote",
    "merge.ff",
    "merge.conflictstyle",
    "rebase.autosquash",
    "rebase.autostash",
    "fetch.prune",
    "color.ui",
    "diff.algorithm",
    "log.date",
    "branch.*.remote",
    "branch.*.merge",
    "branch.*.rebase",
];

/// Whether a lookup of the key pattern `pattern` prints a value that is not a secret.
fn is_plain(pattern: &str) -> bool {
    SETTABLE_KEYS.contains(&pattern) || READ_ONLY_KEYS.contains(&pattern)
}

/// Options of `git config` that change a key (`--add`, `--unset`, ...), a section
/// (`--rename-section`), or run the editor (`--edit`), without their dashes.
const KEY_SETTERS: &[&str] = &["add", "replace-all", "unset", "unset-all"];
const SECTION_CHANGERS: &[&str] = &["rename-section", "remove-section"];
const EDITORS: &[&str] = &["edit"];

/// What a `git config` command does to the configuration.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Change<'a> {
    /// Nothing: it looks a key up (or lists, which is judged as a lookup).
    None,
    /// It sets or unsets this key.
    Key(&'a str),
    /// It changes what toolgate does not judge (a whole section), or names no key: why.
    Unjudged(String),
    /// It runs a program (the editor): why.
    Runs(String),
}

/// What a `git config` command does, from its options as written (`--add`, `-e`,
/// `--file=x`; values may be among them, which only makes the reading stricter) and its
/// operands (`user.name x`, `set user.name x`). A long option is any prefix of the name, as
/// git takes unique prefixes.
///
/// ```text
/// change([], ["user.name", "x"])        -> Key("user.name")
/// change([], ["set", "core.pager", "x"]) -> Key("core.pager")
/// change(["--unset"], ["a.b"])          -> Key("a.b")
/// change(["-e"], [])                    -> Runs
/// change([], ["user.name"])             -> None
/// ```
pub(crate) fn change<'a>(options: &[&str], operands: &[&'a str]) -> Change<'a> {
    let named = |list: &[&str]| {
        options.iter().any(|o| match o.strip_prefix("--") {
            Some(long) => {
                let name = long.split('=').next().unwrap_or_default();
                name.len() > 1 && list.iter().any(|l| l.starts_with(name))
            }
            None => list == EDITORS && o.starts_with('-') && o.contains('e'),
        })
    };
    let verb = operands.first().copied().filter(|w| !w.contains('.'));
    if named(EDITORS) || verb == Some("edit") {
        return Change::Runs("`git config --edit` runs the editor".to_owned());
    }
    if named(SECTION_CHANGERS) || verb.is_some_and(|v| SECTION_CHANGERS.contains(&v)) {
        return Change::Unjudged(
            "`git config` renames or removes a section, whose keys toolgate does not judge"
                .to_owned(),
        );
    }
    let key = match verb {
        Some("set" | "unset") => operands.get(1).copied(),
        Some(_) => return Change::None,
        None if named(KEY_SETTERS) || operands.len() > 1 => operands.first().copied(),
        None => return Change::None,
    };
    match key {
        Some(k) => Change::Key(k),
        None => Change::Unjudged("`git config` sets no key it names".to_owned()),
    }
}

/// Whether a `git config` command (options as written, and operands) changes the
/// configuration ([`change`]).
pub(crate) fn sets(options: &[&str], operands: &[&str]) -> bool {
    change(options, operands) != Change::None
}

/// Checks a key set (`git config user.name x`): its value must be data git never runs
/// ([`SETTABLE_KEYS`]).
///
/// ```text
/// check_settable("User.Name")  -> Ok
/// check_settable("core.pager") -> Err
/// ```
pub(crate) fn check_settable(key: &str) -> Result<(), String> {
    if SETTABLE_KEYS.contains(&pattern_of(key).as_str()) {
        Ok(())
    } else {
        Err(format!(
            "`git config` sets `{key}`, which is not known to be a key whose value git never runs (`core.pager`, `core.fsmonitor` and `*.command` are programs)"
        ))
    }
}

/// The configuration files git reads, besides those an `include.path` names: the
/// repository's, the home directory's (both places) and the system's.
pub(crate) const FILES: &[&str] = &[
    ".git/config",
    "~/.gitconfig",
    "~/.config/git/config",
    "/etc/gitconfig",
];

/// `section.variable`, or `section.*.variable` for a key with a subsection, lowercase.
fn pattern_of(key: &str) -> String {
    let (section, rest) = key.split_once('.').unwrap_or((key, ""));
    match rest.rsplit_once('.') {
        Some((_, var)) => format!("{section}.*.{var}"),
        None => format!("{section}.{rest}"),
    }
    .to_lowercase()
}

/// Checks a key looked up (`user.name`, `branch.main.remote`).
///
/// ```text
/// check_key("User.Email")            -> Ok
/// check_key("branch.feat/x.remote")  -> Ok
/// check_key("remote.origin.url")     -> Err
/// ```
pub(crate) fn check_key(key: &str) -> Result<(), String> {
    if is_plain(&pattern_of(key)) {
        Ok(())
    } else {
        Err(format!(
            "`git config` prints the value of `{key}` from every configuration file, the home directory's `~/.gitconfig` and the files it includes among them, and `{key}` is not known to hold no secret"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_that_hold_no_secret_pass_in_any_case() {
        for k in [
            "user.name",
            "User.Name",
            "USER.EMAIL",
            "init.defaultBranch",
            "pull.rebase",
            "branch.main.remote",
            "branch.feat/x.y.merge",
            "Branch.Main.Merge",
        ] {
            assert!(check_key(k).is_ok(), "{k}");
        }
    }

    #[test]
    fn other_keys_are_refused() {
        for k in [
            "sendemail.smtpPass",
            "http.https://github.com/.extraheader",
            "http.extraHeader",
            "remote.origin.url",
            "credential.helper",
            "github.token",
            "user.password",
            "user.name.x",
            "user.main.name",
            "branch.remote",
            "url.https://x@github.com/.insteadof",
            "user",
            "",
        ] {
            assert!(check_key(k).is_err(), "{k}");
        }
    }

    #[test]
    fn what_a_command_changes() {
        assert_eq!(change(&[], &["user.name", "x"]), Change::Key("user.name"));
        assert_eq!(
            change(&[], &["set", "core.pager", "x"]),
            Change::Key("core.pager")
        );
        assert_eq!(change(&["--unset"], &["a.b"]), Change::Key("a.b"));
        assert_eq!(change(&["--unset-a"], &["a.b"]), Change::Key("a.b"));
        assert_eq!(change(&["--add"], &["a.b", "c"]), Change::Key("a.b"));
        assert!(matches!(change(&["-e"], &[]), Change::Runs(_)));
        assert!(matches!(
            change(&["--global", "--ed"], &[]),
            Change::Runs(_)
        ));
        assert!(matches!(change(&[], &["edit"]), Change::Runs(_)));
        assert!(matches!(
            change(&["--rename-section"], &["a", "core"]),
            Change::Unjudged(_)
        ));
        assert!(matches!(change(&[], &["set"]), Change::Unjudged(_)));
        assert_eq!(change(&[], &["user.name"]), Change::None);
        assert_eq!(change(&["--get"], &["user.name"]), Change::None);
        assert_eq!(change(&[], &["get", "user.name"]), Change::None);
        assert_eq!(change(&["--list"], &[]), Change::None);
        assert!(sets(&[], &["a.b", "c"]));
        assert!(!sets(&["--file=x"], &["a.b"]));
    }

    #[test]
    fn keys_set_must_be_data_git_never_runs() {
        for k in [
            "user.name",
            "User.Email",
            "branch.feat/x.remote",
            "pull.rebase",
        ] {
            assert!(check_settable(k).is_ok(), "{k}");
        }
        for k in [
            "core.pager",
            "core.editor",
            "core.fsmonitor",
            "core.hooksPath",
            "core.sshCommand",
            "diff.x.textconv",
            "alias.x",
            "commit.gpgSign",
            "gpg.program",
            "include.path",
            "",
        ] {
            assert!(check_settable(k).is_err(), "{k}");
        }
        for k in SETTABLE_KEYS {
            assert!(is_plain(k) && !READ_ONLY_KEYS.contains(k), "{k}");
        }
    }
}
