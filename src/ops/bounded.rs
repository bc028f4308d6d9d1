//! Bounded parameter values: a number within a range ([`Bounded`]), a text within a length
//! ([`Text`]) and a list within a count ([`items`]).
//!
//! Why types: a parameters struct is at once the CLI's arguments, the MCP tool's arguments and
//! the tool's input schema. A bound written as a schema attribute was only stated, and a
//! separate validator had to read the schema back to enforce it. Here the bound is part of the
//! field's type: the same constants make the schema (`JsonSchema`: `minimum`, `maximum`,
//! `minLength`, `maxLength`, `minItems`, `maxItems`), refuse a value while it is deserialized
//! (`Deserialize`, so an MCP call outside the bounds is −32602 naming the field) and refuse a
//! command-line value (`FromStr`, which clap uses), so the three cannot disagree.

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;
use std::fmt;
use std::ops::Deref;
use std::str::FromStr;

/// The `MAX` of a [`Bounded`] with no upper bound.
pub const UNBOUNDED: i64 = i64::MAX;

/// Why a value is outside its bounds.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OutOfBounds {
    /// A number below its minimum.
    #[error("must be at least {min} (got {got})")]
    Below {
        /// The minimum.
        min: i64,
        /// The value given.
        got: i128,
    },
    /// A number above its maximum.
    #[error("must be at most {max} (got {got})")]
    Above {
        /// The maximum.
        max: i64,
        /// The value given.
        got: i128,
    },
    /// A text shorter than its minimum.
    #[error("must be at least {min} characters")]
    Short {
        /// The least number of characters.
        min: usize,
    },
    /// A text longer than its maximum.
    #[error("must be at most {max} characters")]
    Long {
        /// The most characters.
        max: usize,
    },
    /// A list with too few items.
    #[error("must have at least {min} items")]
    Few {
        /// The least number of items.
        min: usize,
    },
    /// A list with too many items.
    #[error("must have at most {max} items")]
    Many {
        /// The most items.
        max: usize,
    },
    /// A command-line value that is not a whole number.
    #[error("`{0}` is not a whole number")]
    NotANumber(String),
}

/// The integer types a [`Bounded`] holds.
pub trait Integer:
    Copy
    + fmt::Debug
    + fmt::Display
    + FromStr
    + TryInto<i128>
    + JsonSchema
    + DeserializeOwned
    + Serialize
{
}
impl Integer for u32 {}
impl Integer for u64 {}
impl Integer for i64 {}
impl Integer for usize {}

/// A whole number in `MIN..=MAX` ([`UNBOUNDED`] for no upper bound).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Bounded<T, const MIN: i64, const MAX: i64>(T);

impl<T: Integer, const MIN: i64, const MAX: i64> Bounded<T, MIN, MAX> {
    /// `value`, when inside the bounds.
    pub fn new(value: T) -> Result<Self, OutOfBounds> {
        // Every integer type here fits in an i128.
        let got: i128 = value.try_into().unwrap_or(i128::MAX);
        if got < i128::from(MIN) {
            return Err(OutOfBounds::Below { min: MIN, got });
        }
        if MAX != UNBOUNDED && got > i128::from(MAX) {
            return Err(OutOfBounds::Above { max: MAX, got });
        }
        Ok(Bounded(value))
    }

    /// The number.
    pub fn get(self) -> T {
        self.0
    }
}

/// `impl From<Bounded<T, …>> for T`, so a bounded field hands its number on with `.into()`.
macro_rules! into_integer {
    ($($t:ty),*) => {$(
        impl<const MIN: i64, const MAX: i64> From<Bounded<$t, MIN, MAX>> for $t {
            fn from(b: Bounded<$t, MIN, MAX>) -> $t {
                b.0
            }
        }
    )*};
}
into_integer!(u32, u64, i64, usize);

impl<T: fmt::Display, const MIN: i64, const MAX: i64> fmt::Display for Bounded<T, MIN, MAX> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<T: Integer, const MIN: i64, const MAX: i64> FromStr for Bounded<T, MIN, MAX> {
    type Err = OutOfBounds;

    fn from_str(s: &str) -> Result<Self, OutOfBounds> {
        let value = s
            .parse::<T>()
            .map_err(|_| OutOfBounds::NotANumber(s.to_owned()))?;
        Bounded::new(value)
    }
}

impl<'de, T: Integer, const MIN: i64, const MAX: i64> Deserialize<'de> for Bounded<T, MIN, MAX> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Bounded::new(T::deserialize(d)?).map_err(D::Error::custom)
    }
}

impl<T: Integer, const MIN: i64, const MAX: i64> Serialize for Bounded<T, MIN, MAX> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<T: Integer, const MIN: i64, const MAX: i64> JsonSchema for Bounded<T, MIN, MAX> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        format!("{}_{MIN}_to_{MAX}", T::schema_name()).into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut schema = T::json_schema(generator);
        schema.insert("minimum".into(), MIN.into());
        if MAX != UNBOUNDED {
            schema.insert("maximum".into(), MAX.into());
        }
        schema
    }
}

/// A text of `MIN..=MAX` characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Text<const MIN: usize, const MAX: usize>(String);

/// Whether `s` has more than `max` characters, counting no further than `max + 1` (a huge text
/// costs no more than a short one).
fn longer_than(s: &str, max: usize) -> bool {
    s.len() > max && s.chars().nth(max).is_some()
}

impl<const MIN: usize, const MAX: usize> Text<MIN, MAX> {
    /// `text`, when its length is inside the bounds.
    pub fn new(text: String) -> Result<Self, OutOfBounds> {
        if longer_than(&text, MAX) {
            return Err(OutOfBounds::Long { max: MAX });
        }
        if MIN > 0 && text.chars().count() < MIN {
            return Err(OutOfBounds::Short { min: MIN });
        }
        Ok(Text(text))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The text, owned.
    pub fn into_string(self) -> String {
        self.0
    }
}

impl<const MIN: usize, const MAX: usize> From<Text<MIN, MAX>> for String {
    fn from(t: Text<MIN, MAX>) -> String {
        t.0
    }
}

/// The empty text, for a text that may be empty.
impl<const MAX: usize> Default for Text<0, MAX> {
    fn default() -> Self {
        Text(String::new())
    }
}

impl<const MIN: usize, const MAX: usize> Deref for Text<MIN, MAX> {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl<const MIN: usize, const MAX: usize> fmt::Display for Text<MIN, MAX> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<const MIN: usize, const MAX: usize> FromStr for Text<MIN, MAX> {
    type Err = OutOfBounds;

    fn from_str(s: &str) -> Result<Self, OutOfBounds> {
        Text::new(s.to_owned())
    }
}

impl<'de, const MIN: usize, const MAX: usize> Deserialize<'de> for Text<MIN, MAX> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Text::new(String::deserialize(d)?).map_err(D::Error::custom)
    }
}

impl<const MIN: usize, const MAX: usize> Serialize for Text<MIN, MAX> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<const MIN: usize, const MAX: usize> JsonSchema for Text<MIN, MAX> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        format!("Text_{MIN}_to_{MAX}").into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let mut schema = schemars::json_schema!({ "type": "string", "maxLength": MAX });
        if MIN > 0 {
            schema.insert("minLength".into(), MIN.into());
        }
        schema
    }
}

/// `items`, when their count is inside `MIN..=MAX`.
fn counted<T, const MIN: usize, const MAX: usize>(items: Vec<T>) -> Result<Vec<T>, OutOfBounds> {
    if items.len() > MAX {
        return Err(OutOfBounds::Many { max: MAX });
    }
    if items.len() < MIN {
        return Err(OutOfBounds::Few { min: MIN });
    }
    Ok(items)
}

/// `#[serde(deserialize_with = "items::<_, _, MIN, MAX>")]` with
/// `#[schemars(schema_with = "items_schema::<T, MIN, MAX>")]`: a list of `MIN..=MAX` items
/// (a field stays a `Vec`, which clap reads as a repeated argument).
pub fn items<'de, D, T, const MIN: usize, const MAX: usize>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    counted::<T, MIN, MAX>(Vec::deserialize(d)?).map_err(D::Error::custom)
}

/// [`items`] for a list that must be given but may be `None` on the command line (where a
/// flag stands for the empty list); over MCP the field is required.
pub fn some_items<'de, D, T, const MIN: usize, const MAX: usize>(
    d: D,
) -> Result<Option<Vec<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    items::<D, T, MIN, MAX>(d).map(Some)
}

/// The schema of [`items`] (and of [`some_items`]: the field is required).
pub fn items_schema<T: JsonSchema, const MIN: usize, const MAX: usize>(
    generator: &mut SchemaGenerator,
) -> Schema {
    let item = generator.subschema_for::<T>();
    let mut schema = schemars::json_schema!({ "type": "array", "items": item, "maxItems": MAX });
    if MIN > 0 {
        schema.insert("minItems".into(), MIN.into());
    }
    schema
}

/// `#[serde(deserialize_with = "present")]` on an `Option` field the schema marks `required`:
/// serde then refuses the arguments without it ("missing field"), where it would read a missing
/// `Option` as `None`; the command line, where the flag may be left out and refused later in
/// the operation's own words, is unaffected.
pub fn present<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_number_outside_its_range_is_refused_by_every_face() {
        type Limit = Bounded<u64, 1, 100>;
        assert_eq!(
            serde_json::from_value::<Limit>(json!(100)).unwrap().get(),
            100
        );
        for bad in [json!(0), json!(101), json!(-1), json!(1.5), json!("ten")] {
            assert!(
                serde_json::from_value::<Limit>(bad.clone()).is_err(),
                "{bad}"
            );
        }
        assert_eq!(
            "0".parse::<Limit>().unwrap_err().to_string(),
            "must be at least 1 (got 0)"
        );
        assert!("x".parse::<Limit>().is_err());
        let schema = schemars::schema_for!(Limit);
        assert_eq!(
            (schema.get("minimum"), schema.get("maximum")),
            (Some(&json!(1)), Some(&json!(100)))
        );
        let open = schemars::schema_for!(Bounded<u64, 1, UNBOUNDED>);
        assert!(open.get("maximum").is_none());
        assert_eq!(
            serde_json::from_value::<Bounded<u64, 1, UNBOUNDED>>(json!(u64::MAX))
                .unwrap()
                .get(),
            u64::MAX
        );
        assert!(serde_json::from_value::<Bounded<i64, -5, 5>>(json!(-6)).is_err());
    }

    #[test]
    fn a_text_is_counted_in_characters() {
        type Short = Text<1, 4>;
        assert_eq!(
            &*serde_json::from_value::<Short>(json!("éééé")).unwrap(),
            "éééé"
        );
        assert!(serde_json::from_value::<Short>(json!("12345")).is_err());
        assert!(serde_json::from_value::<Short>(json!("")).is_err());
        assert!("".parse::<Text<0, 4>>().is_ok());
        let schema = schemars::schema_for!(Short);
        assert_eq!(schema.get("maxLength"), Some(&json!(4)));
        assert_eq!(schema.get("minLength"), Some(&json!(1)));
    }

    #[test]
    fn a_list_is_counted() {
        #[derive(Deserialize, JsonSchema)]
        struct P {
            #[serde(deserialize_with = "items::<_, _, 1, 2>")]
            #[schemars(schema_with = "items_schema::<Text<1, 3>, 1, 2>")]
            #[allow(dead_code)]
            values: Vec<Text<1, 3>>,
        }
        assert!(serde_json::from_value::<P>(json!({ "values": ["a", "b"] })).is_ok());
        for bad in [json!([]), json!(["a", "b", "c"]), json!([""])] {
            assert!(serde_json::from_value::<P>(json!({ "values": bad })).is_err());
        }
        let schema = crate::ops::schema_of::<P>();
        let values = &schema["properties"]["values"];
        assert_eq!(
            (values["minItems"].clone(), values["maxItems"].clone()),
            (json!(1), json!(2))
        );
        assert_eq!(values["items"]["maxLength"], 3);
    }
}
