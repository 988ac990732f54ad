//! Reading fields of hook payloads, with errors that name the missing field.

use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind, Result};
use crate::request::Request;

/// A string field of a payload.
///
/// ```
/// let p = serde_json::json!({"cwd": "/p"});
/// assert_eq!(toolgate::agents::field_str(&p, "cwd"), Some("/p"));
/// assert_eq!(toolgate::agents::field_str(&p, "tool"), None);
/// ```
pub fn field_str<'a>(payload: &'a Value, key: &str) -> Option<&'a str> {
    payload.get(key).and_then(Value::as_str)
}

/// An object field of a payload; a string holding a JSON object is accepted too (some agents
/// send tool arguments encoded as a string).
///
/// ```
/// let p = serde_json::json!({"a": {"x": 1}, "b": "{\"x\":1}", "c": 3});
/// assert!(toolgate::agents::object_field(&p, "a").unwrap().is_object());
/// assert!(toolgate::agents::object_field(&p, "b").unwrap().is_object());
/// assert!(toolgate::agents::object_field(&p, "c").is_err());
/// ```
pub fn object_field(payload: &Value, key: &str) -> Result<Value> {
    match payload.get(key) {
        Some(v @ Value::Object(_)) => Ok(v.clone()),
        Some(Value::String(s)) => {
            let v: Value = crate::json::from_str(s, key)?;
            if v.is_object() {
                Ok(v)
            } else {
                Err(bad_field(key, "a JSON object"))
            }
        }
        Some(_) => Err(bad_field(key, "an object")),
        None => Err(missing(key)),
    }
}

/// A required string field.
pub(crate) fn required_str<'a>(payload: &'a Value, key: &str) -> Result<&'a str> {
    match payload.get(key) {
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err(bad_field(key, "a string")),
        None => Err(missing(key)),
    }
}

pub(crate) fn missing(key: &str) -> Error {
    Error::new(
        ErrorKind::InvalidRequest,
        format!("the hook payload has no `{key}`"),
    )
    .at(key)
    .with_hint("check that the hook is installed for the agent that runs it (`toolgate doctor`)")
}

pub(crate) fn bad_field(key: &str, expected: &str) -> Error {
    Error::new(
        ErrorKind::InvalidRequest,
        format!("the hook payload's `{key}` is not {expected}"),
    )
    .at(key)
    .with_hint("check that the hook is installed for the agent that runs it (`toolgate doctor`)")
}

/// A request for `tool` with `input`.
pub(crate) fn request(tool: &str, input: Value) -> Request {
    Request {
        tool: tool.to_owned(),
        input,
        ..Request::default()
    }
}

/// A call of an MCP tool whose payload names no server that can be trusted, as a tool of
/// `server`, the name an agent's module gives such calls (`cursor-mcp`, `gemini-mcp`): a
/// server's tool named like a built-in (`Read`, `grep`, `glob`) never gets the built-in's
/// defaults, and one named like another server's tool (`mcp__github__create_issue`, which
/// any server may call its tool) never gets that server's rules. Rules name it
/// `mcp__<server>__<tool>`.
pub(crate) fn unnamed_server_request(server: &str, tool: &str, input: Value) -> Request {
    request(&format!("mcp__{server}__{tool}"), input)
}

/// An object built from pairs, skipping absent values.
pub(crate) fn object(pairs: &[(&str, Option<&Value>)]) -> Value {
    let mut m = Map::new();
    for (k, v) in pairs {
        if let Some(v) = v {
            m.insert((*k).to_owned(), (*v).clone());
        }
    }
    Value::Object(m)
}

/// The payload's `permission_mode`, when it names a mode toolgate knows.
pub(crate) fn mode(payload: &Value, key: &str) -> Option<crate::mode::Mode> {
    let name = field_str(payload, key)?;
    serde_json::from_value(Value::String(name.to_owned())).ok()
}
