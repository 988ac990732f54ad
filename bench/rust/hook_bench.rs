//! Times `toolgate hook` as an agent runs it: one process per tool call, payload on stdin.
//!
//! ```text
//! cargo build --release --bin toolgate
//! cargo run --release --example hook_bench -- [target/release/toolgate] [runs]
//! ```
//! Compares with `true` (the floor: spawning any process) and a jq hook script, and with
//! `dcg` (destructive_command_guard) when it is on `PATH`. Policies of 10, 100 and 1,000
//! rules are written to a temporary project; prints the median and 90th percentile in ms.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

fn time(runs: usize, payload: &str, mut make: impl FnMut() -> Command) -> (f64, f64) {
    let mut ms: Vec<f64> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            let mut child = make()
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            let _ = child.stdin.take().unwrap().write_all(payload.as_bytes());
            child.wait().unwrap();
            start.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    ms.sort_by(|a, b| a.partial_cmp(b).unwrap());
    (ms[ms.len() / 2], ms[ms.len() * 9 / 10])
}

fn policy(rules: usize) -> String {
    let mut allow = Vec::new();
    let mut deny = Vec::new();
    for i in 0..rules {
        match i % 4 {
            0 => deny.push(format!("\"Bash(rm{i} *)\"")),
            1 => allow.push(format!("\"Bash(npm run task{i}:*)\"")),
            2 => allow.push(format!("\"Read(/src/dir{i}/**)\"")),
            _ => deny.push(format!("\"WebFetch(domain:host{i}.example)\"")),
        }
    }
    format!(
        "{{\"permissions\":{{\"allow\":[{}],\"deny\":[{}]}}}}",
        allow.join(","),
        deny.join(",")
    )
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let bin = args
        .first()
        .cloned()
        .unwrap_or_else(|| "target/release/toolgate".into());
    let runs: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(200);
    let bin = std::fs::canonicalize(&bin).expect("build toolgate first");
    let dir = std::env::temp_dir().join(format!("toolgate-bench-{}", std::process::id()));
    let proj = dir.join("proj");
    std::fs::create_dir_all(proj.join(".toolgate")).unwrap();
    std::fs::create_dir_all(proj.join(".git")).unwrap();
    std::fs::create_dir_all(dir.join("home")).unwrap();
    let payload = serde_json::json!({"session_id":"s","cwd":proj,"hook_event_name":"PreToolUse",
        "permission_mode":"default","tool_name":"Bash",
        "tool_input":{"command":"git status && ls -la src | grep rs"}})
    .to_string();
    let script = dir.join("jq-hook.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\njq -c 'if (.tool_input.command | test(\"rm -rf\")) then \
         {hookSpecificOutput:{hookEventName:\"PreToolUse\",permissionDecision:\"deny\",\
         permissionDecisionReason:\"no\"}} else {} end'\n",
    )
    .unwrap();
    println!("{runs} runs each; median and p90 in ms");
    let row = |name: &str, (m, p): (f64, f64)| println!("{name:<28} {m:>7.2} {p:>7.2}");
    let floor = time(runs, &payload, || Command::new("true"));
    row("true", floor);
    row(
        "jq hook script",
        time(runs, &payload, || {
            let mut c = Command::new("sh");
            c.arg(&script);
            c
        }),
    );
    let dcg = Command::new("dcg").arg("--version").output().is_ok();
    if dcg {
        row(
            "dcg (destructive_command_guard)",
            time(runs, &payload, || Command::new("dcg")),
        );
    }
    for rules in [0, 10, 100, 1000] {
        std::fs::write(proj.join(".toolgate/policy.json"), policy(rules)).unwrap();
        let (m, p) = time(runs, &payload, || {
            let mut c = Command::new(&bin);
            c.args(["hook", "--agent", "claude"])
                .current_dir(&proj)
                .env("HOME", dir.join("home"))
                .env("TOOLGATE_MANAGED_POLICY", dir.join("none.json"))
                .env("TOOLGATE_AUDIT_LOG", dir.join("audit.jsonl"));
            c
        });
        row(&format!("toolgate hook, {rules} rules"), (m, p));
        let target = floor.0 * 1.2 + 2.0;
        println!(
            "{:<28} target median <= 5 ms and <= {target:.2} ms: {}",
            "",
            if m <= 5.0 && m <= target {
                "met"
            } else {
                "MISSED"
            }
        );
    }
    let _ = std::fs::remove_dir_all(Path::new(&dir));
}
