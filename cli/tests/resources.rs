//! `kruise-core demo` and `explain sidecarset` on the seed SidecarSet and example pod.

use std::process::Command;

fn run(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kruise-core"))
        .args(args)
        .output()
        .expect("binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn demo_prints_the_seed_sidecar_resources() {
    let (ok, text) = run(&["demo"]);
    assert!(ok);
    assert!(text.contains("targets: large-engine-v4\n"), "{text}");
    // large-engine-v4: limits cpu 2 -> max(1, 50m) = 1; requests cpu 1500m -> 750m.
    assert!(
        text.contains(r#"result: resources: {"limits":{"cpu":"1","memory":"200Mi"},"requests":{"cpu":"750m","memory":"100Mi"}}"#),
        "{text}"
    );
}

#[test]
fn explain_sidecarset_with_user_files() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let set = format!("{dir}/examples/resources/sidecarset.yaml");
    let pod = format!("{dir}/examples/resources/pod.yaml");
    let (ok, text) = run(&["explain", "sidecarset", &set, "--pods", &pod]);
    assert!(ok);
    assert!(
        text.contains("requests.cpu     max(cpu*50%, 50m)        with cpu = 1500m    -> 750m"),
        "{text}"
    );
}

#[test]
fn demo_injects_the_v19_device_sharing_sidecarset() {
    let (ok, text) = run(&["demo"]);
    assert!(ok);
    // AfterAppContainer: after db; shareVolumeDevicePolicy shares db's block device, shareVolumePolicy
    // its mount, transferEnv its DB_NAME (pkg/webhook/pod/mutating/sidecarset_test.go
    // TestPodVolumeDevicesAppend, TestPodVolumeMountsAppend, TestSidecarSetTransferEnv).
    assert!(text.contains("  containers: db, disk-agent\n"), "{text}");
    assert!(
        text.contains("sidecar disk-agent: env [IS_INJECTED, DB_NAME], mounts [/etc/agent, /var/log/db], devices [/dev/xvda]"),
        "{text}"
    );
    assert!(
        text.contains("kruise.io/sidecarset-injected-list: disk-agent\n"),
        "{text}"
    );
}
