//! Programs that compose the names they write from pieces of their words (`csplit -f PREFIX
//! -b FORMAT`), compute them (`rename FROM TO FILE`, Perl's `rename EXPR FILE`), or take them
//! from their input (`gpg` names its output after the file it decrypts, or after the name
//! stored in it).

use super::{directory_of, parse_options, part_of, Word, Writes};

/// GNU csplit 9.1: each piece is named PREFIX (`-f`, `--prefix`; `xx`) + the number, printed
/// by FORMAT (`-b`, `--suffix-format`; `%02d`, or `-n DIGITS`). A FORMAT is any text around
/// one `%d`, so the name may be anything below PREFIX's directory (`-f . -b
/// 'git/config%.0d'` writes `.git/config`), or anywhere once it holds `..`, also a `..`
/// that only appears when the number prints nothing (`-f d/ -b '.%.0d./Makefile'` writes
/// `d/../Makefile`): the name's fixed text ([`fixed_text`]) is what is looked at. Without
/// `-b` the name is PREFIX + digits, which the words of a program of unknown writes already
/// judge (a protected name that begins with PREFIX).
pub(super) fn csplit_writes(words: &[Word]) -> Writes {
    let p = parse_options(
        words.get(1..).unwrap_or_default(),
        "bfn",
        "",
        &["suffix-format", "prefix", "digits"],
    );
    let mut out = Writes::default();
    let Some(format) = p.values('b', "suffix-format").last() else {
        return out;
    };
    let prefix = p
        .values('f', "prefix")
        .last()
        .cloned()
        .unwrap_or_else(|| Word::literal("xx"));
    let name = format!("{}{}", prefix.value, fixed_text(&format.value));
    out.below.push(if name.contains("..") {
        part_of(format, "/")
    } else {
        directory_of(&prefix)
    });
    out
}

/// The text a printf FORMAT of csplit prints whatever the number, each conversion
/// (`%[flags][width][.precision]d`, also `i`, `u`, `o`, `x`, `X`) taken out, as it may
/// print nothing (`%.0d` of 0) or only digits and signs, which name no other directory;
/// `%%` prints `%`.
///
/// ```text
/// fixed_text(".%.0d./Makefile") == "../Makefile"
/// fixed_text("%02d.txt") == ".txt"
/// ```
fn fixed_text(format: &str) -> String {
    let mut out = String::with_capacity(format.len());
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        if chars.next_if_eq(&'%').is_some() {
            out.push('%');
            continue;
        }
        let mut spec = String::from('%');
        while let Some(s) = chars.next_if(|s| "-+ #0'.".contains(*s) || s.is_ascii_digit()) {
            spec.push(s);
        }
        match chars.next_if(|s| "diuoxX".contains(*s)) {
            Some(_) => {}
            // Not a conversion csplit takes (it refuses the format): kept as written.
            None => out.push_str(&spec),
        }
    }
    out
}

/// How a `rename` program computes new names.
#[derive(Clone, Copy, PartialEq)]
enum Renamer {
    /// util-linux `rename FROM TO FILE...`.
    Substitution,
    /// Perl's `rename EXPR FILE...` (`prename`, `file-rename`): the expression is code.
    Expression,
    /// `rename`: util-linux's on some systems, Perl's on others.
    Either,
}

/// The `rename` programs, by name.
pub(super) const RENAME_NAMES: &[&str] = &[
    "rename",
    "rename.ul",
    "prename",
    "perl-rename",
    "file-rename",
];

fn renamer(name: &str) -> Renamer {
    match name {
        "rename.ul" => Renamer::Substitution,
        "rename" => Renamer::Either,
        _ => Renamer::Expression,
    }
}

/// `rename` moves each file operand to a name it computes: each operand is written (moved
/// away), and the new name lies below the operand's directory (util-linux, when neither FROM
/// nor TO holds a `/`, replaces in the last segment only), or anywhere (a `/` in FROM or TO
/// replaces in the whole path; a Perl expression is code that may build any name): below
/// `/`. Every operand counts, FROM and TO among them, as which is which depends on the
/// program `rename` is.
pub(super) fn rename_writes(words: &[Word]) -> Writes {
    let Some(first) = words.first() else {
        return Writes::default();
    };
    let kind = renamer(super::program_name(&first.value));
    // Perl's `-e EXPR`/`-E EXPR` give the expression as an option's value.
    let p = parse_options(words.get(1..).unwrap_or_default(), "eE", "", &[]);
    let substitution_leaves = || {
        p.operands
            .iter()
            .take(2)
            .all(|w| w.dynamic.is_none() && !w.value.contains('/'))
    };
    let anywhere = match kind {
        Renamer::Substitution => !substitution_leaves(),
        Renamer::Expression | Renamer::Either => true,
    };
    let mut out = Writes {
        files: p.operands.clone(),
        ..Writes::default()
    };
    if anywhere {
        out.below.push(part_of(first, "/"));
    } else {
        out.below
            .extend(p.operands.iter().skip(2).map(directory_of));
    }
    out
}

/// The extensions gpg 2.2 takes off a file's name to name what it decrypts or verifies
/// (`make_outfile_name`), compared in any case.
const GPG_EXTENSIONS: &[&str] = &[".gpg", ".pgp", ".sig", ".asc", ".sign"];

/// `gpg FILE.gpg` (no command, or `--decrypt-files`) writes `FILE`: each operand with one of
/// [`GPG_EXTENSIONS`] writes its name without it, whatever the command (a verification of a
/// signed file writes it too). `--use-embedded-filename` writes the name stored in the
/// message, any name in the working directory: below `.`; `--options FILE` and `--homedir
/// DIR` read options that may name any output: below `/`. `-o FILE` is judged with the
/// words of a program of unknown writes.
pub(super) fn gpg_writes(words: &[Word]) -> Writes {
    let mut out = Writes::default();
    let mut only_operands = false;
    for w in words.iter().skip(1) {
        let v = w.value.as_str();
        if !only_operands && v == "--" {
            only_operands = true;
        } else if !only_operands && v.starts_with("--") {
            let name = v
                .trim_start_matches('-')
                .split('=')
                .next()
                .unwrap_or_default();
            // gpg takes any unique prefix of a long option.
            if !name.is_empty() && "use-embedded-filename".starts_with(name) {
                out.below.push(part_of(w, "."));
            }
            // An options file (`--options FILE`, or `gpg.conf` in `--homedir DIR`) may say
            // `output NAME`: any name.
            if !name.is_empty() && ["options", "homedir"].iter().any(|o| o.starts_with(name)) {
                out.below.push(Word::literal("/"));
            }
        } else if only_operands || !v.starts_with('-') {
            out.files.extend(gpg_output_name(w));
        }
    }
    out
}

/// The name gpg gives the output of `f` (`a.txt.gpg` → `a.txt`), if `f` has one of
/// [`GPG_EXTENSIONS`] after a first character of its last segment.
fn gpg_output_name(f: &Word) -> Option<Word> {
    let v = f.value.as_str();
    let start = v.rfind('/').map_or(0, |i| i + 1);
    GPG_EXTENSIONS.iter().find_map(|ext| {
        let at = v.len().checked_sub(ext.len())?;
        let tail = v.get(at..)?;
        (at > start && tail.eq_ignore_ascii_case(ext)).then(|| {
            let mut out = f.clone();
            out.value = v.get(..at).unwrap_or_default().to_owned();
            out
        })
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{below, written};

    #[test]
    fn gpg_options_files_may_name_any_output() {
        assert_eq!(below("gpg --options opts -d x.gpg"), ["/"]);
        assert_eq!(below("gpg --homedir=./g -d x"), ["/"]);
        assert_eq!(below("gpg --opt opts -d x"), ["/"]);
        assert!(below("gpg --verify x.sig").is_empty());
    }

    #[test]
    fn csplit_with_a_format_writes_below_the_prefix_directory() {
        assert_eq!(below("csplit -f . -b git/config%.0d x /^#END/"), ["."]);
        assert_eq!(
            below("csplit --prefix=~/.loc --suffix-format=al/bin/ls%.0d x 1"),
            ["~"]
        );
        assert_eq!(below("csplit -b %02d.txt x 5"), ["."]);
        assert_eq!(below("csplit -f a/b/part -b %d x 5"), ["a/b"]);
        assert_eq!(below("csplit -f x -b /../../../h/.bashrc%.0d x 1"), ["/"]);
        // A `..` made when the number prints nothing, in the format or with the prefix.
        assert_eq!(below("csplit -k -f d/ -b .%.0d./Makefile x 3"), ["/"]);
        assert_eq!(below("csplit -f d/. -b %#-5.0x./Makefile x 3"), ["/"]);
        assert_eq!(below("csplit -f d/ -b .%%.%d x 3"), ["d"]);
        assert_eq!(super::fixed_text("%02d.txt"), ".txt");
        // Without a format the name is the prefix and digits.
        assert!(below("csplit -f part -n 3 x 5").is_empty());
        assert!(written("csplit -f part x 5").is_empty());
    }

    #[test]
    fn rename_moves_its_operands_to_names_it_computes() {
        assert_eq!(below("rename.ul x \"\" ~/xbin"), ["~"]);
        assert_eq!(written("rename.ul x \"\" ~/xbin"), ["x", "\"\"", "~/xbin"]);
        assert_eq!(below("rename.ul -v a b d/a1 d/a2"), ["d", "d"]);
        // A `/` in FROM or TO replaces in the whole path.
        assert_eq!(below("rename.ul a/ \"\" a/.bashrc"), ["/"]);
        assert_eq!(below("rename.ul x ../../bin/x x"), ["/"]);
        // `rename` may be Perl's, whose expression is code.
        assert_eq!(below("rename a \"\" a.bashrc"), ["/"]);
        assert_eq!(below("prename s/^a// a.bashrc"), ["/"]);
        assert_eq!(written("file-rename -e y/x/./ xbashrc"), ["xbashrc"]);
    }

    #[test]
    fn gpg_names_its_output_after_the_file() {
        assert_eq!(written("gpg --batch .bashrc.gpg"), [".bashrc"]);
        assert_eq!(written("gpg --decrypt-files a.asc b.SIG c"), ["a", "b"]);
        assert_eq!(written("gpg -- ~/.profile.pgp"), ["~/.profile"]);
        assert!(written("gpg --verify .gpg").is_empty());
        assert_eq!(below("gpg --batch --use-embedded-filename doc.gpg"), ["."]);
        assert_eq!(below("gpg --use-embedded doc.gpg"), ["."]);
        assert!(below("gpg --batch doc.gpg").is_empty());
    }
}
