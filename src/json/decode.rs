//! Decoding a typed value from a parsed [`Value`] while keeping track of where the decoder is,
//! so that an error names the path to the bad value (`permissions.allow[2]`).
//!
//! Every document type is decoded through this one deserializer only, which keeps the wasm
//! small: each `Deserialize` impl is instantiated once, and no wrapper layer is generated
//! around its visitors.

use std::fmt;

use serde::de::value::{StrDeserializer, StringDeserializer};
use serde::de::DeserializeOwned;
use serde::de::{
    self, DeserializeSeed, EnumAccess, Error as _, MapAccess, SeqAccess, Unexpected, VariantAccess,
    Visitor,
};
use serde::forward_to_deserialize_any;
use serde_json::{Map, Value};

/// Decodes a `T` from `value`.
pub(super) fn decode<T: DeserializeOwned>(value: Value) -> Result<T, DecodeError> {
    T::deserialize(At {
        value,
        path: &Path::Root,
    })
}

/// A failure to decode, with the path of the innermost value that caused it.
#[derive(Debug)]
pub(super) struct DecodeError {
    message: String,
    /// `None` until the error leaves the deserializer of the value that raised it.
    path: Option<String>,
}

impl DecodeError {
    /// What went wrong, in serde's words (`unknown field `x`, expected ...`).
    pub(super) fn message(&self) -> &str {
        &self.message
    }

    /// Where: `list[1].m`, or empty for the whole document.
    pub(super) fn path(&self) -> &str {
        self.path.as_deref().unwrap_or("")
    }

    fn at(mut self, path: &Path<'_>) -> Self {
        if self.path.is_none() {
            self.path = Some(path.to_string());
        }
        self
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DecodeError {}

impl de::Error for DecodeError {
    fn custom<M: fmt::Display>(msg: M) -> Self {
        DecodeError {
            message: msg.to_string(),
            path: None,
        }
    }
}

/// Where a value sits in its document, as a chain of links to its parent.
enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Root => Ok(()),
            Path::Key(parent, key) => {
                parent.fmt(f)?;
                if !matches!(parent, Path::Root) {
                    f.write_str(".")?;
                }
                f.write_str(key)
            }
            Path::Index(parent, index) => {
                parent.fmt(f)?;
                write!(f, "[{index}]")
            }
        }
    }
}

/// The deserializer: one value, taken apart as it is decoded (strings move, not copy), and
/// its path.
struct At<'p> {
    value: Value,
    path: &'p Path<'p>,
}

type Result<T, E = DecodeError> = std::result::Result<T, E>;

/// Every numeric entry point reads a JSON number the way `deserialize_u64` does: the visitor
/// gets the narrowest of `u64`, `i64` and `f64` and checks the range itself.
macro_rules! forward_to_number {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            self.deserialize_u64(visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for At<'_> {
    type Error = DecodeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let path = self.path;
        let decoded = match self.value {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(b),
            Value::Number(n) => visit_number(&n, visitor),
            Value::String(s) => visitor.visit_string(s),
            Value::Array(items) => visit_array(items, path, visitor),
            Value::Object(map) => visit_object(map, path, visitor),
        };
        decoded.map_err(|e| e.at(path))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let path = self.path;
        if self.value.is_null() {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
        .map_err(|e| e.at(path))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        let path = self.path;
        visitor.visit_newtype_struct(self).map_err(|e| e.at(path))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let decoded = match self.value {
            Value::String(s) => visitor.visit_enum(StringDeserializer::new(s)),
            Value::Object(map) if map.len() == 1 => match map.into_iter().next() {
                Some((variant, value)) => visitor.visit_enum(Variant {
                    variant,
                    value,
                    path: self.path,
                }),
                None => Err(DecodeError::custom("an enum object needs one key")),
            },
            other => Err(DecodeError::invalid_type(
                unexpected(&other),
                &"a string or an object with one key",
            )),
        };
        decoded.map_err(|e| e.at(self.path))
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }

    // Each typed entry point calls only the visitor method that its JSON type calls for, and
    // otherwise fails with serde's own "invalid type" message. Besides being strict (a struct
    // is an object, never an array), this keeps the wasm small: the visitor methods that would
    // never succeed (a struct visitor's `visit_seq`, say) are not instantiated.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_map(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let decoded = match self.value {
            Value::Object(map) => visit_object(map, self.path, visitor),
            other => Err(DecodeError::invalid_type(unexpected(&other), &visitor)),
        };
        decoded.map_err(|e| e.at(self.path))
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let decoded = match self.value {
            Value::Array(items) => visit_array(items, self.path, visitor),
            other => Err(DecodeError::invalid_type(unexpected(&other), &visitor)),
        };
        decoded.map_err(|e| e.at(self.path))
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let decoded = match self.value {
            Value::String(s) => visitor.visit_string(s),
            other => Err(DecodeError::invalid_type(unexpected(&other), &visitor)),
        };
        decoded.map_err(|e| e.at(self.path))
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let decoded = match self.value {
            Value::Bool(b) => visitor.visit_bool(b),
            other => Err(DecodeError::invalid_type(unexpected(&other), &visitor)),
        };
        decoded.map_err(|e| e.at(self.path))
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let decoded = match self.value {
            Value::Null => visitor.visit_unit(),
            other => Err(DecodeError::invalid_type(unexpected(&other), &visitor)),
        };
        decoded.map_err(|e| e.at(self.path))
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let decoded = match self.value {
            Value::Number(n) => visit_number(&n, visitor),
            other => Err(DecodeError::invalid_type(unexpected(&other), &visitor)),
        };
        decoded.map_err(|e| e.at(self.path))
    }

    forward_to_number! {
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_i8 deserialize_i16
        deserialize_i32 deserialize_i64 deserialize_f32 deserialize_f64
    }

    forward_to_deserialize_any! {
        i128 u128 bytes byte_buf
    }
}

fn visit_number<'de, V: Visitor<'de>>(n: &serde_json::Number, visitor: V) -> Result<V::Value> {
    if let Some(u) = n.as_u64() {
        visitor.visit_u64(u)
    } else if let Some(i) = n.as_i64() {
        visitor.visit_i64(i)
    } else {
        visitor.visit_f64(n.as_f64().unwrap_or(f64::NAN))
    }
}

fn visit_array<'de, V: Visitor<'de>>(
    items: Vec<Value>,
    path: &Path<'_>,
    visitor: V,
) -> Result<V::Value> {
    let len = items.len();
    let mut access = Items {
        items: items.into_iter(),
        index: 0,
        path,
    };
    let decoded = visitor.visit_seq(&mut access)?;
    if access.items.len() == 0 {
        Ok(decoded)
    } else {
        Err(DecodeError::invalid_length(
            len,
            &"fewer elements in the array",
        ))
    }
}

fn visit_object<'de, V: Visitor<'de>>(
    map: Map<String, Value>,
    path: &Path<'_>,
    visitor: V,
) -> Result<V::Value> {
    let len = map.len();
    let mut access = Entries {
        entries: map.into_iter(),
        pending: None,
        path,
    };
    let decoded = visitor.visit_map(&mut access)?;
    if access.entries.len() == 0 {
        Ok(decoded)
    } else {
        Err(DecodeError::invalid_length(
            len,
            &"fewer entries in the object",
        ))
    }
}

struct Items<'p> {
    items: std::vec::IntoIter<Value>,
    index: usize,
    path: &'p Path<'p>,
}

impl<'de> SeqAccess<'de> for Items<'_> {
    type Error = DecodeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let Some(value) = self.items.next() else {
            return Ok(None);
        };
        let path = Path::Index(self.path, self.index);
        self.index += 1;
        seed.deserialize(At { value, path: &path })
            .map(Some)
            .map_err(|e| e.at(&path))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct Entries<'p> {
    entries: serde_json::map::IntoIter,
    pending: Option<(String, Value)>,
    path: &'p Path<'p>,
}

impl<'de> MapAccess<'de> for Entries<'_> {
    type Error = DecodeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some((key, value)) = self.entries.next() else {
            return Ok(None);
        };
        let decoded = seed
            .deserialize(StrDeserializer::new(&key))
            .map(Some)
            .map_err(|e: DecodeError| e.at(&Path::Key(self.path, &key)));
        self.pending = Some((key, value));
        decoded
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let Some((key, value)) = self.pending.take() else {
            return Err(DecodeError::custom(
                "a map value was asked for before its key",
            ));
        };
        let path = Path::Key(self.path, &key);
        seed.deserialize(At { value, path: &path })
            .map_err(|e| e.at(&path))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// An externally tagged enum: `{"variant": value}`.
struct Variant<'p> {
    variant: String,
    value: Value,
    path: &'p Path<'p>,
}

impl<'de> EnumAccess<'de> for Variant<'_> {
    type Error = DecodeError;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self)> {
        let variant = StrDeserializer::<DecodeError>::new(&self.variant);
        let name = seed.deserialize(variant).map_err(|e| e.at(self.path))?;
        Ok((name, self))
    }
}

impl<'de> VariantAccess<'de> for Variant<'_> {
    type Error = DecodeError;

    fn unit_variant(self) -> Result<()> {
        match self.value {
            Value::Null => Ok(()),
            other => Err(
                DecodeError::invalid_type(unexpected(&other), &"unit variant")
                    .at(&Path::Key(self.path, &self.variant)),
            ),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        let path = Path::Key(self.path, &self.variant);
        seed.deserialize(At {
            value: self.value,
            path: &path,
        })
        .map_err(|e| e.at(&path))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        let path = Path::Key(self.path, &self.variant);
        de::Deserializer::deserialize_any(
            At {
                value: self.value,
                path: &path,
            },
            visitor,
        )
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.tuple_variant(0, visitor)
    }
}

fn unexpected(value: &Value) -> Unexpected<'_> {
    match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Unexpected::Unsigned(u),
            (None, Some(i)) => Unexpected::Signed(i),
            _ => Unexpected::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}
