//! Knowledge of programs as data: what each program's options and operands do, and which
//! calls carry a named danger ([`danger`]).
//!
//! One table entry per program ([`Program`]) says how it reads its options ([`Syntax`]:
//! GNU `getopt_long` with bundled short options, attached values and unique prefixes of long
//! options; git's parse-options; options-free builtins) and what each option and operand is
//! ([`Role`], [`Operands`]): inert, a file read, a file written, a program run, or a change
//! of state. Subcommands (git's, `git stash`'s) are nested entries. Each entry records the
//! source and version its knowledge was taken from.
//!
//! The table allows what it knows: an option or a subcommand that is not in it makes the
//! command not read-only ([`Effects::not_read_only`]), so it asks. Programs that run code
//! are listed once ([`runs_code`]).
//!
//! ```
//! use toolgate::commands::{effects, Target};
//! let words = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
//!
//! let e = effects(&words("grep --file=pats.txt -n src/lib.rs")).unwrap();
//! assert_eq!(e.reads, [Target::Word { word: 1, offset: 7 }, Target::Word { word: 3, offset: 0 }]);
//! assert!(e.not_read_only.is_none());
//!
//! // `--out` is GNU sort's `--output`: it writes.
//! let e = effects(&words("sort --out=x in.txt")).unwrap();
//! assert!(e.not_read_only.is_some());
//!
//! // Not in the table: not read-only.
//! assert!(effects(&words("ls --frobnicate")).unwrap().not_read_only.is_some());
//! assert!(effects(&words("git push")).unwrap().not_read_only.is_some());
//! assert!(effects(&words("make")).unwrap().not_read_only.is_some()); // only `make --version`
//! assert!(effects(&words("curl x")).is_none());
//! ```

mod copiers;
pub mod danger;
mod find;
mod git_config;
mod jq;
mod name_set;
mod npm;
mod option_words;
mod ref_format;
mod runners;
mod scan;
mod sed;
mod spec;
mod table;
mod unseen;

pub use copiers::{follows_links_below, reads_listed_files};
pub use npm::{npm_command, npm_commands};
pub use runners::{
    compiler_driver, may_start_programs, reads_terminal, runs_by_option, runs_code, INTERPRETERS,
    RUNNERS, SHELLS, STARTS_PROGRAMS, TERMINAL_PROGRAMS, TRANSPARENT_WRAPPERS,
};
pub(crate) use runners::{
    compiler_operands, is_tool, makefile_from_input, source_from_input, unversioned_tool,
};
pub use scan::{Base, Effects, Target};
pub use spec::{Listing, NameFilter, Operands, OptionSpec, Program, Role, Syntax};

pub(crate) use git_config::sets as git_config_sets;
pub(crate) use runners::{interpreter_base, python_module};
pub use unseen::allow_names_unseen;
pub(crate) use unseen::{literal_words, runs_another_package, unseen_command, HIDING_PROGRAMS};

/// The program name without its directory (`/usr/bin/rm` → `rm`).
pub fn program_name(word: &str) -> &str {
    // By bytes: `/` is ASCII, so its last byte is the last `/` character.
    match word.bytes().rposition(|b| b == b'/') {
        Some(at) => word
            .get(at + 1..)
            .filter(|name| !name.is_empty())
            .unwrap_or(word),
        None => word,
    }
}

/// Every entry of the table.
pub fn programs() -> impl Iterator<Item = &'static Program> {
    table::programs()
}

/// The table entry for `program` (a name or a path), if there is one.
///
/// ```
/// assert_eq!(toolgate::commands::lookup("/usr/bin/grep").map(|p| p.name), Some("grep"));
/// assert!(toolgate::commands::lookup("cmd1").is_none());
/// ```
pub fn lookup(program: &str) -> Option<&'static Program> {
    let name = program_name(program);
    let index = names_index();
    let at = index.binary_search_by(|(n, _)| (*n).cmp(name)).ok()?;
    index.get(at).map(|(_, p)| *p)
}

/// Every name and alias of the table, sorted, each with the first entry that it names (the
/// one a scan of [`programs`] in order would find), built once from the table.
fn names_index() -> &'static [(&'static str, &'static Program)] {
    static INDEX: std::sync::OnceLock<Vec<(&'static str, &'static Program)>> =
        std::sync::OnceLock::new();
    INDEX.get_or_init(|| {
        let mut names: Vec<(&'static str, &'static Program)> = table::programs()
            .flat_map(|p| {
                std::iter::once(p.name)
                    .chain(p.aliases.iter().copied())
                    .map(move |n| (n, p))
            })
            .collect();
        // A stable sort keeps the table's order among equal names; the first one stays.
        names.sort_by_key(|(n, _)| *n);
        names.dedup_by_key(|(n, _)| *n);
        names
    })
}

/// What the command `words` (argv after quote removal, program first) does, by its table
/// entry; `None` when the program is not in the table.
///
/// A program named with a directory that is not a system directory (`./cat`, `tools/ls`)
/// is not the program the table knows: its effects are those of the program of that name
/// (so deny rules see its reads), but it is not read-only.
pub fn effects(words: &[String]) -> Option<Effects> {
    let first = words.first()?;
    let program = lookup(first)?;
    let mut e = match old_style(program, words) {
        Some((expanded, origin)) => {
            let mut e = scan::scan(program, &expanded, 1);
            for t in e
                .reads
                .iter_mut()
                .chain(e.writes.iter_mut())
                .chain(e.reads_below.iter_mut())
            {
                if let Target::Word { word, .. } = t {
                    *word = origin.get(*word).copied().unwrap_or(*word);
                }
            }
            for b in &mut e.bases {
                b.after = origin.get(b.after).copied().unwrap_or(b.after);
                if let Target::Word { word, .. } = &mut b.dir {
                    *word = b.after;
                }
            }
            e
        }
        None => scan::scan(program, words, 1),
    };
    if !in_system_directory(first) {
        e.not_read_only = Some(format!(
            "`{first}` is not the `{}` of a system directory; toolgate does not know what it does",
            program.name
        ));
    }
    Some(e)
}

/// The directories whose programs the table speaks for, besides a bare name found on
/// `PATH`.
const SYSTEM_DIRECTORIES: &[&str] = &[
    "/bin",
    "/usr/bin",
    "/usr/local/bin",
    "/sbin",
    "/usr/sbin",
    "/usr/local/sbin",
];

/// Whether `program` is a bare name or a name in one of [`SYSTEM_DIRECTORIES`].
pub(crate) fn in_system_directory(program: &str) -> bool {
    match program.rsplit_once('/') {
        None => true,
        Some((dir, name)) => !name.is_empty() && SYSTEM_DIRECTORIES.contains(&dir),
    }
}

/// The old syntax of `tar` (a first word of letters without a dash): each letter that takes
/// a value takes the next word, in order, so `tar tvfI a.tar cmd` is
/// `tar -t -v -f a.tar -I cmd`. Returns the words so spelled and, for each, the index of
/// the word it comes from; `None` when the first word is not in the old syntax.
fn old_style(program: &Program, words: &[String]) -> Option<(Vec<String>, Vec<usize>)> {
    let letters = words.get(1).filter(|w| !w.starts_with('-'))?;
    if !program.bundled_first {
        return None;
    }
    let specs: Vec<OptionSpec> = program.option_specs().collect();
    let mut expanded = vec![words.first()?.clone()];
    let mut origin = vec![0];
    let mut next = 2;
    for c in letters.chars() {
        expanded.push(format!("-{c}"));
        origin.push(1);
        let takes = specs.iter().find(|s| s.short.contains(&c)).map_or(0, |s| {
            if s.optional {
                0
            } else {
                s.values
            }
        });
        for _ in 0..takes {
            // A missing value stays missing: the scan finds it so.
            if let Some(v) = words.get(next) {
                expanded.push(v.clone());
                origin.push(next);
                next += 1;
            }
        }
    }
    for (i, w) in words.iter().enumerate().skip(next) {
        expanded.push(w.clone());
        origin.push(i);
    }
    Some((expanded, origin))
}

/// The text a [`Target`] names in `words`: the tail of a word, or `.`.
pub fn target_text(words: &[String], target: Target) -> Option<&str> {
    match target {
        Target::Word { word, offset } => words.get(word)?.get(offset..),
        Target::WorkingDirectory => Some("."),
        Target::Anywhere => Some("/"),
        Target::Fixed(path) => Some(path),
    }
}

/// Whether a jq filter only computes on its input (no `env`, `$ENV`, modules).
pub fn jq_filter_is_read_only(filter: &str) -> bool {
    jq::check_filter(filter).is_ok()
}

/// Why a `sed` command line cannot be judged whatever rule covers it (a script that may
/// write, read or run, or one read from a file), or `None`.
///
/// ```
/// use toolgate::commands::sed_cannot_be_judged;
/// let argv = |s: &str| s.split(' ').map(str::to_owned).collect::<Vec<_>>();
/// assert!(sed_cannot_be_judged(&argv("sed -n w.git/hooks/x f")).is_some());
/// assert!(sed_cannot_be_judged(&argv("sed -i /x/a.foo f")).is_none());
/// assert!(sed_cannot_be_judged(&argv("sed -n 1p f")).is_none());
/// ```
pub fn sed_cannot_be_judged(argv: &[String]) -> Option<String> {
    sed::unjudgeable(argv)
}

/// Whether a sed script only prints (`p`, `d`, `n`, `q`, `=`, `s` without `e`/`w`).
///
/// ```
/// use toolgate::commands::sed_script_is_read_only as ok;
/// assert!(ok("1,40p"));
/// assert!(!ok("s/x/y/e"));
/// assert!(!ok("1w out"));
/// ```
pub fn sed_script_is_read_only(script: &str) -> bool {
    sed::check_script(script).is_ok()
}

/// `find`'s primaries, for checks against `find --help`.
pub fn find_primaries() -> impl Iterator<Item = &'static str> {
    find::primaries()
}

#[cfg(test)]
mod tests;
