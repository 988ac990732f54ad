//! Decodes, evaluates and encodes the JS bench's requests (`bench/generate.mjs`) against a
//! policy of `n` rules, for instruction counts under callgrind:
//!
//! ```text
//! cargo build --release --example evaluate_profile
//! valgrind --tool=callgrind --toggle-collect='evaluate_profile::profile::run' \
//!     target/release/examples/evaluate_profile read 1000 1000
//! ```
//!
//! Arguments: the request form (`shell`, `read`, `edit`, `url`, `mcp`), the number of rules
//! and the number of calls. The collected instructions divided by the calls is the cost of
//! one call; the warm-up (which compiles each glob bucket on first use) is not collected.

#[cfg(not(target_arch = "wasm32"))]
// A profile that cannot build its input has nothing to measure: stopping is right.
#[allow(clippy::panic)]
mod profile {
    use toolgate::{Decision, Policy, Request};

    const CWD: &str = "/home/ada/proj";
    const FORMS: [&str; 5] = ["shell", "read", "edit", "url", "mcp"];

    /// The bench's policy: a fifth of each form, 20% deny, 20% ask, 60% allow.
    fn policy(n: usize) -> Policy {
        let (mut allow, mut ask, mut deny) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..n {
            let rule = match i % 5 {
                0 => format!("Bash(cmd{i} sub{i} *)"),
                1 => format!("Read(//srv/d{i}/**)"),
                2 => format!("Edit(./src{i}/**/*.ts)"),
                3 => format!("WebFetch(domain:h{i}.example.com)"),
                _ => format!("mcp__s{i}__get_*"),
            };
            match i % 10 {
                0 | 1 => deny.push(rule),
                2 | 3 => ask.push(rule),
                _ => allow.push(rule),
            }
        }
        let doc =
            serde_json::json!({ "permissions": { "allow": allow, "ask": ask, "deny": deny } });
        Policy::from_json(&doc.to_string()).unwrap_or_else(|e| panic!("policy: {e}"))
    }

    fn request(form: &str, i: usize) -> String {
        let doc = match form {
            "shell" => {
                serde_json::json!({"tool": "Bash", "input": {"command": format!("cmd{i} sub{i} --flag value")}, "cwd": CWD})
            }
            "read" => {
                serde_json::json!({"tool": "Read", "input": {"file_path": format!("/srv/d{i}/deep/file.txt")}, "cwd": CWD})
            }
            "edit" => {
                serde_json::json!({"tool": "Edit", "input": {"file_path": format!("src{i}/deep/x.ts")}, "cwd": CWD})
            }
            "url" => {
                serde_json::json!({"tool": "WebFetch", "input": {"url": format!("https://h{i}.example.com/path")}, "cwd": CWD})
            }
            _ => {
                serde_json::json!({"tool": format!("mcp__s{i}__get_issue"), "input": {}, "cwd": CWD})
            }
        };
        doc.to_string()
    }

    fn call(p: &Policy, text: &str) -> String {
        let request = Request::from_json(text).unwrap_or_else(|e| panic!("request: {e}"));
        let decision: Decision = p.evaluate(&request);
        serde_json::to_string(&decision).unwrap_or_else(|e| panic!("decision: {e}"))
    }

    /// The measured calls (the function callgrind's `--toggle-collect` names).
    #[inline(never)]
    pub fn run(p: &Policy, texts: &[String], calls: usize) -> usize {
        texts
            .iter()
            .cycle()
            .take(calls)
            .map(|t| call(p, std::hint::black_box(t)).len())
            .sum()
    }

    pub fn main() {
        let args: Vec<String> = std::env::args().collect();
        let form = args.get(1).map_or("read", String::as_str);
        let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
        let calls: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1000);
        let slot = FORMS.iter().position(|f| *f == form).unwrap_or(0);
        let p = policy(n);
        // Half the requests name a rule of the policy, half name none.
        let texts: Vec<String> = (0..100)
            .map(|k| {
                let i = if k % 2 == 0 {
                    (k * 37 % (n / 5).max(1)) * 5 + slot
                } else {
                    n + k * 5 + 1
                };
                request(form, i)
            })
            .collect();
        for t in &texts {
            call(&p, t);
        }
        let started = std::time::Instant::now();
        let bytes = run(&p, &texts, calls);
        #[allow(clippy::cast_precision_loss, reason = "a printed figure")]
        let per_call = started.elapsed().as_secs_f64() * 1e6 / calls.max(1) as f64;
        println!("{form} at {n} rules: {per_call:.2} µs per call ({bytes} bytes of decisions)");
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    profile::main();
}

#[cfg(target_arch = "wasm32")]
fn main() {}
