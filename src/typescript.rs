//! The TypeScript declarations of the wire types, generated from the Rust types themselves.
//!
//! Every JSON document that crosses to JavaScript (policy, request, decision, pending
//! approval, answer, outcome, transition, audit event, grant, trust document, tool
//! definition) derives [`ts_rs::TS`] when the `typescript` feature is on; the derive follows
//! the types' serde attributes (`rename_all`, `tag`, `default`, `skip_serializing_if`), so the
//! declarations say what the Rust code accepts and emits. [`declarations`] writes them all
//! into one module, which the npm package's TypeScript layer re-exports
//! (`pkg-template/src/types.ts`). `scripts/build.sh` runs the `toolgate-typescript` binary
//! before it compiles that layer, so the declarations cannot drift from the Rust types.
//!
//! Conventions: integers are `number` (every integer on the wire is below 2^53: times in
//! Unix ms, counters, indices); `serde_json::Value` is `JsonValue`; a field that may be
//! absent is `field?: T`, a field that is always present but may be empty is `T | null`.

use std::collections::BTreeSet;

use ts_rs::{Config, TS};

use crate::error::ErrorKind;

/// One declared type: its TypeScript name, its declaration, and the names it refers to.
struct Declared {
    name: String,
    text: String,
    dependencies: Vec<String>,
}

/// Doc comments for declared types that are not ours (ts-rs declares `JsonValue`).
const BORROWED_DOCS: &[(&str, &str)] = &[("JsonValue", "/**\n * Any JSON value.\n */\n")];

fn declare<T: TS + ?Sized + 'static>(cfg: &Config) -> Declared {
    let mut text = String::new();
    let name = T::ident(cfg);
    if let Some(docs) = T::docs() {
        text.push_str(&plain_docs(&docs));
    } else if let Some((_, docs)) = BORROWED_DOCS.iter().find(|(n, _)| *n == name) {
        text.push_str(docs);
    }
    text.push_str("export ");
    text.push_str(&plain_docs(&T::decl(cfg)));
    Declared {
        name,
        text,
        dependencies: T::dependencies(cfg)
            .into_iter()
            .map(|d| d.ts_name)
            .collect(),
    }
}

macro_rules! declare_all {
    ($cfg:expr; $($ty:ty),+ $(,)?) => {
        vec![$(declare::<$ty>($cfg)),+]
    };
}

/// The configuration the declarations are generated with: integers as `number`.
fn config() -> Config {
    Config::new().with_large_int("number")
}

fn wire_types(cfg: &Config) -> Vec<Declared> {
    use crate::{audit, broker, decision, feedback, policy, registry, request, tool, trust};
    let mut all = declare_all![cfg;
        serde_json::Value,
        // Decisions.
        decision::Effect,
        decision::Risk,
        decision::RuleList,
        decision::Layer,
        decision::Decider,
        decision::Reason,
        decision::DangerClass,
        decision::Danger,
        decision::PartDecision,
        decision::Decision,
        crate::mode::Mode,
        // Requests and tools.
        request::Request,
        request::ToolAnnotations,
        tool::ToolKind,
        tool::Level,
        tool::ToolDefaults,
        registry::ToolDefinition,
        registry::McpTool,
        // Policies.
        policy::PolicyDocument,
        policy::Permissions,
        policy::DisableBypass,
        policy::LayerDocument,
        policy::CopilotFlags,
        policy::McpServer,
        policy::AgentSettings,
        policy::Example,
        policy::Provenance,
        policy::Warning,
        policy::Explanation,
        policy::ConsultedRule,
        // Approvals.
        broker::ApprovalRequest,
        broker::State,
        broker::By,
        broker::Status,
        broker::AnswerKind,
        broker::Answer,
        broker::Preview,
        broker::Diff,
        broker::PendingApproval,
        broker::ApprovalOutcome,
        broker::Transition,
        broker::SavedApproval,
        broker::Admitted,
        broker::Batch<serde_json::Value>,
        feedback::FeedbackCode,
        feedback::ModelFeedback,
        // The audit trail.
        audit::AuditKind,
        audit::AuditEvent,
        audit::AuditQuery,
        // Trust.
        trust::Scope,
        trust::Grant,
        trust::NewGrant,
        // Agents' own formats.
        crate::import::AgentFile,
        crate::import::Imported,
        crate::import::Exported,
    ];
    all.extend(trust::typescript_declarations(cfg).into_iter().map(
        |(name, text, dependencies)| Declared {
            name,
            text: plain_docs(&text),
            dependencies,
        },
    ));
    all
}

/// Declares `T` for [`declarations`], as `(name, text, dependencies)`: for wire types that
/// are private to their module.
pub(crate) fn declaration<T: TS + ?Sized + 'static>(cfg: &Config) -> (String, String, Vec<String>) {
    let d = declare::<T>(cfg);
    (d.name, d.text, d.dependencies)
}

/// Every stable error code ([`ErrorKind::code`]), in declaration order.
fn error_codes() -> Vec<&'static str> {
    ErrorKind::ALL.iter().map(|kind| kind.code()).collect()
}

/// Rust doc comments carried into JSDoc, minus what only makes sense in rustdoc: code
/// examples (Rust doctests) and intra-doc link targets.
fn plain_docs(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_example = false;
    for line in text.split_inclusive('\n') {
        let body = line.trim_start().trim_start_matches('*').trim();
        if body.starts_with("```") {
            in_example = !in_example;
            continue;
        }
        if !in_example {
            out.push_str(&strip_links(line));
        }
    }
    // An example removed from the end leaves empty lines and the colon that led to it.
    while let Some(at) = out.find("\n *\n */") {
        out.replace_range(at..at + 4, "");
    }
    out.replace(":\n */", ".\n */")
}

/// ``[`Name`](path)`` and ``[`path::Name`]`` become `` `Name` ``.
fn strip_links(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(start) = rest.find("[`") {
        let (before, from) = rest.split_at(start);
        out.push_str(before);
        let Some(end) = from.find("`]") else {
            out.push_str(from);
            return out;
        };
        let inner = from.get(2..end).unwrap_or_default();
        let shown = inner.rsplit("::").next().unwrap_or(inner);
        out.push('`');
        out.push_str(shown);
        out.push('`');
        rest = from.get(end + 2..).unwrap_or_default();
        if rest.starts_with('(') {
            if let Some(close) = rest.find(')') {
                rest = rest.get(close + 1..).unwrap_or_default();
            }
        }
    }
    out.push_str(rest);
    out
}

/// The TypeScript module that declares every wire type, exported by name, with the Rust
/// doc comments as JSDoc.
///
/// ```
/// let module = toolgate::typescript::declarations();
/// assert!(module.contains("export type Decision = {"));
/// assert!(module.contains("export type Effect = \"allow\" | \"ask\" | \"deny\";"));
/// ```
pub fn declarations() -> String {
    let cfg = config();
    let mut out = String::from(
        "// Generated from the Rust wire types by `cargo run --features typescript --bin \
         toolgate-typescript`\n// (scripts/build.sh). Do not edit: change the Rust types.\n",
    );
    for declared in wire_types(&cfg) {
        out.push('\n');
        out.push_str(&declared.text);
        out.push('\n');
    }
    out.push_str(
        "\n/** The stable codes of the Rust `ErrorKind`s. */\nexport type CoreErrorCode =",
    );
    for code in error_codes() {
        out.push_str("\n  | \"");
        out.push_str(code);
        out.push('"');
    }
    out.push_str(";\n");
    out
}

/// The names [`declarations`] refers to but does not declare (empty when complete).
pub fn undeclared() -> BTreeSet<String> {
    let cfg = config();
    let all = wire_types(&cfg);
    let declared: BTreeSet<&str> = all.iter().map(|d| d.name.as_str()).collect();
    all.iter()
        .flat_map(|d| d.dependencies.iter())
        .filter(|name| !declared.contains(name.as_str()))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_referenced_type_is_declared() {
        assert_eq!(undeclared(), BTreeSet::new());
    }

    /// The module without its comments.
    fn code_only(module: &str) -> String {
        let mut code = String::new();
        let mut rest = module;
        while let Some(start) = rest.find("/*") {
            code.push_str(&rest[..start]);
            let end = rest[start..].find("*/").unwrap();
            rest = &rest[start + end + 2..];
        }
        code.push_str(rest);
        code.lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn no_any_no_bigint_no_unknown() {
        let code = code_only(&declarations());
        assert!(code.contains("export type Decision = {"), "{code}");
        for word in ["any", "bigint", "unknown", "object"] {
            assert!(
                !code
                    .split(|c: char| !c.is_alphanumeric())
                    .any(|w| w == word),
                "`{word}` in:\n{code}"
            );
        }
    }

    #[test]
    fn no_rust_examples_or_paths_in_the_docs() {
        let module = declarations();
        assert!(!module.contains("```"), "{module}");
        assert!(!module.contains("::"), "{module}");
        assert!(!module.contains(":\n */"), "{module}");
    }

    #[test]
    fn optional_inputs_are_optional_and_outputs_say_null() {
        let code = code_only(&declarations());
        let squashed: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
        for field in [
            "input?: JsonValue,",
            "cwd?: string,",
            "realpaths?: {",
            "allow?: Array<string>,",
            "permissions?: Permissions,",
            "trusted?: boolean,",
            "callId?: string,",
            "timeoutMs?: number,",
            "parts?: Array<PartDecision>,",
            "kind?: ToolKind,",
        ] {
            assert!(squashed.contains(field), "`{field}` in:\n{squashed}");
        }
        for field in [
            "callId: string | null,",
            "feedback: ModelFeedback | null,",
            "from: State | null,",
            "createdAt: number,",
        ] {
            assert!(squashed.contains(field), "`{field}` in:\n{squashed}");
        }
    }

    #[test]
    fn error_codes_are_all_there() {
        let module = declarations();
        for code in error_codes() {
            assert!(module.contains(&format!("\"{code}\"")), "{code}");
        }
        assert_eq!(error_codes().len(), 21);
    }

    #[test]
    fn links_lose_their_targets() {
        assert_eq!(
            strip_links("see [`super::Broker::approve_all`] and [`Decision`](crate::Decision)."),
            "see `approve_all` and `Decision`."
        );
    }
}
