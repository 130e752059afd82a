use serde_json::{Value, json};

fn call(input: Value) -> Value {
    crate::call("jobsidecar.decide", &input).unwrap()
}

fn job(env: Value, main_exit: Value, sidecar_state: Value) -> Value {
    json!({
        "pod": {
            "metadata": {"name": "j", "uid": "u1"},
            "spec": {"nodeName": "n", "restartPolicy": "Never",
                     "containers": [{"name": "main"}, {"name": "s", "image": "img", "env": env}]},
            "status": {"phase": "Running", "containerStatuses": [
                {"name": "main", "state": {"terminated": {"exitCode": main_exit}}},
                {"name": "s", "state": sidecar_state}]}
        },
        "node": {"metadata": {"name": "n"}}
    })
}

#[test]
fn normal_sidecar_gets_a_crr_named_after_the_uid() {
    let out = call(job(
        json!([{"name": "KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT", "value": "True"}]),
        json!(3),
        json!({"running": {}}),
    ));
    assert_eq!(out["handled"], true);
    assert_eq!(
        out["containerRecreateRequest"],
        json!({"name": "sidecar-termination-u1", "podName": "j", "containers": ["s"]})
    );
    assert_eq!(out["statusPatch"], Value::Null);
    assert_eq!(out["phase"], "Running");
}

#[test]
fn ignore_exit_code_patches_the_phase_from_the_main_containers() {
    let env = json!([
        {"name": "KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT", "value": "true"},
        {"name": "KRUISE_TERMINATE_SIDECAR_IGNORE_EXIT_CODE", "value": "true"}
    ]);
    let ok = call(job(env.clone(), json!(0), json!(null)));
    assert_eq!(
        ok["statusPatch"],
        json!({"phase": "Succeeded", "conditionType": "SidecarTerminated"})
    );
    let failed = call(job(env.clone(), json!(2), json!(null)));
    assert_eq!(failed["phase"], "Failed");
    // the sidecar already terminated: not handled at all.
    let done = call(job(env, json!(0), json!({"terminated": {"exitCode": 137}})));
    assert_eq!(done["handled"], false);
    assert_eq!(done["phase"], "Running");
}

#[test]
fn null_members_read_as_zero_values() {
    let mut input = job(
        json!([null, {"name": "KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT", "value": "true"}]),
        json!(null),
        json!({"running": {}}),
    );
    input["containerRecreateRequestExists"] = Value::Null;
    let out = call(input);
    assert_eq!(out["containerRecreateRequest"]["containers"], json!(["s"]));
}

#[test]
fn bad_types_name_the_field() {
    let mut input = job(json!([]), json!(0), json!({}));
    input["pod"]["status"]["containerStatuses"][0]["state"]["terminated"]["exitCode"] =
        json!(4_294_967_296_i64);
    let err = crate::call("jobsidecar.decide", &input).unwrap_err();
    assert_eq!(err.kind, "invalid_input");
    assert!(err.message.contains("exitCode"), "{}", err.message);
    let err = crate::call("jobsidecar.decide", &json!({"pod": {}, "extra": 1})).unwrap_err();
    assert_eq!(err.kind, "invalid_input");
}
