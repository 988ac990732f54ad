//! GNU coreutils 9.1 (Debian 12): each entry from `PROG --help` on that system.

use crate::commands::spec::{Operands, Program, Syntax};

const HELP: &[&str] = &["--help", "--version"];
const SRC: &str = "GNU coreutils 9.1 (Debian 12), PROG --help";
const SUMS: &[&str] = &[
    "-b --binary",
    // The operands are lists of files, each opened.
    "-c --check :readslist",
    "--tag",
    "-t --text",
    "-z --zero",
    "--ignore-missing",
    "--quiet",
    "--status",
    "--strict",
    "-w --warn",
];

/// The coreutils programs that only read (or print).
pub(crate) const PROGRAMS: &[Program] = &[
    Program {
        options: &[
            HELP,
            &[
                "-a --all",
                "-A --almost-all",
                "--author",
                "-b --escape",
                "--block-size =",
                "-B --ignore-backups",
                "-c",
                "-C",
                "--color =?",
                "-d --directory",
                "-D --dired",
                "-f",
                // The short option takes no value: only `--classify=` does.
                "-F",
                "--classify =?",
                "--file-type",
                "--format =",
                "--full-time",
                "-g",
                "--group-directories-first",
                "-G --no-group",
                "-h --human-readable",
                "--si",
                "-H --dereference-command-line",
                "--dereference-command-line-symlink-to-dir",
                "--hide =",
                "--hyperlink =?",
                "--indicator-style =",
                "-i --inode",
                "-I --ignore =",
                "-k --kibibytes",
                "-l",
                // Follows every link it meets, below the directories it lists too (`-R`).
                "-L --dereference :follows",
                "-m",
                "-n --numeric-uid-gid",
                "-N --literal",
                "-o",
                "-p",
                "-q --hide-control-chars",
                "--show-control-chars",
                "-Q --quote-name",
                "--quoting-style =",
                "-r --reverse",
                "-R --recursive",
                "-s --size",
                "-S",
                "--sort =",
                "--time =",
                "--time-style =",
                "-t",
                "-T --tabsize =",
                "-u",
                "-U",
                "-v",
                "-w --width =",
                "-x",
                "-X",
                "-Z --context",
                "--zero",
                "-1",
            ],
        ],
        reads_working_directory: true,
        ..Program::new("ls", SRC)
    },
    Program {
        options: &[
            HELP,
            &[
                "-A --show-all",
                "-b --number-nonblank",
                "-e",
                "-E --show-ends",
                "-n --number",
                "-s --squeeze-blank",
                "-t",
                "-T --show-tabs",
                "-u",
                "-v --show-nonprinting",
            ],
        ],
        ..Program::new("cat", SRC)
    },
    Program {
        options: &[
            HELP,
            &[
                "-c --bytes =",
                "-n --lines =",
                "-q --quiet --silent",
                "-v --verbose",
                "-z --zero-terminated",
                "-#",
            ],
        ],
        ..Program::new("head", SRC)
    },
    Program {
        options: &[
            HELP,
            &[
                "-c --bytes =",
                // The short option takes no value: only `--follow=` does.
                "-f",
                "--follow =?",
                "-F",
                "-n --lines =",
                "--max-unchanged-stats =",
                "--pid =",
                "-q --quiet --silent",
                "--retry",
                "-s --sleep-interval =",
                "-v --verbose",
                "-z --zero-terminated",
                "-#",
            ],
        ],
        ..Program::new("tail", SRC)
    },
    Program {
        options: &[
            HELP,
            &[
                "-c --bytes",
                "-m --chars",
                "-l --lines",
                "--files0-from =:readslist",
                "-L --max-line-length",
                "-w --words",
                "--total =",
            ],
        ],
        ..Program::new("wc", SRC)
    },
    Program {
        options: &[HELP, &["-L --logical", "-P --physical"]],
        operands: Operands::None,
        ..Program::new("pwd", SRC)
    },
    Program {
        options: &[
            HELP,
            &[
                "--bytes =",
                "-i --ignore-initial =",
                "-l --verbose",
                "-b --print-bytes",
                "-n --bytes =",
                "-s --quiet --silent",
            ],
        ],
        ..Program::new("cmp", "GNU diffutils 3.8 (Debian 12), cmp --help")
    },
    Program {
        options: &[
            HELP,
            &[
                "-1",
                "-2",
                "-3",
                "--check-order",
                "--nocheck-order",
                "--output-delimiter =",
                "--total",
                "-z --zero-terminated",
            ],
        ],
        ..Program::new("comm", SRC)
    },
    Program {
        options: &[
            HELP,
            &[
                "-L --dereference",
                "-f --file-system",
                "--cached =",
                "-c --format =",
                "--printf =",
                "-t --terse",
            ],
        ],
        ..Program::new("stat", SRC)
    },
    Program {
        options: &[
            HELP,
            &[
                "-0 --null",
                "-a --all",
                "--apparent-size",
                "-B --block-size =",
                "-b --bytes",
                "-c --total",
                "-D --dereference-args -H",
                "-d --max-depth =",
                "--files0-from =:readslist",
                "--inodes",
                "-h --human-readable",
                "-k",
                // Follows every link it meets, below the directories it lists too (`-R`).
                "-L --dereference :follows",
                "-l --count-links",
                "-m",
                "-P --no-dereference",
                "-S --separate-dirs",
                "--si",
                "-s --summarize",
                "-t --threshold =",
                "--time =?",
                "--time-style =",
                "-X --exclude-from =:reads",
                "--exclude =",
                "-x --one-file-system",
            ],
        ],
        reads_working_directory: true,
        ..Program::new("du", SRC)
    },
    Program {
        options: &[
            HELP,
            &[
                "-a --all",
                "-B --block-size =",
                "-h --human-readable",
                "-H --si",
                "-i --inodes",
                "-k",
                "-l --local",
                "--no-sync",
                "--output =?",
                "-P --portability",
                "--sync",
                "--total",
                "-t --type =",
                "-T --print-type",
                "-x --exclude-type =",
                "-v",
            ],
        ],
        ..Program::new("df", SRC)
    },
    Program {
        options: &[
            HELP,
            &[
                "-b --ignore-leading-blanks",
                "-d --dictionary-order",
                "-f --ignore-case",
                "-g --general-numeric-sort",
                "-i --ignore-nonprinting",
                "-M --month-sort",
                "-h --human-numeric-sort",
                "-n --numeric-sort",
                "-R --random-sort",
                "--random-source =:reads",
                "-r --reverse",
                "--sort =",
                "-V --version-sort",
                "--batch-size =",
                // The short option takes no value: only `--check=` does.
                "-c",
                "--check =?",
                "-C",
                "--compress-program =:runs",
                "--debug",
                "--files0-from =:readslist",
                "-k --key =",
                "-m --merge",
                "-o --output =:writes",
                "-s --stable",
                "-S --buffer-size =",
                "-t --field-separator =",
                "-T --temporary-directory =:writes",
                "--parallel =",
                "-u --unique",
                "-z --zero-terminated",
            ],
        ],
        ..Program::new("sort", SRC)
    },
    Program {
        options: &[
            HELP,
            &[
                "-c --count",
                "-d --repeated",
                "-D",
                "--all-repeated =?",
                "-f --skip-fields =",
                "--group =?",
                "-i --ignore-case",
                "-s --skip-chars =",
                "-u --unique",
                "-z --zero-terminated",
                "-w --check-chars =",
            ],
        ],
        operands: Operands::OneFile,
        ..Program::new("uniq", SRC)
    },
    Program {
        options: &[
            HELP,
            &[
                "-b --bytes =",
                "-c --characters =",
                "-d --delimiter =",
                "-f --fields =",
                "-n",
                "--complement",
                "-s --only-delimited",
                "--output-delimiter =",
                "-z --zero-terminated",
            ],
        ],
        ..Program::new("cut", SRC)
    },
    Program {
        options: &[
            HELP,
            &[
                "-c -C --complement",
                "-d --delete",
                "-s --squeeze-repeats",
                "-t --truncate-set1",
            ],
        ],
        operands: Operands::NotFiles,
        ..Program::new("tr", SRC)
    },
    Program {
        options: &[
            HELP,
            &[
                "-b --body-numbering =",
                "-d --section-delimiter =",
                "-f --footer-numbering =",
                "-h --header-numbering =",
                "-i --line-increment =",
                "-l --join-blank-lines =",
                "-n --number-format =",
                "-p --no-renumber",
                "-s --number-separator =",
                "-v --starting-line-number =",
                "-w --number-width =",
            ],
        ],
        ..Program::new("nl", SRC)
    },
    Program {
        options: &[HELP, &["-b --before", "-r --regex", "-s --separator ="]],
        ..Program::new("tac", SRC)
    },
    Program {
        options: &[HELP, SUMS],
        aliases: &[
            "sha1sum",
            "sha224sum",
            "sha256sum",
            "sha384sum",
            "sha512sum",
        ],
        ..Program::new("md5sum", SRC)
    },
    Program {
        options: &[HELP, SUMS, &["-l --length ="]],
        ..Program::new("b2sum", SRC)
    },
    Program {
        options: &[
            HELP,
            SUMS,
            &[
                "-a --algorithm =",
                "--debug",
                "-l --length =",
                "--untagged",
                "--base64",
                "--raw",
            ],
        ],
        ..Program::new("cksum", SRC)
    },
    Program {
        options: &[
            HELP,
            &[
                "-e --canonicalize-existing",
                "-m --canonicalize-missing",
                "-L --logical",
                "-P --physical",
                "-q --quiet",
                "--relative-to =",
                "--relative-base =",
                "-s --strip --no-symlinks",
                "-z --zero",
            ],
        ],
        ..Program::new("realpath", SRC)
    },
    Program {
        options: &[
            HELP,
            &[
                "-f --canonicalize",
                "-e --canonicalize-existing",
                "-m --canonicalize-missing",
                "-n --no-newline",
                "-q --quiet -s --silent",
                "-v --verbose",
                "-z --zero",
            ],
        ],
        ..Program::new("readlink", SRC)
    },
    Program {
        options: &[HELP, &["-a --multiple", "-s --suffix =", "-z --zero"]],
        operands: Operands::NotFiles,
        ..Program::new("basename", SRC)
    },
    Program {
        options: &[HELP, &["-z --zero"]],
        operands: Operands::NotFiles,
        ..Program::new("dirname", SRC)
    },
    Program {
        options: &[
            HELP,
            &[
                "-A --address-radix =",
                "--endian =",
                "-j --skip-bytes =",
                "-N --read-bytes =",
                "-S --strings =?",
                "-t --format =",
                "-v --output-duplicates",
                "-w --width =?",
                "--traditional",
                "-a",
                "-b",
                "-c",
                "-d",
                "-f",
                "-i",
                "-l",
                "-o",
                "-s",
                "-x",
            ],
        ],
        ..Program::new("od", SRC)
    },
    Program {
        options: &[
            HELP,
            &[
                "-d --date =:date",
                "--debug",
                // Each line is a date string, which may name a time zone file.
                "-f --file =:readslist",
                "-I --iso-8601 =?",
                "--resolution",
                "-R --rfc-email",
                "--rfc-3339 =",
                "-r --reference =:reads",
                "-s --set =:changes",
                "-u --utc --universal",
            ],
        ],
        operands: Operands::Format,
        ..Program::new("date", SRC)
    },
    Program {
        options: &[HELP],
        operands: Operands::None,
        ..Program::new("whoami", SRC)
    },
    Program {
        options: &[
            HELP,
            &[
                "-a",
                "-Z --context",
                "-g --group",
                "-G --groups",
                "-n --name",
                "-r --real",
                "-u --user",
                "-z --zero",
            ],
        ],
        operands: Operands::NotFiles,
        ..Program::new("id", SRC)
    },
    Program {
        options: &[
            HELP,
            &[
                "-a --all",
                "-s --kernel-name",
                "-n --nodename",
                "-r --kernel-release",
                "-v --kernel-version",
                "-m --machine",
                "-p --processor",
                "-i --hardware-platform",
                "-o --operating-system",
            ],
        ],
        operands: Operands::None,
        ..Program::new("uname", SRC)
    },
    Program {
        options: &[
            HELP,
            &["-f --format =", "-s --separator =", "-w --equal-width"],
        ],
        operands: Operands::NotFiles,
        ..Program::new("seq", SRC)
    },
    Program {
        options: &[HELP],
        operands: Operands::NotFiles,
        ..Program::new("sleep", SRC)
    },
    Program {
        options: &[HELP, &["--all", "--ignore ="]],
        operands: Operands::None,
        ..Program::new("nproc", SRC)
    },
    Program {
        options: &[
            HELP,
            &[
                "-a --append",
                "-i --ignore-interrupts",
                "-p",
                "--output-error =?",
            ],
        ],
        // Its files are judged as writes by the shell analysis.
        operands: Operands::NotFiles,
        ..Program::new("tee", SRC)
    },
    Program {
        options: &[HELP, &["-d --decode", "-i --ignore-garbage", "-w --wrap ="]],
        aliases: &["base32"],
        ..Program::new("base64", SRC)
    },
    Program {
        syntax: Syntax::NoOptions,
        operands: Operands::NotFiles,
        aliases: &["false", "echo"],
        ..Program::new(
            "true",
            "bash 5.2 builtins (Debian 12), help true/false/echo",
        )
    },
    Program {
        syntax: Syntax::NoOptions,
        operands: Operands::NotFiles,
        aliases: &["["],
        variable_operators: &["-v", "-R"],
        ..Program::new("test", "bash 5.2 builtins (Debian 12), help test")
    },
];
