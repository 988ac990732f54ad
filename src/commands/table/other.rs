//! Programs that copy files (read operands judged as reads, destinations as writes), and
//! the version and help forms of common tools.

use crate::commands::spec::{Operands, Program, Syntax};

const SRC: &str = "GNU coreutils 9.1 (Debian 12), PROG --help";

const COPY: &[&str] = &[
    "--help", "--version", "-a --archive", "--attributes-only", "--backup =?", "-b",
    "--copy-contents", "-d", "-f --force", "-i --interactive", "-H", "-l --link",
    "-L --dereference", "-n --no-clobber", "-P --no-dereference", "-p", "--preserve =?",
    "--no-preserve =", "--parents", "-R -r --recursive", "--reflink =?", "--remove-destination",
    "--sparse =", "--strip-trailing-slashes", "-s --symbolic-link", "-S --suffix =",
    "-t --target-directory =:writes", "-T --no-target-directory", "-u --update =?",
    "-v --verbose", "-x --one-file-system", "-Z", "--context =?", "--debug",
    "--exchange", "--no-copy", "-e --exclude =",
];

/// Programs whose operands are read from and written to.
pub(crate) const COPIERS: &[Program] = &[
    Program {
        options: &[COPY],
        operands: Operands::CopyLike,
        aliases: &["mv", "ln"],
        ..Program::new("cp", SRC)
    },
    Program {
        options: &[COPY, &["-C --compare", "-D", "-g --group =", "-m --mode =", "-o --owner =",
            "--strip-program =:runs", "-s --strip :runs", "--preserve-context", "--directory",
            "--preserve-timestamps"]],
        operands: Operands::CopyLike,
        ..Program::new("install", SRC)
    },
    Program {
        options: &[&["--help", "--version"]],
        operands: Operands::Dd,
        ..Program::new("dd", SRC)
    },
    Program {
        options: &[&[
            "-c --create :writes", "-x --extract --get :changes", "-t --list",
            "-r --append :changes", "-u --update :changes", "-A --catenate --concatenate :changes",
            "-d --diff --compare", "--delete :changes", "--test-label",
            "-f --file =:readswrites", "-z --gzip --gunzip --ungzip", "-j --bzip2", "-J --xz",
            "--zstd", "--lzip", "--lzma", "--lzop", "-Z --compress --uncompress",
            "-a --auto-compress", "-v --verbose", "-C --directory =:changes",
            "-I --use-compress-program =:runs", "--to-command =:runs",
            "--checkpoint-action =:runs", "-F --info-script --new-volume-script =:runs",
            "--rsh-command =:runs", "--rmt-command =:runs", "-T --files-from =:reads",
            "-X --exclude-from =:reads", "--exclude =", "-p --preserve-permissions",
            "-h --dereference", "-P --absolute-names", "-O --to-stdout", "-k --keep-old-files",
            "--overwrite", "-W --verify", "-b --blocking-factor =", "-H --format =",
            "--owner =", "--group =", "--mode =", "--mtime =", "--sort =", "--numeric-owner",
            "-S --sparse", "--transform --xform =", "--strip-components =", "--wildcards",
            "--no-recursion", "--recursion", "--one-file-system", "-l --check-links",
            "-g --listed-incremental =:readswrites", "-G --incremental",
            "-N --newer --after-date =", "-U --unlink-first", "-m --touch",
            "-w --interactive", "--help", "--version", "--totals =?", "--checkpoint =?",
            "--check-device", "--no-check-device", "--hole-detection =", "--ignore-failed-read",
            "--level =", "--seek", "--no-seek", "--occurrence =?", "--sparse-version =",
            "--add-file =:reads", "--exclude-backups", "--exclude-caches", "--exclude-caches-all",
            "--exclude-caches-under", "--exclude-ignore =", "--exclude-ignore-recursive =",
            "--exclude-tag =", "--exclude-tag-all =", "--exclude-tag-under =", "--exclude-vcs",
            "--exclude-vcs-ignores", "--null", "--no-null", "--unquote", "--no-unquote",
            "--verbatim-files-from", "--no-verbatim-files-from", "--anchored", "--no-anchored",
            "--ignore-case", "--no-ignore-case", "--no-wildcards", "--wildcards-match-slash",
            "--no-wildcards-match-slash", "--keep-directory-symlink :changes",
            "--keep-newer-files :changes", "--no-overwrite-dir :changes", "--one-top-level =?:changes",
            "--overwrite-dir :changes", "--recursive-unlink :changes", "--remove-files :changes",
            "--skip-old-files :changes", "--ignore-command-error", "--no-ignore-command-error",
            "--atime-preserve =?", "--clamp-mtime", "--delay-directory-restore",
            "--no-delay-directory-restore", "--group-map =:reads", "--owner-map =:reads",
            "--no-same-owner", "--no-same-permissions", "--same-owner", "--same-permissions",
            "-s --preserve-order --same-order", "--acls", "--no-acls", "--selinux",
            "--no-selinux", "--xattrs", "--no-xattrs", "--xattrs-exclude =",
            "--xattrs-include =", "--force-local", "-L --tape-length =", "-M --multi-volume",
            "--volno-file =:readswrites", "-B --read-full-records", "-i --ignore-zeros",
            "--record-size =", "-o --old-archive --portability", "--pax-option =", "--posix",
            "-V --label =", "--no-auto-compress", "--backup =?", "--hard-dereference",
            "-K --starting-file =", "--newer-mtime =", "--suffix =", "--full-time",
            "--index-file =:writes", "--no-quote-chars =", "--quote-chars =", "--quoting-style =",
            "-R --block-number", "--show-defaults", "--show-omitted-dirs",
            "--show-snapshot-field-ranges", "--show-transformed-names --show-stored-names",
            "--utc", "--warning =", "--restrict", "--usage", "--confirmation",
        ]],
        bundled_first: true,
        ..Program::new("tar", "GNU tar 1.34 (Debian 12), tar --help")
    },
];

const fn version_only(name: &'static str, source: &'static str) -> Program {
    Program {
        syntax: Syntax::Git,
        options: &[&["-V --version", "-h --help"]],
        operands: Operands::OnlyTheOption,
        ..Program::new(name, source)
    }
}

/// Tools whose `--version` and `--help` only print. Long options are matched only as
/// spelled in full (these tools do not all resolve abbreviations as GNU does).
pub(crate) const VERSIONS: &[Program] = &[
    version_only("cargo", "cargo 1.x, cargo --help"),
    version_only("rustc", "rustc 1.x, rustc --help"),
    version_only("python3", "Python 3.11 (Debian 12), python3 --help"),
    version_only("python", "Python 3, python --help"),
    version_only("pip", "pip 23 (Debian 12), pip --help"),
    version_only("pip3", "pip 23 (Debian 12), pip3 --help"),
    version_only("make", "GNU make 4.3 (Debian 12), make --help"),
    version_only("gcc", "gcc 12 (Debian 12), gcc --help"),
    version_only("cc", "gcc 12 (Debian 12), cc --help"),
    version_only("clang", "clang, clang --help"),
    version_only("cmake", "cmake, cmake --help"),
    version_only("go", "go, go help"),
    version_only("java", "OpenJDK, java --help"),
    version_only("tsc", "TypeScript, tsc --help"),
    version_only("yarn", "yarn, yarn --help"),
    version_only("pnpm", "pnpm, pnpm --help"),
    version_only("deno", "deno, deno --help"),
    version_only("bun", "bun, bun --help"),
    Program {
        syntax: Syntax::Git,
        options: &[&["-v --version", "-h --help"]],
        operands: Operands::OnlyTheOption,
        aliases: &["nodejs"],
        ..Program::new("node", "Node.js 18 (Debian 12), node --help")
    },
    Program {
        syntax: Syntax::Git,
        options: &[&["-v --version", "-h --help"]],
        operands: Operands::OnlyTheOption,
        ..Program::new("npm", "npm 9 (Debian 12), npm help")
    },
];
