//! `git config KEY` prints a value from every configuration file git reads: the
//! repository's `.git/config`, and outside the project `~/.gitconfig`,
//! `~/.config/git/config`, `/etc/gitconfig` and any file an `include.path` names. Values
//! may be secrets (`sendemail.smtpPass`, an `http.<url>.extraHeader` token, a token in a
//! `remote.<name>.url`), so a lookup is read-only only for the keys below, whose values are
//! known not to be secrets. Section and variable names compare case-insensitively, as git
//! compares them (`User.Name` is `user.name`); a subsection (`branch.<name>.remote`) is any.

/// Keys whose values are not secrets: `section.variable`, or `section.*.variable` for any
/// subsection. Lowercase.
const PLAIN_KEYS: &[&str] = &[
    "user.name",
    "user.email",
    "init.defaultbranch",
    "core.editor",
    "core.pager",
    "core.autocrlf",
    "core.eol",
    "core.filemode",
    "core.ignorecase",
    "core.symlinks",
    "core.bare",
    "core.quotepath",
    "core.whitespace",
    "core.safecrlf",
    "core.abbrev",
    "core.repositoryformatversion",
    "core.logallrefupdates",
    "core.precomposeunicode",
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
    "commit.gpgsign",
    "tag.gpgsign",
    "gpg.format",
    "branch.*.remote",
    "branch.*.merge",
    "branch.*.rebase",
];

/// Checks a key looked up (`user.name`, `branch.main.remote`).
///
/// ```text
/// check_key("User.Email")            -> Ok
/// check_key("branch.feat/x.remote")  -> Ok
/// check_key("remote.origin.url")     -> Err
/// ```
pub(crate) fn check_key(key: &str) -> Result<(), String> {
    let (section, rest) = key.split_once('.').unwrap_or((key, ""));
    let (subsection, variable) = match rest.rsplit_once('.') {
        Some((sub, var)) => (Some(sub), var),
        None => (None, rest),
    };
    let wanted = match subsection {
        Some(_) => format!("{section}.*.{variable}"),
        None => format!("{section}.{variable}"),
    }
    .to_lowercase();
    if PLAIN_KEYS.contains(&wanted.as_str()) {
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
}
