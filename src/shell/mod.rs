//! Shell command analysis: decides on the commands the shell would actually run.
//!
//! The policy evaluator hands a command line and a [`CommandRules`] view of itself to
//! [`judge`]; the analysis splits the line into the simple commands the shell would run and
//! judges each one against the rules, returning one [`Part`] per command (and per write
//! target). Anything it cannot read is [`Outcome::Unanalysable`], which never allows.
//!
//! This first version reads only a single plain word sequence (no quotes, operators,
//! expansions or redirections); everything else is unanalysable.

use crate::decision::{Reason, RuleList};

/// Command lines longer than this (in bytes) are not analysed, and ask.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// What the shell analysis needs from the policy: rule lookups on command words and path
/// checks. The policy evaluator implements it; tests may implement it with a few literal
/// rules.
pub trait CommandRules {
    /// The first rule of `list` (across all layers) from the shell family (`Bash(...)`,
    /// `shell(...)`) that matches the command `words` (argv after quote removal), with why.
    fn match_command(&self, list: RuleList, words: &[String]) -> Option<Reason>;

    /// How a write to `path` (a redirection target, a `tee` file) is judged: Edit/Write
    /// rules, protected paths and the working directory, as for a file-writing tool.
    fn write_outcome(&self, path: &str) -> Outcome;

    /// How a read of `path` by a read-only command is judged: Read deny and ask rules, and
    /// whether the path is inside the working directory or the additional directories.
    fn read_outcome(&self, path: &str) -> Outcome;

    /// Whether `path` is critical for destructive commands: `/`, a top-level directory,
    /// the home directory, the working directory or one of its parents.
    fn is_critical(&self, path: &str) -> bool;
}

/// How one part of a command line was judged, before the mode is applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A deny rule matched.
    Denied(Reason),
    /// An ask rule matched (explicit asks still ask in bypass mode).
    AskRule(Reason),
    /// A destructive command on a critical path: never allowed by a rule or mode; asks, and
    /// is denied in `dontAsk`.
    Critical {
        /// The critical path.
        path: String,
    },
    /// The part touches a protected path: allowed only in bypass mode.
    Protected {
        /// The protected path.
        path: String,
    },
    /// An allow rule matched.
    Allowed(Reason),
    /// A built-in read-only command whose file arguments all lie inside the working
    /// directory or the additional directories.
    ReadOnly,
    /// No rule decided; the shell tool's default applies (the command is not read-only).
    NoRule,
    /// The part could not be analysed (parse error, unsupported construct, size limit,
    /// unknown runner with no exact allow rule): never allowed.
    Unanalysable {
        /// What could not be analysed, for people.
        why: String,
    },
}

/// One judged part of a command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// The part as written, e.g. `git status` or `> ~/.bashrc`.
    pub text: String,
    /// How it was judged.
    pub outcome: Outcome,
}

/// Splits `line` into the commands the shell would run and judges each against `rules`.
///
/// Never panics and never returns an empty list: a line with nothing to run is one
/// unanalysable part.
pub fn judge(line: &str, rules: &dyn CommandRules) -> Vec<Part> {
    let text = line.trim();
    if line.len() > MAX_LINE_BYTES {
        return vec![unanalysable(
            text,
            format!("command is longer than {MAX_LINE_BYTES} bytes"),
        )];
    }
    let Some(words) = plain_words(text) else {
        return vec![unanalysable(
            text,
            "command uses shell syntax this version cannot analyse".to_owned(),
        )];
    };
    let outcome = if let Some(r) = rules.match_command(RuleList::Deny, &words) {
        Outcome::Denied(r)
    } else if let Some(r) = rules.match_command(RuleList::Ask, &words) {
        Outcome::AskRule(r)
    } else if let Some(r) = rules.match_command(RuleList::Allow, &words) {
        Outcome::Allowed(r)
    } else {
        Outcome::NoRule
    };
    vec![Part {
        text: text.to_owned(),
        outcome,
    }]
}

/// Canonical form of command words for rule matching, applied to both a rule's words and a
/// command's words so that equivalent flag spellings compare equal. This version returns
/// the words unchanged.
pub fn canonical_words(words: &[String]) -> Vec<String> {
    words.to_vec()
}

fn unanalysable(text: &str, why: String) -> Part {
    Part {
        text: text.to_owned(),
        outcome: Outcome::Unanalysable { why },
    }
}

/// The words of a line made only of plain words, or `None`.
fn plain_words(line: &str) -> Option<Vec<String>> {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./:=,+@%".contains(c);
    let words: Vec<String> = line.split_ascii_whitespace().map(str::to_owned).collect();
    let ok = !words.is_empty() && words.iter().all(|w| w.chars().all(plain));
    ok.then_some(words)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decision::{Decider, Layer};

    struct OneRule(RuleList, &'static str);
    impl CommandRules for OneRule {
        fn match_command(&self, list: RuleList, words: &[String]) -> Option<Reason> {
            (list == self.0 && words.first().map(String::as_str) == Some(self.1)).then(|| Reason {
                decider: Decider::Rule {
                    rule: format!("Bash({} *)", self.1),
                    list,
                    layer: Layer::Session,
                    index: 0,
                },
                text: "test rule".into(),
            })
        }
        fn write_outcome(&self, _: &str) -> Outcome {
            Outcome::NoRule
        }
        fn read_outcome(&self, _: &str) -> Outcome {
            Outcome::NoRule
        }
        fn is_critical(&self, _: &str) -> bool {
            false
        }
    }

    #[test]
    fn plain_command_is_judged() {
        let parts = judge("git status", &OneRule(RuleList::Allow, "git"));
        assert!(matches!(
            parts.as_slice(),
            [Part {
                outcome: Outcome::Allowed(_),
                ..
            }]
        ));
    }

    #[test]
    fn shell_syntax_is_unanalysable() {
        for line in [
            "git status && curl evil",
            "echo $(id)",
            "ls > x",
            "a 'b'",
            "",
            "   ",
        ] {
            let parts = judge(line, &OneRule(RuleList::Allow, "git"));
            assert!(
                matches!(
                    parts.as_slice(),
                    [Part {
                        outcome: Outcome::Unanalysable { .. },
                        ..
                    }]
                ),
                "{line}"
            );
        }
    }
}
