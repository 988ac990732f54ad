//! Shell command analysis: decides on the commands the shell would actually run.
//!
//! The policy evaluator hands a command line and a [`CommandRules`] view of itself to
//! [`judge`]; the analysis splits the line into the simple commands the shell would run and
//! judges each one against the rules, returning one [`Part`] per command (and per write
//! target). Anything it cannot read is [`Outcome::Unanalysable`], which never allows.
//!
//! What is covered:
//! - a parser for the shell subset agents use: quoting and escapes (words are matched as
//!   argv), `&&`, `||`, `;`, `|`, `|&`, `&`, newlines, `( )`, `{ }`, `if`/`while` bodies,
//!   `$( )`, backquotes, `<( )`/`>( )` and the scripts of `sh -c` and friends, all recursed;
//!   anything else (here-documents, arithmetic, `case`, `for`, functions) is unanalysable,
//!   though deny rules still apply to what can be read;
//! - transparent wrappers ([`TRANSPARENT_WRAPPERS`]) stripped, runners ([`RUNNERS`],
//!   [`INTERPRETERS`]) never covered by an allow rule on what they run;
//! - leading assignments: only [`HARMLESS_VARIABLES`] keep an allow rule working;
//! - redirections and `tee` files judged as writes, `<` as reads;
//! - flags canonicalised ([`canonical_words`], [`CANONICAL_COMMANDS`]) so spellings do
//!   not dodge deny rules;
//! - built-in read-only commands ([`read_only_commands`]) and critical paths for `rm`,
//!   `rmdir`, `mv`, `shred`, `unlink` and `find -delete`.
//!
//! See `docs/shell.md` for the lists, the limits and what the analysis cannot see.

mod analysis;
mod base;
mod canonical;
pub(crate) use canonical::{has_subcommands, subcommand_readings, GIT_GLOBAL_WITH_VALUE};
// A test aid that lives with the integration tests; the unit tests use it too.
pub(crate) mod glob;
#[cfg(test)]
#[path = "../../tests/support/literal_rules.rs"]
mod literal_rules;
mod parse;
mod paths;
mod read_only;
mod salvage;
mod searches;
mod streams;
pub(crate) use streams::is_input_path;
mod word;
mod wrappers;
mod writes;

pub(crate) use analysis::STANDARD_STREAMS;
pub use canonical::CANONICAL_COMMANDS;
#[cfg(test)]
use literal_rules::LiteralRules;
pub use parse::MAX_NESTING;
pub use paths::{path_words, PathWords};
pub use read_only::read_only_commands;
pub use searches::search_roots;
pub(crate) use word::is_deceptive_char as is_deceptive;
pub use wrappers::{
    is_harmless_assignment, HARMLESS_VARIABLES, INTERPRETERS, RUNNERS, SAFE_SET_OPTIONS, SHELLS,
    TRANSPARENT_WRAPPERS,
};
pub(crate) use wrappers::{wrapped_command_start, wrapped_script};
pub(crate) use writes::{file_url_paths, is_destructive, writes_files, CARGO_GLOBAL_VALUES};

use crate::decision::{Reason, RuleList};

/// Command lines longer than this (in bytes) are not analysed, and ask.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// How far a written name reaches beyond itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// The name itself.
    Name,
    /// The name and what lands below it: a tree moved there, or a link made there that a
    /// later path through it follows (`mv stage ~/.config` puts `stage/autostart` at
    /// `~/.config/autostart`).
    Tree,
    /// Also any name that starts with it: a program that composes its output's name from a
    /// word (`gzip -S rc ~/.bash` writes `~/.bashrc`; `npm --prefix ~/.local` writes
    /// `~/.local/bin`).
    Prefix,
}

/// What the shell analysis needs from the policy: rule lookups on command words and path
/// checks. The policy evaluator implements it; tests may implement it with a few literal
/// rules.
pub trait CommandRules {
    /// The first rule of `list` (across all layers) from the shell family (`Bash(...)`,
    /// `shell(...)`) that matches the command `words` (argv after quote removal), with why.
    fn match_command(&self, list: RuleList, words: &[String]) -> Option<Reason>;

    /// [`CommandRules::match_command`] for a caller that has the canonical form of `words`
    /// already (`canonical`, equal to [`canonical_words`]`(words)`), so it is not worked
    /// out again. The default ignores it.
    fn match_command_canonical(
        &self,
        list: RuleList,
        words: &[String],
        canonical: &[String],
    ) -> Option<Reason> {
        let _ = canonical;
        self.match_command(list, words)
    }

    /// The first rule of `list` (across all layers) from the shell family that names a
    /// command, whatever the command (`Bash(git push:*)`, not `Bash` alone): one that a
    /// command the line does not show may meet (a git alias, a package script). A rule on
    /// the program `program` comes first (`Bash(git push:*)` for a git alias).
    fn first_command_rule(&self, list: RuleList, program: &str) -> Option<Reason>;

    /// How a write to `path` (a redirection target, a `tee` file) is judged: Edit/Write
    /// rules, protected paths and the working directory, as for a file-writing tool.
    fn write_outcome(&self, path: &str) -> Outcome;

    /// What stops a write of `path` whatever allows it: an Edit or Write deny or ask rule on
    /// the name or (in the policy) one that could match what the write reaches, or a
    /// protected path the write reaches (see [`Reach`]); [`Outcome::NoRule`] when neither
    /// speaks. For the words a program may write through (`zip OUT`), where the allow rules
    /// would be looked up in vain. The default reaches beyond the name as
    /// [`CommandRules::protected_reach`] does.
    fn write_guard(&self, path: &str, reach: Reach) -> Outcome {
        match self.write_outcome(path) {
            o @ (Outcome::Denied(_)
            | Outcome::AskRule(_)
            | Outcome::Protected { .. }
            | Outcome::Unanalysable { .. }) => o,
            _ if reach != Reach::Name => self.protected_reach(path, reach),
            _ => Outcome::NoRule,
        }
    }

    /// The Edit or Write deny, then ask, rule that names `path` by a path pattern, a rule on
    /// the whole tool aside: [`Outcome::Denied`] or [`Outcome::AskRule`], else
    /// [`Outcome::NoRule`] (or [`Outcome::Unanalysable`] when the path cannot be read). For
    /// a bare word that may be a subcommand as well as a file (`make Makefile`, `npm
    /// config`): `Edit(./Makefile)` meets it, a deny of every edit does not. With a `reach`
    /// beyond the name, a path rule that could match what the write reaches (a file below
    /// `path`, a name that begins with it: `split IN Mak` writes `Makefile`) asks. The
    /// default keeps the rules [`CommandRules::write_outcome`] finds for the name.
    fn write_rule_naming(&self, path: &str, reach: Reach) -> Outcome {
        let _ = reach;
        match self.write_outcome(path) {
            o @ (Outcome::Denied(_) | Outcome::AskRule(_) | Outcome::Unanalysable { .. }) => o,
            _ => Outcome::NoRule,
        }
    }

    /// Whether `path` is a protected path, as [`CommandRules::write_guard`] finds it, with
    /// no rule looked up: [`Outcome::Protected`], else [`Outcome::NoRule`] (or
    /// [`Outcome::Unanalysable`] when the path cannot be read).
    fn write_protected(&self, path: &str) -> Outcome {
        match self.write_guard(path, Reach::Name) {
            o @ (Outcome::Protected { .. } | Outcome::Unanalysable { .. }) => o,
            _ => Outcome::NoRule,
        }
    }

    /// Whether a write of `path` reaches a protected path, the name itself or beyond it (see
    /// [`Reach`]): [`Outcome::Protected`], else [`Outcome::NoRule`] (or
    /// [`Outcome::Unanalysable`] when the path cannot be read). The default knows only the
    /// name ([`CommandRules::write_protected`]).
    fn protected_reach(&self, path: &str, reach: Reach) -> Outcome {
        let _ = reach;
        self.write_protected(path)
    }

    /// How a read of `path` by a read-only command is judged: Read deny and ask rules, and
    /// whether the path is inside the working directory or the additional directories.
    fn read_outcome(&self, path: &str) -> Outcome;

    /// How a read of every file below the directory `dir` (a recursive search such as
    /// `grep -r`, `rg`, `git grep`, or a glob) is judged: the read of `dir` itself, and
    /// an ask when any Read deny or ask rule could match a path below `dir` (a rule with
    /// `**` or a bare name matches at any depth). Implementations must err on the side of
    /// asking.
    fn read_below_outcome(&self, dir: &str) -> Outcome;

    /// [`CommandRules::read_below_outcome`] for a search that opens only the files below
    /// `dir` that one of `patterns` matches (`grep -r --include='*.ts'`, `rg -g '*.py'`:
    /// globs relative to `dir`, `**/NAME` for a name at any depth). The rules are still
    /// judged for every file below; only the host's secret files that no pattern matches
    /// are left out. The default judges every file below.
    fn read_below_matching_outcome(&self, dir: &str, patterns: &[String]) -> Outcome {
        let _ = patterns;
        self.read_below_outcome(dir)
    }

    /// The paths the host found for the glob `pattern` (as [`PathWords::globs`] writes it)
    /// and resolved ([`crate::Request::add_realpaths_listing`]): those that lead elsewhere
    /// than they read, to be judged as named paths. The default knows of none.
    fn glob_paths(&self, pattern: &str) -> Vec<String> {
        let _ = pattern;
        Vec::new()
    }

    /// The first allow rule matching the command `words` that names its hidden command
    /// `word` ([`crate::commands::allow_names_unseen`]: `Bash(npm run test:*)` for `npm run
    /// test`), whatever broader allow rule comes first. The default knows of none.
    fn allow_naming(&self, words: &[String], word: &str) -> Option<Reason> {
        let _ = (words, word);
        None
    }

    /// How many directories above the working directory the top of its git working tree
    /// is, as the host found it ([`crate::Request::git_top`]); `None` when not known. The
    /// default knows of none.
    fn git_top_levels(&self) -> Option<usize> {
        None
    }

    /// Where the host found that `path` (as the line writes it) leads, when it leads
    /// elsewhere ([`crate::Request::realpaths`]). The default knows of none.
    fn resolved(&self, path: &str) -> Option<String> {
        let _ = path;
        None
    }

    /// How a write of files below the directory `dir` whose names the command does not
    /// give (`tar -x`, `unzip`, `patch` without a target, `git apply`) is judged: any of
    /// them may be a protected path, so it is never allowed by an allow rule on the
    /// command, and an Edit or Write deny or ask rule that could match a path below `dir`
    /// speaks. The default cannot tell, so the command cannot be analysed.
    fn write_below_outcome(&self, dir: &str) -> Outcome {
        Outcome::Unanalysable {
            why: format!("writes files below `{dir}` whose names the command does not give"),
        }
    }

    /// The Read deny, then ask, rule that matches any of `paths`, as
    /// [`CommandRules::read_outcome`] would find it for one of them; `None` when no rule
    /// speaks (the working directory and the defaults are not consulted). A path that cannot
    /// be resolved is passed over: no rule names it. The default asks
    /// [`CommandRules::read_outcome`] path by path; the policy looks the rules up once for all.
    fn read_rules_outcome(&self, paths: &[String]) -> Option<Outcome> {
        let mut found = None;
        for p in paths {
            match self.read_outcome(p) {
                o @ Outcome::Denied(_) => return Some(o),
                o @ Outcome::AskRule(_) => found = found.or(Some(o)),
                _ => {}
            }
        }
        found
    }

    /// Whether `path` is critical for destructive commands: `/`, a top-level directory,
    /// the home directory, the working directory or one of its parents.
    fn is_critical(&self, path: &str) -> bool;

    /// The working directory and the project directory, both normalised, when the line
    /// starts somewhere else than the project (a shell that followed a `cd` in an earlier
    /// call, a tool's own directory): a program that runs the configuration of the directory
    /// it starts in (`git`) is then judged as after a `cd`. The default: `None`, the line
    /// starts in the project.
    fn away_from_project(&self) -> Option<(String, String)> {
        None
    }
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
/// Each command is judged in the order deny (any flag spelling, past wrappers and
/// assignments, and on what a runner runs) → ask → critical path → allow → built-in
/// read-only → no rule. Never panics and never returns an empty list: a line with nothing
/// to run is one unanalysable part.
///
/// ```
/// use toolgate::shell::{judge, CommandRules, Outcome};
/// use toolgate::{Decider, Layer, Reason, RuleList};
///
/// /// One deny rule, `rm`, and no other rule: a [`CommandRules`] as small as it gets (the
/// /// policy evaluator is the real one).
/// struct DenyRm;
///
/// impl CommandRules for DenyRm {
///     fn match_command(&self, list: RuleList, words: &[String]) -> Option<Reason> {
///         (list == RuleList::Deny && words.first().is_some_and(|w| w == "rm")).then(|| Reason {
///             decider: Decider::Rule {
///                 rule: "Bash(rm:*)".to_owned(),
///                 list,
///                 layer: Layer::Session,
///                 index: 0,
///             },
///             text: "no rm".to_owned(),
///         })
///     }
///     fn first_command_rule(&self, list: RuleList, _program: &str) -> Option<Reason> {
///         self.match_command(list, &["rm".to_owned()])
///     }
///     fn write_outcome(&self, _path: &str) -> Outcome {
///         Outcome::NoRule
///     }
///     fn read_outcome(&self, _path: &str) -> Outcome {
///         Outcome::NoRule
///     }
///     fn read_below_outcome(&self, _dir: &str) -> Outcome {
///         Outcome::NoRule
///     }
///     fn is_critical(&self, _path: &str) -> bool {
///         false
///     }
/// }
///
/// // Past the wrapper, into the script, whatever the spelling of the program and its flags.
/// let parts = judge("timeout 5 bash -c 'cd /tmp && /bin/rm -r -f x'", &DenyRm);
/// assert!(parts.iter().any(|p| matches!(p.outcome, Outcome::Denied(_))));
/// assert!(matches!(parts[0].outcome, Outcome::NoRule));
/// ```
pub fn judge(line: &str, rules: &dyn CommandRules) -> Vec<Part> {
    judge_keeping_commands(line, rules).0
}

/// [`judge`], also handing back the line's simple commands as [`commands_of`] gives them,
/// taken from the parse the judgement made (`None` when the line was too long to parse;
/// bash's reading, parsed again, when another shell would read the line otherwise): a caller
/// that classifies the line's dangers need not parse it again.
pub(crate) fn judge_keeping_commands(
    line: &str,
    rules: &dyn CommandRules,
) -> (Vec<Part>, Option<Vec<Vec<String>>>) {
    let mut analysis = analysis::Analysis::new(rules);
    if line.len() > MAX_LINE_BYTES {
        analysis.salvage(line);
        let shown: String = line.trim().chars().take(200).collect();
        analysis.push(
            &format!("{shown}…"),
            Outcome::Unanalysable {
                why: format!("command is longer than {MAX_LINE_BYTES} bytes"),
            },
        );
        return (analysis.parts, None);
    }
    let mut simples = analysis.line(line, 0);
    analysis.finish();
    // A loop, a pipeline or `&` runs a command again or alongside, so one written before a
    // link maker may still run after it (`until cat l/x; do ln -s /srv l; done`): a line
    // of several commands where one may make links is judged again with links assumed
    // from its start.
    if analysis.links_made() && simples.as_ref().is_some_and(|s| s.len() > 1) {
        analysis = analysis::Analysis::new(rules);
        analysis.assume_links();
        simples = analysis.line(line, 0);
        analysis.finish();
    }
    let commands = simples.map(commands_of_simples);
    if analysis.exhausted() {
        analysis.push(
            line,
            Outcome::Unanalysable {
                why: "the line is too complex to check in full".to_owned(),
            },
        );
    }
    if analysis.parts.is_empty() {
        analysis.push(
            line,
            Outcome::Unanalysable {
                why: "the line runs no command".to_owned(),
            },
        );
    }
    // A line another shell reads otherwise (`ls &>/dev/null rm -rf x`) still hands back
    // bash's commands, for the danger classes and the trust checks.
    (
        analysis.parts,
        Some(commands.unwrap_or_else(|| commands_of(line))),
    )
}

/// The simple commands `line` runs, as the parser reads them: each command's words after
/// quote removal, a word whose value is only known at run time shown as `None`; commands
/// inside substitutions and groups are included, `sh -c` scripts are not opened. `None`
/// when the line is outside the analysed subset. For differential tests against other
/// shell parsers.
///
/// ```
/// use toolgate::shell::simple_commands;
/// let cmds = simple_commands("ls -la && echo $(pwd) 'a b'").unwrap();
/// let some = |s: &str| Some(s.to_owned());
/// assert_eq!(cmds[0], [some("ls"), some("-la")]);
/// assert!(cmds.contains(&vec![some("pwd")]));
/// assert!(cmds.contains(&vec![some("echo"), None, some("a b")]));
/// assert!(simple_commands("ls && && ls").is_none());
/// ```
pub fn simple_commands(line: &str) -> Option<Vec<Vec<Option<String>>>> {
    let commands = parse::parse(line, 0).ok()?;
    Some(
        commands
            .into_iter()
            .filter(|c| !c.words.is_empty())
            .map(|c| {
                c.words
                    .into_iter()
                    .map(|w| w.dynamic.is_none().then_some(w.value))
                    .collect()
            })
            .collect(),
    )
}

/// Canonical form of command words for rule matching, applied to both a rule's words and a
/// command's words so that equivalent flag spellings compare equal.
///
/// The program name always loses its directory (`/bin/rm` → `rm`). For the commands in
/// [`CANONICAL_COMMANDS`], combined short flags are split, long flags (and unambiguous
/// prefixes of them) become their short form, flags are sorted, deduplicated and moved
/// before the operands (a flag's value stays with it), and `--` is kept only when an
/// operand starts with `-`. Words that are `*` stay in place as operands. The form is
/// idempotent.
///
/// ```
/// use toolgate::shell::canonical_words;
/// let w = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
/// assert_eq!(canonical_words(&w("/bin/rm --recursive x --force")), w("rm -f -r x"));
/// assert_eq!(canonical_words(&w("rm -rf *")), w("rm -f -r *"));
/// assert_eq!(canonical_words(&w("git push origin main -f")), w("git push -f origin main"));
/// ```
pub fn canonical_words(words: &[String]) -> Vec<String> {
    canonical::canonicalise(words).words()
}

/// The simple commands `line` would run, as words after quote removal, in the order they
/// appear (commands inside substitutions and groups included). A write redirection appears
/// as a command of its own, `>` followed by its target; a read redirection as `<` and its
/// target. A line outside the parsed subset gives an empty list.
///
/// ```
/// use toolgate::shell::commands_of;
/// let cmds = commands_of("cd 'my dir' && echo \"$(whoami)\" > out.txt");
/// assert_eq!(cmds[0], ["cd", "my dir"]);
/// assert!(cmds.contains(&vec![">".to_owned(), "out.txt".to_owned()]));
/// assert!(cmds.contains(&vec!["whoami".to_owned()]));
/// ```
pub fn commands_of(line: &str) -> Vec<Vec<String>> {
    parse::parse(line, 0)
        .map(commands_of_simples)
        .unwrap_or_default()
}

/// The first program of `line` whose reads and writes the program table does not vouch
/// for: one it does not know, a use of it with an option or subcommand it does not know, or
/// a use of a program whose entry knows one option alone (`make`, `cargo build`: the table
/// vouches for `--version` only). Wrappers are looked through (`timeout 3 make`);
/// redirections are judged by the analysis itself. `None` when the table knows what every
/// command reads and writes, or when the line is outside the parsed subset.
///
/// ```
/// use toolgate::shell::program_of_unknown_effects;
/// assert_eq!(program_of_unknown_effects("timeout 5 make all").as_deref(), Some("make"));
/// assert_eq!(program_of_unknown_effects("cd src && zcat a.gz | grep x").as_deref(), Some("zcat"));
/// assert_eq!(program_of_unknown_effects("git push origin main > log.txt"), None);
/// assert_eq!(program_of_unknown_effects("git frobnicate").as_deref(), Some("git"));
/// assert_eq!(program_of_unknown_effects("cat a | sort -u"), None);
/// ```
pub fn program_of_unknown_effects(line: &str) -> Option<String> {
    commands_of(line).into_iter().find_map(|words| {
        let mut words = words.as_slice();
        for _ in 0..MAX_NESTING {
            match wrappers::wrapped_command_start(words) {
                Some(start) => words = words.get(start..)?,
                None => break,
            }
        }
        let first = words.first()?;
        if matches!(first.as_str(), ">" | "<") {
            return None;
        }
        // A program the table has an entry for is vouched for by that entry alone; one it
        // has none for, by the writes the analysis knows it makes (`cp`, `rm`, `curl`).
        let vouched_for = match crate::commands::effects(words) {
            Some(e) => {
                let one_option_only = crate::commands::lookup(first)
                    .is_some_and(|p| p.operands == crate::commands::Operands::OnlyTheOption);
                e.unjudged.is_none() && !(one_option_only && e.not_read_only.is_some())
            }
            None => {
                writes::knows_writes_of(words)
                    || writes::is_destructive(crate::commands::program_name(first))
            }
        };
        (!vouched_for).then(|| crate::commands::program_name(first).to_owned())
    })
}

/// [`commands_of`] for a line already parsed into `simples`.
fn commands_of_simples(simples: Vec<parse::Simple>) -> Vec<Vec<String>> {
    let mut out = Vec::with_capacity(simples.len());
    for s in simples {
        for r in &s.redirs {
            let ops: &[&str] = match r.kind {
                parse::RedirKind::Write => &[">"],
                parse::RedirKind::Read => &["<"],
                parse::RedirKind::ReadWrite => &["<", ">"],
                parse::RedirKind::HereString | parse::RedirKind::Other => continue,
            };
            for op in ops {
                out.push(vec![(*op).to_owned(), r.target.value.clone()]);
            }
        }
        if !s.words.is_empty() {
            out.push(s.words.into_iter().map(|w| w.value).collect());
        }
    }
    out
}

#[cfg(test)]
mod tests;
