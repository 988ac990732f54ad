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

// The public modules hold the API's types, grouped by what they are about; the root
// re-exports what most hosts need. The other modules are the engine's own.
pub mod agents; // API: agent hook protocols (payload in, answer out); the CLI's `hook` uses it
pub(crate) mod approval_state; // the broker re-exports its types
pub mod audit;
pub mod broker;
pub mod commands; // public for tests/commands_help.rs, which checks the tables against `--help`
pub(crate) mod decision;
pub(crate) mod error;
pub(crate) mod feedback;
pub(crate) mod git_top; // where `git show REV:path` names `path` from
mod glob;
mod ignore_files; // the secret walk: files a search that obeys ignore files leaves out
pub mod import;
pub mod json; // API: any wire document from JSON text with a typed error at its path
pub(crate) mod mode;
pub mod path; // public for the path property tests and the fuzz targets
pub mod policy;
pub mod registry;
pub(crate) mod request;
pub mod rule;
pub mod shell; // public for the shell corpus tests, the benches and the fuzz targets
pub mod tool;
pub mod trust;
#[cfg(feature = "typescript")]
pub mod typescript; // public for the `toolgate-typescript` generator binary

#[cfg(any(feature = "wasm", feature = "tools"))]
pub mod wasm; // public for tests/wasm_*.rs and the wasm-bindgen exports

// The npm bin's hook (src/wasm/hook/) compiles the native hook's modules, and the unit tests
// compile the test aids of tests/support/; both name the crate `toolgate`, as its users do.
extern crate self as toolgate;

pub use audit::AuditLog;
pub use broker::{
    Answer, ApprovalFuture, ApprovalOutcome, ApprovalRequest, Broker, BrokerConfig, PendingApproval,
};
pub use decision::shown;
pub use decision::{
    Danger, DangerClass, Decider, Decision, Effect, Evaluate, Layer, PartDecision, Reason, Risk,
    RuleList, TrustOverlay,
};
pub use error::{Error, ErrorKind, Result};
pub use feedback::{FeedbackCode, ModelFeedback};
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
