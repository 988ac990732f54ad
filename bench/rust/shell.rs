//! Shell analysis cost: `judge` on short commands, on long pipelines and compound lines, and
//! on lines with wrappers, substitutions and here-documents. Run with
//! `cargo bench --bench shell`.

#[cfg(not(target_arch = "wasm32"))]
#[path = "../../tests/support/literal_rules.rs"]
mod literal_rules;

#[cfg(not(target_arch = "wasm32"))]
mod bench {
    use std::time::Duration;

    use super::literal_rules::LiteralRules;
    use criterion::{criterion_group, BenchmarkId, Criterion, Throughput};
    use toolgate::shell::judge;
    use toolgate::RuleList;

    fn rules() -> LiteralRules {
        LiteralRules::new("/home/ada/proj", "/home/ada")
            .rule(RuleList::Allow, "Bash(git *)")
            .rule(RuleList::Allow, "Bash(npm run test:*)")
            .rule(RuleList::Allow, "Bash(cargo build *)")
            .rule(RuleList::Ask, "Bash(git push *)")
            .rule(RuleList::Deny, "Bash(rm -rf *)")
            .rule(RuleList::Deny, "Read(./.env)")
    }

    /// A line of `n` piped and chained commands, about 30 bytes each.
    fn long_line(n: usize) -> String {
        let parts: Vec<String> = (0..n)
            .map(|i| match i % 4 {
                0 => format!("git log --oneline -n {i}"),
                1 => format!("grep -E 'fix|feat{i}' src/file{i}.rs"),
                2 => "sort -u".to_owned(),
                _ => format!("head -c {i}"),
            })
            .collect();
        parts.join(if n.is_multiple_of(2) { " | " } else { " && " })
    }

    pub fn shell(c: &mut Criterion) {
        let rules = rules();
        let short = [
            ("simple", "git status".to_owned()),
            ("flags", "cargo build --release -p toolgate".to_owned()),
            ("denied", "rm -rf /".to_owned()),
            (
                "wrapped",
                "sudo env FOO=1 timeout 5 nice -n 10 git push origin main".to_owned(),
            ),
            (
                "substitution",
                "echo \"$(git rev-parse HEAD)\" > /tmp/out.txt".to_owned(),
            ),
            (
                "heredoc",
                "cat <<'EOF' | git apply\n--- a/x\n+++ b/x\nEOF".to_owned(),
            ),
        ];
        let mut group = c.benchmark_group("judge");
        group
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(1))
            .sample_size(20);
        for (name, line) in &short {
            group.bench_with_input(BenchmarkId::new("short", *name), line, |b, line| {
                b.iter(|| judge(std::hint::black_box(line), &rules))
            });
        }
        for n in [10usize, 100, 1_000] {
            let line = long_line(n);
            group.throughput(Throughput::Bytes(line.len() as u64));
            group.bench_with_input(BenchmarkId::new("long", n), &line, |b, line| {
                b.iter(|| judge(std::hint::black_box(line), &rules))
            });
        }
        group.finish();
    }

    criterion_group!(benches, shell);
}

#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(bench::benches);

#[cfg(target_arch = "wasm32")]
fn main() {}
