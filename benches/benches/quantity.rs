#![allow(missing_docs)] // criterion_group! generates undocumented public items
//! Criterion benchmarks of the quantity parser on over-long numbers: one megabyte of digits.
//!
//! Run: `cargo bench -p kruise-benches --bench quantity`. The parser must answer in time linear in
//! the text: `quantity/long/digits_1mb` is refused (`quantity_out_of_range`, more than 20,000
//! significant digits) after one scan, where building the big integer first took seconds;
//! `quantity/long/leading_zeros_1mb` (a megabyte of zeros after the point, then one digit) is
//! accepted (it rounds up to `1n`) in one scan too. `quantity/short/*` are ordinary quantities for
//! scale.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kruise_core::quantity::{Quantity, QuantityError};
use std::hint::black_box;

const MB: usize = 1 << 20;

fn long(c: &mut Criterion) {
    let digits = "7".repeat(MB);
    let zeros = format!("0.{}1", "0".repeat(MB));
    assert_eq!(
        Quantity::parse(&digits).unwrap_err(),
        QuantityError::TooLarge
    );
    assert_eq!(Quantity::parse(&zeros).unwrap().to_string(), "1n");
    let mut g = c.benchmark_group("quantity/long");
    g.throughput(Throughput::Bytes(MB as u64));
    g.bench_function("digits_1mb", |b| {
        b.iter(|| black_box(Quantity::parse(black_box(&digits))).is_err())
    });
    g.bench_function("leading_zeros_1mb", |b| {
        b.iter(|| black_box(Quantity::parse(black_box(&zeros))).is_ok())
    });
    g.finish();
}

fn short(c: &mut Criterion) {
    let mut g = c.benchmark_group("quantity/short");
    for q in ["1500m", "1Gi", "0.1", "123456789012345678901234567890"] {
        g.bench_function(q, |b| {
            b.iter(|| black_box(Quantity::parse(black_box(q))).is_ok())
        });
    }
    g.finish();
}

criterion_group!(benches, long, short);
criterion_main!(benches);
