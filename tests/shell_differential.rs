//! Differential oracle: toolgate's shell parser against a real one (`shfmt --to-json`,
//! Debian package `shfmt`, installed by `scripts/setup.sh`). Whenever the two disagree on
//! the commands a line runs (or one of them rejects the line), toolgate must not allow
//! that line. Runs over every command line of the corpus (`tests/corpus/`) and a few hundred
//! generated lines.
#![cfg(not(target_arch = "wasm32"))]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    reason = "a test harness"
)]

#[path = "corpus/schema.rs"]
mod schema;

use std::io::Write;
use std::process::{Command, Stdio};

#[path = "support/literal_rules.rs"]
mod literal_rules;

use literal_rules::LiteralRules;
use proptest::prelude::*;
use serde_json::Value;
use toolgate::shell::{judge, simple_commands, Outcome};
use toolgate::RuleList;

type Commands = Vec<Vec<Option<String>>>;

fn shfmt_available() -> bool {
    let found = Command::new("shfmt").arg("--version").output().is_ok();
    assert!(
        found || std::env::var_os("TOOLGATE_SKIP_ORACLES").is_some(),
        "shfmt is missing: run scripts/setup.sh (or apt-get install shfmt), or set TOOLGATE_SKIP_ORACLES=1"
    );
    found
}

/// The commands shfmt (bash dialect) reads in `line`; `None` when it rejects the line.
fn shfmt_commands(line: &str) -> Option<Commands> {
    let mut child = Command::new("shfmt")
        .args(["--to-json", "-ln", "bash"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(line.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    if !out.status.success() {
        return None;
    }
    let ast: Value = serde_json::from_slice(&out.stdout).ok()?;
    let mut commands = Vec::new();
    walk(&ast, &mut commands);
    Some(commands)
}

fn walk(node: &Value, out: &mut Commands) {
    match node {
        Value::Object(map) => {
            if map.get("Type").and_then(Value::as_str) == Some("CallExpr") {
                let args: Vec<Option<String>> = map
                    .get("Args")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().map(word).collect())
                    .unwrap_or_default();
                if !args.is_empty() {
                    out.push(args);
                }
            }
            for v in map.values() {
                walk(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
        _ => {}
    }
}

/// A word's value when it is known before run time.
fn word(w: &Value) -> Option<String> {
    let mut value = String::new();
    let parts = w.get("Parts")?.as_array()?;
    for (i, part) in parts.iter().enumerate() {
        match part.get("Type")?.as_str()? {
            "Lit" => {
                let raw = part.get("Value")?.as_str()?;
                let bracket = raw
                    .find('[')
                    .is_some_and(|o| raw.rfind(']').is_some_and(|c| c > o));
                if raw.contains(['*', '?'])
                    || bracket
                    || (raw.contains('{')
                        && raw.contains('}')
                        && (raw.contains(',') || raw.contains("..")))
                    || (i == 0 && raw.starts_with('~') && !raw.starts_with("~/") && raw != "~")
                {
                    return None;
                }
                value.push_str(&unescape(raw, None));
            }
            "SglQuoted" => {
                if part.get("Dollar").and_then(Value::as_bool) == Some(true) {
                    return None;
                }
                value.push_str(part.get("Value")?.as_str()?);
            }
            "DblQuoted" => {
                if part.get("Dollar").and_then(Value::as_bool) == Some(true) {
                    return None;
                }
                for inner in part
                    .get("Parts")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    if inner.get("Type")?.as_str()? != "Lit" {
                        return None;
                    }
                    value.push_str(&unescape(inner.get("Value")?.as_str()?, Some("$`\"\\\n")));
                }
            }
            _ => return None,
        }
    }
    Some(value)
}

/// Backslash removal: unquoted (`only` = None) every escaped character; in double quotes
/// only the characters in `only`.
fn unescape(raw: &str, only: Option<&str>) -> String {
    let mut out = String::new();
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.peek().copied() {
                Some('\n') if only.is_none_or(|o| o.contains('\n')) => {
                    chars.next();
                }
                Some(n) if only.is_none_or(|o| o.contains(n)) => {
                    out.push(n);
                    chars.next();
                }
                _ => out.push(c),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// `time` is a keyword to bash and a wrapper to toolgate: compare without it.
fn normalised(mut commands: Commands) -> Commands {
    for c in &mut commands {
        while c.first().is_some_and(|w| w.as_deref() == Some("time")) {
            c.remove(0);
        }
    }
    commands.retain(|c| !c.is_empty());
    commands.sort();
    commands
}

fn rules() -> LiteralRules {
    LiteralRules::new("/home/ada/proj", "/home/ada")
        .rule(RuleList::Allow, "Bash(git status)")
        .rule(RuleList::Allow, "Bash(ls *)")
        .rule(RuleList::Allow, "Bash(echo *)")
        .rule(RuleList::Allow, "Bash(npm run test:*)")
}

fn allowed(line: &str, rules: &LiteralRules) -> bool {
    judge(line, rules)
        .iter()
        .all(|p| matches!(p.outcome, Outcome::ReadOnly | Outcome::Allowed(_)))
}

/// Checks one line; returns whether the parsers agreed.
fn check(line: &str, rules: &LiteralRules) -> bool {
    let ours = simple_commands(line).map(normalised);
    let theirs = shfmt_commands(line).map(normalised);
    let agree = ours == theirs;
    if !agree {
        assert!(
            !allowed(line, rules),
            "the parsers disagree on {line:?} and toolgate allows it\n  toolgate: {ours:?}\n  shfmt:    {theirs:?}"
        );
    }
    agree
}

/// Every command line of the corpus (`tests/corpus/`), short of the few over 4 KiB or
/// holding a NUL byte, which shfmt cannot be fed.
fn corpus_lines() -> Vec<String> {
    schema::command_lines()
        .into_iter()
        .filter(|line| line.len() < 4096 && !line.contains('\0'))
        .collect()
}

#[test]
fn parsers_agree_or_the_line_is_not_allowed() {
    if !shfmt_available() {
        return;
    }
    let rules = rules();
    let lines = corpus_lines();
    let disagreements = lines.iter().filter(|l| !check(l, &rules)).count();
    println!(
        "{} lines, {disagreements} where the parsers disagree (none of them allowed)",
        lines.len()
    );
}

fn oracle_cases(default: u32) -> u32 {
    std::env::var("TOOLGATE_ORACLE_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

/// Pieces of shell text, glued at random.
fn piece() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "ls", "git", "status", "echo", "cat", "rm", "-rf", "x", "&&", "||", ";", "|", "|&", "&",
        "(", ")", "{", "}", "'a b'", "\"q\"", "\"$x\"", "$(", "`", "\\", "#", "\n", "if", "then",
        "fi", "do", "done", "while", ">", "<", "2>&1", "*", "=", "a=1", "!", "'", "\"", "$'x'",
        "<(", ">(", "~", "~/x", "{a,b}", "\\;", ";;", "[[", "]]", "$", "-", "--", "sh", "-c",
    ])
}

fn line() -> impl Strategy<Value = String> {
    prop::collection::vec((piece(), prop::bool::weighted(0.8)), 1..9).prop_map(|v| {
        v.into_iter()
            .map(|(p, space)| if space { format!("{p} ") } else { p.to_owned() })
            .collect::<String>()
    })
}

proptest! {
    // `TOOLGATE_ORACLE_CASES` raises the number of generated lines for a longer hunt.
    #![proptest_config(ProptestConfig { cases: oracle_cases(300), failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn generated_lines_agree_or_are_not_allowed(line in line()) {
        if shfmt_available() {
            check(&line, &rules());
        }
    }
}
