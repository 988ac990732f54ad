//! Where a command names its relative paths from: the working directory, or the
//! directories its options move it to before it reads or writes the words after them
//! (`tar -C DIR`, `git -C DIR`; the table marks them, [`crate::commands::Base`]).
//! Every relative path a command reads or writes through its words goes through
//! [`directory`] and [`BaseDir::place`].

use super::word::{part_of, Word};
use crate::commands::{Base, Target};

/// The directory a relative path among a command's words is named from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum BaseDir {
    /// The working directory: no option moved the command.
    Here,
    /// A directory an option named (`tar -C ~/secret`), joined to those before it.
    Dir(Word),
    /// A directory only known at run time (`-C "$d"`): the path may be anywhere.
    Unknown,
}

/// The directory word `index` of `core` is named from, by the `bases` before it: each
/// relative one below the one before, an absolute or `~` one on its own. A word after
/// every base has `index` `usize::MAX` (the working directory a command reads unnamed).
pub(crate) fn directory(core: &[Word], bases: &[Base], index: usize) -> BaseDir {
    let mut dir = BaseDir::Here;
    for base in bases.iter().filter(|b| b.after < index) {
        dir = match (base_word(core, base.dir), dir) {
            (Some(d), _) if d.dynamic.is_some() => BaseDir::Unknown,
            (Some(d), _) if is_rooted(&d) => BaseDir::Dir(d),
            (Some(d), BaseDir::Here) => BaseDir::Dir(d),
            (Some(d), BaseDir::Dir(prev)) => BaseDir::Dir(joined(&prev, &d.value)),
            (Some(_), BaseDir::Unknown) | (None, _) => BaseDir::Unknown,
        };
    }
    dir
}

impl BaseDir {
    /// `w` named from this directory: `w` itself when it is absolute, in the home
    /// directory, or named from here; `DIR/w` below a directory; `None` when the directory
    /// is only known at run time, so the path may be anywhere (judged below `/`).
    ///
    /// ```text
    /// Dir(~/secret).place(token)  -> ~/secret/token
    /// Dir(~/secret).place(/etc/x) -> /etc/x
    /// Unknown.place(token)        -> None
    /// ```
    pub(crate) fn place(&self, w: &Word) -> Option<Word> {
        match self {
            _ if is_rooted(w) => Some(w.clone()),
            BaseDir::Here => Some(w.clone()),
            BaseDir::Dir(d) => {
                let mut placed = joined(d, &w.value);
                placed.dynamic = placed.dynamic.or(w.dynamic);
                placed.raw = w.raw.clone();
                Some(placed)
            }
            BaseDir::Unknown => None,
        }
    }
}

/// The word a base's directory is, as a word of its own (`-C DIR`, `-CDIR`,
/// `--directory=DIR`).
fn base_word(core: &[Word], dir: Target) -> Option<Word> {
    match dir {
        Target::Word { word, offset: 0 } => core.get(word).cloned(),
        Target::Word { word, offset } => {
            let w = core.get(word)?;
            Some(part_of(w, w.value.get(offset..)?))
        }
        Target::WorkingDirectory | Target::Anywhere | Target::Fixed(_) => None,
    }
}

fn is_rooted(w: &Word) -> bool {
    w.home || w.value.starts_with('/') || (w.value.starts_with('~') && w.dynamic.is_some())
}

/// `dir/tail`, keeping `dir`'s home directory and run-time value (`dir` itself when `tail`
/// is empty or `.`).
fn joined(dir: &Word, tail: &str) -> Word {
    let mut w = dir.clone();
    let tail = tail.trim_start_matches("./");
    if !tail.is_empty() && tail != "." {
        w.value = format!("{}/{tail}", dir.value.trim_end_matches('/'));
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<Word> {
        line.split(' ')
            .map(|w| Word {
                home: w.starts_with('~'),
                ..Word::literal(w)
            })
            .collect()
    }

    fn based(line: &str, index: usize) -> Option<String> {
        let core = words(line);
        let values: Vec<String> = core.iter().map(|w| w.value.clone()).collect();
        let e = crate::commands::effects(&values).unwrap();
        let w = core
            .get(index)
            .cloned()
            .unwrap_or_else(|| Word::literal("."));
        directory(&core, &e.bases, index).place(&w).map(|w| w.value)
    }

    #[test]
    fn tar_names_the_operands_after_each_directory_from_it() {
        assert_eq!(
            based("tar -cf x.tar -C ~/secret token", 5).unwrap(),
            "~/secret/token"
        );
        assert_eq!(based("tar -cf - -C ~ .ssh", 5).unwrap(), "~/.ssh");
        assert_eq!(
            based("tar cfC - ~/secret token", 4).unwrap(),
            "~/secret/token"
        );
        assert_eq!(
            based("tar -cf - --directory=/s token", 4).unwrap(),
            "/s/token"
        );
        assert_eq!(based("tar -cf - -C/s token", 4).unwrap(), "/s/token");
        assert_eq!(based("tar -cf - -C ~ a -C b c", 8).unwrap(), "~/b/c");
        // Before the directory, and the archive named before it: from here.
        assert_eq!(based("tar -cf x.tar a -C /s b", 3).unwrap(), "a");
        assert_eq!(based("tar -cf x.tar a -C /s b", 2).unwrap(), "x.tar");
        // An absolute operand stays where it is.
        assert_eq!(based("tar -cf - -C /s /etc/x", 5).unwrap(), "/etc/x");
    }

    #[test]
    fn git_names_its_subcommand_s_paths_from_each_directory() {
        assert_eq!(
            based("git -C ~/secret grep --no-index -h .", 6).unwrap(),
            "~/secret"
        );
        assert_eq!(
            based("git -C ~ -C .config log a", 6).unwrap(),
            "~/.config/a"
        );
        assert_eq!(
            based("git -C ~/secret grep x", usize::MAX).unwrap(),
            "~/secret"
        );
    }

    #[test]
    fn a_directory_known_only_at_run_time_may_be_anywhere() {
        let mut core = words("tar -cf - -C $d token");
        core.get_mut(4).unwrap().make_dynamic("parameter expansion");
        let values: Vec<String> = core.iter().map(|w| w.value.clone()).collect();
        let e = crate::commands::effects(&values).unwrap();
        let dir = directory(&core, &e.bases, 5);
        assert_eq!(dir, BaseDir::Unknown);
        assert!(dir.place(&Word::literal("token")).is_none());
        // An absolute one after it is known again.
        let mut core = words("tar -cf - -C $d -C /s token");
        core.get_mut(4).unwrap().make_dynamic("parameter expansion");
        let values: Vec<String> = core.iter().map(|w| w.value.clone()).collect();
        let e = crate::commands::effects(&values).unwrap();
        assert_eq!(
            directory(&core, &e.bases, 7)
                .place(&Word::literal("t"))
                .map(|w| w.value),
            Some("/s/t".to_owned())
        );
    }
}
