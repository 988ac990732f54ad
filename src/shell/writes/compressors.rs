//! What gzip and its kin write: each file operand replaced by its compressed twin, or by the
//! name the twin came from when decompressing, with the suffix the words choose.

use super::{directory_of, parse_options, part_of, program_name, suffixed, Word, Writes};

/// A compressor family: its names, its own suffix, the suffixes it strips when
/// decompressing, and the options that take a value (short letters, long names).
struct Compressor {
    names: &'static [&'static str],
    /// Added when compressing (unless `-S`/`--suffix` says otherwise).
    suffix: &'static str,
    /// Stripped when decompressing, each with what takes its place (`.tgz` → `.tar`),
    /// compared in any case (gzip does).
    strips: &'static [(&'static str, &'static str)],
    values: &'static str,
    long_values: &'static [&'static str],
    /// Short option letters that leave the operands alone: to standard output, test, list.
    keeps: &'static str,
    /// An option naming the directory the outputs land in (`lzop -p`, `lrzip -O`).
    out_dir: Option<(char, &'static str)>,
    /// A file operand with one of [`Compressor::strips`] is decompressed without `-d`
    /// (`lz4 x.lz4` writes `x`).
    by_suffix: bool,
}

const fn compressor(names: &'static [&'static str], suffix: &'static str) -> Compressor {
    Compressor {
        names,
        suffix,
        strips: &[],
        values: "",
        long_values: &[],
        keeps: "ctl",
        out_dir: None,
        by_suffix: false,
    }
}

/// gzip 1.12 (`gzip.c`, `known_suffixes`), also for `pigz` (2.6: `.zz`, `.zip`) and
/// `zopfli`.
const GZIP_SUFFIXES: &[(&str, &str)] = &[
    (".gz", ""),
    (".z", ""),
    ("-gz", ""),
    ("-z", ""),
    ("_z", ""),
    (".tgz", ".tar"),
    (".taz", ".tar"),
    (".zz", ""),
    ("-zz", ""),
    (".zip", ""),
];

/// bzip2 1.0.8 (`zSuffix`, `unzSuffix`), also `lbzip2` and `pbzip2`.
const BZIP2_SUFFIXES: &[(&str, &str)] = &[
    (".bz2", ""),
    (".bz", ""),
    (".tbz2", ".tar"),
    (".tbz", ".tar"),
];

/// xz 5.4 (`suffix.c`): its own formats and lzip's.
const XZ_SUFFIXES: &[(&str, &str)] = &[
    (".xz", ""),
    (".txz", ".tar"),
    (".lzma", ""),
    (".tlz", ".tar"),
    (".lz", ""),
    (".pxz", ""),
    (".tpxz", ".tar"),
];

/// zstd 1.5 (`fileio.c`, the formats it decompresses).
const ZSTD_SUFFIXES: &[(&str, &str)] = &[
    (".zst", ""),
    (".tzst", ".tar"),
    (".gz", ""),
    (".tgz", ".tar"),
    (".lzma", ""),
    (".xz", ""),
    (".txz", ".tar"),
    (".lz4", ""),
    (".tlz4", ".tar"),
];

/// lzip 1.23 and its kin (`plzip`, `lunzip`, `clzip`).
const LZIP_SUFFIXES: &[(&str, &str)] = &[(".lz", ""), (".tlz", ".tar")];

const COMPRESSORS: &[Compressor] = &[
    Compressor {
        strips: GZIP_SUFFIXES,
        values: "S",
        long_values: &["suffix"],
        ..compressor(&["gzip", "gunzip", "uncompress"], ".gz")
    },
    Compressor {
        strips: GZIP_SUFFIXES,
        values: "SbpIJ",
        long_values: &[
            "suffix",
            "blocksize",
            "processes",
            "iterations",
            "maxsplits",
            "alias",
            "comment",
        ],
        ..compressor(&["pigz", "unpigz"], ".gz")
    },
    Compressor {
        strips: GZIP_SUFFIXES,
        keeps: "c",
        ..compressor(&["zopfli"], ".gz")
    },
    Compressor {
        strips: BZIP2_SUFFIXES,
        keeps: "ct",
        ..compressor(&["bzip2", "bunzip2", "pbzip2", "lbzip2"], ".bz2")
    },
    Compressor {
        strips: &[(".bz3", "")],
        keeps: "ct",
        ..compressor(&["bzip3"], ".bz3")
    },
    Compressor {
        strips: XZ_SUFFIXES,
        values: "SFCTM",
        long_values: &[
            "suffix",
            "format",
            "check",
            "threads",
            "memlimit",
            "memory",
            "block-size",
            "block-list",
            "filters",
            "filters1",
            "filters2",
            "filters3",
            "filters4",
            "filters5",
            "filters6",
            "filters7",
            "filters8",
            "filters9",
            "memlimit-compress",
            "memlimit-decompress",
            "memlimit-mt-decompress",
        ],
        ..compressor(&["xz", "unxz", "lzma", "unlzma", "pxz"], ".xz")
    },
    // pixz 1.0: `-i IN -o OUT`, or `IN OUT`; `-t` only says the input is not a tarball.
    Compressor {
        strips: XZ_SUFFIXES,
        values: "iopfq",
        keeps: "l",
        ..compressor(&["pixz"], ".xz")
    },
    Compressor {
        strips: ZSTD_SUFFIXES,
        values: "oDp",
        long_values: &[
            "output-dir-flat",
            "output-dir-mirror",
            "patch-from",
            "filelist",
            "processes",
        ],
        ..compressor(&["zstd", "unzstd", "zstdmt", "pzstd"], ".zst")
    },
    Compressor {
        strips: &[(".lz4", "")],
        values: "D",
        // `-l` is the legacy format, not a listing.
        keeps: "ct",
        by_suffix: true,
        ..compressor(&["lz4", "unlz4", "lz4c"], ".lz4")
    },
    Compressor {
        strips: LZIP_SUFFIXES,
        values: "obmsn",
        long_values: &[
            "output",
            "member-size",
            "match-length",
            "dictionary-size",
            "threads",
        ],
        ..compressor(&["lzip", "plzip", "lunzip", "clzip"], ".lz")
    },
    // lrzip 0.651: `-c` checks what it wrote; `-O DIR` is where the outputs go.
    Compressor {
        strips: &[(".lrz", "")],
        values: "oOSpLNwme",
        long_values: &[
            "outfile",
            "outdir",
            "suffix",
            "threads",
            "level",
            "nice-level",
            "window",
            "maxram",
        ],
        keeps: "ti",
        out_dir: Some(('O', "outdir")),
        ..compressor(&["lrzip", "lrunzip"], ".lrz")
    },
    Compressor {
        strips: &[(".lzo", ""), (".tzo", ".tar")],
        values: "oSp",
        long_values: &["output", "suffix", "path"],
        out_dir: Some(('p', "path")),
        ..compressor(&["lzop"], ".lzo")
    },
    Compressor {
        strips: &[(".br", "")],
        values: "oSqw",
        long_values: &[
            "output",
            "suffix",
            "quality",
            "lgwin",
            "large_window",
            "dictionary",
        ],
        keeps: "ct",
        ..compressor(&["brotli", "unbrotli"], ".br")
    },
    Compressor {
        strips: &[(".z", "")],
        values: "b",
        keeps: "c",
        ..compressor(&["compress"], ".Z")
    },
];

/// The names of the programs [`compressor_writes`] reads.
pub(super) const NAMES: &[&str] = &[
    "gzip",
    "gunzip",
    "uncompress",
    "pigz",
    "unpigz",
    "zopfli",
    "bzip2",
    "bunzip2",
    "pbzip2",
    "lbzip2",
    "bzip3",
    "xz",
    "unxz",
    "lzma",
    "unlzma",
    "pxz",
    "pixz",
    "zstd",
    "unzstd",
    "zstdmt",
    "pzstd",
    "lz4",
    "unlz4",
    "lz4c",
    "lzip",
    "plzip",
    "lunzip",
    "clzip",
    "lrzip",
    "lrunzip",
    "lzop",
    "brotli",
    "unbrotli",
    "compress",
];

/// What a compressor writes. Compressing, each file operand `F` is replaced by `F` + the
/// suffix (`-S`/`--suffix`, else the program's own: `gzip -S rc ~/.bash` writes
/// `~/.bashrc`); decompressing (`-d`, `gunzip`, `unxz`, ...), by `F` without that suffix,
/// without any suffix the program strips (`gzip -d .bashrc-gz` writes `.bashrc`, `.tgz`
/// becomes `.tar`), or without its last extension (`gzip -d .mcp.json.gz` writes
/// `.mcp.json`). `-N` (`--name`) restores the name stored in the archive, any name in `F`'s
/// directory; `-r` works below each directory operand; `-o`/`--output` name the output, and
/// `--output-dir-flat`, `--output-dir-mirror`, `lzop -p`, `lrzip -O` a directory the outputs
/// land in. A list of files to work on (`xz --files=LIST`, `zstd --filelist LIST`) names
/// files anywhere: below `/`. With `-c` (`--stdout`), `-t` or `-l` the operands are left
/// alone. Each operand is also written (removed, unless `-k`).
pub(super) fn compressor_writes(words: &[Word]) -> Writes {
    let Some(first) = words.first() else {
        return Writes::default();
    };
    let name = program_name(&first.value);
    let Some(c) = COMPRESSORS.iter().find(|c| c.names.contains(&name)) else {
        return Writes::default();
    };
    let p = parse_options(
        words.get(1..).unwrap_or_default(),
        c.values,
        "",
        c.long_values,
    );
    let mut out = Writes::default();
    out.files.extend(p.values('o', "output").cloned());
    out.files.extend(p.values('\0', "outfile").cloned());
    for long in ["output-dir-flat", "output-dir-mirror"] {
        out.below.extend(p.values('\0', long).cloned());
    }
    if let Some((short, long)) = c.out_dir {
        out.below.extend(p.values(short, long).cloned());
    }
    let leaves_operands = c.keeps.chars().any(|k| p.has(k, ""))
        || ["stdout", "to-stdout", "test", "list", "info"]
            .iter()
            .any(|l| p.has('\0', l));
    if leaves_operands {
        return out;
    }
    if reads_a_list(words) {
        out.below.push(part_of(first, "/"));
    }
    let decompressing = p.has('d', "decompress")
        || p.has('\0', "uncompress")
        || name.starts_with("un")
        || matches!(name, "gunzip" | "bunzip2" | "lrunzip" | "lunzip");
    let suffix = p
        .values('S', "suffix")
        .last()
        .map_or(c.suffix, |w| w.value.as_str());
    // `-r` replaces every file below a directory operand (`.git/config` among them when
    // the operand holds the repository), and names them from what it finds there.
    let recursive = p.has('r', "recursive");
    let files: Vec<&Word> = p.operands.iter().filter(|w| w.value != "-").collect();
    for f in files {
        out.files.push(f.clone());
        if recursive {
            out.below.push(f.clone());
        }
        let stems = decompressed_names(c, f, suffix);
        if decompressing || (c.by_suffix && !stems.is_empty()) {
            let other =
                without_extension(&f.value).filter(|s| !stems.iter().any(|w| w.value == *s));
            out.files.extend(stems);
            out.files.extend(other.map(|stem| f.renamed(stem)));
            if p.has('N', "name") {
                out.below.push(directory_of(f));
            }
        } else {
            out.files.push(suffixed(f, suffix));
        }
    }
    out
}

/// Whether the compressor `words` reads the names of the files it works on from a list
/// (`xz --files=LIST`): the one list of such options is [`crate::commands::reads_listed_files`].
fn reads_a_list(words: &[Word]) -> bool {
    let values: Vec<String> = words.iter().map(|w| w.value.clone()).collect();
    crate::commands::reads_listed_files(&values).is_some()
}

/// The names decompressing `f` writes by the suffixes `c` strips, and by `suffix` (the
/// program's own or `-S`): each stem, with what replaces the suffix (`x.tgz` → `x.tar`).
fn decompressed_names(c: &Compressor, f: &Word, suffix: &str) -> Vec<Word> {
    let mut out = Vec::new();
    for (strip, put) in std::iter::once((suffix, "")).chain(c.strips.iter().copied()) {
        if let Some(stem) = strip_suffix_any_case(&f.value, strip) {
            let name = format!("{stem}{put}");
            if !out.iter().any(|w: &Word| w.value == name) {
                out.push(f.renamed(&name));
            }
        }
    }
    out
}

/// `path` without `suffix`, compared in any case, when something other than a `/` is left
/// before it (`a/.gz` is no compressed file of `a/`).
fn strip_suffix_any_case<'a>(path: &'a str, suffix: &str) -> Option<&'a str> {
    let at = path.len().checked_sub(suffix.len())?;
    let stem = path.get(..at)?;
    let tail = path.get(at..)?;
    (!suffix.is_empty()
        && tail.eq_ignore_ascii_case(suffix)
        && !stem.is_empty()
        && !stem.ends_with('/'))
    .then_some(stem)
}

/// `path` without the last extension of its last segment (`a/.mcp.json.gz` → `a/.mcp.json`),
/// if it has one after a first character.
fn without_extension(path: &str) -> Option<&str> {
    let start = path.rfind('/').map_or(0, |i| i + 1);
    let dot = path.rfind('.').filter(|&d| d > start)?;
    path.get(..dot)
}

#[cfg(test)]
mod tests {
    use super::super::tests::written;
    use super::*;

    #[test]
    fn compressing_and_decompressing_name_the_twin() {
        assert_eq!(written("gzip -S rc ~/.bash"), ["~/.bash", "~/.bashrc"]);
        assert_eq!(written("gzip --suffix=rc .bash"), [".bash", ".bashrc"]);
        assert_eq!(written("xz a"), ["a", "a.xz"]);
        assert_eq!(
            written("gzip -d .mcp.json.gz"),
            [".mcp.json.gz", ".mcp.json"]
        );
        assert_eq!(written("gunzip .envrc.gz"), [".envrc.gz", ".envrc"]);
        assert_eq!(
            written("xz -d --suffix=.x .mcp.json.x"),
            [".mcp.json.x", ".mcp.json"]
        );
        assert_eq!(
            written("bzip2 -dk .mcp.json.bz2"),
            [".mcp.json.bz2", ".mcp.json"]
        );
        assert_eq!(written("zstd -d x.zst -o .envrc"), [".envrc", "x.zst", "x"]);
        assert!(written("gzip -c a").is_empty());
        assert!(written("gzip -dc a.gz").is_empty());
        assert_eq!(written("zstd -c a -o b"), ["b"]);
    }

    #[test]
    fn every_suffix_a_family_strips_names_a_file() {
        assert_eq!(written("gzip -d .bashrc-gz"), [".bashrc-gz", ".bashrc"]);
        assert_eq!(written("gunzip .bashrc_z"), [".bashrc_z", ".bashrc"]);
        assert_eq!(written("gzip -d .bashrc.GZ"), [".bashrc.GZ", ".bashrc"]);
        assert_eq!(written("gzip -d x.tgz"), ["x.tgz", "x.tar", "x"]);
        assert_eq!(written("bunzip2 .bashrc.bz"), [".bashrc.bz", ".bashrc"]);
        assert_eq!(
            written("unxz ~/.profile.lzma"),
            ["~/.profile.lzma", "~/.profile"]
        );
        assert_eq!(written("zstd -d .envrc.gz"), [".envrc.gz", ".envrc"]);
        // A suffix alone is no compressed file of its directory.
        assert_eq!(written("gzip -d a/-gz"), ["a/-gz"]);
    }

    #[test]
    fn other_compressors_and_their_names() {
        assert_eq!(
            written("pzstd -q -d .bashrc.zst"),
            [".bashrc.zst", ".bashrc"]
        );
        assert_eq!(
            written("lz4c -q -m -d .bashrc.lz4"),
            [".bashrc.lz4", ".bashrc"]
        );
        // lz4 decompresses a `.lz4` operand without `-d`; its `-l` is a format, not a list.
        assert_eq!(written("lz4 -l -m .bashrc.lz4"), [".bashrc.lz4", ".bashrc"]);
        assert_eq!(written("lbzip2 -d x.tbz2"), ["x.tbz2", "x.tar", "x"]);
        assert_eq!(written("pixz -d x.tpxz"), ["x.tpxz", "x.tar", "x"]);
        assert_eq!(
            written("lrunzip -c .bashrc.lrz"),
            [".bashrc.lrz", ".bashrc"]
        );
        assert_eq!(written("plzip -d x.tlz"), ["x.tlz", "x.tar", "x"]);
        assert_eq!(written("zstdmt a"), ["a", "a.zst"]);
        assert_eq!(written("pzstd -c -d a.zst"), Vec::<String>::new());
        let mut names: Vec<&str> = COMPRESSORS.iter().flat_map(|c| c.names).copied().collect();
        let mut listed = NAMES.to_vec();
        names.sort_unstable();
        listed.sort_unstable();
        assert_eq!(names, listed);
    }

    #[test]
    fn a_list_of_files_names_files_anywhere() {
        let below = |line: &str| -> Vec<String> {
            let words: Vec<Word> = line.split(' ').map(Word::literal).collect();
            compressor_writes(&words)
                .below
                .into_iter()
                .map(|w| w.value)
                .collect()
        };
        for line in [
            "xz -d --files=list",
            "xz --files0=list",
            "xz -d --fil=list",
            "xz -d --files",
            "unxz --files=list",
            "lzma -d --files=list",
            "zstd -d --filelist list",
            "zstd --filelist=list",
            "unzstd --filel list",
        ] {
            assert_eq!(below(line), ["/"], "{line}");
        }
        // `--files` takes its value only with `=`: the next word is an operand.
        assert_eq!(written("xz --files a"), ["a", "a.xz"]);
        assert!(below("xz -c --files=list").is_empty());
        assert!(below("xz -d a.xz").is_empty());
    }

    #[test]
    fn a_stored_name_or_a_tree_is_below_its_directory() {
        let below = |line: &str| -> Vec<String> {
            let words: Vec<Word> = line.split(' ').map(Word::literal).collect();
            compressor_writes(&words)
                .below
                .into_iter()
                .map(|w| w.value)
                .collect()
        };
        assert_eq!(below("gzip -dN notes.gz"), ["."]);
        assert_eq!(below("gzip -dN ~/x/notes.gz"), ["~/x"]);
        assert_eq!(below("gzip -r src"), ["src"]);
        assert_eq!(
            below("zstd --output-dir-flat ~/.local/bin a"),
            ["~/.local/bin"]
        );
        assert_eq!(below("lzop -p ~/.local/bin a"), ["~/.local/bin"]);
        assert_eq!(below("lrzip -O ~/.local/bin a"), ["~/.local/bin"]);
        assert_eq!(below("lrzip --outdir=~/.local/bin a"), ["~/.local/bin"]);
        assert!(below("gzip -d a.gz").is_empty());
    }
}
