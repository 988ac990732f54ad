//! Words of a command line after quote removal, and what makes their value unknowable.

/// One shell word: its text as written and its value after quote removal and escape
/// decoding (argv), with the reason its run-time value cannot be known, if any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Word {
    /// The word as written.
    pub raw: String,
    /// The word after quote removal. Parts whose value is only known at run time
    /// (`$HOME`, `$(id)`, `*`) are kept as written, so deny rules can still read them.
    pub value: String,
    /// Why the run-time value is unknown (`parameter expansion`, `glob`, ...), if it is.
    pub dynamic: Option<&'static str>,
    /// The word starts with an unquoted `~` or `~/`: the home directory.
    pub home: bool,
    /// The word has quotes or escapes (so it can never be a reserved word).
    pub quoted: bool,
    /// Part of the value is unknown for a reason other than a glob (`$X*`).
    pub beyond_glob: bool,
}

impl Word {
    /// A word with a known value.
    pub(crate) fn literal(text: &str) -> Self {
        Word {
            raw: text.to_owned(),
            value: text.to_owned(),
            ..Word::default()
        }
    }

    /// A place in the home directory (`~/.npmrc`), as a word whose `~` is the home.
    pub(crate) fn in_home(path: &str) -> Self {
        Word {
            home: true,
            ..Word::literal(path)
        }
    }

    /// This word with `name` for its value: a name that starts where this word does (a
    /// backup `w~`, a stem `w` of `w.gz`, the directory `w` is in), so it keeps the word's
    /// home directory and run-time value.
    pub(crate) fn renamed(&self, name: &str) -> Self {
        Word {
            value: name.to_owned(),
            ..self.clone()
        }
    }

    /// Marks the value unknown for `why`, keeping the first reason.
    pub(crate) fn make_dynamic(&mut self, why: &'static str) {
        if self.dynamic.is_none() {
            self.dynamic = Some(why);
        }
        if why != "glob" {
            self.beyond_glob = true;
        }
    }

    /// The directory a glob word reads below, when the word is a glob and nothing else
    /// (`src/*.rs` reads below `src`, `x*` below `.`) and cannot leave the working
    /// directory or be read as an option: relative, no `~`, no `..` segment, no segment
    /// starting with `.` that holds a glob character (`.*` matches `..`), and a first
    /// character that is neither a glob character nor `-`.
    pub(crate) fn glob_directory(&self) -> Option<String> {
        if self.dynamic.is_none() || self.beyond_glob || self.home {
            return None;
        }
        let v = self.value.as_str();
        let is_glob = |c: char| matches!(c, '*' | '?' | '[');
        let first = v.chars().next()?;
        if is_glob(first) || first == '-' || first == '/' || first == '~' {
            return None;
        }
        for segment in v.split('/') {
            if segment == ".." || (segment.starts_with('.') && segment.contains(is_glob)) {
                return None;
            }
        }
        let at = v.find(is_glob)?;
        let fixed = v.get(..at)?;
        Some(match fixed.rfind('/') {
            Some(0) => return None,
            Some(i) => fixed.get(..i)?.to_owned(),
            None => ".".to_owned(),
        })
    }

    /// The word as a path for the policy: `~` forms pass through for the policy to expand;
    /// a quoted `~` is a file of that name in the working directory.
    pub(crate) fn as_path(&self) -> String {
        if self.value.starts_with('~') && !self.home {
            format!("./{}", self.value)
        } else {
            self.value.clone()
        }
    }

    /// The word is the unquoted reserved word `word`.
    pub(crate) fn is_keyword(&self, word: &str) -> bool {
        !self.quoted && self.dynamic.is_none() && self.value == word
    }
}

/// Whether `c` is invisible, a control character or a bidirectional override: characters
/// that make a command look different from what runs (every format character of Unicode
/// 15, category Cf, among them). Such words are never allowed.
pub(crate) fn is_deceptive_char(c: char) -> bool {
    let u = u32::from(c);
    (c.is_control() && c != '\t' && c != '\n')
        || matches!(
            u,
            0x00A0
                | 0x00AD
                | 0x034F
                | 0x0600..=0x0605
                | 0x061C
                | 0x06DD
                | 0x070F
                | 0x0890..=0x0891
                | 0x08E2
                | 0x115F
                | 0x1160
                | 0x17B4
                | 0x17B5
                | 0x180B..=0x180E
                | 0x2000..=0x200F
                | 0x2028..=0x202F
                | 0x205F..=0x206F
                | 0x3000
                | 0x3164
                | 0xFE00..=0xFE0F
                | 0xFEFF
                | 0xFFA0
                | 0xFFF0..=0xFFFB
                | 0x110BD
                | 0x110CD
                | 0x13430..=0x1343F
                | 0x1BCA0..=0x1BCA3
                | 0x1D173..=0x1D17A
                | 0xE0000..=0xE0FFF
        )
}

/// Why the words of a command cannot be read for an allow decision, if they cannot.
pub(crate) fn unreadable(words: &[Word]) -> Option<String> {
    unreadable_except(words, &[])
}

/// As [`unreadable`], passing over the glob words at the indices `globs` (judged as reads
/// below their directory).
pub(crate) fn unreadable_except(words: &[Word], globs: &[usize]) -> Option<String> {
    for (i, w) in words.iter().enumerate() {
        if globs.contains(&i) && w.glob_directory().is_some() {
            continue;
        }
        if let Some(why) = w.dynamic {
            return Some(format!("`{}` is only known at run time ({why})", w.raw));
        }
        if w.value.chars().any(is_deceptive_char) {
            return Some(format!(
                "`{}` contains an invisible or control character",
                w.raw.escape_default()
            ));
        }
    }
    let first = words.first()?;
    (!first.value.is_ascii()).then(|| {
        format!(
            "command name `{}` has characters outside ASCII (a look-alike?)",
            first.value
        )
    })
}

/// A piece of `w`'s own text (`piece`, a slice of `w.value`) as a word: [`part_of`], but a
/// piece that starts where `w` does keeps `w`'s home directory (`~/x` of `~/x:y`).
pub(crate) fn piece_of(w: &Word, piece: &str) -> Word {
    if std::ptr::eq(piece.as_ptr(), w.value.as_ptr()) {
        w.renamed(piece)
    } else {
        part_of(w, piece)
    }
}

/// The part `file` of word `w` (a tail, an option's value, an assignment's value) as a word
/// of its own, known or not as `w` is. A `~` there is not expanded by the shell, so it is a
/// file of that name.
pub(crate) fn part_of(w: &Word, file: &str) -> Word {
    Word {
        raw: w.raw.clone(),
        value: file.to_owned(),
        dynamic: w.dynamic,
        home: false,
        quoted: w.quoted,
        beyond_glob: w.beyond_glob,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_keeps_the_home_directory_only_where_the_word_starts() {
        let w = Word {
            home: true,
            ..Word::literal("~/secret/token:~/x")
        };
        let (first, second) = w.value.split_once(':').unwrap();
        assert!(piece_of(&w, first).home);
        assert!(!piece_of(&w, second).home);
        assert!(piece_of(&w, &w.value).home);
        assert!(!part_of(&w, &w.value).home);
    }

    #[test]
    fn deceptive_characters_are_caught() {
        for c in ['\u{200b}', '\u{202e}', '\u{feff}', '\u{a0}', '\r', '\0'] {
            assert!(is_deceptive_char(c), "{c:?}");
        }
        for c in ['a', 'é', 'ｒ', ' ', '\t'] {
            assert!(!is_deceptive_char(c), "{c:?}");
        }
    }

    #[test]
    fn quoted_tilde_is_a_file_in_the_working_directory() {
        let mut w = Word::literal("~/x");
        assert_eq!(w.as_path(), "./~/x");
        w.home = true;
        assert_eq!(w.as_path(), "~/x");
    }

    #[test]
    fn look_alike_command_names_are_unreadable() {
        assert!(unreadable(&[Word::literal("ｒｍ")]).is_some());
        assert!(unreadable(&[Word::literal("r\u{200b}m")]).is_some());
        assert!(unreadable(&[Word::literal("echo"), Word::literal("héllo")]).is_none());
    }
}
