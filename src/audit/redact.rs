//! Redaction: a value reduced to its shape and lengths, so the audit trail never holds
//! content (file contents, commands, edited arguments).

use serde_json::{Map, Value};

const MAX_ITEMS: usize = 16;
const MAX_DEPTH: usize = 8;

/// Replaces every string by `<string:N>` (N characters), numbers by `<number>`, booleans by
/// `<boolean>`; keeps object keys and array positions (the first 16 items, then
/// `<+N more>`), down to 8 levels.
///
/// ```
/// use serde_json::json;
/// let shape = toolgate::audit::redact(&json!({"command": "rm -rf /tmp", "timeout": 5}));
/// assert_eq!(shape, json!({"command": "<string:11>", "timeout": "<number>"}));
/// ```
pub fn redact(value: &Value) -> Value {
    redact_at(value, 0)
}

fn redact_at(value: &Value, depth: usize) -> Value {
    match value {
        Value::Null => Value::Null,
        Value::Bool(_) => Value::String("<boolean>".into()),
        Value::Number(_) => Value::String("<number>".into()),
        Value::String(s) => Value::String(format!("<string:{}>", s.chars().count())),
        Value::Array(items) if depth >= MAX_DEPTH => {
            Value::String(format!("<array:{}>", items.len()))
        }
        Value::Object(map) if depth >= MAX_DEPTH => {
            Value::String(format!("<object:{}>", map.len()))
        }
        Value::Array(items) => {
            let mut out: Vec<Value> = items
                .iter()
                .take(MAX_ITEMS)
                .map(|v| redact_at(v, depth + 1))
                .collect();
            if items.len() > MAX_ITEMS {
                out.push(Value::String(format!(
                    "<+{} more>",
                    items.len() - MAX_ITEMS
                )));
            }
            Value::Array(out)
        }
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), redact_at(v, depth + 1)))
                .collect::<Map<_, _>>(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn content_never_survives() {
        let secret = "sk-live-1234";
        let input = json!({
            "file_path": "/home/ada/.env",
            "content": format!("KEY={secret}"),
            "nested": {"list": [secret, 1, true, null]},
        });
        let shape = redact(&input);
        let text = shape.to_string();
        assert!(!text.contains(secret));
        assert!(!text.contains(".env"));
        assert_eq!(shape["content"], "<string:16>");
        assert_eq!(
            shape["nested"]["list"],
            json!(["<string:12>", "<number>", "<boolean>", null])
        );
    }

    #[test]
    fn long_arrays_and_deep_values_are_cut() {
        let long = Value::Array((0..20).map(|i| json!(i)).collect());
        let shape = redact(&long);
        assert_eq!(shape.as_array().unwrap().len(), 17);
        assert_eq!(shape[16], "<+4 more>");
        let mut deep = json!("x");
        for _ in 0..12 {
            deep = json!([deep]);
        }
        assert!(redact(&deep).to_string().contains("<array:1>"));
    }
}
