//! # toolgate
//!
//! A human-in-the-loop tool-approval engine for AI agents. Before an agent's tool call runs
//! (a shell command, a file write, a URL fetch, an MCP tool), toolgate decides whether it may
//! run, must be approved by a person, or must not run, and says why.
//!
//! The engine is plain Rust with no I/O of its own: clocks, timers, storage and UI belong to
//! the host. The same engine ships as a WebAssembly npm package for browsers, Electron,
//! VS Code webviews and Node.

#![forbid(unsafe_code)]

pub mod agents;
pub mod audit;
pub mod broker;
pub mod commands;
pub mod decision;
pub mod error;
pub mod feedback;
mod glob;
pub mod import;
pub mod json;
pub mod mode;
pub mod path;
pub mod policy;
pub mod registry;
pub mod request;
pub mod rule;
pub mod shell;
pub mod tool;
pub mod trust;
#[cfg(feature = "typescript")]
pub mod typescript;

#[cfg(any(feature = "wasm", feature = "tools"))]
pub mod wasm;
// The npm bin's hook (src/wasm/hook/) compiles the native hook's modules, which name the
// crate `toolgate` as the binary does.
#[cfg(feature = "tools")]
extern crate self as toolgate;

pub use audit::AuditLog;
pub use broker::{
    Answer, ApprovalFuture, ApprovalOutcome, ApprovalRequest, Broker, BrokerConfig, PendingApproval,
};
pub use decision::{
    Danger, Decider, Decision, Effect, Evaluate, Layer, PartDecision, Reason, Risk, RuleList,
    TrustOverlay,
};
pub use error::{Error, ErrorKind, Result};
pub use feedback::ModelFeedback;
pub use mode::Mode;
pub use policy::{Policy, PolicyDocument, Warning};
pub use registry::Registry;
pub use request::{Request, ToolAnnotations};
pub use rule::Rule;
pub use trust::TrustStore;

// The README's Rust examples run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;

/// The crate's version, as in `Cargo.toml`.
///
/// ```
/// assert!(!toolgate::VERSION.is_empty());
/// ```
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
