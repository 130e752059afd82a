//! Fuzzes every registered decision function through `kruise_core::registry::call`.
//!
//! Input: `<fn id>\n<JSON document>` (the seeds in `fuzz/seeds/registry_call` are the conformance
//! vectors' inputs in this form, written by `scripts/fuzz-corpus`). A first line that is not a
//! registered fn id still selects one (by a hash of the line), so every input reaches some handler.
//!
//! Checked: no panic, no hang (libFuzzer `-timeout`), no memory error (AddressSanitizer), no
//! runaway allocation (`-malloc_limit_mb`); an error has a stable snake_case kind and is never
//! `internal`; a result is JSON that reads back as itself; the same call answers the same twice.
//!
//! A custom mutator keeps most mutants valid JSON: it parses the document and replaces, deletes,
//! duplicates, wraps or splices one of its values (numbers and strings biased to the edges the
//! decision functions care about: zero, negative, int/percent, overflow, huge digit strings),
//! sometimes moves the document to another fn id, and otherwise falls back to libFuzzer's byte
//! mutations.
//!
//! Run: `RUSTC_BOOTSTRAP=1 cargo fuzz run registry_call corpus/registry_call seeds/registry_call`
//! (from `fuzz/`; see docs/fuzzing.md).
#![no_main]

use kruise_core::registry;
use libfuzzer_sys::{fuzz_mutator, fuzz_target, fuzzer_mutate};
use serde_json::{Map, Number, Value};
use std::sync::OnceLock;

fn ids() -> &'static [&'static str] {
    static IDS: OnceLock<Vec<&'static str>> = OnceLock::new();
    IDS.get_or_init(|| registry::fn_ids().collect())
}

/// Splits an input into (fn id, JSON bytes); an unregistered first line picks an id by hash.
fn split(data: &[u8]) -> (&'static str, &[u8]) {
    let (head, body) = match data.iter().position(|&b| b == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (&data[..0], data),
    };
    let ids = ids();
    if let Some(id) = ids.iter().find(|id| id.as_bytes() == head) {
        return (id, body);
    }
    let h = head
        .iter()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
    (ids[(h % ids.len() as u64) as usize], body)
}

fn is_kind(kind: &str) -> bool {
    let b = kind.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_lowercase()
        && b.iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'_')
}

fuzz_target!(
    init: {
        // One-time work outside the per-input timeout: the fn id table, and the image-reference
        // regex `api.default` compiles on first use (seconds under the sanitizer on a busy machine).
        let _ = ids();
        let warm = serde_json::json!({"now": "2026-01-01T00:00:00Z", "object": {
            "apiVersion": "apps.kruise.io/v1beta1", "kind": "SidecarSet", "metadata": {"name": "s"},
            "spec": {"containers": [{"name": "c", "image": "busybox"}]}}});
        let _ = registry::call("api.default", &warm);
    },
    |data: &[u8]| check(data)
);

/// One input: call its fn and judge the outcome.
fn check(data: &[u8]) {
    let (fn_id, body) = split(data);
    // The C ABI, the CLI and the Go binding read input the same way.
    let Ok(input) = serde_json::from_slice::<Value>(body) else { return };
    let first = registry::call(fn_id, &input);
    match &first {
        Ok(out) => {
            let text = serde_json::to_string(out).expect("a result serializes");
            let back: Value = serde_json::from_str(&text).expect("a result reads back");
            assert_eq!(&back, out, "{fn_id}: result does not read back as itself");
        }
        Err(e) => {
            assert!(is_kind(e.kind), "{fn_id}: error kind {:?} is not snake_case", e.kind);
            assert_ne!(e.kind, "internal", "{fn_id}: internal error: {e}");
            assert!(!e.message.is_empty(), "{fn_id}: empty error message");
        }
    }
    // Decision functions are pure: the same input answers the same.
    let second = registry::call(fn_id, &input);
    assert_eq!(first, second, "{fn_id}: two calls on the same input differ");
}

/// xorshift64*: a small deterministic generator seeded by libFuzzer's per-mutation seed.
struct Rng(u64);

impl Rng {
    fn new(seed: u32) -> Self {
        Rng((seed as u64) << 32 | 0x9e37_79b9 | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next() % n as u64) as usize }
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const INTS: &[i64] = &[
    0,
    1,
    -1,
    2,
    3,
    10,
    100,
    101,
    -100,
    1000,
    i32::MAX as i64,
    i32::MIN as i64,
    (1 << 31),
    (1 << 53) + 1,
    i64::MAX,
    i64::MIN,
    i64::MAX - 1,
    i64::MIN + 1,
];
const FLOATS: &[f64] = &[0.5, -0.5, 1.5, 1e-9, 1e18, 1e19, 9.3e18, 1e300, -1e300, 2.5e-324];
const STRINGS: &[&str] = &[
    "",
    "0",
    "1",
    "-1",
    "0%",
    "1%",
    "50%",
    "99%",
    "100%",
    "101%",
    "-1%",
    "1.5%",
    "%",
    "50%%",
    "99999999999999999999",
    "99999999999999999999%",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "1e400",
    "1E",
    "1Ei",
    "0.000000001",
    "1n",
    "100m",
    "1500m",
    "1k",
    "1Ki",
    "1Pi",
    "8Ei",
    "1e18",
    "1e-18",
    ".5",
    "5.",
    "+1",
    "--1",
    "0x10",
    " 1",
    "1 ",
    "NaN",
    "Infinity",
    "cpu",
    "memory",
    "cpu*50%",
    "max(cpu, 50m)",
    "(((((((((((1)))))))))))",
    "*/5 * * * *",
    "@every 1s",
    "@every 0s",
    "TZ=America/New_York 0 0 * * *",
    "CRON_TZ=Nope/Zone * * * * *",
    "0 0 30 2 *",
    "59 23 31 12 *",
    "1970-01-01T00:00:00Z",
    "9999-12-31T23:59:59Z",
    "0001-01-01T00:00:00Z",
    "2024-02-29T12:00:00+14:00",
    "2024-13-01T00:00:00Z",
    "Allow",
    "Forbid",
    "Replace",
    "Adaptive",
    "Fixed",
    "OnDelete",
    "RollingUpdate",
    "InPlaceIfPossible",
    "Recreate",
    "DELETE",
    "UPDATE",
    "CREATE",
    "EVICT",
    "Pod",
    "apps.kruise.io/v1alpha1",
    "apps.kruise.io/v1beta1",
    "v1.9.0",
    "v0.0.0",
    "1.2.3-rc.1+build",
    "a/b",
    "app",
    "é",
    "\u{0}",
    "\u{feff}",
];

fn huge_digits(rng: &mut Rng) -> String {
    let n = [64, 400, 4096, 20_001, 60_000][rng.below(5)];
    let mut s = String::with_capacity(n + 2);
    if rng.below(2) == 0 {
        s.push('-');
    }
    s.push('9');
    for _ in 1..n {
        s.push(char::from(b'0' + rng.below(10) as u8));
    }
    if rng.below(2) == 0 {
        s.push_str(["%", "m", "Ki", "e3", ".5"][rng.below(5)]);
    }
    s
}

fn interesting(rng: &mut Rng, keys: &[String]) -> Value {
    match rng.below(12) {
        0..=3 => Value::from(*rng.pick(INTS)),
        4 => Number::from_f64(*rng.pick(FLOATS)).map_or(Value::Null, Value::Number),
        5 => Value::from(u64::MAX),
        6..=8 => Value::from(*rng.pick(STRINGS)),
        9 => Value::from(huge_digits(rng)),
        10 => [Value::Null, Value::Bool(true), Value::Bool(false), Value::Array(vec![])]
            [rng.below(4)]
        .clone(),
        _ => {
            let mut m = Map::new();
            if !keys.is_empty() {
                m.insert(rng.pick(keys).clone(), Value::from(*rng.pick(INTS)));
            }
            Value::Object(m)
        }
    }
}

/// Every value's path in `v` (indices into arrays, keys into objects), the root first.
fn paths(v: &Value, here: &mut Vec<Step>, out: &mut Vec<Vec<Step>>, keys: &mut Vec<String>) {
    out.push(here.clone());
    match v {
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                here.push(Step::Index(i));
                paths(x, here, out, keys);
                here.pop();
            }
        }
        Value::Object(m) => {
            for (k, x) in m {
                keys.push(k.clone());
                here.push(Step::Key(k.clone()));
                paths(x, here, out, keys);
                here.pop();
            }
        }
        _ => {}
    }
}

#[derive(Clone)]
enum Step {
    Index(usize),
    Key(String),
}

fn at<'a>(v: &'a mut Value, path: &[Step]) -> &'a mut Value {
    path.iter().fold(v, |v, s| match s {
        Step::Index(i) => &mut v[*i],
        Step::Key(k) => &mut v[k.as_str()],
    })
}

fn mutate_string(rng: &mut Rng, s: &str) -> String {
    let mut buf = s.as_bytes().to_vec();
    let size = buf.len();
    let max = size + 16;
    buf.resize(max.max(1), 0);
    let n = if rng.below(4) == 0 { fuzzer_mutate(&mut buf, size, max) } else { size };
    buf.truncate(n);
    let mut out = String::from_utf8_lossy(&buf).into_owned();
    match rng.below(6) {
        0 => out.push('%'),
        1 => out.insert(0, '-'),
        2 => {
            const SUFFIXES: &[&str] = &["m", "Ki", "e3", "0", ".0"];
            let suffix = *rng.pick(SUFFIXES);
            out.push_str(suffix)
        }
        _ => {}
    }
    out
}

fn mutate_number(rng: &mut Rng, n: &Number) -> Value {
    if let Some(i) = n.as_i64() {
        let d = *rng.pick(&[1i64, -1, 2, -2, 10, 100]);
        match rng.below(4) {
            0 => Value::from(i.wrapping_add(d)),
            1 => Value::from(i.wrapping_neg()),
            2 => Value::from(i.wrapping_mul(d)),
            _ => Value::from(i.to_string()),
        }
    } else if let Some(u) = n.as_u64() {
        Value::from(u.wrapping_sub(rng.below(3) as u64))
    } else {
        let f = n.as_f64().unwrap_or(0.0);
        Number::from_f64(f * *rng.pick(&[-1.0, 0.5, 2.0, 1e10])).map_or(Value::Null, Value::Number)
    }
}

/// One structural mutation of `doc`; false when it found nothing to do.
fn mutate_json(rng: &mut Rng, doc: &mut Value) -> bool {
    let mut all = Vec::new();
    let mut keys = Vec::new();
    paths(doc, &mut Vec::new(), &mut all, &mut keys);
    let path = rng.pick(&all).clone();
    let donor = at(doc, &rng.pick(&all).clone()).clone();
    let node = at(doc, &path);
    match rng.below(10) {
        0 | 1 => *node = interesting(rng, &keys),
        2 => match node {
            Value::String(s) => *s = mutate_string(rng, s),
            Value::Number(n) => *node = mutate_number(rng, &n.clone()),
            Value::Bool(b) => *b = !*b,
            _ => *node = interesting(rng, &keys),
        },
        3 => match node {
            // delete a member or an element
            Value::Object(m) if !m.is_empty() => {
                let k = m.keys().nth(rng.below(m.len())).cloned().unwrap_or_default();
                m.remove(&k);
            }
            Value::Array(a) if !a.is_empty() => {
                a.remove(rng.below(a.len()));
            }
            _ => return false,
        },
        4 => match node {
            // duplicate an element, or add a member under a key seen elsewhere
            Value::Array(a) if !a.is_empty() && a.len() < 4096 => {
                let i = rng.below(a.len());
                let x = a[i].clone();
                let times = if rng.below(8) == 0 { 64 } else { 1 };
                for _ in 0..times {
                    a.insert(i, x.clone());
                }
            }
            Value::Object(m) if !keys.is_empty() => {
                m.insert(rng.pick(&keys).clone(), donor);
            }
            _ => return false,
        },
        5 => *node = donor,
        6 => {
            // wrap: nesting edges
            let inner = node.take();
            *node = if rng.below(2) == 0 {
                Value::Array(vec![inner])
            } else {
                let mut m = Map::new();
                m.insert(if keys.is_empty() { "x".into() } else { rng.pick(&keys).clone() }, inner);
                Value::Object(m)
            };
        }
        7 => match node {
            // rename a member (drops its key, keeps its value)
            Value::Object(m) if !m.is_empty() => {
                let k = m.keys().nth(rng.below(m.len())).cloned().unwrap_or_default();
                let v = m.remove(&k).unwrap_or_default();
                m.insert(mutate_string(rng, &k), v);
            }
            _ => return false,
        },
        8 => match node {
            Value::Array(a) if a.len() > 1 => {
                let (i, j) = (rng.below(a.len()), rng.below(a.len()));
                a.swap(i, j);
            }
            _ => *node = Value::Null,
        },
        _ => match node {
            Value::String(s) => *s = mutate_string(rng, s),
            Value::Number(n) => *node = mutate_number(rng, &n.clone()),
            _ => *node = interesting(rng, &keys),
        },
    }
    true
}

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    let mut rng = Rng::new(seed);
    if rng.below(5) == 0 {
        return fuzzer_mutate(data, size, max_size);
    }
    let (fn_id, body) = split(&data[..size]);
    let Ok(mut doc) = serde_json::from_slice::<Value>(body) else {
        return fuzzer_mutate(data, size, max_size);
    };
    let fn_id = if rng.below(16) == 0 { *rng.pick(ids()) } else { fn_id };
    for _ in 0..=rng.below(3) {
        mutate_json(&mut rng, &mut doc);
    }
    let Ok(text) = serde_json::to_string(&doc) else {
        return fuzzer_mutate(data, size, max_size);
    };
    let total = fn_id.len() + 1 + text.len();
    if total > max_size {
        return fuzzer_mutate(data, size, max_size);
    }
    data[..fn_id.len()].copy_from_slice(fn_id.as_bytes());
    data[fn_id.len()] = b'\n';
    data[fn_id.len() + 1..total].copy_from_slice(text.as_bytes());
    total
});
