//! The words of a command line that may name a path, for hosts that resolve symlinks
//! ([`crate::Request::add_realpaths`]): the analysis looks paths up by their written text, so
//! the real path of each such word lets a link inside the project to a place outside it (or
//! to a denied file) be judged by where it leads.

use super::parse::{self, Simple};
use super::word::Word;

/// How deeply `sh -c` scripts and other words holding a command line are opened.
const MAX_DEPTH: usize = 3;

/// The words of `line` that may name a path, at most `limit` of them, each once, in the order
/// they appear: the words of every simple command (substitutions and groups included),
/// redirection targets, assignment values, a word's value after its first `=`
/// (`--file=x`, `if=x`), the fixed directory of a glob word (`r/etc/*` gives `r/etc`), the
/// words of a word that is itself a command line (`sh -c '...'`), and after `cd DIR` each
/// relative word also from `DIR` (as the analysis judges it). Words whose value is only
/// known at run time, words starting with `~` and options without a value are left out. A
/// line outside the parsed subset gives no words.
///
/// ```
/// use toolgate::shell::path_words;
/// let words = path_words("cd r && cat etc/shadow > out/x.txt --o=r/y", 256);
/// for w in ["r", "cat", "etc/shadow", "r/etc/shadow", "out/x.txt", "r/y"] {
///     assert!(words.iter().any(|x| x == w), "{w}");
/// }
/// assert!(path_words("cat $HOME/x ~/y", 256).iter().all(|w| w == "cat"));
/// assert_eq!(path_words("a b c d", 2).len(), 2);
/// ```
pub fn path_words(line: &str, limit: usize) -> Vec<String> {
    let mut out = Collector {
        words: Vec::new(),
        limit,
    };
    out.line(line, 0);
    out.words
}

struct Collector {
    words: Vec<String>,
    limit: usize,
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
            dir = next_dir(simple, dir);
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
    }

    fn word(&mut self, w: &Word, dir: Option<&str>, depth: usize) {
        if w.dynamic.is_some() {
            if let Some(d) = w.glob_directory() {
                self.path(d, dir);
            }
            return;
        }
        let v = w.value.as_str();
        if depth < MAX_DEPTH && v.contains(|c: char| c.is_whitespace() || ";&|<>()`$".contains(c)) {
            self.line(v, depth + 1);
        }
        if let Some((_, value)) = v.split_once('=') {
            self.path(value.to_owned(), dir);
        }
        if !v.starts_with('-') {
            self.path(v.to_owned(), dir);
        }
    }

    fn path(&mut self, p: String, dir: Option<&str>) {
        if p.is_empty() || p.starts_with('~') {
            return;
        }
        if let Some(d) = dir.filter(|_| !p.starts_with('/')) {
            self.push(format!("{}/{p}", d.trim_end_matches('/')));
        }
        self.push(p);
    }

    fn push(&mut self, p: String) {
        if self.words.len() < self.limit && !self.words.contains(&p) {
            self.words.push(p);
        }
    }
}

/// The directory later relative words are also read from, after `simple` ran: a literal
/// `cd` target (a relative one joined to the current one); nothing after a `cd` that cannot
/// be followed.
fn next_dir(simple: &Simple, dir: Option<String>) -> Option<String> {
    let name = simple.words.first().map(|w| w.value.as_str());
    if !matches!(name, Some("cd" | "pushd" | "popd")) {
        return dir;
    }
    let target = simple
        .words
        .iter()
        .skip(1)
        .find(|w| !w.value.starts_with('-'))?;
    if target.dynamic.is_some() || target.value.starts_with('~') {
        return None;
    }
    Some(match dir {
        Some(d) if !target.value.starts_with('/') => format!("{d}/{}", target.value),
        _ => target.value.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::path_words;

    #[test]
    fn reads_nested_scripts_redirections_and_globs() {
        let w = path_words(
            "bash -c 'cat r/etc/shadow' && ls r/etc/* < in.txt 2>&1",
            256,
        );
        for want in ["r/etc/shadow", "r/etc", "in.txt"] {
            assert!(w.iter().any(|x| x == want), "{want} in {w:?}");
        }
    }

    #[test]
    fn words_after_cd_are_also_read_from_its_target() {
        let w = path_words("cd /tmp && cat x && cd ~ && cat y", 256);
        assert!(w.iter().any(|x| x == "/tmp/x"), "{w:?}");
        assert!(!w.iter().any(|x| x.ends_with("/y")), "{w:?}");
    }

    #[test]
    fn unparsable_lines_give_nothing() {
        assert!(path_words("cat <<EOF\nx\nEOF", 256).is_empty());
    }
}
