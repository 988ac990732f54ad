//! Approval ids: random, unguessable, valid once.

use crate::error::{Error, ErrorKind, Result};

/// Makes approval ids. The default, [`RandomIds`], makes UUID v4 strings from the system's
/// random source; tests inject a deterministic source.
pub trait IdSource {
    /// A new id, never handed out before.
    fn next_id(&mut self) -> Result<String>;
}

/// UUID v4 ids (16 random bytes from `getrandom`, version and variant bits set, lowercase,
/// hyphenated).
///
/// ```
/// use toolgate::broker::{IdSource, RandomIds};
/// let id = RandomIds.next_id().unwrap();
/// assert_eq!(id.len(), 36);
/// assert_eq!(id.as_bytes()[14], b'4');
/// assert_ne!(id, RandomIds.next_id().unwrap());
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomIds;

impl IdSource for RandomIds {
    fn next_id(&mut self) -> Result<String> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).map_err(|e| {
            Error::new(
                ErrorKind::Entropy,
                format!("the system's random source failed: {e}"),
            )
            .with_hint("approval ids must be unguessable; check the host's crypto support")
        })?;
        Ok(uuid_v4(bytes))
    }
}

/// Formats 16 random bytes as a UUID v4.
pub fn uuid_v4(mut bytes: [u8; 16]) -> String {
    if let Some(b) = bytes.get_mut(6) {
        *b = (*b & 0x0f) | 0x40;
    }
    if let Some(b) = bytes.get_mut(8) {
        *b = (*b & 0x3f) | 0x80;
    }
    let mut out = String::with_capacity(36);
    for (i, b) in bytes.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            out.push('-');
        }
        out.push_str(&format!("{b:02x}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_and_variant_bits() {
        let id = uuid_v4([0xff; 16]);
        assert_eq!(id, "ffffffff-ffff-4fff-bfff-ffffffffffff");
        let id = uuid_v4([0; 16]);
        assert_eq!(id, "00000000-0000-4000-8000-000000000000");
    }

    #[test]
    fn random_ids_differ() {
        let mut ids = std::collections::HashSet::new();
        for _ in 0..1000 {
            assert!(ids.insert(RandomIds.next_id().unwrap()));
        }
    }
}
