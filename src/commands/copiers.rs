//! Programs that copy or archive files they do not name: those that follow the symbolic
//! links below the directories they read, by an option or by default, and those that read
//! the names of the files to take from their input (`cpio -o`, `zip -@`). What they read
//! may lie anywhere, so a Read deny or ask rule that could match any file makes them ask
//! (as `grep -R` does, by its table entry). These programs are not read-only, so they have
//! no entry in the table of read-only programs; this is their one list.

use super::program_name;

/// How one program comes to follow links.
struct Follower {
    /// The program's name.
    name: &'static str,
    /// Short option letters and long options (unique prefixes count) that make it follow.
    short: &'static str,
    long: &'static [&'static str],
    /// It follows without being told, unless one of `unless_short`/`unless_long` is given,
    /// once one of `when_short`/`when_long` is (its recursive option; empty: always).
    by_default: bool,
    when_short: &'static str,
    when_long: &'static [&'static str],
    unless_short: &'static str,
    unless_long: &'static [&'static str],
    /// The first argument may bundle options without a dash (`tar chf`).
    old_style: bool,
}

const fn follower(
    name: &'static str,
    short: &'static str,
    long: &'static [&'static str],
) -> Follower {
    Follower {
        name,
        short,
        long,
        by_default: false,
        when_short: "",
        when_long: &[],
        unless_short: "",
        unless_long: &[],
        old_style: false,
    }
}

/// GNU coreutils 9.1, rsync 3.2, GNU tar 1.34, Info-ZIP zip 3.0, OpenSSH scp 9.2, GNU cpio
/// 2.13, 7-Zip 23 (`-snl` stores links as links; without it they are followed).
const FOLLOWERS: &[Follower] = &[
    follower("cp", "LH", &["dereference"]),
    follower(
        "rsync",
        "Lk",
        &["copy-links", "copy-dirlinks", "copy-unsafe-links"],
    ),
    Follower {
        old_style: true,
        ..follower("tar", "h", &["dereference", "hard-dereference"])
    },
    Follower {
        by_default: true,
        when_short: "rR",
        when_long: &["recurse-paths", "recurse-patterns"],
        unless_short: "y",
        unless_long: &["symlinks"],
        ..follower("zip", "", &[])
    },
    Follower {
        by_default: true,
        when_short: "r",
        ..follower("scp", "", &[])
    },
    follower("cpio", "L", &["dereference"]),
    Follower {
        by_default: true,
        ..follower("7z", "", &[])
    },
    Follower {
        by_default: true,
        ..follower("7za", "", &[])
    },
    Follower {
        by_default: true,
        ..follower("7zz", "", &[])
    },
];

/// Why `words` (a command's argv after quote removal) follows the links below what it
/// reads, if it does.
///
/// ```
/// use toolgate::commands::follows_links_below;
/// let words = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
/// assert!(follows_links_below(&words("tar -chf - dir")).is_some());
/// assert!(follows_links_below(&words("tar chf out.tar dir")).is_some());
/// assert!(follows_links_below(&words("cp -rL dir out")).is_some());
/// assert!(follows_links_below(&words("zip -r out.zip dir")).is_some());
/// assert!(follows_links_below(&words("zip -ry out.zip dir")).is_none());
/// assert!(follows_links_below(&words("cp -r dir out")).is_none());
/// ```
pub fn follows_links_below(words: &[String]) -> Option<String> {
    let name = program_name(words.first()?);
    let f = FOLLOWERS.iter().find(|f| f.name == name)?;
    let options = Options::of(words.get(1..).unwrap_or_default(), f.old_style);
    let follows = if f.by_default {
        let recursive = f.when_short.is_empty() && f.when_long.is_empty()
            || options.given(f.when_short, f.when_long);
        recursive && !options.given(f.unless_short, f.unless_long)
    } else {
        options.given(f.short, f.long)
    };
    follows.then(|| format!("`{name}` follows the symbolic links below the directories it reads"))
}

/// The options of a command line, as GNU `getopt` spells them (without knowing which take
/// values: a value read as letters only ever finds more options).
struct Options<'a> {
    short: Vec<char>,
    long: Vec<&'a str>,
}

impl<'a> Options<'a> {
    fn of(args: &'a [String], old_style: bool) -> Self {
        let mut out = Options {
            short: Vec::new(),
            long: Vec::new(),
        };
        for (i, a) in args.iter().enumerate() {
            if a == "--" {
                break;
            }
            if let Some(long) = a.strip_prefix("--") {
                out.long.push(long.split_once('=').map_or(long, |(n, _)| n));
            } else if let Some(cluster) = a.strip_prefix('-') {
                out.short.extend(cluster.chars());
            } else if old_style && i == 0 {
                out.short.extend(a.chars());
            }
        }
        out
    }

    fn given(&self, short: &str, long: &[&str]) -> bool {
        self.short.iter().any(|c| short.contains(*c))
            || self
                .long
                .iter()
                .any(|n| !n.is_empty() && long.iter().any(|l| l.starts_with(n)))
    }
}

/// Why `words` reads files named by its input or by a list file (`cpio -o`, `zip -@`,
/// `tar -T LIST`, `rsync --files-from=LIST`, `git hash-object --stdin-paths`,
/// `xz --files=LIST`, `zstd --filelist LIST`), if it does: those files are not on the
/// command line. A compressor also replaces each file it reads so (the shell analysis
/// judges it as writing below `/`).
///
/// ```
/// use toolgate::commands::reads_listed_files;
/// let words = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
/// assert!(reads_listed_files(&words("cpio -o -H newc")).is_some());
/// assert!(reads_listed_files(&words("zip -q out.zip -@")).is_some());
/// assert!(reads_listed_files(&words("tar -czf o.tgz -T list.txt")).is_some());
/// assert!(reads_listed_files(&words("git hash-object -w --stdin-paths")).is_some());
/// assert!(reads_listed_files(&words("xz -d --fil=list")).is_some());
/// assert!(reads_listed_files(&words("unxz --files0")).is_some());
/// assert!(reads_listed_files(&words("zstd -d --filelist list")).is_some());
/// assert!(reads_listed_files(&words("xz --format=xz a")).is_none());
/// assert!(reads_listed_files(&words("zip -r out.zip src")).is_none());
/// assert!(reads_listed_files(&words("cpio -idm")).is_none());
/// ```
pub fn reads_listed_files(words: &[String]) -> Option<String> {
    let name = program_name(words.first()?);
    let args = words.get(1..).unwrap_or_default();
    let options = Options::of(args, name == "tar");
    let reads = match name {
        "cpio" => options.given("op", &["create", "pass-through"]),
        "zip" => args.iter().any(|a| a == "-@") || options.given("", &["names-stdin"]),
        "tar" | "bsdtar" => options.given("T", &["files-from"]),
        "rsync" => options.given("", &["files-from"]),
        "git" => args.iter().any(|a| a == "hash-object") && options.given("", &["stdin-paths"]),
        // xz 5.4 `--files[=LIST]`, `--files0[=LIST]` (standard input without a value).
        "xz" | "unxz" | "xzcat" | "lzma" | "unlzma" | "lzcat" | "pxz" => {
            options.given("", &["files", "files0"])
        }
        "zstd" | "unzstd" | "zstdcat" | "zstdmt" => options.given("", &["filelist"]),
        _ => false,
    };
    reads.then(|| format!("`{name}` reads files named by its input, which may be anywhere"))
}
