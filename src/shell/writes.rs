//! Files that common commands write through their operands or options (`cp x DEST`,
//! `sort -o FILE`, `curl -o FILE`, `dd of=FILE`). The analysis judges them as writes and
//! keeps the ones a deny or ask rule or a protected path catches, so an allow rule on the
//! command does not cover a write to `~/.bashrc`.

use super::canonical::program_name;
use super::word::Word;

/// Commands that destroy their operands: critical paths are never allowed for them.
pub(crate) const DESTRUCTIVE: &[&str] = &["rm", "rmdir", "mv", "shred", "unlink"];

/// Whether `name` (a program's name) is one of [`DESTRUCTIVE`], in any case: on a
/// case-insensitive file system `RM` runs `rm`.
pub(crate) fn is_destructive(name: &str) -> bool {
    DESTRUCTIVE.iter().any(|d| d.eq_ignore_ascii_case(name))
}

/// How a command names the files it writes.
struct WriteSpec {
    /// The program (and `git` subcommand, or `*` for any).
    name: &'static str,
    sub: Option<&'static str>,
    /// Short option letters whose value is a written file.
    short: &'static str,
    /// Long options whose value is a written file.
    long: &'static [&'static str],
    /// Other short option letters that take a value.
    short_values: &'static str,
    /// The last operand is written (or the `-t` value, when given).
    destination: bool,
    /// Every operand is written.
    operands: bool,
    /// Operands of the form `PREFIX=FILE` write `FILE`.
    prefix: Option<&'static str>,
}

const fn spec(name: &'static str) -> WriteSpec {
    WriteSpec {
        name,
        sub: None,
        short: "",
        long: &[],
        short_values: "",
        destination: false,
        operands: false,
        prefix: None,
    }
}

const SPECS: &[WriteSpec] = &[
    WriteSpec {
        short: "t",
        long: &["target-directory"],
        short_values: "S",
        destination: true,
        ..spec("cp")
    },
    WriteSpec {
        short: "t",
        long: &["target-directory"],
        short_values: "S",
        destination: true,
        ..spec("mv")
    },
    WriteSpec {
        short: "t",
        long: &["target-directory"],
        short_values: "S",
        destination: true,
        ..spec("ln")
    },
    WriteSpec {
        short: "t",
        long: &["target-directory"],
        short_values: "mogS",
        destination: true,
        ..spec("install")
    },
    WriteSpec {
        short_values: "rdt",
        operands: true,
        ..spec("touch")
    },
    WriteSpec {
        short_values: "sr",
        operands: true,
        ..spec("truncate")
    },
    WriteSpec {
        short_values: "m",
        operands: true,
        ..spec("mkdir")
    },
    WriteSpec {
        prefix: Some("of="),
        ..spec("dd")
    },
    WriteSpec {
        short: "o",
        long: &["output"],
        short_values: "kStT",
        ..spec("sort")
    },
    WriteSpec {
        short: "o",
        long: &["output"],
        ..spec("tree")
    },
    WriteSpec {
        short: "oDc",
        long: &[
            "output",
            "dump-header",
            "cookie-jar",
            "trace",
            "trace-ascii",
            "stderr",
        ],
        short_values: "XdHuFTxAebKwmrEy",
        ..spec("curl")
    },
    WriteSpec {
        short: "OoaP",
        long: &[
            "output-document",
            "output-file",
            "append-output",
            "directory-prefix",
        ],
        short_values: "iUtTe",
        ..spec("wget")
    },
    WriteSpec {
        sub: Some("*"),
        short: "o",
        long: &["output", "output-directory"],
        ..spec("git")
    },
];

/// The files `words` writes through its operands or options, as words (a part of a word
/// such as `--output=FILE` becomes a word of its own).
pub(crate) fn files_written(words: &[Word]) -> Vec<Word> {
    let Some(first) = words.first() else {
        return Vec::new();
    };
    let name = program_name(&first.value);
    let Some(spec) = SPECS.iter().find(|s| s.name == name) else {
        return Vec::new();
    };
    let skip = if spec.sub.is_some() { 2 } else { 1 };
    let mut targets = Vec::new();
    let mut operands = Vec::new();
    let mut only_operands = false;
    let mut it = words.iter().skip(skip);
    while let Some(w) = it.next() {
        let v = w.value.as_str();
        if only_operands || !v.starts_with('-') || v == "-" {
            match spec.prefix.and_then(|p| v.strip_prefix(p)) {
                Some(file) => targets.push(part_of(w, file)),
                None => operands.push(w.clone()),
            }
        } else if v == "--" {
            only_operands = true;
        } else if let Some(long) = v.strip_prefix("--") {
            match long.split_once('=') {
                Some((n, file)) if spec.long.contains(&n) => targets.push(part_of(w, file)),
                None if spec.long.contains(&long) => targets.extend(it.next().cloned()),
                _ => {}
            }
        } else {
            for (i, c) in v.char_indices().skip(1) {
                let writes = spec.short.contains(c);
                if writes || spec.short_values.contains(c) {
                    let rest = v.get(i + c.len_utf8()..).unwrap_or_default();
                    let value = if rest.is_empty() {
                        it.next().cloned()
                    } else {
                        Some(part_of(w, rest))
                    };
                    if writes {
                        targets.extend(value);
                    }
                    break;
                }
            }
        }
    }
    if spec.operands {
        targets.extend(operands);
    } else if spec.destination && targets.is_empty() && operands.len() > 1 {
        targets.extend(operands.pop());
    }
    targets
}

/// The tail `file` of word `w` as a word of its own. A `~` there is not expanded by the
/// shell, so it is a file of that name.
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

    fn written(line: &str) -> Vec<String> {
        let words: Vec<Word> = line.split(' ').map(Word::literal).collect();
        files_written(&words).into_iter().map(|w| w.value).collect()
    }

    #[test]
    fn destinations_options_and_operands() {
        assert_eq!(written("cp -r src ~/.bashrc"), ["~/.bashrc"]);
        assert_eq!(written("cp -t dir a b"), ["dir"]);
        assert_eq!(written("mv --target-directory=dir a"), ["dir"]);
        assert_eq!(written("cp a"), Vec::<String>::new());
        assert_eq!(written("touch -d now a b"), ["a", "b"]);
        assert_eq!(written("dd if=x of=/dev/sda bs=1M"), ["/dev/sda"]);
        assert_eq!(written("sort -ro out in"), ["out"]);
        assert_eq!(written("sort --output=out in"), ["out"]);
        assert_eq!(written("curl -sSLo out http://x"), ["out"]);
        assert_eq!(written("curl -X POST --output out http://x"), ["out"]);
        assert_eq!(written("wget -qO x http://x"), ["x"]);
        assert_eq!(written("git log --output=log.txt"), ["log.txt"]);
        assert_eq!(written("git format-patch -o patches"), ["patches"]);
        assert_eq!(written("ls -o x"), Vec::<String>::new());
    }
}
