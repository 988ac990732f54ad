//! Command rules: `Bash(npm run test:*)`, `Bash(git * main)`, Copilot `shell(git push)`.

use crate::error::{Error, ErrorKind, Result};

/// How a command specifier matches the command's words joined by single spaces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandMatch {
    /// The whole command, exactly (`*` inside is a glob that may span spaces).
    Exact(String),
    /// This prefix, then a space or the end (`Bash(ls *)`, `Bash(npm:*)`, `shell(git)`).
    Prefix(String),
}

/// A parsed command specifier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandPattern {
    /// How it matches.
    pub matcher: CommandMatch,
}

/// Which agent's reading of a command specifier applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommandDialect {
    /// Claude Code: exact unless it ends in ` *` or `:*`.
    Claude,
    /// Copilot CLI: always a prefix (`shell(git)` is `git` with any arguments).
    Copilot,
}

impl CommandPattern {
    /// Parses a command specifier in `dialect`.
    pub fn parse(spec: &str, dialect: CommandDialect) -> Result<Self> {
        let words: Vec<&str> = spec.split_whitespace().collect();
        let joined = words.join(" ");
        if joined.is_empty() {
            return Err(
                Error::new(ErrorKind::InvalidRule, "empty command specifier")
                    .with_hint("name the command, e.g. `Bash(npm test)`, or drop the parentheses"),
            );
        }
        let prefix = if let Some(p) = joined.strip_suffix(":*") {
            Some(p.trim_end().to_owned())
        } else if joined == "*" {
            None
        } else {
            joined.strip_suffix(" *").map(|p| p.trim_end().to_owned())
        };
        let matcher = match (prefix, dialect) {
            (Some(p), _) if p.is_empty() => CommandMatch::Exact("*".to_owned()),
            (Some(p), _) => CommandMatch::Prefix(p),
            (None, CommandDialect::Copilot) if joined != "*" => CommandMatch::Prefix(joined),
            (None, _) => CommandMatch::Exact(joined),
        };
        Ok(CommandPattern { matcher })
    }

    /// The globs (over words joined by single spaces, `*` spanning anything) that together
    /// implement this pattern, after mapping the literal words through `words_map`.
    pub fn globs(&self, words_map: &dyn Fn(&[String]) -> Vec<String>) -> Vec<String> {
        self.globs_of(|s| {
            let words: Vec<String> = s.split(' ').map(str::to_owned).collect();
            words_map(&words).join(" ")
        })
    }

    /// The globs of the pattern's words as written: [`CommandPattern::globs`] with the
    /// identity map, without splitting and joining the words.
    pub fn literal_globs(&self) -> Vec<String> {
        self.globs_of(str::to_owned)
    }

    fn globs_of(&self, map: impl Fn(&str) -> String) -> Vec<String> {
        match &self.matcher {
            CommandMatch::Exact(s) => vec![escape_but_star(&map(s))],
            CommandMatch::Prefix(p) => {
                let p = escape_but_star(&map(p));
                vec![p.clone(), format!("{p} *")]
            }
        }
    }

    /// Whether the pattern names a literal command with no glob at all.
    pub fn is_literal(&self) -> bool {
        match &self.matcher {
            CommandMatch::Exact(s) | CommandMatch::Prefix(s) => !s.contains('*'),
        }
    }
}

/// Escapes every glob metacharacter except `*`.
fn escape_but_star(s: &str) -> String {
    if !s
        .bytes()
        .any(|b| matches!(b, b'?' | b'[' | b']' | b'{' | b'}'))
    {
        return s.to_owned();
    }
    s.split('*')
        .map(crate::glob::escape)
        .collect::<Vec<_>>()
        .join("*")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str, d: CommandDialect) -> CommandMatch {
        CommandPattern::parse(s, d).unwrap().matcher
    }

    #[test]
    fn literal_globs_equal_globs_with_the_identity_map() {
        for text in ["npm run test:*", "git push", "a?b [c] {d}", "ls *", "*"] {
            let c = CommandPattern::parse(text, CommandDialect::Claude).unwrap();
            assert_eq!(c.literal_globs(), c.globs(&|w| w.to_vec()), "{text}");
        }
        assert_eq!(escape_but_star("a?b*[c]"), "a[?]b*[[]c[]]");
        assert_eq!(escape_but_star("git push *"), "git push *");
    }

    #[test]
    fn claude_forms() {
        use CommandDialect::Claude as C;
        assert_eq!(p("ls *", C), CommandMatch::Prefix("ls".into()));
        assert_eq!(
            p("npm run test:*", C),
            CommandMatch::Prefix("npm run test".into())
        );
        assert_eq!(
            p("git  status", C),
            CommandMatch::Exact("git status".into())
        );
        assert_eq!(p("*", C), CommandMatch::Exact("*".into()));
        assert_eq!(p(":*", C), CommandMatch::Exact("*".into()));
        assert!(CommandPattern::parse("  ", C).is_err());
    }

    #[test]
    fn copilot_forms() {
        use CommandDialect::Copilot as K;
        assert_eq!(p("git", K), CommandMatch::Prefix("git".into()));
        assert_eq!(p("git push", K), CommandMatch::Prefix("git push".into()));
        assert_eq!(p("git:*", K), CommandMatch::Prefix("git".into()));
    }

    #[test]
    fn escapes_brackets() {
        let g = CommandPattern::parse("echo [x] *", CommandDialect::Claude)
            .unwrap()
            .globs(&|w| w.to_vec());
        assert_eq!(g, vec!["echo [[]x[]]", "echo [[]x[]] *"]);
    }
}
