//! Permission modes: how a session treats calls that no rule decides.

use serde::{Deserialize, Serialize};

/// The permission mode of a session, with the names Claude Code users already write.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum Mode {
    /// Rules decide; what no rule decides follows the tool's default.
    #[default]
    Default,
    /// File edits inside the working directory and the additional directories are allowed.
    AcceptEdits,
    /// Read-only: writes, edits, deletes and shell commands that are not read-only are denied.
    Plan,
    /// Anything that would ask is denied, explicit ask rules too.
    DontAsk,
    /// Allows what is not denied; explicit ask rules still ask and deny rules still deny.
    BypassPermissions,
}

impl Mode {
    /// The name used in documents, e.g. `acceptEdits`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Mode::Default => "default",
            Mode::AcceptEdits => "acceptEdits",
            Mode::Plan => "plan",
            Mode::DontAsk => "dontAsk",
            Mode::BypassPermissions => "bypassPermissions",
        }
    }
}
