//! Weights ("DNA") JSON as `engine evaldna load` and `--weights` read it
//! (parse, then validate): no text panics; a table that passes both keeps
//! every weight within the documented range and survives a round trip
//! through its own JSON; a rejected one gets a message.

use crate::grammar::noise;
use crate::{cases, ensure, run_target};
use engine::eval::weights::Weights;
use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use proptest::sample::select;
use serde_json::{Map, Value};
use std::sync::OnceLock;

/// The built-in table: as a JSON object, its keys, and its text (pretty
/// and compact).
struct DefaultTable {
    map: Map<String, Value>,
    keys: Vec<String>,
    texts: [String; 2],
}

fn default_table() -> &'static DefaultTable {
    static TABLE: OnceLock<DefaultTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        let w = Weights::default();
        let map: Map<String, Value> = serde_json::from_str(&w.to_json()).unwrap();
        let keys = map.keys().cloned().collect();
        DefaultTable { map, keys, texts: [w.to_json(), serde_json::to_string(&w).unwrap()] }
    })
}

/// Numbers at and around the limits `validate` checks.
fn edge_number() -> impl Strategy<Value = Value> {
    prop_oneof![
        select(vec![0i64, 1, -1, 5000, 5001, 100_000, 100_001, -100_000, -100_001, i32::MAX as i64, i32::MIN as i64])
            .prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
    ]
}

/// Any JSON value, nested up to three deep.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        edge_number(),
        "\\PC{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 48, 70, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..70).prop_map(Value::Array),
            btree_map("[a-z_]{1,12}", inner, 0..4).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// One edit of the table: a field replaced by any value, by an array of
/// edge numbers near the right length, removed, or renamed; or a new key.
fn edit() -> impl Strategy<Value = (u8, usize, Value, Vec<Value>, String)> {
    (0u8..5, any::<usize>(), json_value(), vec(edge_number(), 0..70), "[a-z_]{1,12}")
}

fn edited_table() -> impl Strategy<Value = String> {
    vec(edit(), 1..4).prop_map(|edits| {
        let DefaultTable { map, keys, .. } = default_table();
        let mut map = map.clone();
        for (kind, pick, value, numbers, name) in edits {
            let key = &keys[pick % keys.len()];
            match kind {
                0 => {
                    map.insert(key.clone(), value);
                }
                1 => {
                    // Mostly the right length, so validation is reached.
                    let len = map.get(key).and_then(Value::as_array).map_or(1, Vec::len);
                    let mut array: Vec<Value> = numbers.into_iter().cycle().take(len).collect();
                    if array.is_empty() {
                        array.push(Value::from(0));
                    }
                    if pick % 7 == 0 {
                        array.pop();
                    }
                    let single = array.first().cloned().unwrap_or(Value::Null);
                    map.insert(
                        key.clone(),
                        if map.get(key).is_some_and(Value::is_array) { Value::Array(array) } else { single },
                    );
                }
                2 => {
                    map.remove(key);
                }
                3 => {
                    if let Some(v) = map.remove(key) {
                        map.insert(name, v);
                    }
                }
                _ => {
                    map.insert(name, value);
                }
            }
        }
        serde_json::to_string(&Value::Object(map)).unwrap()
    })
}

/// JSON text: the built-in table edited, or its text mutated, or noise.
fn weights_text() -> impl Strategy<Value = String> {
    let mutated_text =
        (0usize..2, vec((0u8..4, any::<u16>(), select(b"{}[],:\"-.0123456789eE truefalsnul".to_vec())), 1..6))
            .prop_map(|(which, edits)| {
                let mut b = default_table().texts[which].clone().into_bytes();
                for (kind, at, byte) in edits {
                    let at = at as usize % (b.len() + 1);
                    match kind {
                        0 if at < b.len() => b[at] = byte,
                        1 if at < b.len() => {
                            b.remove(at);
                        }
                        2 => b.insert(at, byte),
                        _ => b.truncate(at),
                    }
                }
                String::from_utf8_lossy(&b).into_owned()
            });
    prop_oneof![
        4 => edited_table(),
        3 => mutated_text,
        1 => "[\\[\\]{}\",:0-9a-z -]{0,120}",
        1 => noise(120),
    ]
}

#[test]
fn weights_json() {
    run_target("weights", cases(5_000), weights_text(), |text| {
        let Ok(w) = serde_json::from_str::<Weights>(text) else {
            return Ok(());
        };
        match w.validate() {
            Ok(()) => {
                ensure(w.material.iter().all(|&v| (1..=5000).contains(&v)), || format!("material {:?}", w.material))?;
                let all: Value = serde_json::to_value(&w).unwrap();
                let numbers: Vec<i64> = all
                    .as_object()
                    .unwrap()
                    .values()
                    .flat_map(|v| match v {
                        Value::Array(a) => a.iter().filter_map(Value::as_i64).collect::<Vec<_>>(),
                        other => other.as_i64().into_iter().collect(),
                    })
                    .collect();
                ensure(numbers.iter().all(|n| n.abs() <= 100_000), || "a weight beyond 100000 passed".into())?;
                let back: Weights = serde_json::from_str(&w.to_json()).unwrap();
                ensure(back == w, || "the table changed through its own JSON".into())
            }
            Err(reason) => ensure(!reason.is_empty(), || "an empty reason".into()),
        }
    });
}
