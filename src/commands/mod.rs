//! What toolgate knows about programs and tool calls: which of them carry a named danger
//! (recursive deletes, force pushes, publishing, uploads, ...), so that every prompt can say
//! what is at stake.

pub mod danger;
