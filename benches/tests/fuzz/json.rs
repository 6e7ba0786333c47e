//! JSON inputs made from a real document: its arrays shortened (so that a
//! case is quick and an edit often lands on a field that matters), then
//! edited as a value tree, or mutated as text, or replaced by noise.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use serde_json::{Map, Value};

/// A document to start from: the shortened value and its text.
pub struct Seed {
    pub value: Value,
    pub text: String,
}

impl Seed {
    /// `text` (a real document) with every array cut to `keep` elements.
    pub fn new(text: &str, keep: usize) -> Seed {
        let mut value: Value = serde_json::from_str(text).expect("a seed document is JSON");
        shorten(&mut value, keep);
        let text = serde_json::to_string(&value).unwrap();
        Seed { value, text }
    }
}

fn shorten(v: &mut Value, keep: usize) {
    match v {
        Value::Array(a) => {
            a.truncate(keep);
            a.iter_mut().for_each(|x| shorten(x, keep));
        }
        Value::Object(m) => m.values_mut().for_each(|x| shorten(x, keep)),
        _ => {}
    }
}

/// Numbers at the edges: zero, negatives, the integer limits, huge and
/// tiny floats, and any.
pub fn edge_number() -> impl Strategy<Value = Value> {
    prop_oneof![
        select(vec![
            Value::from(0),
            Value::from(1),
            Value::from(-1),
            Value::from(2),
            Value::from(i64::MAX),
            Value::from(i64::MIN),
            Value::from(u64::MAX),
            Value::from(u32::MAX),
            Value::from(usize::MAX),
            Value::from(1e308),
            Value::from(-1e308),
            Value::from(5e-324),
            Value::from(0.5),
            Value::from(-0.0),
        ]),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
    ]
}

/// Any JSON value, nested up to three deep.
pub fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        edge_number(),
        "\\PC{0,8}".prop_map(Value::String),
        select(vec!["", "baseline", "candidate", "control", "opening", "cp", "mate", "\n", "a\u{0}b"])
            .prop_map(|s| Value::String(s.into())),
    ];
    leaf.prop_recursive(3, 32, 8, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..8).prop_map(Value::Array),
            proptest::collection::btree_map("[a-z_]{1,12}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// One edit: what to do, where (a child index per level, the walk
/// stopping where the list ends or a leaf is reached), and with what.
#[derive(Clone, Debug)]
pub struct Edit {
    kind: u8,
    path: Vec<u16>,
    value: Value,
    name: String,
}

fn edit() -> impl Strategy<Value = Edit> {
    (0u8..7, vec(any::<u16>(), 0..8), json_value(), "[a-z_]{1,12}").prop_map(|(kind, path, value, name)| Edit {
        kind,
        path,
        value,
        name,
    })
}

/// The node the path leads to (stopping early at a leaf or an empty
/// container).
fn walk<'a>(v: &'a mut Value, path: &[u16]) -> &'a mut Value {
    let Some((&step, rest)) = path.split_first() else { return v };
    let go = match v {
        Value::Array(a) => !a.is_empty(),
        Value::Object(m) => !m.is_empty(),
        _ => false,
    };
    if !go {
        return v;
    }
    match v {
        Value::Array(a) => {
            let i = step as usize % a.len();
            walk(&mut a[i], rest)
        }
        Value::Object(m) => {
            let i = step as usize % m.len();
            let key = m.keys().nth(i).cloned().expect("an index below the length");
            walk(m.get_mut(&key).expect("a key just listed"), rest)
        }
        _ => unreachable!("checked above"),
    }
}

fn apply(root: &mut Value, e: &Edit) {
    let node = walk(root, &e.path);
    match (e.kind, node) {
        // Replace the node.
        (0 | 1, node) => *node = e.value.clone(),
        // Remove a field or an element.
        (2, Value::Object(m)) if !m.is_empty() => {
            let key = m.keys().nth(e.path.len() % m.len()).cloned().unwrap();
            m.remove(&key);
        }
        (2, Value::Array(a)) if !a.is_empty() => {
            a.remove(e.path.len() % a.len());
        }
        // Rename a field.
        (3, Value::Object(m)) if !m.is_empty() => {
            let key = m.keys().nth(e.path.len() % m.len()).cloned().unwrap();
            let v = m.remove(&key).unwrap();
            m.insert(e.name.clone(), v);
        }
        // Duplicate an element (arrays grow, lengths stop matching).
        (4, Value::Array(a)) if !a.is_empty() => {
            let x = a[e.path.len() % a.len()].clone();
            a.push(x);
        }
        // Empty a container.
        (5, Value::Array(a)) => a.clear(),
        (5, Value::Object(m)) => *m = Map::new(),
        // Add a field.
        (6, Value::Object(m)) => {
            m.insert(e.name.clone(), e.value.clone());
        }
        (_, node) => *node = e.value.clone(),
    }
}

/// `seed` with a few edits, as compact or pretty text.
pub fn edited(seed: &'static Seed) -> impl Strategy<Value = String> {
    (vec(edit(), 1..5), any::<bool>()).prop_map(move |(edits, pretty)| {
        let mut v = seed.value.clone();
        for e in &edits {
            apply(&mut v, e);
        }
        if pretty {
            serde_json::to_string_pretty(&v).unwrap()
        } else {
            serde_json::to_string(&v).unwrap()
        }
    })
}

/// `seed`'s text with a few byte edits: replaced, removed, inserted,
/// cut short.
pub fn mutated_text(seed: &'static Seed) -> impl Strategy<Value = String> {
    vec((0u8..4, any::<u32>(), select(b"{}[],:\"-.0123456789eE truefalsnul\\".to_vec())), 1..6).prop_map(move |edits| {
        let mut b = seed.text.clone().into_bytes();
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
    })
}

/// Text for a target: mostly edited documents, some mutated text, a
/// little noise.
pub fn document(seed: &'static Seed) -> impl Strategy<Value = String> {
    prop_oneof![
        6 => edited(seed),
        3 => mutated_text(seed),
        1 => "[\\[\\]{}\",:0-9a-z -]{0,80}",
        1 => vec(any::<u8>(), 0..80).prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
    ]
}
