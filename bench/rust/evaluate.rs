//! Evaluation cost against policy size: 10, 1,000 and 10,000 rules of every form (commands,
//! anchored and any-depth paths, domains, MCP tools).
//!
//! Rules compile into one combined matcher per class and subject kind, so a request that
//! matches nothing (the worst case: every class is searched) should cost about the same
//! against 10,000 rules as against 10. Run with `cargo bench --bench evaluate`.

#[cfg(not(target_arch = "wasm32"))]
mod support;

#[cfg(not(target_arch = "wasm32"))]
// A bench that cannot build its input has nothing to measure: stopping is right.
#[allow(clippy::panic)]
mod bench {
    use std::time::Duration;

    use criterion::{criterion_group, BenchmarkId, Criterion};
    use toolgate::{Policy, Request};

    /// A policy with `n` rules spread over the three lists and the rule forms.
    pub fn policy(n: usize) -> Policy {
        Policy::from_json(&crate::support::policy_document(n))
            .unwrap_or_else(|e| panic!("bench policy: {e}"))
    }

    fn request(json: &str) -> Request {
        Request::from_json(json).unwrap_or_else(|e| panic!("bench request: {e}"))
    }

    pub fn evaluate(c: &mut Criterion) {
        let requests = [
            (
                "bash",
                request(
                    r#"{"tool":"Bash","input":{"command":"cargo build --release"},"cwd":"/home/ada/proj"}"#,
                ),
            ),
            (
                "read",
                request(
                    r#"{"tool":"Read","input":{"file_path":"src/deep/nested/file.txt"},"cwd":"/home/ada/proj"}"#,
                ),
            ),
            (
                "grep",
                request(
                    r#"{"tool":"Grep","input":{"pattern":"TODO","path":"src","glob":"*.rs"},"cwd":"/home/ada/proj"}"#,
                ),
            ),
            (
                "fetch",
                request(
                    r#"{"tool":"WebFetch","input":{"url":"https://api.docs.example.org/x"},"cwd":"/home/ada/proj"}"#,
                ),
            ),
            (
                "mcp",
                request(r#"{"tool":"mcp__github__get_issue","input":{}}"#),
            ),
        ];
        let mut group = c.benchmark_group("evaluate");
        group
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2))
            .sample_size(30);
        for n in [10usize, 1_000, 10_000] {
            let p = policy(n);
            for (name, req) in &requests {
                group.bench_with_input(BenchmarkId::new(*name, n), req, |b, req| {
                    b.iter(|| p.evaluate(std::hint::black_box(req)))
                });
            }
        }
        group.finish();
        phases(c, &requests);
        let mut group = c.benchmark_group("compile");
        group
            .sample_size(10)
            .measurement_time(Duration::from_secs(3));
        for n in [10usize, 1_000] {
            group.bench_function(BenchmarkId::from_parameter(n), |b| b.iter(|| policy(n)));
        }
        group.finish();
    }

    /// The steps of one wasm `evaluate` call besides the decision itself, at 1,000 rules:
    /// decoding the request's JSON text and writing the `Decision` as JSON text.
    fn phases(c: &mut Criterion, requests: &[(&str, Request)]) {
        let p = policy(1_000);
        let mut group = c.benchmark_group("phases");
        group
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(1))
            .sample_size(20);
        for (name, req) in requests {
            let text = serde_json::to_string(req).unwrap_or_else(|e| panic!("{e}"));
            group.bench_with_input(BenchmarkId::new("decode", name), &text, |b, text| {
                b.iter(|| Request::from_json(std::hint::black_box(text)))
            });
            let decision = p.evaluate(req);
            group.bench_with_input(BenchmarkId::new("encode", name), &decision, |b, d| {
                b.iter(|| serde_json::to_string(std::hint::black_box(d)))
            });
        }
        group.finish();
    }

    criterion_group!(benches, evaluate);
}

#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(bench::benches);

#[cfg(target_arch = "wasm32")]
fn main() {}
