//! The result handed to the model whenever a tool call does not run.
//!
//! Every non-execution (a policy deny, a person's deny, a timeout, a cancellation, an unknown
//! tool, bad parameters, a failed execution) produces one [`ModelFeedback`]: a stable code, a
//! message for people and an `aiMessage` for the model that says what happened and tells it
//! not to retry the same call but to choose another approach.

use serde::{Deserialize, Serialize};

use crate::decision::Danger;

/// Why a call did not run, as a stable code the model and the host can match on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum FeedbackCode {
    /// The policy denied the call.
    PermissionDenied,
    /// A person denied the call.
    UserDenied,
    /// Nobody answered before the deadline; the call was denied.
    ApprovalTimeout,
    /// The approval was cancelled (by the host, the session, or a shutdown).
    ApprovalCancelled,
    /// The tool is not registered.
    UnknownTool,
    /// The arguments do not satisfy the tool's parameter schema.
    InvalidParams,
    /// The call was approved but failed while running.
    ExecutionError,
}

impl FeedbackCode {
    /// The code as it appears in JSON, e.g. `USER_DENIED`.
    pub const fn as_str(self) -> &'static str {
        match self {
            FeedbackCode::PermissionDenied => "PERMISSION_DENIED",
            FeedbackCode::UserDenied => "USER_DENIED",
            FeedbackCode::ApprovalTimeout => "APPROVAL_TIMEOUT",
            FeedbackCode::ApprovalCancelled => "APPROVAL_CANCELLED",
            FeedbackCode::UnknownTool => "UNKNOWN_TOOL",
            FeedbackCode::InvalidParams => "INVALID_PARAMS",
            FeedbackCode::ExecutionError => "EXECUTION_ERROR",
        }
    }
}

/// What the model is told when its call did not run.
///
/// ```
/// use toolgate::{FeedbackCode, ModelFeedback};
/// let f = ModelFeedback::user_denied("Bash", Some("use the test script instead"));
/// assert_eq!(f.code, FeedbackCode::UserDenied);
/// assert!(f.ai_message.contains("use the test script instead"));
/// assert!(f.ai_message.contains("Do not retry"));
/// let json = serde_json::to_value(&f).unwrap();
/// assert_eq!(json["code"], "USER_DENIED");
/// assert!(json["aiMessage"].is_string());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ModelFeedback {
    /// The stable code.
    pub code: FeedbackCode,
    /// What happened, for people (logs, the chat transcript).
    pub message: String,
    /// What the model should read: what happened, and what to do instead.
    pub ai_message: String,
    /// Whether the model can reasonably recover (fix its arguments, pick another tool, ask).
    pub recoverable: bool,
}

/// The sentence every denial ends with: the model must not retry the same call.
pub const DO_NOT_RETRY: &str =
    "Do not retry the same call; suggest an alternative or ask the user \
                                how to proceed.";

/// What the model reads when the policy denies a call: the reason, the dangers found, and
/// [`DO_NOT_RETRY`]. `tool` is named when known. The one source of the policy's denial text
/// ([`crate::Decision::model_message`] and [`ModelFeedback::permission_denied_with`]).
pub fn denial_message(tool: Option<&str>, reason: &str, dangers: &[Danger]) -> String {
    let tool = tool.map(crate::shown);
    let tool = tool.as_deref();
    let head = match tool {
        Some(tool) => format!("Permission denied: the call to {tool} is not allowed ({reason})."),
        None => format!("Permission denied: {reason}."),
    };
    format!("{head}{} {DO_NOT_RETRY}", dangers_sentence(dangers))
}

/// " It was stopped because it publishes … (`npm publish`); …." or nothing.
fn dangers_sentence(dangers: &[Danger]) -> String {
    if dangers.is_empty() {
        return String::new();
    }
    let list = dangers
        .iter()
        .map(|d| {
            if d.detail.is_empty() {
                format!("{} [{}]", d.sentence, d.class.id())
            } else {
                format!("{} ({}) [{}]", d.sentence, d.detail, d.class.id())
            }
        })
        .collect::<Vec<_>>()
        .join("; ");
    format!(" The call {list}.")
}

/// The reason text of something that would ask, denied because the mode never asks
/// (`plan`, `dontAsk`).
pub(crate) fn strict_mode_denial(why: &str, mode: crate::Mode) -> String {
    format!("{why}, and {} mode denies what would ask", mode.as_str())
}

/// The reason text of something allowed that plan mode denies because it changes things.
pub(crate) fn plan_mode_denial(why: &str) -> String {
    format!("{why}, but plan mode is read-only")
}

impl ModelFeedback {
    /// The policy denied the call; `reason` is the decision's reason text.
    pub fn permission_denied(tool: &str, reason: &str) -> Self {
        ModelFeedback::permission_denied_with(tool, reason, &[])
    }

    /// The policy denied the call; `reason` is the decision's reason text and `dangers` the
    /// dangers it found, which the model is told by name.
    pub fn permission_denied_with(tool: &str, reason: &str, dangers: &[Danger]) -> Self {
        let tool = &crate::shown(tool);
        let classes = if dangers.is_empty() {
            String::new()
        } else {
            let ids: Vec<&str> = dangers.iter().map(|d| d.class.id()).collect();
            format!(" [{}]", ids.join(", "))
        };
        ModelFeedback {
            code: FeedbackCode::PermissionDenied,
            message: format!("`{tool}` was denied by the policy: {reason}{classes}"),
            ai_message: denial_message(Some(tool), reason, dangers),
            recoverable: true,
        }
    }

    /// A person denied the call, optionally with a message for the model.
    pub fn user_denied(tool: &str, message: Option<&str>) -> Self {
        let tool = &crate::shown(tool);
        let said = match message.map(str::trim).filter(|m| !m.is_empty()) {
            Some(m) => format!(" The user said: {m}"),
            None => String::new(),
        };
        ModelFeedback {
            code: FeedbackCode::UserDenied,
            message: format!("the user denied `{tool}`"),
            ai_message: format!("The user denied the call to {tool}.{said} {DO_NOT_RETRY}"),
            recoverable: true,
        }
    }

    /// Nobody answered in time; the call was denied.
    pub fn timeout(tool: &str, waited_ms: u64) -> Self {
        let tool = &crate::shown(tool);
        let secs = waited_ms / 1000;
        ModelFeedback {
            code: FeedbackCode::ApprovalTimeout,
            message: format!("the approval for `{tool}` expired after {secs} s without an answer"),
            ai_message: format!(
                "The call to {tool} was not approved in time ({secs} s) and did not run. \
                 {DO_NOT_RETRY}"
            ),
            recoverable: true,
        }
    }

    /// The approval was cancelled; `why` says by whom (`the host`, `session cancel`,
    /// `shutdown`).
    pub fn cancelled(tool: &str, why: &str) -> Self {
        let tool = &crate::shown(tool);
        ModelFeedback {
            code: FeedbackCode::ApprovalCancelled,
            message: format!("the approval for `{tool}` was cancelled ({why})"),
            ai_message: format!(
                "The call to {tool} was cancelled ({why}) and did not run. Stop the current \
                 step and wait for the user's next instruction."
            ),
            recoverable: false,
        }
    }

    /// The tool is not registered; `available` lists the tools that are.
    pub fn unknown_tool(tool: &str, available: &[String]) -> Self {
        let tool = &crate::shown(tool);
        let list = available.join(", ");
        ModelFeedback {
            code: FeedbackCode::UnknownTool,
            message: format!("unknown tool `{tool}`; available tools: {list}"),
            ai_message: format!(
                "There is no tool named {tool}. Use one of the available tools: {list}."
            ),
            recoverable: true,
        }
    }

    /// The arguments do not satisfy the tool's schema; `problem` says which and why.
    pub fn invalid_params(tool: &str, problem: &str) -> Self {
        let tool = &crate::shown(tool);
        ModelFeedback {
            code: FeedbackCode::InvalidParams,
            message: format!("invalid arguments for `{tool}`: {problem}"),
            ai_message: format!(
                "The arguments for {tool} are invalid: {problem}. Fix the arguments to match \
                 the tool's parameter schema before calling it again."
            ),
            recoverable: true,
        }
    }

    /// The approved call failed while running; `error` is what the host reports.
    pub fn execution_error(tool: &str, error: &str) -> Self {
        let tool = &crate::shown(tool);
        ModelFeedback {
            code: FeedbackCode::ExecutionError,
            message: format!("`{tool}` failed: {error}"),
            ai_message: format!(
                "The call to {tool} ran but failed: {error}. Do not repeat it unchanged; \
                 look at the error and adjust your approach."
            ),
            recoverable: true,
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_denial_names_the_tool_the_dangers_and_ends_with_do_not_retry() {
        use crate::decision::{Danger, DangerClass};
        let d = [Danger::new(DangerClass::Publish, "`npm publish`")];
        let m = super::denial_message(Some("Bash"), "denied by rule `Danger(publish)`", &d);
        assert!(m.starts_with("Permission denied: the call to Bash is not allowed"));
        assert!(m.contains("publishes a package or release for others to use (`npm publish`)"));
        assert!(m.ends_with(super::DO_NOT_RETRY));
    }

    use super::*;

    #[test]
    fn every_code_serializes_as_its_name() {
        for code in [
            FeedbackCode::PermissionDenied,
            FeedbackCode::UserDenied,
            FeedbackCode::ApprovalTimeout,
            FeedbackCode::ApprovalCancelled,
            FeedbackCode::UnknownTool,
            FeedbackCode::InvalidParams,
            FeedbackCode::ExecutionError,
        ] {
            let json = serde_json::to_value(code).unwrap();
            assert_eq!(json, code.as_str());
        }
    }

    #[test]
    fn denials_tell_the_model_not_to_retry() {
        for f in [
            ModelFeedback::permission_denied("Bash", "denied by rule `Bash(rm *)`"),
            ModelFeedback::user_denied("Write", None),
            ModelFeedback::timeout("Edit", 60_000),
        ] {
            assert!(f.ai_message.contains("Do not retry"), "{f:?}");
        }
        let blank = ModelFeedback::user_denied("Write", Some("  "));
        assert!(!blank.ai_message.contains("The user said"));
    }

    #[test]
    fn policy_denials_name_the_dangers() {
        use crate::commands::danger::DangerClass;
        let d = [Danger::new(
            DangerClass::HistoryRewrite,
            "force-pushes `origin main`",
        )];
        let f = ModelFeedback::permission_denied_with("Bash", "denied by rule", &d);
        assert!(f.ai_message.contains("force-pushes `origin main`"), "{f:?}");
        assert!(f.ai_message.contains("[history-rewrite]"));
        assert!(f.message.ends_with("[history-rewrite]"));
        assert!(f.ai_message.ends_with(DO_NOT_RETRY));
    }

    #[test]
    fn unknown_tool_lists_the_tools() {
        let f = ModelFeedback::unknown_tool("Bsh", &["Bash".into(), "Read".into()]);
        assert!(f.message.contains("Bash, Read"));
    }
}
