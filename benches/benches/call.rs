//! The generic call path every binding takes (`kruise_call`, Python `call_json`, wasm `call`):
//! JSON text in, the registry's typed handler, JSON text out.
#![allow(missing_docs)] // criterion_group! generates an undocumented `pub fn benches`

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

const CASES: &[(&str, &str, &str)] = &[
    (
        "resources.eval",
        "resources.eval",
        r#"{"expr":"max(cpu * 50%, 50m)","variables":{"cpu":"200m"}}"#,
    ),
    (
        "rollout.scale_int_or_percent",
        "rollout.scale_int_or_percent",
        r#"{"value":"90%","total":95,"roundUp":true,"mode":"scaled"}"#,
    ),
];

fn call(c: &mut Criterion) {
    let mut g = c.benchmark_group("call");
    for (name, id, input) in CASES {
        g.bench_function(format!("{name}/text"), |b| {
            b.iter(|| kruise_core::registry::call_text(black_box(id), black_box(input)).unwrap())
        });
        g.bench_function(format!("{name}/value"), |b| {
            b.iter(|| {
                let v: serde_json::Value = serde_json::from_str(black_box(input)).unwrap();
                kruise_core::registry::call(black_box(id), &v)
                    .unwrap()
                    .to_string()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, call);
criterion_main!(benches);
