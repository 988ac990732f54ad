//! The table against the programs on this machine: for each installed program of the
//! table, `PROG --help` (git: `git SUB -h`) must not list a long option the table does
//! not classify. Programs that are not installed are skipped and named.
#![cfg(not(target_arch = "wasm32"))]
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    reason = "a test harness"
)]

use std::process::{Command, Stdio};

use toolgate::commands::{find_primaries, programs, Operands, Program, Syntax};

/// Long options named in `text` (`--name`, `--[no-]name`), without placeholders such as
/// diff's `--GTYPE-group-format`.
fn long_options(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let text = text.replace("--[no-]", "--");
    for (i, _) in text.match_indices("--") {
        let before = text[..i].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '-') {
            continue;
        }
        let name: String = text[i + 2..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        let name = name.trim_end_matches('-').to_owned();
        if name.len() > 1 && !name.chars().any(|c| c.is_ascii_uppercase()) && !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

fn help(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .env("LC_ALL", "C")
        .output()
        .ok()?;
    Some(format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    ))
}

fn unclassified(p: &Program, text: &str) -> Vec<String> {
    let known: Vec<&str> = p.option_specs().flat_map(|o| o.long).collect();
    long_options(text)
        .into_iter()
        .filter(|l| !known.contains(&l.as_str()))
        .collect()
}

#[test]
fn every_long_option_in_help_is_in_the_table() {
    let mut missing = Vec::new();
    let mut skipped = Vec::new();
    let mut checked = 0;
    for p in programs() {
        if p.operands == Operands::OnlyTheOption {
            // Only `--version`/`--help`, spelled in full and alone: every other option asks.
            continue;
        }
        let text = match p.name {
            "true" | "set" | "type" | "command" | "cd" | "printf" => continue,
            "find" => {
                let text = help("find", &["--help"]).unwrap_or_default();
                for word in text.split_whitespace() {
                    let w = word.trim_matches(|c: char| c == ',' || c == '.');
                    let primary = w.len() > 2
                        && w.starts_with('-')
                        && !w.starts_with("--")
                        && w[1..]
                            .chars()
                            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
                    if primary && !find_primaries().any(|f| f == w) && !w.starts_with("-newer") {
                        missing.push(format!("find {w}"));
                    }
                }
                checked += 1;
                continue;
            }
            "git" => {
                // Runners' options are not judged (an allow rule covers them only when it
                // names the command exactly); nor are the words of entries without options.
                let judged = |s: &&Program| s.runs.is_none() && s.syntax != Syntax::NoOptions;
                for sub in p.subcommands.iter().filter(judged) {
                    let mut leaves: Vec<(Vec<&str>, &Program)> = Vec::new();
                    if sub.subcommands.is_empty() {
                        leaves.push((vec![sub.name], sub));
                    }
                    for inner in sub.subcommands.iter().filter(judged) {
                        leaves.push((vec![sub.name, inner.name], inner));
                    }
                    for (names, leaf) in leaves {
                        let args: Vec<&str> = names.iter().copied().chain(["-h"]).collect();
                        if let Some(text) = help("git", &args) {
                            missing.extend(
                                unclassified(leaf, &text)
                                    .into_iter()
                                    .map(|l| format!("git {} --{l}", names.join(" "))),
                            );
                        }
                    }
                }
                checked += 1;
                continue;
            }
            _ => match help(p.name, &["--help"]) {
                Some(text) => text,
                None => {
                    skipped.push(p.name);
                    continue;
                }
            },
        };
        checked += 1;
        missing.extend(
            unclassified(p, &text)
                .into_iter()
                .map(|l| format!("{} --{l}", p.name)),
        );
    }
    println!(
        "checked {checked} programs; not installed here: {}",
        skipped.join(" ")
    );
    assert!(
        missing.is_empty(),
        "options the table does not classify:\n{}",
        missing.join("\n")
    );
}
