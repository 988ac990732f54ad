//! `toolgate`: check a request against a policy, run a policy's examples, or explain a
//! decision.
//!
//! ```text
//! toolgate check   --policy P.json --request R.json   # the Decision as JSON, exit 0
//! toolgate explain --policy P.json --request R.json   # the decision and the rules, for people
//! toolgate test    P.json                             # run the policy's examples
//! ```
//! Either file may be `-` for standard input. A bad policy or request exits with 2.

#[path = "../cli/mod.rs"]
mod cli;

use std::process::ExitCode;

use toolgate::path::links::Entry;
use toolgate::policy::{Explanation, Policy};
use toolgate::{Error, ErrorKind, Request};

const USAGE: &str = "usage:
  toolgate check   --policy <file|-> --request <file|->
  toolgate explain --policy <file|-> --request <file|->
  toolgate test    <policy file|->
  toolgate import  --from claude|copilot|gemini|codex|vscode|zed <file>... [--args '...'] [-o <file>] [--strict]
  toolgate export  --to claude|copilot|gemini|codex [-o <file>] <policy file|->
  toolgate hook    [--agent claude|copilot|codex|gemini|cursor] [--policy <file>]...
                   [--agent-settings] [--explain] [--deadline-ms <n>]
  toolgate install   --agent <name> [--project|--user] [--dir <project>] [--command <cmd>]
  toolgate uninstall --agent <name> [--project|--user] [--dir <project>]
  toolgate doctor  [--agent <name>] [--dir <project>]
  toolgate trust   add --rule <rule> [--session <id>] [--agent <name>] [--dir <project>]
  toolgate trust   list [--dir <project>] | revoke <id> [--dir <project>]
  toolgate --version

check prints the decision as one JSON object; explain prints it for people with every rule
consulted; test runs the policy's examples; import turns an agent's configuration into a
policy (warnings on stderr; --strict makes them errors); export writes a policy in an
agent's format and reports on stderr what it cannot express; hook answers an agent's hook
payload on stdin (see docs/agents.md). Exit codes: 0 success, 1 a failing example,
2 bad usage, policy or request.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("toolgate: error[{}] {e}", e.code());
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<ExitCode, Error> {
    let Some((command, rest)) = args.split_first() else {
        eprintln!("{USAGE}");
        return Ok(ExitCode::from(2));
    };
    match command.as_str() {
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        "-V" | "--version" | "version" => {
            println!("toolgate {}", env!("CARGO_PKG_VERSION"));
            Ok(ExitCode::SUCCESS)
        }
        "check" | "explain" => {
            let (policy, request) = policy_and_request(rest)?;
            if command == "check" {
                let decision = policy.evaluate(&request);
                println!("{}", to_json(&decision)?);
            } else {
                print!("{}", render(&policy.explain(&request)));
            }
            Ok(ExitCode::SUCCESS)
        }
        "test" => {
            let [file] = rest else {
                return Err(cli::usage("`test` takes one policy file"));
            };
            let doc = toolgate::json::from_str(&cli::read_input(file)?, "policy")?;
            let policy = Policy::compile_unchecked(doc)?;
            for w in policy.warnings() {
                println!("warning[{}] {}: {}", w.code, w.path, w.message);
            }
            let results = policy.run_examples();
            let failed = results.iter().filter(|r| !r.passed()).count();
            for r in &results {
                println!(
                    "{} {}: expected {}, got {} ({})",
                    if r.passed() { "ok  " } else { "FAIL" },
                    r.name,
                    r.expect.as_str(),
                    r.decision.effect.as_str(),
                    r.decision.reason.text
                );
            }
            println!("{} passed, {failed} failed", results.len() - failed);
            Ok(if failed == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        "import" => cli::import::run(rest),
        "export" => cli::export::run(rest),
        "hook" => Ok(cli::hook::run(rest)),
        "install" => cli::install::run(rest, true),
        "uninstall" => cli::install::run(rest, false),
        "doctor" => cli::doctor::run(rest),
        "trust" => cli::trust::run(rest),
        other => Err(cli::usage(&format!("unknown command `{other}`"))),
    }
}

fn policy_and_request(args: &[String]) -> Result<(Policy, Request), Error> {
    let (mut policy, mut request) = (None, None);
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let slot = match flag.as_str() {
            "--policy" => &mut policy,
            "--request" => &mut request,
            other => return Err(cli::usage(&format!("unexpected argument `{other}`"))),
        };
        let Some(value) = it.next() else {
            return Err(cli::usage(&format!("`{flag}` needs a file name or `-`")));
        };
        *slot = Some(value.clone());
    }
    let (Some(policy), Some(request)) = (policy, request) else {
        return Err(cli::usage("both `--policy` and `--request` are required"));
    };
    if policy == "-" && request == "-" {
        return Err(cli::usage(
            "only one of `--policy` and `--request` can be `-`",
        ));
    }
    let mut policy =
        Policy::from_json(&cli::read_input(&policy)?).map_err(|e| e.within("policy"))?;
    for w in policy.warnings() {
        eprintln!("toolgate: warning[{}] {}: {}", w.code, w.path, w.message);
    }
    let mut request =
        Request::from_json(&cli::read_input(&request)?).map_err(|e| e.within("request"))?;
    add_realpaths(&mut request);
    add_rule_realpaths(&mut policy, std::slice::from_ref(&request));
    Ok((policy, request))
}

/// The native CLI can see the file system: record where symlinks in the request's paths
/// (and in the files a shell call's globs name) really lead, so that an allow needs both the
/// link and its target to match.
fn add_realpaths(request: &mut Request) {
    // A variable that is not UTF-8 is still set.
    let env = |name: &str| std::env::var_os(name).map(|v| v.to_string_lossy().into_owned());
    request.add_realpaths_reading(real_path, list_directory, read_text, env);
}

/// A small text file's contents (a repository's ignore files), read as the hooks read
/// theirs: never waiting on a FIFO or a device; `None` when it cannot be read.
fn read_text(path: &str) -> Option<String> {
    cli::files::read_optional(std::path::Path::new(path))
        .ok()
        .flatten()
}

/// The native CLI can see the file system: record where the deny and ask rules written
/// through a symlink really lead (those relative to the working directory placed where
/// `requests`, the calls this process decides, anchor them), so that they meet the file
/// under either spelling.
fn add_rule_realpaths(policy: &mut Policy, requests: &[Request]) {
    policy.add_rule_realpaths_for(requests, real_path, list_directory);
}

/// Where `full` leads for the agent's shell, each link followed one hop at a time
/// ([`toolgate::path::links::real_path`]) over this process's file system ([`entry`]).
fn real_path(full: &str) -> Option<String> {
    toolgate::path::links::real_path(full, &entry)
}

/// What is at the absolute path `path`, its last name not followed (`lstat`). A link whose
/// target is not UTF-8 is [`Entry::Unknown`]: judged by a name that is not the one the
/// kernel follows, its deny rules could be missed, so the call asks.
fn entry(path: &str) -> Entry {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => match std::fs::read_link(path) {
            Ok(target) => target
                .into_os_string()
                .into_string()
                .map_or(Entry::Unknown, Entry::Link),
            Err(_) => Entry::Unknown,
        },
        Ok(_) => Entry::Other,
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            Entry::Missing
        }
        Err(_) => Entry::Unknown,
    }
}

/// The names in the directory `dir`: none when it does not exist or is not a directory;
/// `None` when it cannot be listed, or holds a name that is not UTF-8 and is not a plain
/// file ([`name_to_judge`]): what lies below or behind that name is unknown, and the call
/// asks.
fn list_directory(dir: &str) -> Option<Vec<String>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            return Some(Vec::new())
        }
        Err(_) => return None,
    };
    entries.map(|e| name_to_judge(&e.ok()?)).collect()
}

/// The name of the entry `entry` as the engine judges it: as written when it is UTF-8; a
/// plain file's other name with each byte that is not UTF-8 as U+FFFD (secret names are
/// ASCII, and a rule's wildcard meets the replacement as any character). `None` for a name
/// that is not UTF-8 on a directory or a link: the engine would look through a name that
/// does not exist, and miss what it leads to.
fn name_to_judge(entry: &std::fs::DirEntry) -> Option<String> {
    let name = entry.file_name();
    match name.to_str() {
        Some(text) => Some(text.to_owned()),
        None if entry.file_type().ok()?.is_file() => Some(name.to_string_lossy().into_owned()),
        None => None,
    }
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<String, Error> {
    serde_json::to_string(value)
        .map_err(|e| Error::new(ErrorKind::InvalidJson, format!("cannot encode output: {e}")))
}

fn render(x: &Explanation) -> String {
    let d = &x.decision;
    let mut out = format!(
        "{} (risk {}, {}trustable)\n  {}\n  tool `{}` ({:?}), mode {}\n",
        d.effect.as_str().to_uppercase(),
        d.risk.as_str(),
        if d.trustable { "" } else { "not " },
        d.reason.text,
        x.tool,
        x.kind,
        x.mode.as_str()
    );
    if d.dangers.is_empty() {
        out.push_str("  dangers: none known\n");
    } else {
        out.push_str("  dangers:\n");
        for danger in &d.dangers {
            out.push_str(&format!(
                "    [{}] {}: {}\n",
                danger.class.id(),
                danger.sentence,
                danger.detail
            ));
        }
    }
    for p in &d.parts {
        out.push_str(&format!(
            "  part `{}`: {} ({})\n",
            p.part,
            p.effect.as_str(),
            p.reason.text
        ));
    }
    if let Some(m) = d.model_message() {
        out.push_str(&format!("  message to the model: {m}\n"));
    }
    if x.rules.is_empty() {
        out.push_str("rules consulted: none apply to this tool\n");
    } else {
        out.push_str("rules consulted:\n");
        for r in &x.rules {
            let from = match &r.flag {
                Some(f) => format!("copilot {f}"),
                None => format!("{} {}[{}]", r.layer.as_str(), list(r.list), r.index),
            };
            out.push_str(&format!(
                "  {} {:<40} {}{}\n",
                if r.matched { "*" } else { " " },
                r.rule,
                from,
                if r.active { "" } else { " (inactive)" }
            ));
            if let Some(p) = &r.provenance {
                let text = p.text.split_whitespace().collect::<Vec<_>>().join(" ");
                out.push_str(&format!("      from {}:{}: {text}\n", p.file, p.line));
            }
        }
        out.push_str("  (* = matched this call)\n");
    }
    out
}

fn list(l: toolgate::RuleList) -> &'static str {
    match l {
        toolgate::RuleList::Deny => "deny",
        toolgate::RuleList::Ask => "ask",
        toolgate::RuleList::Allow => "allow",
    }
}
