//! A small [`CommandRules`] built from a few literal rules: a test aid for the shell tests,
//! the benches and the fuzz targets (each includes this file with `#[path]`). The policy
//! evaluator is the real implementation.

#![allow(dead_code, reason = "each includer uses the part it needs")]

use toolgate::shell::{canonical_words, CommandRules, Outcome};
use toolgate::{Decider, Layer, Reason, RuleList};

/// What a literal rule is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Subject {
    Command,
    Read,
    Write,
}

/// A [`CommandRules`] made of literal rules, resolving paths lexically against a working
/// directory and a home directory.
///
/// Command rules (`Bash(...)`) match the canonical command words joined by spaces; `*`
/// matches anything, and a trailing ` *` or `:*` means "this prefix, then a space or the
/// end". Deny and ask rules without a wildcard also match as prefixes (stricter); allow
/// rules without one match exactly. `Read(...)`, `Edit(...)` and `Write(...)` rules match
/// normalised paths (`./x` and `/x` from the working directory, `~/x`, `//abs`, and a bare
/// name at any depth). Reads inside the working directory are read-only; writes are
/// [`Outcome::NoRule`] unless protected (`.git/`, shell rc files, `.npmrc`, ...).
///
/// ```
/// use toolgate::shell::{judge, Outcome};
/// use toolgate::RuleList;
///
/// let rules = LiteralRules::new("/home/ada/proj", "/home/ada")
///     .rule(RuleList::Allow, "Bash(npm test)")
///     .rule(RuleList::Deny, "Bash(rm -rf *)");
/// let parts = judge("npm test && rm -fr build", &rules);
/// assert!(matches!(parts[0].outcome, Outcome::Allowed(_)));
/// assert!(matches!(parts[1].outcome, Outcome::Denied(_)));
/// ```
#[derive(Clone, Debug, Default)]
pub struct LiteralRules {
    cwd: String,
    home: String,
    rules: Vec<(RuleList, Subject, String, String)>,
    directories: Vec<String>,
}

impl LiteralRules {
    /// Rules for a session in `cwd` of a user whose home is `home` (both absolute).
    pub fn new(cwd: &str, home: &str) -> Self {
        LiteralRules {
            cwd: normalise("/", "/", cwd),
            home: normalise("/", "/", home),
            ..Self::default()
        }
    }

    /// Adds a rule such as `Bash(npm run test:*)`, `Read(./.env)` or `Edit(~/.bashrc)`
    /// (`shell(...)` is read as `Bash(...)`). Other rules are ignored.
    #[must_use]
    pub fn rule(mut self, list: RuleList, rule: &str) -> Self {
        let Some((tool, rest)) = rule.split_once('(') else {
            return self;
        };
        let Some(spec) = rest.strip_suffix(')') else {
            return self;
        };
        let subject = match tool {
            "Bash" | "shell" => Subject::Command,
            "Read" | "read" => Subject::Read,
            "Edit" | "Write" | "write" => Subject::Write,
            _ => return self,
        };
        let spec = match subject {
            Subject::Command => command_pattern(spec),
            _ => spec.to_owned(),
        };
        self.rules.push((list, subject, spec, rule.to_owned()));
        self
    }

    /// Adds an additional directory where reads are read-only.
    #[must_use]
    pub fn directory(mut self, dir: &str) -> Self {
        let d = normalise(&self.cwd, &self.home, dir);
        self.directories.push(d);
        self
    }

    fn reason(list: RuleList, rule: &str, index: usize) -> Reason {
        let list_name = match list {
            RuleList::Deny => "deny",
            RuleList::Ask => "ask",
            RuleList::Allow => "allow",
        };
        Reason {
            decider: Decider::Rule {
                rule: rule.to_owned(),
                list,
                layer: Layer::Session,
                index,
            },
            text: format!("matched `{rule}` in the {list_name} list"),
        }
    }

    fn path_rule(&self, subject: Subject, path: &str) -> Option<Outcome> {
        let path = normalise(&self.cwd, &self.home, path);
        for list in [RuleList::Deny, RuleList::Ask] {
            let hit = self.rules.iter().enumerate().find(|(_, (l, s, spec, _))| {
                *l == list && *s == subject && self.path_matches(spec, &path)
            });
            if let Some((i, (_, _, _, rule))) = hit {
                let r = Self::reason(list, rule, i);
                return Some(match list {
                    RuleList::Deny => Outcome::Denied(r),
                    _ => Outcome::AskRule(r),
                });
            }
        }
        None
    }

    fn path_matches(&self, spec: &str, path: &str) -> bool {
        if !spec.contains('/') {
            let name = path.rsplit('/').next().unwrap_or(path);
            return glob(spec, name);
        }
        let pattern = if let Some(abs) = spec.strip_prefix("//") {
            format!("/{abs}")
        } else if spec.starts_with('~') {
            normalise(&self.cwd, &self.home, spec)
        } else {
            let rel = spec.trim_start_matches("./").trim_start_matches('/');
            format!("{}/{rel}", self.cwd.trim_end_matches('/'))
        };
        glob(&pattern, path) || glob(&format!("{pattern}/*"), path)
    }

    fn inside(&self, path: &str) -> bool {
        std::iter::once(&self.cwd)
            .chain(&self.directories)
            .any(|d| within(d, path))
    }
}

fn within(dir: &str, path: &str) -> bool {
    path == dir || dir == "/" || path.starts_with(&format!("{dir}/"))
}

impl CommandRules for LiteralRules {
    fn match_command(&self, list: RuleList, words: &[String]) -> Option<Reason> {
        let joined = canonical_words(words).join(" ");
        self.rules
            .iter()
            .enumerate()
            .filter(|(_, (l, s, _, _))| *l == list && *s == Subject::Command)
            .find(|(_, (_, _, spec, _))| command_matches(spec, &joined, list))
            .map(|(i, (_, _, _, rule))| Self::reason(list, rule, i))
    }

    fn allow_naming(&self, words: &[String], word: &str) -> Option<Reason> {
        let joined = canonical_words(words).join(" ");
        self.rules
            .iter()
            .enumerate()
            .filter(|(_, (l, s, _, _))| *l == RuleList::Allow && *s == Subject::Command)
            .filter(|(_, (_, _, _, rule))| {
                let inner = rule
                    .split_once('(')
                    .and_then(|(_, rest)| rest.strip_suffix(')'));
                inner.is_some_and(|p| toolgate::commands::allow_names_unseen(p, word))
            })
            .find(|(_, (_, _, spec, _))| command_matches(spec, &joined, RuleList::Allow))
            .map(|(i, (_, _, _, rule))| Self::reason(RuleList::Allow, rule, i))
    }

    fn first_command_rule(&self, list: RuleList, program: &str) -> Option<Reason> {
        let commands = || {
            self.rules
                .iter()
                .enumerate()
                .filter(|(_, (l, s, _, _))| *l == list && *s == Subject::Command)
        };
        commands()
            .find(|(_, (_, _, spec, _))| spec.split(' ').next() == Some(program))
            .or_else(|| commands().next())
            .map(|(i, (_, _, _, rule))| Self::reason(list, rule, i))
    }

    fn write_outcome(&self, path: &str) -> Outcome {
        if let Some(o) = self.path_rule(Subject::Write, path) {
            return o;
        }
        let n = normalise(&self.cwd, &self.home, path);
        if is_protected(&n) {
            return Outcome::Protected { path: n };
        }
        Outcome::NoRule
    }

    fn read_outcome(&self, path: &str) -> Outcome {
        if let Some(o) = self.path_rule(Subject::Read, path) {
            return o;
        }
        if self.inside(&normalise(&self.cwd, &self.home, path)) {
            Outcome::ReadOnly
        } else {
            Outcome::NoRule
        }
    }

    fn read_below_outcome(&self, dir: &str) -> Outcome {
        let own = self.read_outcome(dir);
        if !matches!(own, Outcome::ReadOnly | Outcome::NoRule) {
            return own;
        }
        let dir = normalise(&self.cwd, &self.home, dir);
        let below = self.rules.iter().enumerate().find(|(_, (l, s, spec, _))| {
            *l != RuleList::Allow && *s == Subject::Read && {
                let pattern = if !spec.contains('/') || spec.contains("**") {
                    String::new()
                } else {
                    normalise(
                        &self.cwd,
                        &self.home,
                        spec.trim_start_matches("//").trim_start_matches("./"),
                    )
                };
                let fixed = pattern.split(['*', '?', '[']).next().unwrap_or("");
                let fixed = if pattern.is_empty() { "" } else { fixed };
                dir.starts_with(fixed) || fixed.starts_with(&dir)
            }
        });
        match below {
            Some((i, (l, _, _, rule))) => {
                let mut r = Self::reason(*l, rule, i);
                r.text = format!("a file below `{dir}` could match `{rule}`");
                Outcome::AskRule(r)
            }
            None => own,
        }
    }

    fn is_critical(&self, path: &str) -> bool {
        let n = normalise(&self.cwd, &self.home, path);
        n == "/" || n.matches('/').count() == 1 || n == self.home || within(&n, &self.cwd)
    }
}

/// A command rule's specifier as a pattern over canonical words joined by spaces.
fn command_pattern(spec: &str) -> String {
    let spec = spec
        .strip_suffix(":*")
        .map_or(spec.to_owned(), |s| format!("{s} *"));
    let words: Vec<String> = spec.split_whitespace().map(str::to_owned).collect();
    canonical_words(&words).join(" ")
}

fn command_matches(pattern: &str, joined: &str, list: RuleList) -> bool {
    if let Some(prefix) = pattern.strip_suffix(" *") {
        return glob(prefix, joined) || glob(pattern, joined);
    }
    if list != RuleList::Allow && !pattern.contains('*') {
        return joined == pattern || joined.starts_with(&format!("{pattern} "));
    }
    glob(pattern, joined)
}

/// Shell-style match where `*` matches any run of characters (linear in practice).
pub(crate) fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    let mut back: Option<(usize, usize)> = None;
    while ti < t.len() {
        match p.get(pi) {
            Some('*') => {
                back = Some((pi, ti));
                pi += 1;
            }
            Some(c) if Some(c) == t.get(ti) => {
                pi += 1;
                ti += 1;
            }
            _ => match back {
                Some((bp, bt)) => {
                    pi = bp + 1;
                    ti = bt + 1;
                    back = Some((bp, bt + 1));
                }
                None => return false,
            },
        }
    }
    p.get(pi..).unwrap_or_default().iter().all(|c| *c == '*')
}

/// Lexical normalisation: `~` → home, relative → from `cwd`, `.`/`..`/`//` resolved.
pub(crate) fn normalise(cwd: &str, home: &str, path: &str) -> String {
    let full = if path == "~" {
        home.to_owned()
    } else if let Some(rest) = path.strip_prefix("~/") {
        format!("{home}/{rest}")
    } else if path.starts_with('/') {
        path.to_owned()
    } else {
        format!("{cwd}/{path}")
    };
    let mut out: Vec<&str> = Vec::new();
    for seg in full.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                out.pop();
            }
            s => out.push(s),
        }
    }
    format!("/{}", out.join("/"))
}

const PROTECTED_NAMES: &[&str] = &[
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".profile",
    ".zshrc",
    ".zprofile",
    ".zshenv",
    ".npmrc",
    ".mcp.json",
    ".gitconfig",
];

fn is_protected(path: &str) -> bool {
    path.split('/')
        .any(|s| matches!(s, ".git" | ".claude" | ".ssh" | ".vscode"))
        || PROTECTED_NAMES.contains(&path.rsplit('/').next().unwrap_or(path))
}
