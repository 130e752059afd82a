//! Behaviour pins for the cron family, checked against robfig/cron v3.0.1 run with Go 1.26's
//! embedded tzdata (see docs/cron.md, "How this was checked").

use super::*;
use crate::registry::call;
use serde_json::json;

fn ts(s: &str) -> jiff::Timestamp {
    s.parse().unwrap()
}

fn chain(spec: &str, zone: &str, after: &str, n: usize) -> Vec<String> {
    let s = Schedule::parse(spec).unwrap();
    let z = Zone::load(zone).unwrap();
    let mut out = [ts("1970-01-01T00:00:00Z"); 8];
    let k = s.next_n(ts(after), &z, &mut out[..n]);
    out[..k].iter().map(|t| t.to_string()).collect()
}

#[test]
fn new_york_dst() {
    // robfig spec_test.go: a 02:30 job is skipped on spring-forward day...
    assert_eq!(
        chain("30 2 * * *", "America/New_York", "2026-03-07T12:00:00Z", 2),
        ["2026-03-09T06:30:00Z", "2026-03-10T06:30:00Z"]
    );
    // ...and a 01:30 job runs twice on fall-back day (EDT, then EST).
    assert_eq!(
        chain("30 1 * * *", "America/New_York", "2026-10-31T12:00:00Z", 3),
        [
            "2026-11-01T05:30:00Z",
            "2026-11-01T06:30:00Z",
            "2026-11-02T06:30:00Z"
        ]
    );
    // Hourly across the fall-back hour: 01:00 EDT and 01:00 EST both fire.
    assert_eq!(
        chain("0 * * * *", "America/New_York", "2026-11-01T04:30:00Z", 3),
        [
            "2026-11-01T05:00:00Z",
            "2026-11-01T06:00:00Z",
            "2026-11-01T07:00:00Z"
        ]
    );
}

#[test]
fn midnight_transition_zone() {
    // Go (robfig v3.0.1, tzdata 2025c) agrees: Havana's midnight does not exist on 2026-03-08.
    assert_eq!(
        chain("0 0 * * *", "America/Havana", "2026-03-07T12:00:00Z", 2),
        ["2026-03-09T04:00:00Z", "2026-03-10T04:00:00Z"]
    );
}

#[test]
fn impossible_schedules_end_fast_with_none() {
    let s = Schedule::parse("0 0 30 2 *").unwrap();
    let start = std::time::Instant::now();
    assert_eq!(s.next(ts("2026-01-01T00:00:00Z")), None);
    let s = Schedule::parse(",").unwrap_err();
    assert_eq!(s.kind, "wrong_field_count");
    let s = Schedule::parse(", * * * *").unwrap();
    assert_eq!(s.next(ts("2026-01-01T00:00:00Z")), None);
    assert!(start.elapsed() < std::time::Duration::from_secs(1));
}

#[test]
fn dom_dow_star_rule() {
    // `*/1` keeps the star flag: Fridays only. `1-31` has none: every day (OR).
    assert_eq!(
        chain("0 0 */1 * 5", "UTC", "2026-06-01T00:00:00Z", 2),
        ["2026-06-05T00:00:00Z", "2026-06-12T00:00:00Z"]
    );
    assert_eq!(
        chain("0 0 1-31 * 5", "UTC", "2026-06-01T00:00:00Z", 2),
        ["2026-06-02T00:00:00Z", "2026-06-03T00:00:00Z"]
    );
    assert_eq!(
        chain("0 0 13 * 5", "UTC", "2026-06-01T00:00:00Z", 3),
        [
            "2026-06-05T00:00:00Z",
            "2026-06-12T00:00:00Z",
            "2026-06-13T00:00:00Z"
        ]
    );
}

#[test]
fn every_ignores_zone_and_drops_fraction() {
    let s = Schedule::parse("TZ=Asia/Tokyo @every 90s").unwrap();
    assert_eq!(
        s.next(ts("2026-06-21T10:00:00.9Z")).unwrap().to_string(),
        "2026-06-21T10:01:30Z"
    );
    assert_eq!(
        Schedule::parse("@every 1.9s").unwrap().kind(),
        &Kind::Every { seconds: 1 }
    );
    assert_eq!(
        Schedule::parse("@every -5s").unwrap().kind(),
        &Kind::Every { seconds: 1 }
    );
    assert_eq!(
        Schedule::parse("@every 1d").unwrap_err().kind,
        "invalid_duration"
    );
    assert_eq!(
        Schedule::parse("@every").unwrap_err().kind,
        "unrecognized_descriptor"
    );
    assert_eq!(
        Schedule::parse("@daily ").unwrap_err().kind,
        "unrecognized_descriptor"
    );
    assert!(Schedule::parse("TZ=UTC @daily ").is_ok());
}

#[test]
fn parser_error_kinds() {
    for (spec, kind) in [
        ("TZ=UTC", "tz_prefix_without_fields"),
        ("TZ=utc 0 0 * * *", "unknown_location"),
        ("* * * * * *", "wrong_field_count"),
        ("*/-1 * * * *", "negative_number"),
        ("-5 * * * *", "invalid_number"),
        ("0 0 * * MON-SUN", "range_start_after_end"),
        ("0 0 * * 0-7", "above_maximum"),
        ("0 0 L * *", "invalid_number"),
        ("0 0 * * 1#2", "invalid_number"),
        ("x-1-2 * * * *", "invalid_number"),
        ("1-2-3/4/5 * * * *", "too_many_hyphens"),
        ("1/2/3 * * * *", "too_many_slashes"),
        ("0 0 * * monday", "invalid_number"),
    ] {
        assert_eq!(Schedule::parse(spec).unwrap_err().kind, kind, "{spec}");
    }
    // `*-5` is `*`; `+5` and `05` are 5; `?` works everywhere.
    let s = Schedule::parse("*-5 +5 05 ? ?").unwrap();
    let Kind::Spec(f) = s.kind() else {
        panic!("spec")
    };
    assert_eq!(
        (f.minutes, f.hours, f.days_of_month),
        ((1u64 << 60) - 1, 1 << 5, 1 << 5)
    );
}

#[test]
fn time_zone_field_like_format_schedule() {
    assert_eq!(
        effective_schedule("0 10 * * *", Some("Asia/Shanghai")),
        "TZ=Asia/Shanghai 0 10 * * *"
    );
    assert_eq!(
        effective_schedule("TZ=UTC 0 10 * * *", Some("Asia/Shanghai")),
        "TZ=UTC 0 10 * * *"
    );
    assert_eq!(
        effective_schedule("0 10 * * *", Some("Nowhere/Land")),
        "0 10 * * *"
    );
    // An empty timeZone loads as UTC.
    let s = Schedule::parse_with_time_zone("0 10 * * *", Some("")).unwrap();
    assert_eq!(s.location().name(), Some("UTC"));
}

#[test]
fn local_schedule_uses_callers_zone() {
    let s = Schedule::parse("0 9 * * *").unwrap();
    let tokyo = Zone::load("Asia/Tokyo").unwrap();
    assert_eq!(
        s.next_in(ts("2026-06-21T00:00:00Z"), &tokyo)
            .unwrap()
            .to_string(),
        "2026-06-22T00:00:00Z"
    );
    assert_eq!(
        s.next(ts("2026-06-21T00:00:00Z")).unwrap().to_string(),
        "2026-06-21T09:00:00Z"
    );
}

#[test]
fn decide_zero_deadline_never_creates() {
    let out = call(
        "cron.decide",
        &json!({"name": "a", "creationTimestamp": "2026-06-21T08:00:00Z", "now": "2026-06-21T10:00:00Z",
                "spec": {"schedule": "0 * * * *", "startingDeadlineSeconds": 0, "template": {"jobTemplate": {}}},
                "jobs": []}),
    )
    .unwrap();
    assert_eq!(out["action"], "skip");
    assert_eq!(out["reason"], "no_missed_start");
    assert_eq!(out["requeueAfterSeconds"], 3600);
}

#[test]
fn decide_overflowing_deadline_schedules_nothing() {
    let out = call(
        "cron.decide",
        &json!({"name": "a", "creationTimestamp": "2026-06-21T08:00:00Z", "now": "2026-06-21T10:00:00Z",
                "spec": {"schedule": "0 * * * *", "startingDeadlineSeconds": 10_000_000_000i64, "template": {"jobTemplate": {}}}}),
    )
    .unwrap();
    assert_eq!(out["reason"], "no_missed_start");
}

#[test]
fn decide_impossible_schedule_is_too_many_missed() {
    let out = call(
        "cron.decide",
        &json!({"name": "a", "creationTimestamp": "2026-06-21T08:00:00Z", "now": "2026-06-21T10:00:00Z",
                "spec": {"schedule": "0 0 30 2 *", "template": {"jobTemplate": {}}}}),
    )
    .unwrap();
    assert_eq!(out["action"], "error");
    assert_eq!(out["reason"], "too_many_missed_starts");
    assert_eq!(out["requeueAfterSeconds"], serde_json::Value::Null);
}

#[test]
fn decide_paused_and_unparsable_still_prune() {
    let jobs = json!([{"name": "old", "state": "succeeded", "startTime": "2026-06-21T08:00:00Z"}]);
    for (spec, action, reason) in [
        (
            json!({"schedule": "0 * * * *", "paused": true, "successfulJobsHistoryLimit": 0}),
            "paused",
            "paused",
        ),
        (
            json!({"schedule": "bad", "successfulJobsHistoryLimit": 0}),
            "error",
            "unparsable_schedule",
        ),
    ] {
        let out = call(
            "cron.decide",
            &json!({"name": "a", "creationTimestamp": "2026-06-21T08:00:00Z", "now": "2026-06-21T10:00:00Z",
                    "spec": spec, "jobs": jobs}),
        )
        .unwrap();
        assert_eq!(
            (out["action"].as_str(), out["reason"].as_str()),
            (Some(action), Some(reason))
        );
        assert_eq!(out["historyDeletes"], json!(["old"]));
        assert_eq!(out["type"], "BroadcastJob");
    }
}

#[test]
fn prune_int32_wrap() {
    let jobs = json!([{"name": "a", "state": "failed"}, {"name": "b", "state": "failed", "startTime": "2026-01-01T00:00:00Z"}]);
    let out = call(
        "cron.prune",
        &json!({"failedJobsHistoryLimit": -1, "jobs": jobs}),
    )
    .unwrap();
    assert_eq!(out, json!(["a", "b"]));
    let out = call(
        "cron.prune",
        &json!({"failedJobsHistoryLimit": i32::MIN, "jobs": jobs}),
    )
    .unwrap();
    assert_eq!(out, json!([]));
}

#[test]
fn validate_local_zone_gets_two_errors() {
    let out = call(
        "cron.validate",
        &json!({"spec": {"schedule": "0 0 * * *", "timeZone": "local", "template": {"jobTemplate": {}}}}),
    )
    .unwrap();
    assert_eq!(
        out,
        json!([{"field": "spec.timeZone", "kind": "timezone_local"}, {"field": "spec.timeZone", "kind": "timezone_unknown"}])
    );
}

#[test]
fn validate_ilpj_images_and_timeout() {
    let base = |images: serde_json::Value, extra: serde_json::Value| {
        let mut spec = json!({"images": images, "completionPolicy": {"type": "Always", "activeDeadlineSeconds": 100}});
        if let (Some(s), Some(e)) = (spec.as_object_mut(), extra.as_object()) {
            s.extend(e.clone());
        }
        call(
            "cron.validate",
            &json!({"spec": {"schedule": "0 0 * * *", "concurrencyPolicy": "Replace",
                              "template": {"imageListPullJobTemplate": {"spec": spec}}}}),
        )
        .unwrap()
    };
    assert_eq!(
        base(json!(["Busybox:latest"]), json!({}))[0]["kind"],
        "invalid_image"
    );
    assert_eq!(
        base(
            json!(["busybox:latest"]),
            json!({"pullPolicy": {"timeoutSeconds": 600}})
        )[0]["kind"],
        "active_deadline_below_timeout"
    );
    assert_eq!(
        base(json!(["a"; 256].to_vec()), json!({}))[0]["kind"],
        "images_too_many"
    );
    assert_eq!(
        base(
            json!(["busybox"]),
            json!({"selector": {"names": ["n", "n"]}})
        )[0]["kind"],
        "duplicate_selector_names"
    );
    assert_eq!(
        base(
            json!(["busybox"]),
            json!({"podSelector": {"matchExpressions": [{"key": "k", "operator": "In", "values": []}]}})
        )[0]["kind"],
        "invalid_label_selector"
    );
    assert_eq!(base(json!(["busybox"]), json!({})), json!([]));
}

#[test]
fn job_state_first_finishing_condition_wins() {
    let out = call(
        "cron.jobState",
        &json!({"kind": "Job", "status": {"conditions": [{"type": "Suspended", "status": "True"}, {"type": "Failed", "status": "True"}, {"type": "Complete", "status": "True"}]}}),
    )
    .unwrap();
    assert_eq!(out, "failed");
}

/// Within the family one `$defs` name means one shape (the code generator merges a family's
/// definitions by name).
#[test]
fn schema_names_mean_one_shape_across_the_family() {
    let mut seen: std::collections::BTreeMap<String, (&str, serde_json::Value)> =
        Default::default();
    for e in ENTRIES {
        let schema = e.schema().expect("every cron fn is typed");
        for (name, def) in schema["$defs"].as_object().unwrap() {
            if name == "input" || name == "output" {
                continue;
            }
            match seen.get(name) {
                Some((other, d)) => {
                    assert_eq!(d, def, "$defs.{name} differs between {other} and {}", e.id)
                }
                None => {
                    seen.insert(name.clone(), (e.id, def.clone()));
                }
            }
        }
    }
    assert!(seen.contains_key("JobState") && seen.contains_key("ChildKind"));
}

/// `cron.children` typed: the controller reference decides, by owner name, not uid.
#[test]
fn children_typed_follow_the_controller_reference() {
    let input: ChildrenInput = serde_json::from_value(json!({
        "advancedCronJob": {"metadata": {"name": "acj", "namespace": "ns"},
                            "spec": {"template": {"imageListPullJobTemplate": {}}}},
        "jobs": [
            {"kind": "ImageListPullJob", "metadata": {"name": "mine", "namespace": "ns", "ownerReferences": [
                {"apiVersion": "apps.kruise.io/v1beta1", "kind": "AdvancedCronJob", "name": "acj", "uid": "old", "controller": true}]}},
            {"kind": "ImageListPullJob", "metadata": {"name": "orphan", "namespace": "ns"}},
            {"kind": "Job", "metadata": {"name": "job", "namespace": "ns", "ownerReferences": [
                {"apiVersion": "apps.kruise.io/v1beta1", "kind": "AdvancedCronJob", "name": "acj", "controller": true}]}}
        ]
    }))
    .unwrap();
    let out = crate::decide::<fns::Children>(input).unwrap();
    assert_eq!(
        out,
        ChildrenOutput {
            kind: ChildKind::ImageListPullJob,
            owned: vec![0],
            names: vec!["mine".into()]
        }
    );
}
