//! Judging the simple commands of a parsed line against the rules, in the order
//! deny → ask → critical → allow → read-only → no rule.

use super::base::{self, BaseDir};
use super::canonical::{deny_probes, program_name, Probe};
use super::canonical_words;
use super::parse::{parse_as, Dialect, Redir, RedirKind, Simple};
use super::salvage;
use super::streams::{is_descriptor_path, is_input_path, Reopened};
use super::word::{piece_of, unreadable, unreadable_except, Word};
use super::wrappers::{classify, is_harmless_assignment, Inner, Kind, HARMLESS_VARIABLES, SHELLS};
use super::writes::{
    implied_outputs, is_bare_repository_name, is_destructive, knows_writes, local_reads,
    may_be_unnamed_output, maybe_written, part_of, response_file, unnamed_output_patterns, writes,
    MaybeWritten,
};
use super::{CommandRules, Outcome, Part, Reach};
use crate::commands::{self, Effects, Target};
use crate::decision::{Decider, Reason, RuleList};

/// How many suffixes of a runner's words are tested against deny and ask rules.
const MAX_RUNNER_SUFFIXES: usize = 12;

/// How many command words all rule look-ups of one line may read together; past that the
/// line is unanalysable (this keeps pathological lines, such as thousands of nested
/// runners, linear).
const LOOKUP_BUDGET: usize = 300_000;

/// How many wrapper layers are tested as forms of their own (the innermost always is).
const MAX_WRAPPER_FORMS: usize = 8;

/// Files that are standard streams, never written as files.
pub(crate) const STANDARD_STREAMS: &[&str] = &[
    "/dev/null",
    "/dev/stdout",
    "/dev/stderr",
    "/dev/stdin",
    "/dev/tty",
    "/dev/fd/0",
    "/dev/fd/1",
    "/dev/fd/2",
];

/// Where later commands of the line run, after a `cd`.
#[derive(Clone, Debug)]
enum Dir {
    /// The working directory.
    Start,
    /// A directory that can be read (absolute, `~`-form, or relative to the start).
    Known(String),
    /// Somewhere that cannot be read (`cd $X`, `popd`).
    Unknown,
}

/// Strictness of an outcome, for combining the outcomes of one command.
pub(crate) fn rank(o: &Outcome) -> u8 {
    match o {
        Outcome::Denied(_) => 7,
        Outcome::AskRule(_) => 6,
        Outcome::Critical { .. } => 5,
        Outcome::Protected { .. } => 4,
        Outcome::Unanalysable { .. } => 3,
        Outcome::NoRule => 2,
        Outcome::Allowed(_) => 1,
        Outcome::ReadOnly => 0,
    }
}

/// Outcomes at least this strict (protected, critical, ask rule, deny) count even where
/// the rest of a judgement does not (inside a runner's payload, for files a command
/// writes by its options).
const STRICT_RANK: u8 = 4;

fn stricter(a: Outcome, b: Outcome) -> Outcome {
    if rank(&b) > rank(&a) {
        b
    } else {
        a
    }
}

fn unanalysable(why: impl Into<String>) -> Outcome {
    Outcome::Unanalysable { why: why.into() }
}

/// The deny forms ([`deny_probes`]) of a command's forms, worked out on first use and kept,
/// so the deny and the ask look-ups share them.
struct Probes<'f> {
    forms: &'f [Vec<String>],
    done: Vec<Vec<Probe>>,
}

impl<'f> Probes<'f> {
    fn new(forms: &'f [Vec<String>]) -> Self {
        Probes {
            forms,
            done: Vec::with_capacity(forms.len()),
        }
    }

    /// The deny forms of form `i`, working out those of the forms before it first.
    fn of(&mut self, i: usize) -> &[Probe] {
        while self.done.len() <= i {
            let Some(form) = self.forms.get(self.done.len()) else {
                break;
            };
            self.done.push(deny_probes(form));
        }
        self.done.get(i).map_or(&[], Vec::as_slice)
    }
}

/// The analysis of one line: the rules, the directory state, the parts found so far.
pub(crate) struct Analysis<'r> {
    rules: &'r dyn CommandRules,
    dir: Dir,
    budget: std::cell::Cell<usize>,
    /// The judged parts, in the order the shell would meet them.
    pub parts: Vec<Part>,
    /// Descriptor paths the line opens, and the files its redirections name.
    reopened: Reopened,
    /// Whether an earlier command of the line may make links (`ln`, or one that writes the
    /// names its input chooses: `tar -x`, `unzip`, `git clone`): a later path may pass through
    /// one, which the host could not resolve before the line ran.
    links_made: bool,
    /// The redirections to files, with the directory each was met in, judged again in
    /// [`Analysis::finish`] if a descriptor path reopens them.
    redirected: Vec<(Redir, Dir)>,
}

impl<'r> Analysis<'r> {
    pub(crate) fn new(rules: &'r dyn CommandRules) -> Self {
        Analysis {
            rules,
            dir: Dir::Start,
            budget: std::cell::Cell::new(LOOKUP_BUDGET),
            parts: Vec::new(),
            reopened: Reopened::default(),
            redirected: Vec::new(),
            links_made: false,
        }
    }

    /// Ends the line: a descriptor path it opened reaches the files its redirections name
    /// (see [`super::streams`]), which are judged again as that opening reads or writes them.
    pub(crate) fn finish(&mut self) {
        let redirected = std::mem::take(&mut self.redirected);
        if redirected.is_empty() {
            return;
        }
        let dir = self.dir.clone();
        let mut reopened = std::mem::take(&mut self.reopened);
        for (r, at) in redirected {
            self.dir = at;
            let read = self.path_outcome(&r.target, |p| self.rules.read_outcome(p));
            let write = self.path_outcome(&r.target, |p| self.rules.write_outcome(p));
            reopened.file(&r.text, read, write);
        }
        self.dir = dir;
        for (text, outcome) in reopened.parts() {
            self.push(&text, outcome);
        }
    }

    /// Whether `path`, as the line's shell would open it after the `cd`s before it, names
    /// one of its descriptors ([`is_descriptor_path`]): after `cd /dev/fd`, `3` is
    /// `/dev/fd/3`; after a `cd` that cannot be followed, a relative `3` or `stdout` may be;
    /// a link the host resolved to one is one.
    fn is_descriptor(&self, path: &str) -> bool {
        self.opens(path, is_descriptor_path)
    }

    /// Whether a program reading `path` takes what is not on the line: a descriptor or a
    /// terminal ([`is_input_path`]: `/dev/tty`), read as [`Analysis::is_descriptor`] reads it.
    fn is_input(&self, path: &str) -> bool {
        self.opens(path, is_input_path)
    }

    /// Whether `path`, as the line's shell would open it after the `cd`s before it, is one
    /// that `names` accepts (see [`Analysis::is_descriptor`]).
    fn opens(&self, path: &str, names: fn(&str) -> bool) -> bool {
        // A link to one (`lstd -> /dev/stdin`), as the host resolved it.
        if names(path) || self.rules.resolved(path).is_some_and(|real| names(&real)) {
            return true;
        }
        if path.starts_with('/') {
            return false;
        }
        match &self.dir {
            Dir::Start => false,
            Dir::Known(d) => names(&format!("{}/{path}", d.trim_end_matches('/'))),
            Dir::Unknown => names(&format!("/dev/{path}")) || names(&format!("/dev/fd/{path}")),
        }
    }

    /// Notes the descriptor paths among a command's words (`cat /dev/stderr`,
    /// `--file=/dev/stdin`): read, and also written by a command that is not read-only.
    fn note_descriptor_words(&mut self, core: &[Word], read_only: bool) {
        for w in core.iter().skip(1).filter(|w| w.dynamic.is_none()) {
            let v = w.value.as_str();
            let value = v.split_once('=').map_or(v, |(_, value)| value);
            for p in [v, value] {
                if self.is_descriptor(p) {
                    self.reopened.read(p);
                    if !read_only {
                        self.reopened.write(p);
                    }
                }
            }
        }
    }

    /// A rule look-up, spending the line's budget; `None` once the budget is spent.
    pub(crate) fn lookup(&self, list: RuleList, words: &[String]) -> Option<Reason> {
        if !self.spend(words) {
            return None;
        }
        self.rules.match_command(list, words)
    }

    /// Takes the cost of a look-up of `words` from the line's budget: `false` (and the
    /// budget spent) when it does not cover it.
    fn spend(&self, words: &[String]) -> bool {
        let left = self.budget.get();
        let cost = words.len().max(1);
        if left < cost {
            self.budget.set(0);
            return false;
        }
        self.budget.set(left - cost);
        true
    }

    /// Whether a command of the line may have made links
    /// ([`super::writes::Writes::may_make_links`]).
    pub(crate) fn links_made(&self) -> bool {
        self.links_made
    }

    /// Judges every command as one that may run after links were made.
    pub(crate) fn assume_links(&mut self) {
        self.links_made = true;
    }

    /// Whether the look-up budget ran out (some checks were skipped).
    pub(crate) fn exhausted(&self) -> bool {
        self.budget.get() == 0
    }

    /// Checks what can be read of a line outside the analysed subset ([`salvage::scan`]),
    /// with the line's look-up budget, and keeps each piece a rule or critical path caught.
    pub(crate) fn salvage(&mut self, line: &str) {
        let found = salvage::scan(line, self.rules, &|list, words| self.lookup(list, words));
        for (piece, outcome) in found {
            self.push(piece, outcome);
        }
    }

    pub(crate) fn push(&mut self, text: &str, outcome: Outcome) {
        self.parts.push(Part {
            text: text.trim().to_owned(),
            outcome,
        });
    }

    /// Parses and judges `line`, which bash, zsh or a POSIX shell may run ([`Dialect::ANY`]:
    /// the request does not say which shell the host runs it with); a line outside the
    /// analysed subset is unanalysable, but deny rules, ask rules and critical paths are
    /// still checked on what can be read. Returns the parsed commands (`None` for a line
    /// outside the subset), for callers that read the line further.
    pub(crate) fn line(&mut self, line: &str, depth: usize) -> Option<Vec<Simple>> {
        self.line_as(line, depth, Dialect::ANY)
    }

    /// [`Analysis::line`] for a line the shells of `dialect` may run.
    fn line_as(&mut self, line: &str, depth: usize, dialect: Dialect) -> Option<Vec<Simple>> {
        match parse_as(line, depth, dialect) {
            Ok(commands) => {
                for c in &commands {
                    self.simple(c, depth);
                }
                Some(commands)
            }
            Err(e) => {
                self.salvage(line);
                self.push(line, unanalysable(e.why));
                None
            }
        }
    }

    fn simple(&mut self, cmd: &Simple, depth: usize) {
        for r in &cmd.redirs {
            self.redirection(r);
        }
        // A here-string fed to a shell or `source` is a script: deny rules apply to it.
        let name = cmd.words.first().map_or("", |w| program_name(&w.value));
        if SHELLS.contains(&name) || matches!(name, "." | "source" | "eval" | "xargs") {
            for r in cmd
                .redirs
                .iter()
                .filter(|r| r.kind == RedirKind::HereString)
            {
                self.salvage(&r.target.value);
            }
        }
        if cmd.words.is_empty() {
            if let Some(a) = cmd.assigns.iter().find(|a| !is_harmless(a)) {
                let why = format!("sets `{}`, which changes what later commands do", a.name);
                self.push(&cmd.text, unanalysable(why));
            } else if !cmd.assigns.is_empty() {
                self.push(&cmd.text, Outcome::ReadOnly);
            }
            return;
        }
        let blocked = cmd
            .assigns
            .iter()
            .find(|a| !is_harmless(a))
            .map(|a| match a.value.dynamic {
                Some(why) => format!("`{}` is only known at run time ({why})", a.value.raw),
                None if HARMLESS_VARIABLES.contains(&a.name.as_str()) => format!(
                    "sets `{}` to `{}`, a value that names a file (only plain names such as \
                     `C.UTF-8` or `Europe/Paris` are harmless)",
                    a.name, a.value.value
                ),
                None => format!(
                    "sets `{}`, which is not a harmless variable (such as `NODE_ENV`, `CI`, `LANG`)",
                    a.name
                ),
            });
        if let Some(outcome) = self.command(&cmd.text, &cmd.words, blocked, depth) {
            self.push(&cmd.text, outcome);
        }
    }

    fn redirection(&mut self, r: &Redir) {
        let target = r.target.value.as_str();
        let stream = r.target.dynamic.is_none() && STANDARD_STREAMS.contains(&target);
        if self.links_made && !stream && !matches!(r.kind, RedirKind::Other | RedirKind::HereString)
        {
            let outcome = self.linked_outcome();
            if !matches!(outcome, Outcome::ReadOnly) {
                self.push(
                    &format!("{} (after a command that may make links)", r.text),
                    outcome,
                );
            }
        }
        if r.target.dynamic.is_none() {
            match r.kind {
                RedirKind::Write if self.is_descriptor(target) => self.reopened.write(target),
                RedirKind::Read if self.is_descriptor(target) => self.reopened.read(target),
                RedirKind::ReadWrite if self.is_descriptor(target) => {
                    self.reopened.read(target);
                    self.reopened.write(target);
                }
                RedirKind::Write | RedirKind::Read | RedirKind::ReadWrite
                    if !STANDARD_STREAMS.contains(&target) =>
                {
                    self.redirected.push((r.clone(), self.dir.clone()));
                }
                _ => {}
            }
        }
        let outcome = match r.kind {
            RedirKind::Other => return,
            // A here-string is data, but its expansions run: `${b[_]}` evaluates `$_` as an
            // arithmetic subscript, which runs the command substitutions it holds. Only a
            // word whose value is known (a glob stays literal here) is harmless.
            RedirKind::HereString => match r.target.dynamic {
                Some(why) if r.target.beyond_glob => unanalysable(format!(
                    "the here-string `{}` is only known at run time ({why})",
                    r.target.raw
                )),
                _ => return,
            },
            RedirKind::Write => {
                if r.target.dynamic.is_none() && STANDARD_STREAMS.contains(&r.target.value.as_str())
                {
                    return;
                }
                self.path_outcome(&r.target, |p| self.rules.write_outcome(p))
            }
            RedirKind::Read => self.path_outcome(&r.target, |p| self.rules.read_outcome(p)),
            RedirKind::ReadWrite => self.path_outcome(&r.target, |p| {
                stricter(self.rules.read_outcome(p), self.rules.write_outcome(p))
            }),
        };
        self.push(&r.text, outcome);
    }

    /// Judges a path with `judge`, also as seen from a directory a `cd` moved to.
    fn path_outcome(&self, word: &Word, judge: impl Fn(&str) -> Outcome) -> Outcome {
        if let Some(why) = word.dynamic {
            return unanalysable(format!(
                "path `{}` is only known at run time ({why})",
                word.raw
            ));
        }
        let path = word.as_path();
        let first = judge(&path);
        let relative = !path.starts_with('/') && !path.starts_with('~');
        match (&self.dir, relative) {
            (Dir::Known(d), true) => stricter(first, judge(&format!("{d}/{path}"))),
            (Dir::Unknown, true) => stricter(
                first,
                unanalysable("a `cd` moved to a directory that cannot be read"),
            ),
            _ => first,
        }
    }

    /// [`Analysis::path_outcome`] of `word` named from `dir` ([`BaseDir::place`]); a read
    /// below `/` when the directory is only known at run time.
    fn placed_outcome(
        &self,
        dir: &BaseDir,
        word: &Word,
        judge: impl Fn(&str) -> Outcome,
    ) -> Outcome {
        match dir.place(word) {
            Some(w) => self.path_outcome(&w, judge),
            None => self.rules.read_below_outcome("/"),
        }
    }

    /// [`Analysis::lookup`] of one deny form, with its canonical form when known.
    fn lookup_probe(&self, list: RuleList, probe: &Probe) -> Option<Reason> {
        let words = &probe.words;
        if !self.spend(words) {
            return None;
        }
        match &probe.canonical {
            Some(c) => self.rules.match_command_canonical(list, words, c),
            None => self.rules.match_command(list, words),
        }
    }

    /// The first rule of `list` matching a deny form of one of the forms, in order, while
    /// the budget lasts.
    fn first_rule(&self, list: RuleList, probes: &mut Probes<'_>) -> Option<Reason> {
        for i in 0..probes.forms.len() {
            if self.exhausted() {
                return None;
            }
            let found = probes.of(i).iter().find_map(|p| self.lookup_probe(list, p));
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// Judges one command; `None` when it adds no part of its own (`bash -c` whose script
    /// was judged part by part).
    fn command(
        &mut self,
        text: &str,
        words: &[Word],
        blocked: Option<String>,
        depth: usize,
    ) -> Option<Outcome> {
        let values: Vec<String> = words.iter().map(|w| w.value.clone()).collect();
        let mut forms = vec![values.clone()];
        let mut start = 0;
        // A wrapper or shell named by a path outside the system directories (`./timeout`,
        // `./bash -c`) is whatever that file is: what it wraps is still judged against deny
        // and ask rules, but never allowed.
        let mut unknown_program = None;
        let kind = loop {
            let rest = values.get(start..).unwrap_or_default();
            let mut kind = classify(rest);
            if matches!(kind, Kind::Plain) {
                // `NICE rm -rf x`, `SUDO rm`, `BASH -c '...'`: on a case-insensitive file
                // system these are the wrapper, runner or shell of the name in lower case,
                // so what they run meets the deny and ask rules; they are never allowed.
                if let Some((first, folded)) = folded_program(rest) {
                    let folded_kind = classify(&folded);
                    if !matches!(folded_kind, Kind::Plain) {
                        kind = folded_kind;
                        unknown_program = unknown_program.or_else(|| {
                            Some(format!(
                                "`{first}` is `{}` spelled in another case; toolgate does not know what it does",
                                program_name(first).to_lowercase()
                            ))
                        });
                    }
                }
            }
            if let (Some(first), Kind::Wrapper(_) | Kind::ShellScript(_)) = (rest.first(), &kind) {
                if !commands::in_system_directory(first) && unknown_program.is_none() {
                    unknown_program = Some(format!(
                        "`{first}` is not the `{}` of a system directory; toolgate does not know \
                         what it does",
                        program_name(first)
                    ));
                }
            }
            match kind {
                Kind::Wrapper(n) => {
                    start += n;
                    let rest = values.get(start..).unwrap_or_default();
                    if rest.is_empty() {
                        break Kind::Plain;
                    }
                    if forms.len() < MAX_WRAPPER_FORMS {
                        forms.push(rest.to_vec());
                    }
                }
                k => break k,
            }
        };
        if start > 0 {
            // The wrapped command itself, however many wrappers there were.
            forms.push(values.get(start..).unwrap_or_default().to_vec());
        }
        let core_words = words.get(start..).unwrap_or_default();
        let core = values.get(start..).unwrap_or_default();
        let effects = match kind {
            Kind::Wrapper(_) | Kind::Plain => commands::effects(core),
            _ => None,
        };
        // Glob words a read-only command reads are judged as reads below their directory;
        // for any other command they stay unanalysable (a glob may become its destination).
        let globs: Vec<usize> = effects
            .iter()
            .filter(|e| e.not_read_only.is_none())
            .flat_map(|e| e.reads.iter().chain(&e.reads_below))
            .filter_map(|t| match t {
                Target::Word { word, offset: 0 } => Some(start + word),
                _ => None,
            })
            .collect();
        let blocked = blocked
            .or(unknown_program)
            .or_else(|| unreadable_except(words, &globs))
            .or_else(|| {
                let sed = core.first().is_some_and(|n| program_name(n) == "sed");
                sed.then(|| commands::sed_cannot_be_judged(core)).flatten()
            });
        match kind {
            Kind::ShellScript(i) => self.shell_script(text, core_words, i, &forms, blocked, depth),
            Kind::Runner { inner } => {
                // `perl -i` also edits its file operands.
                let name = core.first().map_or("", |n| program_name(n)).to_owned();
                self.option_writes(&name, core_words, None);
                let mark = self.parts.len();
                self.runner_payload(core_words, &inner, depth);
                // Parts of the payload only ever make the line stricter.
                let mut payload = self.parts.split_off(mark.min(self.parts.len()));
                payload.retain(|p| rank(&p.outcome) >= STRICT_RANK);
                self.parts.extend(payload);
                for k in 1..core.len().min(MAX_RUNNER_SUFFIXES + 1) {
                    forms.push(core.get(k..).unwrap_or_default().to_vec());
                }
                Some(self.runner(core_words, &inner, &forms, &values, blocked))
            }
            Kind::Wrapper(_) | Kind::Plain => {
                if effects.as_ref().is_none_or(|e| e.not_read_only.is_some()) {
                    // Deny rules also run on every argument suffix of a program not known
                    // to be inert (`make rm -rf x`, `git commit -m x rm -rf y`).
                    for k in 1..core.len().min(MAX_RUNNER_SUFFIXES + 1) {
                        forms.push(core.get(k..).unwrap_or_default().to_vec());
                    }
                }
                Some(self.plain(core_words, &forms, &values, effects, blocked, start > 0))
            }
        }
    }

    fn shell_script(
        &mut self,
        text: &str,
        core_words: &[Word],
        i: usize,
        forms: &[Vec<String>],
        blocked: Option<String>,
        depth: usize,
    ) -> Option<Outcome> {
        let mut probes = Probes::new(forms);
        if let Some(r) = self.first_rule(RuleList::Deny, &mut probes) {
            return Some(Outcome::Denied(r));
        }
        if let Some(r) = self.first_rule(RuleList::Ask, &mut probes) {
            return Some(Outcome::AskRule(r));
        }
        let Some(script) = core_words.get(i) else {
            return Some(unanalysable("the shell's `-c` has no script"));
        };
        if let Some(why) = script.dynamic {
            self.salvage(&script.value);
            return Some(unanalysable(format!(
                "the script of `{text}` is only known at run time ({why})"
            )));
        }
        let shell = core_words.first().map_or("", |w| program_name(&w.value));
        let Some(dialect) = Dialect::of_shell(&shell.to_lowercase()) else {
            self.salvage(&script.value);
            return Some(unanalysable(format!(
                "toolgate reads the scripts of bash, zsh and POSIX shells (`sh`, `dash`, `ash`), \
                 not those of `{shell}`, whose grammar differs"
            )));
        };
        self.line_as(&script.value, depth + 1, dialect);
        let head = core_words.get(..i).unwrap_or_default();
        blocked.or_else(|| unreadable(head)).map(unanalysable)
    }

    fn runner_payload(&mut self, core: &[Word], inner: &Inner, depth: usize) {
        let joined = |from: usize| {
            core.get(from..)
                .unwrap_or_default()
                .iter()
                .map(|w| w.value.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        };
        match inner {
            Inner::Command(i) => {
                let payload = core.get(*i..).unwrap_or_default();
                if !payload.is_empty() {
                    self.payload_command(payload, depth);
                }
            }
            Inner::Script(i) => {
                let script = joined(*i);
                if !script.trim().is_empty() {
                    self.line(&script, depth + 1);
                }
            }
            Inner::ScriptWord(i) => {
                if let Some(w) = core.get(*i) {
                    self.line(&w.value.clone(), depth + 1);
                }
            }
            Inner::FindExec(ranges) => {
                for (from, to) in ranges {
                    let payload = core.get(*from..*to).unwrap_or_default();
                    if !payload.is_empty() {
                        self.payload_command(payload, depth);
                    }
                }
            }
            Inner::None => {}
        }
    }

    fn payload_command(&mut self, payload: &[Word], depth: usize) {
        if depth >= super::parse::MAX_NESTING {
            return;
        }
        let text = payload
            .iter()
            .map(|w| w.raw.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        if let Some(o) = self.command(&text, payload, None, depth + 1) {
            self.push(&text, o);
        }
    }

    fn runner(
        &mut self,
        core: &[Word],
        inner: &Inner,
        forms: &[Vec<String>],
        all: &[String],
        blocked: Option<String>,
    ) -> Outcome {
        let mut probes = Probes::new(forms);
        if let Some(r) = self.first_rule(RuleList::Deny, &mut probes) {
            return Outcome::Denied(r);
        }
        if let Some(r) = self.first_rule(RuleList::Ask, &mut probes) {
            return Outcome::AskRule(r);
        }
        if let (Inner::FindExec(_), Some(c)) = (inner, self.find_delete_critical(core)) {
            return c;
        }
        if let Some(why) = blocked {
            return unanalysable(why);
        }
        let values: Vec<String> = core.iter().map(|w| w.value.clone()).collect();
        for form in [values.as_slice(), all] {
            if let Some(r) = self.lookup(RuleList::Allow, form) {
                if names_exactly(&r, form) {
                    return Outcome::Allowed(r);
                }
            }
        }
        let name = values.first().map_or("", |n| program_name(n));
        unanalysable(format!(
            "`{name}` runs other code, which an allow rule covers only when it names this exact command"
        ))
    }

    fn find_delete_critical(&self, core: &[Word]) -> Option<Outcome> {
        if !core.iter().any(|w| w.value == "-delete") {
            return None;
        }
        core.iter()
            .skip(1)
            .take_while(|w| !w.value.starts_with('-') && w.value != "(" && w.value != "!")
            .find_map(|w| self.critical_path(w))
    }

    fn critical_path(&self, w: &Word) -> Option<Outcome> {
        if w.dynamic.is_some() {
            return None;
        }
        let path = w.as_path();
        let relative = !path.starts_with('/') && !path.starts_with('~');
        let mut candidates = vec![path.clone()];
        if let (Dir::Known(d), true) = (&self.dir, relative) {
            candidates.push(format!("{d}/{path}"));
        }
        candidates
            .into_iter()
            .find(|p| self.rules.is_critical(p))
            .map(|path| Outcome::Critical { path })
    }

    fn plain(
        &mut self,
        core: &[Word],
        forms: &[Vec<String>],
        all: &[String],
        effects: Option<Effects>,
        blocked: Option<String>,
        wrapped: bool,
    ) -> Outcome {
        let values: Vec<String> = core.iter().map(|w| w.value.clone()).collect();
        let name = values
            .first()
            .map_or(String::new(), |n| program_name(n).to_owned());
        if name == "tee" {
            self.tee_writes(core);
        }
        if self.links_made {
            let outcome = self.linked_outcome();
            if !matches!(outcome, Outcome::ReadOnly) {
                self.push(
                    &format!("{} (after a command that may make links)", values.join(" ")),
                    outcome,
                );
            }
        }
        self.option_writes(&name, core, effects.as_ref());
        self.source_from_input(&name, &values);
        self.makefile_from_input(&name, &values);
        // Where the table does not know the whole command (not in it, or not read-only),
        // any word may also be a file it reads, for the deny and ask rules.
        let reads = match &effects {
            Some(e) if e.not_read_only.is_none() => Some(self.judge_reads(&name, core, e)),
            Some(e) => {
                let known = self.judge_reads(&name, core, e);
                Some(
                    self.unknown_program_reads(core, &e.bases, false)
                        .into_iter()
                        .fold(known, stricter),
                )
            }
            // Destroying `.` is a critical path, judged as such below.
            None => self.unknown_program_reads(core, &[], !is_destructive(&name)),
        };
        // A copier or an archiver that follows the links below what it reads, or that reads
        // files its input names.
        let widen = |reads: Option<Outcome>, more: Outcome| {
            Some(match reads {
                Some(r) => stricter(r, more),
                None => more,
            })
        };
        let reads = match crate::commands::follows_links_below(&values) {
            Some(_) => widen(reads, self.followed_reads()),
            None => reads,
        };
        let reads = match crate::commands::reads_listed_files(&values) {
            Some(_) => widen(reads, self.unnamed_reads()),
            None => reads,
        };
        let reads = match self.local_reads(core) {
            Some(more) => widen(reads, more),
            None => reads,
        };
        let blocked = blocked.or_else(|| dashed_git(&name));
        let blocked = blocked.or_else(|| match (&self.dir, name == "git") {
            (_, false) => None,
            (Dir::Start, true) => self.rules.away_from_project().map(|(cwd, project)| {
                format!(
                    "`git` in `{cwd}`, not in the project directory `{project}`, runs the \
                     hooks and configuration of that directory, as after a `cd`"
                )
            }),
            (_, true) => Some(
                "`git` after a `cd` runs the hooks and configuration of that directory".to_owned(),
            ),
        });
        let read_only = effects.as_ref().is_some_and(|e| e.not_read_only.is_none());
        self.note_descriptor_words(core, read_only);
        let runs = effects.as_ref().is_some_and(|e| e.runs)
            || crate::commands::runs_by_option(&values).is_some();
        // An option the table cannot read, or one that writes a file.
        let unjudged = effects.as_ref().and_then(|e| {
            e.unjudged
                .as_ref()
                .map(|why| format!("{why}, and may write, read or run anything"))
                .or_else(|| e.option_writes.clone())
        });
        let outcome = self.plain_outcome(
            core,
            forms,
            all,
            &values,
            &name,
            Judged {
                reads,
                read_only,
                runs,
                unjudged,
            },
            blocked,
            wrapped,
        );
        self.track_directory(core);
        outcome
    }

    /// What the deny and ask rules on reads say of a command the table does not know whole:
    /// any of its words may be a file it reads (`paste config/secrets.json`, `--in=FILE`,
    /// `if=FILE`, `-iFILE`, `-includeFILE`, `curl -d @FILE`), and, for a program not in the table at all
    /// (`unknown`), `.` or `..` a directory it reads whole (`zip -r x.zip .`). Only a rule's
    /// answer counts (the program asks anyway, unless a mode or an allow rule lets it run):
    /// `None` when no rule speaks.
    fn unknown_program_reads(
        &self,
        core: &[Word],
        bases: &[commands::Base],
        unknown: bool,
    ) -> Option<Outcome> {
        let mut found: Option<Outcome> = None;
        let mut paths = Vec::new();
        for (i, w) in core.iter().enumerate().skip(1) {
            if w.dynamic.is_some() {
                continue;
            }
            // Named from where an option moved the program too (`make -C DIR -f FILE`).
            let from = base::directory(core, bases, i);
            for c in commands::danger::file_candidates(&w.value) {
                let part = piece_of(w, c);
                let path = part.as_path();
                // Directories it may read whole: `.` or `..` of an unknown program, and
                // anywhere, from a directory known only at run time.
                let mut below = Vec::new();
                match from.place(&part) {
                    Some(placed) if from != BaseDir::Here => paths.push(placed.as_path()),
                    Some(_) => {}
                    None => below.push("/".to_owned()),
                }
                if unknown && matches!(c.trim_end_matches('/'), "." | "..") {
                    below.push(path);
                } else {
                    paths.push(path);
                }
                for dir in below {
                    match self.rule_below(&dir) {
                        Some(denied @ Outcome::Denied(_)) => return Some(denied),
                        Some(outcome) => found = found.or(Some(outcome)),
                        None => {}
                    }
                }
            }
        }
        // A rule's answer only: the secret-file defaults judge such commands elsewhere (and
        // an allow rule naming the command may pass an upload).
        match self.rules.read_rules_outcome(&paths) {
            Some(Outcome::Denied(r)) if is_rule(&r) => Some(Outcome::Denied(r)),
            Some(Outcome::AskRule(r)) if is_rule(&r) => found.or(Some(Outcome::AskRule(r))),
            _ => found,
        }
    }

    /// What the policy says of the files a command reads through words that are not paths
    /// of their own ([`local_reads`]: curl's `file:` URLs, percent-decoded, its globs and its
    /// config file): a Read rule's deny or ask, and unanalysable when a glob leaves the files
    /// unnamed. `None` when the command reads none, or no rule speaks.
    fn local_reads(&self, core: &[Word]) -> Option<Outcome> {
        let reads = local_reads(core);
        let paths: Vec<String> = reads.files.iter().map(Word::as_path).collect();
        let named = match self.rules.read_rules_outcome(&paths) {
            Some(o @ (Outcome::Denied(_) | Outcome::AskRule(_))) => Some(o),
            _ => None,
        };
        let below = reads
            .below
            .iter()
            .filter_map(|dir| self.rule_below(&dir.as_path()));
        let unknown = reads.unknown.into_iter().map(unanalysable);
        named
            .into_iter()
            .chain(below)
            .chain(unknown)
            .reduce(stricter)
    }

    /// What a rule says of reading every file below `dir`: a rule's deny or ask, or an
    /// unknown; `None` otherwise.
    fn rule_below(&self, dir: &str) -> Option<Outcome> {
        match self.rules.read_below_outcome(dir) {
            Outcome::Denied(r) if is_rule(&r) => Some(Outcome::Denied(r)),
            Outcome::AskRule(r) if is_rule(&r) => Some(Outcome::AskRule(r)),
            o @ Outcome::Unanalysable { .. } => Some(o),
            _ => None,
        }
    }

    /// The strictest judgement of the files a command reads (by its table entry).
    fn judge_reads(&self, name: &str, core: &[Word], e: &Effects) -> Outcome {
        let below = Reading::Below(e.search_filter.as_deref());
        let below = e.reads_below.iter().map(|t| (t, below));
        e.reads
            .iter()
            .map(|t| (t, Reading::File))
            .chain(below)
            .map(|(t, reading)| self.based_read(name, core, &e.bases, *t, reading))
            .chain(e.reads_unnamed.then(|| self.unnamed_reads()))
            .chain(e.follows_links.then(|| self.followed_reads()))
            .fold(Outcome::ReadOnly, stricter)
    }

    /// What the deny and ask rules say of a command after one that may make links: any path
    /// it names may pass through a link made moments before, so a Read, Edit or Write rule
    /// that could match any file makes it ask, naming the rule.
    fn linked_outcome(&self) -> Outcome {
        let write = match self.rules.write_below_outcome("/") {
            Outcome::Denied(r) | Outcome::AskRule(r) if is_rule(&r) => Some(r),
            _ => None,
        };
        let read = match self.unnamed_reads() {
            Outcome::Denied(r) | Outcome::AskRule(r) => Some(r),
            _ => None,
        };
        match read.or(write) {
            Some(r) => Outcome::AskRule(Reason {
                text: format!(
                    "a path it names may pass through a link an earlier command of the line made \
                     (`ln`, `mv`, `cp -a`, an archive, a checkout), and rule `{}` could cover where that leads",
                    rule_name(&r)
                ),
                decider: r.decider,
            }),
            None => Outcome::ReadOnly,
        }
    }

    /// What the Read deny and ask rules say of files reached through links below the
    /// directories a command reads ([`Effects::follows_links`]): they may be anywhere, so a
    /// rule that could match any file makes it ask, naming the rule.
    fn followed_reads(&self) -> Outcome {
        match self.unnamed_reads() {
            Outcome::Denied(r) | Outcome::AskRule(r) => Outcome::AskRule(Reason {
                text: format!(
                    "it follows links below the directories it reads, which may lead to a file \
                     that rule `{}` covers",
                    rule_name(&r)
                ),
                decider: r.decider,
            }),
            other => other,
        }
    }

    /// What the Read deny and ask rules say of files read anywhere, unnamed
    /// ([`Effects::reads_unnamed`]): a rule's deny or ask, else nothing.
    fn unnamed_reads(&self) -> Outcome {
        match self.rules.read_below_outcome("/") {
            Outcome::Denied(r) if is_rule(&r) => Outcome::Denied(r),
            Outcome::AskRule(r) if is_rule(&r) => Outcome::AskRule(r),
            _ => Outcome::ReadOnly,
        }
    }

    /// The paths the host found for the glob word `w` (from the directory a `cd` moved to
    /// too), each judged as a named path read with everything below it: a link among them
    /// is judged by where it leads.
    fn glob_outcome(&self, w: &Word) -> Outcome {
        let Some(pattern) = super::glob::pattern_of(w) else {
            return Outcome::ReadOnly;
        };
        self.globbed_outcome(&pattern, |p| self.rules.read_below_outcome(p))
    }

    /// The strictest `judge` of the paths the host found for the glob `pattern`, from the
    /// directory a `cd` moved to too.
    fn globbed_outcome(&self, pattern: &str, judge: impl Fn(&str) -> Outcome) -> Outcome {
        let mut patterns = vec![pattern.to_owned()];
        if let (Dir::Known(d), false) = (&self.dir, pattern.starts_with('/')) {
            patterns.push(format!(
                "{}/{pattern}",
                super::glob::escape(d.trim_end_matches('/'))
            ));
        }
        patterns
            .iter()
            .flat_map(|p| self.rules.glob_paths(p))
            .map(|p| judge(&p))
            .fold(Outcome::ReadOnly, stricter)
    }

    /// A file read, named from the directory the command's options moved it to before the
    /// word (`tar -C DIR`, `git -C DIR`), and as written: an option's value may be opened
    /// before the move (tar opens `-f` where it starts), so the stricter reading counts. A
    /// directory known only at run time makes it a read below `/`.
    fn based_read(
        &self,
        name: &str,
        core: &[Word],
        bases: &[commands::Base],
        target: Target,
        reading: Reading<'_>,
    ) -> Outcome {
        let index = match target {
            Target::Word { word, .. } => word,
            _ => usize::MAX,
        };
        let here = self.read_target(name, core, target, reading, &BaseDir::Here);
        let anywhere = Reading::Below(None);
        match base::directory(core, bases, index) {
            BaseDir::Here => here,
            BaseDir::Unknown if target != Target::Anywhere => stricter(
                here,
                self.read_target(name, core, Target::Anywhere, anywhere, &BaseDir::Here),
            ),
            BaseDir::Unknown => here,
            dir => stricter(here, self.read_target(name, core, target, reading, &dir)),
        }
    }

    /// What the policy says of reading `target`, a path named from `from`.
    fn read_target(
        &self,
        name: &str,
        core: &[Word],
        target: Target,
        reading: Reading<'_>,
        from: &BaseDir,
    ) -> Outcome {
        let judge = |p: &str| match reading {
            Reading::File => self.rules.read_outcome(p),
            Reading::Below(None) => self.rules.read_below_outcome(p),
            Reading::Below(Some(patterns)) => self.rules.read_below_matching_outcome(p, patterns),
        };
        let w = match target {
            Target::WorkingDirectory => Word {
                raw: ".".to_owned(),
                value: ".".to_owned(),
                ..Word::default()
            },
            // A file it does not name: only a rule's deny or ask counts.
            Target::Fixed(path) => {
                let w = Word {
                    raw: path.to_owned(),
                    value: path.to_owned(),
                    home: path.starts_with('~'),
                    ..Word::default()
                };
                let o = self.placed_outcome(from, &w, judge);
                let by_rule = matches!(&o, Outcome::Denied(r) | Outcome::AskRule(r) if is_rule(r));
                return if by_rule { o } else { Outcome::ReadOnly };
            }
            // Any file: what the rules say of a read below the file system's root.
            Target::Anywhere => Word {
                raw: "/".to_owned(),
                value: "/".to_owned(),
                ..Word::default()
            },
            Target::Word { word, offset } => {
                let Some(w) = core.get(word) else {
                    return unanalysable("a file operand is missing");
                };
                if offset == 0 {
                    if let Some(dir) = w.glob_directory() {
                        let dir = Word {
                            raw: w.raw.clone(),
                            value: dir,
                            ..Word::default()
                        };
                        let judge_below = |p: &str| self.rules.read_below_outcome(p);
                        let below = self.placed_outcome(from, &dir, judge_below);
                        return stricter(below, self.glob_outcome(w));
                    }
                    w.clone()
                } else {
                    part_of(w, w.value.get(offset..).unwrap_or_default())
                }
            }
        };
        let read = self.placed_outcome(from, &w, judge);
        // `git show HEAD:.env` prints a file of the repository. `REV:./x` and `REV:../x`
        // name it from the working directory; `REV:x` from the repository's top, which is
        // the working directory or any parent of it: each reading is judged (a parent's
        // file is outside the working directory), the stricter answer counts. Where the host
        // found the top, and nothing on the line moves git elsewhere, only the top counts.
        const TOP_DEPTH: usize = 32;
        match w.value.rsplit_once(':') {
            Some((_, file)) if name == "git" && !file.is_empty() => {
                let mut out = stricter(read, self.placed_outcome(from, &part_of(&w, file), judge));
                let from_cwd = [".", ".."].contains(&file)
                    || file.starts_with("./")
                    || file.starts_with("../");
                let top = self.git_top_levels(core, from);
                let mut up = String::new();
                for level in 1..=TOP_DEPTH {
                    if from_cwd || matches!(out, Outcome::Denied(_)) {
                        break;
                    }
                    up.push_str("../");
                    if top.is_some_and(|top| level > top) {
                        break;
                    }
                    if top.is_some_and(|top| level < top) {
                        continue;
                    }
                    let parent = part_of(&w, &format!("{up}{file}"));
                    out = stricter(out, self.placed_outcome(from, &parent, judge));
                }
                out
            }
            _ => read,
        }
    }

    /// How many directories above the working directory the top of git's working tree is,
    /// as the host found it ([`crate::Request::git_top`]), for the git command `core` named
    /// from `from`; `None` when a `cd`, an option that moves git (`-C`, `--git-dir`,
    /// `--work-tree`, `--bare`) or the host leaves it unknown.
    fn git_top_levels(&self, core: &[Word], from: &BaseDir) -> Option<usize> {
        let moves = |w: &Word| {
            w.value == "-C"
                || ["--git-dir", "--work-tree", "--bare"]
                    .iter()
                    .any(|o| w.value.starts_with(o))
        };
        if !matches!(self.dir, Dir::Start)
            || !matches!(from, BaseDir::Here)
            || core.iter().any(moves)
        {
            return None;
        }
        self.rules.git_top_levels()
    }

    #[allow(clippy::too_many_arguments)]
    fn plain_outcome(
        &self,
        core: &[Word],
        forms: &[Vec<String>],
        all: &[String],
        values: &[String],
        name: &str,
        judged: Judged,
        blocked: Option<String>,
        wrapped: bool,
    ) -> Outcome {
        let Judged {
            reads,
            read_only,
            runs,
            unjudged,
        } = judged;
        let mut probes = Probes::new(forms);
        if let Some(r) = self.first_rule(RuleList::Deny, &mut probes) {
            return Outcome::Denied(r);
        }
        if let Some(denied @ Outcome::Denied(_)) = &reads {
            return denied.clone();
        }
        if let Some(r) = self.first_rule(RuleList::Ask, &mut probes) {
            return Outcome::AskRule(r);
        }
        if let Some(ask @ Outcome::AskRule(_)) = &reads {
            return ask.clone();
        }
        if let Some(ask) = self.unseen_command_rule(values) {
            return ask;
        }
        // `MV a /` is not known to be `mv` (it keeps its destination among the paths checked).
        if is_destructive(name) {
            if let Some(c) = destroyed(name, core).find_map(|w| self.critical_path(w)) {
                return c;
            }
        }
        if let Some(why) = blocked {
            return unanalysable(why);
        }
        if values.is_empty() {
            return Outcome::NoRule;
        }
        // A read-only command whose reads all pass is `ReadOnly` even when an allow rule also
        // matches it, so that plan mode can tell it from commands that change things.
        if read_only && reads == Some(Outcome::ReadOnly) {
            return Outcome::ReadOnly;
        }
        // A read outside the working directory (or of a path that cannot be known), an
        // option that runs a program, or one the table cannot read, is covered only by an
        // allow rule naming the command exactly.
        let outside = matches!(reads, Some(Outcome::NoRule | Outcome::Unanalysable { .. }));
        let exact_only = outside || runs || unjudged.is_some();
        // An allow rule that does not cover the command is as if it were not there: the
        // command is judged as without it (never more strictly, so that a rule or a
        // remembered answer can only loosen).
        if let Some(r) = self.lookup(RuleList::Allow, values) {
            if !exact_only || names_exactly(&r, values) {
                return Outcome::Allowed(r);
            }
        }
        if wrapped {
            if let Some(r) = self.lookup(RuleList::Allow, all) {
                if names_exactly(&r, all) {
                    return Outcome::Allowed(r);
                }
            }
        }
        if runs {
            return unanalysable(format!(
                "`{name}` is given an option or a subcommand that runs a program, which an allow rule covers only when it names this exact command"
            ));
        }
        match reads {
            Some(r @ (Outcome::NoRule | Outcome::Unanalysable { .. })) => r,
            Some(r) if read_only => r,
            _ => Outcome::NoRule,
        }
    }

    /// For a command that may run one the line does not show ([`commands::unseen_command`]:
    /// a git alias, a package script), the first deny, then ask, rule on commands: what it
    /// runs may be a command the rule names, so it asks, naming the rule. An allow rule that
    /// names the command exactly lets it be judged as any other.
    fn unseen_command_rule(&self, values: &[String]) -> Option<Outcome> {
        let (why, word) = commands::unseen_command(values)?;
        let program = canonical_words(values)
            .into_iter()
            .next()
            .unwrap_or_default();
        let (rule, verb) = match self.rules.first_command_rule(RuleList::Deny, &program) {
            Some(r) => (r, "denies"),
            None => (
                self.rules.first_command_rule(RuleList::Ask, &program)?,
                "asks about",
            ),
        };
        // An allow rule that names the command exactly, or names the hidden command itself
        // (`Bash(npm run test:*)`, `Bash(git p:*)`), covers what the person chose to run.
        // Not when an option picks another package, whose script of that name may be any.
        let named = self
            .lookup(RuleList::Allow, values)
            .is_some_and(|r| names_exactly(&r, values))
            || (!commands::runs_another_package(values)
                && self.rules.allow_naming(values, &word).is_some());
        if named {
            return None;
        }
        let text = match &rule.decider {
            Decider::Rule { rule: name, .. } => format!("{why}, such as one rule `{name}` {verb}"),
            _ => format!("{why}, such as one the policy names: {}", rule.text),
        };
        Some(Outcome::AskRule(Reason {
            text,
            decider: rule.decider,
        }))
    }

    /// Files a command writes through its operands or options (`cp x DEST`, `sort -o F`,
    /// `sed -i`), and directories below which it writes files it does not name (`tar -x`,
    /// `patch`): kept as parts when a deny or ask rule or a protected path catches them, so
    /// an allow rule on the command does not cover them.
    fn option_writes(&mut self, name: &str, core: &[Word], effects: Option<&Effects>) {
        let mut found = writes(core);
        // `ln`, `mv`, `cp -a`, and an archive, a patch or a checkout (the names its input
        // chooses) may make links.
        self.links_made |= found.may_make_links();
        // A compiler's outputs the line does not name (`a.out`, `x.o`, `x.s`), written as
        // `-o FILE` is: through a link already there.
        let implied = implied_outputs(core);
        found.below.extend(implied.below);
        let bases = effects.map_or(&[][..], |e| &e.bases);
        let mut written = std::mem::take(&mut found.files);
        written.extend(implied.files);
        for t in effects.iter().flat_map(|e| &e.writes) {
            if let Target::Word { word, offset } = t {
                if let Some(w) = core.get(*word) {
                    let part = piece_of(w, w.value.get(*offset..).unwrap_or_default());
                    // Named from where the options moved it, and as written (`tar -f`).
                    let placed = base::directory(core, bases, *word).place(&part);
                    if placed.is_none() {
                        found.below.push(part_of(w, "/"));
                    }
                    for p in placed.into_iter().chain([part]) {
                        if !written.iter().any(|x| x.value == p.value) {
                            written.push(p);
                        }
                    }
                }
            }
        }
        // Where the source names some outputs (rustc's codegen units, javac's classes), any
        // entry already in the output directory may be one, and is written through.
        for pattern in unnamed_output_patterns(core) {
            let outcome = self.globbed_outcome(&pattern, |p| {
                if may_be_unnamed_output(p) {
                    self.rules.write_outcome(p)
                } else {
                    Outcome::ReadOnly
                }
            });
            if rank(&outcome) >= STRICT_RANK {
                self.push(&format!("{name} writing into {pattern}"), outcome);
            }
        }
        for dir in &found.below {
            let outcome = self.path_outcome(dir, |p| self.rules.write_below_outcome(p));
            // Nothing short of a rule's deny or ask, or an unknown, passes here: the names
            // are the input's.
            if rank(&outcome) >= rank(&unanalysable("")) {
                self.push(&format!("{name} writing below {}", dir.raw), outcome);
            }
        }
        for w in written {
            if w.dynamic.is_none() && self.is_descriptor(&w.value) {
                self.reopened.write(&w.value);
            }
            if w.dynamic.is_none() && STANDARD_STREAMS.contains(&w.value.as_str()) {
                continue;
            }
            let mut outcome = self.path_outcome(&w, |p| self.rules.write_outcome(p));
            // A moved tree or a link lands its files below the name (`mv stage ~/.config`
            // puts `stage/autostart` at `~/.config/autostart`).
            if found.links && rank(&outcome) < STRICT_RANK {
                let below = self.path_outcome(&w, |p| self.rules.protected_reach(p, Reach::Tree));
                if matches!(below, Outcome::Protected { .. }) {
                    outcome = below;
                }
            }
            // A written file spelt in full that cannot be resolved (`~/.bashrc` with no
            // home known) is not known to be harmless either.
            let unknown = w.dynamic.is_none() && matches!(outcome, Outcome::Unanalysable { .. });
            if rank(&outcome) >= STRICT_RANK || unknown {
                self.push(&format!("{name} {}", w.raw), outcome);
            }
        }
        // A program whose writes the table does not know (`zip OUT`, `openssl -out F`, a
        // runner) may write any file its words name.
        let read_only = effects.is_some_and(|e| e.not_read_only.is_none());
        if !read_only && !knows_writes(core) {
            // A compiler's response file (`gcc @opts`) holds options the line does not show.
            if let Some(w) = response_file(core) {
                let why = format!(
                    "`{}` is a file of more options for `{name}` (an output among them), which \
                     the line does not show",
                    w.raw
                );
                self.push(&format!("{name} {}", w.raw), unanalysable(why));
            }
            for maybe in maybe_written(core) {
                self.unknown_writer_word(name, &maybe);
            }
        }
    }

    /// A compiler's source read from standard input or another descriptor (`gcc -E -x c -`,
    /// `rustc /dev/stdin`, `cpp` alone, [`commands::source_from_input`]) is text the line does
    /// not show, and it names the files the compiler reads (`#include ".env"`,
    /// `include_str!`): unanalysable, as a response file is.
    fn source_from_input(&mut self, name: &str, values: &[String]) {
        let Some(source) = commands::source_from_input(values, |p| self.is_input(p)) else {
            return;
        };
        let why = format!(
            "`{name}` reads a source from standard input or another descriptor (`{source}`), \
             which the line does not show; that source names the files it reads (`#include`, \
             `include_str!`)"
        );
        self.push(&format!("{name} {source}"), unanalysable(why));
    }

    /// A makefile make reads from standard input or another descriptor (`make -f - x`,
    /// `make -f mf x` with `mf` a link to `/dev/stdin`, [`commands::makefile_from_input`])
    /// holds recipes the line carries, which it runs: unanalysable, as `--eval` is.
    fn makefile_from_input(&mut self, name: &str, values: &[String]) {
        let Some(makefile) = commands::makefile_from_input(values, |p| self.is_input(p)) else {
            return;
        };
        let why = format!(
            "`{name}` is given the makefile `{makefile}`, which it reads from standard input or \
             another open descriptor: recipes the line does not show, which it runs"
        );
        self.push(&format!("{name} -f {makefile}"), unanalysable(why));
    }

    /// Judges a word a program of unknown writes may write through ([`maybe_written`]):
    /// kept when an Edit or Write deny or ask rule or a protected path catches it. The
    /// program may write the word, write below it (`rustc --out-dir src`), or compose names
    /// that begin with it (`split IN Mak` writes `Makefile`; `npm --prefix ~/.local` writes
    /// `~/.local/bin`), so a path rule that could match any of those catches it. A bare
    /// word (`build`, `config`, `4` of `-j 4`) may be a subcommand or a value as well as a
    /// file, so it meets only the rules that name a file (not a deny of every edit), and,
    /// as an operand, the protected names other than a bare repository's (`HEAD`,
    /// `config`) by its name alone: an option's value (`-out config`) meets those too. A
    /// word that is not bare meets every rule and also reaches the protected names it may
    /// compose (`gzip -S rc ~/.bash`).
    fn unknown_writer_word(&mut self, name: &str, maybe: &MaybeWritten) {
        let w = &maybe.word;
        if w.dynamic.is_some() || STANDARD_STREAMS.contains(&w.value.as_str()) {
            return;
        }
        let bare = !w.value.contains('/') && !w.value.starts_with(['.', '~']);
        let outcome = if bare {
            // A rule that names the file meets it; a deny of every edit does not (`-p foo`,
            // `-j 4`, `--save-dev eslint` name no file).
            let rule = self.path_outcome(w, |p| self.rules.write_rule_naming(p, Reach::Prefix));
            let protected = self.path_outcome(w, |p| self.rules.write_protected(p));
            stricter(rule, protected)
        } else {
            self.path_outcome(w, |p| self.rules.write_guard(p, Reach::Prefix))
        };
        let counts = match &outcome {
            Outcome::Protected { .. } => maybe.option_value || !is_bare_repository_name(&w.value),
            // A word that cannot be resolved (`~/.bashrc` with no home known) is not known
            // to be harmless either, unless it is bare (`build` with no working directory).
            o @ Outcome::Unanalysable { .. } => !bare || rank(o) >= STRICT_RANK,
            o => rank(o) >= STRICT_RANK,
        };
        if counts {
            self.push(&format!("{name} may write {}", w.raw), outcome);
        }
    }

    /// `tee FILE...` writes its file operands; a lone `-` is a file of that name to GNU tee,
    /// not standard output.
    fn tee_writes(&mut self, core: &[Word]) {
        let mut only_operands = false;
        for w in core.iter().skip(1) {
            if !only_operands && w.value == "--" {
                only_operands = true;
            } else if only_operands || !w.value.starts_with('-') || w.value == "-" {
                if w.dynamic.is_none() && self.is_descriptor(&w.value) {
                    self.reopened.write(&w.value);
                }
                if w.dynamic.is_none() && STANDARD_STREAMS.contains(&w.value.as_str()) {
                    continue;
                }
                let outcome = self.path_outcome(w, |p| self.rules.write_outcome(p));
                self.push(&format!("tee {}", w.raw), outcome);
            }
        }
    }

    /// After `cd DIR`, relative paths are also judged from `DIR` (a `cd` that fails leaves
    /// the line where it was). A second move leaves the directory unknown: either move may
    /// have failed, so the line may run on in any of several directories.
    fn track_directory(&mut self, core: &[Word]) {
        let Some(moved) = directory_move(core) else {
            return;
        };
        self.dir = match (&self.dir, moved) {
            (Dir::Known(_) | Dir::Unknown, _) | (Dir::Start, Move::Unknown) => Dir::Unknown,
            (Dir::Start, Move::Home) => Dir::Known("~".to_owned()),
            (Dir::Start, Move::To(w)) => Dir::Known(w.as_path()),
        };
    }
}

/// Where a directory command ([`DIRECTORY_COMMANDS`]) moves the line ([`directory_move`]).
#[derive(Clone, Copy, Debug)]
pub(super) enum Move<'w> {
    /// To the home directory (`cd` alone).
    Home,
    /// To the directory the word names.
    To(&'w Word),
    /// Somewhere the words do not name.
    Unknown,
}

/// The commands that move the directory of the rest of the line: `cd`, zsh's `chdir` (the
/// same builtin), `pushd` and `popd`.
pub(super) const DIRECTORY_COMMANDS: &[&str] = &["cd", "chdir", "pushd", "popd"];

/// The options of `cd` in bash (`-L`, `-P`, `-e`, `-@`) and zsh (`-s`, `-q`); `pushd`
/// also takes `-n` (push without moving).
const CD_OPTION_LETTERS: &str = "LPe@sq";
const PUSHD_OPTION_LETTERS: &str = "LPe@sqn";

/// How the command `words` moves the directory of the rest of the line, as every shell
/// that may read the line (bash, dash, zsh) would take it; `None` when it is not one of
/// [`DIRECTORY_COMMANDS`]. Only a move to one directory the line names is followed: zsh reads
/// `cd OLD NEW` as `$PWD` with `OLD` replaced by `NEW` and `cd +N`/`cd -N` as entries of
/// its directory stack, `cd -` goes back to `$OLDPWD`, `popd` and `pushd` without one
/// directory move along the stack, and a word known only at run time names no directory.
pub(super) fn directory_move(words: &[Word]) -> Option<Move<'_>> {
    let (name, args) = words.split_first()?;
    let (letters, alone) = match program_name(&name.value) {
        "cd" | "chdir" => (CD_OPTION_LETTERS, Move::Home),
        "pushd" => (PUSHD_OPTION_LETTERS, Move::Unknown),
        "popd" => return Some(Move::Unknown),
        _ => return None,
    };
    Some(match directory_operands(args, letters).as_deref() {
        Some([]) => alone,
        Some([w]) if names_a_directory(w) => Move::To(w),
        _ => Move::Unknown,
    })
}

/// The operands of a directory command after its options (each a cluster of `letters`,
/// up to `--` or the first operand); `None` for any other option word (`cd -3`).
fn directory_operands<'w>(args: &'w [Word], letters: &str) -> Option<Vec<&'w Word>> {
    let mut rest = args.iter().peekable();
    while let Some(w) = rest.next_if(|w| w.value.starts_with('-') && w.value != "-") {
        if w.value == "--" {
            break;
        }
        if w.dynamic.is_some() || !w.value.chars().skip(1).all(|c| letters.contains(c)) {
            return None;
        }
    }
    Some(rest.collect())
}

/// Whether a directory command's only operand names one directory, in every shell:
/// known before the line runs, not empty, and neither `-` (`$OLDPWD`) nor a stack entry
/// (`+N`, `-N` in zsh).
fn names_a_directory(w: &Word) -> bool {
    w.dynamic.is_none() && !w.value.is_empty() && !w.value.starts_with(['-', '+'])
}

/// What the table says of a plain command, as judged.
struct Judged {
    /// The strictest judgement of the files it reads, when it is in the table.
    reads: Option<Outcome>,
    /// It is read-only by the table.
    read_only: bool,
    /// An option makes it run a program.
    runs: bool,
    /// Why an allow rule covers it only when it names it exactly: an option the table
    /// cannot read ([`Effects::unjudged`]) or one that writes ([`Effects::option_writes`]).
    unjudged: Option<String>,
}

/// The operands a destructive command destroys: all of them, except the destination of
/// `mv` (the last operand, unless `-t DIR` names it), which is only moved into.
fn destroyed<'w>(name: &str, core: &'w [Word]) -> impl Iterator<Item = &'w Word> {
    let mut only_operands = false;
    let mut target_flag = false;
    let mut operands = Vec::new();
    for w in core.iter().skip(1) {
        if !only_operands && w.value == "--" {
            only_operands = true;
        } else if !only_operands && w.value.starts_with('-') {
            target_flag |= w.value == "-t" || w.value.starts_with("--target-directory");
        } else {
            operands.push(w);
        }
    }
    if name == "mv" && !target_flag && operands.len() > 1 {
        operands.pop();
    }
    operands.into_iter()
}

fn is_harmless(a: &super::parse::Assign) -> bool {
    a.value.dynamic.is_none() && is_harmless_assignment(&a.name, &a.value.value)
}

/// `words` with its program's name in lower case, and the first word as written, when
/// the name has a capital (`NICE`, `/usr/bin/Sudo`).
fn folded_program(words: &[String]) -> Option<(&str, Vec<String>)> {
    let first = words.first()?;
    let name = program_name(first);
    if !name.chars().any(char::is_uppercase) {
        return None;
    }
    let mut folded = words.to_vec();
    if let Some(w) = folded.first_mut() {
        *w = name.to_lowercase();
    }
    Some((first.as_str(), folded))
}

/// Whether a rule of the policy (not a built-in default) decided.
fn is_rule(reason: &Reason) -> bool {
    matches!(reason.decider, Decider::Rule { .. })
}

/// Whether the allow rule that matched names exactly `words` (no wildcard), as runners
/// require.
/// The rule a reason names, or nothing.
fn rule_name(reason: &Reason) -> &str {
    match &reason.decider {
        Decider::Rule { rule, .. } => rule,
        _ => "",
    }
}

fn names_exactly(reason: &Reason, words: &[String]) -> bool {
    let Decider::Rule { rule, .. } = &reason.decider else {
        return false;
    };
    let (Some(open), Some(close)) = (rule.find('('), rule.rfind(')')) else {
        return false;
    };
    let Some(spec) = rule.get(open + 1..close) else {
        return false;
    };
    if spec.contains('*') {
        return false;
    }
    let spec: Vec<String> = spec.split_whitespace().map(str::to_owned).collect();
    canonical_words(&spec) == canonical_words(words)
}

/// Why a program named `git-SUB` (`git-push`, `/usr/lib/git-core/git-reset`) cannot be
/// judged: it is git's own program for `git SUB` (or a command git runs as `git SUB`,
/// such as `git-lfs`), which toolgate reads, with its rules and danger classes, only in
/// the spelling `git SUB`. It asks in every mode, so that a deny rule on `git SUB` is not
/// stepped around.
fn dashed_git(name: &str) -> Option<String> {
    // In any case: a case-insensitive file system runs `GIT-PUSH` as `git-push`.
    let lower = name.to_ascii_lowercase();
    let sub = lower.strip_prefix("git-").filter(|s| !s.is_empty())?;
    Some(format!(
        "`{name}` is git's program for `git {sub}`, which toolgate judges only when run as `git {sub}`"
    ))
}

/// How a command reads a path it names: the file itself, or every file below it, narrowed to
/// the names that one of the globs matches when there are some ([`Effects::search_filter`]).
#[derive(Clone, Copy)]
enum Reading<'a> {
    File,
    Below(Option<&'a [String]>),
}
