//! Codex: execpolicy rules (`prefix_rule(pattern = [...], decision = ..., match = [...],
//! not_match = [...], justification = ...)`, a Starlark subset that is parsed, never run) and
//! `approval_policy` / `sandbox_mode` from `config.toml`.
//!
//! A pattern is a list of argv tokens, each a string or a list of alternatives; it matches a
//! command whose argv starts with those tokens. Codex picks the strictest matching decision
//! (`forbidden` over `prompt` over `allow`), as toolgate does (deny over ask over allow).

use toml::Value as Toml;

use crate::decision::{Layer, RuleList};
use crate::error::{ErrorKind, Result};
use crate::mode::Mode;

use super::builder::{line_at, Builder, Origin};
use super::starlark::{self, Value};

/// How many commands one pattern may expand to.
const MAX_EXPANSION: usize = 256;

/// `config.toml` keys that do not change what is allowed, asked or denied.
const OTHER_CONFIG: &[&str] = &[
    "model",
    "model_provider",
    "model_providers",
    "model_reasoning_effort",
    "model_reasoning_summary",
    "model_verbosity",
    "model_context_window",
    "model_max_output_tokens",
    "model_supports_reasoning_summaries",
    "review_model",
    "sandbox_workspace_write",
    "shell_environment_policy",
    "mcp_servers",
    "profile",
    "projects",
    "history",
    "file_opener",
    "hide_agent_reasoning",
    "show_raw_agent_reasoning",
    "notify",
    "tui",
    "disable_response_storage",
    "instructions",
    "experimental_instructions_file",
    "tools",
    "features",
    "windows_wsl_setup_acknowledged",
    "preferred_auth_method",
    "forced_login_method",
    "forced_chatgpt_workspace_id",
    "otel",
    "chatgpt_base_url",
    "project_doc_max_bytes",
    "project_doc_fallback_filenames",
    "personality",
];

pub(crate) fn import(b: &mut Builder, name: &str, text: &str) -> Result<()> {
    if name.ends_with(".toml") {
        config(b, name, text)
    } else {
        rules(b, name, text)
    }
}

fn rules(b: &mut Builder, file: &str, text: &str) -> Result<()> {
    let calls = starlark::parse(file, text)?;
    let layer = b.layer(Layer::User);
    for call in calls {
        let origin = Origin::new(file, call.line, call.text.clone());
        match call.name.as_str() {
            "prefix_rule" => prefix_rule(b, layer, &call, &origin)?,
            "host_executable" => b.not_imported(
                &origin,
                "`host_executable` is not imported: rules match the program as it is written, \
                 so a command spelt with the full path does not match a rule on its name and \
                 asks",
            ),
            other => {
                return Err(origin
                    .error(
                        ErrorKind::InvalidPolicy,
                        format!("`{other}(...)` is outside the supported execpolicy subset"),
                    )
                    .with_hint("use `prefix_rule(...)`"))
            }
        }
    }
    Ok(())
}

fn prefix_rule(
    b: &mut Builder,
    layer: usize,
    call: &starlark::Call,
    origin: &Origin,
) -> Result<()> {
    let mut pattern = None;
    let mut list = RuleList::Allow;
    for (key, value, line) in &call.args {
        let at = Origin::new(&origin.file, *line, origin.text.clone());
        match (key.as_str(), value) {
            ("pattern", Value::List(tokens)) if !tokens.is_empty() => pattern = Some(tokens),
            ("pattern", _) => {
                return Err(at.error(
                    ErrorKind::InvalidPolicy,
                    "`pattern` must be a non-empty list of strings and lists of strings",
                ))
            }
            ("decision", Value::Str(d)) => {
                list = match d.as_str() {
                    "allow" => RuleList::Allow,
                    "prompt" => RuleList::Ask,
                    "forbidden" => RuleList::Deny,
                    other => {
                        return Err(at
                            .error(
                                ErrorKind::InvalidPolicy,
                                format!("unknown decision `{other}`"),
                            )
                            .with_hint("use `allow`, `prompt` or `forbidden`"))
                    }
                }
            }
            ("decision", _) => {
                return Err(at.error(ErrorKind::InvalidPolicy, "`decision` must be a string"))
            }
            ("justification", Value::Str(_)) => {}
            ("match" | "not_match", Value::List(_)) => {}
            ("justification" | "match" | "not_match", _) => {
                return Err(at.error(
                    ErrorKind::InvalidPolicy,
                    format!("`{key}` has the wrong type"),
                ))
            }
            (other, _) => {
                return Err(at
                    .error(
                        ErrorKind::UnknownField,
                        format!("unknown argument `{other}`"),
                    )
                    .with_hint("use pattern, decision, justification, match or not_match"))
            }
        }
    }
    let Some(pattern) = pattern else {
        return Err(origin.error(ErrorKind::InvalidPolicy, "`prefix_rule` needs a `pattern`"));
    };
    let mut alternatives: Vec<Vec<String>> = Vec::new();
    for token in pattern {
        let options = match token {
            Value::Str(s) => vec![s.clone()],
            Value::List(alts) if !alts.is_empty() => alts
                .iter()
                .map(|a| match a {
                    Value::Str(s) => Ok(s.clone()),
                    _ => Err(origin.error(
                        ErrorKind::InvalidPolicy,
                        "alternatives in a pattern must be strings",
                    )),
                })
                .collect::<Result<Vec<_>>>()?,
            _ => {
                return Err(origin.error(
                    ErrorKind::InvalidPolicy,
                    "a pattern token must be a string or a non-empty list of strings",
                ))
            }
        };
        alternatives.push(options);
    }
    check_examples(call, &alternatives, origin)?;
    let mut commands: Vec<Vec<String>> = vec![Vec::new()];
    for options in &alternatives {
        let mut next = Vec::new();
        for c in &commands {
            for o in options {
                let mut c = c.clone();
                c.push(o.clone());
                next.push(c);
            }
        }
        if next.len() > MAX_EXPANSION {
            return Err(origin
                .error(
                    ErrorKind::InvalidPolicy,
                    format!("the pattern expands to more than {MAX_EXPANSION} commands"),
                )
                .with_hint("split the rule into several rules"));
        }
        commands = next;
    }
    for words in commands {
        let tricky = words
            .iter()
            .any(|w| w.is_empty() || w.contains('*') || w.chars().any(char::is_whitespace));
        if tricky && list == RuleList::Allow {
            b.approximated(
                origin,
                format!(
                    "allow pattern `{}` has an empty token, a `*` or a space inside a token, \
                     which toolgate cannot match as narrowly; it is left out, so those \
                     commands ask",
                    words.join(" ")
                ),
            );
            continue;
        }
        if tricky {
            b.approximated(
                origin,
                format!(
                    "{} pattern `{}` is widened: a `*` or a space inside a token matches more",
                    if list == RuleList::Deny {
                        "forbidden"
                    } else {
                        "prompt"
                    },
                    words.join(" ")
                ),
            );
        }
        let joined = words
            .iter()
            .flat_map(|w| w.split_whitespace())
            .collect::<Vec<_>>()
            .join(" ");
        let rule = if joined.is_empty() {
            "Bash".to_owned()
        } else {
            format!("Bash({joined} *)")
        };
        b.checked_rule(layer, list, &rule, origin)?;
    }
    Ok(())
}

/// Checks the rule's `match` and `not_match` examples against its pattern, as Codex does when
/// it loads a policy: a policy whose examples fail does not load.
fn check_examples(call: &starlark::Call, pattern: &[Vec<String>], origin: &Origin) -> Result<()> {
    for (key, value, line) in &call.args {
        let must_match = match key.as_str() {
            "match" => true,
            "not_match" => false,
            _ => continue,
        };
        let Value::List(examples) = value else {
            continue;
        };
        let at = Origin::new(&origin.file, *line, origin.text.clone());
        for example in examples {
            let argv: Vec<String> = match example {
                Value::Str(s) => super::copilot::split_args(s)
                    .map_err(|(_, e)| {
                        at.error(ErrorKind::InvalidPolicy, format!("example `{s}`: {e}"))
                    })?
                    .into_iter()
                    .map(|(_, w)| w)
                    .collect(),
                Value::List(words) => words
                    .iter()
                    .map(|w| match w {
                        Value::Str(s) => Ok(s.clone()),
                        _ => Err(at.error(
                            ErrorKind::InvalidPolicy,
                            "an example must be a string or a list of strings",
                        )),
                    })
                    .collect::<Result<_>>()?,
                _ => {
                    return Err(at.error(
                        ErrorKind::InvalidPolicy,
                        "an example must be a string or a list of strings",
                    ))
                }
            };
            let matches = argv.len() >= pattern.len()
                && pattern
                    .iter()
                    .zip(&argv)
                    .all(|(options, word)| options.contains(word));
            if matches != must_match {
                return Err(at
                    .error(
                        ErrorKind::ExampleFailed,
                        format!(
                            "`{key}` example `{}` {} the pattern",
                            argv.join(" "),
                            if must_match {
                                "does not match"
                            } else {
                                "matches"
                            }
                        ),
                    )
                    .with_hint("fix the pattern or the example"));
            }
        }
    }
    Ok(())
}

/// `approval_policy` and `sandbox_mode` become the default mode:
///
/// | approval_policy | sandbox_mode | mode |
/// |---|---|---|
/// | `untrusted` | any | `default` |
/// | `on-request`, `on-failure` | `workspace-write` | `acceptEdits` |
/// | `on-request`, `on-failure` | other | `default` |
/// | `never` | `read-only` | `plan` |
/// | `never` | `workspace-write` | `dontAsk` |
/// | `never` | `danger-full-access` | `bypassPermissions` |
fn config(b: &mut Builder, file: &str, text: &str) -> Result<()> {
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| line_at(text, s.start)).unwrap_or(1);
        Origin::new(file, line, "").error(
            ErrorKind::InvalidPolicy,
            format!("invalid TOML: {}", e.message().trim()),
        )
    })?;
    let line_of = |key: &str| {
        text.lines()
            .position(|l| l.trim_start().starts_with(key))
            .and_then(|i| u32::try_from(i + 1).ok())
            .unwrap_or(1)
    };
    let mut approval = None;
    let mut sandbox = None;
    for (key, v) in &table {
        let line = line_of(key);
        let source = text
            .lines()
            .nth(usize::try_from(line).unwrap_or(1).saturating_sub(1))
            .unwrap_or(key)
            .trim();
        let origin = Origin::new(file, line, source);
        match key.as_str() {
            "approval_policy" | "sandbox_mode" => {
                let Some(s) = v.as_str() else {
                    return Err(origin.error(ErrorKind::InvalidPolicy, format!("`{key}` must be a string")));
                };
                let known: &[&str] = if key == "approval_policy" {
                    &["untrusted", "on-failure", "on-request", "never"]
                } else {
                    &["read-only", "workspace-write", "danger-full-access"]
                };
                if !known.contains(&s) {
                    return Err(origin
                        .error(ErrorKind::InvalidPolicy, format!("unknown {key} `{s}`"))
                        .with_hint(format!("use one of {}", known.join(", "))));
                }
                if key == "approval_policy" {
                    approval = Some((s.to_owned(), origin));
                } else {
                    sandbox = Some((s.to_owned(), origin));
                }
            }
            "profiles" => {
                if let Some(Toml::Table(_)) = Some(v) {
                    b.not_imported(&origin, "profiles are not imported: only the top-level `approval_policy` and `sandbox_mode` are");
                }
            }
            k if OTHER_CONFIG.contains(&k) => {}
            k => {
                return Err(origin
                    .error(ErrorKind::UnknownField, format!("unknown setting `{k}`"))
                    .with_hint("check the spelling; unknown keys are rejected so that a typo cannot weaken a policy"))
            }
        }
    }
    let Some((approval, origin)) = approval.or_else(|| {
        sandbox
            .as_ref()
            .map(|(_, o)| ("on-request".to_owned(), o.clone()))
    }) else {
        return Ok(());
    };
    let sandbox_mode = sandbox
        .as_ref()
        .map(|(s, _)| s.as_str())
        .unwrap_or("workspace-write");
    let mode = match (approval.as_str(), sandbox_mode) {
        ("untrusted", _) => Mode::Default,
        ("never", "read-only") => Mode::Plan,
        ("never", "workspace-write") => {
            b.approximated(&origin, "`never` with `workspace-write` becomes `dontAsk`: edits in the workspace are denied instead of run in the sandbox");
            Mode::DontAsk
        }
        ("never", _) => Mode::BypassPermissions,
        (_, "workspace-write") => {
            b.approximated(&origin, "the workspace sandbox becomes `acceptEdits`: shell commands that are not read-only ask instead of running in the sandbox");
            Mode::AcceptEdits
        }
        (_, "danger-full-access") => {
            b.approximated(&origin, "`danger-full-access` without `never` becomes `default`: calls that Codex would run without a sandbox ask");
            Mode::Default
        }
        _ => Mode::Default,
    };
    b.mode(mode, &origin);
    Ok(())
}
