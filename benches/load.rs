//! Policy load cost (parse the JSON document, parse every rule, compile the matchers) at 10,
//! 1,000 and 10,000 rules of every form. Run with `cargo bench --bench load`.

#[cfg(not(target_arch = "wasm32"))]
mod support;

#[cfg(not(target_arch = "wasm32"))]
// A bench that cannot build its input has nothing to measure: stopping is right.
#[allow(clippy::panic)]
mod bench {
    use std::time::Duration;

    use criterion::{criterion_group, BenchmarkId, Criterion};
    use toolgate::{Policy, Request};

    use crate::support::policy_document as document;

    pub fn load(c: &mut Criterion) {
        let mut group = c.benchmark_group("load");
        group
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(2))
            .sample_size(10);
        for n in [10usize, 1_000, 10_000] {
            let doc = document(n);
            group.bench_with_input(BenchmarkId::from_parameter(n), &doc, |b, doc| {
                b.iter(|| {
                    Policy::from_json(std::hint::black_box(doc))
                        .unwrap_or_else(|e| panic!("bench policy: {e}"))
                })
            });
        }
        group.finish();
        // Glob sets compile on first use: what the first decisions after loading cost.
        let requests: Vec<Request> = [
            r#"{"tool":"Bash","input":{"command":"tool3 run x"},"cwd":"/home/ada/proj"}"#,
            r#"{"tool":"Read","input":{"file_path":"dir2/a/b.txt"},"cwd":"/home/ada/proj"}"#,
            r#"{"tool":"Edit","input":{"file_path":"/srv/app9/x"},"cwd":"/home/ada/proj"}"#,
            r#"{"tool":"mcp__server5__get_x","input":{}}"#,
        ]
        .iter()
        .map(|r| Request::from_json(r).unwrap_or_else(|e| panic!("bench request: {e}")))
        .collect();
        let mut group = c.benchmark_group("load_and_first_decisions");
        group
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(2))
            .sample_size(10);
        for n in [10usize, 1_000, 10_000] {
            let doc = document(n);
            group.bench_with_input(BenchmarkId::from_parameter(n), &doc, |b, doc| {
                b.iter(|| {
                    let p = Policy::from_json(std::hint::black_box(doc))
                        .unwrap_or_else(|e| panic!("bench policy: {e}"));
                    requests
                        .iter()
                        .filter(|r| p.evaluate(r).effect == toolgate::Effect::Allow)
                        .count()
                })
            });
        }
        group.finish();
    }

    criterion_group!(benches, load);
}

#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(bench::benches);

#[cfg(target_arch = "wasm32")]
fn main() {}
