//! Compiled evaluation performs zero heap allocations (counted with a global allocator).
//!
//! Quantities on apimachinery's int64 fast path (every canonical quantity, every aggregate) are
//! allocation-free; texts that Kubernetes itself parses through `inf.Dec` (a binary suffix with a
//! fraction such as `1.5Gi`, more than 18 digits, sub-nano fractions) allocate a big decimal.

use kruise_core::resources::{Expression, Value, Var};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use std::alloc::System;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

#[test]
fn compiled_eval_does_not_allocate() {
    let exprs = [
        "max(cpu * 50%, 50m)",
        "(cpu1 + cpu2) * 50%",
        "max(min(100m, 200m), 150m)",
        "0.5*cpu - 0.3*max(0, cpu-4) + 0.3*max(0, cpu-8)",
        "memory * 30% + 100Mi",
        "2 + 3",
    ];
    let compiled: Vec<Expression> = exprs
        .iter()
        .map(|e| Expression::compile(e).unwrap())
        .collect();
    let vars = [
        ("cpu", Var::Quantity("1500m")),
        ("cpu1", Var::Quantity("200m")),
        ("cpu2", Var::Number(0.4)),
        ("memory", Var::Quantity("1536Mi")),
    ];
    let mut checksum = 0i64;
    let region = Region::new(GLOBAL);
    for _ in 0..1000 {
        for e in &compiled {
            match e.eval(&vars) {
                Ok(Value::Quantity(q)) => checksum = checksum.wrapping_add(q.milli_value()),
                Ok(Value::Number(n)) => checksum = checksum.wrapping_add(n as i64),
                Err(_) => checksum -= 1,
            }
        }
    }
    let stats = region.change();
    assert_eq!(
        stats.allocations, 0,
        "allocations during 6000 compiled evals: {stats:?}"
    );
    assert_eq!(
        checksum,
        1000 * (750 + 300 + 150 + 750 + 588_041_420_800 + 5)
    );
    one_pass_eval_does_not_allocate();
}

/// Called from [`compiled_eval_does_not_allocate`]: the allocation counter is global, so the
/// measurements must not run on parallel test threads.
fn one_pass_eval_does_not_allocate() {
    let vars = [("cpu", Var::Quantity("200m"))];
    let exprs = [
        "max(cpu * 50%, 50m)",
        "(10 + 20) * 3 - 5",
        "max(min(100m, 200m), 150m)",
        "1000Gi + 500Gi",
    ];
    let region = Region::new(GLOBAL);
    let mut ok = 0;
    for _ in 0..1000 {
        for e in exprs {
            ok += usize::from(Expression::eval_once(e, &vars).is_ok());
        }
    }
    let stats = region.change();
    assert_eq!(
        stats.allocations, 0,
        "allocations during 4000 one-pass evals: {stats:?}"
    );
    assert_eq!(ok, 4000);
}
