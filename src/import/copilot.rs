//! Copilot CLI: `config.json` (tool and URL lists, trusted folders) and the command-line flags
//! (`--allow-tool`, `--deny-tool`, `--allow-all-tools`, `--allow-url`, `--deny-url`, ...),
//! given as a file of arguments.

use serde_json::Value;

use crate::decision::Layer;
use crate::error::{ErrorKind, Result};

use super::builder::{json_type, line_of_json_string, Builder, Flag, Origin};
use super::jsonc;

/// Configuration keys that do not change what is allowed, asked or denied.
const OTHER_SETTINGS: &[&str] = &[
    "$schema",
    "model",
    "theme",
    "banner",
    "show_banner",
    "render_markdown",
    "screen_reader",
    "beep",
    "log_level",
    "staff",
    "first_launch_at",
    "last_logged_in_user",
    "logged_in_users",
    "asked_setup_terminals",
    "stream",
    "alt_screen",
    "reasoning_effort",
];

/// Flags that take a value and do not change decisions.
const OTHER_FLAGS_WITH_VALUE: &[&str] = &[
    "--model",
    "-p",
    "--prompt",
    "--log-level",
    "--log-dir",
    "--resume",
    "--agent",
    "--banner",
    "--config-dir",
    "--additional-mcp-config",
    "--stream",
];

/// Flags without a value that do not change decisions.
const OTHER_SWITCHES: &[&str] = &[
    "--continue",
    "--no-color",
    "--screen-reader",
    "--silent",
    "-s",
    "--disable-builtin-mcps",
    "--no-custom-instructions",
    "--interactive",
    "-i",
];

pub(crate) fn import(b: &mut Builder, name: &str, text: &str) -> Result<()> {
    if text.trim_start().starts_with('{') {
        config(b, name, text)
    } else {
        arguments(b, name, text)
    }
}

/// Imports `copilot` command-line arguments (`--args '...'` or a file of them).
fn arguments(b: &mut Builder, file: &str, text: &str) -> Result<()> {
    let words = split_args(text)
        .map_err(|(line, e)| Origin::new(file, line, "").error(ErrorKind::InvalidPolicy, e))?;
    let layer = b.layer(Layer::Cli);
    let mut it = words.iter().peekable();
    let mut first = true;
    while let Some((line, word)) = it.next() {
        let at = |t: &str| Origin::new(file, *line, t.to_owned());
        if first && (word == "copilot" || word.ends_with("/copilot")) {
            first = false;
            continue;
        }
        first = false;
        let (flag, inline) = match word.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_owned())),
            _ => (word.as_str(), None),
        };
        let mut value = |what: &str| -> Result<String> {
            match &inline {
                Some(v) => Ok(v.clone()),
                None => it.next().map(|(_, v)| v.clone()).ok_or_else(|| {
                    at(flag).error(ErrorKind::InvalidPolicy, format!("`{flag}` needs {what}"))
                }),
            }
        };
        match flag {
            "--allow-tool" | "--deny-tool" | "--allow-url" | "--deny-url" => {
                let v = value("a value")?;
                let o = at(&format!("{flag} {v}"));
                let (kind, rule) = match flag {
                    "--allow-tool" => (Flag::AllowTool, v.clone()),
                    "--deny-tool" => (Flag::DenyTool, v.clone()),
                    "--allow-url" => (Flag::AllowUrl, format!("url({v})")),
                    _ => (Flag::DenyUrl, format!("url({v})")),
                };
                check(
                    b,
                    &rule,
                    matches!(kind, Flag::AllowTool | Flag::AllowUrl),
                    &o,
                )?;
                if crate::rule::Rule::parse(&rule).is_ok() {
                    b.flag(kind, &v, &o);
                }
            }
            "--allow-all-tools" => b.copilot().allow_all_tools = true,
            "--allow-all-paths" => b.copilot().allow_all_paths = true,
            "--allow-all-urls" => b.copilot().allow_all_urls = true,
            "--allow-all" | "--yolo" => b.copilot().allow_all = true,
            "--add-dir" => {
                let v = value("a directory")?;
                b.additional_directory(layer, &v);
            }
            f if OTHER_SWITCHES.contains(&f) => {}
            f if OTHER_FLAGS_WITH_VALUE.contains(&f) => {
                value("a value")?;
            }
            f => {
                return Err(at(f)
                    .error(ErrorKind::UnknownField, format!("unknown argument `{f}`"))
                    .with_hint(
                        "pass the permission flags (`--allow-tool`, `--deny-tool`, \
                         `--allow-url`, `--deny-url`, `--allow-all-tools`, `--add-dir`, ...)",
                    ))
            }
        }
    }
    Ok(())
}

/// A rule that toolgate cannot read: left out of an allow list (with a warning), an error in
/// a deny list.
fn check(b: &mut Builder, rule: &str, allow: bool, origin: &Origin) -> Result<()> {
    match crate::rule::Rule::parse(rule) {
        Ok(_) => Ok(()),
        Err(e) if allow => {
            b.approximated(
                origin,
                format!("`{rule}` is left out, so those calls ask: {}", e.message()),
            );
            Ok(())
        }
        Err(e) => Err(origin.error(
            ErrorKind::InvalidRule,
            format!("cannot import `{rule}`: {}", e.message()),
        )),
    }
}

/// Imports `config.json`.
fn config(b: &mut Builder, file: &str, text: &str) -> Result<()> {
    let value = jsonc::parse(file, text)?;
    let Value::Object(top) = value else {
        return Err(
            Origin::new(file, 1, "").error(ErrorKind::InvalidPolicy, "expected a JSON object")
        );
    };
    let layer = b.layer(Layer::User);
    for (key, v) in &top {
        let origin = Origin::new(file, line_of_json_string(text, key, 1), key.clone());
        let list = |v: &Value| -> Result<Vec<String>> {
            let items = v.as_array().ok_or_else(|| {
                origin.error(
                    ErrorKind::InvalidPolicy,
                    format!("`{key}` must be an array, not {}", json_type(v)),
                )
            })?;
            items
                .iter()
                .map(|i| {
                    i.as_str().map(str::to_owned).ok_or_else(|| {
                        origin.error(
                            ErrorKind::InvalidPolicy,
                            format!("`{key}` must hold strings, not {}", json_type(i)),
                        )
                    })
                })
                .collect()
        };
        let flag = match key.as_str() {
            "allowed_tools" | "allowedTools" => Some(Flag::AllowTool),
            "denied_tools" | "deniedTools" => Some(Flag::DenyTool),
            "allowed_urls" | "allowedUrls" => Some(Flag::AllowUrl),
            "denied_urls" | "deniedUrls" => Some(Flag::DenyUrl),
            _ => None,
        };
        if let Some(kind) = flag {
            let mut line = origin.line;
            for item in list(v)? {
                line = line_of_json_string(text, &item, line);
                let o = Origin::new(file, line, item.clone());
                let rule = match kind {
                    Flag::AllowUrl | Flag::DenyUrl => format!("url({item})"),
                    _ => item.clone(),
                };
                check(
                    b,
                    &rule,
                    matches!(kind, Flag::AllowTool | Flag::AllowUrl),
                    &o,
                )?;
                if crate::rule::Rule::parse(&rule).is_ok() {
                    b.flag(kind, &item, &o);
                }
            }
            continue;
        }
        match key.as_str() {
            "trusted_folders" | "trustedFolders" => {
                let folders = list(v)?;
                if !folders.is_empty() {
                    b.not_imported(
                        &origin,
                        "trusted folders are not imported: they say where Copilot may start, \
                         not which calls it may make; add a folder with `--add-dir` to let \
                         file calls reach it",
                    );
                }
            }
            "additional_directories" | "additionalDirectories" => {
                for d in list(v)? {
                    b.additional_directory(layer, &d);
                }
            }
            k if OTHER_SETTINGS.contains(&k) => {}
            k => {
                return Err(origin
                    .error(ErrorKind::UnknownField, format!("unknown setting `{k}`"))
                    .with_hint(
                        "check the spelling; unknown keys are rejected so that a typo cannot \
                         weaken a policy",
                    ))
            }
        }
    }
    Ok(())
}

/// Splits shell-like arguments (single and double quotes, backslash escapes, `#` comments,
/// line continuations), each word with its line.
pub(crate) fn split_args(text: &str) -> std::result::Result<Vec<(u32, String)>, (u32, String)> {
    let mut out = Vec::new();
    let mut line = 1u32;
    let mut word: Option<(u32, String)> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => {
                line += 1;
                if let Some(w) = word.take() {
                    out.push(w);
                }
            }
            c if c.is_whitespace() => {
                if let Some(w) = word.take() {
                    out.push(w);
                }
            }
            '#' if word.is_none() => {
                while chars.peek().is_some_and(|c| *c != '\n') {
                    chars.next();
                }
            }
            '\\' => match chars.next() {
                Some('\n') => line += 1,
                Some(n) => word.get_or_insert((line, String::new())).1.push(n),
                None => {}
            },
            '\'' | '"' => {
                let start = line;
                let w = &mut word.get_or_insert((line, String::new())).1;
                loop {
                    match chars.next() {
                        Some(q) if q == c => break,
                        Some('\\') if c == '"' => match chars.next() {
                            Some(n) => w.push(n),
                            None => return Err((start, "unterminated quote".to_owned())),
                        },
                        Some(n) => {
                            if n == '\n' {
                                line += 1;
                            }
                            w.push(n);
                        }
                        None => {
                            return Err((
                                start,
                                format!(
                                    "unterminated {} quote",
                                    if c == '"' { "double" } else { "single" }
                                ),
                            ))
                        }
                    }
                }
            }
            c => word.get_or_insert((line, String::new())).1.push(c),
        }
    }
    if let Some(w) = word {
        out.push(w);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_a_shell() {
        let w = split_args(
            "copilot --allow-tool 'shell(git push)' \\\n --deny-tool=\"shell(rm)\" # c\n-p x",
        )
        .unwrap();
        let words: Vec<&str> = w.iter().map(|(_, s)| s.as_str()).collect();
        assert_eq!(
            words,
            [
                "copilot",
                "--allow-tool",
                "shell(git push)",
                "--deny-tool=shell(rm)",
                "-p",
                "x"
            ]
        );
        assert_eq!(w.get(4).map(|(l, _)| *l), Some(3));
        assert!(split_args("'x").is_err());
    }
}
