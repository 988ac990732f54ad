//! The benign corpus (`tests/corpus/benign.json`) decided where people run agents: in a real
//! checkout on disk, through `toolgate check`, which looks at the file system as the hooks do
//! (links, globs, the secret files below a search). The corpus runner (`tests/corpus.rs`)
//! decides the same calls in a project that does not exist, where no search finds a secret
//! file; here the project is a git repository with an ignored `.env`, a key under `certs/`,
//! installed packages and a build folder, as most are. It prints how many calls run without
//! a prompt, lists those that ask, and fails if any is denied or if fewer than
//! [`AT_LEAST_PERCENT`] of the default-policy calls run.
#![cfg(unix)]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test harness"
)]

#[path = "support/process.rs"]
mod process;
#[path = "corpus/schema.rs"]
mod schema;

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

/// The share of the default-policy calls that must run without a prompt in the checkout.
const AT_LEAST_PERCENT: usize = 85;

/// The corpus's own project directory, replaced by the checkout's.
const CORPUS_PROJECT: &str = "/home/ada/proj";

/// A project on disk as agents find them, removed when dropped.
struct Checkout {
    root: PathBuf,
}

impl Checkout {
    fn new() -> Checkout {
        let root = std::env::temp_dir().join(format!("toolgate-benign-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let c = Checkout { root };
        for (path, text) in [
            (
                "proj/package.json",
                r#"{"name":"app","scripts":{"test":"node --test"}}"#,
            ),
            ("proj/README.md", "# app\n"),
            (
                "proj/Cargo.toml",
                "[package]\nname = \"app\"\nversion = \"0.1.0\"\n",
            ),
            ("proj/src/index.ts", "export const x = 1; // TODO\n"),
            ("proj/src/main.rs", "fn main() {}\n"),
            ("proj/src/lib.rs", "pub fn f() {}\n"),
            ("proj/docs/guide.md", "guide\n"),
            ("proj/tests/test_app.py", "def test_x(): pass\n"),
            ("proj/.gitignore", ".env\nnode_modules/\ntarget/\ncerts/\n"),
            ("proj/.env", "API_KEY=sk-live-0000\n"),
            ("proj/certs/server.key", "-----BEGIN PRIVATE KEY-----\n"),
            (
                "proj/node_modules/left-pad/index.js",
                "module.exports = 1;\n",
            ),
            ("proj/target/debug/app", "\n"),
            ("home/.gitconfig", "[user]\n\tname = Ada\n"),
        ] {
            c.write(path, text);
        }
        let git = |args: &[&str]| {
            let _ = Command::new("git")
                .args(args)
                .current_dir(c.proj())
                .env("HOME", c.root.join("home"))
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .output();
        };
        git(&["init", "-q", "-b", "main"]);
        git(&["add", "-A"]);
        git(&["-c", "user.email=a@b", "commit", "-qm", "first"]);
        c
    }

    fn proj(&self) -> PathBuf {
        self.root.join("proj")
    }

    fn write(&self, path: &str, text: &str) {
        let full = self.root.join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    }

    /// `toolgate check` of `request` under `policy`, with the corpus's project read as this
    /// checkout.
    fn decide(&self, request: &Value, policy: &Value) -> Value {
        let proj = self.proj().to_string_lossy().into_owned();
        let moved = |v: &Value| v.to_string().replace(CORPUS_PROJECT, &proj);
        let policy_file = self.root.join("policy.json");
        std::fs::write(&policy_file, moved(policy)).unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_toolgate"));
        command
            .args(["check", "--policy"])
            .arg(&policy_file)
            .args(["--request", "-"])
            .current_dir(self.proj())
            .env("HOME", self.root.join("home"));
        let out = process::feed(command, &moved(request));
        serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{request}: {e}: {}", String::from_utf8_lossy(&out.stderr)))
    }
}

impl Drop for Checkout {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// What one group of calls came to.
#[derive(Default)]
struct Count {
    calls: usize,
    allowed: usize,
    asked: Vec<String>,
    denied: Vec<String>,
}

fn percent(part: usize, whole: usize) -> usize {
    (part * 100).checked_div(whole).unwrap_or(100)
}

#[test]
fn ordinary_calls_in_a_real_checkout_mostly_run_without_a_prompt() {
    let checkout = Checkout::new();
    let loaded = schema::load("benign.json");
    let (mut default, mut rules) = (Count::default(), Count::default());
    for case in &loaded.file.cases {
        let request = loaded.file.request_for(case);
        let policy = loaded.file.policy_for(case);
        let decision = checkout.decide(&request, &policy);
        let count = if case.policy.is_some() {
            &mut rules
        } else {
            &mut default
        };
        count.calls += 1;
        let shown = format!(
            "{}: {}",
            case.command
                .clone()
                .unwrap_or_else(|| request["input"].to_string()),
            decision["reason"]["text"].as_str().unwrap_or("")
        );
        match decision["effect"].as_str() {
            Some("allow") => count.allowed += 1,
            Some("ask") => count.asked.push(shown),
            _ => count.denied.push(shown),
        }
    }
    for (name, count) in [
        ("default policy", &default),
        ("wildcard allow rules", &rules),
    ] {
        println!(
            "benign calls in a checkout, {name}: {} of {} run without a prompt ({}%)",
            count.allowed,
            count.calls,
            percent(count.allowed, count.calls)
        );
        for asked in &count.asked {
            println!("  asks: {asked}");
        }
    }
    let denied: Vec<&String> = default.denied.iter().chain(&rules.denied).collect();
    assert!(denied.is_empty(), "ordinary calls denied: {denied:#?}");
    assert!(
        percent(default.allowed, default.calls) >= AT_LEAST_PERCENT,
        "only {} of {} default-policy calls run without a prompt in a checkout",
        default.allowed,
        default.calls
    );
}
