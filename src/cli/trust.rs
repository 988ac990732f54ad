//! `toolgate trust`: remember, list and revoke grants in the trust file the hook reads.
//!
//! ```text
//! toolgate trust add --rule 'Bash(npm test *)' [--session ID] [--agent NAME] [--dir PROJECT]
//!                    [--expires-in-ms N]
//! toolgate trust list [--dir PROJECT]
//! toolgate trust revoke ID [--dir PROJECT]
//! ```
//! A grant with `--session` applies to that agent session only; without, to every session
//! in the project. Rules are checked as the broker checks remembered answers
//! ([`toolgate::trust::check_grant_rule`]): a rule that would approve too much is refused.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use toolgate::agents::Agent;
use toolgate::trust::NewGrant;
use toolgate::{Error, Policy};

use super::files::{now_ms, storage};
use super::{flag_value, parse_flags, usage_error};

fn project(flags: &[(String, Option<String>)]) -> Result<String, Error> {
    let dir = match flag_value(flags, "--dir") {
        Some(d) => PathBuf::from(d),
        None => std::env::current_dir().map_err(|e| storage(Path::new("."), "read", &e))?,
    };
    if !dir.is_absolute() {
        return Err(usage_error("`--dir` must be an absolute path"));
    }
    Ok(dir.to_string_lossy().into_owned())
}

/// Runs `toolgate trust`.
pub fn run(args: &[String]) -> Result<ExitCode, Error> {
    let Some((sub, rest)) = args.split_first() else {
        return Err(usage_error("`trust` needs `add`, `list` or `revoke`"));
    };
    let path = super::trust_file::path()?;
    let rules = Policy::from_json("{}")?;
    let now = now_ms();
    match sub.as_str() {
        "add" => {
            let flags = parse_flags(
                rest,
                &[],
                &["--rule", "--session", "--agent", "--dir", "--expires-in-ms"],
            )?;
            let rule = flag_value(&flags, "--rule")
                .ok_or_else(|| usage_error("`trust add` needs `--rule`"))?;
            let agent = flag_value(&flags, "--agent")
                .map(Agent::parse)
                .transpose()?
                .map(Agent::name);
            let mut new = match flag_value(&flags, "--session") {
                Some(s) => NewGrant::session(rule, s),
                None => NewGrant::always(rule),
            }
            .for_agent(agent);
            if let Some(ms) = flag_value(&flags, "--expires-in-ms") {
                let ms: u64 = ms
                    .parse()
                    .map_err(|_| usage_error("`--expires-in-ms` takes a number"))?;
                new.expires_at = Some(now.saturating_add(ms));
            }
            let grant = super::trust_file::add(&path, &project(&flags)?, new, &rules, now)?;
            println!("{} {} ({})", grant.id, grant.rule, grant.scope.as_str());
        }
        "list" => {
            let flags = parse_flags(rest, &[], &["--dir"])?;
            for (session, g) in super::trust_file::list(&path, &project(&flags)?, &rules, now)? {
                let scope = if session.is_empty() {
                    "always".to_owned()
                } else {
                    format!("session {session}")
                };
                println!("{} {} ({scope})", g.id, g.rule);
            }
        }
        "revoke" => {
            let Some((id, rest)) = rest.split_first() else {
                return Err(usage_error("`trust revoke` needs a grant id"));
            };
            let flags = parse_flags(rest, &[], &["--dir"])?;
            if !super::trust_file::revoke(&path, &project(&flags)?, id, &rules, now)? {
                return Err(usage_error(&format!("no grant `{id}` in this project")));
            }
            println!("revoked {id}");
        }
        other => return Err(usage_error(&format!("unknown `trust` command `{other}`"))),
    }
    Ok(ExitCode::SUCCESS)
}
