//! The state file is a wire format read back from disk: any saved state round-trips exactly
//! (numbers to the bit, bytes, nesting up to the depth limit), and no bytes — random or a valid
//! file damaged at one place — make the reader panic; what it refuses it refuses with a typed
//! error.

use a3s_test_driver::storage_state::indexed_db::{
    Bytes, KeyPath, MapEntry, ObjectStore, Property, Record, SpecialNumber, StoreIndex,
    StoredValue, TypedArrayKind, MAX_VALUE_DEPTH,
};
use a3s_test_driver::storage_state::{
    Cookie, Database, OriginStorage, StorageItem, StorageState, StorageStateError,
    STORAGE_STATE_VERSION,
};
use proptest::prelude::*;

fn kind() -> impl Strategy<Value = TypedArrayKind> {
    prop::sample::select(vec![
        TypedArrayKind::Int8Array,
        TypedArrayKind::Uint8Array,
        TypedArrayKind::Uint8ClampedArray,
        TypedArrayKind::Int16Array,
        TypedArrayKind::Uint16Array,
        TypedArrayKind::Int32Array,
        TypedArrayKind::Uint32Array,
        TypedArrayKind::Float32Array,
        TypedArrayKind::Float64Array,
        TypedArrayKind::BigInt64Array,
        TypedArrayKind::BigUint64Array,
        TypedArrayKind::DataView,
    ])
}

fn bytes() -> impl Strategy<Value = Bytes> {
    prop::collection::vec(any::<u8>(), 0..24).prop_map(Bytes)
}

/// A finite double other than -0 (those are `SpecialNumber`s).
fn finite() -> impl Strategy<Value = f64> {
    any::<f64>().prop_filter("finite, not -0", |v| {
        v.is_finite() && !(*v == 0.0 && v.is_sign_negative())
    })
}

fn leaf() -> impl Strategy<Value = StoredValue> {
    prop_oneof![
        Just(StoredValue::Undefined),
        Just(StoredValue::Null),
        any::<bool>().prop_map(|value| StoredValue::Boolean { value }),
        finite().prop_map(|value| StoredValue::Number { value }),
        prop::sample::select(vec![
            SpecialNumber::NaN,
            SpecialNumber::Infinity,
            SpecialNumber::NegativeInfinity,
            SpecialNumber::NegativeZero,
        ])
        .prop_map(|value| StoredValue::SpecialNumber { value }),
        ".{0,12}".prop_map(|value| StoredValue::String { value }),
        "-?[0-9]{1,30}".prop_map(|value| StoredValue::BigInt { value }),
        prop::option::of(finite()).prop_map(|value| StoredValue::Date { value }),
        ("[a-z.*]{0,8}", "[gimsuy]{0,3}")
            .prop_map(|(source, flags)| StoredValue::RegExp { source, flags }),
        bytes().prop_map(|bytes| StoredValue::ArrayBuffer { bytes }),
        (kind(), 0usize..4).prop_map(|(kind, n)| StoredValue::TypedArray {
            kind,
            bytes: Bytes(vec![7; n * kind.element_size()]),
        }),
        (".{0,8}", bytes()).prop_map(|(mime, bytes)| StoredValue::Blob { mime, bytes }),
        (".{0,8}", ".{0,8}", finite(), bytes()).prop_map(|(name, mime, last_modified, bytes)| {
            StoredValue::File {
                name,
                mime,
                last_modified,
                bytes,
            }
        }),
    ]
}

fn value() -> impl Strategy<Value = StoredValue> {
    leaf().prop_recursive(6, 48, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4)
                .prop_map(|items| StoredValue::Array { items }),
            prop::collection::vec(inner.clone(), 0..4).prop_map(|items| StoredValue::Set { items }),
            prop::collection::vec((".{0,6}", inner.clone()), 0..4).prop_map(|entries| {
                StoredValue::Object {
                    entries: entries
                        .into_iter()
                        .map(|(name, value)| Property { name, value })
                        .collect(),
                }
            }),
            prop::collection::vec((inner.clone(), inner), 0..3).prop_map(|entries| {
                StoredValue::Map {
                    entries: entries
                        .into_iter()
                        .map(|(key, value)| MapEntry { key, value })
                        .collect(),
                }
            }),
        ]
    })
}

fn key_path() -> impl Strategy<Value = KeyPath> {
    prop_oneof![
        "[a-z]{1,6}(\\.[a-z]{1,4})?".prop_map(KeyPath::One),
        prop::collection::vec("[a-z]{1,6}", 1..3).prop_map(KeyPath::Many),
    ]
}

fn database() -> impl Strategy<Value = Database> {
    let store = (
        prop::option::of(key_path()),
        any::<bool>(),
        prop::collection::vec((key_path(), any::<bool>(), any::<bool>()), 0..3),
        prop::collection::vec((value(), value()), 0..4),
    );
    (
        "[a-z]{1,8}",
        1u64..=u64::from(u32::MAX),
        prop::collection::vec(store, 0..3),
    )
        .prop_map(|(name, version, stores)| Database {
            name,
            version,
            object_stores: stores
                .into_iter()
                .enumerate()
                .map(
                    |(s, (key_path, auto_increment, indexes, records))| ObjectStore {
                        name: format!("store-{s}"),
                        key_path,
                        auto_increment,
                        indexes: indexes
                            .into_iter()
                            .enumerate()
                            .map(|(i, (key_path, unique, multi_entry))| StoreIndex {
                                name: format!("index-{i}"),
                                key_path,
                                unique,
                                multi_entry,
                            })
                            .collect(),
                        records: records
                            .into_iter()
                            .map(|(key, value)| Record { key, value })
                            .collect(),
                    },
                )
                .collect(),
        })
}

fn state() -> impl Strategy<Value = StorageState> {
    let origin = (
        "http://[a-z]{1,8}:[0-9]{2,4}",
        prop::collection::vec((".{0,8}", ".{0,8}"), 0..3),
        prop::collection::vec(database(), 0..3),
    )
        .prop_map(|(origin, items, indexed_db)| OriginStorage {
            origin,
            local_storage: items
                .into_iter()
                .map(|(name, value)| StorageItem { name, value })
                .collect(),
            indexed_db,
        });
    let cookie = ("[a-z]{1,8}", ".{0,12}").prop_map(|(name, value)| Cookie {
        name,
        value,
        domain: "127.0.0.1".into(),
        path: "/".into(),
        expires: -1.0,
        http_only: true,
        secure: false,
        same_site: Some("Lax".into()),
    });
    (
        prop::collection::vec(cookie, 0..3),
        prop::collection::vec(origin, 0..3),
    )
        .prop_map(|(cookies, origins)| StorageState {
            version: STORAGE_STATE_VERSION,
            cookies,
            origins,
        })
}

/// Numbers compared by their bits (so `NaN` never hides inside a `Number`, and no ULP moves).
fn same_bits(a: &StorageState, b: &StorageState) -> bool {
    serde_json::to_string(a).unwrap() == serde_json::to_string(b).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_state_round_trips(state in state()) {
        let bytes = state.to_json();
        let back = StorageState::from_json(&bytes).expect("a written state reads back");
        prop_assert!(back == state);
        prop_assert!(same_bits(&back, &state));
    }

    #[test]
    fn no_bytes_make_the_reader_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let _ = StorageState::from_json(&bytes);
    }

    #[test]
    fn a_damaged_file_is_refused_or_read_never_a_panic(
        state in state(),
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
    ) {
        let mut bytes = state.to_json();
        let i = at.index(bytes.len());
        bytes[i] = byte;
        let _ = StorageState::from_json(&bytes);
    }
}

fn nested(depth: usize) -> StoredValue {
    (1..depth).fold(StoredValue::Null, |inner, _| StoredValue::Array {
        items: vec![inner],
    })
}

fn with_value(value: StoredValue) -> StorageState {
    StorageState {
        version: STORAGE_STATE_VERSION,
        cookies: Vec::new(),
        origins: vec![OriginStorage {
            origin: "http://127.0.0.1:1".into(),
            local_storage: Vec::new(),
            indexed_db: vec![Database {
                name: "app".into(),
                version: 1,
                object_stores: vec![ObjectStore {
                    name: "notes".into(),
                    key_path: None,
                    auto_increment: false,
                    indexes: Vec::new(),
                    records: vec![Record {
                        key: StoredValue::Number { value: 1.0 },
                        value,
                    }],
                }],
            }],
        }],
    }
}

#[test]
fn values_up_to_the_depth_limit_read_back_and_deeper_ones_are_refused_naming_the_store() {
    let deepest = with_value(nested(MAX_VALUE_DEPTH));
    assert!(StorageState::from_json(&deepest.to_json()).unwrap() == deepest);
    let e =
        StorageState::from_json(&with_value(nested(MAX_VALUE_DEPTH + 1)).to_json()).unwrap_err();
    assert!(matches!(e, StorageStateError::Database(_)), "{e}");
    assert!(e.to_string().contains("\"app\"/\"notes\""), "{e}");
}

#[test]
fn a_typed_array_of_an_impossible_length_and_a_version_zero_database_are_refused() {
    let odd = with_value(StoredValue::TypedArray {
        kind: TypedArrayKind::Float64Array,
        bytes: Bytes(vec![0; 7]),
    });
    let e = StorageState::from_json(&odd.to_json()).unwrap_err();
    assert!(e.to_string().contains("Float64Array"), "{e}");
    let mut zero = with_value(StoredValue::Null);
    zero.origins[0].indexed_db[0].version = 0;
    let e = StorageState::from_json(&zero.to_json()).unwrap_err();
    assert!(e.to_string().contains("version 0"), "{e}");
}

#[test]
fn bytes_that_are_not_base64_and_unknown_value_types_are_malformed_without_quoting() {
    let good = String::from_utf8(
        with_value(StoredValue::ArrayBuffer {
            bytes: Bytes(b"s3cr3t-bytes".to_vec()),
        })
        .to_json(),
    )
    .unwrap();
    let encoded = "czNjcjN0LWJ5dGVz";
    assert!(good.contains(encoded));
    let bad = good.replace(encoded, "not base64!");
    let e = StorageState::from_json(bad.as_bytes()).unwrap_err();
    assert!(matches!(e, StorageStateError::Malformed { .. }), "{e}");
    let unknown = good.replace("\"array_buffer\"", "\"crypto_key\"");
    let e = StorageState::from_json(unknown.as_bytes()).unwrap_err();
    assert!(matches!(e, StorageStateError::Malformed { .. }), "{e}");
    assert!(!e.to_string().contains(encoded));
}

#[test]
fn a_saved_date_and_typed_array_have_the_documented_shape() {
    let state = with_value(StoredValue::Array {
        items: vec![
            StoredValue::Date {
                value: Some(1_700_000_000_000.0),
            },
            StoredValue::TypedArray {
                kind: TypedArrayKind::Uint8Array,
                bytes: Bytes(vec![1, 2, 3]),
            },
        ],
    });
    let text = String::from_utf8(state.to_json()).unwrap();
    let compact: String = text.split_whitespace().collect();
    assert!(
        compact.contains(r#"{"type":"date","value":1700000000000.0}"#),
        "{text}"
    );
    assert!(
        compact.contains(r#"{"type":"typed_array","kind":"Uint8Array","bytes":"AQID"}"#),
        "{text}"
    );
    assert!(compact.contains(r#""indexedDB":[{"name":"app","version":1,"objectStores""#));
}

#[test]
fn the_file_is_indented_down_to_the_records_and_each_record_is_one_line() {
    let state = with_value(StoredValue::Object {
        entries: vec![Property {
            name: "when".into(),
            value: StoredValue::Date { value: Some(0.0) },
        }],
    });
    let text = String::from_utf8(state.to_json()).unwrap();
    assert!(text.contains("\n  \"origins\": [\n    {\n"), "{text}");
    let record = text
        .lines()
        .find(|l| l.contains("\"key\""))
        .expect("a record line");
    assert_eq!(
        record.trim(),
        r#"{"key":{"type":"number","value":1.0},"value":{"type":"object","entries":[{"name":"when","value":{"type":"date","value":0.0}}]}}"#
    );
    assert!(text.ends_with("}\n"), "{text}");
}
