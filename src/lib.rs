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

pub mod decision;
pub mod error;
pub mod fixture;
pub mod json;
pub mod mode;
pub mod path;
pub mod policy;
pub mod request;
pub mod rule;
pub mod shell;
pub mod tool;

#[cfg(feature = "wasm")]
pub mod wasm;

pub use decision::{
    Decider, Decision, Effect, Evaluate, Layer, PartDecision, Reason, Risk, RuleList,
};
pub use error::{Error, ErrorKind, Result};
pub use mode::Mode;
pub use policy::{Policy, PolicyDocument, Warning};
pub use request::{Request, ToolAnnotations};
pub use rule::Rule;

/// The crate's version, as in `Cargo.toml`.
///
/// ```
/// assert!(!toolgate::VERSION.is_empty());
/// ```
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
