//! What gzip and its kin write: each file operand replaced by its compressed twin, or by the
//! name the twin came from when decompressing, with the suffix the words choose.

use super::{joined, parse_options, part_of, program_name, suffixed, Word, Writes};

/// A compressor of the gzip family: its names, its own suffix, and the options that take a
/// value (short letters, long names).
struct Compressor {
    names: &'static [&'static str],
    suffix: &'static str,
    values: &'static str,
    long_values: &'static [&'static str],
}

const COMPRESSORS: &[Compressor] = &[
    Compressor {
        names: &["gzip", "gunzip"],
        suffix: ".gz",
        values: "S",
        long_values: &["suffix"],
    },
    Compressor {
        names: &["pigz", "unpigz"],
        suffix: ".gz",
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
    },
    Compressor {
        names: &["bzip2", "bunzip2", "pbzip2"],
        suffix: ".bz2",
        values: "",
        long_values: &[],
    },
    Compressor {
        names: &["xz", "unxz", "lzma", "unlzma"],
        suffix: ".xz",
        values: "SFCTM",
        long_values: &[
            "suffix",
            "format",
            "check",
            "threads",
            "memlimit",
            "memory",
            "files",
            "files0",
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
    },
    Compressor {
        names: &["zstd", "unzstd", "zstdmt"],
        suffix: ".zst",
        values: "oD",
        long_values: &[
            "output-dir-flat",
            "output-dir-mirror",
            "patch-from",
            "filelist",
        ],
    },
    Compressor {
        names: &["lz4", "unlz4"],
        suffix: ".lz4",
        values: "",
        long_values: &[],
    },
    Compressor {
        names: &["lzip", "plzip"],
        suffix: ".lz",
        values: "obmsn",
        long_values: &[
            "output",
            "member-size",
            "match-length",
            "dictionary-size",
            "threads",
        ],
    },
    Compressor {
        names: &["lzop"],
        suffix: ".lzo",
        values: "oSp",
        long_values: &["output", "suffix", "path"],
    },
    Compressor {
        names: &["brotli", "unbrotli"],
        suffix: ".br",
        values: "oSqw",
        long_values: &[
            "output",
            "suffix",
            "quality",
            "lgwin",
            "large_window",
            "dictionary",
        ],
    },
    Compressor {
        names: &["compress", "uncompress"],
        suffix: ".Z",
        values: "b",
        long_values: &[],
    },
];

/// The names of the programs [`compressor_writes`] reads.
pub(super) const NAMES: &[&str] = &[
    "gzip",
    "gunzip",
    "pigz",
    "unpigz",
    "bzip2",
    "bunzip2",
    "pbzip2",
    "xz",
    "unxz",
    "lzma",
    "unlzma",
    "zstd",
    "unzstd",
    "zstdmt",
    "lz4",
    "unlz4",
    "lzip",
    "plzip",
    "lzop",
    "brotli",
    "unbrotli",
    "compress",
    "uncompress",
];

/// What a compressor writes. Compressing, each file operand `F` is replaced by `F` + the
/// suffix (`-S`/`--suffix`, else the program's own: `gzip -S rc ~/.bash` writes
/// `~/.bashrc`); decompressing (`-d`, `gunzip`, `unxz`, ...), by `F` without that suffix,
/// or without its last extension (`gzip -d .mcp.json.gz` writes `.mcp.json`). `-N`
/// (`--name`) restores the name stored in the archive, any name in `F`'s directory; `-r`
/// works below each directory operand; `-o`/`--output` name the output, and
/// `--output-dir-flat`, `--output-dir-mirror`, `lzop -p` a directory the outputs land in.
/// With `-c` (`--stdout`), `-t` or `-l` the operands are left alone. Each operand is also
/// written (removed, unless `-k`).
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
    for long in ["output-dir-flat", "output-dir-mirror"] {
        out.below.extend(p.values('\0', long).cloned());
    }
    if name == "lzop" {
        out.below.extend(p.values('p', "path").cloned());
    }
    let leaves_operands = p.has('c', "stdout")
        || p.has('\0', "to-stdout")
        || p.has('t', "test")
        || p.has('l', "list");
    if leaves_operands {
        return out;
    }
    let decompressing = p.has('d', "decompress")
        || p.has('\0', "uncompress")
        || name.starts_with("un")
        || matches!(name, "gunzip" | "bunzip2");
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
        if decompressing {
            if let Some(stem) = f.value.strip_suffix(suffix).filter(|s| !s.is_empty()) {
                out.files.push(renamed(f, stem));
            }
            if let Some(stem) = without_extension(&f.value) {
                out.files.push(renamed(f, stem));
            }
            if p.has('N', "name") {
                out.below.push(directory_of(f));
            }
        } else {
            out.files.push(suffixed(f, suffix));
        }
    }
    out
}

/// `w` renamed to `stem`, a start of its own text: it keeps `w`'s home directory.
fn renamed(w: &Word, stem: &str) -> Word {
    let mut out = w.clone();
    out.value = stem.to_owned();
    out
}

/// `path` without the last extension of its last segment (`a/.mcp.json.gz` → `a/.mcp.json`),
/// if it has one after a first character.
fn without_extension(path: &str) -> Option<&str> {
    let start = path.rfind('/').map_or(0, |i| i + 1);
    let dot = path.rfind('.').filter(|&d| d > start)?;
    path.get(..dot)
}

/// The directory `f` is in, as a word (`.` for a bare name).
fn directory_of(f: &Word) -> Word {
    match f.value.rsplit_once('/') {
        Some(("", _)) => part_of(f, "/"),
        Some((dir, _)) => {
            let mut d = joined(f, "");
            d.value = dir.to_owned();
            d
        }
        None => Word::literal("."),
    }
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
            [".mcp.json.gz", ".mcp.json", ".mcp.json"]
        );
        assert_eq!(
            written("gunzip .envrc.gz"),
            [".envrc.gz", ".envrc", ".envrc"]
        );
        assert_eq!(
            written("xz -d --suffix=.x .mcp.json.x"),
            [".mcp.json.x", ".mcp.json", ".mcp.json"]
        );
        assert_eq!(
            written("bzip2 -dk .mcp.json.bz2"),
            [".mcp.json.bz2", ".mcp.json", ".mcp.json"]
        );
        assert_eq!(
            written("zstd -d x.zst -o .envrc"),
            [".envrc", "x.zst", "x", "x"]
        );
        assert!(written("gzip -c a").is_empty());
        assert!(written("gzip -dc a.gz").is_empty());
        assert_eq!(written("zstd -c a -o b"), ["b"]);
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
        assert!(below("gzip -d a.gz").is_empty());
    }
}
