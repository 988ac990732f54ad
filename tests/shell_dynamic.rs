//! Dynamic oracle: every command toolgate calls read-only is run for real, under
//! `strace -f`, in a scratch project with a decoy secret (`.env`, denied by a Read rule)
//! and a decoy home (`~/.ssh/id_rsa`). It fails on any program run other than the
//! line's own commands, any file opened for writing (other than `/dev/null`, `/dev/tty`,
//! and git's own lock and index files inside `.git/`), the decoys being opened, and any
//! file of the project read that the analysis did not report (other than `.git/` and the
//! ignore files a search reads by design). Runs over the benign corpus and over commands
//! generated from the program table.
#![cfg(target_os = "linux")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    reason = "a test harness"
)]

#[path = "corpus/schema.rs"]
mod schema;

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

#[path = "support/literal_rules.rs"]
mod literal_rules;

use literal_rules::LiteralRules;
use proptest::prelude::*;
use toolgate::shell::{judge, simple_commands, CommandRules, Outcome};
use toolgate::Reason;
use toolgate::RuleList;

/// Records every path the analysis judged as read.
struct Recorder {
    inner: LiteralRules,
    reads: RefCell<Vec<(String, bool)>>,
}

impl CommandRules for Recorder {
    fn match_command(&self, list: RuleList, words: &[String]) -> Option<Reason> {
        self.inner.match_command(list, words)
    }
    fn first_command_rule(&self, list: RuleList, program: &str) -> Option<Reason> {
        self.inner.first_command_rule(list, program)
    }
    fn write_outcome(&self, path: &str) -> Outcome {
        self.inner.write_outcome(path)
    }
    fn read_outcome(&self, path: &str) -> Outcome {
        self.reads.borrow_mut().push((path.to_owned(), false));
        self.inner.read_outcome(path)
    }
    fn read_below_outcome(&self, dir: &str) -> Outcome {
        self.reads.borrow_mut().push((dir.to_owned(), true));
        self.inner.read_below_outcome(dir)
    }
    fn is_critical(&self, path: &str) -> bool {
        self.inner.is_critical(path)
    }
}

struct Scratch {
    root: PathBuf,
    proj: PathBuf,
    home: PathBuf,
    /// The commands' `TMPDIR`: a program's own temporary files (`sort` merging) go there.
    tmp: PathBuf,
}

const FILES: &[(&str, &str)] = &[
    ("README.md", "# demo\nhello world\nerror here\n"),
    ("Cargo.toml", "[package]\nname = \"demo\"\nversion = \"0.1.0\"\n"),
    ("Cargo.toml.orig", "[package]\nname = \"demo\"\n"),
    ("Cargo.lock", "version = 3\n"),
    ("CHANGELOG.md", "## 0.1.0\n- first\n"),
    ("package.json", "{\"name\":\"demo\",\"version\":\"1.0.0\",\"scripts\":{\"test\":\"node t.js\"},\"dependencies\":{\"a\":\"1\"}}\n"),
    ("src/lib.rs", "pub fn foo() {}\n// TODO: more\nuse std::fmt;\nfn main() {\n    x.unwrap();\n}\n"),
    ("src/main.rs", "fn main() {\n    println!(\"hi\");\n}\n"),
    ("src/a.rs", "a\n"),
    ("src/b.rs", "b\n"),
    ("src/shell/analysis.rs", "// analysis\n"),
    ("tests/x.rs", "#[test] fn t() {}\n"),
    ("tests/corpus/shell/bypass.json", "{\"cases\":[1,2]}\n"),
    ("names.txt", "b\na\nb\n"),
    ("words.txt", "x\ny\n"),
    ("data.txt", "a 2\nb 1\n"),
    ("counts.txt", "a\na\nb\n"),
    ("data.csv", "a,b\n1,2\n"),
    ("log.txt", "one\ntwo\n"),
    ("a.txt", "1\n2\n"),
    ("b.txt", "2\n3\n"),
    ("a.bin", "\x01\x02abcdefgh"),
    ("b.bin", "\x01\x03abcdefgh"),
    (".gitignore", "target\n"),
    (".env", "DECOY_SECRET=1\n"),
];

fn scratch() -> Scratch {
    static COUNT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let root = std::env::temp_dir().join(format!("toolgate-dynamic-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let proj = root.join("proj");
    let home = root.join("home");
    for (path, text) in FILES {
        let p = proj.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    std::fs::create_dir_all(home.join(".ssh")).unwrap();
    std::fs::write(home.join(".ssh/id_rsa"), "DECOY KEY\n").unwrap();
    let git = |args: &[&str]| {
        let ok = Command::new("git")
            .args(args)
            .current_dir(&proj)
            .env("HOME", &home)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap()
            .success();
        assert!(ok, "git {args:?}");
    };
    git(&["init", "-q", "-b", "main"]);
    git(&["config", "user.name", "Ada"]);
    git(&["config", "user.email", "ada@example.com"]);
    git(&["add", "-A", ":!.env"]);
    git(&["commit", "-qm", "one"]);
    git(&["tag", "v1"]);
    std::fs::write(proj.join("src/a.rs"), "a changed\n").unwrap();
    git(&["commit", "-qam", "two"]);
    let tmp = root.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    Scratch {
        root,
        proj,
        home,
        tmp,
    }
}

fn tools_available() -> bool {
    let found = Command::new("strace").arg("-V").output().is_ok();
    assert!(
        found || std::env::var_os("TOOLGATE_SKIP_ORACLES").is_some(),
        "strace is missing: run scripts/setup.sh (or apt-get install strace), or set TOOLGATE_SKIP_ORACLES=1"
    );
    found
}

fn normalise(base: &Path, path: &str) -> PathBuf {
    let joined = if path.starts_with('/') {
        PathBuf::from(path)
    } else {
        base.join(path)
    };
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// Runs `line` if toolgate calls it read-only; returns whether it ran.
fn run_checked(s: &Scratch, line: &str) -> bool {
    let rules = Recorder {
        inner: LiteralRules::new(s.proj.to_str().unwrap(), s.home.to_str().unwrap())
            .rule(RuleList::Deny, "Read(./.env)"),
        reads: RefCell::new(Vec::new()),
    };
    let parts = judge(line, &rules);
    if !parts.iter().all(|p| p.outcome == Outcome::ReadOnly) {
        return false;
    }
    let reported: Vec<(PathBuf, bool)> = rules
        .reads
        .borrow()
        .iter()
        .map(|(p, below)| {
            let p = p.replacen(
                '~',
                s.home.to_str().unwrap(),
                usize::from(p.starts_with('~')),
            );
            (normalise(&s.proj, &p), *below)
        })
        .collect();
    let mut programs: Vec<String> = simple_commands(line)
        .unwrap_or_default()
        .iter()
        .filter_map(|c| c.first().cloned().flatten())
        .map(|p| p.rsplit('/').next().unwrap_or(&p).to_owned())
        .collect();
    // The helpers the table says a program starts by itself (tar's compressors).
    let helpers: Vec<String> = programs
        .iter()
        .filter_map(|p| toolgate::commands::lookup(p))
        .flat_map(|entry| entry.starts.iter().map(|h| (*h).to_owned()))
        .collect();
    programs.extend(helpers);
    // rustup's proxies find their toolchains through the real home.
    let real_home = std::env::var("HOME").unwrap_or_default();
    let cargo_bin = format!("{real_home}/.cargo/bin");
    let log = s.root.join("strace.log");
    let _ = std::fs::remove_file(&log);
    let _ = Command::new("timeout")
        .args(["5", "strace", "-f", "-y", "-qq", "-o"])
        .arg(&log)
        .args([
            "-e",
            "trace=execve,open,openat,creat,rename,renameat,renameat2,unlink,unlinkat,mkdir,mkdirat,link,symlink,truncate",
            "bash",
            "-c",
            line,
        ])
        .current_dir(&s.proj)
        .env("HOME", &s.home)
        .env("TMPDIR", &s.tmp)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("PATH", format!("/usr/local/bin:/usr/bin:/bin:{cargo_bin}"))
        .env("RUSTUP_HOME", format!("{real_home}/.rustup"))
        .env("CARGO_HOME", format!("{real_home}/.cargo"))
        .env_remove("GIT_DIR")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    let trace = std::fs::read_to_string(&log).unwrap_or_default();
    let changes_dir = line.contains("cd ");
    // Calls interrupted by another thread are printed in two pieces: join them.
    let mut unfinished: std::collections::HashMap<String, String> = Default::default();
    for entry in trace.lines() {
        let Some((pid, call)) = entry.split_once(' ') else {
            continue;
        };
        let call = call.trim_start();
        if let Some((head, _)) = call.split_once("<unfinished ...>") {
            unfinished.insert(pid.to_owned(), head.to_owned());
            continue;
        }
        let joined;
        let call = match call.strip_prefix("<... ") {
            Some(rest) => {
                let tail = rest.split_once("resumed>").map_or("", |(_, t)| t);
                joined = format!("{}{tail}", unfinished.remove(pid).unwrap_or_default());
                joined.as_str()
            }
            None => call,
        };
        // `???( <detached ...>`: a call strace lost when the process ended (the `timeout`
        // above stopped a slow run): no path, nothing to judge.
        if call.contains("= -1")
            || call.starts_with("+++")
            || call.starts_with("---")
            || call.contains("<detached ...>")
        {
            continue;
        }
        let written = call.split('"').nth(1).unwrap_or("");
        // With `-y`, an open returns `N</resolved/path>`: the file actually opened.
        let resolved = call
            .rsplit_once("= ")
            .and_then(|(_, r)| r.split_once('<'))
            .and_then(|(_, r)| r.strip_suffix('>'))
            .map(str::to_owned);
        let path = resolved.as_deref().unwrap_or(written);
        let full = normalise(&s.proj, path);
        let in_git = full.starts_with(s.proj.join(".git"));
        if call.starts_with("execve(") {
            let name = path.rsplit('/').next().unwrap_or(path);
            // The interpreter of a script command (`#!/usr/bin/env node` in `npm`) runs it.
            let script = call.split('"').nth(5).unwrap_or("");
            let script = script.rsplit('/').next().unwrap_or(script);
            let interprets = programs.iter().any(|p| p == script);
            assert!(
                name == "bash"
                    || name == "timeout"
                    || interprets
                    || programs.iter().any(|p| p == name),
                "`{line}` ran `{path}`, which is not one of its commands\n{entry}"
            );
            continue;
        }
        assert!(
            !full.ends_with(".env") && !full.starts_with(s.home.join(".ssh")),
            "`{line}` opened the decoy `{path}`\n{entry}"
        );
        let opens = call.starts_with("open");
        let writes = !opens
            || ["O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"]
                .iter()
                .any(|f| call.contains(f));
        if writes {
            // A private `TMPDIR` that no command names: what is written there is the
            // program's own scratch (`sort -m` sometimes makes a temporary file).
            let fine = matches!(path, "/dev/null" | "/dev/tty")
                || full.starts_with(&s.tmp)
                || (in_git && programs.iter().any(|p| p == "git"));
            assert!(fine, "`{line}` wrote `{path}`\n{entry}");
            continue;
        }
        let in_project = full.starts_with(&s.proj);
        let relative_after_cd = changes_dir && !path.starts_with('/');
        // `git status`, `git describe --dirty` and `git diff` read the tracked files of the
        // working tree: a known limit (docs/shell.md, "What it cannot see").
        let names_only = programs.iter().any(|p| p == "git")
            && ["status", "describe", "diff", "stash"]
                .iter()
                .any(|s| line.contains(s));
        if !in_project || in_git || relative_after_cd || call.contains("O_DIRECTORY") {
            continue;
        }
        if full.is_dir() {
            continue;
        }
        let by_design = matches!(
            full.file_name().and_then(|n| n.to_str()),
            Some(".gitignore" | ".ignore" | ".rgignore")
        );
        let covered = names_only
            || reported
                .iter()
                .any(|(p, below)| full == *p || (*below && full.starts_with(p)));
        assert!(
            covered || by_design,
            "`{line}` read `{path}`, which the analysis did not report (it reported {reported:?})\n{entry}"
        );
    }
    true
}

#[test]
fn read_only_commands_do_only_what_the_analysis_says() {
    if !tools_available() {
        return;
    }
    let s = scratch();
    let benign = schema::load("benign.json");
    let mut ran = 0;
    // The shell lines; the other tools' calls run no program.
    for line in benign
        .file
        .cases
        .iter()
        .filter_map(|c| c.command.as_deref())
    {
        if run_checked(&s, line) {
            ran += 1;
        }
    }
    // Every spelling of every `--version`/`--help` entry.
    for p in toolgate::commands::programs()
        .filter(|p| p.operands == toolgate::commands::Operands::OnlyTheOption)
    {
        for o in p.option_specs() {
            let shorts = o.short.iter().map(|c| format!("-{c}"));
            for flag in o.long.iter().map(|l| format!("--{l}")).chain(shorts) {
                if run_checked(&s, &format!("{} {flag}", p.name)) {
                    ran += 1;
                }
            }
        }
    }
    // tar starts its compressor (found by the generated commands below): the table's
    // `starts` names them, and nothing else may run.
    for line in [
        "tar -z -t",
        "tar --bzip2 --test-label names.txt",
        "tar -tJf names.txt",
    ] {
        assert!(run_checked(&s, line), "`{line}` is read-only");
        ran += 1;
    }
    println!("ran {ran} read-only commands under strace");
    assert!(ran > 100, "only {ran} benign commands ran");
    let _ = std::fs::remove_dir_all(&s.root);
}

/// A command built from the table: a program, some of its options (with values), and
/// some files of the scratch project (the decoy among them).
fn generated() -> impl Strategy<Value = String> {
    let programs: Vec<&'static toolgate::commands::Program> = toolgate::commands::programs()
        .filter(|p| p.subcommands.is_empty() && p.name != "tee" && p.name != "sleep")
        .collect();
    let files = vec![
        "README.md",
        "src/lib.rs",
        "src",
        ".",
        "names.txt",
        ".env",
        "a.bin",
        "package.json",
        "-",
    ];
    (
        prop::sample::select(programs),
        prop::collection::vec(
            (
                any::<prop::sample::Index>(),
                prop::bool::ANY,
                prop::sample::select(vec![
                    "1",
                    "x",
                    "README.md",
                    "src",
                    ".env",
                    "/tmp/toolgate-dyn-out",
                ]),
            ),
            0..3,
        ),
        prop::collection::vec(prop::sample::select(files), 0..3),
    )
        .prop_map(|(program, options, operands)| {
            let mut words = vec![program.name.to_owned()];
            let specs: Vec<toolgate::commands::OptionSpec> = program.option_specs().collect();
            for (index, long, value) in options {
                if specs.is_empty() {
                    break;
                }
                let spec = index.get(&specs);
                let long_name = spec.long.first().filter(|_| long || spec.short.is_empty());
                match (long_name, spec.short.first()) {
                    (Some(l), _) if spec.values > 0 => words.push(format!("--{l}={value}")),
                    (Some(l), _) => words.push(format!("--{l}")),
                    (None, Some(c)) if spec.values > 0 => {
                        words.push(format!("-{c}"));
                        words.push(value.to_owned());
                    }
                    (None, Some(c)) => words.push(format!("-{c}")),
                    (None, None) => words.push("-5".to_owned()),
                }
            }
            if program.name == "jq" {
                words.push(".".to_owned());
            }
            if program.name == "sed" {
                words.push("-n".to_owned());
                words.push("1p".to_owned());
            }
            words.extend(operands.into_iter().map(str::to_owned));
            words
                .iter()
                .map(|w| format!("'{}'", w.replace('\'', "'\\''")))
                .collect::<Vec<_>>()
                .join(" ")
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn generated_read_only_commands_do_only_what_the_table_says(line in generated()) {
        if tools_available() {
            let s = scratch_once();
            run_checked(s, &line);
        }
    }
}

fn scratch_once() -> &'static Scratch {
    static SCRATCH: std::sync::OnceLock<Scratch> = std::sync::OnceLock::new();
    SCRATCH.get_or_init(scratch)
}
