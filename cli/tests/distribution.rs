//! `kruise-core demo`: the ResourceDistribution section on the seed distribution.

use std::process::Command;

#[test]
fn demo_prints_the_distribution_actions() {
    let out = Command::new(env!("CARGO_BIN_EXE_kruise-core"))
        .arg("demo")
        .output()
        .expect("binary runs");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let section = text
        .split("== ResourceDistribution targets ==")
        .nth(1)
        .expect("the section is printed");
    // the excluded sandbox stays out although labelled team=web; billing is included but missing;
    // tools' copy belongs to another controller; legacy's copy is this distribution's and goes.
    for line in [
        "  matched:   billing, tools, web-dev, web-prod\n",
        "  unmatched: legacy, sandbox\n",
        "  tools      conflict\n",
        "  web-prod   update\n",
        "  legacy     delete\n",
        "  status: desired 4, succeeded 2, failed 2\n",
    ] {
        assert!(section.contains(line), "{line:?} missing from\n{section}");
    }
}

#[test]
fn demo_prints_the_webhook_answers() {
    let out = Command::new(env!("CARGO_BIN_EXE_kruise-core"))
        .arg("demo")
        .output()
        .expect("binary runs");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let section = text
        .split("Validating webhook (distribution.validate):\n")
        .nth(1)
        .expect("the webhook part is printed");
    assert!(
        section.starts_with("  create as written: allowed (200)\n"),
        "{section}"
    );
    for line in [
        "  update renaming the Secret, including sandbox and Team_B: DENIED (422)\n",
        "    spec.resource [FieldValueInvalid]: resource apiVersion, kind, and name are immutable\n",
        "    spec.targets.includedNamespaces [FieldValueInvalid]: a lowercase RFC 1123 label must consist",
        "    spec.targets [FieldValueInvalid]: ambiguous targets because namespace [sandbox] is in both IncludedNamespaces.List and ExcludedNamespaces.List\n",
    ] {
        assert!(section.contains(line), "{line:?} missing from\n{section}");
    }
}
