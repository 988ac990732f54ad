//! The subset of JSON Schema that tool parameters need, compiled once and checked per call.
//!
//! Supported keywords: `type` (a name or an array of names), `properties`, `required`,
//! `additionalProperties` (boolean or schema), `enum`, `const`, `items`, `minimum`, `maximum`,
//! `exclusiveMinimum`, `exclusiveMaximum`, `minLength`, `maxLength`, `minItems`, `maxItems`.
//! Annotations that do not constrain values (`title`, `description`, `default`, `examples`,
//! `format`, `$schema`, `$id`, `$comment`, `deprecated`, `readOnly`, `writeOnly`) are accepted
//! and ignored. Any other keyword is a compile error: a schema toolgate cannot enforce is
//! refused rather than silently weakened.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind, Result};

const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "default",
    "examples",
    "format",
    "$schema",
    "$id",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// A JSON value type as JSON Schema names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum JsonType {
    Null,
    Boolean,
    Integer,
    Number,
    String,
    Array,
    Object,
}

impl JsonType {
    fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "null" => JsonType::Null,
            "boolean" => JsonType::Boolean,
            "integer" => JsonType::Integer,
            "number" => JsonType::Number,
            "string" => JsonType::String,
            "array" => JsonType::Array,
            "object" => JsonType::Object,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            JsonType::Null => "null",
            JsonType::Boolean => "boolean",
            JsonType::Integer => "integer",
            JsonType::Number => "number",
            JsonType::String => "string",
            JsonType::Array => "array",
            JsonType::Object => "object",
        }
    }

    fn matches(self, value: &Value) -> bool {
        match self {
            JsonType::Null => value.is_null(),
            JsonType::Boolean => value.is_boolean(),
            JsonType::Integer => {
                value.is_i64() || value.is_u64() || value.as_f64().is_some_and(|f| f.fract() == 0.0)
            }
            JsonType::Number => value.is_number(),
            JsonType::String => value.is_string(),
            JsonType::Array => value.is_array(),
            JsonType::Object => value.is_object(),
        }
    }
}

fn type_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A compiled schema node.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Schema {
    never: bool,
    types: Option<Vec<JsonType>>,
    properties: BTreeMap<String, Schema>,
    required: Vec<String>,
    additional: Option<Box<Schema>>,
    enumeration: Option<Vec<Value>>,
    constant: Option<Value>,
    items: Option<Box<Schema>>,
    minimum: Option<f64>,
    maximum: Option<f64>,
    exclusive_minimum: Option<f64>,
    exclusive_maximum: Option<f64>,
    min_length: Option<u64>,
    max_length: Option<u64>,
    min_items: Option<u64>,
    max_items: Option<u64>,
}

fn schema_error(path: &str, message: String) -> Error {
    Error::new(ErrorKind::InvalidSchema, message)
        .at(path)
        .with_hint(
            "use only the supported keywords: type, properties, required, additionalProperties, \
             enum, const, items, minimum, maximum, exclusiveMinimum, exclusiveMaximum, \
             minLength, maxLength, minItems, maxItems",
        )
}

impl Schema {
    /// Compiles a schema document. `path` names it in errors (`tools[2].parameters`).
    ///
    /// ```
    /// use toolgate::registry::Schema;
    /// let s = Schema::compile(&serde_json::json!({
    ///     "type": "object",
    ///     "properties": { "command": { "type": "string", "minLength": 1 } },
    ///     "required": ["command"],
    ///     "additionalProperties": false
    /// }), "parameters").unwrap();
    /// assert!(s.validate(&serde_json::json!({"command": "ls"}), "input").is_ok());
    /// let err = s.validate(&serde_json::json!({"cmd": "ls"}), "input").unwrap_err();
    /// assert_eq!(err.code(), "INVALID_PARAMS");
    /// assert!(Schema::compile(&serde_json::json!({"pattern": "^a"}), "p").is_err());
    /// ```
    pub fn compile(doc: &Value, path: &str) -> Result<Self> {
        match doc {
            Value::Bool(true) => Ok(Schema::default()),
            Value::Bool(false) => Ok(Schema {
                never: true,
                ..Schema::default()
            }),
            Value::Object(map) => Self::compile_object(map, path),
            other => Err(schema_error(
                path,
                format!(
                    "expected a schema object or boolean, got {}",
                    type_of(other)
                ),
            )),
        }
    }

    fn compile_object(map: &Map<String, Value>, path: &str) -> Result<Self> {
        let mut s = Schema::default();
        for (key, value) in map {
            let at = format!("{path}.{key}");
            match key.as_str() {
                "type" => s.types = Some(compile_types(value, &at)?),
                "properties" => {
                    let Value::Object(props) = value else {
                        return Err(schema_error(&at, "expected an object of schemas".into()));
                    };
                    for (name, sub) in props {
                        let sub = Schema::compile(sub, &format!("{at}.{name}"))?;
                        s.properties.insert(name.clone(), sub);
                    }
                }
                "required" => s.required = string_list(value, &at)?,
                "additionalProperties" => {
                    s.additional = Some(Box::new(Schema::compile(value, &at)?));
                }
                "enum" => match value {
                    Value::Array(list) if !list.is_empty() => s.enumeration = Some(list.clone()),
                    _ => return Err(schema_error(&at, "expected a non-empty array".into())),
                },
                "const" => s.constant = Some(value.clone()),
                "items" => s.items = Some(Box::new(Schema::compile(value, &at)?)),
                "minimum" => s.minimum = Some(number(value, &at)?),
                "maximum" => s.maximum = Some(number(value, &at)?),
                "exclusiveMinimum" => s.exclusive_minimum = Some(number(value, &at)?),
                "exclusiveMaximum" => s.exclusive_maximum = Some(number(value, &at)?),
                "minLength" => s.min_length = Some(count(value, &at)?),
                "maxLength" => s.max_length = Some(count(value, &at)?),
                "minItems" => s.min_items = Some(count(value, &at)?),
                "maxItems" => s.max_items = Some(count(value, &at)?),
                k if ANNOTATIONS.contains(&k) => {}
                k => {
                    return Err(schema_error(
                        &at,
                        format!("unsupported schema keyword `{k}`; it would not be enforced"),
                    ))
                }
            }
        }
        Ok(s)
    }

    /// Checks `value`; on failure the error (kind `INVALID_PARAMS`) names every problem, and
    /// its path is the first bad value's (`input.file_path`).
    pub fn validate(&self, value: &Value, path: &str) -> Result<()> {
        let mut problems = Vec::new();
        self.check(value, path, &mut problems);
        let Some((first_path, _)) = problems.first() else {
            return Ok(());
        };
        let first_path = first_path.clone();
        let message = problems
            .iter()
            .map(|(p, m)| format!("`{p}` {m}"))
            .collect::<Vec<_>>()
            .join("; ");
        Err(Error::new(ErrorKind::InvalidParams, message)
            .at(first_path)
            .with_hint("fix the arguments to match the tool's parameter schema"))
    }

    fn check(&self, value: &Value, path: &str, out: &mut Vec<(String, String)>) {
        const MAX_PROBLEMS: usize = 20;
        if out.len() >= MAX_PROBLEMS {
            return;
        }
        let mut fail = |m: String| out.push((path.to_owned(), m));
        if self.never {
            fail("is not allowed here".into());
            return;
        }
        if let Some(types) = &self.types {
            if !types.iter().any(|t| t.matches(value)) {
                let names: Vec<_> = types.iter().map(|t| t.name()).collect();
                fail(format!(
                    "must be {}, got {}",
                    names.join(" or "),
                    type_of(value)
                ));
                return;
            }
        }
        if let Some(list) = &self.enumeration {
            if !list.contains(value) {
                let shown: Vec<_> = list.iter().map(Value::to_string).collect();
                fail(format!("must be one of {}", shown.join(", ")));
            }
        }
        if let Some(c) = &self.constant {
            if c != value {
                fail(format!("must be {c}"));
            }
        }
        match value {
            Value::Number(n) => {
                let Some(x) = n.as_f64() else { return };
                if self.minimum.is_some_and(|m| x < m) {
                    fail(format!(
                        "must be at least {}",
                        self.minimum.unwrap_or_default()
                    ));
                }
                if self.maximum.is_some_and(|m| x > m) {
                    fail(format!(
                        "must be at most {}",
                        self.maximum.unwrap_or_default()
                    ));
                }
                if self.exclusive_minimum.is_some_and(|m| x <= m) {
                    fail(format!(
                        "must be greater than {}",
                        self.exclusive_minimum.unwrap_or_default()
                    ));
                }
                if self.exclusive_maximum.is_some_and(|m| x >= m) {
                    fail(format!(
                        "must be less than {}",
                        self.exclusive_maximum.unwrap_or_default()
                    ));
                }
            }
            Value::String(s) => {
                let len = s.chars().count() as u64;
                if let Some(min) = self.min_length.filter(|m| len < *m) {
                    fail(format!("must have at least {min} characters, has {len}"));
                }
                if let Some(max) = self.max_length.filter(|m| len > *m) {
                    fail(format!("must have at most {max} characters, has {len}"));
                }
            }
            Value::Array(items) => {
                let len = items.len() as u64;
                if let Some(min) = self.min_items.filter(|m| len < *m) {
                    fail(format!("must have at least {min} items, has {len}"));
                }
                if let Some(max) = self.max_items.filter(|m| len > *m) {
                    fail(format!("must have at most {max} items, has {len}"));
                }
                if let Some(item) = &self.items {
                    for (i, v) in items.iter().enumerate() {
                        item.check(v, &format!("{path}[{i}]"), out);
                    }
                }
            }
            Value::Object(map) => self.check_object(map, path, out),
            Value::Null | Value::Bool(_) => {}
        }
    }

    fn check_object(&self, map: &Map<String, Value>, path: &str, out: &mut Vec<(String, String)>) {
        for name in &self.required {
            if !map.contains_key(name) {
                out.push((format!("{path}.{name}"), "is required".into()));
            }
        }
        for (key, v) in map {
            let at = format!("{path}.{key}");
            if let Some(sub) = self.properties.get(key) {
                sub.check(v, &at, out);
            } else if let Some(extra) = &self.additional {
                if extra.never {
                    let known: Vec<_> = self.properties.keys().map(String::as_str).collect();
                    out.push((
                        at,
                        format!("is not a parameter (expected one of: {})", known.join(", ")),
                    ));
                } else {
                    extra.check(v, &at, out);
                }
            }
        }
    }
}

fn compile_types(value: &Value, path: &str) -> Result<Vec<JsonType>> {
    let names = match value {
        Value::String(s) => vec![s.clone()],
        Value::Array(_) => string_list(value, path)?,
        _ => {
            return Err(schema_error(
                path,
                "expected a type name or an array of them".into(),
            ))
        }
    };
    if names.is_empty() {
        return Err(schema_error(path, "expected at least one type".into()));
    }
    names
        .iter()
        .map(|n| {
            JsonType::parse(n).ok_or_else(|| schema_error(path, format!("unknown type `{n}`")))
        })
        .collect()
}

fn string_list(value: &Value, path: &str) -> Result<Vec<String>> {
    let Value::Array(list) = value else {
        return Err(schema_error(path, "expected an array of strings".into()));
    };
    list.iter()
        .map(|v| {
            v.as_str()
                .map(str::to_owned)
                .ok_or_else(|| schema_error(path, "expected an array of strings".into()))
        })
        .collect()
}

fn number(value: &Value, path: &str) -> Result<f64> {
    value
        .as_f64()
        .ok_or_else(|| schema_error(path, format!("expected a number, got {}", type_of(value))))
}

fn count(value: &Value, path: &str) -> Result<u64> {
    value.as_u64().ok_or_else(|| {
        schema_error(
            path,
            format!("expected a non-negative integer, got `{value}`"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn compile(doc: Value) -> Schema {
        Schema::compile(&doc, "p").unwrap()
    }

    #[test]
    fn types_including_arrays_of_types() {
        let s = compile(json!({"type": ["string", "null"]}));
        assert!(s.validate(&json!("x"), "v").is_ok());
        assert!(s.validate(&json!(null), "v").is_ok());
        let e = s.validate(&json!(3), "v").unwrap_err();
        assert_eq!(e.message(), "`v` must be string or null, got number");
        let i = compile(json!({"type": "integer"}));
        assert!(i.validate(&json!(3), "v").is_ok());
        assert!(i.validate(&json!(3.0), "v").is_ok());
        assert!(i.validate(&json!(3.5), "v").is_err());
    }

    #[test]
    fn objects_required_and_additional() {
        let s = compile(json!({
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "integer", "minimum": 1}},
            "required": ["a"],
            "additionalProperties": false
        }));
        assert!(s.validate(&json!({"a": "x", "b": 2}), "input").is_ok());
        let e = s.validate(&json!({"b": 0, "c": 1}), "input").unwrap_err();
        assert_eq!(e.path(), "input.a");
        assert!(e.message().contains("`input.a` is required"), "{e}");
        assert!(e.message().contains("`input.b` must be at least 1"), "{e}");
        assert!(e.message().contains("`input.c` is not a parameter"), "{e}");
    }

    #[test]
    fn enum_const_lengths_items() {
        let s = compile(json!({"enum": ["a", "b"]}));
        assert!(s.validate(&json!("c"), "v").is_err());
        let s = compile(json!({"const": 1}));
        assert!(s.validate(&json!(2), "v").is_err());
        let s = compile(json!({"type": "string", "minLength": 2, "maxLength": 3}));
        assert!(s.validate(&json!("é"), "v").is_err());
        assert!(s.validate(&json!("éé"), "v").is_ok());
        assert!(s.validate(&json!("abcd"), "v").is_err());
        let s = compile(json!({"type": "array", "items": {"type": "integer"}, "maxItems": 2}));
        let e = s.validate(&json!([1, "x", 3]), "v").unwrap_err();
        assert!(e.message().contains("`v[1]` must be integer"), "{e}");
        assert!(e.message().contains("at most 2 items"), "{e}");
        let s = compile(json!({"exclusiveMinimum": 0, "exclusiveMaximum": 10}));
        assert!(s.validate(&json!(0), "v").is_err());
        assert!(s.validate(&json!(10), "v").is_err());
        assert!(s.validate(&json!(5), "v").is_ok());
        let never = compile(json!(false));
        assert!(never.validate(&json!(1), "v").is_err());
    }

    #[test]
    fn unsupported_keywords_fail_closed() {
        for doc in [
            json!({"pattern": "^a"}),
            json!({"anyOf": []}),
            json!({"properties": {"x": {"$ref": "#/defs/x"}}}),
            json!({"type": "strin"}),
            json!({"minLength": -1}),
            json!({"enum": []}),
            json!(3),
        ] {
            let e = Schema::compile(&doc, "parameters").unwrap_err();
            assert_eq!(e.kind(), ErrorKind::InvalidSchema, "{doc}");
        }
        let e = Schema::compile(&json!({"properties": {"x": {"pattern": "a"}}}), "p").unwrap_err();
        assert_eq!(e.path(), "p.properties.x.pattern");
    }

    #[test]
    fn annotations_are_ignored() {
        let s = compile(
            json!({"type": "string", "description": "d", "format": "uri",
            "default": "x", "$schema": "https://json-schema.org/draft/2020-12/schema"}),
        );
        assert!(s.validate(&json!("not a uri"), "v").is_ok());
    }
}
