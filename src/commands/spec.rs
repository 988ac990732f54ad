//! The shape of one table entry: how a program parses its options and what each option and
//! operand is.

/// How a program reads its options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// GNU `getopt_long`: bundled short options (`-la`), attached values (`-n5`, `-O<cmd>`),
    /// `--opt=v` and `--opt v`, any unique prefix of a long option (`--out=` is
    /// `--output=`), options anywhere before `--`.
    Gnu,
    /// As [`Syntax::Gnu`], but options end at the first operand (POSIX `getopt`, `find`'s
    /// leading options, `env`).
    Posix,
    /// git's parse-options: bundled short options and attached values like GNU, long
    /// options only as spelled in full (git also accepts unique prefixes; the table does
    /// not resolve them, so an abbreviation is an unknown option and asks).
    Git,
    /// tree's own parser: bundled short options, each letter that takes a value taking the
    /// next unused word, in order (`-Lo 1 out` is `-L 1 -o out`; a value is never attached,
    /// `-L1` takes the next word as the level); long options only as spelled in full, with
    /// `=value` or the next word; options anywhere before `--`.
    Tree,
    /// Every word is an operand (`echo`, `test`, `[`, `true`).
    NoOptions,
    /// Each word is one option, known by the letter after its dash (`--ps` is `-ps`): the
    /// rest of a flag's word is ignored (`xxd -ps` and `-postscript` are `-p`); an option
    /// that takes a value takes the next word when nothing follows the letter or when the
    /// word spells one of the option's long names (`-c 8`, `-cols 8`), else the rest of the
    /// word (`-c8`). Options end at the first operand or at `--` (`xxd`).
    FirstLetter,
}

/// What the operands (the words that are not options) of a program are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operands {
    /// Files it reads.
    Files,
    /// Files it reads, at most one (`uniq IN OUT` writes `OUT`).
    OneFile,
    /// A pattern, unless an option gave one, then files it reads (`grep`, `rg`).
    PatternThenFiles,
    /// A jq filter, unless `-f` gave one, then files it reads.
    JqFilterThenFiles,
    /// A sed script, unless `-e`/`-f` gave one, then files it reads.
    SedScriptThenFiles,
    /// Not files (`echo hi`, `basename a/b`).
    NotFiles,
    /// At most one, a `+FORMAT` (`date +%s`); any other sets something (`date 01010000`
    /// sets the clock).
    Format,
    /// None at all (`hostname NAME` sets the name).
    None,
    /// None, and exactly one option (`cargo --version`): the program alone does
    /// something else (`make` builds, `python3` reads a script from standard input).
    OnlyTheOption,
    /// A configuration key, looked up (`git config NAME`, and from git 2.46 on
    /// `git config get NAME`): at most one word, with a dot (`section.name`). A word
    /// without a dot is a verb (`list`, `edit`, `set`, `unset`, `rename-section`, ...),
    /// and a second word sets the key: neither is read-only.
    ConfigKey,
    /// Sources read, then a destination written (`cp`, `ln`, `install`, `scp`, `rsync`).
    CopyLike,
    /// `dd`: `if=F` is read, `of=F` written, other operands are values.
    Dd,
    /// `find`: starting points, then an expression ([`super::find`]).
    Find,
    /// Revisions and paths of a `git` command (`REV:path` reads `path`).
    GitRevisions,
    /// Pathspecs whose files a `git` command reads into the object store (`git add DIR`,
    /// `git commit -- DIR`, `git update-index --add F`): every file below each is read, as
    /// `git grep` reads them, and a [`Role::WholeTree`] option with no pathspec reads the
    /// whole working tree (`git add -A`).
    Pathspecs,
    /// A repository, then refs or the directory made (`git clone REPO DIR`, `git push
    /// REPO REFS`): a repository named by a local path (not `scheme://...` nor
    /// `host:path`) is read whole; an address naming a remote helper (`foo::x`, `foo://x`)
    /// runs `git-remote-foo`.
    Repository,
}

/// What an option is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A flag or a value that changes nothing outside the output.
    Inert,
    /// Its value is a file the program reads.
    Reads,
    /// Its value is a file the program reads, or writes when another option says so
    /// (`tar -f`, written with `tar -c`, which the table marks).
    ReadsWrites,
    /// Its value is a file the program writes.
    Writes,
    /// It runs a program (`--compress-program=x`, `-O<cmd>`, `--pre`).
    Runs,
    /// It changes state or does something a read-only command must not (`date -s`,
    /// `sed -i`, `git branch -d`).
    Changes,
    /// Its value is a pattern: the first operand is not one.
    Pattern,
    /// Its value is a file of patterns read: the first operand is not a pattern.
    PatternFile,
    /// Its value is a sed script: the first operand is not one.
    SedScript,
    /// The file operands are read recursively (`grep -r`, `diff -r`).
    Recursive,
    /// Its value names several files or whole directories to read (`file -m a:b`, where a
    /// directory reads every file in it), or is a file that names them (`sort
    /// --files0-from=F`, `tar -T F`); on a flag, the operands are such files (`md5sum -c`).
    /// The path analysis does not split them: the command is not read-only, so it asks (the
    /// value is still matched as one path, so a deny rule on a list of one denies, and the
    /// working directory counts as read whole, so a deny rule below it asks).
    ReadsList,
    /// Its value is an archive file, read, or written when another option says so (as
    /// [`Role::ReadsWrites`]); a name with a `:` before its first `/` (`host:a.tar`) is a
    /// remote archive, reached by running `rsh` (GNU tar, cpio), unless an option marked
    /// [`Role::LocalArchive`] is given: it asks.
    Archive,
    /// Archive names with a `:` are local files (`tar --force-local`).
    LocalArchive,
    /// It writes an archive of the file operands, each read whole (`tar -c`, `tar -r`):
    /// the operands are read recursively and the command is not read-only.
    Creates,
    /// Its value is a date string, in which `TZ="..."` names a time zone file that is read
    /// (`date -d 'TZ="/etc/shadow" now'`): a value holding `TZ=` asks.
    Date,
    /// Its value is a git pretty format (`--format=%h %s`): a signature placeholder
    /// (`%G?`, `%GS`, `%GK`, ...) makes git verify signatures, which runs gpg (or
    /// ssh-keygen, writing below `~/.gnupg`), so it is then a runner.
    PrettyFormat,
    /// Its value is a git ref-filter format (`git branch --format='%(refname:short)'`): a
    /// field not known to be plain (`%(signature)` verifies signatures with gpg) makes it a
    /// runner.
    RefFormat,
    /// Its value is a git ref-filter sort key (`--sort=-committerdate`), read as
    /// [`Role::RefFormat`] reads a field (`--sort=signature:grade` runs gpg).
    RefSort,
    /// Its value is a line range and a file (`git log -L 10,20:src/main.rs`,
    /// `-L :main:src/main.rs`): the file after the last `:` is read.
    LineRangeFile,
    /// The file operands are read recursively, following the symbolic links below them,
    /// which can lead anywhere (`grep -R`, `rg -L`, `tree -l`, `diff -r`): the command is
    /// not read-only, unless a [`Role::NoFollow`] option keeps links unfollowed.
    Follows,
    /// Symbolic links are not followed (`diff --no-dereference`).
    NoFollow,
    /// It prints the remotes' URLs from git's configuration files (`git remote -v`), which
    /// a Read deny or ask rule on them stops ([`super::Target::Fixed`]): a URL may hold a
    /// token.
    RemoteUrls,
    /// With no pathspec, the command reads every file of the working tree ([`Operands::Pathspecs`]:
    /// `git add -A`, `git commit -a`, `git stash push -u`).
    WholeTree,
    /// With it, the operands are patterns of the names listed (`git tag -l 'v*'`, `git branch
    /// --list 'feat*'`), not names to create: an entry whose operands are
    /// [`Operands::None`] takes them.
    ListsPatterns,
    /// Its value is a directory the program moves to before it reads or writes the words
    /// after the option (`tar -C DIR`, `git -C DIR`): a relative path named after it is
    /// below that directory, and a relative directory is below the one before it
    /// ([`super::Effects::bases`]). Not read-only.
    Directory,
    /// Its value is a directory the program reads every file below, whatever its other
    /// words name (`git --work-tree=DIR diff` prints the files below `DIR`, `git
    /// --git-dir=DIR log -p` the history stored there). Not read-only.
    ReadsTree,
}

/// One option of a table entry, written as one line of text:
/// `"-n --lines =Inert"`. Names come first (`-x` short, `--long` long, `-#` for `-NUM`
/// such as `head -5`); then optionally the value: `=` (a required value), `=?` (an
/// optional value, attached only: `--color=auto`), `=2` (two values, `--arg NAME V`);
/// then the role after a colon (`:reads`, `:writes`, `:runs`, `:changes`, `:pattern`,
/// `:patternfile`, `:sed`, `:recursive`, `:readswrites`, `:readslist`, `:archive`, `:local`,
/// `:creates`, `:date`, `:pretty`, `:refformat`, `:refsort`, `:linerange`, `:follows`, `:nofollow`, `:remoteurls`, `:chdir`, `:readstree`, `:wholetree`, `:lists`); no role is inert.
///
/// ```
/// use toolgate::commands::{OptionSpec, Role};
/// let o = OptionSpec::parse("-o --output =:writes").unwrap();
/// assert_eq!(o.role, Role::Writes);
/// assert_eq!(o.values, 1);
/// assert!(o.has_long("output"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// Short option letters.
    pub short: Vec<char>,
    /// Long option names without `--`.
    pub long: Vec<&'static str>,
    /// `-NUM` is accepted (`head -5`, `git log -3`).
    pub numeric: bool,
    /// How many values it takes (0, 1 or 2).
    pub values: u8,
    /// The value is optional and only taken when attached.
    pub optional: bool,
    /// What it is.
    pub role: Role,
}

impl OptionSpec {
    /// Reads one option line of the table; `None` when it is malformed (a test checks that
    /// every line of the table reads).
    pub fn parse(line: &'static str) -> Option<OptionSpec> {
        let mut o = OptionSpec {
            short: Vec::new(),
            long: Vec::new(),
            numeric: false,
            values: 0,
            optional: false,
            role: Role::Inert,
        };
        for token in line.split_whitespace() {
            if let Some(v) = token.strip_prefix('=') {
                let (arity, role) = v.split_once(':').unwrap_or((v, ""));
                match arity {
                    "" => o.values = 1,
                    "?" => {
                        o.values = 1;
                        o.optional = true;
                    }
                    "2" => o.values = 2,
                    _ => return None,
                }
                o.role = role_named(role)?;
            } else if let Some(role) = token.strip_prefix(':') {
                o.role = role_named(role)?;
            } else if let Some(long) = token.strip_prefix("--") {
                if long.is_empty() {
                    return None;
                }
                o.long.push(long);
            } else if token == "-#" {
                o.numeric = true;
            } else if let Some(short) = token.strip_prefix('-') {
                let mut chars = short.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => o.short.push(c),
                    _ => return None,
                }
            } else {
                return None;
            }
        }
        let named = !o.short.is_empty() || !o.long.is_empty() || o.numeric;
        named.then_some(o)
    }

    /// Whether `--name` is this option, spelled in full.
    pub fn has_long(&self, name: &str) -> bool {
        self.long.contains(&name)
    }
}

fn role_named(name: &str) -> Option<Role> {
    Some(match name {
        "" => Role::Inert,
        "reads" => Role::Reads,
        "readswrites" => Role::ReadsWrites,
        "writes" => Role::Writes,
        "runs" => Role::Runs,
        "changes" => Role::Changes,
        "pattern" => Role::Pattern,
        "patternfile" => Role::PatternFile,
        "sed" => Role::SedScript,
        "recursive" => Role::Recursive,
        "readslist" => Role::ReadsList,
        "archive" => Role::Archive,
        "local" => Role::LocalArchive,
        "creates" => Role::Creates,
        "date" => Role::Date,
        "pretty" => Role::PrettyFormat,
        "refformat" => Role::RefFormat,
        "refsort" => Role::RefSort,
        "linerange" => Role::LineRangeFile,
        "follows" => Role::Follows,
        "nofollow" => Role::NoFollow,
        "remoteurls" => Role::RemoteUrls,
        "chdir" => Role::Directory,
        "readstree" => Role::ReadsTree,
        "wholetree" => Role::WholeTree,
        "lists" => Role::ListsPatterns,
        _ => return None,
    })
}

/// One program (or one subcommand) of the table.
#[derive(Clone, Copy, Debug)]
pub struct Program {
    /// The name (`grep`; for a subcommand, `log`).
    pub name: &'static str,
    /// Other names of the same program (`egrep`), or of the subcommand (`npm i`).
    pub aliases: &'static [&'static str],
    /// Where the knowledge was taken from, with the version.
    pub source: &'static str,
    /// How it reads options.
    pub syntax: Syntax,
    /// Its options, one line each ([`OptionSpec`]), in groups (a group may be shared, such
    /// as git's diff options).
    pub options: &'static [&'static [&'static str]],
    /// What its operands are.
    pub operands: Operands,
    /// It is recursive without an option (`rg`).
    pub recursive: bool,
    /// It reads the files inside a directory operand without an option, following the
    /// symbolic links there, which can lead anywhere (`diff DIR1 DIR2` compares each file
    /// directly inside): its operands are read below, and it is not read-only unless a
    /// [`Role::NoFollow`] option keeps links unfollowed. Any operand may be a directory.
    pub follows_below: bool,
    /// Subcommands; when not empty, the first operand must name one of them.
    pub subcommands: &'static [Program],
    /// The subcommand the words are given to when the first of them is an option, or there
    /// is none (`git reflog -n 5` is `git reflog show -n 5`). Any other first word must name
    /// a subcommand, so a subcommand of a later version is never taken for an operand.
    pub default_subcommand: Option<&'static str>,
    /// The first word may be a cluster of options without a dash (`tar czf`).
    pub bundled_first: bool,
    /// Programs it starts by itself, found on `PATH`, that only filter its data (tar's
    /// compressors for `-z`, `-j`, `-J`, ...). An option whose value names a program to run
    /// is `:runs` instead; this list is what the strace check lets the program start.
    pub starts: &'static [&'static str],
    /// With no file operand it reads the working directory (`ls`, `du`, `tree`), as `find`
    /// does with no starting point.
    pub reads_working_directory: bool,
    /// A word starting with `@` is a response file: its contents are read as more arguments
    /// (GNU binutils and gcc, `strings @FILE`), which the table cannot judge: it asks.
    pub response_files: bool,
    /// Operators whose next operand names a shell variable (`test -v NAME`): bash evaluates
    /// an array subscript in the name as arithmetic, which runs command substitutions
    /// (`test -v 'a[$(id)]'`), so such a name holding `[` asks.
    pub variable_operators: &'static [&'static str],
    /// Why the program (or subcommand) changes something whatever its options, when it
    /// does (`git push` updates another repository, `git clone` makes one): it is never
    /// read-only, and an allow rule on it covers it when its options are all in the entry
    /// and none of them runs a program (`Bash(git push *)` covers `git push -u origin x`,
    /// not `git push --receive-pack=x`).
    pub changes: Option<&'static str>,
    /// Why the program (or subcommand) always runs a program, when it does (`git bisect run
    /// CMD`, `git difftool`, which runs the configured diff tool): it is a runner
    /// ([`super::Effects::runs`]), which an allow rule covers only when it names the
    /// command exactly, so its options are not judged.
    pub runs: Option<&'static str>,
    /// It reads files it does not name, wherever they are (`git var -l` prints every
    /// configuration file's values): a Read deny or ask rule that could match any file
    /// judges it ([`super::Effects::reads_unnamed`]).
    pub reads_unnamed: bool,
    /// Forms in which a search prints something other than what it finds and reads no
    /// file's contents (`rg --version`, `rg --files`).
    pub listing: Option<Listing>,
    /// The options that narrow its recursive reads to the files whose names match a glob
    /// (grep's `--include`, ripgrep's `-g`).
    pub name_filter: Option<NameFilter>,
}

/// A recursive search's options that narrow the files it opens below its directories to
/// those whose names match a glob ([`Program::name_filter`]): the host's secret files that no
/// glob matches are not counted as read. The files named as operands are read whatever
/// the globs say. Checked under strace for each program.
#[derive(Clone, Copy, Debug)]
pub struct NameFilter {
    /// The long names of the options whose value is a glob of the names opened (grep's
    /// `--include`, ripgrep's `--glob`, `--iglob`); several are a union.
    pub includes: &'static [&'static str],
    /// The long names of the options that leave names out (grep's `--exclude`,
    /// `--exclude-from`): when one comes before the first include, GNU grep opens every name
    /// that neither matches, so the includes narrow nothing.
    pub excludes: &'static [&'static str],
    /// An include's value with a leading `!` leaves the names it matches out instead
    /// (ripgrep's `-g '!*.md'`), which only narrows; with a positive glob given too, a name
    /// no glob matches is not opened. Otherwise `!` is a character of the name.
    pub bang_excludes: bool,
    /// The globs may hold braces, one level of alternatives (`*.{ts,tsx}`); otherwise a
    /// brace is a character of the name (GNU grep's `fnmatch`).
    pub braces: bool,
}

/// The forms of a search program ([`Program::listing`]) that read no file's contents: each
/// checked under strace, with every option that may go with it.
#[derive(Clone, Copy, Debug)]
pub struct Listing {
    /// Options that, as the only word after the program's name, make it print something
    /// about itself and exit before it opens any file of the project (`rg --version`,
    /// `rg --type-list`), spelled exactly as here.
    pub alone: &'static [&'static str],
    /// The option that makes it print the names of the files it would search instead of
    /// searching them (`rg --files`): the operands are then the directories listed, read as
    /// `find` and `ls` read theirs, and no file below them is opened for its contents.
    pub names: &'static str,
    /// The long names of the only options that may go with [`Listing::names`] and keep the
    /// command a listing: filters of which names are listed and how they are printed. Any
    /// other option (one that reads, runs, or switches back to searching, as `-l` after
    /// `--files` does) leaves it a search.
    pub names_with: &'static [&'static str],
}

impl Program {
    /// An entry with no options, operands that are files and no subcommands.
    pub const fn new(name: &'static str, source: &'static str) -> Program {
        Program {
            name,
            aliases: &[],
            source,
            syntax: Syntax::Gnu,
            options: &[],
            operands: Operands::Files,
            recursive: false,
            follows_below: false,
            subcommands: &[],
            default_subcommand: None,
            bundled_first: false,
            starts: &[],
            reads_working_directory: false,
            response_files: false,
            variable_operators: &[],
            changes: None,
            runs: None,
            reads_unnamed: false,
            listing: None,
            name_filter: None,
        }
    }

    /// Whether `name` names this program (or subcommand).
    pub fn is_named(&self, name: &str) -> bool {
        self.name == name || self.aliases.contains(&name)
    }

    /// Its options, read.
    pub fn option_specs(&self) -> impl Iterator<Item = OptionSpec> + '_ {
        self.option_lines().filter_map(OptionSpec::parse)
    }

    /// Its option lines, as written in the table.
    pub fn option_lines(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.options.iter().flat_map(|g| g.iter().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_lines_read() {
        let o = OptionSpec::parse("-c --bytes =").unwrap();
        assert_eq!(
            (o.short.clone(), o.long.clone(), o.values),
            (vec!['c'], vec!["bytes"], 1)
        );
        let o = OptionSpec::parse("--color =?").unwrap();
        assert!(o.optional);
        let o = OptionSpec::parse("-r --recursive :recursive").unwrap();
        assert_eq!(o.role, Role::Recursive);
        let o = OptionSpec::parse("--rawfile =2:reads").unwrap();
        assert_eq!((o.values, o.role), (2, Role::Reads));
        let o = OptionSpec::parse("-f --file =:archive").unwrap();
        assert_eq!((o.values, o.role), (1, Role::Archive));
        assert_eq!(
            OptionSpec::parse("--force-local :local").map(|o| o.role),
            Some(Role::LocalArchive)
        );
        assert_eq!(
            OptionSpec::parse("-c --create :creates").map(|o| o.role),
            Some(Role::Creates)
        );
        assert_eq!(
            OptionSpec::parse("-d --date =:date").map(|o| o.role),
            Some(Role::Date)
        );
        assert_eq!(
            OptionSpec::parse("-C --directory =:chdir").map(|o| o.role),
            Some(Role::Directory)
        );
        assert_eq!(
            OptionSpec::parse("-l --list :lists").map(|o| o.role),
            Some(Role::ListsPatterns)
        );
        assert!(OptionSpec::parse("-ab").is_none());
        assert!(OptionSpec::parse("x").is_none());
        assert!(OptionSpec::parse("-a =:nonsense").is_none());
        assert!(OptionSpec::parse("").is_none());
    }
}
