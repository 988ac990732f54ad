//! The persisted trust document: versioned, checksummed, migrated from older versions.
//!
//! Version 1:
//! `{"version":1,"grants":[{"rule":"Write","agent":"claude","createdAt":0}],"agents":{"claude":{"bypass":true}},"checksum":"sha256:<hex>"}`.
//! The checksum is SHA-256 over the compact JSON of the document without its `checksum`
//! field, keys in the order shown, so any change to the content is detected. It guards
//! against corruption and hand edits; it is not a signature.
//!
//! Version 0 (an earlier shape) is migrated on import when its checksum verifies:
//! `{"version":0,"allow":["Write"],"bypassAgents":["claude"],"checksum":"sha256:<hex>"}`,
//! SHA-256 over the compact JSON of `{"version":0,"allow":[..],"bypassAgents":[..]}` (keys
//! in that order, both lists present). Every version verifies a checksum or is rejected
//! (`TAMPERED`): a document without one could be written by anyone with access to the
//! storage, and would widen trust unchecked.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::Grant;
use crate::error::{Error, ErrorKind, Result};

/// The version [`super::TrustStore::export`] writes.
pub const DOCUMENT_VERSION: u64 = 1;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
/// An `always` grant as the persisted document stores it.
pub(super) struct StoredGrant {
    /// The allow rule.
    pub rule: String,
    /// The agent it is for; any agent when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// When it was granted (Unix ms).
    pub created_at: u64,
    /// When it stops applying (Unix ms); never when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
/// What the document remembers about one agent.
struct AgentTrust {
    /// The agent runs as in `bypassPermissions` mode.
    bypass: bool,
}

/// The content the checksum covers.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Content<'a> {
    version: u64,
    grants: &'a [StoredGrant],
    agents: &'a BTreeMap<String, AgentTrust>,
}

#[derive(Deserialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "TrustDocumentV1")
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
/// The trust document, version 1: checksummed (`sha256:<hex>` over the compact JSON of the
/// rest); a hand edit makes it fail to import.
struct DocumentV1 {
    #[allow(dead_code, reason = "checked before this shape is parsed")]
    #[cfg_attr(feature = "typescript", ts(type = "1"))]
    version: u64,
    grants: Vec<StoredGrant>,
    agents: BTreeMap<String, AgentTrust>,
    checksum: String,
}

#[derive(Deserialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "TrustDocumentV0")
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
/// The trust document, version 0: every rule becomes an `always` grant. Read only when its
/// checksum (`sha256:<hex>` over the compact JSON of `{"version":0,"allow","bypassAgents"}`)
/// verifies.
struct DocumentV0 {
    #[allow(dead_code, reason = "checked before this shape is parsed")]
    #[cfg_attr(feature = "typescript", ts(type = "0"))]
    version: u64,
    #[serde(default)]
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    allow: Vec<String>,
    #[serde(default)]
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    bypass_agents: Vec<String>,
    /// Optional in the shape only so that a missing one is reported as `TAMPERED`.
    #[serde(default)]
    #[cfg_attr(feature = "typescript", ts(type = "string"))]
    checksum: Option<String>,
}

/// The content a version 0 checksum covers.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ContentV0<'a> {
    version: u64,
    allow: &'a [String],
    bypass_agents: &'a [String],
}

/// The declarations of the persisted document, one per version, and `TrustDocument`, their
/// union (for [`crate::typescript`]).
#[cfg(feature = "typescript")]
pub(crate) fn typescript_declarations(cfg: &ts_rs::Config) -> Vec<(String, String, Vec<String>)> {
    use crate::typescript::declaration;
    vec![
        declaration::<StoredGrant>(cfg),
        declaration::<AgentTrust>(cfg),
        declaration::<DocumentV1>(cfg),
        declaration::<DocumentV0>(cfg),
        (
            "TrustDocument".to_owned(),
            "/**\n * The trust store's persisted document: version 1 (what `export` writes), or\n * version 0 (migrated on import).\n */\nexport type TrustDocument = TrustDocumentV1 | TrustDocumentV0;".to_owned(),
            vec!["TrustDocumentV1".to_owned(), "TrustDocumentV0".to_owned()],
        ),
    ]
}

/// What a document holds, whatever its version.
pub(super) struct Parsed {
    pub grants: Vec<StoredGrant>,
    pub bypass: BTreeMap<String, bool>,
}

fn checksum(grants: &[StoredGrant], agents: &BTreeMap<String, AgentTrust>) -> String {
    sha256_of(&Content {
        version: DOCUMENT_VERSION,
        grants,
        agents,
    })
}

/// `sha256:<hex>` over the compact JSON of `content`.
fn sha256_of(content: &impl Serialize) -> String {
    // Serializing plain strings, numbers and maps cannot fail; an empty text would only
    // make every checksum mismatch, which fails closed.
    let text = serde_json::to_string(content).unwrap_or_default();
    let digest = Sha256::digest(text.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// Writes the version 1 document for `grants` (persisted ones) and bypass flags.
pub(super) fn write(grants: &[Grant], bypass: &BTreeMap<String, bool>) -> String {
    let mut stored: Vec<StoredGrant> = grants
        .iter()
        .map(|g| StoredGrant {
            rule: g.rule.clone(),
            agent: g.agent.clone(),
            created_at: g.created_at,
            expires_at: g.expires_at,
        })
        .collect();
    stored.sort_by(|a, b| (&a.rule, &a.agent).cmp(&(&b.rule, &b.agent)));
    let agents: BTreeMap<String, AgentTrust> = bypass
        .iter()
        .filter(|(_, on)| **on)
        .map(|(a, _)| (a.clone(), AgentTrust { bypass: true }))
        .collect();
    let sum = checksum(&stored, &agents);
    let doc = serde_json::json!({
        "version": DOCUMENT_VERSION,
        "grants": stored,
        "agents": agents,
        "checksum": sum,
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

fn malformed(e: Error) -> Error {
    let hint = e.hint().unwrap_or("fix the value at this path").to_owned();
    Error::new(ErrorKind::InvalidTrustDocument, e.message().to_owned())
        .at(e.path().to_owned())
        .with_hint(hint)
}

/// Reads a trust document of any supported version.
pub(super) fn read(text: &str) -> Result<Parsed> {
    let value: Value = crate::json::from_str(text, "trust document").map_err(malformed)?;
    let version = match value.get("version") {
        Some(v) => v.as_u64().ok_or_else(|| {
            Error::new(
                ErrorKind::InvalidTrustDocument,
                format!("invalid trust document: `version` must be a whole number, got `{v}`"),
            )
            .at("version")
            .with_hint("export the trust store again to get a valid document")
        })?,
        None => {
            return Err(Error::new(
                ErrorKind::InvalidTrustDocument,
                "invalid trust document: it has no `version`",
            )
            .at("version")
            .with_hint("a trust document starts with `{\"version\": 1, ...}`"))
        }
    };
    match version {
        0 => read_v0(value),
        1 => read_v1(value),
        v => Err(Error::new(
            ErrorKind::UnsupportedVersion,
            format!("trust document version {v} is not supported; this build reads 0 and 1"),
        )
        .at("version")
        .with_hint("upgrade toolgate, or export the document from the same version")),
    }
}

fn read_v1(value: Value) -> Result<Parsed> {
    let doc: DocumentV1 = crate::json::from_value(value, "trust document").map_err(malformed)?;
    let expected = checksum(&doc.grants, &doc.agents);
    verify(Some(&doc.checksum), &expected)?;
    let bypass = doc
        .agents
        .into_iter()
        .filter(|(_, t)| t.bypass)
        .map(|(a, _)| (a, true))
        .collect();
    Ok(Parsed {
        grants: doc.grants,
        bypass,
    })
}

/// Checks a document's checksum against the one its content gives.
fn verify(found: Option<&str>, expected: &str) -> Result<()> {
    match found {
        Some(sum) if sum == expected => Ok(()),
        Some(_) => Err(Error::new(
            ErrorKind::Tampered,
            "the trust document's checksum does not match its content",
        )
        .at("checksum")
        .with_hint("the document was changed after it was exported; export it again")),
        None => Err(Error::new(
            ErrorKind::Tampered,
            "the trust document has no `checksum`, so it cannot be verified",
        )
        .at("checksum")
        .with_hint(
            "export the trust store to get a checksummed document, or grant the rules again",
        )),
    }
}

/// Migrates version 0 once its checksum verifies: every rule becomes an `always` grant for
/// any agent, created at 0.
fn read_v0(value: Value) -> Result<Parsed> {
    let doc: DocumentV0 = crate::json::from_value(value, "trust document").map_err(malformed)?;
    let expected = sha256_of(&ContentV0 {
        version: 0,
        allow: &doc.allow,
        bypass_agents: &doc.bypass_agents,
    });
    verify(doc.checksum.as_deref(), &expected)?;
    let grants = doc
        .allow
        .into_iter()
        .map(|rule| StoredGrant {
            rule,
            agent: None,
            created_at: 0,
            expires_at: None,
        })
        .collect();
    let bypass = doc.bypass_agents.into_iter().map(|a| (a, true)).collect();
    Ok(Parsed { grants, bypass })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_documents_read_back() {
        let text = write(&[], &BTreeMap::from([("claude".to_owned(), true)]));
        let parsed = read(&text).unwrap();
        assert!(parsed.grants.is_empty());
        assert_eq!(parsed.bypass.len(), 1);
    }

    #[test]
    fn version_0_reads_only_with_its_checksum() {
        let allow = vec!["Write".to_owned()];
        let sum = sha256_of(&ContentV0 {
            version: 0,
            allow: &allow,
            bypass_agents: &[],
        });
        let text = format!(r#"{{"version":0,"allow":["Write"],"checksum":"{sum}"}}"#);
        assert_eq!(read(&text).unwrap().grants.len(), 1);
        let widened = text.replace("Write", "Edit");
        assert_eq!(read(&widened).err().unwrap().kind(), ErrorKind::Tampered);
    }

    #[test]
    fn version_and_shape_errors() {
        let cases = [
            ("{", ErrorKind::InvalidTrustDocument),
            ("[]", ErrorKind::InvalidTrustDocument),
            (r#"{"grants":[]}"#, ErrorKind::InvalidTrustDocument),
            (r#"{"version":"1"}"#, ErrorKind::InvalidTrustDocument),
            (
                r#"{"version":2,"grants":[]}"#,
                ErrorKind::UnsupportedVersion,
            ),
            (
                r#"{"version":1,"grants":[]}"#,
                ErrorKind::InvalidTrustDocument,
            ),
            (
                r#"{"version":1,"grants":[],"agents":{},"checksum":"sha256:00"}"#,
                ErrorKind::Tampered,
            ),
            (
                r#"{"version":0,"allow":[1]}"#,
                ErrorKind::InvalidTrustDocument,
            ),
            (r#"{"version":0,"allow":["Write"]}"#, ErrorKind::Tampered),
            (
                r#"{"version":0,"allow":["Write"],"checksum":"sha256:00"}"#,
                ErrorKind::Tampered,
            ),
            (
                r#"{"version":0,"alow":[]}"#,
                ErrorKind::InvalidTrustDocument,
            ),
        ];
        for (text, kind) in cases {
            let e = read(text).err().unwrap();
            assert_eq!(e.kind(), kind, "{text}: {e}");
            assert!(e.hint().is_some(), "{text}");
        }
        let e = read(r#"{"version":0,"allow":[1]}"#).err().unwrap();
        assert_eq!(e.path(), "allow[0]");
    }
}
