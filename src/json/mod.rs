//! Decoding JSON documents into typed values with errors that say where and what.
//!
//! A text is parsed into a [`serde_json::Value`] first (a repeated key is an error), then the
//! typed value is decoded from it by a deserializer that tracks the path. Every document type
//! goes through that one deserializer, whether it starts as text or as a value.

mod decode;
mod parse;

use serde::de::DeserializeOwned;

use crate::error::{Error, ErrorKind, Result};

/// Parses `text` as a `T`, turning any failure into an [`Error`] whose path points at the bad
/// value (`permissions.allow[2]`) and whose kind tells a misspelt key ([`ErrorKind::UnknownField`])
/// from a malformed value ([`ErrorKind::InvalidJson`]). `what` names the document in messages
/// ("policy", "request"). A key that appears twice in one object is an error, and syntax errors
/// give the line and column.
pub fn from_str<T: DeserializeOwned>(text: &str, what: &str) -> Result<T> {
    let value = parse::parse(text).map_err(|e| match e {
        parse::Malformed::Syntax(e) => {
            Error::new(ErrorKind::InvalidJson, format!("invalid {what}: {e}"))
                .with_hint("fix the value at this path")
        }
        parse::Malformed::Trailing(e) => Error::new(
            ErrorKind::InvalidJson,
            format!("{what} has trailing characters: {e}"),
        )
        .with_hint("pass exactly one JSON document"),
    })?;
    from_value(value, what)
}

/// Converts an already-parsed JSON value into a `T`, with the same errors as [`from_str`].
pub fn from_value<T: DeserializeOwned>(value: serde_json::Value, what: &str) -> Result<T> {
    decode::decode(value).map_err(|e| convert(&e, what))
}

fn convert(err: &decode::DecodeError, what: &str) -> Error {
    let inner = err.message();
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
        .at(err.path())
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

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct Wide {
        name: String,
        #[serde(default)]
        port: Option<u16>,
        shape: Shape,
        #[serde(default)]
        steps: Vec<Step>,
        #[serde(default)]
        extra: Option<serde_json::Value>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "camelCase")]
    enum Shape {
        Round,
        Square { side: u8 },
        Named(String),
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
    enum Step {
        Wait { ms: u32 },
        Stop,
    }

    #[test]
    fn decodes_every_shape_of_value() {
        let w: Wide = from_str(
            r#"{"name":"a","port":8080,"shape":{"square":{"side":3}},
                "steps":[{"kind":"wait","ms":5},{"kind":"stop"}],"extra":{"x":[1,2.5,null]}}"#,
            "doc",
        )
        .unwrap();
        assert_eq!(w.shape, Shape::Square { side: 3 });
        assert_eq!(w.steps, vec![Step::Wait { ms: 5 }, Step::Stop]);
        assert_eq!(w.extra.unwrap()["x"][1], 2.5);
        let w: Wide = from_str(r#"{"name":"a","port":null,"shape":"round"}"#, "doc").unwrap();
        assert_eq!((w.port, w.shape), (None, Shape::Round));
        let w: Wide = from_str(r#"{"name":"a","shape":{"named":"n"}}"#, "doc").unwrap();
        assert_eq!(w.shape, Shape::Named("n".into()));
    }

    #[test]
    fn errors_name_the_innermost_path() {
        let e = |text: &str| from_str::<Wide>(text, "doc").unwrap_err();
        let out_of_range = e(r#"{"name":"a","port":70000,"shape":"round"}"#);
        assert_eq!(out_of_range.path(), "port");
        assert!(
            out_of_range.message().contains("expected u16"),
            "{out_of_range}"
        );
        let variant = e(r#"{"name":"a","shape":{"square":{"side":-1}}}"#);
        assert_eq!(variant.path(), "shape.square.side");
        let unknown = e(r#"{"name":"a","shape":{"hexagon":1}}"#);
        assert_eq!(unknown.path(), "shape");
        let tagged = e(r#"{"name":"a","shape":"round","steps":[{"kind":"stop"},{"kind":"fly"}]}"#);
        assert_eq!(tagged.path(), "steps[1].kind");
        let missing = e(r#"{"shape":"round"}"#);
        assert_eq!(
            (missing.path(), missing.kind()),
            ("", ErrorKind::InvalidJson)
        );
        assert!(
            missing.message().contains("missing field `name`"),
            "{missing}"
        );
        let typo = e(r#"{"name":"a","shape":"round","prot":1}"#);
        assert_eq!(
            (typo.path(), typo.kind()),
            ("prot", ErrorKind::UnknownField)
        );
    }

    #[test]
    fn duplicate_keys_and_syntax_errors_give_line_and_column() {
        let dup =
            from_str::<Wide>(r#"{"name":"a","name":"b","shape":"round"}"#, "doc").unwrap_err();
        assert_eq!(dup.kind(), ErrorKind::InvalidJson);
        assert!(dup.message().contains("duplicate key `name`"), "{dup}");
        assert!(dup.message().contains("line 1 column"), "{dup}");
        let syntax = from_str::<Wide>("{\n\"name\": ]", "doc").unwrap_err();
        assert!(syntax.message().contains("line 2 column"), "{syntax}");
        assert_eq!(syntax.path(), "");
    }

    #[test]
    fn types_are_strict() {
        let e = |text: &str| from_str::<Wide>(text, "doc").unwrap_err();
        let array_for_struct = e(r#"["a", null, "round"]"#);
        assert!(
            array_for_struct
                .message()
                .contains("invalid type: sequence, expected struct Wide"),
            "{array_for_struct}"
        );
        let number_for_string = e(r#"{"name":1,"shape":"round"}"#);
        assert_eq!(number_for_string.path(), "name");
        assert!(
            number_for_string
                .message()
                .contains("invalid type: integer `1`, expected a string"),
            "{number_for_string}"
        );
        let object_for_list = e(r#"{"name":"a","shape":"round","steps":{}}"#);
        assert_eq!(object_for_list.path(), "steps");
        let float_for_port = e(r#"{"name":"a","port":1.5,"shape":"round"}"#);
        assert!(
            float_for_port.message().contains("floating point `1.5`"),
            "{float_for_port}"
        );
    }

    #[test]
    fn from_value_matches_from_str() {
        let text = r#"{"list":[{"n":1},{"n":"x"}]}"#;
        let value: serde_json::Value = serde_json::from_str(text).unwrap();
        let a = from_str::<Doc>(text, "doc").unwrap_err();
        let b = from_value::<Doc>(value, "doc").unwrap_err();
        assert_eq!((a.path(), a.message()), (b.path(), b.message()));
    }
}
