//! Searching, comparing and inspecting: grep, ripgrep, diff, file, tree, xxd, hexdump,
//! strings, column, rev, jq, sed, and shell builtins that only look things up.

use crate::commands::spec::{Operands, Program, Syntax};

const HELP: &[&str] = &["--help", "--version"];

const GREP: &[&str] = &[
    "-E --extended-regexp", "-F --fixed-strings", "-G --basic-regexp", "-P --perl-regexp",
    "-e --regexp =:pattern", "-f --file =:patternfile", "-i -y --ignore-case",
    "--no-ignore-case", "-w --word-regexp", "-x --line-regexp", "-z --null-data",
    "-s --no-messages", "-v --invert-match", "-V --version", "--help", "-m --max-count =",
    "-b --byte-offset", "-n --line-number", "--line-buffered", "-H --with-filename",
    "-h --no-filename", "--label =", "-o --only-matching", "-q --quiet --silent",
    "--binary-files =", "-a --text", "-I", "-d --directories =:recursive", "-D --devices =",
    "-r --recursive :recursive", "-R --dereference-recursive :recursive", "--include =",
    "--exclude =", "--exclude-from =:reads", "--exclude-dir =", "-L --files-without-match",
    "-l --files-with-matches", "-c --count", "-T --initial-tab", "-Z --null",
    "-B --before-context =", "-A --after-context =", "-C --context =", "-#",
    "--group-separator =", "--no-group-separator", "--color --colour =?", "-U --binary",
];

/// Programs that search or show files.
pub(crate) const PROGRAMS: &[Program] = &[
    Program {
        options: &[GREP],
        operands: Operands::PatternThenFiles,
        aliases: &["egrep", "fgrep"],
        ..Program::new("grep", "GNU grep 3.8 (Debian 12), grep --help")
    },
    Program {
        options: &[&[
            "-A --after-context =", "--auto-hybrid-regex", "--no-auto-hybrid-regex",
            "-B --before-context =", "--binary", "--no-binary", "--block-buffered",
            "--no-block-buffered", "-b --byte-offset", "-s --case-sensitive", "--color =",
            "--colors =", "--column", "--no-column", "-C --context =", "--context-separator =",
            "--no-context-separator", "-c --count", "--count-matches", "--crlf", "--no-crlf",
            "--debug", "--dfa-size-limit =", "-E --encoding =", "--no-encoding", "--engine =",
            "--field-context-separator =", "--field-match-separator =",
            "-f --file =:patternfile", "--files", "-l --files-with-matches",
            "--files-without-match", "-F --fixed-strings", "--no-fixed-strings",
            "-L --follow :changes", "--no-follow", "-g --glob =", "--glob-case-insensitive",
            "--no-glob-case-insensitive", "--heading", "--no-heading", "-h --help",
            "--hidden", "--no-hidden", "--iglob =", "-i --ignore-case",
            "--ignore-file =:reads", "--ignore-file-case-insensitive",
            "--no-ignore-file-case-insensitive", "--include-zero", "-v --invert-match",
            "--json", "--no-json", "--line-buffered", "--no-line-buffered",
            "-n --line-number", "-N --no-line-number", "-x --line-regexp",
            "-M --max-columns =", "--max-columns-preview", "--no-max-columns-preview",
            "-m --max-count =", "--max-depth =", "--max-filesize =", "--mmap", "--no-mmap",
            "-U --multiline", "--no-multiline", "--multiline-dotall", "--no-multiline-dotall",
            "--no-config", "--no-ignore", "--ignore", "--no-ignore-dot", "--ignore-dot",
            "--no-ignore-exclude", "--ignore-exclude", "--no-ignore-files", "--ignore-files",
            "--no-ignore-global", "--ignore-global", "--no-ignore-messages",
            "--ignore-messages", "--no-ignore-parent", "--ignore-parent", "--no-ignore-vcs",
            "--ignore-vcs", "--no-messages", "--messages", "--no-pcre2-unicode",
            "--pcre2-unicode", "--no-require-git", "--require-git", "--no-unicode",
            "--unicode", "-0 --null", "--null-data", "--one-file-system",
            "--no-one-file-system", "-o --only-matching", "--passthru", "--path-separator =",
            "-P --pcre2", "--no-pcre2", "--pcre2-version", "--pre =:runs", "--no-pre",
            "--pre-glob =", "-p --pretty", "-q --quiet", "--regex-size-limit =",
            "-e --regexp =:pattern", "-r --replace =", "-z --search-zip :runs",
            "--no-search-zip", "-S --smart-case", "--sort =", "--sortr =", "--stats",
            "--no-stats", "-a --text", "--no-text", "-j --threads =", "--trace", "--trim",
            "--no-trim", "-t --type =", "-T --type-not =", "--type-add =", "--type-clear =",
            "--type-list", "-u --unrestricted", "-V --version", "--vimgrep",
            "-H --with-filename", "-I --no-filename", "-w --word-regexp", "--no-ignore-vcs",
            "--no-filename", "--print0",
        ]],
        operands: Operands::PatternThenFiles,
        recursive: true,
        ..Program::new("rg", "ripgrep 13.0.0 (Debian 12), rg --help")
    },
    Program {
        options: &[HELP, &[
            "--normal", "-q --brief", "-s --report-identical-files", "-c", "-C --context =?",
            "-u", "-U --unified =?", "-e --ed", "-n --rcs", "-y --side-by-side",
            "-W --width =", "--left-column", "--suppress-common-lines",
            "-p --show-c-function", "-F --show-function-line =", "--label =",
            "-t --expand-tabs", "-T --initial-tab", "--tabsize =", "--suppress-blank-empty",
            "-l --paginate :runs", "-r --recursive :recursive", "--no-dereference",
            "-N --new-file", "--unidirectional-new-file", "--ignore-file-name-case",
            "--no-ignore-file-name-case", "-x --exclude =", "-X --exclude-from =:reads",
            "-S --starting-file =", "--from-file =:reads", "--to-file =:reads",
            "-i --ignore-case", "-E --ignore-tab-expansion", "-Z --ignore-trailing-space",
            "-b --ignore-space-change", "-w --ignore-all-space", "-B --ignore-blank-lines",
            "-I --ignore-matching-lines =", "-a --text", "--strip-trailing-cr",
            "-D --ifdef =", "--old-group-format =", "--new-group-format =",
            "--changed-group-format =", "--unchanged-group-format =", "--line-format =",
            "--old-line-format =", "--new-line-format =", "--unchanged-line-format =",
            "-d --minimal", "--horizon-lines =", "--speed-large-files", "--color =?",
            "--palette =", "-P", "-v",
        ]],
        ..Program::new("diff", "GNU diffutils 3.8 (Debian 12), diff --help")
    },
    Program {
        options: &[&[
            "--help", "-v --version", "-m --magic-file =:reads", "-z --uncompress",
            "-Z --uncompress-noreport", "-b --brief", "-c --checking-printout",
            "-e --exclude =", "--exclude-quiet =", "-f --files-from =:reads",
            "-F --separator =", "-i --mime", "--apple", "--extension", "--mime-type",
            "--mime-encoding", "-k --keep-going", "-l --list", "-L --dereference",
            "-h --no-dereference", "-n --no-buffer", "-N --no-pad", "-0 --print0",
            "-p --preserve-date :changes", "-P --parameter =", "-r --raw", "-s --special-files",
            "-S --no-sandbox :changes", "-C --compile :writes", "-d --debug",
        ]],
        ..Program::new("file", "file 5.44 (Debian 12), file --help")
    },
    Program {
        options: &[&[
            "-a", "-d", "-l", "-f", "-x", "-L =", "-R :writes", "-P =", "-I =", "--gitignore",
            "--gitfile =:reads", "--ignore-case", "--matchdirs", "--metafirst", "--prune",
            "--info", "--infofile =:reads", "--noreport", "--charset =", "--filelimit =",
            "-o =:writes", "-q", "-N", "-Q", "-p", "-u", "-g", "-s", "-h", "--si", "--du", "-D",
            "--timefmt =", "-F", "--inodes", "--device", "-v", "-t", "-c", "-U", "-r",
            "--dirsfirst", "--filesfirst", "--sort =", "-i", "-A", "-S", "-n", "-C", "-X",
            "-J", "-H =:changes", "-T =", "--nolinks", "--hintro =:reads", "--houtro =:reads",
            "--fromfile :changes", "--fflinks", "--help", "--version",
        ]],
        ..Program::new("tree", "tree 2.1.0 (Debian 12), tree --help")
    },
    Program {
        syntax: Syntax::Posix,
        options: &[&[
            "-a", "-b", "-C", "-c =", "-d", "-E", "-e", "-g =", "-h", "-i", "-l =", "-n =",
            "-o =", "-p", "-r :changes", "-R =", "-s =", "-u", "-v",
        ]],
        operands: Operands::OneFile,
        ..Program::new("xxd", "xxd 2022-01-14 by Juergen Weigert (Debian 12, vim 9.0), xxd -h")
    },
    Program {
        options: &[&[
            "-b --one-byte-octal", "-c --one-byte-char", "-C --canonical",
            "-d --two-bytes-decimal", "-o --two-bytes-octal", "-x --two-bytes-hex",
            "-L --color =?", "-e --format =", "-f --format-file =:reads", "-n --length =",
            "-s --skip =", "-v --no-squeezing", "-h --help", "-V --version",
        ]],
        ..Program::new("hexdump", "util-linux 2.38.1 (Debian 12), hexdump --help")
    },
    Program {
        options: &[&[
            "-a --all", "-d --data", "-f --print-file-name", "-n --bytes =", "-#",
            "-t --radix =", "-o", "-e --encoding =", "-T --target =",
            "-w --include-all-whitespace", "-s --output-separator =", "-U --unicode =",
            "-h --help", "-v -V --version",
        ]],
        ..Program::new("strings", "GNU binutils 2.40 (Debian 12), strings --help")
    },
    Program {
        options: &[&[
            "-t --table", "-n --table-name =", "-O --table-order =", "-C --table-column =",
            "-N --table-columns =", "-l --table-columns-limit =", "-R --table-right =",
            "-T --table-truncate =", "-E --table-noextreme =", "-W --table-wrap =",
            "-H --table-hide =", "-J --json", "-r --tree =", "-i --tree-id =",
            "-p --tree-parent =", "-d --table-noheadings", "-e --table-header-repeat",
            "-L --keep-empty-lines", "-c --output-width =", "-o --output-separator =",
            "-s --separator =", "-x --fillrows", "-h --help", "-V --version",
        ]],
        ..Program::new("column", "util-linux 2.38.1 (Debian 12), column --help")
    },
    Program {
        options: &[&["-0 --zero", "-h --help", "-V --version"]],
        ..Program::new("rev", "util-linux 2.38.1 (Debian 12), rev --help")
    },
    Program {
        options: &[&[
            "-c", "-n", "-e", "-s", "-r", "-j", "-a", "-S", "-C", "-M", "--tab", "--indent =",
            "-f --from-file =:changes", "-L =:reads", "--arg =2", "--argjson =2",
            "--slurpfile =2:reads", "--rawfile =2:reads", "--args", "--jsonargs",
            "--seq", "--stream", "--ascii-output", "--sort-keys", "--color-output",
            "--monochrome-output", "--raw-output", "--join-output", "--compact-output",
            "--null-input", "--raw-input", "--slurp", "--exit-status", "-h --help",
            "--version",
        ]],
        operands: Operands::JqFilterThenFiles,
        ..Program::new("jq", "jq 1.6 (Debian 12), jq --help and man jq")
    },
    Program {
        options: &[HELP, &[
            "-n --quiet --silent", "--debug", "-e --expression =:sed", "-f --file =:changes",
            "--follow-symlinks", "-i --in-place =?:changes", "-l --line-length =",
            "--posix", "-E -r --regexp-extended", "-s --separate", "--sandbox",
            "-u --unbuffered", "-z --null-data",
        ]],
        operands: Operands::SedScriptThenFiles,
        ..Program::new("sed", "GNU sed 4.9 (Debian 12), sed --help")
    },
    Program {
        options: &[&["-a", "-s", "-V", "--help", "--version"]],
        operands: Operands::NotFiles,
        ..Program::new("which", "debianutils 5.7 (Debian 12), man which")
    },
    Program {
        syntax: Syntax::Posix,
        options: &[&["-a", "-f", "-P", "-p", "-t"]],
        operands: Operands::NotFiles,
        ..Program::new("type", "bash 5.2 (Debian 12), help type")
    },
    Program {
        syntax: Syntax::Posix,
        options: &[&["-p", "-v", "-V"]],
        operands: Operands::NotFiles,
        ..Program::new("command", "bash 5.2 (Debian 12), help command")
    },
    Program {
        syntax: Syntax::Posix,
        options: &[&["-L", "-P", "-e", "-@"]],
        ..Program::new("cd", "bash 5.2 (Debian 12), help cd")
    },
    Program {
        syntax: Syntax::NoOptions,
        operands: Operands::NotFiles,
        aliases: &["export", "declare", "typeset", "local", "readonly"],
        ..Program::new("set", "bash 5.2 (Debian 12), help set; only the harmless forms reach the table")
    },
    Program {
        syntax: Syntax::Posix,
        options: &[&["-v =:changes"]],
        operands: Operands::NotFiles,
        ..Program::new("printf", "bash 5.2 (Debian 12), help printf")
    },
    Program {
        options: &[&["-a --alias", "-A --all-fqdns", "-b --boot :changes", "-d --domain",
            "-f --fqdn --long", "-F --file =:changes", "-i --ip-address", "-I --all-ip-addresses",
            "-s --short", "-y --yp --nis", "-h --help", "-V --version"]],
        operands: Operands::None,
        ..Program::new("hostname", "hostname 3.23 (Debian 12), hostname --help")
    },
];
