//! `kruise-core demo`: the WorkloadSpread controller section.

use std::process::Command;

#[test]
fn demo_prints_the_workloadspread_costs_and_statuses() {
    let out = Command::new(env!("CARGO_BIN_EXE_kruise-core"))
        .arg("demo")
        .output()
        .expect("binary runs");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let section = text
        .split("== WorkloadSpread controller ==")
        .nth(1)
        .expect("the section is printed");
    // zone-a is first of two subsets (cost 200); its third, unready pod is the surplus (-100); the
    // old pod on a zone-b node is taken over by zone-b (cost 100); the creating entry is 10s old.
    for line in [
        "  web-7d9f-a1   zone-a  deletion cost 200\n",
        "  web-7d9f-a3   zone-a  deletion cost -100\n",
        "  web-7d9f-old  zone-b  deletion cost 100 (taken over)\n",
        "  zone-a: replicas 3, missingReplicas 0, creating web-7d9f-new\n",
        "  zone-b: replicas 1, missingReplicas -1\n",
        "  requeue in 20s\n",
    ] {
        assert!(section.contains(line), "{line:?} missing from\n{section}");
    }
}
