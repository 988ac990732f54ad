//! Policy load cost (parse the JSON document, parse every rule, compile the matchers) at 10,
//! 1,000 and 10,000 rules of every form. Run with `cargo bench --bench load`.

#[cfg(not(target_arch = "wasm32"))]
mod support;

#[cfg(not(target_arch = "wasm32"))]
// A bench that cannot build its input has nothing to measure: stopping is right.
#[allow(clippy::panic)]
mod bench {
    use std::time::Duration;

    use criterion::measurement::WallTime;
    use criterion::{criterion_group, BenchmarkGroup, BenchmarkId, Criterion};
    use toolgate::{Policy, Request};

    use crate::support::policy_document as document;

    /// A group that measures briefly: each load of 10,000 rules takes tens of milliseconds.
    fn group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
        let mut group = c.benchmark_group(name);
        group
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(2))
            .sample_size(10);
        group
    }

    fn parse(doc: &str) -> Policy {
        Policy::from_json(std::hint::black_box(doc)).unwrap_or_else(|e| panic!("bench policy: {e}"))
    }

    pub fn load(c: &mut Criterion) {
        let docs: Vec<(usize, String)> = [10usize, 1_000, 10_000]
            .into_iter()
            .map(|n| (n, document(n)))
            .collect();
        let mut g = group(c, "load");
        for (n, doc) in &docs {
            g.bench_with_input(BenchmarkId::from_parameter(n), doc, |b, doc| {
                b.iter(|| parse(doc))
            });
        }
        g.finish();
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
        let mut g = group(c, "load_and_first_decisions");
        for (n, doc) in &docs {
            g.bench_with_input(BenchmarkId::from_parameter(n), doc, |b, doc| {
                b.iter(|| {
                    let p = parse(doc);
                    requests
                        .iter()
                        .filter(|r| p.evaluate(r).effect == toolgate::Effect::Allow)
                        .count()
                })
            });
        }
        g.finish();
    }

    criterion_group!(benches, load);
}

#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(bench::benches);

#[cfg(target_arch = "wasm32")]
fn main() {}
