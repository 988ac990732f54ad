//! Differential corpus: a deterministic generator (fixed seed, no dependencies) of policies
//! and requests of every form. The native engine decides each request and writes the corpus
//! with its decisions to `tests/output/differential.json`; `tests/differential/*.test.mjs`
//! replays it through the wasm engine in Node and in headless Chromium and requires identical
//! JSON. `TOOLGATE_DIFF_POLICIES` (default 160) and `TOOLGATE_DIFF_REQUESTS` (per policy,
//! default 25) size the corpus.
//!
//! It stays generated, apart from the hand-written cases of `tests/corpus/`: it is a property
//! test, random policies crossed with random requests, whose only expectation is that every
//! runtime decides as the native engine does; stored, it would be thousands of cases no one
//! chose. It draws its shell lines partly from the corpus (every command line there), so the
//! real-world lines meet policies no table holds.
#![cfg(not(target_arch = "wasm32"))]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

#[path = "corpus/schema.rs"]
mod schema;

use std::path::Path;

use serde_json::{json, Value};
use toolgate::{Policy, Request};

/// SplitMix64: tiny, fast and identical everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

const COMMANDS: &[&str] = &[
    "git", "npm", "cargo", "rm", "curl", "ls", "cat", "echo", "python3", "docker", "make",
];
const ARGS: &[&str] = &[
    "status",
    "push",
    "run",
    "test",
    "build",
    "-rf",
    "--force",
    "origin",
    "main",
    "install",
    "-la",
    "src",
    "/tmp/x",
    ".env",
    "--release",
    "-n",
    "3",
    "http://x.io",
];
const SEGMENTS: &[&str] = &[
    "src",
    "lib",
    ".env",
    ".git",
    "docs",
    "secrets",
    "node_modules",
    "a.ts",
    "b.rs",
    "x",
];
const GLOB_SEGMENTS: &[&str] = &["**", "*.ts", "*.rs", "*", ".env*", "[ab].rs"];
const HOSTS: &[&str] = &[
    "example.com",
    "api.example.com",
    "evil.io",
    "docs.rs",
    "x.y.dev",
];
const SERVERS: &[&str] = &["github", "slack", "fs", "db"];
const MCP_TOOLS: &[&str] = &["get_issue", "create_issue", "delete_repo", "list", "query"];
const FILE_TOOLS: &[&str] = &["Read", "Edit", "Write", "Glob", "Grep", "NotebookEdit"];
const MODES: &[&str] = &[
    "default",
    "acceptEdits",
    "plan",
    "dontAsk",
    "bypassPermissions",
];

fn words(rng: &mut Rng) -> String {
    let mut w = vec![rng.pick(COMMANDS).to_owned()];
    for _ in 0..rng.below(3) {
        w.push(rng.pick(ARGS).to_owned());
    }
    w.join(" ")
}

fn path(rng: &mut Rng, glob: bool) -> String {
    let anchor = rng.pick(&["", "./", "/", "//", "~/", "../"]);
    let n = 1 + rng.below(3);
    let segs: Vec<&str> = (0..n)
        .map(|_| {
            if glob && rng.chance(35) {
                rng.pick(GLOB_SEGMENTS)
            } else {
                rng.pick(SEGMENTS)
            }
        })
        .collect();
    format!("{anchor}{}", segs.join("/"))
}

/// A path rule's pattern: rules cannot climb with `..`.
fn rule_path(rng: &mut Rng, glob: bool) -> String {
    let p = path(rng, glob);
    p.strip_prefix("../").map(str::to_owned).unwrap_or(p)
}

fn rule(rng: &mut Rng) -> String {
    match rng.below(10) {
        0..=2 => {
            let suffix = rng.pick(&["", " *", ":*", " * --force"]);
            format!(
                "{}({}{suffix})",
                rng.pick(&["Bash", "Bash", "shell"]),
                words(rng)
            )
        }
        3..=5 => format!("{}({})", rng.pick(FILE_TOOLS), rule_path(rng, true)),
        6 => format!(
            "WebFetch(domain:{}{})",
            rng.pick(&["", "*."]),
            rng.pick(HOSTS)
        ),
        7 => {
            let server = rng.pick(SERVERS);
            match rng.below(3) {
                0 => format!("mcp__{server}"),
                1 => format!("mcp__{server}__*"),
                _ => format!("mcp__{server}__{}", rng.pick(MCP_TOOLS)),
            }
        }
        8 => rng
            .pick(&[
                "Bash",
                "Read",
                "Edit",
                "Write",
                "WebFetch",
                "WebSearch",
                "Task",
            ])
            .to_owned(),
        _ => format!("Read({})", rule_path(rng, false)),
    }
}

fn rules(rng: &mut Rng, n: usize) -> Vec<String> {
    (0..n).map(|_| rule(rng)).collect()
}

fn permissions(rng: &mut Rng, size: usize) -> Value {
    let (allow, ask, deny) = (
        rng.below(size + 1),
        rng.below(size / 2 + 1),
        rng.below(size / 2 + 1),
    );
    json!({ "allow": rules(rng, allow), "ask": rules(rng, ask), "deny": rules(rng, deny) })
}

fn policy(rng: &mut Rng) -> Value {
    let size = 2 + rng.below(24);
    let mut doc = json!({ "permissions": permissions(rng, size) });
    if rng.chance(4) {
        doc["permissions"]["deny"] = json!(["Bash(rm", "Read(../x)"]);
    }
    if rng.chance(30) {
        doc["defaultMode"] = json!(rng.pick(MODES));
    }
    if rng.chance(25) {
        let source = rng.pick(&["managed", "project", "user", "local", "cli"]);
        doc["layers"] = json!([{ "source": source, "permissions": permissions(rng, 6) }]);
    }
    if rng.chance(20) {
        doc["mcpServers"] = json!({ rng.pick(SERVERS): { "trusted": true } });
    }
    if rng.chance(10) {
        doc["agents"] = json!({ "claude": { "bypassPermissions": true } });
    }
    if rng.chance(10) {
        doc["copilot"] = json!({ "allowAllTools": rng.chance(50), "denyTools": rules(rng, 2) });
    }
    doc
}

fn request(rng: &mut Rng, lines: &[&str]) -> Value {
    let mut req = match rng.below(9) {
        0..=2 if !lines.is_empty() && rng.chance(30) => {
            json!({ "tool": "Bash", "input": { "command": rng.pick(lines) } })
        }
        0..=2 => {
            let mut line = words(rng);
            for _ in 0..rng.below(3) {
                line = format!(
                    "{line}{}{}",
                    rng.pick(&[" && ", " | ", "; ", " || ", " > out.txt; "]),
                    words(rng)
                );
            }
            if rng.chance(15) {
                line = format!(
                    "{} {line}",
                    rng.pick(&["sudo", "env X=1", "timeout 5", "bash -c"])
                );
            }
            json!({ "tool": "Bash", "input": { "command": line } })
        }
        3..=4 => {
            let tool = rng.pick(FILE_TOOLS);
            let key = if tool == "Glob" || tool == "Grep" {
                "path"
            } else {
                "file_path"
            };
            json!({ "tool": tool, "input": { key: path(rng, false) } })
        }
        5 => {
            let scheme = rng.pick(&["https", "http"]);
            let url = format!("{scheme}://{}/{}", rng.pick(HOSTS), rng.pick(SEGMENTS));
            json!({ "tool": "WebFetch", "input": { "url": url } })
        }
        6..=7 => {
            let server = rng.pick(SERVERS);
            let mut r = json!({
                "tool": format!("mcp__{server}__{}", rng.pick(MCP_TOOLS)), "input": {}
            });
            if rng.chance(50) {
                r["annotations"] = json!({
                    "readOnlyHint": rng.chance(50), "destructiveHint": rng.chance(30)
                });
            }
            r
        }
        _ => json!({
            "tool": rng.pick(&["WebSearch", "Task", "TodoWrite", "unknown_tool", "shell"]),
            "input": { "command": words(rng), "query": "x" }
        }),
    };
    if rng.chance(90) {
        req["cwd"] = json!(rng.pick(&["/home/ada/proj", "/srv/app", "/root/work"]));
    }
    if rng.chance(30) {
        req["mode"] = json!(rng.pick(MODES));
    }
    if rng.chance(15) {
        req["agent"] = json!(rng.pick(&["claude", "codex"]));
    }
    req
}

fn env_size(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The corpus: policies (with the requests and native decisions of each); policies that do
/// not load are kept with their error code, which the wasm engine must report too.
fn corpus(seed: u64, policies: usize, per_policy: usize) -> Value {
    let mut rng = Rng(seed);
    let corpus_lines = schema::command_lines();
    let lines: Vec<&str> = corpus_lines.iter().map(String::as_str).collect();
    let mut cases = Vec::with_capacity(policies);
    for _ in 0..policies {
        let doc = policy(&mut rng);
        let requests: Vec<Value> = (0..per_policy).map(|_| request(&mut rng, &lines)).collect();
        let case = match Policy::from_json(&doc.to_string()) {
            Ok(p) => {
                let decisions: Vec<Value> = requests
                    .iter()
                    .map(|r| {
                        let req = Request::from_json(&r.to_string()).unwrap();
                        serde_json::to_value(p.evaluate(&req)).unwrap()
                    })
                    .collect();
                json!({ "policy": doc, "requests": requests, "decisions": decisions })
            }
            Err(e) => json!({ "policy": doc, "requests": [], "error": e.code() }),
        };
        cases.push(case);
    }
    json!({ "seed": seed, "cases": cases })
}

const SEED: u64 = 0x7001_9A7E;

#[test]
fn the_generator_is_deterministic() {
    assert_eq!(corpus(SEED, 5, 5), corpus(SEED, 5, 5));
    assert_ne!(corpus(SEED, 5, 5), corpus(SEED + 1, 5, 5));
}

#[test]
fn native_decisions_are_written_for_the_wasm_engines() {
    let policies = env_size("TOOLGATE_DIFF_POLICIES", 160);
    let per = env_size("TOOLGATE_DIFF_REQUESTS", 25);
    let corpus = corpus(SEED, policies, per);
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/output");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("differential.json"), corpus.to_string()).unwrap();
    let cases = corpus["cases"].as_array().unwrap();
    let decided: usize = cases
        .iter()
        .map(|c| c["requests"].as_array().unwrap().len())
        .sum();
    // The corpus must exercise every effect and mostly loadable policies.
    assert!(
        decided * 10 >= policies * per * 8,
        "too few policies load: {decided}"
    );
    for effect in ["allow", "ask", "deny"] {
        let n = cases
            .iter()
            .flat_map(|c| c["decisions"].as_array().into_iter().flatten())
            .filter(|d| d["effect"] == effect)
            .count();
        assert!(
            n * 20 >= decided,
            "only {n} of {decided} decisions are {effect}"
        );
    }
}
