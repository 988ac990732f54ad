//! The one error type of the crate.
//!
//! Outcomes (allow, ask, deny) are [`Decision`](crate::Decision)s, not errors. An [`Error`]
//! means the caller handed toolgate something it cannot use: a malformed policy, an unknown
//! approval id, an answer that was not offered. Every error has a stable [`ErrorKind::code`]
//! that hosts can match on, the path to the bad value (`permissions.allow[3]`), a message for
//! people and, where one exists, a hint on how to fix it.

use std::fmt;

/// What went wrong, as a stable, matchable kind.
///
/// New kinds may be added in minor releases; match with a wildcard arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A document is not valid JSON, or a value has the wrong JSON type.
    InvalidJson,
    /// A document has a key toolgate does not know (a misspelt key must not weaken a policy).
    UnknownField,
    /// A rule string does not parse.
    InvalidRule,
    /// A policy document is well-formed JSON but not a valid policy.
    InvalidPolicy,
    /// One of a policy's `examples` did not get the expected decision.
    ExampleFailed,
    /// A request document is not a valid request.
    InvalidRequest,
    /// A tool name is not in the registry.
    UnknownTool,
    /// Tool parameters do not satisfy the tool's schema.
    InvalidParams,
    /// No pending approval has this id (never issued, forged, or already settled).
    UnknownApproval,
    /// The approval was already settled (answered, expired or cancelled).
    AlreadySettled,
    /// The answer is not one the approval offered.
    AnswerNotOffered,
    /// A state change that the approval state machine does not allow.
    IllegalTransition,
    /// A trust grant that is refused (too broad, or for an untrustable call).
    GrantRefused,
    /// A stored trust document is malformed.
    InvalidTrustDocument,
    /// A stored document's checksum does not match its content.
    Tampered,
    /// A stored document has a version this build cannot read.
    UnsupportedVersion,
    /// A persisted pending approval does not match the call it is resumed for.
    ResumeMismatch,
    /// Reading or writing host storage failed.
    Storage,
    /// The engine was shut down.
    ShutDown,
    /// A tool's parameter schema uses something toolgate cannot enforce, or is malformed.
    InvalidSchema,
    /// The system's random number source failed, so no unguessable id could be made.
    Entropy,
}

impl ErrorKind {
    /// Every kind this version knows, in declaration order (a new kind is listed here too).
    ///
    /// ```
    /// assert!(toolgate::ErrorKind::ALL.iter().any(|k| k.code() == "TAMPERED"));
    /// ```
    pub const ALL: [ErrorKind; 21] = [
        ErrorKind::InvalidJson,
        ErrorKind::UnknownField,
        ErrorKind::InvalidRule,
        ErrorKind::InvalidPolicy,
        ErrorKind::ExampleFailed,
        ErrorKind::InvalidRequest,
        ErrorKind::UnknownTool,
        ErrorKind::InvalidParams,
        ErrorKind::UnknownApproval,
        ErrorKind::AlreadySettled,
        ErrorKind::AnswerNotOffered,
        ErrorKind::IllegalTransition,
        ErrorKind::GrantRefused,
        ErrorKind::InvalidTrustDocument,
        ErrorKind::Tampered,
        ErrorKind::UnsupportedVersion,
        ErrorKind::ResumeMismatch,
        ErrorKind::Storage,
        ErrorKind::ShutDown,
        ErrorKind::InvalidSchema,
        ErrorKind::Entropy,
    ];

    /// The stable, upper-case code for this kind, as it reaches JavaScript and the CLI.
    ///
    /// ```
    /// assert_eq!(toolgate::ErrorKind::InvalidRule.code(), "INVALID_RULE");
    /// ```
    pub const fn code(self) -> &'static str {
        match self {
            ErrorKind::InvalidJson => "INVALID_JSON",
            ErrorKind::UnknownField => "UNKNOWN_FIELD",
            ErrorKind::InvalidRule => "INVALID_RULE",
            ErrorKind::InvalidPolicy => "INVALID_POLICY",
            ErrorKind::ExampleFailed => "EXAMPLE_FAILED",
            ErrorKind::InvalidRequest => "INVALID_REQUEST",
            ErrorKind::UnknownTool => "UNKNOWN_TOOL",
            ErrorKind::InvalidParams => "INVALID_PARAMS",
            ErrorKind::UnknownApproval => "UNKNOWN_APPROVAL",
            ErrorKind::AlreadySettled => "ALREADY_SETTLED",
            ErrorKind::AnswerNotOffered => "ANSWER_NOT_OFFERED",
            ErrorKind::IllegalTransition => "ILLEGAL_TRANSITION",
            ErrorKind::GrantRefused => "GRANT_REFUSED",
            ErrorKind::InvalidTrustDocument => "INVALID_TRUST_DOCUMENT",
            ErrorKind::Tampered => "TAMPERED",
            ErrorKind::UnsupportedVersion => "UNSUPPORTED_VERSION",
            ErrorKind::ResumeMismatch => "RESUME_MISMATCH",
            ErrorKind::Storage => "STORAGE",
            ErrorKind::ShutDown => "SHUT_DOWN",
            ErrorKind::InvalidSchema => "INVALID_SCHEMA",
            ErrorKind::Entropy => "ENTROPY_UNAVAILABLE",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// An error from toolgate: a kind, where it happened, what was wrong and how to fix it.
///
/// ```
/// use toolgate::{Error, ErrorKind};
/// let err = Error::new(ErrorKind::InvalidRule, "expected `)` at the end of `Bash(ls`")
///     .at("permissions.allow[0]")
///     .with_hint("close the specifier: `Bash(ls)`");
/// assert_eq!(err.code(), "INVALID_RULE");
/// assert_eq!(err.path(), "permissions.allow[0]");
/// assert_eq!(
///     err.to_string(),
///     "permissions.allow[0]: expected `)` at the end of `Bash(ls` (close the specifier: `Bash(ls)`)"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    path: String,
    message: String,
    hint: Option<String>,
}

impl Error {
    /// The error for a file that cannot be read because `link` (the path itself, or a
    /// directory above it) is a symbolic link to `target`, which does not exist: a policy or
    /// trust file that vanished that way must not read as "no file".
    ///
    /// ```
    /// use std::path::Path;
    /// let e = toolgate::Error::dangling_link(
    ///     Path::new("/h/.config/toolgate/policy.json"),
    ///     Path::new("/h/.config/toolgate/policy.json"),
    ///     Path::new("/mnt/dotfiles/policy.json"),
    /// );
    /// assert_eq!(e.kind(), toolgate::ErrorKind::Storage);
    /// assert!(e.message().contains("/mnt/dotfiles/policy.json"));
    /// ```
    pub fn dangling_link(
        path: &std::path::Path,
        link: &std::path::Path,
        target: &std::path::Path,
    ) -> Error {
        let what = if link == path {
            "it is a symbolic link".to_owned()
        } else {
            format!("it lies under `{}`, a symbolic link", link.display())
        };
        Error::new(
            ErrorKind::Storage,
            format!(
                "cannot read `{}`: {what} to `{}`, which does not exist",
                path.display(),
                target.display()
            ),
        )
        .with_hint(format!(
            "point `{}` at the file it stands for, or remove the link if none belongs there",
            link.display()
        ))
    }

    /// The error for a file a hook would `what` (`read`, `append to`) that is not a regular
    /// file: a FIFO, a device, a socket, or a link to one (`/dev/tty`, `/proc/self/fd/1`).
    /// Reading one could wait forever, or never end, and an agent runs the call when its hook
    /// times out; the file is opened without waiting and refused.
    ///
    /// ```
    /// use std::path::Path;
    /// let e = toolgate::Error::not_a_regular_file(Path::new("/p/.toolgate/policy.json"), "read");
    /// assert_eq!(e.kind(), toolgate::ErrorKind::Storage);
    /// assert!(e.message().contains("not a regular file"));
    /// ```
    pub fn not_a_regular_file(path: &std::path::Path, what: &str) -> Error {
        Error::new(
            ErrorKind::Storage,
            format!(
                "cannot {what} `{}`: it is not a regular file",
                path.display()
            ),
        )
        .with_hint(format!(
            "make `{}` a regular file, or remove it: toolgate does not read or write a FIFO, \
             a device or a socket, which could hold the hook past its deadline",
            path.display()
        ))
    }

    /// The error for a file larger than `max` bytes ([`crate::agents::MAX_FILE_BYTES`]),
    /// which a hook does not read.
    ///
    /// ```
    /// use std::path::Path;
    /// let e = toolgate::Error::file_too_large(Path::new("/p/.claude/settings.json"), 16);
    /// assert!(e.message().contains("larger than 16 bytes"));
    /// ```
    pub fn file_too_large(path: &std::path::Path, max: u64) -> Error {
        Error::new(
            ErrorKind::Storage,
            format!(
                "cannot read `{}`: it is larger than {max} bytes",
                path.display()
            ),
        )
        .with_hint(format!(
            "shorten `{}`: toolgate reads policy, settings and trust files of at most {max} \
             bytes",
            path.display()
        ))
    }

    /// A new error of `kind` with a message for people (lowercase, no trailing period,
    /// user input in backticks).
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            path: String::new(),
            message: message.into(),
            hint: None,
        }
    }

    /// Sets where in the input the bad value is, as a JSON-path-like string
    /// (`layers[1].permissions.deny[0]`).
    #[must_use]
    pub fn at(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    /// Prefixes the path with an outer location: `err.within("policy")` turns
    /// `permissions.allow[0]` into `policy.permissions.allow[0]`.
    #[must_use]
    pub fn within(mut self, outer: &str) -> Self {
        self.path = match (outer.is_empty(), self.path.is_empty()) {
            (true, _) => self.path,
            (false, true) => outer.to_owned(),
            (false, false) if self.path.starts_with('[') => format!("{outer}{}", self.path),
            (false, false) => format!("{outer}.{}", self.path),
        };
        self
    }

    /// Adds a hint that says how to fix the input.
    #[must_use]
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// The kind of error.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The stable code of the kind, e.g. `INVALID_RULE`.
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }

    /// Where the bad value is; empty when the error is about the whole input.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What was wrong, for people.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// How to fix it, when toolgate knows.
    pub fn hint(&self) -> Option<&str> {
        self.hint.as_deref()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        f.write_str(&self.message)?;
        if let Some(hint) = &self.hint {
            write!(f, " ({hint})")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

/// Shorthand for results whose error is [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn within_joins_paths() {
        let e = Error::new(ErrorKind::InvalidRule, "x")
            .at("allow[2]")
            .within("permissions");
        assert_eq!(e.path(), "permissions.allow[2]");
        let e = Error::new(ErrorKind::InvalidRule, "x")
            .at("[2]")
            .within("allow");
        assert_eq!(e.path(), "allow[2]");
        let e = Error::new(ErrorKind::InvalidRule, "x").within("layers[0]");
        assert_eq!(e.path(), "layers[0]");
    }

    #[test]
    fn codes_are_unique() {
        use std::collections::HashSet;
        let codes: HashSet<_> = ErrorKind::ALL.iter().map(|k| k.code()).collect();
        assert_eq!(codes.len(), ErrorKind::ALL.len());
    }

    #[test]
    fn all_lists_every_kind_in_order() {
        // Exhaustive (inside the crate `#[non_exhaustive]` does not apply): a new kind fails to
        // compile here until it has a position, and then must stand at it in `ALL`.
        let position = |kind: ErrorKind| match kind {
            ErrorKind::InvalidJson => 0,
            ErrorKind::UnknownField => 1,
            ErrorKind::InvalidRule => 2,
            ErrorKind::InvalidPolicy => 3,
            ErrorKind::ExampleFailed => 4,
            ErrorKind::InvalidRequest => 5,
            ErrorKind::UnknownTool => 6,
            ErrorKind::InvalidParams => 7,
            ErrorKind::UnknownApproval => 8,
            ErrorKind::AlreadySettled => 9,
            ErrorKind::AnswerNotOffered => 10,
            ErrorKind::IllegalTransition => 11,
            ErrorKind::GrantRefused => 12,
            ErrorKind::InvalidTrustDocument => 13,
            ErrorKind::Tampered => 14,
            ErrorKind::UnsupportedVersion => 15,
            ErrorKind::ResumeMismatch => 16,
            ErrorKind::Storage => 17,
            ErrorKind::ShutDown => 18,
            ErrorKind::InvalidSchema => 19,
            ErrorKind::Entropy => 20,
        };
        for (i, kind) in ErrorKind::ALL.iter().enumerate() {
            assert_eq!(position(*kind), i, "{kind:?}");
        }
    }
}
