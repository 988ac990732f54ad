//! Placeholder; the evaluation benchmark lands with the policy.
fn main() {}
