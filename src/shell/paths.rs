//! The words of a command line that may name a path, for hosts that resolve symlinks
//! ([`crate::Request::add_realpaths`]): the analysis looks paths up by their written text, so
//! the real path of each such word lets a link inside the project to a place outside it (or
//! to a denied file) be judged by where it leads.

use super::analysis::{directory_move, Move};
use super::glob;
use super::parse::{self, Simple};
use super::word::Word;
use super::writes::file_url_paths;

/// How deeply `sh -c` scripts and other words holding a command line are opened.
const MAX_DEPTH: usize = 3;

/// The words of `line` that may name a path, at most `limit` of them, each once, in the order
/// they appear: the words of every simple command (substitutions and groups included),
/// redirection targets, assignment values, a word's pieces between `=`, `:` and `,`
/// (`--file=x`, `if=x`, `file:x`) and without a leading `@`, a `file:` URL's path
/// percent-decoded (`file:///p/%2eenv` gives `/p/.env`), every value a single-dash option
/// word may carry attached (`-fx`, `-hfx`: each ending of the word after its first letter), the
/// fixed directory of a glob word (`r/etc/*` gives `r/etc`), the words of a word that is itself
/// a command line (`sh -c '...'`), and after `cd DIR` each relative word also from `DIR` (as
/// the analysis judges it), and the files a compiler writes without the line naming them
/// (`a.out` of `gcc x.c`). Words whose value is only known at run time and long options
/// without a value are left out; a word starting with `~` is given as `./~...` (the file of
/// that name here, which the shell names when it does not expand the `~`: quoted, or after
/// `=`). A line outside the parsed subset gives no words.
///
/// Each glob word is also given as a pattern in [`PathWords::globs`] (after `cd DIR`, also
/// from `DIR`), for hosts that list directories to find the files it names, as are the
/// entries of a compiler's output directories where the source names outputs too (`*` for
/// `rustc x.rs`: its codegen units, javac's classes), and each
/// directory a word passes through in [`PathWords::directories`] (`cfg` of
/// `cfg/autostart.gz`), for hosts to resolve too: the analysis builds paths from a word and a
/// name (`gzip -d` writes `cfg/autostart`), which lead where their directory leads.
///
/// [`PathWords::complete`] is false when a word was left out for the limit (or a single-dash
/// word too long to take apart): the host then cannot vouch for every path of the line.
/// [`PathWords::unresolved`] is true when a word that may name a path is known only at run
/// time or starts with `~`, or relative words follow a `cd` that cannot be followed.
///
/// ```
/// use toolgate::shell::path_words;
/// let found = path_words("cd r && cat etc/shadow > out/x.txt --o=r/y -fk/z", 256);
/// for w in ["r", "cat", "etc/shadow", "r/etc/shadow", "out/x.txt", "r/y", "k/z"] {
///     assert!(found.words.iter().any(|x| x == w), "{w}");
/// }
/// assert!(found.complete);
/// for d in ["r/etc", "etc", "out", "r/out", "k"] {
///     assert!(found.directories.iter().any(|x| x == d), "{d}");
/// }
/// assert!(path_words("cat $HOME/x ~/y", 256).words.iter().all(|w| w == "cat" || w == "./~/y"));
/// assert!(path_words("cat $HOME/x", 256).unresolved);
/// assert!(!path_words("cat x/y", 256).unresolved);
/// assert_eq!(path_words("cd r && cat 'a b'/*.md", 256).globs, ["r/a b/*.md", "a b/*.md"]);
/// let short = path_words("a b c d", 2);
/// assert_eq!((short.words.len(), short.complete), (2, false));
/// ```
pub fn path_words(line: &str, limit: usize) -> PathWords {
    let mut out = Collector {
        words: Vec::new(),
        globs: Vec::new(),
        directories: Vec::new(),
        limit,
        complete: true,
        unresolved: false,
    };
    out.line(line, 0);
    PathWords {
        words: out.words,
        globs: out.globs,
        directories: out.directories,
        complete: out.complete,
        unresolved: out.unresolved,
    }
}

/// What [`path_words`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathWords {
    /// The words, each once, in the order they appear.
    pub words: Vec<String>,
    /// The glob words judged as the files they name, each once, as patterns: quoted
    /// characters escaped with a backslash (`'a*'b*` gives `a\*b*`), relative ones also
    /// joined to the directory a `cd` moved to.
    pub globs: Vec<String>,
    /// The directories the words pass through (`a` and `a/b` of `a/b/c`, `/a` of `/a/b`;
    /// never `.` or `..` alone), each once, at most as many as the words: the paths the
    /// analysis builds onto them lead where they lead.
    pub directories: Vec<String>,
    /// Whether every word that may name a path, and every directory, is among them.
    pub complete: bool,
    /// Whether a word that may name a path is known only at run time (a variable, a
    /// substitution's output) or starts with `~`, or relative words follow a `cd` whose
    /// target cannot be followed: such words are not among [`PathWords::words`].
    pub unresolved: bool,
}

/// Adds `item` to `list` once; `false` when the list already holds `limit` items and it is
/// left out.
fn add_bounded(list: &mut Vec<String>, item: String, limit: usize) -> bool {
    if list.contains(&item) {
        return true;
    }
    if list.len() < limit {
        list.push(item);
        true
    } else {
        false
    }
}

/// Single-dash option words longer than this are not taken apart ending by ending (the
/// endings of a word of n bytes are n words); such a word makes the list incomplete.
const MAX_OPTION_WORD: usize = 256;

/// Whether `text`, read as a shell line, is one command of one word: `text` itself, with
/// nothing expanded (a pattern's lone `$` in `grep 'ts$'`). Reading it again would find the
/// same word forever.
fn reads_as_itself(text: &str) -> bool {
    match parse::parse(text, 0).as_deref() {
        Ok([only]) => {
            only.assigns.is_empty()
                && only.redirs.is_empty()
                && matches!(only.words.as_slice(), [w] if w.dynamic.is_none() && w.value == text)
        }
        _ => false,
    }
}

struct Collector {
    words: Vec<String>,
    globs: Vec<String>,
    directories: Vec<String>,
    limit: usize,
    complete: bool,
    unresolved: bool,
}

impl Collector {
    fn line(&mut self, line: &str, depth: usize) {
        if line.len() > super::MAX_LINE_BYTES {
            return;
        }
        let Ok(simples) = parse::parse(line, 0) else {
            return;
        };
        let mut dir: Option<String> = None;
        for simple in &simples {
            self.simple(simple, dir.as_deref(), depth);
            let moves = directory_move(&simple.words).is_some();
            dir = next_dir(simple, dir);
            self.unresolved |= moves && dir.is_none();
        }
    }

    fn simple(&mut self, s: &Simple, dir: Option<&str>, depth: usize) {
        let words = s
            .assigns
            .iter()
            .map(|a| &a.value)
            .chain(&s.words)
            .chain(s.redirs.iter().map(|r| &r.target));
        for w in words {
            self.word(w, dir, depth);
        }
        // The files a compiler writes without the line naming them (`a.out`, `x.o`).
        for name in super::writes::implied_output_names(&s.words) {
            self.path(name, dir);
        }
        // The entries of the directories where the source names outputs too (rustc, javac).
        for pattern in super::writes::unnamed_output_patterns(&s.words) {
            if let (Some(d), false) = (dir, pattern.starts_with('/')) {
                self.glob(format!(
                    "{}/{pattern}",
                    glob::escape(d.trim_end_matches('/'))
                ));
            }
            self.glob(pattern);
        }
    }

    fn word(&mut self, w: &Word, dir: Option<&str>, depth: usize) {
        if w.dynamic.is_some() {
            match w.glob_directory() {
                Some(d) => self.path(d, dir),
                // Names in the directory the command runs in (`*.rs`, `x*`).
                None if !w.beyond_glob && !w.home && is_glob_of_names(&w.value) => {}
                None => self.unresolved = true,
            }
            if let Some(pattern) = glob::pattern_of(w) {
                if let Some(d) = dir {
                    self.glob(format!(
                        "{}/{pattern}",
                        glob::escape(d.trim_end_matches('/'))
                    ));
                }
                self.glob(pattern);
            }
            return;
        }
        let v = w.value.as_str();
        if v.contains(|c: char| c.is_whitespace() || ";&|<>()`$".contains(c)) && !reads_as_itself(v)
        {
            if depth < MAX_DEPTH {
                self.line(v, depth + 1);
            } else {
                self.complete = false;
            }
        }
        let mut pieces: Vec<&str> = v.split(['=', ':', ',']).skip(1).collect();
        if !v.starts_with('-') {
            pieces.push(v);
        } else if !v.starts_with("--") {
            // `-fFILE`, `-hfFILE`: a value attached after any of the bundled letters.
            if v.len() > MAX_OPTION_WORD {
                self.complete = false;
            } else {
                pieces.extend(v.char_indices().skip(2).filter_map(|(i, _)| v.get(i..)));
            }
        }
        let at: Vec<&str> = pieces.iter().filter_map(|p| p.strip_prefix('@')).collect();
        pieces.extend(at);
        for p in pieces {
            self.path(p.to_owned(), dir);
        }
        // A `file:` URL's path as curl opens it, percent-decoded (`file:///p/%2eenv`).
        let lower = v.to_ascii_lowercase();
        for (at, _) in lower.match_indices("file:") {
            for p in file_url_paths(v.get(at..).unwrap_or_default()) {
                self.path(p, dir);
            }
        }
    }

    fn path(&mut self, p: String, dir: Option<&str>) {
        if p.starts_with('~') {
            self.unresolved = true;
            // A `~` the shell does not expand (quoted, or after `=`) names a file of that
            // name here, which may be a link: resolved as `./~...`.
            self.path(format!("./{p}"), dir);
            return;
        }
        if p.is_empty() {
            return;
        }
        if let Some(d) = dir.filter(|_| !p.starts_with('/')) {
            let joined = format!("{}/{p}", d.trim_end_matches('/'));
            self.push_with_directories(joined);
        }
        self.push_with_directories(p);
    }

    /// `p`, and each directory it passes through (`cfg` of `cfg/autostart.gz`): a path the
    /// analysis builds from the word (`gzip -d` writes `cfg/autostart`) is judged through the
    /// longest of them the host resolved.
    fn push_with_directories(&mut self, p: String) {
        for dir in leading_directories(&p) {
            self.complete &= add_bounded(&mut self.directories, dir.to_owned(), self.limit);
        }
        self.push(p);
    }

    fn glob(&mut self, pattern: String) {
        self.complete &= add_bounded(&mut self.globs, pattern, self.limit);
    }

    fn push(&mut self, p: String) {
        self.complete &= add_bounded(&mut self.words, p, self.limit);
    }
}

/// The directories `path` passes through, shortest first (`a`, `a/b` of `a/b/c`; `/a` of
/// `/a/b`), without `.` and `..` on their own.
fn leading_directories(path: &str) -> impl Iterator<Item = &str> {
    path.match_indices('/')
        .filter_map(|(at, _)| path.get(..at))
        .filter(|d| !matches!(*d, "" | "." | ".."))
}

/// Whether a glob word matches names in the directory it runs in only: no `/`, and
/// neither an option nor a name starting with `.` (`.*` may match `..`).
fn is_glob_of_names(value: &str) -> bool {
    !value.contains('/') && !value.starts_with(['.', '-'])
}

/// The directory later relative words are also read from, after `simple` ran: where the
/// analysis follows a `cd` to ([`directory_move`]; a relative target joined to the start);
/// nothing after a move that cannot be followed, to `~`, or after a second move.
fn next_dir(simple: &Simple, dir: Option<String>) -> Option<String> {
    let Some(moved) = directory_move(&simple.words) else {
        return dir;
    };
    match (dir, moved) {
        (None, Move::To(target)) if !target.value.starts_with('~') => Some(target.value.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::path_words;

    #[test]
    fn reads_nested_scripts_redirections_and_globs() {
        let w = path_words(
            "bash -c 'cat r/etc/shadow' && ls r/etc/* < in.txt 2>&1",
            256,
        )
        .words;
        for want in ["r/etc/shadow", "r/etc", "in.txt"] {
            assert!(w.iter().any(|x| x == want), "{want} in {w:?}");
        }
    }

    #[test]
    fn the_directories_a_path_passes_through_are_found_too() {
        let found = path_words("gzip -d cfg/app/x.gz /abs/d/f ./rel/y ../up/z", 256);
        assert!(!found.words.iter().any(|x| x == "cfg"), "{found:?}");
        let w = found.directories;
        for want in ["cfg", "cfg/app", "/abs", "/abs/d", "./rel", "../up"] {
            assert!(w.iter().any(|x| x == want), "{want} in {w:?}");
        }
        assert!(
            !w.iter().any(|x| x.is_empty() || x == "." || x == ".."),
            "{w:?}"
        );
    }

    #[test]
    fn words_after_cd_are_also_read_from_its_target() {
        let w = path_words("cd /tmp && cat x && cd ~ && cat y", 256).words;
        assert!(w.iter().any(|x| x == "/tmp/x"), "{w:?}");
        assert!(!w.iter().any(|x| x.ends_with("/y")), "{w:?}");
    }

    #[test]
    fn output_directories_where_the_source_names_files_are_listed() {
        assert_eq!(path_words("rustc x.rs", 256).globs, ["*"]);
        assert_eq!(
            path_words("cd r && javac -d out X.java", 256).globs,
            ["r/out/*", "out/*"]
        );
        assert!(path_words("gcc -c x.c", 256).globs.is_empty());
    }

    #[test]
    fn a_file_url_gives_its_decoded_path() {
        let w = path_words(
            "curl -s --url=FILE://localhost/p/%6cink file:///q/%2eenv",
            256,
        )
        .words;
        for want in ["/p/link", "/q/.env"] {
            assert!(w.iter().any(|x| x == want), "{want} in {w:?}");
        }
    }

    #[test]
    fn a_pattern_ending_in_a_lone_dollar_leaves_the_list_complete() {
        for line in [
            "grep -n 'ts$' f",
            "grep -c '^$' f",
            "git log --grep='^fix$'",
            "git ls-files | grep '\\.ts$'",
        ] {
            let found = path_words(line, 256);
            assert!(found.complete, "{line}");
        }
        // A word that reads as more than itself is still read again.
        let found = path_words("sh -c 'cat x; cat $y'", 256);
        assert!(found.words.iter().any(|w| w == "x"), "{:?}", found.words);
    }

    #[test]
    fn words_known_only_at_run_time_are_reported() {
        for line in [
            "cat $HOME/x",
            "cat ~/x",
            "cat --file=~/x",
            "cd ~ && cat x",
            "cd $D && cat x",
            "cd src secrets && cat x",
            "cd +1 && cat x",
            "cd a; cd b; cat x",
            "cat /etc/*.conf",
            "cat .*",
            "cat $(pwd)/x",
        ] {
            assert!(path_words(line, 256).unresolved, "{line}");
        }
        for line in [
            "cat x/y",
            "cat *.rs",
            "ls src/*.rs",
            "cd sub && cat x",
            "cd -P -- sub && cat x",
        ] {
            assert!(!path_words(line, 256).unresolved, "{line}");
        }
    }

    #[test]
    fn unparsable_lines_give_nothing() {
        assert!(path_words("cat <<EOF\nx\nEOF", 256).words.is_empty());
    }

    #[test]
    fn attached_values_and_pieces_are_words() {
        let w = path_words("grep -hfr/secret -e x a.txt && tool in:k/x,@l/y", 256).words;
        for want in ["r/secret", "fr/secret", "k/x", "l/y", "@l/y", "a.txt"] {
            assert!(w.iter().any(|x| x == want), "{want} in {w:?}");
        }
    }

    #[test]
    fn what_is_left_out_makes_the_list_incomplete() {
        let many: Vec<String> = (0..300).map(|i| format!("f{i}")).collect();
        let found = path_words(&format!("cat {}", many.join(" ")), 256);
        assert_eq!(found.words.len(), 256);
        assert!(!found.complete);
        let long = format!("file -f{}", "a".repeat(300));
        assert!(!path_words(&long, 256).complete);
        assert!(path_words("cat a b", 256).complete);
        // `sh -c` four deep: the innermost line is not opened.
        let quote = |t: &str| format!("'{}'", t.replace('\'', "'\\''"));
        let mut deep = "cat x".to_owned();
        for _ in 0..4 {
            deep = format!("sh -c {}", quote(&deep));
        }
        assert!(!path_words(&deep, 256).complete, "{deep}");
    }
}
