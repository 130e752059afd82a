//! `kruise-core demo`: the ImagePullJob section (`imagepull.status`) on the seed v1.6 job
//! (`imagePullPolicy: Always`, `completionPolicy: Never`).

use std::process::Command;

fn section() -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_kruise-core"))
        .arg("demo")
        .output()
        .expect("binary runs");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.split("== ImagePullJob ==")
        .nth(1)
        .expect("the section is printed")
        .to_string()
}

#[test]
fn never_job_keeps_running_and_syncs_within_parallelism() {
    let s = section();
    let (never, always) = s
        .split_once("The same job with completionPolicy Always")
        .expect("both passes are printed");
    for line in [
        "imagePullPolicy Always, completionPolicy Never, parallelism 2\n",
        "NodeImage key nginx:stable, targets web-1, web-2, web-3, web-4, web-5\n",
        // web-1 pulled, web-2 pulling, web-3 failed: 2 of 5 answered
        "  status (update_status): desired 5, active 1, succeeded 1, failed 1 [web-3]: \"job is running, progress 40.0%\"\n",
        "  completed: no\n",
        "  not synced: web-4, web-5\n",
        // parallelism 2 less the one node pulling
        "  NodeImages updated now: web-4\n",
        // Never: one day less 600 s, plus up to 1199 s of jitter; deadline 1800 s (timeout 300 < 1800)
        "activeDeadlineSeconds 1800 s, ttlSecondsAfterFinished 85800..86999 s\n",
    ] {
        assert!(never.contains(line), "{line:?} missing from\n{never}");
    }
    for line in [
        // past the 1800 s deadline: the pulling and not-synced nodes fail too, in that order
        "failed 4 [web-3, web-2, web-4, web-5]: \"job exceeds activeDeadlineSeconds\"\n",
        "  completed: yes, at 2026-06-21T09:40:00Z\n",
        "  NodeImages updated now: none\n",
        // deadline 1800 + the manager's default 300
        "ttlSecondsAfterFinished 2100..2399 s\n",
    ] {
        assert!(always.contains(line), "{line:?} missing from\n{always}");
    }
}
