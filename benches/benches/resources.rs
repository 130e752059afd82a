#![allow(missing_docs)] // criterion_group! generates undocumented public items
//! Resource expressions: parse+eval of OpenKruise's own calculator benchmark set
//! (`pkg/util/calculator/benchmark_test.go`), and eval of an already compiled expression.
//!
//! Run: `cargo bench -p kruise-benches --bench resources`. Before measuring, it prints the
//! number of heap allocations of one compiled evaluation (counted by a global allocator).

use criterion::{Criterion, criterion_group, criterion_main};
use kruise_core::resources::{Expression, Var};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use std::alloc::System;
use std::hint::black_box;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// OpenKruise's benchmark set (the `cpu` cases bind `cpu` to a quantity).
const SET: &[(&str, &str)] = &[
    ("simple_add", "2 + 3"),
    ("complex", "(10 + 20) * 3 - 5"),
    ("percentage", "100 * 50%"),
    ("quantity_add", "100m + 50m"),
    ("quantity_complex", "(100m + 50m) * 2"),
    ("large_quantity", "1000Gi + 500Gi"),
    ("max", "max(100m, 200m)"),
    ("nested_func", "max(min(100m, 200m), 150m)"),
    ("var_mul", "cpu * 2"),
    ("sidecar_cpu", "max(cpu * 50%, 50m)"),
];

const VARS: &[(&str, Var<'static>)] = &[("cpu", Var::Quantity("200m"))];

/// Parse + evaluate in one pass, returning the value ([`Expression::eval_once`]): what the
/// reference's `Parse` does (it evaluates while parsing and returns a `*Value`; its bench binds
/// `cpu` to an already parsed quantity, while here `cpu` is quantity text parsed on every call).
/// `parse_eval_print` also prints the result into a fresh `String` (what `resources.eval`
/// returns), which the reference's bench does not do.
fn parse_and_eval(c: &mut Criterion) {
    let mut g = c.benchmark_group("resources/parse_eval");
    for (name, expr) in SET {
        g.bench_function(*name, |b| {
            b.iter(|| {
                black_box(
                    Expression::eval_once(black_box(expr), black_box(VARS)).expect("evaluates"),
                )
            })
        });
    }
    g.finish();
    let mut g = c.benchmark_group("resources/parse_eval_print");
    for (name, expr) in SET {
        g.bench_function(*name, |b| {
            b.iter(|| {
                black_box(
                    Expression::eval_once_to_string(black_box(expr), black_box(VARS))
                        .expect("evaluates"),
                )
            })
        });
    }
    g.finish();
    // Building a reusable `Expression` first (allocates the program), then evaluating it once.
    let mut g = c.benchmark_group("resources/compile_then_eval");
    for (name, expr) in SET {
        g.bench_function(*name, |b| {
            b.iter(|| {
                let e = Expression::compile(black_box(expr)).expect("valid");
                black_box(e.eval_to_string(black_box(VARS)).expect("evaluates"))
            })
        });
    }
    g.finish();
}

fn compiled_eval(c: &mut Criterion) {
    // Allocation count of one compiled evaluation, per expression.
    for (name, expr) in SET {
        let e = Expression::compile(expr).expect("valid");
        let region = Region::new(GLOBAL);
        let v = e.eval(VARS).expect("evaluates");
        let allocs = region.change().allocations;
        println!("allocations per compiled eval of {name:<16} ({expr}): {allocs} -> {v}");
    }
    let mut g = c.benchmark_group("resources/compiled_eval");
    for (name, expr) in SET {
        let e = Expression::compile(expr).expect("valid");
        g.bench_function(*name, |b| {
            b.iter(|| black_box(e.eval(black_box(VARS)).is_ok()))
        });
    }
    g.finish();
}

criterion_group!(benches, parse_and_eval, compiled_eval);
criterion_main!(benches);
