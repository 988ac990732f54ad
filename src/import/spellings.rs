//! The other spellings toolgate's deny and ask rules match, which an agent's literal prefix
//! rules (Codex `prefix_rule`, Gemini CLI `commandPrefix`) do not.
//!
//! toolgate matches a deny or ask rule against a command's canonical form as well
//! ([`canonical_words`]): the program without its directory and in lower case, and for the
//! programs of [`CANONICAL_COMMANDS`] (and npm) flags split, sorted and in their short form,
//! git's global options dropped, npm's abbreviations expanded. `Bash(git push --force *)`
//! therefore also denies `git -C . push -f`, which the exported prefix `git push --force`
//! does not, and an exported allow `git` would run it unprompted.

use crate::shell::{canonical_words, CANONICAL_COMMANDS};

/// Programs whose options before the subcommand toolgate reads ([`canonical_words`] drops
/// git's global options and reads npm's options, aliases and abbreviations), besides the
/// programs of [`CANONICAL_COMMANDS`].
const RESPELT_SUBCOMMANDS: &[&str] = &["npm"];

/// The program of `words` as toolgate folds it for deny and ask rules (`/usr/bin/CURL` is
/// `curl`).
pub(super) fn folded_program(program: &str) -> String {
    canonical_words(&[program.to_owned()])
        .into_iter()
        .next()
        .unwrap_or_else(|| program.to_owned())
}

/// `words` with the program folded ([`folded_program`]), when that changes them: the
/// spelling a deny or ask also needs in the target (`/usr/bin/curl` also as `curl`).
pub(super) fn with_folded_program(words: &str) -> Option<String> {
    let (program, rest) = words.split_once(' ').unwrap_or((words, ""));
    let folded = folded_program(program);
    (folded != program).then(|| format!("{folded} {rest}").trim_end().to_owned())
}

/// Whether toolgate matches a deny or ask rule starting with `words` against commands that do
/// not start with those words once the program is folded: the rule names more than the
/// program of a command whose flags or options before the subcommand toolgate respells.
pub(super) fn respelt(words: &str) -> bool {
    let mut it = words.split(' ');
    let program = folded_program(it.next().unwrap_or(""));
    let more = it.any(|w| !w.is_empty());
    more && (CANONICAL_COMMANDS
        .iter()
        .any(|c| c.split(' ').next() == Some(program.as_str()))
        || RESPELT_SUBCOMMANDS.contains(&program.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn respelt_rules_name_more_than_a_respelt_program() {
        for words in [
            "rm -rf",
            "git push --force",
            "git push",
            "npm publish",
            "curl -k",
            "/usr/bin/rm -r",
        ] {
            assert!(respelt(words), "{words}");
        }
        for words in ["rm", "git", "docker run", "make install", "ls -la"] {
            assert!(!respelt(words), "{words}");
        }
    }

    #[test]
    fn programs_fold_as_deny_rules_match_them() {
        assert_eq!(
            with_folded_program("/usr/bin/curl").as_deref(),
            Some("curl")
        );
        assert_eq!(
            with_folded_program("GIT reset --hard").as_deref(),
            Some("git reset --hard")
        );
        assert_eq!(with_folded_program("git reset"), None);
    }
}
