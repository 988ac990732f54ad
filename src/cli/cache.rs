//! Compiling the hook's merged policy.

use toolgate::{Error, Policy};

use super::layers::Merged;
use super::settings::AgentSettings;

/// The compiled policy for the merged document. Examples are not run here (`toolgate test`
/// runs them); the document is compiled as it is.
pub fn compile(merged: &Merged, _settings: &AgentSettings) -> Result<Policy, Error> {
    Policy::compile_unchecked(merged.document.clone())
}
