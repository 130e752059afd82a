//! `cron` in the demo and in `explain advancedcronjob`: defaults, validation, the effective
//! schedule, the next fire times and one reconcile decision, all through `kruise_core::cron`.

use super::{DemoArgs, ExplainArgs};
use crate::CliError;
use crate::input;
use kruise_core::cron::{self, Schedule, Zone};
use serde_json::{Value, json};
use std::fmt::Write;

/// The v1.9 release-notes manifest: image pre-pull every two hours, `concurrencyPolicy: Replace`.
const SEED: &str = include_str!("../../examples/cron/acj-image-pull.yaml");
/// The fixed "now" used when `--now` is not given.
const DEFAULT_NOW: &str = "2026-06-21T10:00:05Z";
/// Annotation holding a child's nominal fire time.
const SCHEDULED_AT: &str = "apps.kruise.io/scheduled-at";

/// Demo: the seed's next five fire times, and the decision at 10:00:05 while the 08:00
/// ImageListPullJob is still running (Replace deletes it and creates the 10:00 one).
pub fn demo(_args: &DemoArgs) -> Result<String, CliError> {
    let acj = input::parse_one(SEED, "cli/examples/cron/acj-image-pull.yaml")?;
    let previous = json!({
        "apiVersion": "apps.kruise.io/v1beta1",
        "kind": "ImageListPullJob",
        "metadata": {"name": "acj-image-pull-1782028800",
                     "annotations": {SCHEDULED_AT: "2026-06-21T08:00:00Z"},
                     "ownerReferences": [{"apiVersion": "apps.kruise.io/v1beta1", "kind": "AdvancedCronJob",
                                          "name": "acj-image-pull", "uid": "6b0f4c1e-0000-4000-8000-000000000001",
                                          "controller": true, "blockOwnerDeletion": true}]},
        "status": {"desired": 2, "succeeded": 1, "startTime": "2026-06-21T08:00:01Z"}
    });
    let mut out = String::from(
        "acj-image-pull (v1.9 release notes), created 2026-06-21T07:30:00Z; the ImageListPullJob of the\n\
         08:00 slot is still pulling when the controller reconciles at 10:00:05.\n",
    );
    out.push_str(&explain_value(
        &acj,
        &[previous],
        DEFAULT_NOW,
        Some("2026-06-21T07:30:00Z"),
    )?);
    Ok(out)
}

/// `kruise-core explain advancedcronjob FILE [--jobs FILE] [--now TIME]`.
pub fn explain(args: &ExplainArgs) -> Result<String, CliError> {
    let now = input::parse_now(args.now.as_deref())?;
    let acj = input::read_kind(args.manifest(), "AdvancedCronJob")?;
    // The children may be Jobs, BroadcastJobs or ImageListPullJobs: `cron.children` keeps those of
    // the template's kind.
    let jobs = match &args.jobs {
        Some(p) => input::read_items(p)?,
        None => Vec::new(),
    };
    crate::report::result("now", json!(now));
    explain_value(&acj, &jobs, &now, None)
}

fn s<'a>(v: &'a Value, path: &[&str]) -> Option<&'a str> {
    path.iter()
        .try_fold(v, |v, k| v.get(*k))
        .and_then(Value::as_str)
}

/// The children of the ACJ among `jobs`, as the controller lists them (`cron.children`): the
/// template's kind, and of those the objects in its namespace (any, when the manifest names none)
/// whose controller owner reference names it. Answers the listed kind and the owned jobs.
fn owned_children<'a>(
    acj: &Value,
    name: &str,
    spec: &Value,
    jobs: &'a [Value],
) -> Result<(String, Vec<&'a Value>), CliError> {
    let input = json!({
        "advancedCronJob": {
            "metadata": {"name": name, "namespace": s(acj, &["metadata", "namespace"]).unwrap_or("")},
            "spec": {"template": spec.get("template").cloned().unwrap_or(json!({}))},
        },
        "jobs": jobs,
    });
    let out = kruise_core::call("cron.children", &input)?;
    let kind = out["kind"].as_str().unwrap_or("").to_string();
    let owned = out["owned"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|i| i.as_u64().and_then(|i| jobs.get(usize::try_from(i).ok()?)))
        .collect();
    Ok((kind, owned))
}

fn explain_value(
    acj: &Value,
    jobs: &[Value],
    now: &str,
    creation: Option<&str>,
) -> Result<String, CliError> {
    let name = s(acj, &["metadata", "name"]).unwrap_or("advancedcronjob");
    let spec = cron::defaults(acj.get("spec").cloned().unwrap_or(json!({})))?;
    let mut out = String::new();
    let w = &mut out;
    let schedule = s(&spec, &["schedule"]).unwrap_or("");
    let tz = s(&spec, &["timeZone"]);
    let _ = writeln!(w, "AdvancedCronJob {name}");
    let _ = writeln!(
        w,
        "  schedule          {schedule:?}{}",
        tz.map(|t| format!("  timeZone {t:?}")).unwrap_or_default()
    );
    let effective = cron::effective_schedule(schedule, tz);
    let _ = writeln!(w, "  controller parses {effective:?}");
    let _ = writeln!(
        w,
        "  after defaults    concurrencyPolicy={} paused={} successfulJobsHistoryLimit={} failedJobsHistoryLimit={}",
        spec["concurrencyPolicy"],
        spec["paused"],
        spec["successfulJobsHistoryLimit"],
        spec["failedJobsHistoryLimit"]
    );
    // The mutating webhook runs before the validating one, so admission sees the defaulted spec.
    let problems = kruise_core::call("cron.validate", &json!({"name": name, "spec": spec}))?;
    crate::report::result("name", json!(name));
    crate::report::result("effectiveSchedule", json!(effective));
    crate::report::result("validation", problems.clone());
    match problems.as_array().map(Vec::as_slice) {
        Some([]) | None => {
            let _ = writeln!(w, "  admission         valid");
        }
        Some(list) => {
            let _ = writeln!(w, "  admission         REJECTED:");
            for p in list {
                let _ = writeln!(
                    w,
                    "    - {}: {}",
                    p["field"].as_str().unwrap_or(""),
                    p["kind"].as_str().unwrap_or("")
                );
            }
        }
    }

    let (now_ts, _) = cron::zone::parse_rfc3339(now)
        .ok_or_else(|| CliError::Usage(format!("--now {now:?} is not an RFC 3339 time")))?;
    match Schedule::parse(&effective) {
        Err(e) => {
            let _ = writeln!(w, "  schedule error    {}: {}", e.kind, e.message);
            crate::report::error(&e);
        }
        Ok(sched) => {
            let zone = sched
                .location()
                .name()
                .map_or_else(|| "controller local zone (UTC)".to_string(), str::to_string);
            let _ = writeln!(w, "  evaluated in      {zone}");
            let _ = writeln!(w, "next 5 fire times after {now}:");
            let after =
                jiff::Timestamp::from_second(now_ts).map_err(|e| CliError::Usage(e.to_string()))?;
            let mut buf = [after; 5];
            let n = sched.next_n(after, &Zone::utc(), &mut buf);
            crate::report::result(
                "nextFireTimes",
                json!(buf[..n].iter().map(|t| t.to_string()).collect::<Vec<_>>()),
            );
            for t in &buf[..n] {
                let local = match sched.location() {
                    cron::Location::Zone(z) if z.name() != "UTC" => {
                        let off = z.time_zone().to_offset(*t);
                        format!("  ({}{off} {})", off.to_datetime(*t), z.name())
                    }
                    _ => String::new(),
                };
                let _ = writeln!(w, "  {t}{local}");
            }
            if n == 0 {
                let _ = writeln!(w, "  none within robfig's five-year window");
            }
        }
    }

    // The decision, with the children the controller lists for this ACJ.
    let (kind, owned) = owned_children(acj, name, &spec, jobs)?;
    let mut children = Vec::new();
    for j in owned {
        let state = kruise_core::call(
            "cron.jobState",
            &json!({"kind": kind, "status": j.get("status").cloned().unwrap_or(json!({}))}),
        )?;
        let mut c = json!({"name": s(j, &["metadata", "name"]).unwrap_or(""), "state": state});
        if let Some(st) = s(j, &["status", "startTime"]) {
            c["startTime"] = json!(st);
        }
        if let Some(at) = j
            .pointer("/metadata/annotations")
            .and_then(|a| a.get(SCHEDULED_AT))
            .and_then(Value::as_str)
        {
            c["scheduledAt"] = json!(at);
        }
        children.push(c);
    }
    let creation = creation
        .or_else(|| s(acj, &["metadata", "creationTimestamp"]))
        .unwrap_or(now);
    let d = kruise_core::call(
        "cron.decide",
        &json!({"name": name, "creationTimestamp": creation, "now": now, "spec": spec, "jobs": children}),
    )?;
    crate::report::result("children", json!(children));
    crate::report::result("decide", d.clone());
    let _ = writeln!(
        w,
        "reconcile at {now} (created {creation}, {} {kind} children):",
        children.len()
    );
    for c in &children {
        let _ = writeln!(
            w,
            "  child {} {}",
            c["name"].as_str().unwrap_or(""),
            c["state"].as_str().unwrap_or("")
        );
    }
    let show = |v: &Value| {
        if v.is_null() {
            "-".to_string()
        } else {
            v.to_string().trim_matches('"').to_string()
        }
    };
    let _ = writeln!(w, "  status.type              {}", show(&d["type"]));
    let _ = writeln!(
        w,
        "  status.lastScheduleTime  {}",
        show(&d["lastScheduleTime"])
    );
    let _ = writeln!(
        w,
        "  action                   {}{}",
        show(&d["action"]),
        d["reason"]
            .as_str()
            .map(|r| format!(" ({r})"))
            .unwrap_or_default()
    );
    let _ = writeln!(
        w,
        "  scheduled time           {}",
        show(&d["scheduledTime"])
    );
    let _ = writeln!(w, "  new child                {}", show(&d["jobName"]));
    let _ = writeln!(w, "  delete (Replace)         {}", show(&d["jobsToDelete"]));
    let _ = writeln!(
        w,
        "  delete (history)         {}",
        show(&d["historyDeletes"])
    );
    let _ = writeln!(
        w,
        "  requeue after            {}",
        d["requeueAfterSeconds"]
            .as_i64()
            .map_or("-".to_string(), |s| format!("{s}s"))
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn child(name: &str, ns: Option<&str>, owner: Option<(&str, bool)>) -> Value {
        let mut meta = json!({"name": name, "annotations": {SCHEDULED_AT: "2026-06-21T08:00:00Z"}});
        if let Some(ns) = ns {
            meta["namespace"] = json!(ns);
        }
        if let Some((owner, controller)) = owner {
            meta["ownerReferences"] = json!([{"apiVersion": "apps.kruise.io/v1beta1", "kind": "AdvancedCronJob",
                                              "name": owner, "uid": "u", "controller": controller}]);
        }
        json!({"apiVersion": "apps.kruise.io/v1beta1", "kind": "ImageListPullJob", "metadata": meta,
               "status": {"desired": 2, "succeeded": 1}})
    }

    /// Only children whose controller reference names the ACJ, in its namespace, count; a child
    /// without owner references is not the controller's.
    #[test]
    fn explain_lists_the_children_the_controller_lists() {
        let mut acj = input::parse_one(SEED, "seed").unwrap();
        let jobs = [
            child("mine", None, Some(("acj-image-pull", true))),
            child(
                "mine-default",
                Some("default"),
                Some(("acj-image-pull", true)),
            ),
            child("orphan", None, None),
            child("not-controller", None, Some(("acj-image-pull", false))),
            child("other-acj", None, Some(("other", true))),
            child(
                "other-namespace",
                Some("kube-system"),
                Some(("acj-image-pull", true)),
            ),
        ];
        let listed = |acj: &Value| {
            let out = explain_value(acj, &jobs, DEFAULT_NOW, Some("2026-06-21T07:30:00Z")).unwrap();
            let children: Vec<String> = out
                .lines()
                .filter(|l| l.starts_with("  child "))
                .map(str::to_string)
                .collect();
            assert!(out.contains(&format!(
                "(created 2026-06-21T07:30:00Z, {} ImageListPullJob children)",
                children.len()
            )));
            children
        };
        // No namespace in the manifest: every namespace.
        assert_eq!(
            listed(&acj),
            [
                "  child mine active",
                "  child mine-default active",
                "  child other-namespace active"
            ]
        );
        acj["metadata"]["namespace"] = json!("default");
        assert_eq!(listed(&acj), ["  child mine-default active"]);
    }
}
