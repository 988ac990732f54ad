//! Decoding JSON documents into typed values with errors that say where and what.

use serde::de::DeserializeOwned;

use crate::error::{Error, ErrorKind, Result};

/// Parses `text` as a `T`, turning any failure into an [`Error`] whose path points at the bad
/// value (`permissions.allow[2]`) and whose kind tells a misspelt key ([`ErrorKind::UnknownField`])
/// from a malformed value ([`ErrorKind::InvalidJson`]). `what` names the document in messages
/// ("policy", "request").
pub fn from_str<T: DeserializeOwned>(text: &str, what: &str) -> Result<T> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| convert(&e, what))?;
    de.end().map_err(|e| {
        Error::new(
            ErrorKind::InvalidJson,
            format!("{what} has trailing characters: {e}"),
        )
        .with_hint("pass exactly one JSON document")
    })?;
    Ok(value)
}

/// Converts an already-parsed JSON value into a `T`, with the same errors as [`from_str`].
pub fn from_value<T: DeserializeOwned>(value: serde_json::Value, what: &str) -> Result<T> {
    serde_path_to_error::deserialize(value).map_err(|e| convert(&e, what))
}

fn convert(err: &serde_path_to_error::Error<serde_json::Error>, what: &str) -> Error {
    let path = err.path().to_string();
    // `.` is the root; `?` is where a syntax error stopped the parser before any key: both are
    // "the whole document", and serde_json's message already gives the line and column.
    let path = match path.as_str() {
        "." | "?" => String::new(),
        _ => path,
    };
    let inner = err.inner().to_string();
    let kind = if inner.starts_with("unknown field") {
        ErrorKind::UnknownField
    } else {
        ErrorKind::InvalidJson
    };
    let hint = match kind {
        ErrorKind::UnknownField => {
            "check the spelling; unknown keys are rejected so that a typo cannot weaken a policy"
        }
        _ => "fix the value at this path",
    };
    Error::new(kind, format!("invalid {what}: {inner}"))
        .at(path)
        .with_hint(hint)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Doc {
        #[allow(dead_code)]
        list: Vec<Inner>,
    }
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Inner {
        #[allow(dead_code)]
        n: u8,
    }

    #[test]
    fn unknown_field_has_path() {
        let e = from_str::<Doc>(r#"{"list":[{"n":1},{"m":2}]}"#, "doc").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::UnknownField);
        assert_eq!(e.path(), "list[1].m");
    }

    #[test]
    fn wrong_type_has_path() {
        let e = from_str::<Doc>(r#"{"list":[{"n":"x"}]}"#, "doc").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidJson);
        assert_eq!(e.path(), "list[0].n");
    }

    #[test]
    fn syntax_error_and_trailing_text() {
        assert_eq!(
            from_str::<Doc>("{", "doc").unwrap_err().kind(),
            ErrorKind::InvalidJson
        );
        assert_eq!(
            from_str::<Doc>(r#"{"list":[]} x"#, "doc")
                .unwrap_err()
                .kind(),
            ErrorKind::InvalidJson
        );
    }
}
