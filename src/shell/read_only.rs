//! Built-in read-only commands: a closed list, each with the options that would make it
//! write or run something, and which of its operands are files it reads.

use super::canonical::program_name;
use super::wrappers::FIND_ACTIONS;

/// How a read-only command's operands are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Operands {
    /// Operands are not files (`echo hi`).
    NotFiles,
    /// Every operand is a file it reads.
    Files,
    /// The first operand is a pattern unless `-e`/`-f` gave one; the rest are files.
    PatternThenFiles,
    /// At most one operand, a file (`uniq IN OUT` writes OUT).
    OneFile,
    /// No operands at all (`hostname NAME` sets the name).
    None,
}

/// `(command, operands, options that make it write or run code)`.
const READ_ONLY: &[(&str, Operands, &[&str])] = &[
    ("ls", Operands::Files, &[]),
    ("cat", Operands::Files, &[]),
    ("head", Operands::Files, &[]),
    ("tail", Operands::Files, &[]),
    ("wc", Operands::Files, &[]),
    ("pwd", Operands::NotFiles, &[]),
    ("echo", Operands::NotFiles, &[]),
    ("printf", Operands::NotFiles, &["-v"]),
    ("true", Operands::NotFiles, &[]),
    ("false", Operands::NotFiles, &[]),
    ("test", Operands::NotFiles, &[]),
    ("[", Operands::NotFiles, &[]),
    ("grep", Operands::PatternThenFiles, &[]),
    ("egrep", Operands::PatternThenFiles, &[]),
    ("fgrep", Operands::PatternThenFiles, &[]),
    ("rg", Operands::PatternThenFiles, &["--pre"]),
    ("find", Operands::Files, FIND_ACTIONS),
    ("which", Operands::NotFiles, &[]),
    ("type", Operands::NotFiles, &[]),
    ("command", Operands::NotFiles, &[]),
    ("diff", Operands::Files, &[]),
    ("cmp", Operands::Files, &[]),
    ("comm", Operands::Files, &[]),
    ("stat", Operands::Files, &[]),
    ("file", Operands::Files, &["-C", "--compile"]),
    ("du", Operands::Files, &[]),
    ("df", Operands::Files, &[]),
    ("tree", Operands::Files, &["-o", "-R", "--output"]),
    (
        "sort",
        Operands::Files,
        &["-o", "--output", "--compress-program"],
    ),
    ("uniq", Operands::OneFile, &[]),
    ("cut", Operands::Files, &[]),
    ("tr", Operands::NotFiles, &[]),
    ("nl", Operands::Files, &[]),
    ("tac", Operands::Files, &[]),
    ("rev", Operands::Files, &[]),
    ("column", Operands::Files, &[]),
    ("md5sum", Operands::Files, &[]),
    ("sha1sum", Operands::Files, &[]),
    ("sha256sum", Operands::Files, &[]),
    ("sha512sum", Operands::Files, &[]),
    ("cksum", Operands::Files, &[]),
    ("realpath", Operands::Files, &[]),
    ("readlink", Operands::Files, &[]),
    ("basename", Operands::NotFiles, &[]),
    ("dirname", Operands::NotFiles, &[]),
    ("od", Operands::Files, &[]),
    ("xxd", Operands::OneFile, &["-r"]),
    ("hexdump", Operands::Files, &[]),
    ("strings", Operands::Files, &[]),
    ("jq", Operands::PatternThenFiles, &[]),
    ("date", Operands::NotFiles, &["-s", "--set"]),
    ("whoami", Operands::None, &[]),
    ("id", Operands::NotFiles, &[]),
    ("uname", Operands::None, &[]),
    ("hostname", Operands::None, &[]),
    ("seq", Operands::NotFiles, &[]),
    ("sleep", Operands::NotFiles, &[]),
    ("nproc", Operands::None, &[]),
    ("tee", Operands::NotFiles, &[]),
    ("cd", Operands::Files, &[]),
    ("set", Operands::NotFiles, &[]),
    ("export", Operands::NotFiles, &[]),
    ("declare", Operands::NotFiles, &[]),
    ("typeset", Operands::NotFiles, &[]),
    ("local", Operands::NotFiles, &[]),
    ("readonly", Operands::NotFiles, &[]),
];

/// Read-only `git` subcommands.
const GIT_READ_ONLY: &[&str] = &[
    "status",
    "log",
    "diff",
    "show",
    "blame",
    "rev-parse",
    "ls-files",
    "ls-tree",
    "shortlog",
    "describe",
    "grep",
    "cat-file",
    "whatchanged",
    "branch",
    "tag",
    "remote",
];

/// `git` options that write files, run programs or read outside the repository.
const GIT_FORBIDDEN: &[&str] = &[
    "--output",
    "--ext-diff",
    "--no-index",
    "--exec",
    "--upload-pack",
    "-o",
    "--open-files-in-pager",
    "-O",
];

/// The names of the built-in read-only commands (and `git` subcommands), for docs.
pub fn read_only_commands() -> impl Iterator<Item = String> {
    READ_ONLY
        .iter()
        .map(|(n, _, _)| (*n).to_owned())
        .chain(GIT_READ_ONLY.iter().map(|s| format!("git {s}")))
}

/// If `words` is a read-only command, the indices of the words it reads as files.
pub(crate) fn files_read(words: &[String]) -> Option<Vec<usize>> {
    let name = program_name(words.first()?);
    if name == "git" {
        return git_files(words);
    }
    let (_, operands, forbidden) = READ_ONLY.iter().find(|(n, _, _)| *n == name)?;
    let mut files = Vec::new();
    let mut pattern_given = false;
    let mut only_operands = false;
    for (i, w) in words.iter().enumerate().skip(1) {
        if !only_operands && w.starts_with('-') && w != "-" {
            if w == "--" {
                only_operands = true;
                continue;
            }
            if forbidden
                .iter()
                .any(|f| w == f || w.starts_with(&format!("{f}=")) || short_cluster_has(w, f))
            {
                return None;
            }
            pattern_given |= w.starts_with("--regexp")
                || w.starts_with("--file")
                || (!w.starts_with("--") && (w.contains('e') || w.contains('f')));
            continue;
        }
        if w != "-" {
            files.push(i);
        }
    }
    match operands {
        Operands::NotFiles => Some(Vec::new()),
        Operands::Files => Some(files),
        Operands::PatternThenFiles => {
            if !pattern_given && !files.is_empty() {
                files.remove(0);
            }
            Some(files)
        }
        Operands::OneFile => (files.len() <= 1).then_some(files),
        Operands::None => files.is_empty().then_some(files),
    }
}

/// `-rf` contains `-f` when `-f` is a one-letter option.
fn short_cluster_has(word: &str, option: &str) -> bool {
    let Some(letter) = option.strip_prefix('-').filter(|l| l.chars().count() == 1) else {
        return false;
    };
    !word.starts_with("--") && word.get(1..).is_some_and(|rest| rest.contains(letter))
}

fn git_files(words: &[String]) -> Option<Vec<usize>> {
    let sub = words.get(1)?;
    if !GIT_READ_ONLY.contains(&sub.as_str()) {
        return None;
    }
    let args = words.get(2..).unwrap_or_default();
    for w in args {
        if GIT_FORBIDDEN
            .iter()
            .any(|f| w == f || w.starts_with(&format!("{f}=")))
        {
            return None;
        }
    }
    let flags: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|w| w.starts_with('-'))
        .collect();
    let operands = args.iter().filter(|w| !w.starts_with('-')).count();
    let listing = flags.iter().any(|f| matches!(*f, "-l" | "--list"));
    let ok = match sub.as_str() {
        "branch" => {
            const CHANGES: &[&str] = &[
                "-d",
                "-D",
                "-m",
                "-M",
                "-c",
                "-C",
                "-f",
                "-u",
                "-t",
                "--delete",
                "--move",
                "--copy",
                "--force",
                "--track",
                "--no-track",
                "--set-upstream-to",
                "--unset-upstream",
                "--edit-description",
            ];
            !flags.iter().any(|f| {
                CHANGES
                    .iter()
                    .any(|c| f == c || f.starts_with(&format!("{c}=")))
            }) && (operands == 0 || listing)
        }
        "tag" => (flags.is_empty() && operands == 0) || listing,
        "remote" => operands == 0 && flags.iter().all(|f| matches!(*f, "-v" | "--verbose")),
        _ => true,
    };
    // Revisions and paths: checked as reads, which keeps `git diff ../other` honest.
    ok.then(|| {
        (2..words.len())
            .filter(|i| words.get(*i).is_some_and(|w| !w.starts_with('-')))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(line: &str) -> Option<Vec<usize>> {
        let words: Vec<String> = line.split(' ').map(str::to_owned).collect();
        files_read(&words)
    }

    #[test]
    fn read_only_commands_and_their_files() {
        assert_eq!(files("cat a b"), Some(vec![1, 2]));
        assert_eq!(files("/bin/ls -la src"), Some(vec![2]));
        assert_eq!(files("echo rm -rf /"), Some(vec![]));
        assert_eq!(files("grep -n foo src"), Some(vec![3]));
        assert_eq!(files("grep -e foo src"), Some(vec![2, 3]));
        assert_eq!(files("find . -name x"), Some(vec![1, 3]));
        assert_eq!(files("git log -p main"), Some(vec![3]));
        assert_eq!(files("git branch -a"), Some(vec![]));
    }

    #[test]
    fn writing_options_are_not_read_only() {
        for line in [
            "sort -o out in",
            "sort -ro out in",
            "find . -delete",
            "find . -exec rm {} ;",
            "uniq in out",
            "rg --pre ./x foo",
            "tree -o out",
            "git branch -D main",
            "git branch new",
            "git diff --output=x",
            "git diff --no-index /etc/passwd x",
            "git push",
            "git tag v1",
            "hostname evil",
            "date -s 2020-01-01",
            "rm x",
            "sed -i s/a/b/ x",
        ] {
            assert_eq!(files(line), None, "{line}");
        }
    }
}
