//! Stand-ins shared by the broker tests: a small table-driven evaluator and a deterministic
//! id source.
#![allow(dead_code, reason = "each test file uses a different part")]
#![allow(clippy::unwrap_used, reason = "test helpers may unwrap")]

use serde_json::{json, Value};
use toolgate::broker::{uuid_v4, ApprovalRequest, Broker, IdSource};
use toolgate::TrustOverlay;
use toolgate::{
    Decider, Decision, Effect, Error, ErrorKind, Evaluate, Layer, PartDecision, Reason, Request,
    Risk, RuleList,
};

/// Decides like a tiny policy:
/// - `Read`, `Glob`: allow. `Write`, `Edit`, `WebFetch`, MCP tools: ask, trustable.
///   Writes or edits of a path containing `.env` or starting with `/etc`: deny.
/// - `Delete`: ask, not trustable.
/// - `Bash`: the line is split on `&&`; `rm ...` parts deny, `ls`/`git status` allow,
///   other parts ask; trustable unless a part denies.
/// - Trust: a bare tool name allows that tool; `Bash(cmd)` allows the part `cmd`;
///   `Bash(prefix *)` allows parts starting with `prefix` (a line is allowed when every
///   part that asks is, else each such part is marked allowed); `Tool(//abs/path)` allows
///   that file (relative paths are below the request's `cwd`); `Tool(domain:host)` allows
///   URLs on that host; agent bypass allows any ask.
pub struct Table;

fn reason(decider: Decider, text: &str) -> Reason {
    Reason {
        decider,
        text: text.to_owned(),
    }
}

fn default_reason(tool: &str, text: &str) -> Reason {
    reason(Decider::ToolDefault { tool: tool.into() }, text)
}

fn decision(effect: Effect, risk: Risk, trustable: bool, reason: Reason) -> Decision {
    Decision {
        effect,
        risk,
        trustable,
        reason,
        parts: vec![],
        dangers: vec![],
    }
}

fn shell_part(part: &str) -> PartDecision {
    let (effect, text) = if part.starts_with("rm ") || part == "rm" {
        (
            Effect::Deny,
            "denied by rule `Bash(rm *)` in the project deny list",
        )
    } else if part == "ls" || part == "git status" {
        (Effect::Allow, "read-only command")
    } else {
        (Effect::Ask, "shell commands ask by default")
    };
    PartDecision {
        part: part.to_owned(),
        effect,
        reason: default_reason("bash", text),
        dangers: vec![],
    }
}

fn plain(request: &Request) -> Decision {
    let path = request.input_str("file_path").unwrap_or("");
    match request.tool.as_str() {
        "Read" | "Glob" => decision(
            Effect::Allow,
            Risk::Low,
            true,
            default_reason("read", "reads are allowed"),
        ),
        "Write" | "Edit" if path.contains(".env") || path.starts_with("/etc") => decision(
            Effect::Deny,
            Risk::High,
            false,
            reason(
                Decider::ProtectedPath { path: path.into() },
                &format!("`{path}` is a protected path"),
            ),
        ),
        "Write" | "Edit" | "WebFetch" => decision(
            Effect::Ask,
            Risk::Medium,
            true,
            default_reason("write", "file changes ask by default"),
        ),
        "Delete" => decision(
            Effect::Ask,
            Risk::High,
            false,
            default_reason("delete", "deletes ask by default"),
        ),
        "Bash" => {
            let line = request.input_str("command").unwrap_or("");
            let parts: Vec<PartDecision> = line.split("&&").map(|p| shell_part(p.trim())).collect();
            let effect = parts.iter().map(|p| p.effect).max().unwrap_or(Effect::Ask);
            let first = parts.iter().find(|p| p.effect == effect).unwrap().clone();
            Decision {
                effect,
                risk: Risk::High,
                trustable: effect != Effect::Deny,
                reason: if parts.len() > 1 {
                    reason(Decider::Parts, &first.reason.text)
                } else {
                    first.reason.clone()
                },
                parts: if parts.len() > 1 { parts } else { vec![] },
                dangers: vec![],
            }
        }
        t if t.starts_with("mcp__") => decision(
            Effect::Ask,
            Risk::Medium,
            true,
            default_reason(t, "MCP tools ask by default"),
        ),
        t => decision(
            Effect::Ask,
            Risk::High,
            false,
            reason(
                Decider::Unanalysable {
                    detail: format!("unknown tool `{t}`"),
                },
                "unknown tools ask",
            ),
        ),
    }
}

fn rule_allows(rule: &str, request: &Request, part: Option<&str>) -> bool {
    match (rule.split_once('('), part) {
        (None, _) => rule == request.tool,
        (Some((tool, spec)), Some(part)) if tool == "Bash" && request.tool == "Bash" => {
            let spec = spec.trim_end_matches(')');
            match spec.strip_suffix(" *") {
                Some(prefix) => part == prefix || part.starts_with(&format!("{prefix} ")),
                None => part == spec,
            }
        }
        (Some((tool, spec)), None) if tool == request.tool => {
            let spec = spec.trim_end_matches(')');
            if let Some(host) = spec.strip_prefix("domain:") {
                let url = request.input_str("url").unwrap_or("");
                return url.split("://").nth(1).and_then(|r| r.split('/').next()) == Some(host);
            }
            let path = request.input_str("file_path").unwrap_or("");
            let abs = match (path.starts_with('/'), request.cwd.as_deref()) {
                (true, _) => path.to_owned(),
                (false, Some(cwd)) => format!("{cwd}/{path}"),
                (false, None) => return false,
            };
            spec.strip_prefix('/') == Some(abs.as_str())
        }
        _ => false,
    }
}

impl Evaluate for Table {
    fn evaluate_with(&self, request: &Request, trust: &TrustOverlay) -> Decision {
        let d = plain(request);
        if d.effect != Effect::Ask {
            return d;
        }
        if trust.agent_bypass {
            let agent = request.agent.clone().unwrap_or_default();
            return Decision {
                effect: Effect::Allow,
                reason: reason(Decider::AgentBypass { agent }, "agent bypass"),
                ..d
            };
        }
        let asking: Vec<String> = if request.tool == "Bash" {
            let line = request.input_str("command").unwrap_or("");
            line.split("&&")
                .map(|p| p.trim().to_owned())
                .filter(|p| shell_part(p).effect == Effect::Ask)
                .collect()
        } else {
            vec![]
        };
        let covering = |rule: &String| {
            if request.tool == "Bash" {
                asking.iter().any(|p| rule_allows(rule, request, Some(p)))
            } else {
                rule_allows(rule, request, None)
            }
        };
        let all_covered = request.tool != "Bash"
            || (!asking.is_empty()
                && asking.iter().all(|p| {
                    trust
                        .allow_rules
                        .iter()
                        .any(|r| rule_allows(r, request, Some(p)))
                }));
        let found = trust
            .allow_rules
            .iter()
            .enumerate()
            .find(|(_, r)| covering(r));
        if let (false, Some((index, rule))) = (all_covered, found) {
            let parts = d
                .parts
                .iter()
                .map(|p| {
                    if p.effect == Effect::Ask && rule_allows(rule, request, Some(&p.part)) {
                        PartDecision {
                            effect: Effect::Allow,
                            reason: reason(
                                Decider::Rule {
                                    rule: rule.clone(),
                                    list: RuleList::Allow,
                                    layer: Layer::Trust,
                                    index,
                                },
                                "allowed by a remembered rule",
                            ),
                            ..p.clone()
                        }
                    } else {
                        p.clone()
                    }
                })
                .collect();
            return Decision { parts, ..d };
        }
        if let (true, Some((index, rule))) = (all_covered, found) {
            return Decision {
                effect: Effect::Allow,
                reason: reason(
                    Decider::Rule {
                        rule: rule.clone(),
                        list: RuleList::Allow,
                        layer: Layer::Trust,
                        index,
                    },
                    &format!("allowed by remembered rule `{rule}`"),
                ),
                ..d
            };
        }
        d
    }

    fn check_rule(&self, rule: &str) -> toolgate::Result<()> {
        let name_ok =
            |n: &str| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        let ok = match rule.split_once('(') {
            None => name_ok(rule),
            Some((tool, rest)) => name_ok(tool) && rest.ends_with(')'),
        };
        if ok {
            Ok(())
        } else {
            Err(
                Error::new(ErrorKind::InvalidRule, format!("cannot parse `{rule}`"))
                    .with_hint("write `Tool` or `Tool(specifier)`"),
            )
        }
    }
}

/// Ids `00000000-0000-4000-8000-00000000000n`, counting up.
pub struct Seq(pub u64);

impl IdSource for Seq {
    fn next_id(&mut self) -> toolgate::Result<String> {
        self.0 += 1;
        let mut bytes = [0u8; 16];
        bytes[8..].copy_from_slice(&self.0.to_be_bytes());
        Ok(uuid_v4(bytes))
    }
}

pub fn broker() -> Broker {
    Broker::new(Box::new(Table)).with_ids(Box::new(Seq(0)))
}

pub fn call(session: &str, tool: &str, input: Value) -> ApprovalRequest {
    ApprovalRequest {
        session_id: session.to_owned(),
        call_id: None,
        timeout_ms: None,
        request: Request {
            tool: tool.to_owned(),
            input,
            cwd: Some("/p".to_owned()),
            ..Request::default()
        },
    }
}

pub fn bash(session: &str, command: &str) -> ApprovalRequest {
    call(session, "Bash", json!({ "command": command }))
}

pub fn write(session: &str, path: &str, content: &str) -> ApprovalRequest {
    call(
        session,
        "Write",
        json!({ "file_path": path, "content": content }),
    )
}
