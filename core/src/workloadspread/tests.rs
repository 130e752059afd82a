use super::reconcile::*;
use serde_json::json;

fn run(v: serde_json::Value) -> crate::error::Result<ReconcileOutput> {
    let i: ReconcileInput = serde_json::from_value(v).expect("input");
    reconcile(&i)
}

#[test]
fn no_target_ref_does_nothing() {
    let o =
        run(json!({"workloadSpread": {"metadata": {"name": "ws"}}, "now": "2024-01-01T00:00:00Z"}))
            .unwrap();
    assert_eq!(o, ReconcileOutput::default());
}
