//! Parsing JSON text into a [`Value`], refusing a key that appears twice in one object.

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// Parses one JSON document. A repeated key is an error (JSON parsers disagree on which copy
/// wins, so a policy could mean one thing to its author's tools and another here); trailing
/// text after the document is an error too.
pub(super) fn parse(text: &str) -> Result<Value, Malformed> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = Strict.deserialize(&mut de).map_err(Malformed::Syntax)?;
    de.end().map_err(Malformed::Trailing)?;
    Ok(value)
}

/// Why a text is not one JSON document.
#[derive(Debug)]
pub(super) enum Malformed {
    /// Bad syntax or a repeated key; the message gives the line and column.
    Syntax(serde_json::Error),
    /// Text after the document.
    Trailing(serde_json::Error),
}

/// Builds a [`Value`] from any deserializer, rejecting duplicate keys.
#[derive(Clone, Copy)]
struct Strict;

impl<'de> DeserializeSeed<'de> for Strict {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Value, D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(Strict)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(A::Error::custom(format_args!(
                    "duplicate key `{key}`: a key may appear once per object"
                )));
            }
            let value = map.next_value_seed(Strict)?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_like_serde_json() {
        let text = r#"{"a":[1,-2,3.5,"x",true,null,{}],"b":{"c":18446744073709551615}}"#;
        let ours = parse(text).unwrap();
        let theirs: Value = serde_json::from_str(text).unwrap();
        assert_eq!(ours, theirs);
    }

    #[test]
    fn refuses_duplicate_keys_at_any_depth() {
        let Malformed::Syntax(e) = parse(r#"{"a":1,"a":2}"#).unwrap_err() else {
            panic!("a duplicate key is a syntax error")
        };
        let e = e.to_string();
        assert!(e.starts_with("duplicate key `a`"), "{e}");
        assert!(e.contains("line 1"), "{e}");
        assert!(parse(r#"{"a":{"b":1,"c":{"d":1,"d":1}}}"#).is_err());
        assert!(parse(r#"[{"x":1},{"x":1}]"#).is_ok());
    }

    #[test]
    fn refuses_trailing_text_and_bad_syntax() {
        assert!(matches!(parse(r#"{} x"#), Err(Malformed::Trailing(_))));
        assert!(parse("{").is_err());
        assert!(parse("").is_err());
    }
}
