//! Reading a command's words with its table entry: which words are options (resolved to the
//! full option, whatever the spelling), which are operands, and what each one does.

use super::spec::{Operands, OptionSpec, Program, Role, Syntax};
use super::{find, git_config, jq, ref_format, sed};

/// A file a command names: the value of word `word` from byte `offset` on
/// (`--file=F` is word 1 from offset 7), or the working directory the command reads by
/// default (`grep -r foo`, `rg foo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The tail of one word.
    Word {
        /// Index of the word in the command's words.
        word: usize,
        /// Byte offset of the value in that word.
        offset: usize,
    },
    /// The working directory, read without being named.
    WorkingDirectory,
    /// Any file on the machine: the names come from a list the command reads (`sort
    /// --files0-from=F`, `tar -T F`) or from the repository's top (`git diff -- ':(top)x'`).
    Anywhere,
    /// A file the command reads without naming it, always the same one (`git remote -v`
    /// reads `.git/config` and `~/.gitconfig`): only the Read deny and ask rules judge it,
    /// so a read outside the project is, by itself, no reason to ask.
    Fixed(&'static str),
}

impl Target {
    pub(crate) fn whole(word: usize) -> Target {
        Target::Word { word, offset: 0 }
    }
}

/// A directory a command moves to before it reads or writes the words after one of its
/// options ([`super::Role::Directory`]: `tar -C DIR`, `git -C DIR`): a relative path among
/// the words after word `after` is named from `dir`, and a relative `dir` is itself below
/// the directory of the base before it.
///
/// ```
/// use toolgate::commands::{effects, Base, Target};
/// let words: Vec<String> = "tar -cf - -C /srv a".split(' ').map(String::from).collect();
/// let e = effects(&words).unwrap();
/// assert_eq!(e.bases, [Base { after: 4, dir: Target::Word { word: 4, offset: 0 } }]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Base {
    /// The index of the word that holds the directory: the words after it are moved.
    pub after: usize,
    /// The directory.
    pub dir: Target,
}

/// What one command does, as the table says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    /// Files it reads.
    pub reads: Vec<Target>,
    /// Directories below which it reads every file (recursive searches).
    pub reads_below: Vec<Target>,
    /// Files it writes.
    pub writes: Vec<Target>,
    /// Why it is not read-only, when it is not: an unknown option or subcommand, an option
    /// that writes, runs a program or changes something.
    pub not_read_only: Option<String>,
    /// An option makes it run a program (`sort --compress-program`, `git grep -O`): it is a
    /// runner, which an allow rule covers only when it names the command exactly.
    pub runs: bool,
    /// It reads files it does not name, which may be anywhere (`git config KEY` reads
    /// `~/.gitconfig`, `/etc/gitconfig` and the files they include): a Read deny or ask rule
    /// that could match any file stops it, while reading outside the project is, by itself,
    /// no reason to ask.
    pub reads_unnamed: bool,
    /// Why the scan could not read every option: one the entry does not list, or a prefix it
    /// does not resolve (git takes `--ext-dif` for `--ext-diff`). Such an option may be one
    /// that writes, reads or runs, so an allow rule covers the command only when it names it
    /// exactly. Entries that list only `--version` (`cargo`, `make`) do not set it: any other
    /// use of them is theirs to judge.
    pub unjudged: Option<String>,
    /// An option makes it write a file (`sort -o F`, `git log --output=F`, `tree -o F`):
    /// writing is not what a person allowing the program expects, so an allow rule covers
    /// the command only when it names it exactly (the write also meets the Edit and Write
    /// rules and the protected paths).
    pub option_writes: Option<String>,
    /// It follows symbolic links below the directories it reads (`grep -R`, `rg -L`,
    /// `diff` on directories): the files it opens may be anywhere, so a Read deny or ask rule
    /// that could match any file makes it ask.
    pub follows_links: bool,
    /// The directories it moves to, in order, before it names the words after them
    /// (`tar -C DIR`, `git -C DIR`): its reads and writes of relative paths are below them.
    pub bases: Vec<Base>,
    /// The globs that the files it opens below [`Effects::reads_below`] match (relative to
    /// each directory, `**/NAME` for a name at any depth), from options such as `grep
    /// --include` ([`super::spec::NameFilter`]); `None` when it opens every file there.
    pub search_filter: Option<Vec<String>>,
}

impl Effects {
    fn block(&mut self, why: impl Into<String>) {
        if self.not_read_only.is_none() {
            self.not_read_only = Some(why.into());
        }
    }

    /// An option the table cannot read ([`Effects::unjudged`]).
    pub(crate) fn unknown_option(&mut self, program: &Program, why: String) {
        if program.operands != Operands::OnlyTheOption && self.unjudged.is_none() {
            self.unjudged = Some(why.clone());
        }
        self.block(why);
    }
}

/// The state of one scan.
struct Scan<'w> {
    words: &'w [String],
    program: &'static Program,
    specs: Vec<OptionSpec>,
    effects: Effects,
    operands: Vec<usize>,
    pattern_given: bool,
    recursive: bool,
    /// Values of [`Role::Archive`] options.
    archives: Vec<Target>,
    /// An option said archive names with a `:` are local ([`Role::LocalArchive`]).
    local_archives: bool,
    /// An option makes the recursive reads follow symbolic links ([`Role::Follows`]), and
    /// whether another keeps them unfollowed ([`Role::NoFollow`]).
    follows: Option<String>,
    no_follow: bool,
    /// An option reads the whole working tree when no pathspec is given ([`Role::WholeTree`]).
    whole_tree: bool,
    /// The index of the first word after the program's name.
    from: usize,
    /// The options given, in order, with their values.
    used: Vec<(OptionSpec, Option<Target>)>,
    /// An option made the operands patterns of names listed ([`Role::ListsPatterns`]).
    lists_patterns: bool,
    /// The index of the `--` that ended the options, when one did.
    dash_dash: Option<usize>,
}

/// Reads `words` (the whole command) from index `from` with `program`'s entry.
pub(crate) fn scan(program: &'static Program, words: &[String], from: usize) -> Effects {
    let specs: Vec<OptionSpec> = program.option_specs().collect();
    let mut s = Scan {
        words,
        program,
        effects: Effects::default(),
        operands: Vec::new(),
        pattern_given: false,
        recursive: program.recursive || program.follows_below,
        archives: Vec::new(),
        local_archives: false,
        follows: program
            .follows_below
            .then(|| "given a directory".to_owned()),
        no_follow: false,
        whole_tree: false,
        from,
        specs,
        used: Vec::new(),
        lists_patterns: false,
        dash_dash: None,
    };
    if s.specs.len() != program.option_lines().count() {
        s.effects.block(format!(
            "the table entry of `{}` does not read",
            program.name
        ));
        return s.effects;
    }
    if prints_alone(program, words, from) {
        return s.effects;
    }
    s.effects.reads_unnamed |= program.reads_unnamed;
    if let Some(why) = program.runs {
        s.effects.runs = true;
        s.effects.block(why);
        return s.effects;
    }
    if let Some(why) = program.changes {
        s.effects.block(why);
    }
    if program.operands == Operands::Find {
        return find::scan(words, from);
    }
    if program.response_files {
        s.response_files(from);
    }
    if let Some(default) = default_subcommand(program, words, from) {
        return s.enter(default, from);
    }
    let posix = matches!(program.syntax, Syntax::Posix | Syntax::FirstLetter)
        || !program.subcommands.is_empty();
    let mut i = from;
    let mut only_operands = program.syntax == Syntax::NoOptions;
    while let Some(w) = words.get(i) {
        i += 1;
        if only_operands || w == "-" || !w.starts_with('-') {
            s.operands.push(i - 1);
            if posix {
                only_operands = true;
            }
            if !program.subcommands.is_empty() {
                return s.subcommand(i - 1);
            }
            continue;
        }
        if w == "--" && !only_operands {
            only_operands = true;
            s.dash_dash = Some(i - 1);
            continue;
        }
        i = if program.syntax == Syntax::FirstLetter {
            s.first_letter(i - 1)
        } else if w.starts_with("--") {
            s.long(i - 1)
        } else {
            s.short(i - 1)
        };
    }
    if !program.subcommands.is_empty() && program.name != "git" {
        // `git` alone prints its usage; `git stash` alone stashes.
        s.effects
            .block(format!("`{}` needs a subcommand", program.name));
        return s.effects;
    }
    s.remote_archives();
    s.variable_names();
    if let (Some(shown), false) = (&s.follows, s.no_follow) {
        let why = format!(
            "`{}` {shown} follows symbolic links below the directories it reads, which can lead out of them",
            program.name
        );
        s.effects.block(why);
        s.effects.follows_links = true;
    }
    if s.lists_names() {
        s.listed_directories();
        return s.effects;
    }
    s.operands();
    if s.effects.search_filter.is_none() && !s.effects.reads_below.is_empty() {
        s.effects.search_filter = s.name_globs();
    }
    s.effects
}

/// The globs of names at any depth (`**/*.ts`) that the glob `glob` of a name filter stands
/// for: its brace alternatives when `braces`. `None` when it cannot be read safely as a
/// name: empty, with a `/` (anchored differently by each program), a class (`[`), an escape
/// or a `!`, or braces where they are characters.
///
/// ```text
/// name_glob("*.ts", false)       -> Some(["**/*.ts"])
/// name_glob("*.{ts,tsx}", true)  -> Some(["**/*.ts", "**/*.tsx"])
/// name_glob("*.{ts,tsx}", false) -> None
/// name_glob("src/*.ts", true)    -> None
/// ```
fn name_glob(glob: &str, braces: bool) -> Option<Vec<String>> {
    let unreadable = glob.is_empty()
        || glob.contains(['/', '[', ']', '\\', '!'])
        || (!braces && glob.contains(['{', '}']));
    if unreadable {
        return None;
    }
    let alternatives = crate::policy::expand_braces(glob)?;
    Some(alternatives.iter().map(|g| format!("**/{g}")).collect())
}

/// The subcommand the words go to when the first of them is an option or there is none
/// ([`Program::default_subcommand`]: `git reflog -n 5`).
fn default_subcommand(
    program: &'static Program,
    words: &[String],
    from: usize,
) -> Option<&'static Program> {
    let name = program.default_subcommand?;
    words
        .get(from)
        .is_none_or(|w| w.starts_with('-'))
        .then(|| program.subcommands.iter().find(|p| p.is_named(name)))
        .flatten()
}

/// Whether the command is one of the program's [`super::spec::Listing::alone`] options and nothing else
/// (`rg --version`): it reads no file.
fn prints_alone(program: &Program, words: &[String], from: usize) -> bool {
    let alone = program.listing.map_or(&[][..], |l| l.alone);
    words.len() == from + 1 && words.get(from).is_some_and(|w| alone.contains(&w.as_str()))
}

impl Scan<'_> {
    fn name(&self) -> &'static str {
        self.program.name
    }

    /// `--name`, `--name=value`, `--name value`; returns the index of the next word.
    fn long(&mut self, at: usize) -> usize {
        let word = self.words.get(at).map_or("", String::as_str);
        let body = word.get(2..).unwrap_or_default();
        let (name, attached) = match body.split_once('=') {
            Some((n, _)) => (n, Some(2 + n.len() + 1)),
            None => (body, None),
        };
        let found = self.resolve_long(name);
        let Some(spec) = found else {
            let why = format!(
                "`{}` option `--{name}` is not known to be read-only",
                self.name()
            );
            self.effects.unknown_option(self.program, why);
            return at + 1;
        };
        let mut next = at + 1;
        let value = match (spec.values, attached) {
            (0, Some(_)) => {
                self.effects.block(format!(
                    "`{}` option `--{name}` takes no value",
                    self.name()
                ));
                return next;
            }
            (0, None) => None,
            (_, Some(offset)) => Some(Target::Word { word: at, offset }),
            (_, None) if spec.optional => None,
            (_, None) => {
                next += 1;
                Some(Target::whole(at + 1))
            }
        };
        let value = if spec.values == 2 {
            next += 1;
            Some(Target::whole(next - 1))
        } else {
            value
        };
        if spec.values > 0 && !spec.optional && self.value_missing(value) {
            self.effects
                .block(format!("`{}` option `--{name}` has no value", self.name()));
        }
        self.apply(&spec, &format!("--{name}"), value);
        next
    }

    fn value_missing(&self, value: Option<Target>) -> bool {
        match value {
            Some(Target::Word { word, .. }) => self.words.get(word).is_none(),
            _ => true,
        }
    }

    /// The option `--name` stands for: the one spelled so, else (GNU) the one it is a
    /// unique prefix of.
    fn resolve_long(&self, name: &str) -> Option<OptionSpec> {
        if name.is_empty() {
            return None;
        }
        if let Some(exact) = self.specs.iter().find(|s| s.has_long(name)) {
            return Some(exact.clone());
        }
        if matches!(self.program.syntax, Syntax::Git | Syntax::Tree) {
            return None;
        }
        let mut candidates = self
            .specs
            .iter()
            .filter(|s| s.long.iter().any(|l| l.starts_with(name)));
        match (candidates.next(), candidates.next()) {
            (Some(one), None) => Some(one.clone()),
            _ => None,
        }
    }

    /// `-abc`, `-n5`, `-n 5`, `-5`; returns the index of the next word.
    fn short(&mut self, at: usize) -> usize {
        let word = self.words.get(at).map_or("", String::as_str);
        let body = word.get(1..).unwrap_or_default();
        let mut next = at + 1;
        if body.chars().all(|c| c.is_ascii_digit()) && self.specs.iter().any(|s| s.numeric) {
            return next;
        }
        for (pos, c) in body.char_indices() {
            let Some(spec) = self.specs.iter().find(|s| s.short.contains(&c)).cloned() else {
                let why = format!(
                    "`{}` option `-{c}` is not known to be read-only",
                    self.name()
                );
                self.effects.unknown_option(self.program, why);
                return next;
            };
            if spec.values == 0 {
                self.apply(&spec, &format!("-{c}"), None);
                continue;
            }
            if self.program.syntax == Syntax::Tree {
                // Each letter takes the next unused word; the rest of the bundle is letters.
                let value = Target::whole(next);
                next += usize::from(spec.values);
                if self.value_missing(Some(value)) {
                    self.effects
                        .block(format!("`{}` option `-{c}` has no value", self.name()));
                }
                self.apply(&spec, &format!("-{c}"), Some(value));
                continue;
            }
            let offset = 1 + pos + c.len_utf8();
            let value = if offset < word.len() {
                Some(Target::Word { word: at, offset })
            } else if spec.optional {
                None
            } else {
                next += 1;
                Some(Target::whole(at + 1))
            };
            let value = if spec.values == 2 {
                next += 1;
                Some(Target::whole(next - 1))
            } else {
                value
            };
            if !spec.optional && self.value_missing(value) {
                self.effects
                    .block(format!("`{}` option `-{c}` has no value", self.name()));
            }
            self.apply(&spec, &format!("-{c}"), value);
            break;
        }
        next
    }

    /// One option of [`Syntax::FirstLetter`] (`-ps`, `-c8`, `-cols 8`, `--ps`); returns the
    /// index of the next word.
    fn first_letter(&mut self, at: usize) -> usize {
        let word = self.words.get(at).map_or("", String::as_str);
        let skip = if word.starts_with("--") { 2 } else { 1 };
        let body = word.get(skip..).unwrap_or_default();
        let next = at + 1;
        let found = body
            .chars()
            .next()
            .and_then(|c| Some((c, self.specs.iter().find(|s| s.short.contains(&c))?)));
        let Some((c, spec)) = found.map(|(c, s)| (c, s.clone())) else {
            let why = format!(
                "`{}` option `{word}` is not known to be read-only",
                self.name()
            );
            self.effects.unknown_option(self.program, why);
            return next;
        };
        let shown = format!("-{c}");
        if spec.values == 0 {
            self.apply(&spec, &shown, None);
            return next;
        }
        let attached = skip + c.len_utf8();
        let spelled_long = spec.long.iter().any(|l| body.starts_with(l));
        let (value, next) = if attached < word.len() && !spelled_long {
            (
                Target::Word {
                    word: at,
                    offset: attached,
                },
                next,
            )
        } else {
            (Target::whole(next), next + 1)
        };
        if spec.values != 1 || spec.optional || self.value_missing(Some(value)) {
            self.effects
                .block(format!("`{}` option `{word}` has no value", self.name()));
        }
        self.apply(&spec, &shown, Some(value));
        next
    }

    /// Words starting with `@` name response files ([`Program::response_files`]).
    fn response_files(&mut self, from: usize) {
        let name = self.name();
        for (i, w) in self.words.iter().enumerate().skip(from) {
            if w.len() > 1 && w.starts_with('@') {
                self.effects.reads.push(Target::Word { word: i, offset: 1 });
                self.effects.block(format!(
                    "`{name}` reads more arguments from the response file `{w}`"
                ));
            }
        }
    }

    /// Archive names with a `:` before the first `/` are remote ([`Role::Archive`]).
    fn remote_archives(&mut self) {
        if self.local_archives {
            return;
        }
        let remote = self.archives.iter().find_map(|t| {
            let text = self.value_text(Some(*t))?;
            let host = text.split('/').next().unwrap_or_default();
            host.contains(':').then(|| text.to_owned())
        });
        if let Some(text) = remote {
            self.effects.runs = true;
            self.effects.block(format!(
                "`{}` reaches the archive `{text}` on another host by running `rsh`",
                self.name()
            ));
        }
    }

    /// Operands naming a shell variable ([`Program::variable_operators`]).
    fn variable_names(&mut self) {
        let operators = self.program.variable_operators;
        let risky = self.operands.windows(2).find_map(|pair| {
            let (op, name) = (
                self.words.get(*pair.first()?)?,
                self.words.get(*pair.get(1)?)?,
            );
            (operators.contains(&op.as_str()) && name.contains('[')).then(|| name.clone())
        });
        if let Some(name) = risky {
            self.effects.block(format!(
                "`{}` evaluates the subscript of `{name}` as arithmetic, which can run commands",
                self.name()
            ));
        }
    }

    /// Whether the options make the command a listing of names ([`super::spec::Listing::names`]): the
    /// listing option is given, and every other option is one that may go with it.
    fn lists_names(&self) -> bool {
        let Some(listing) = self.program.listing else {
            return false;
        };
        let lists = |(o, _): &(OptionSpec, _)| o.has_long(listing.names);
        let goes_with = |(o, _): &(OptionSpec, _)| listing.names_with.iter().any(|n| o.has_long(n));
        self.used.iter().any(lists) && self.used.iter().all(|o| lists(o) || goes_with(o))
    }

    /// The globs the working tree is read through when every operand `files` (past a
    /// search's pattern) is a pathspec after `--` ending a name (`'*.rs'`), so that none is a
    /// revision: `git diff -- '*.rs'`, `git grep TODO -- '*.ts'`. Without magic, git's `*`
    /// matches `/` too, so `*SUFFIX` matches exactly the paths whose name ends with `SUFFIX`
    /// (`**/*SUFFIX`). `None` for any other operand.
    fn suffix_pathspecs(&self, files: &[usize]) -> Option<Vec<String>> {
        // Not `git cat-file`, whose operands are objects wherever they are.
        let reads_pathspecs = match self.program.operands {
            Operands::GitRevisions => !self.program.recursive,
            Operands::PatternThenFiles => true,
            _ => false,
        };
        let dash_dash = self
            .dash_dash
            .filter(|_| reads_pathspecs && !files.is_empty())?;
        files
            .iter()
            .map(|&i| {
                let suffix = self
                    .words
                    .get(i)
                    .filter(|_| i > dash_dash)?
                    .strip_prefix('*')?;
                let plain = !suffix.is_empty()
                    && !suffix.contains(['*', '?', '[', ']', '\\', '/', '{', '}', '!', ':']);
                plain.then(|| format!("**/*{suffix}"))
            })
            .collect()
    }

    /// Whether a search's operands after its pattern are all pathspecs after a `--`, so that
    /// none of them is a revision (`git grep -n TODO -- src`, not `git grep TODO HEAD`).
    fn only_pathspecs(&self) -> bool {
        let searched = match (self.program.operands, self.pattern_given) {
            (Operands::PatternThenFiles, false) => self.operands.get(1..).unwrap_or_default(),
            (Operands::PatternThenFiles, true) => self.operands.as_slice(),
            _ => return false,
        };
        self.dash_dash
            .is_some_and(|d| !searched.is_empty() && searched.iter().all(|&i| i > d))
    }

    /// The globs its name filter narrows the recursive reads to ([`Effects::search_filter`]):
    /// `None` when it has none, an exclusion comes first, no glob is positive, or one cannot be
    /// read safely.
    fn name_globs(&self) -> Option<Vec<String>> {
        let filter = self.program.name_filter?;
        let named = |o: &OptionSpec, names: &[&str]| names.iter().any(|n| o.has_long(n));
        let first = self
            .used
            .iter()
            .find(|(o, _)| named(o, filter.includes) || named(o, filter.excludes))?;
        if named(&first.0, filter.excludes) {
            return None;
        }
        let mut out = Vec::new();
        for (_, value) in self.used.iter().filter(|(o, _)| named(o, filter.includes)) {
            let glob = self.value_text(*value)?;
            if filter.bang_excludes && glob.starts_with('!') {
                continue;
            }
            out.extend(name_glob(glob, filter.braces)?);
        }
        (!out.is_empty()).then_some(out)
    }

    /// A listing's operands are the directories listed (the working directory with none),
    /// read as `ls` and `find` read theirs; nothing below them is opened.
    fn listed_directories(&mut self) {
        if self.operands.is_empty() {
            self.effects.reads.push(Target::WorkingDirectory);
        }
        let listed = self.operands.iter().map(|&i| Target::whole(i));
        self.effects.reads.extend(listed);
    }

    fn apply(&mut self, spec: &OptionSpec, shown: &str, value: Option<Target>) {
        self.used.push((spec.clone(), value));
        let name = self.name();
        match spec.role {
            Role::Inert => {}
            Role::Reads => self.effects.reads.extend(value),
            Role::PatternFile => {
                self.pattern_given = true;
                self.effects.reads.extend(value);
            }
            Role::ReadsWrites => {
                // Written only with another option (`tar -c`), which the table marks.
                self.effects.reads.extend(value);
                self.effects.writes.extend(value);
            }
            Role::Writes => {
                self.effects.writes.extend(value);
                let why = format!("`{name}` option `{shown}` writes a file");
                self.effects.option_writes.get_or_insert(why.clone());
                self.effects.block(why);
            }
            Role::Runs => {
                self.effects.runs = true;
                self.effects
                    .block(format!("`{name}` option `{shown}` runs a program"));
            }
            Role::Changes => self.effects.block(format!(
                "`{name}` option `{shown}` is not a read-only option"
            )),
            Role::Pattern => self.pattern_given = true,
            Role::SedScript => {
                self.pattern_given = true;
                let script = self.value_text(value);
                if let Err(why) = sed::check_script(script.unwrap_or_default()) {
                    self.effects.block(why);
                }
            }
            Role::Recursive => self.recursive = true,
            Role::PrettyFormat => {
                // `%G?`, `%GS`, `%GK`, `%GG`, `%GF`, `%GP`, `%GT` verify the signature, also
                // with a `+`, `-` or space between (`%+GS`).
                if self.value_text(value).is_some_and(asks_signature) {
                    self.effects.runs = true;
                    self.effects.block(format!(
                        "`{name}` option `{shown}` asks for a signature (`%G`), which runs gpg"
                    ));
                }
            }
            Role::RefFormat | Role::RefSort => {
                let text = self.value_text(value).unwrap_or_default();
                let checked = if spec.role == Role::RefFormat {
                    ref_format::check_format(text)
                } else {
                    ref_format::check_sort_key(text)
                };
                if let Err(why) = checked {
                    self.effects.runs = true;
                    self.effects
                        .block(format!("`{name}` option `{shown}` {why}"));
                }
            }
            Role::LineRangeFile => match (value, self.value_text(value)) {
                (Some(Target::Word { word, offset }), Some(text)) if text.contains(':') => {
                    let at = text.rfind(':').map_or(0, |c| c + 1);
                    self.effects.reads.push(Target::Word {
                        word,
                        offset: offset + at,
                    });
                }
                _ => self.effects.block(format!(
                    "`{name}` option `{shown}` names no file (`START,END:FILE`)"
                )),
            },
            Role::Follows => {
                self.recursive = true;
                self.follows = Some(format!("option `{shown}`"));
            }
            Role::NoFollow => self.no_follow = true,
            Role::WholeTree => self.whole_tree = true,
            Role::ListsPatterns => self.lists_patterns = true,
            Role::RemoteUrls => self
                .effects
                .reads
                .extend(git_config::FILES.iter().map(|f| Target::Fixed(f))),
            Role::ReadsList => {
                // Read as one path too, so that deny rules still see a list of one, and the
                // names in it may be any file.
                self.effects.reads.extend(value);
                self.effects.reads_below.push(Target::Anywhere);
                self.effects.block(format!(
                    "`{name}` option `{shown}` reads a list of files or directories, which toolgate does not analyse"
                ));
            }
            Role::Archive => {
                self.archives.extend(value);
                self.effects.reads.extend(value);
                self.effects.writes.extend(value);
            }
            Role::LocalArchive => self.local_archives = true,
            Role::Directory => {
                if let Some(dir @ Target::Word { word, .. }) = value {
                    self.effects.bases.push(Base { after: word, dir });
                }
                self.effects.block(format!(
                    "`{name}` option `{shown}` moves to another directory"
                ));
            }
            Role::ReadsTree => {
                self.effects.reads_below.extend(value);
                self.effects.block(format!(
                    "`{name}` option `{shown}` reads the files below another directory"
                ));
            }
            Role::Creates => {
                self.recursive = true;
                self.effects
                    .block(format!("`{name}` option `{shown}` writes an archive"));
            }
            Role::Date => {
                // parse_datetime reads `TZ="..."` in any case, after any blanks.
                let text = self.value_text(value).unwrap_or_default();
                if text.to_ascii_uppercase().contains("TZ=") {
                    self.effects.block(format!(
                        "`{name}` option `{shown}` names a time zone (`TZ=`), whose file it reads"
                    ));
                }
            }
        }
    }

    fn value_text(&self, value: Option<Target>) -> Option<&str> {
        match value? {
            Target::Word { word, offset } => self.words.get(word)?.get(offset..),
            Target::WorkingDirectory | Target::Anywhere | Target::Fixed(_) => None,
        }
    }

    fn subcommand(mut self, at: usize) -> Effects {
        let name = self.words.get(at).map_or("", String::as_str);
        // `git --help log`, `git -h log`: the subcommand's manual, through `man` or a browser.
        let globals = self.words.get(1..at).unwrap_or_default();
        if self.program.syntax == Syntax::Git && globals.iter().any(|w| w == "--help" || w == "-h")
        {
            self.effects.runs = true;
            self.effects.block(format!(
                "`{} --help {name}` shows the subcommand's manual, which runs `man`",
                self.program.name
            ));
            return self.effects;
        }
        let Some(sub) = self.program.subcommands.iter().find(|p| p.is_named(name)) else {
            // A subcommand the table does not know may take options that run a program
            // (`git fetch-pack --upload-pack=CMD`, `git merge-index CMD`): unjudged, as an
            // unknown option is, so only an allow rule naming the command exactly covers it.
            let why = format!(
                "`{} {name}` is not a subcommand toolgate knows",
                self.program.name
            );
            self.effects.unknown_option(self.program, why);
            return self.effects;
        };
        self.enter(sub, at + 1)
    }

    /// The effects of subcommand `sub`, whose words start at index `from`, with those of
    /// the options before it.
    fn enter(self, sub: &'static Program, from: usize) -> Effects {
        let inner = scan(sub, self.words, from);
        let mut effects = self.effects;
        effects.reads.extend(inner.reads);
        // The subcommand's filter narrows its own reads below only.
        if effects.reads_below.is_empty() {
            effects.search_filter = inner.search_filter;
        }
        effects.reads_below.extend(inner.reads_below);
        effects.writes.extend(inner.writes);
        effects.runs |= inner.runs;
        effects.reads_unnamed |= inner.reads_unnamed;
        effects.follows_links |= inner.follows_links;
        effects.bases.extend(inner.bases);
        effects.unjudged = effects.unjudged.or(inner.unjudged);
        effects.option_writes = effects.option_writes.or(inner.option_writes);
        if let Some(why) = inner.not_read_only {
            effects.block(why);
        }
        effects
    }

    fn operands(&mut self) {
        let name = self.name();
        let mut files: Vec<usize> = self.operands.clone();
        match self.program.operands {
            Operands::Files => {}
            Operands::GitRevisions => self.object_names(&files),
            Operands::Pathspecs => {
                if files.is_empty() && self.whole_tree {
                    self.effects.reads_below.push(Target::WorkingDirectory);
                }
            }
            Operands::OneFile => {
                if files.len() > 1 {
                    self.effects
                        .block(format!("`{name}` with a second operand writes it"));
                }
            }
            Operands::PatternThenFiles => {
                if !self.pattern_given && !files.is_empty() {
                    files.remove(0);
                }
            }
            Operands::SedScriptThenFiles => {
                if !self.pattern_given {
                    if files.is_empty() {
                        self.effects.block("`sed` has no script");
                    } else {
                        let script = files.remove(0);
                        let text = self.words.get(script).map_or("", String::as_str);
                        if let Err(why) = sed::check_script(text) {
                            self.effects.block(why);
                        }
                    }
                }
            }
            Operands::JqFilterThenFiles => {
                if !self.pattern_given && !files.is_empty() {
                    let filter = files.remove(0);
                    let text = self.words.get(filter).map_or("", String::as_str);
                    if let Err(why) = jq::check_filter(text) {
                        self.effects.block(why);
                    }
                    // Modules and data files are found by names the filter and the search
                    // path build: anywhere.
                    if jq::loads_files(text) {
                        self.effects.reads_unnamed = true;
                    }
                }
                // A filter read from a file may load modules too.
                if self.used.iter().any(|(o, _)| o.has_long("from-file")) {
                    self.effects.reads_unnamed = true;
                }
            }
            Operands::NotFiles => files.clear(),
            Operands::Format => {
                let formats = files
                    .iter()
                    .filter(|&&i| self.words.get(i).is_some_and(|w| w.starts_with('+')))
                    .count();
                if files.len() > 1 || formats < files.len() {
                    self.effects.block(format!(
                        "`{name}` with an operand other than one `+FORMAT` sets something"
                    ));
                }
                files.clear();
            }
            Operands::OnlyTheOption => {
                // `python3 --` ends its options without one, and reads standard input.
                let alone = self.words.len() == 2 && self.words.get(1).is_some_and(|w| w != "--");
                if !alone || !files.is_empty() {
                    self.effects.block(format!(
                        "`{name}` is read-only only with `--version` or `--help` alone"
                    ));
                }
                files.clear();
            }
            Operands::ConfigKey => {
                if self.config_change(&files) {
                    files.clear();
                    return;
                }
                let mut words = files.iter().filter_map(|&i| self.words.get(i));
                let first = words.next().map(String::as_str);
                // git 2.46: `git config get NAME` is `git config NAME`.
                let key = match first {
                    Some("get") => words.next().map(String::as_str),
                    _ => first,
                };
                if key.is_some_and(|k| !k.contains('.')) {
                    self.effects.block(format!(
                        "`{name} {}` is not a key lookup (a verb such as `list` or `edit`)",
                        first.unwrap_or_default()
                    ));
                } else if words.next().is_some() {
                    self.effects
                        .block(format!("`{name}` with a second operand changes something"));
                }
                // With `--file F` (the only option of `git config` that reads a file), only
                // `F` is read, as a path; else every configuration file, wherever it is.
                if self.effects.reads.is_empty() {
                    self.effects.reads_unnamed = true;
                    if let Err(why) = key.map_or(Ok(()), git_config::check_key) {
                        self.effects.block(why);
                    }
                }
                files.clear();
            }
            Operands::None if self.lists_patterns => files.clear(),
            Operands::None => {
                if !files.is_empty() {
                    self.effects
                        .block(format!("`{name}` with operands is not read-only"));
                }
                files.clear();
            }
            Operands::CopyLike => {
                if self.effects.writes.is_empty() {
                    if let Some(last) = files.pop() {
                        self.effects.writes.push(Target::whole(last));
                    }
                }
                self.effects
                    .block(format!("`{name}` writes its destination"));
            }
            Operands::Dd => {
                for i in std::mem::take(&mut files) {
                    let w = self.words.get(i).map_or("", String::as_str);
                    match w.split_once('=') {
                        Some(("if", _)) => {
                            self.effects.reads.push(Target::Word { word: i, offset: 3 })
                        }
                        Some(("of", _)) => {
                            self.effects
                                .writes
                                .push(Target::Word { word: i, offset: 3 });
                            self.effects.block("`dd` writes `of=`");
                        }
                        Some((k, _)) if DD_VALUES.contains(&k) => {}
                        _ => self
                            .effects
                            .block(format!("`dd` operand `{w}` is not known")),
                    }
                }
            }
            Operands::Find => {}
            Operands::Repository => {
                // Any operand: an option's value (`git submodule add -b x URL`) or a
                // directory named so only makes the reading stricter.
                if let Some(helper) = files
                    .iter()
                    .filter_map(|&i| self.words.get(i))
                    .find_map(|w| remote_helper(w))
                {
                    self.effects.runs = true;
                    self.effects.block(format!(
                        "`git {name}` reaches its repository through the remote helper `git-remote-{helper}`, a program found on `PATH`"
                    ));
                }
                let local = files.first().and_then(|&i| {
                    let w = self.words.get(i).map_or("", String::as_str);
                    if w.starts_with("file://") {
                        return Some(Target::Word { word: i, offset: 7 });
                    }
                    let scp_host = w.split('/').next().is_some_and(|h| h.contains(':'));
                    (!w.contains("://") && !scp_host).then_some(Target::whole(i))
                });
                // `git push` into a repository on this machine runs that repository's
                // `pre-receive`, `update` and `post-receive` hooks (one shipped in the project,
                // `./vendor/x.git`); `--repo=DIR` names it too.
                let repo_option = self.words.iter().enumerate().find_map(|(i, w)| {
                    match w.strip_prefix("--repo") {
                        Some(v) if v.starts_with('=') => Some(v.get(1..).unwrap_or_default()),
                        Some("") => self.words.get(i + 1).map(String::as_str),
                        _ => None,
                    }
                });
                // A path, not a remote's name (`origin`): it holds a `/` or starts with `.`
                // or `~`, or is a `file://` URL.
                let is_local = |w: &str| {
                    let scp_host = w.split('/').next().is_some_and(|h| h.contains(':'));
                    w.starts_with("file://")
                        || (!w.contains("://")
                            && !scp_host
                            && (w.contains('/') || w.starts_with(['.', '~'])))
                };
                let first = files.first().and_then(|&i| self.words.get(i));
                if name == "push"
                    && (first.is_some_and(|w| is_local(w)) || repo_option.is_some_and(is_local))
                {
                    self.effects.runs = true;
                    self.effects.block(
                        "`git push` into a repository on this machine runs that repository's hooks"
                            .to_owned(),
                    );
                }
                self.effects.reads_below.extend(local);
                files.clear();
            }
        }
        if files.is_empty() && self.program.reads_working_directory && !self.recursive {
            self.effects.reads.push(Target::WorkingDirectory);
        }
        if self.program.syntax == Syntax::Git {
            if let Some(globs) = self.suffix_pathspecs(&files) {
                self.effects.reads_below.push(Target::WorkingDirectory);
                self.effects.search_filter = Some(globs);
                return;
            }
            self.git_pathspecs(&files);
        }
        let targets = files.into_iter().map(Target::whole);
        if self.recursive {
            let before = self.effects.reads_below.len();
            self.effects.reads_below.extend(targets);
            // `git grep PAT REV` searches the whole tree of a revision: as much as the
            // working tree. Only pathspecs after `--` name no revision (`git grep PAT -- src`
            // reads the files below `src`).
            let git = self.program.syntax == Syntax::Git && !self.only_pathspecs();
            let wd = Target::WorkingDirectory;
            if (git || self.effects.reads_below.len() == before)
                && !self.effects.reads_below.contains(&wd)
            {
                self.effects.reads_below.push(wd);
            }
        } else if matches!(
            self.program.operands,
            Operands::GitRevisions | Operands::Pathspecs
        ) {
            // A path of `git diff A B` (or `git log -- DIR`) is a pathspec: every file
            // below it is read, and `git diff` of a path outside the repository is
            // `git diff --no-index`, which reads both directories whole.
            self.effects.reads_below.extend(targets);
        } else {
            self.effects.reads.extend(targets);
        }
    }
}

impl Scan<'_> {
    /// `git config` that sets, unsets or renames something, or runs the editor
    /// ([`git_config::change`]): a key git may run later (`core.pager`, `core.fsmonitor`)
    /// leaves the command unjudged, so only an allow rule naming it exactly covers it.
    /// Returns whether it changes anything; a lookup is judged by the caller.
    fn config_change(&mut self, operands: &[usize]) -> bool {
        let options: Vec<&str> = self
            .words
            .iter()
            .enumerate()
            .skip(self.from)
            .filter(|(i, w)| !operands.contains(i) && w.starts_with('-'))
            .map(|(_, w)| w.as_str())
            .collect();
        let operands: Vec<&str> = operands
            .iter()
            .filter_map(|&i| self.words.get(i))
            .map(String::as_str)
            .collect();
        match git_config::change(&options, &operands) {
            git_config::Change::None => return false,
            git_config::Change::Key(key) => {
                self.effects.block(format!("`git config` sets `{key}`"));
                if let Err(why) = git_config::check_settable(key) {
                    self.effects.unknown_option(self.program, why);
                }
            }
            git_config::Change::Unjudged(why) => self.effects.unknown_option(self.program, why),
            git_config::Change::Runs(why) => {
                self.effects.runs = true;
                self.effects.block(why);
            }
        }
        true
    }
}

impl Scan<'_> {
    /// `git show ID`, `git diff ID ID`, `git log -p ID`: an object named by its id (or a
    /// tree) may be any file of any revision, as `git cat-file -p ID` reads: the whole
    /// working tree counts as read.
    fn object_names(&mut self, operands: &[usize]) {
        if !PRINTS_OBJECTS.contains(&self.name()) {
            return;
        }
        let named = operands
            .iter()
            .filter_map(|&i| self.words.get(i))
            .any(|w| names_an_object(w));
        let wd = Target::WorkingDirectory;
        if named && !self.effects.reads_below.contains(&wd) {
            self.effects.reads_below.push(wd);
        }
    }
}

impl Scan<'_> {
    /// git reads its path operands as pathspecs: a glob (`'*.rs'`, `'.e*'`) matches files
    /// at any depth below the working directory, and magic (`:(top)x`, `:!x`,
    /// `:(icase)x`, `:/`) matches from the repository's top or by other rules than the
    /// name. Neither names the files it reads: a glob reads below the working directory;
    /// magic (and `:path`, a file of the index, named from the top) is not analysed.
    fn git_pathspecs(&mut self, files: &[usize]) {
        let mut below = false;
        let mut magic = false;
        for w in files.iter().filter_map(|&i| self.words.get(i)) {
            if w.starts_with(':') {
                magic = true;
                self.effects.block(format!(
                    "`{}` pathspec `{w}` has magic (`:`), which toolgate does not analyse",
                    self.name()
                ));
            } else if w.contains(['*', '?', '[']) {
                below = true;
            }
        }
        if magic {
            self.effects.reads_below.push(Target::Anywhere);
        } else if below {
            self.effects.reads_below.push(Target::WorkingDirectory);
        }
    }
}

/// The git subcommands that print the content of the objects their operands name (a blob
/// whole, a tree's or a commit's files as a diff).
const PRINTS_OBJECTS: &[&str] = &["show", "diff", "log"];

/// Whether `word` names an object by its id (`50b37a2`, `50b37a2^{blob}`) or names a tree
/// (`HEAD^{tree}`): such a name may be any file of any revision, which a path rule cannot
/// see.
///
/// ```text
/// names_an_object("50b37a2")        -> true
/// names_an_object("50b37a2^{blob}") -> true
/// names_an_object("main^{tree}")    -> true
/// names_an_object("main")           -> false
/// names_an_object("HEAD~2")         -> false
/// ```
fn names_an_object(word: &str) -> bool {
    if word.ends_with("^{tree}") || word.ends_with("^{blob}") {
        return true;
    }
    let id = word.split_once("^{").map_or(word, |(id, _)| id);
    (4..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The remote helper git runs for a repository address (`git-remote-NAME` on `PATH`):
/// `NAME::ADDRESS`, or a URL whose scheme git does not handle itself (`evil://x`).
///
/// ```text
/// remote_helper("ext::sh -c id")  -> Some("ext")
/// remote_helper("evil://h/r")     -> Some("evil")
/// remote_helper("https://h/r")    -> None
/// remote_helper("git@h:o/r")      -> None
/// ```
fn remote_helper(address: &str) -> Option<&str> {
    /// Schemes git reaches by itself or with its own helpers (`git-remote-http`).
    const BUILT_IN: &[&str] = &[
        "http", "https", "ftp", "ftps", "ssh", "git", "file", "git+ssh", "ssh+git",
    ];
    if let Some((helper, _)) = address.split_once("::") {
        return Some(helper);
    }
    let (scheme, _) = address.split_once("://")?;
    let known = BUILT_IN.iter().any(|b| b.eq_ignore_ascii_case(scheme));
    (!known && !scheme.contains('/')).then_some(scheme)
}

/// `dd` operands that are values (from `dd --help`, GNU coreutils 9.1).
const DD_VALUES: &[&str] = &[
    "bs", "cbs", "conv", "count", "ibs", "iflag", "obs", "oflag", "seek", "skip", "status",
];

/// Whether the pretty format `format` holds a signature placeholder: `%G` after an optional
/// `+`, `-` or space (`%+GS`, `% GG`), not after an escaped `%%`.
fn asks_signature(format: &str) -> bool {
    let mut bytes = format.bytes().peekable();
    while let Some(b) = bytes.next() {
        if b != b'%' {
            continue;
        }
        if bytes.next_if_eq(&b'%').is_some() {
            continue;
        }
        let _ = bytes.next_if(|c| matches!(c, b'+' | b'-' | b' '));
        if bytes.peek() == Some(&b'G') {
            return true;
        }
    }
    false
}
