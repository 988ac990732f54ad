//! Files that common commands write through their operands or options (`cp x DEST`,
//! `sort -o FILE`, `curl -o FILE`, `dd of=FILE`, `sed -i ... FILE`, `chmod +x FILE`), and
//! directories below which they write files whose names only the input knows (`tar -x`,
//! `unzip`, `patch`, `git apply`). The analysis judges them as writes and keeps the ones a
//! deny or ask rule or a protected path catches, so an allow rule on the command does not
//! cover a write to `~/.bashrc`. This is the one table of what programs write: the danger
//! classifier reads it too ([`writes_files`]).

mod compilers;
mod composed;
mod compressors;
mod curl;
mod git;
mod installers;

use super::base::BaseDir;
use super::canonical::program_name;
pub(crate) use super::word::part_of;
use super::word::piece_of;
use super::word::Word;
pub(crate) use compilers::{
    implied_output_names, implied_outputs, may_be_unnamed_output, unnamed_output_patterns,
};
use curl::{curl_reads, curl_writes};
pub(crate) use curl::{file_url_paths, LocalReads};
use git::git_writes;
pub(crate) use installers::CARGO_GLOBAL_VALUES;

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
    /// When a source may be a directory copied whole (`cp -r`): its names, which only the
    /// source knows, land below each destination.
    trees: When,
    /// When the names written may be links (`ln`, `mv` of a link, `cp -a` of a tree that
    /// holds links): a later path of the line may lead anywhere.
    links: When,
    /// The sources are removed (`mv`): each is judged as a write, so moving a policy or a
    /// settings file away is a change of it.
    moves: bool,
    /// When every operand is written, the destination rule aside (`install -d`).
    operands_with: When,
}

/// When a property of a [`WriteSpec`] holds.
enum When {
    Never,
    Always,
    /// When one of these short option letters or long options (or a prefix of one, as GNU
    /// `getopt` accepts) is given.
    With(&'static str, &'static [&'static str]),
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
        trees: When::Never,
        links: When::Never,
        moves: false,
        operands_with: When::Never,
    }
}

const SPECS: &[WriteSpec] = &[
    WriteSpec {
        short: "t",
        long: &["target-directory"],
        short_values: "S",
        destination: true,
        trees: When::With("aRr", &["archive", "recursive"]),
        // With `-R` and no `-L`, GNU cp copies links as links (`-P`).
        links: When::With(
            "adlPRrs",
            &[
                "archive",
                "link",
                "no-dereference",
                "preserve",
                "recursive",
                "symbolic-link",
            ],
        ),
        ..spec("cp")
    },
    WriteSpec {
        short: "t",
        long: &["target-directory"],
        short_values: "S",
        destination: true,
        links: When::Always,
        moves: true,
        ..spec("mv")
    },
    WriteSpec {
        short: "t",
        long: &["target-directory"],
        short_values: "S",
        destination: true,
        links: When::Always,
        ..spec("ln")
    },
    WriteSpec {
        destination: true,
        links: When::Always,
        ..spec("link")
    },
    WriteSpec {
        short: "t",
        long: &["target-directory"],
        short_values: "mogS",
        destination: true,
        // `install -d DIR...` makes every operand a directory.
        operands_with: When::With("d", &["directory"]),
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
    // GNU time: `-o FILE` / `--output=FILE` (`-a` appends to it).
    WriteSpec {
        short: "o",
        long: &["output"],
        short_values: "f",
        ..spec("time")
    },
    WriteSpec {
        operands: true,
        trees: When::With("R", &["recursive"]),
        ..spec("chmod")
    },
    WriteSpec {
        operands: true,
        trees: When::With("R", &["recursive"]),
        ..spec("chown")
    },
    WriteSpec {
        operands: true,
        trees: When::With("R", &["recursive"]),
        ..spec("chgrp")
    },
    WriteSpec {
        short_values: "efTBM",
        destination: true,
        trees: When::With("ar", &["archive", "recursive"]),
        links: When::With("alH", &["archive", "links", "hard-links"]),
        ..spec("rsync")
    },
    WriteSpec {
        sub: Some("*"),
        short: "o",
        long: &["output", "output-directory"],
        ..spec("git")
    },
];

/// What a command writes: files it names, and directories below which it writes files
/// whose names it does not (an archive's members, the files a patch names).
#[derive(Debug, Default)]
pub(crate) struct Writes {
    /// Files written, as words (a part of a word such as `--output=FILE` becomes a word of
    /// its own).
    pub files: Vec<Word>,
    /// Directories below which any file may be written.
    pub below: Vec<Word>,
    /// Whether a name written may be a link (see [`Writes::may_make_links`]).
    pub links: bool,
}

impl Writes {
    /// Whether the command writes nothing that is known.
    pub(crate) fn is_empty(&self) -> bool {
        self.files.is_empty() && self.below.is_empty()
    }

    /// Whether what the command writes may be a link: it makes or moves one (`ln`, `mv`,
    /// `cp -a`), or writes names its input chooses (an archive, a checkout), which may be
    /// links too.
    pub(crate) fn may_make_links(&self) -> bool {
        self.links || !self.below.is_empty()
    }
}

/// What `words` writes (see [`Writes`]).
pub(crate) fn writes(words: &[Word]) -> Writes {
    let Some(first) = words.first() else {
        return Writes::default();
    };
    if let Some(installer) = installers::python_installer(words) {
        return writes(&installer);
    }
    match reader_of(program_name(&first.value)) {
        Some(reader) => (reader.read)(words),
        None => files_written(words),
    }
}

/// What `words` reads on this machine through words that are not paths of their own:
/// curl's `file:` URLs (percent-decoded), its URL globs, its config file, the files its
/// option values name after `@` or `<` and its netrc file ([`curl_reads`]); anywhere for
/// wget running wgetrc commands ([`wget_reads`]); nothing for other programs.
pub(crate) fn local_reads(words: &[Word]) -> LocalReads {
    match words.first().map(|first| program_name(&first.value)) {
        Some("curl") => curl_reads(words),
        Some("wget") => wget_reads(words),
        _ => LocalReads::default(),
    }
}

/// A program whose writes have a reader of their own, beyond [`SPECS`].
struct Reader {
    names: &'static [&'static str],
    read: fn(&[Word]) -> Writes,
    /// The reader knows all the program writes ([`knows_writes`]); `npm` only its
    /// configuration.
    whole: bool,
}

const READERS: &[Reader] = &[
    reader(&["sed"], sed_writes),
    reader(&["perl"], perl_writes),
    reader(&["patch"], patch_writes),
    reader(&["tar", "bsdtar"], tar_writes),
    reader(&["cpio"], cpio_writes),
    reader(&["7z", "7za", "7zr", "7zz"], seven_zip_writes),
    reader(&["pax"], pax_writes),
    reader(&["ar"], ar_writes),
    reader(&["unzip"], unzip_writes),
    reader(&["curl"], curl_writes),
    reader(&["wget"], wget_writes),
    reader(&["git"], git_writes),
    // `tee` writes its operands, judged in the analysis.
    reader(&["tee"], |_| Writes::default()),
    partial(&["npm"], npm_writes),
    partial(&["pip", "pipx", "uv"], installers::user_installer_writes),
    partial(&["pnpm", "bun"], installers::pnpm_bun_writes),
    partial(&["yarn", "yarnpkg"], installers::yarn_writes),
    partial(&["cargo"], installers::cargo_writes),
    partial(&["go"], installers::go_writes),
    // Compressors, and the programs that compose, compute or receive the names they write.
    partial(compressors::NAMES, compressors::compressor_writes),
    partial(&["csplit"], composed::csplit_writes),
    partial(composed::RENAME_NAMES, composed::rename_writes),
    partial(&["gpg", "gpg2"], composed::gpg_writes),
];

/// A reader of part of what a program writes: its other words are still judged as an
/// unknown writer's ([`maybe_written`]).
const fn partial(names: &'static [&'static str], read: fn(&[Word]) -> Writes) -> Reader {
    Reader {
        whole: false,
        ..reader(names, read)
    }
}

const fn reader(names: &'static [&'static str], read: fn(&[Word]) -> Writes) -> Reader {
    Reader {
        names,
        read,
        whole: true,
    }
}

fn reader_of(name: &str) -> Option<&'static Reader> {
    // `pip3.11` is pip.
    let name = if installers::is_pip(name) {
        "pip"
    } else {
        name
    };
    READERS.iter().find(|r| r.names.contains(&name))
}

/// Whether the table knows what `words` writes (so an empty [`writes`] means it writes
/// nothing it does not name): a program of [`SPECS`], or one whose reader knows all it
/// writes.
pub(crate) fn knows_writes(words: &[Word]) -> bool {
    words.first().is_some_and(|w| {
        let name = program_name(&w.value);
        reader_of(name).map_or_else(|| SPECS.iter().any(|s| s.name == name), |r| r.whole)
    })
}

/// The words a program whose writes are not known may write through: every operand, the
/// value of `--name=VALUE`, and what follows the first or the second letter of a short
/// option cluster (`-o~/.bashrc`, `-MF.bashrc`, as a letter may take a value); and the same
/// of each piece of a word between `=` and `,`, where compilers pass options on
/// (`-Wl,-o,FILE`, `--emit=link=FILE`). `zip OUT`, `openssl -out F`, `yq -i . F` all write
/// a file their words name. Each is marked as an option's value or an operand
/// ([`MaybeWritten::option_value`]).
pub(crate) fn maybe_written(words: &[Word]) -> Vec<MaybeWritten> {
    let mut out = Vec::new();
    let mut only_operands = false;
    let mut after_option = false;
    for w in words.iter().skip(1) {
        let v = w.value.as_str();
        if !only_operands && v == "--" {
            only_operands = true;
            after_option = false;
            continue;
        }
        let is_option = !only_operands && v.starts_with('-') && v != "-";
        let pieces = v.split(['=', ',']).filter(|p| p.len() < v.len());
        for piece in std::iter::once(v).chain(pieces) {
            for written in written_through(piece, only_operands) {
                if !written.is_empty() {
                    out.push(MaybeWritten {
                        word: piece_of(w, written),
                        option_value: after_option || is_option,
                    });
                }
            }
        }
        // The word after an option may be its value (`-out F`, `--output F`).
        after_option = is_option && !v.contains('=');
    }
    out
}

/// A word a program whose writes are not known may write through ([`maybe_written`]).
#[derive(Debug, Clone)]
pub(crate) struct MaybeWritten {
    /// The word, or the piece of one, that may name a file.
    pub word: Word,
    /// Whether it is, or may be, an option's value: a piece of an option word (`-oF`,
    /// `--out=F`) or the word after an option (`-out F`). Such a word names a file, never a
    /// subcommand (`npm config get`).
    pub option_value: bool,
}

/// What `piece` (a word, or a piece of one) of a program whose writes are not known may
/// name as written: the piece itself when it is an operand, else what follows the first or
/// the second letter of a single-dash option (`-o` of `-oFILE`, `-MF` of `-MFFILE`). The
/// value of a long option is a piece of its own ([`maybe_written`]).
fn written_through(piece: &str, only_operands: bool) -> Vec<&str> {
    if only_operands || !piece.starts_with('-') || piece == "-" {
        return vec![piece];
    }
    if piece.starts_with("--") {
        return Vec::new();
    }
    let mut letters = piece.char_indices().skip(1);
    let mut out = Vec::new();
    for _ in 0..2 {
        match letters.next() {
            Some((i, c)) if out.is_empty() || c.is_ascii_alphabetic() => {
                out.push(piece.get(i + c.len_utf8()..).unwrap_or_default());
            }
            _ => break,
        }
    }
    out
}

/// Compilers that read more arguments from a response file, a word `@FILE`, besides the
/// compiler drivers ([`crate::commands::compiler_driver`]) and every linker named `ld*`
/// ([`reads_response_files`]).
const RESPONSE_FILE_READERS: &[&str] = &["rustc", "javac", "java"];

/// Whether the program `name` reads a word `@FILE` as a file of more arguments: one of
/// [`RESPONSE_FILE_READERS`] or a linker (`ld`, `ld.lld`, `ld.gold`), also with a target
/// prefix or a version suffix (`x86_64-linux-gnu-gcc-12`, `clang++-15`).
fn reads_response_files(name: &str) -> bool {
    let tool = crate::commands::unversioned_tool(name);
    tool.starts_with("ld")
        || RESPONSE_FILE_READERS.contains(&tool.as_str())
        || crate::commands::compiler_driver(name).is_some()
}

/// The first response file a compiler or a linker is given (`gcc @opts`, `rustc @args`):
/// the options it holds are not on the line, so what the command writes is not known.
/// `None` for other programs (`npm install @scope/pkg` names a package).
pub(crate) fn response_file(words: &[Word]) -> Option<&Word> {
    let name = &words.first()?.value;
    if !reads_response_files(name) {
        return None;
    }
    // Also a piece of an option passed on to the linker, assembler or preprocessor
    // (`-Wl,@opts`; `-Xlinker @opts` is a word of its own).
    words.iter().skip(1).find(|w| {
        let v = w.value.as_str();
        let pieces = match v.strip_prefix("-W") {
            Some(rest) if rest.get(1..2) == Some(",") => rest.get(2..).unwrap_or_default(),
            _ => "",
        };
        let response = |p: &str| p.len() > 1 && p.starts_with('@');
        response(v) || pieces.split(',').any(response)
    })
}

/// Whether `word`, written bare (no `/`), is one of the names a bare git repository is
/// made of (`HEAD`, `config`, `commondir`): protected where git would discover one, but
/// also the subcommand of many programs (`npm config get`), so a word of a program whose
/// writes are not known is not taken for that file.
pub(crate) fn is_bare_repository_name(word: &str) -> bool {
    !word.contains('/')
        && ["head", "config", "commondir"]
            .iter()
            .any(|n| n.eq_ignore_ascii_case(word))
}

/// Whether `words` (argv after quote removal) writes any file by the table, or is `tee`:
/// the danger classifier asks this before it looks for persistence places among the
/// operands.
/// [`knows_writes`] of a command given as words after quote removal.
pub(crate) fn knows_writes_of(words: &[String]) -> bool {
    words
        .first()
        .is_some_and(|w| knows_writes(&[Word::literal(w)]))
}

pub(crate) fn writes_files(words: &[String]) -> bool {
    let words: Vec<Word> = words.iter().map(|w| Word::literal(w)).collect();
    words
        .first()
        .is_some_and(|w| program_name(&w.value) == "tee")
        || !writes(&words).is_empty()
}

/// The files `words` writes through its operands or options, by the [`SPECS`] table. A
/// destination may be a directory: a source is then written inside it under its own name
/// (`cp key dir/` writes `dir/key`), and the contents of a source spelled `src/.` or `src/`
/// (rsync) land below it under names only the source knows.
fn files_written(words: &[Word]) -> Writes {
    let Some(first) = words.first() else {
        return Writes::default();
    };
    let name = program_name(&first.value);
    let Some(spec) = SPECS.iter().find(|s| s.name == name) else {
        return Writes::default();
    };
    let skip = if spec.sub.is_some() { 2 } else { 1 };
    let mut targets = Vec::new();
    let mut operands = Vec::new();
    // The options given, as `-x` or `--long` (maybe abbreviated), for [`When::With`].
    let mut given: Vec<String> = Vec::new();
    // A backup suffix (`-S SUF`, `--suffix=SUF`): with `-b`/`--backup`, the file a
    // destination was is renamed to its name with the suffix.
    let mut suffix: Option<String> = None;
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
            // GNU getopt takes any unique prefix (`--outp`); a prefix of a writing option
            // is read as that option, which only ever finds more writes.
            let writes = |n: &str| !n.is_empty() && spec.long.iter().any(|l| l.starts_with(n));
            let name = long.split_once('=').map_or(long, |(n, _)| n);
            given.push(format!("--{name}"));
            if !name.is_empty() && "suffix".starts_with(name) && spec.short_values.contains('S') {
                suffix = match long.split_once('=') {
                    Some((_, v)) => Some(v.to_owned()),
                    None => it.next().map(|w| w.value.clone()),
                };
                continue;
            }
            match long.split_once('=') {
                Some((n, file)) if writes(n) => targets.push(part_of(w, file)),
                None if writes(long) => targets.extend(it.next().cloned()),
                _ => {}
            }
        } else {
            for (i, c) in v.char_indices().skip(1) {
                given.push(format!("-{c}"));
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
                    } else if c == 'S' {
                        suffix = value.map(|w| w.value);
                    }
                    break;
                }
            }
        }
    }
    let holds = |when: &When| match when {
        When::Never => false,
        When::Always => true,
        When::With(short, long) => given.iter().any(|o| {
            short.chars().any(|c| is_option(o, c, "")) || long.iter().any(|l| is_option(o, '\0', l))
        }),
    };
    let links = holds(&spec.links);
    // The sources a move removes, added after the backups below.
    let mut moved: Vec<Word> = Vec::new();
    let mut out = if spec.operands || holds(&spec.operands_with) {
        // A recursive change (`chmod -R`) reaches every file below each operand.
        let below = if holds(&spec.trees) {
            operands.clone()
        } else {
            Vec::new()
        };
        targets.extend(operands);
        Writes {
            files: targets,
            below,
            ..Writes::default()
        }
    } else if !spec.destination {
        Writes {
            files: targets,
            ..Writes::default()
        }
    } else {
        // `-t DIR` names the destination; else the last of two or more operands.
        let dirs = if !targets.is_empty() {
            targets
        } else if operands.len() >= 2 {
            operands.pop().into_iter().collect()
        } else {
            Vec::new()
        };
        // `cp --parents a/b DEST` writes `DEST/a/b`.
        let parents = holds(&When::With("", &["parents"]));
        let mut out = into_directories(dirs.clone(), &operands, parents);
        if spec.moves {
            moved = operands.clone();
        }
        // A tree copied whole (`cp -r src dest`, `cp -rT src ~`) lands at `dest/src`, or at
        // `dest` itself when `dest` is new or `-T` is given: below `dest`, either way.
        if holds(&spec.trees) {
            for d in dirs {
                if !out.below.iter().any(|b| b.value == d.value) {
                    out.below.push(d);
                }
            }
        }
        out
    };
    out.links = links;
    // GNU `cp`, `mv`, `ln`, `install`: `-b` (`--backup`) renames what was at each written
    // name to that name with the suffix (`~` unless `-S` says otherwise): `cp -b -S .json
    // x .mcp` writes `.mcp.json`.
    if spec.short_values.contains('S') && holds(&When::With("b", &["backup"])) {
        let suffix = suffix.unwrap_or_else(|| "~".to_owned());
        let backups: Vec<Word> = out.files.iter().map(|f| suffixed(f, &suffix)).collect();
        out.files.extend(backups);
    }
    out.files.extend(moved);
    out
}

/// What copying `sources` to each of `dests` writes: each destination, and, as it may be a
/// directory, each source's name inside it (its whole path with `parents`, as `cp
/// --parents` makes it); a source spelled `src/.`, `src/` or `.` puts its
/// contents there, under names only the source knows.
fn into_directories(dests: Vec<Word>, sources: &[Word], parents: bool) -> Writes {
    let mut out = Writes::default();
    for dest in &dests {
        for src in sources {
            let v = src.value.as_str();
            let contents = v.ends_with('/') || v.ends_with("/.") || matches!(v, "." | "..");
            let name = if contents {
                ""
            } else if parents {
                v.trim_start_matches('/')
            } else {
                v.rsplit('/').next().unwrap_or(v)
            };
            let inside = joined_from(dest, name, src);
            if contents {
                out.below.push(inside);
            } else {
                out.files.push(inside);
            }
        }
    }
    out.files.splice(0..0, dests);
    out
}

/// The names a download of `url` may be saved under, as `curl -O` and `wget` name the
/// file: the last segment of the URL's path (`http://h/a/b.txt?x` is `b.txt`), and what
/// follows its last `\` too, where curl 7.88 also cuts (`http://h/x\config` saves
/// `config`). Empty when the path ends in `/` or is empty.
///
/// ```text
/// url_file_names("http://h/a/b.txt?x") == ["b.txt"]
/// url_file_names("http://h/x\\config") == ["x\\config", "config"]
/// ```
fn url_file_names(url: &str) -> Vec<&str> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let path = rest.split(['?', '#']).next().unwrap_or(rest);
    let Some((_, path)) = path.split_once('/') else {
        return Vec::new();
    };
    let segment = path.rsplit('/').next().unwrap_or(path);
    let curl_name = segment.rsplit('\\').next().unwrap_or(segment);
    let mut names = vec![segment, curl_name];
    names.dedup();
    names.retain(|n| !n.is_empty());
    names
}

/// `dir/name` ([`joined_from`]), or `name` as a part of `from` when no directory is given.
fn within(dir: Option<&Word>, name: &str, from: &Word) -> Word {
    dir.map_or_else(|| part_of(from, name), |d| joined_from(d, name, from))
}

/// wget 1.21: `-O`/`--output-document`, the log files `-o`/`-a`; without `-O`, each URL's
/// last path segment (`index.html` for a directory) inside `-P`/`--directory-prefix`; with
/// a recursive or server-named download (`-r`, `-m`, `-p`, `-i`, `--content-disposition`,
/// `-x`), files below that directory under names only the server knows. Long options may be
/// abbreviated.
fn wget_writes(words: &[Word]) -> Writes {
    let p = wget_options(words);
    let mut out = Writes::default();
    for (short, long) in [
        ('O', "output-document"),
        ('o', "output-file"),
        ('a', "append-output"),
        ('\0', "save-cookies"),
        ('\0', "save-headers"),
        ('\0', "warc-file"),
        ('\0', "hsts-file"),
        ('\0', "rejected-log"),
    ] {
        out.files.extend(p.values(short, long).cloned());
    }
    let dir = p.values('P', "directory-prefix").last().cloned();
    // `--default-page=NAME` names what a URL ending in `/` is saved as.
    for page in p.values('\0', "default-page") {
        out.files.push(within(dir.as_ref(), &page.value, page));
    }
    let server_named = p.has('r', "recursive")
        || p.has('m', "mirror")
        || p.has('p', "page-requisites")
        || p.has('i', "input-file")
        || p.has('x', "force-directories")
        || p.has('\0', "content-disposition")
        || p.has('\0', "trust-server-names");
    // `-e CMD` runs a wgetrc command (`output_document=F`, `dir_prefix=D`), and a config
    // file holds such commands: any file may be written.
    if runs_wgetrc_commands(&p) {
        out.below.push(Word::literal("/"));
    }
    if server_named {
        out.below
            .push(dir.clone().unwrap_or_else(|| Word::literal(".")));
    }
    if !p.has('O', "output-document") {
        for url in &p.operands {
            let mut names = url_file_names(&url.value);
            if names.is_empty() {
                names.push("index.html");
            }
            for name in names {
                out.files.push(within(dir.as_ref(), name, url));
            }
        }
    }
    out
}

/// The options and operands of a wget command (`words`, with the program).
fn wget_options(words: &[Word]) -> Parsed {
    parse_options(
        words.get(1..).unwrap_or_default(),
        "aABDeIilOoPQRTtUwXY",
        "",
        WGET_LONG_VALUES,
    )
}

/// Whether wget runs wgetrc commands the line does not spell as options: `-e CMD`
/// (`--execute`) or a config file (`--config F`). A command may name any file to read
/// or write (`post_file = F`, `body_file = F`, `input = F`, `output_document = F`), with
/// spaces around `=` and in any case.
fn runs_wgetrc_commands(p: &Parsed) -> bool {
    p.has('e', "execute") || p.has('\0', "config")
}

/// What wget reads through words that are not paths of their own: anywhere, when it runs
/// wgetrc commands ([`runs_wgetrc_commands`]); its file options (`--post-file F`,
/// `-i F`) name their files as words.
fn wget_reads(words: &[Word]) -> LocalReads {
    let mut out = LocalReads::default();
    if runs_wgetrc_commands(&wget_options(words)) {
        out.below.push(Word::literal("/"));
    }
    out
}

/// wget's long options that take a value (wget 1.21 `wget --help`).
const WGET_LONG_VALUES: &[&str] = &[
    "accept",
    "accept-regex",
    "append-output",
    "base",
    "bind-address",
    "bind-dns-address",
    "body-data",
    "body-file",
    "ca-certificate",
    "ca-directory",
    "certificate",
    "certificate-type",
    "ciphers",
    "compression",
    "config",
    "connect-timeout",
    "crl-file",
    "cut-dirs",
    "default-page",
    "directory-prefix",
    "dns-servers",
    "dns-timeout",
    "domains",
    "exclude-directories",
    "exclude-domains",
    "execute",
    "ftp-password",
    "ftp-user",
    "header",
    "hsts-file",
    "http-password",
    "http-user",
    "include-directories",
    "input-file",
    "level",
    "limit-rate",
    "load-cookies",
    "local-encoding",
    "max-redirect",
    "method",
    "output-document",
    "output-file",
    "password",
    "pinnedpubkey",
    "post-data",
    "post-file",
    "prefer-family",
    "private-key",
    "private-key-type",
    "progress",
    "protocol-directories",
    "proxy-password",
    "proxy-user",
    "quota",
    "random-file",
    "read-timeout",
    "referer",
    "regex-type",
    "reject",
    "reject-regex",
    "remote-encoding",
    "report-speed",
    "restrict-file-names",
    "retry-on-http-error",
    "save-cookies",
    "secure-protocol",
    "timeout",
    "tries",
    "use-askpass",
    "user",
    "user-agent",
    "wait",
    "waitretry",
    "warc-cdx",
    "warc-dedup",
    "warc-file",
    "warc-max-size",
    "warc-tempdir",
];

/// The options and operands of a command, as GNU `getopt` reads them.
#[derive(Default)]
struct Parsed {
    /// Options as `-x` or `--long` (as written, possibly abbreviated), with their value.
    options: Vec<(String, Option<Word>)>,
    operands: Vec<Word>,
    /// How many operands came before a `--`, when one was given.
    dashdash: Option<usize>,
}

impl Parsed {
    /// Whether short option `short` or long option `long` (or a prefix of it, as GNU
    /// accepts) was given.
    fn has(&self, short: char, long: &str) -> bool {
        self.options.iter().any(|(o, _)| is_option(o, short, long))
    }

    /// The values of short option `short` or long option `long`.
    fn values(&self, short: char, long: &str) -> impl Iterator<Item = &Word> + '_ {
        let long = long.to_owned();
        self.options
            .iter()
            .filter(move |(o, _)| is_option(o, short, &long))
            .filter_map(|(_, v)| v.as_ref())
    }
}

/// Whether the option `o` (`-x`, `--long`, `--lo`) is short option `short` or long option
/// `long`.
fn is_option(o: &str, short: char, long: &str) -> bool {
    match o.strip_prefix("--") {
        Some(name) => !name.is_empty() && !long.is_empty() && long.starts_with(name),
        None => o.strip_prefix('-') == Some(short.encode_utf8(&mut [0; 4])),
    }
}

/// Parses `words` (the arguments after the program): `values` are short option letters
/// that take a value (attached or the next word), `attached` those whose value can only be
/// attached (`sed -i.bak`), `long_values` long options that take a value (the next word
/// unless given with `=`; abbreviations count).
fn parse_options(words: &[Word], values: &str, attached: &str, long_values: &[&str]) -> Parsed {
    let mut out = Parsed::default();
    let mut only_operands = false;
    let mut it = words.iter();
    while let Some(w) = it.next() {
        let v = w.value.as_str();
        if only_operands || !v.starts_with('-') || v == "-" {
            out.operands.push(w.clone());
        } else if v == "--" {
            only_operands = true;
            out.dashdash = Some(out.operands.len());
        } else if let Some(long) = v.strip_prefix("--") {
            match long.split_once('=') {
                Some((n, value)) => out
                    .options
                    .push((format!("--{n}"), Some(part_of(w, value)))),
                None => {
                    let takes = long_values.iter().any(|l| l.starts_with(long));
                    let value = if takes { it.next().cloned() } else { None };
                    out.options.push((v.to_owned(), value));
                }
            }
        } else {
            for (i, c) in v.char_indices().skip(1) {
                let rest = v.get(i + c.len_utf8()..).unwrap_or_default();
                if attached.contains(c) {
                    let value = (!rest.is_empty()).then(|| part_of(w, rest));
                    out.options.push((format!("-{c}"), value));
                    break;
                }
                if values.contains(c) {
                    let value = if rest.is_empty() {
                        it.next().cloned()
                    } else {
                        Some(part_of(w, rest))
                    };
                    out.options.push((format!("-{c}"), value));
                    break;
                }
                out.options.push((format!("-{c}"), None));
            }
        }
    }
    out
}

/// `sed -i` / `--in-place` (a suffix may be attached: `-i.bak`, `-ni`) writes every file
/// operand; the first operand is the script unless `-e` or `-f` gives it.
fn sed_writes(words: &[Word]) -> Writes {
    let p = parse_options(
        words.get(1..).unwrap_or_default(),
        "efl",
        "i",
        &["expression", "file", "line-length"],
    );
    if !p.has('i', "in-place") {
        return Writes::default();
    }
    let scripted = p.has('e', "expression") || p.has('f', "file");
    let skip = usize::from(!scripted);
    let suffix = p.values('i', "in-place").last().map(|w| w.value.clone());
    let files: Vec<Word> = p.operands.into_iter().skip(skip).collect();
    Writes {
        files: with_backups(files, suffix.as_deref()),
        below: Vec::new(),
        links: false,
    }
}

/// The files an in-place edit writes: each file, and with a backup suffix the backup,
/// named as GNU sed and perl name it: `FILE` + suffix, or, when the suffix holds `*`, the
/// suffix with each `*` replaced by the file's base name (`-i'bak/*'`), which may name
/// another directory; such a name is taken both as written and beside the file.
fn with_backups(files: Vec<Word>, suffix: Option<&str>) -> Vec<Word> {
    let Some(suffix) = suffix.filter(|s| !s.is_empty()) else {
        return files;
    };
    let mut out = files.clone();
    for f in &files {
        let (dir, base) = match f.value.rsplit_once('/') {
            Some((d, b)) => (Some(d), b),
            None => (None, f.value.as_str()),
        };
        if suffix.contains('*') {
            let name = suffix.replace('*', base);
            out.push(part_of(f, &name));
            if let Some(d) = dir {
                out.push(f.renamed(&format!("{d}/{name}")));
            }
        } else {
            out.push(suffixed(f, suffix));
        }
    }
    out
}

/// `perl -i` (`-pi`, `-i.bak`, `-pie`: the rest of the cluster is the suffix) edits every
/// file operand in place; the first operand is the script unless `-e` or `-E` gives it.
fn perl_writes(words: &[Word]) -> Writes {
    // Switches whose value is the rest of the cluster (`-Idir`, `-MFoo`, `-0777`, `-l`).
    let p = parse_options(
        words.get(1..).unwrap_or_default(),
        "eE",
        "iIMm0lxCdDFV",
        &[],
    );
    if !p.has('i', "") {
        return Writes::default();
    }
    let scripted = p.has('e', "") || p.has('E', "");
    let skip = usize::from(!scripted);
    let suffix = p.values('i', "").last().map(|w| w.value.clone());
    let files: Vec<Word> = p.operands.into_iter().skip(skip).collect();
    Writes {
        files: with_backups(files, suffix.as_deref()),
        below: Vec::new(),
        links: false,
    }
}

/// `patch [ORIGINAL [PATCHFILE]]`: writes `ORIGINAL` (below `-d DIR`), `-o FILE` and the
/// `-r` reject file; with neither a target nor `-o`, every file the patch names (below
/// `-d DIR` or `.`). `--dry-run` writes nothing.
fn patch_writes(words: &[Word]) -> Writes {
    let p = parse_options(
        words.get(1..).unwrap_or_default(),
        "BDdFgioprVYz",
        "",
        &[
            "prefix",
            "ifdef",
            "directory",
            "fuzz",
            "get",
            "input",
            "output",
            "strip",
            "reject-file",
            "version-control",
            "basename-prefix",
            "suffix",
            "quoting-style",
            "reject-format",
            "read-only",
        ],
    );
    if p.has('\0', "dry-run") {
        return Writes::default();
    }
    let dir = p.values('d', "directory").last().cloned();
    let from = dir.clone().map_or(BaseDir::Here, BaseDir::Dir);
    let within = |w: &Word| from.place(w).unwrap_or_else(|| w.clone());
    let mut out = Writes::default();
    out.files.extend(p.values('o', "output").map(&within));
    out.files.extend(p.values('r', "reject-file").map(&within));
    // A backup named with a prefix (`-B .git/hooks/`, `-Y`, `--prefix`, `--basename-prefix`)
    // or a suffix (`-z`, `--suffix`) goes wherever the name leads: the original file is
    // renamed there. Where cannot be known from the words alone, so below `.` (or `-d`).
    let renames = ['B', 'Y', 'z'].iter().any(|c| p.has(*c, ""))
        || ["prefix", "basename-prefix", "suffix"]
            .iter()
            .any(|l| p.has('\0', l));
    if renames {
        out.below
            .push(dir.clone().unwrap_or_else(|| Word::literal(".")));
    }
    match p.operands.first() {
        Some(target) => out.files.push(within(target)),
        None if !p.has('o', "output") => out.below.push(dir.unwrap_or_else(|| Word::literal("."))),
        None => {}
    }
    out
}

/// The directories an extraction writes below: those named, else the working directory.
fn below_or_here(dirs: impl IntoIterator<Item = Word>) -> Vec<Word> {
    let mut out: Vec<Word> = dirs.into_iter().collect();
    if out.is_empty() {
        out.push(Word::literal("."));
    }
    out
}

/// `cpio -i` (`--extract`) writes the archive's members below `-D DIR` (`--directory`) or
/// `.`; `cpio -p DIR` (`--pass-through`) copies the listed files below `DIR`; `cpio -o`
/// writes the `-F`/`-O` archive (`--file`).
fn cpio_writes(words: &[Word]) -> Writes {
    let p = parse_options(
        words.get(1..).unwrap_or_default(),
        "DEFHIMORs",
        "",
        &[
            "directory",
            "pattern-file",
            "file",
            "format",
            "message",
            "owner",
            "block-size",
            "io-size",
            "rsh-command",
        ],
    );
    let mut out = Writes::default();
    if p.has('i', "extract") {
        out.below = below_or_here(p.values('D', "directory").cloned());
    } else if p.has('p', "pass-through") {
        out.below.extend(p.operands.first().cloned());
    } else {
        out.files.extend(p.values('F', "file").cloned());
        out.files.extend(p.values('O', "").cloned());
    }
    out
}

/// 7-Zip: `x` and `e` extract below `-oDIR` or `.`; `a`, `u`, `d`, `rn` write the archive
/// (the first operand after the command letter).
fn seven_zip_writes(words: &[Word]) -> Writes {
    let mut operands = words
        .iter()
        .skip(1)
        .filter(|w| !w.value.starts_with('-') || w.value == "-");
    let Some(command) = operands.next() else {
        return Writes::default();
    };
    let mut out = Writes::default();
    match command.value.as_str() {
        "x" | "e" => {
            out.below = below_or_here(
                words
                    .iter()
                    .filter_map(|w| w.value.strip_prefix("-o").map(|d| part_of(w, d))),
            );
        }
        "a" | "u" | "d" | "rn" => out.files.extend(operands.next().cloned()),
        _ => {}
    }
    out
}

/// `pax -r` (read mode, also `-rw` copy mode) writes the archive's members, or the files it
/// copies, below `.` or the last operand; `pax -w -f F` writes `F`.
fn pax_writes(words: &[Word]) -> Writes {
    let p = parse_options(
        words.get(1..).unwrap_or_default(),
        "bcfopsxBDEGLTU",
        "",
        &[],
    );
    let mut out = Writes::default();
    if p.has('r', "") {
        let dest = if p.has('w', "") {
            p.operands.last().cloned()
        } else {
            None
        };
        out.below.push(dest.unwrap_or_else(|| Word::literal(".")));
    } else if p.has('w', "") {
        out.files.extend(p.values('f', "").cloned());
    }
    out
}

/// `tar -x` writes the archive's members, whatever they are named, below `-C DIR` (each
/// relative one below the one before) or `.`, below `--one-top-level=DIR` named from there,
/// and anywhere (below `/`) with `-P` (`--absolute-names`), which keeps a member's leading
/// `/` and `..`; `tar -c`, `-r`, `-u`, `-A` write the `-f` archive.
fn tar_writes(words: &[Word]) -> Writes {
    let args = words.get(1..).unwrap_or_default();
    // The old form: `tar xzf a.tar`, the first word a cluster without a dash, whose
    // value-taking letters take the next words in turn.
    let mut rebuilt = Vec::with_capacity(args.len() + 2);
    let mut rest = args.iter();
    if let Some(first) = args.first().filter(|w| !w.value.starts_with('-')) {
        rest.next();
        let mut taken = Vec::new();
        for c in first.value.chars() {
            if "fCbFgHKLNTVXI".contains(c) {
                rebuilt.push(part_of(first, &format!("-{c}")));
                taken.extend(rest.next().cloned());
                rebuilt.append(&mut taken);
            } else {
                rebuilt.push(part_of(first, &format!("-{c}")));
            }
        }
    }
    rebuilt.extend(rest.cloned());
    let p = parse_options(
        &rebuilt,
        "fCbFgHKLNTVXI",
        "",
        &[
            "directory",
            "file",
            "blocking-factor",
            "info-script",
            "new-volume-script",
            "listed-incremental",
            "format",
            "tape-length",
            "newer",
            "after-date",
            "files-from",
            "label",
            "exclude-from",
            "use-compress-program",
            "to-command",
            "owner",
            "group",
            "mode",
            "transform",
            "xform",
            "exclude",
            "starting-file",
            "suffix",
            "backup",
            "record-size",
            "volno-file",
            "rsh-command",
            "rmt-command",
            "checkpoint-action",
            "index-file",
        ],
    );
    let mut out = Writes::default();
    if p.has('x', "extract") || p.has('\0', "get") {
        out.below = extraction_directories(&p);
    } else if ['c', 'r', 'u', 'A'].iter().any(|c| p.has(*c, ""))
        || [
            "create",
            "append",
            "update",
            "catenate",
            "concatenate",
            "delete",
        ]
        .iter()
        .any(|l| p.has('\0', l))
    {
        out.files
            .extend(p.values('f', "file").filter(|w| w.value != "-").cloned());
        // `--remove-files` deletes what it archived: a deletion is judged as a write, from
        // the working directory and from each `-C` directory (one of them is the operand's).
        if p.has('\0', "remove-files") {
            let dirs: Vec<BaseDir> = tar_directories(&p).into_iter().map(BaseDir::Dir).collect();
            for o in &p.operands {
                out.files.push(o.clone());
                out.files.extend(dirs.iter().filter_map(|d| d.place(o)));
            }
        }
    }
    out
}

/// The directories `tar -x` writes below: each `-C` directory (or `.`), each
/// `--one-top-level=DIR` named from those, and `/` with `-P` (`--absolute-names`).
fn extraction_directories(p: &Parsed) -> Vec<Word> {
    let dirs = tar_directories(p);
    let mut bases: Vec<BaseDir> = dirs.iter().cloned().map(BaseDir::Dir).collect();
    if bases.is_empty() {
        bases.push(BaseDir::Here);
    }
    let mut out = below_or_here(dirs);
    for top in p.values('\0', "one-top-level") {
        out.extend(bases.iter().filter_map(|b| b.place(top)));
    }
    if p.has('P', "absolute-names") {
        out.push(Word::literal("/"));
    }
    out
}

/// The directories `tar -C DIR` moves to, in order, each relative one below the one before.
fn tar_directories(p: &Parsed) -> Vec<Word> {
    let mut dir = BaseDir::Here;
    let mut out = Vec::new();
    for d in p.values('C', "directory") {
        let next = dir.place(d).unwrap_or_else(|| d.clone());
        out.push(next.clone());
        dir = BaseDir::Dir(next);
    }
    out
}

/// `ar` with `x` extracts the members below `.` (with `P`, their full path names, which
/// may be anywhere: below `/`); with `r`, `q`, `m`, `d` or `s` it writes the archive.
fn ar_writes(words: &[Word]) -> Writes {
    let mut args = words.iter().skip(1);
    let Some(ops) = args.next() else {
        return Writes::default();
    };
    let letters = ops.value.trim_start_matches('-');
    let mut out = Writes::default();
    if letters.contains('x') {
        let dir = if letters.contains('P') { "/" } else { "." };
        out.below.push(part_of(ops, dir));
    } else if letters.contains(['r', 'q', 'm', 'd', 's']) {
        // A relpos or count letter takes the word before the archive.
        let skip = usize::from(letters.contains(['a', 'b', 'i', 'N']));
        out.files.extend(args.nth(skip).cloned());
    }
    out
}

/// `npm config set`/`delete`/`edit`/`fix` (and `npm set`, its alias) writes the user's
/// `~/.npmrc` or the project's `.npmrc` (`--location`): both are judged. The command is
/// any operand, as npm names it (`npm c set`, an option's value before it). `npm link` and
/// global installs write below the global prefix ([`installers::npm_global_writes`]).
/// npm's other writes are not known here (its words are judged as a program's of unknown
/// writes).
fn npm_writes(words: &[Word]) -> Writes {
    let operands: Vec<&str> = words
        .iter()
        .skip(1)
        .map(|w| w.value.as_str())
        .filter(|w| !w.starts_with('-'))
        .collect();
    let command = |w: &str| crate::commands::npm_command(w);
    let sets_config = operands.iter().any(|w| command(w) == Some("set"))
        || operands.windows(2).any(|p| {
            matches!(p, [c, sub] if command(c) == Some("config")
                && matches!(*sub, "set" | "delete" | "edit" | "fix"))
        });
    let mut out = Writes::default();
    if sets_config {
        out.files.push(Word::in_home("~/.npmrc"));
        out.files.push(Word::literal(".npmrc"));
    }
    out.below.extend(installers::npm_global_writes(words));
    out
}

/// `unzip` writes the archive's members below `-d DIR` or `.`, unless it only lists,
/// tests or prints them (`-l`, `-v`, `-t`, `-p`, `-c`, `-z`, `-Z`).
fn unzip_writes(words: &[Word]) -> Writes {
    // `-P PASSWORD` takes a value too.
    let p = parse_options(words.get(1..).unwrap_or_default(), "dP", "", &[]);
    if "lvtpczZ".chars().any(|c| p.has(c, "")) {
        return Writes::default();
    }
    Writes {
        below: below_or_here(p.values('d', "").cloned()),
        ..Writes::default()
    }
}

/// `dir/tail` as a word that keeps `dir`'s home directory and run-time value (`dir` itself
/// when `tail` is empty).
fn joined(dir: &Word, tail: &str) -> Word {
    let mut w = dir.clone();
    if !tail.is_empty() {
        w.value = format!("{}/{tail}", dir.value.trim_end_matches('/'));
    }
    w
}

/// The name `w` with `suffix` added (a backup's `w~`): it keeps `w`'s home directory and
/// run-time value, as the name starts where `w` does.
fn suffixed(w: &Word, suffix: &str) -> Word {
    w.renamed(&format!("{}{suffix}", w.value.trim_end_matches('/')))
}

/// The directory `f` is in, as a word that keeps `f`'s home directory (`.` for a bare
/// name, `/` for a name directly under the root).
fn directory_of(f: &Word) -> Word {
    match f.value.rsplit_once('/') {
        Some(("", _)) => part_of(f, "/"),
        Some((dir, _)) => f.renamed(dir),
        None => Word::literal("."),
    }
}

/// [`joined`], known only at run time also when `from`, the word that gave `tail`, is.
fn joined_from(dir: &Word, tail: &str, from: &Word) -> Word {
    let mut w = joined(dir, tail);
    w.dynamic = w.dynamic.or(from.dynamic);
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn written(line: &str) -> Vec<String> {
        writes(&words(line))
            .files
            .into_iter()
            .map(|w| w.value)
            .collect()
    }

    /// `line`'s words, split at spaces.
    fn words(line: &str) -> Vec<Word> {
        line.split(' ').map(Word::literal).collect()
    }

    /// The words a program of unknown writes given `line` may write through.
    fn maybe(line: &str) -> Vec<String> {
        maybe_written(&words(line))
            .into_iter()
            .map(|w| w.word.value)
            .collect()
    }

    #[test]
    fn a_backup_keeps_the_home_directory_of_its_name() {
        let cmds = crate::shell::parse::parse("mv -T -b -S in pay ~/b", 0).unwrap();
        let found = writes(&cmds[0].words);
        let backup = found.files.iter().find(|w| w.value == "~/bin").unwrap();
        assert!(backup.home, "{found:?}");
        let cmds = crate::shell::parse::parse("sed -i.bak s/a/b/ ~/x", 0).unwrap();
        let found = writes(&cmds[0].words);
        assert!(
            found.files.iter().any(|w| w.value == "~/x.bak" && w.home),
            "{found:?}"
        );
    }

    #[test]
    fn gnu_times_output_file_however_it_is_spelt() {
        for line in [
            "time -o .git/config true",
            "time -o.git/config true",
            "time -po .git/config true",
            "time -ao .git/config true",
            "time --o=.git/config true",
            "time --outp .git/config true",
            "time -f %e --output=.git/config true",
        ] {
            assert_eq!(written(line), [".git/config"], "{line}");
        }
        // `-f`'s value is a format, whatever its letters.
        assert!(written("time -fo x true").is_empty());
        assert!(written("time -p --format=x true").is_empty());
    }

    #[test]
    fn destinations_options_and_operands() {
        assert_eq!(
            written("cp -r src ~/.bashrc"),
            ["~/.bashrc", "~/.bashrc/src"]
        );
        assert_eq!(written("cp -t dir a b"), ["dir", "dir/a", "dir/b"]);
        // A move removes its sources: each is written too.
        assert_eq!(
            written("mv --target-directory=dir a"),
            ["dir", "dir/a", "a"]
        );
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
        assert_eq!(written("chmod -R +x a b"), ["+x", "a", "b"]);
        assert_eq!(written("chown me:me a"), ["me:me", "a"]);
        assert_eq!(
            written("rsync -a -e ssh x y dest/"),
            ["dest/", "dest/x", "dest/y"]
        );
    }

    pub(super) fn below(line: &str) -> Vec<String> {
        let words: Vec<Word> = line.split(' ').map(Word::literal).collect();
        writes(&words).below.into_iter().map(|w| w.value).collect()
    }

    #[test]
    fn in_place_edits_write_every_file_operand() {
        assert_eq!(written("sed -i 1d a b"), ["a", "b"]);
        assert_eq!(written("sed -ni.bak 1d a"), ["a", "a.bak"]);
        assert_eq!(written("sed -ie 1d a"), ["a", "ae"]);
        assert_eq!(written("sed -e 1d -i a b"), ["a", "b"]);
        assert_eq!(written("sed -f s.sed --in-place=.b a"), ["a", "a.b"]);
        assert_eq!(written("sed --in -E s/a/b/ x"), ["x"]);
        assert_eq!(written("sed 1d a"), Vec::<String>::new());
        // A backup suffix names a file too; `*` stands for the file's base name.
        assert_eq!(written("sed -i.bak 1d a"), ["a", "a.bak"]);
        assert_eq!(
            written("sed -i.git/hooks/* s/a/a/ pre-commit"),
            ["pre-commit", ".git/hooks/pre-commit"]
        );
        assert_eq!(written("sed -ic 1d .envr"), [".envr", ".envrc"]);
        assert_eq!(
            written("sed -ibak/* 1d src/a"),
            ["src/a", "bak/a", "src/bak/a"]
        );
        assert_eq!(written("sed -n -e 1p a"), Vec::<String>::new());
        assert_eq!(written("perl -pi -e s/a/b/ a b"), ["a", "b"]);
        assert_eq!(written("perl -pie s/a/b/ a"), ["a", "ae"]);
        assert_eq!(written("perl -i.bak script.pl a"), ["a", "a.bak"]);
        assert_eq!(written("perl -ne print a"), Vec::<String>::new());
    }

    #[test]
    fn patches_write_their_target_or_what_they_name() {
        assert_eq!(written("patch -p1 a p.diff"), ["a"]);
        assert_eq!(written("patch -o out a p.diff"), ["out", "a"]);
        assert_eq!(written("patch -d src a p.diff"), ["src/a"]);
        assert_eq!(written("patch --reject-file x a"), ["x", "a"]);
        assert_eq!(below("patch -p1 -i p.diff"), ["."]);
        assert_eq!(below("patch -d src -p1"), ["src"]);
        assert_eq!(below("patch -o out -i p.diff"), Vec::<String>::new());
        assert!(writes(&[Word::literal("patch"), Word::literal("--dry-run")]).is_empty());
        assert_eq!(below("git apply p.diff"), ["."]);
        assert_eq!(below("git -C sub apply -p1 p.diff"), ["sub"]);
        assert_eq!(below("git apply --check p.diff"), Vec::<String>::new());
        assert_eq!(below("git apply --stat --apply p.diff"), ["."]);
        assert_eq!(below("git log p.diff"), Vec::<String>::new());
    }

    #[test]
    fn archives_write_below_their_directory() {
        assert_eq!(below("tar -xf a.tar"), ["."]);
        assert_eq!(below("tar xzf a.tgz -C out"), ["out"]);
        assert_eq!(below("tar xfC a.tar out"), ["out"]);
        assert_eq!(below("tar -x -f a.tar -C out -C sub"), ["out", "out/sub"]);
        assert_eq!(below("tar --extract --directory=/tmp/x"), ["/tmp/x"]);
        // Members at their absolute paths, or in a directory of their own.
        assert_eq!(below("tar -xPf abs.tar"), [".", "/"]);
        assert_eq!(below("tar xPf abs.tar"), [".", "/"]);
        assert_eq!(below("tar -xf abs.tar --abs"), [".", "/"]);
        assert_eq!(
            below("tar -xf x.tar --one-top-level=../secret"),
            [".", "../secret"]
        );
        assert_eq!(below("tar -xf x.tar -C out --one=/s"), ["out", "/s"]);
        assert_eq!(below("tar -xf x.tar -C out --one-top=t"), ["out", "out/t"]);
        assert_eq!(below("tar -xf x.tar --one-top-level"), ["."]);
        // What `--remove-files` deletes is named from the `-C` directories too.
        assert_eq!(
            written("tar -cf x.tar -C ~ -C .config --remove-files autostart"),
            ["x.tar", "autostart", "~/autostart", "~/.config/autostart"]
        );
        assert_eq!(below("tar -tf a.tar"), Vec::<String>::new());
        assert_eq!(written("tar -czf out.tgz src"), ["out.tgz"]);
        assert_eq!(written("tar -cf - src"), Vec::<String>::new());
        assert_eq!(below("unzip a.zip"), ["."]);
        assert_eq!(below("unzip -o a.zip -d out"), ["out"]);
        assert_eq!(below("unzip -qdout a.zip"), ["out"]);
        assert_eq!(below("unzip -l a.zip"), Vec::<String>::new());
        assert_eq!(below("unzip -Pd a.zip"), ["."]);
    }

    #[test]
    fn words_a_program_of_unknown_writes_may_write_through() {
        assert_eq!(maybe("zip -r out.zip src"), ["out.zip", "src"]);
        assert_eq!(
            maybe("openssl enc -in x -out y"),
            ["enc", "n", "x", "ut", "t", "y"]
        );
        assert_eq!(
            maybe("gen --out=.vscode/t.json -o~/.bashrc -v"),
            [".vscode/t.json", "~/.bashrc"]
        );
        assert_eq!(maybe("x -- -weird"), ["-weird"]);
        assert_eq!(
            maybe("openssl -out=.git/hooks/x"),
            [
                "ut=.git/hooks/x",
                "t=.git/hooks/x",
                "ut",
                "t",
                ".git/hooks/x"
            ]
        );
        assert!(knows_writes(&words("cp a b")));
        assert!(knows_writes(&words("/usr/bin/tar -xf a")));
        assert!(knows_writes(&words("tee x")));
        assert!(!knows_writes(&words("zip out.zip a")));
        let values = |line: &str| {
            maybe_written(&words(line))
                .into_iter()
                .filter(|w| w.option_value)
                .map(|w| w.word.value)
                .collect::<Vec<_>>()
        };
        assert_eq!(values("openssl base64 -d -out HEAD"), ["ut", "t", "HEAD"]);
        assert_eq!(
            values("gcc x.c -oconfig --out=c2 --o c3 -- -o c4"),
            ["config", "onfig", "c2", "c3"]
        );
        assert_eq!(values("npm config get x"), Vec::<String>::new());
        assert_eq!(values("zip -r- config"), ["-", "config"]);
        assert!(is_bare_repository_name("HEAD"));
        assert!(is_bare_repository_name("Config"));
        assert!(!is_bare_repository_name("./config"));
        assert!(!is_bare_repository_name("build"));
    }

    #[test]
    fn compilers_name_outputs_inside_the_pieces_of_a_word() {
        for (line, file) in [
            ("gcc -Wl,-o,.git/hooks/x y.c", ".git/hooks/x"),
            ("gcc -Wl,-o.git/hooks/x y.c", ".git/hooks/x"),
            ("gcc -Wp,-MD,.bashrc y.c", ".bashrc"),
            ("gcc -MF.bashrc -MD y.c", ".bashrc"),
            ("rustc --emit=link=.git/hooks/x x.rs", ".git/hooks/x"),
            ("rustc --emit link=.git/hooks/x x.rs", ".git/hooks/x"),
            (
                "rustc --emit=obj=.bashrc,dep-info=.profile x.rs",
                ".profile",
            ),
        ] {
            assert!(
                maybe(line).contains(&file.to_owned()),
                "{line}: {:?}",
                maybe(line)
            );
        }
        let response = |line: &str| response_file(&words(line)).map(|w| w.value.clone());
        for (line, file) in [
            ("gcc @opts y.c", "@opts"),
            ("x86_64-linux-gnu-g++-12 -O2 @o", "@o"),
            ("clang++-15 @o", "@o"),
            ("/usr/bin/ld.lld @o", "@o"),
            ("rustc @args", "@args"),
            ("java @argfile", "@argfile"),
            ("javac @sources", "@sources"),
        ] {
            assert_eq!(response(line).as_deref(), Some(file), "{line}");
        }
        for line in [
            "npm install @scope/pkg",
            "gcc -o app main.c",
            "gcc @",
            "zip @ x",
        ] {
            assert_eq!(response(line), None, "{line}");
        }
    }

    #[test]
    fn other_archivers_write_below_where_they_extract() {
        assert_eq!(below("bsdtar -xf a.tar -C out"), ["out"]);
        assert_eq!(below("cpio -idm"), ["."]);
        assert_eq!(below("cpio --extract -D out"), ["out"]);
        assert_eq!(below("cpio -pdm dest"), ["dest"]);
        assert_eq!(written("cpio -o -F out.cpio"), ["out.cpio"]);
        assert_eq!(below("7z x a.7z"), ["."]);
        assert_eq!(below("7z x a.7z -oout"), ["out"]);
        assert_eq!(written("7z a ~/.bashrc notes.txt"), ["~/.bashrc"]);
        assert_eq!(below("7z l a.7z"), Vec::<String>::new());
        assert_eq!(below("pax -r -f a.pax"), ["."]);
        assert_eq!(below("pax -rw src dest"), ["dest"]);
        assert_eq!(written("pax -w -f out.pax src"), ["out.pax"]);
        assert_eq!(below("ar x evil.a"), ["."]);
        assert_eq!(below("ar xP evil.a"), ["/"]);
        assert_eq!(written("ar rcs lib.a a.o"), ["lib.a"]);
        assert_eq!(written("ar ra x.o lib.a a.o"), ["lib.a"]);
        assert_eq!(written("ar t lib.a"), Vec::<String>::new());
        assert_eq!(
            written("tar --remove-files -cf x.tar .claude/settings.json"),
            ["x.tar", ".claude/settings.json"]
        );
        assert!(writes(&words("cpio -idm")).may_make_links());
    }

    #[test]
    fn npm_configuration_writes_its_files() {
        assert_eq!(
            written("npm config set script-shell=/x"),
            ["~/.npmrc", ".npmrc"]
        );
        assert_eq!(written("npm config get registry"), Vec::<String>::new());
        assert_eq!(written("npm test"), Vec::<String>::new());
    }

    #[test]
    fn writers_for_the_danger_classifier() {
        let argv = |line: &str| line.split(' ').map(str::to_owned).collect::<Vec<_>>();
        assert!(writes_files(&argv("tee -a x")));
        assert!(writes_files(&argv("sed -i 1d x")));
        assert!(writes_files(&argv("tar -xf a.tar")));
        assert!(!writes_files(&argv("sed 1d x")));
        assert!(!writes_files(&argv("unzip -l a.zip")));
        assert!(!writes_files(&argv("ls -la")));
    }

    #[test]
    fn backups_are_written_under_the_suffixed_name() {
        assert_eq!(
            written("cp -b -S .json payload .mcp"),
            [".mcp", ".mcp/payload", ".mcp.json", ".mcp/payload.json"]
        );
        assert_eq!(
            written("mv --backup --suffix=.toml x mise"),
            ["mise", "mise/x", "mise.toml", "mise/x.toml", "x"]
        );
        assert_eq!(
            written("ln -sb --suf .json x toolgate"),
            ["toolgate", "toolgate/x", "toolgate.json", "toolgate/x.json"]
        );
        assert_eq!(written("cp -b a b"), ["b", "b/a", "b~", "b/a~"]);
        assert_eq!(written("cp a b"), ["b", "b/a"]);
    }

    #[test]
    fn a_destination_may_be_a_directory() {
        assert_eq!(written("cp key dd/"), ["dd/", "dd/key"]);
        assert_eq!(written("cp -t dd a/key"), ["dd", "dd/key"]);
        assert_eq!(written("mv a b"), ["b", "b/a", "a"]);
        assert_eq!(
            written("cp --parents .claude/s.json ~"),
            ["~", "~/.claude/s.json"]
        );
        assert_eq!(
            written("install -d -m 0777 .git/hooks junk"),
            [".git/hooks", "junk"]
        );
        assert_eq!(below("chmod -R 777 ~"), ["777", "~"]);
        assert_eq!(below("chmod 777 x"), Vec::<String>::new());
        assert_eq!(written("cp -r payload/. ~"), ["~"]);
        assert_eq!(below("cp -r payload/. ~"), ["~"]);
        assert_eq!(below("rsync -a payload/ .git/"), [".git/"]);
        assert_eq!(written("cp only"), Vec::<String>::new());
    }

    #[test]
    fn downloads_write_the_names_of_their_urls() {
        assert_eq!(written("curl -O http://h/a/.bashrc?x=1"), [".bashrc"]);
        assert_eq!(
            written("curl -sSLO http://h/x/pre-commit --output-dir .git/hooks"),
            [".git/hooks/pre-commit"]
        );
        assert_eq!(
            written("curl -o x --output-dir .git/hooks http://h/y"),
            ["x", ".git/hooks/x"]
        );
        assert_eq!(written("curl -s http://h/x"), Vec::<String>::new());
        assert_eq!(below("curl -OJ http://h/x"), ["."]);
        // Abbreviated long options, as getopt_long takes them.
        // `--outp` is `--output` or `--output-dir` (curl calls it ambiguous): both count.
        assert_eq!(
            written("curl --outp .bashrc http://h"),
            [".bashrc", ".bashrc/.bashrc"]
        );
        assert_eq!(written("curl --stder F http://h"), ["F"]);
        assert_eq!(written("curl --dump F http://h"), ["F"]);
        assert_eq!(written("wget http://h/.bashrc"), [".bashrc"]);
        assert_eq!(written("wget -P d http://h/"), ["d/index.html"]);
        assert_eq!(written("wget -q --output-doc=F http://h/"), ["F"]);
        assert_eq!(below("wget -r http://h/"), ["."]);
        assert_eq!(below("wget -r -P out http://h/"), ["out"]);
        assert_eq!(written("sort --outp=F x"), ["F"]);
    }

    #[test]
    fn curl_names_a_download_after_the_last_backslash_too() {
        assert_eq!(
            written(r"curl -sO http://h/x\config"),
            [r"x\config", "config"]
        );
        assert_eq!(
            written(r"curl --output-dir .. -sO http://h/a/x\y\Makefile?q"),
            [r"../x\y\Makefile", "../Makefile"]
        );
        assert_eq!(
            written(r"wget http://h/x\.bashrc"),
            [r"x\.bashrc", ".bashrc"]
        );
        assert_eq!(written(r"curl -O http://h/x\"), [r"x\"]);
    }

    #[test]
    fn downloads_that_name_files_the_input_does_not_spell() {
        assert_eq!(
            written("curl -s -O --url file:///s/.bashrc --output-dir /h"),
            ["/h/.bashrc"]
        );
        assert_eq!(below("curl -s -o /h/#1 file:///s/{.bashrc}"), ["/h"]);
        assert_eq!(below("curl -s -o #1 file:///s/{x}"), ["."]);
        assert!(below("curl -s -O --output-dir /h file:///s/{.bashrc}").contains(&"/h".to_owned()));
        assert_eq!(below("curl -s -K - file:///s/x"), ["/"]);
        assert_eq!(
            below("wget -q -e output_document=/h/.bashrc http://h/p"),
            ["/"]
        );
        assert_eq!(
            below("wget --execute=dir_prefix=/h -nc http://h/.bashrc"),
            ["/"]
        );
        assert_eq!(
            below("curl -s -g -o out http://h/{x}"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn wgetrc_commands_may_read_any_file() {
        let read_below = |line: &str| -> Vec<String> {
            local_reads(&words(line))
                .below
                .into_iter()
                .map(|w| w.value)
                .collect()
        };
        for line in [
            "wget -e post_file=s/db.txt http://h/",
            "wget --execute post_file http://h/",
            "wget --exec=body_file=s/db.txt http://h/",
            "wget -qe input=s/list http://h/",
            "wget --config=c http://h/",
        ] {
            assert_eq!(read_below(line), ["/"], "{line}");
        }
        assert!(read_below("wget -q http://h/").is_empty());
    }
}
