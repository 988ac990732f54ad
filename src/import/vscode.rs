//! VS Code chat settings: `chat.tools.terminal.autoApprove` (string keys, `/regex/` keys,
//! `true`/`false`/`null` values, `{approve, matchCommandLine}` objects),
//! `chat.tools.autoApprove`, `chat.tools.eligibleForAutoApproval` and
//! `chat.tools.urls.autoApprove`.
//!
//! `true` auto-approves and `false` always asks; VS Code has no deny in these settings.

use serde_json::{Map, Value};

use crate::decision::{Layer, RuleList};
use crate::error::{ErrorKind, Result};
use crate::mode::Mode;

use super::builder::{json_type, line_of_json_string, Builder, Origin};
use super::jsonc;
use super::translate::{command_regex, js_allow_left_out, text_prefix};

pub(crate) fn import(b: &mut Builder, name: &str, text: &str) -> Result<()> {
    let value = jsonc::parse(name, text)?;
    let Value::Object(top) = value else {
        return Err(Origin::new(name, 1, "").error(
            ErrorKind::InvalidPolicy,
            "expected a JSON object of settings",
        ));
    };
    let layer = b.layer(Layer::User);
    terminal_settings(b, layer, name, text, &top)?;
    for (key, v) in &top {
        let origin = Origin::new(name, line_of_json_string(text, key, 1), key.clone());
        match key.as_str() {
            TERMINAL_KEY | DEPRECATED_TERMINAL_KEY | IGNORE_DEFAULTS_KEY => {}
            "chat.agent.terminal.allowList"
            | "chat.agent.terminal.denyList"
            | "github.copilot.chat.agent.terminal.allowList"
            | "github.copilot.chat.agent.terminal.denyList" => {
                return Err(origin
                    .error(
                        ErrorKind::InvalidPolicy,
                        format!("`{key}` is an old form of `{TERMINAL_KEY}`, which VS Code versions read differently"),
                    )
                    .with_hint(format!("move its entries into `{TERMINAL_KEY}`: `true` for an allow-list entry, `false` for a deny-list entry")))
            }
            "chat.tools.autoApprove" | "chat.tools.global.autoApprove" => match v {
                Value::Bool(true) => {
                    b.mode(Mode::BypassPermissions, &origin);
                    b.approximated(&origin, "global auto-approve becomes `bypassPermissions`: ask and deny rules, protected paths and unreadable commands still ask or deny");
                }
                Value::Bool(false) | Value::Null => {}
                other => {
                    return Err(origin.error(
                        ErrorKind::InvalidPolicy,
                        format!("`{key}` must be a boolean, not {}", json_type(other)),
                    ))
                }
            },
            "chat.tools.eligibleForAutoApproval" => {
                let map = object(v, &origin)?;
                for (tool, eligible) in map {
                    let o = Origin::new(
                        name,
                        line_of_json_string(text, tool, origin.line),
                        format!("\"{tool}\": {eligible}"),
                    );
                    match eligible {
                        Value::Bool(false) => {
                            b.checked_rule(layer, RuleList::Ask, &tool_name(tool), &o)?
                        }
                        Value::Bool(true) => {}
                        other => {
                            return Err(o.error(
                                ErrorKind::InvalidPolicy,
                                format!("expected a boolean, not {}", json_type(other)),
                            ))
                        }
                    }
                }
            }
            "chat.tools.urls.autoApprove" => {
                let map = object(v, &origin)?;
                for (pattern, approve) in map {
                    let o = Origin::new(
                        name,
                        line_of_json_string(text, pattern, origin.line),
                        format!("\"{pattern}\": {approve}"),
                    );
                    let request = match approve {
                        Value::Bool(b) => *b,
                        Value::Object(m) => {
                            for k in m.keys() {
                                if k != "approveRequest" && k != "approveResponse" {
                                    return Err(o
                                        .error(
                                            ErrorKind::UnknownField,
                                            format!("unknown key `{k}`"),
                                        )
                                        .with_hint("use `approveRequest` and `approveResponse`"));
                                }
                            }
                            m.get("approveRequest")
                                .and_then(Value::as_bool)
                                .unwrap_or(false)
                        }
                        Value::Null => false,
                        other => {
                            return Err(o.error(
                                ErrorKind::InvalidPolicy,
                                format!(
                                    "expected a boolean or an object, not {}",
                                    json_type(other)
                                ),
                            ))
                        }
                    };
                    if !request {
                        continue;
                    }
                    let spec = pattern
                        .strip_suffix("/*")
                        .or_else(|| pattern.strip_suffix('*').filter(|p| p.ends_with('/')))
                        .unwrap_or(pattern);
                    let spec = spec.trim_end_matches('/');
                    match url_rules(spec) {
                        Ok(rules) => {
                            for rule in rules {
                                b.checked_rule(layer, RuleList::Allow, &rule, &o)?;
                            }
                        }
                        Err(why) => b.approximated(
                            &o,
                            format!("URL pattern `{pattern}` {why}; it is left out, so those fetches ask"),
                        ),
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The `url(...)` allow rules for a VS Code URL pattern (its trailing `/*` removed), as
/// narrow as VS Code's own matching (`testUrlMatchesGlob`): a pattern without a scheme
/// covers `http` and `https`; a pattern without a port covers only the URL that names none,
/// the scheme's default port (`http://localhost` gives `url(http://localhost:80)`, never
/// `localhost:6379`); `:*` covers any port. Or why the pattern cannot be matched as
/// narrowly: a `*` other than a leading `*.` of the host, or a scheme without a default port.
fn url_rules(spec: &str) -> std::result::Result<Vec<String>, String> {
    let (scheme, rest) = match spec.split_once("://") {
        Some((s, r)) => (Some(s.to_ascii_lowercase()), r),
        None => (None, spec),
    };
    let (authority, path) = match rest.find('/') {
        Some(i) => (rest.get(..i).unwrap_or(""), rest.get(i..).unwrap_or("")),
        None => (rest, ""),
    };
    let end_of_host = match authority.strip_prefix('[') {
        Some(v6) => v6.find(']').map_or(authority.len(), |i| i + 2),
        None => authority.rfind(':').unwrap_or(authority.len()),
    };
    let host = authority.get(..end_of_host).unwrap_or(authority);
    let port = authority
        .get(end_of_host..)
        .and_then(|p| p.strip_prefix(':'))
        .filter(|p| !p.is_empty());
    let stars = host.matches('*').count() + path.matches('*').count();
    if stars != usize::from(host.starts_with("*.")) {
        return Err("has a `*` toolgate cannot match as narrowly".to_owned());
    }
    let web = || {
        vec![
            ("http".to_owned(), Some("80".to_owned())),
            ("https".to_owned(), Some("443".to_owned())),
        ]
    };
    let forms: Vec<(String, Option<String>)> = match (scheme, port) {
        (Some(s), Some("*")) => vec![(s, None)],
        (None, Some("*")) => web().into_iter().map(|(s, _)| (s, None)).collect(),
        (Some(s), Some(p)) => vec![(s, Some(p.to_owned()))],
        (None, Some(p)) => web()
            .into_iter()
            .map(|(s, _)| (s, Some(p.to_owned())))
            .collect(),
        (Some(s), None) => match crate::rule::default_port(&s) {
            Some(d) => vec![(s, Some(d.to_string()))],
            None => {
                return Err(format!(
                    "names no port, and toolgate knows no default port for `{s}`"
                ))
            }
        },
        (None, None) => web(),
    };
    Ok(forms
        .into_iter()
        .map(|(scheme, port)| match port {
            Some(p) => format!("url({scheme}://{host}:{p}{path})"),
            None => format!("url({scheme}://{host}{path})"),
        })
        .collect())
}

fn tool_name(tool: &str) -> String {
    match tool {
        "runInTerminal" | "run_in_terminal" => "Bash".to_owned(),
        "fetch" | "fetch_webpage" => "WebFetch".to_owned(),
        "editFiles" | "edit" => "Edit".to_owned(),
        "createFile" => "Write".to_owned(),
        other => other.to_owned(),
    }
}

fn object<'a>(v: &'a Value, origin: &Origin) -> Result<&'a Map<String, Value>> {
    v.as_object().ok_or_else(|| {
        origin.error(
            ErrorKind::InvalidPolicy,
            format!("`{}` must be an object, not {}", origin.text, json_type(v)),
        )
    })
}

/// The terminal auto-approve setting.
const TERMINAL_KEY: &str = "chat.tools.terminal.autoApprove";

/// Its deprecated name, which VS Code still reads: its entries are spread over the setting's.
const DEPRECATED_TERMINAL_KEY: &str = "chat.agent.terminal.autoApprove";

/// The setting that turns VS Code's default entries off.
const IGNORE_DEFAULTS_KEY: &str = "chat.tools.terminal.ignoreDefaultAutoApproveRules";

/// The `false` entries of VS Code's default value of [`TERMINAL_KEY`]: these commands ask
/// even when a wider `true` entry of the user's would approve them. VS Code merges the
/// default object with the user's, so an entry stays unless the user's file names its key
/// (with `true`, `null` or an object).
///
/// `/^Remove-Item\b/i` is a program name in any case, which toolgate's ask rules fold by
/// themselves: it is imported as the key `Remove-Item`.
const DEFAULT_ASKS: &[&str] = &[
    "rm",
    "rmdir",
    "del",
    "kill",
    "curl",
    "wget",
    "eval",
    "chmod",
    "chown",
    DEFAULT_REMOVE_ITEM,
];

/// VS Code's default entry for PowerShell's `Remove-Item`.
const DEFAULT_REMOVE_ITEM: &str = "/^Remove-Item\\b/i";

/// One entry of the terminal setting: its key, its value and where it comes from.
type Entry = (String, Value, Origin);

/// The terminal auto-approve entries as VS Code assembles them: its default `false` entries
/// (unless [`IGNORE_DEFAULTS_KEY`] is `true`), the user's [`TERMINAL_KEY`] over them, and
/// [`DEPRECATED_TERMINAL_KEY`] over both.
fn terminal_settings(
    b: &mut Builder,
    layer: usize,
    file: &str,
    text: &str,
    top: &Map<String, Value>,
) -> Result<()> {
    let mut entries: Vec<Entry> = Vec::new();
    for key in [TERMINAL_KEY, DEPRECATED_TERMINAL_KEY] {
        let Some(v) = top.get(key) else { continue };
        let origin = Origin::new(file, line_of_json_string(text, key, 1), key);
        let mut line = origin.line;
        for (k, value) in object(v, &origin)? {
            line = line_of_json_string(text, k, line);
            let shown = serde_json::to_string(k).unwrap_or_default();
            entries.retain(|(e, _, _)| e != k);
            entries.push((
                k.clone(),
                value.clone(),
                Origin::new(file, line, format!("{shown}: {value}")),
            ));
        }
    }
    if top.get(IGNORE_DEFAULTS_KEY).and_then(Value::as_bool) != Some(true) {
        let line = line_of_json_string(text, TERMINAL_KEY, 1);
        for key in DEFAULT_ASKS {
            if !entries.iter().any(|(k, _, _)| k == key) {
                let shown = serde_json::to_string(key).unwrap_or_default();
                let o = Origin::new(file, line, format!("VS Code's default {shown}: false"));
                let read_as = if *key == DEFAULT_REMOVE_ITEM {
                    "Remove-Item"
                } else {
                    key
                };
                entries.push((read_as.to_owned(), Value::Bool(false), o));
            }
        }
    }
    terminal(b, layer, entries)
}

fn terminal(b: &mut Builder, layer: usize, entries: Vec<Entry>) -> Result<()> {
    for (key, value, o) in entries {
        let (key, value) = (&key, &value);
        let (approve, whole_line) = match value {
            Value::Null => continue,
            Value::Bool(a) => (*a, false),
            Value::Object(m) => {
                for k in m.keys() {
                    if k != "approve" && k != "matchCommandLine" {
                        return Err(o
                            .error(ErrorKind::UnknownField, format!("unknown key `{k}`"))
                            .with_hint("use `approve` and `matchCommandLine`"));
                    }
                }
                let Some(approve) = m.get("approve").and_then(Value::as_bool) else {
                    return Err(o.error(ErrorKind::InvalidPolicy, "`approve` must be a boolean"));
                };
                (
                    approve,
                    m.get("matchCommandLine")
                        .and_then(Value::as_bool)
                        .unwrap_or(false),
                )
            }
            other => {
                return Err(o.error(
                    ErrorKind::InvalidPolicy,
                    format!(
                        "expected a boolean, null or an object, not {}",
                        json_type(other)
                    ),
                ))
            }
        };
        let list = if approve {
            RuleList::Allow
        } else {
            RuleList::Ask
        };
        if whole_line && approve {
            b.approximated(&o, "`matchCommandLine` is not needed: toolgate allows a command line only when each of its commands is allowed");
        }
        if let Some(re) = regex_key(key) {
            let (pattern, flags) = re;
            if flags.contains('i') && list == RuleList::Ask {
                b.approximated(
                    &o,
                    "the `i` flag is dropped: toolgate matches this ask's words case-sensitively (at most the program name is folded)",
                );
            }
            if let Some(why) = unusable_flags(flags) {
                if list == RuleList::Allow {
                    b.approximated(&o, format!("allow regex `{key}` {why}, so VS Code never matches it; it is left out"));
                    continue;
                }
            }
            if js_allow_left_out(b, list, pattern, &o) {
                continue;
            }
            command_regex(b, layer, list, pattern, false, &o)?;
            continue;
        }
        // A string key matches commands that start with it, followed by a word boundary.
        text_prefix(b, layer, list, key, &o)?;
    }
    Ok(())
}

/// The flags of a JavaScript `RegExp`, the only letters VS Code reads after a key's last `/`.
const REGEX_FLAGS: &str = "dgimsuvy";

/// `/pattern/flags` keys, read as VS Code reads them: a pattern of at least one character and
/// flags from [`REGEX_FLAGS`] only. Any other key (`/^npm run build$/x`) is a string key.
fn regex_key(key: &str) -> Option<(&str, &str)> {
    let rest = key.strip_prefix('/')?;
    let end = rest.rfind('/')?;
    let (pattern, flags) = (rest.get(..end)?, rest.get(end + 1..)?);
    (!pattern.is_empty() && flags.chars().all(|c| REGEX_FLAGS.contains(c)))
        .then_some((pattern, flags))
}

/// Why a regex key's flags make JavaScript refuse the regex (VS Code then matches nothing
/// with it): a flag named twice, or `u` with `v`. VS Code drops `g` before it compiles.
fn unusable_flags(flags: &str) -> Option<String> {
    let flags: String = flags.chars().filter(|c| *c != 'g').collect();
    if let Some(c) = flags.chars().find(|c| flags.matches(*c).count() > 1) {
        return Some(format!("names the flag `{c}` twice"));
    }
    (flags.contains('u') && flags.contains('v')).then(|| "names both `u` and `v`".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_pattern_without_a_port_covers_the_default_port_only() {
        let rules = |p: &str| url_rules(p).unwrap();
        assert_eq!(rules("http://localhost"), ["url(http://localhost:80)"]);
        assert_eq!(
            rules("docs.rs/serde"),
            [
                "url(http://docs.rs:80/serde)",
                "url(https://docs.rs:443/serde)"
            ]
        );
        assert_eq!(rules("http://localhost:*"), ["url(http://localhost)"]);
        assert_eq!(
            rules("localhost:*/api"),
            ["url(http://localhost/api)", "url(https://localhost/api)"]
        );
        assert_eq!(rules("https://x.dev:8443"), ["url(https://x.dev:8443)"]);
        assert_eq!(rules("http://[::1]"), ["url(http://[::1]:80)"]);
        assert_eq!(rules("http://[::1]:*"), ["url(http://[::1])"]);
        assert_eq!(
            rules("*.example.com"),
            [
                "url(http://*.example.com:80)",
                "url(https://*.example.com:443)"
            ]
        );
        assert!(url_rules("gopher://x.dev").is_err());
        assert!(url_rules("x.*.dev").is_err());
    }

    #[test]
    fn regex_keys() {
        assert_eq!(
            regex_key("/^git (status|show)$/"),
            Some(("^git (status|show)$", ""))
        );
        assert_eq!(regex_key("/rm/i"), Some(("rm", "i")));
        assert_eq!(regex_key("mkdir"), None);
        assert_eq!(regex_key("/^npm run build$/x"), None);
        assert_eq!(regex_key("/a/b/dgimsuvy"), Some(("a/b", "dgimsuvy")));
        assert_eq!(regex_key("//"), None);
        assert_eq!(unusable_flags("gig"), None);
        assert!(unusable_flags("ii").is_some());
        assert!(unusable_flags("uv").is_some());
    }
}
