//! Properties of `api.convert`: v1alpha1 -> v1beta1 -> v1alpha1 keeps every field
//! both versions hold (copied as is by `*_conversion.go`), and the documented one-way rules hold
//! (SidecarSet namespace -> selector, DaemonSet Surging -> Standard).

use kruise_core::api::convert::{
    CUSTOM_VERSION_LABEL, NAMESPACE_NAME_LABEL, PROGRESSIVE_ANNOTATION, V1ALPHA1, V1BETA1, convert,
};
use kruise_core::conformance::prune;
use proptest::prelude::*;
use serde_json::{Map, Value, json};

fn name() -> impl Strategy<Value = String> {
    "[a-z][a-z0-9-]{0,12}"
}

fn labels() -> impl Strategy<Value = Map<String, Value>> {
    prop::collection::btree_map("[a-z]{1,6}(/[a-z]{1,4})?", "[A-Za-z0-9._-]{0,8}", 0..4)
        .prop_map(|m| m.into_iter().map(|(k, v)| (k, Value::String(v))).collect())
}

fn int_or_str() -> impl Strategy<Value = Value> {
    prop_oneof![
        (0i32..1000).prop_map(Value::from),
        (0u32..=100).prop_map(|p| Value::String(format!("{p}%"))),
        "[0-9]{1,3}".prop_map(Value::String)
    ]
}

/// Whole-second UTC times, the form metav1.Time re-emits.
fn time() -> impl Strategy<Value = Value> {
    (0i64..4_000_000_000).prop_map(|s| {
        let t = jiff_like(s);
        Value::String(t)
    })
}

fn jiff_like(secs: i64) -> String {
    // days since epoch -> civil date (Howard Hinnant's algorithm)
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

fn selector() -> impl Strategy<Value = Value> {
    (
        labels(),
        prop::collection::vec(
            (
                name(),
                prop_oneof![Just("In"), Just("NotIn"), Just("Exists")],
                prop::collection::vec(name(), 0..3),
            ),
            0..3,
        ),
    )
        .prop_map(|(ml, exprs)| {
            let exprs: Vec<Value> = exprs
                .into_iter()
                .map(|(k, op, vals)| json!({"key": k, "operator": op, "values": vals}))
                .collect();
            json!({"matchLabels": ml, "matchExpressions": exprs})
        })
}

fn metadata() -> impl Strategy<Value = Value> {
    (name(), name(), labels(), labels(), 0i64..100, time(), prop::collection::vec(name(), 0..2)).prop_map(|(n, ns, l, a, g, t, fin)| {
        json!({"name": n, "namespace": ns, "labels": l, "annotations": a, "generation": g, "creationTimestamp": t,
            "uid": "0f3c1d2e-0000-4000-8000-000000000000", "resourceVersion": "42", "finalizers": fin})
    })
}

fn sidecar_container() -> impl Strategy<Value = Value> {
    (name(), name(), prop_oneof![Just("BeforeAppContainer"), Just("AfterAppContainer"), Just("")], prop_oneof![Just("ColdUpgrade"), Just("HotUpgrade")], any::<bool>(), "[a-z%*() 0-9]{1,10}")
        .prop_map(|(n, img, policy, up, share, expr)| {
            json!({"name": n, "image": img, "podInjectPolicy": policy, "env": [{"name": "A", "value": "1"}],
                "upgradeStrategy": {"upgradeType": up, "hotUpgradeEmptyImage": "empty:1"},
                "shareVolumePolicy": {"type": if share {"enabled"} else {"disabled"}},
                "shareVolumeDevicePolicy": {"type": "enabled"},
                "transferEnv": [{"sourceContainerName": "main", "envNames": ["X", "Y"]},
                                {"sourceContainerNameFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels['c']"}}, "envName": "Z"}],
                "resourcesPolicy": {"targetContainersMode": "sum", "targetContainersNameRegex": "^app$",
                    "resourcesExpr": {"limits": {"cpu": expr, "memory": "200Mi"}, "requests": {"cpu": "50m", "memory": expr}}}})
        })
}

fn sidecarset() -> impl Strategy<Value = Value> {
    (metadata(), selector(), selector(), prop::collection::vec(sidecar_container(), 0..3), prop::collection::vec(sidecar_container(), 0..2), int_or_str(), int_or_str(), any::<bool>(), 0i32..20, (0i64..9, 0i32..9, 0i32..9, name()))
        .prop_map(|(meta, sel, nssel, containers, inits, part, maxu, paused, rhl, (og, mp, rp, rev))| {
            json!({"apiVersion": V1ALPHA1, "kind": "SidecarSet", "metadata": meta,
                "spec": {"selector": sel, "namespaceSelector": nssel, "containers": containers, "initContainers": inits,
                    "volumes": [{"name": "v", "emptyDir": {}}],
                    "updateStrategy": {"type": "RollingUpdate", "paused": paused, "partition": part, "maxUnavailable": maxu,
                        "selector": {"matchLabels": {"u": "1"}}, "scatterStrategy": [{"key": "zone", "value": "a"}],
                        "priorityStrategy": {"weightPriority": [{"weight": 10, "matchSelector": {"matchLabels": {"p": "1"}}}]}},
                    "injectionStrategy": {"paused": paused, "revision": {"customVersion": rev, "revisionName": "r", "policy": "Always"}},
                    "imagePullSecrets": [{"name": "sec"}], "revisionHistoryLimit": rhl,
                    "patchPodMetadata": [{"annotations": {"k": "v"}, "patchPolicy": "Overwrite"}]},
                "status": {"observedGeneration": og, "matchedPods": mp, "updatedPods": rp, "readyPods": rp, "updatedReadyPods": rp,
                    "latestRevision": rev, "collisionCount": mp}})
        })
}

fn daemonset() -> impl Strategy<Value = Value> {
    (metadata(), selector(), prop_oneof![Just("Standard"), Just("InPlaceIfPossible"), Just(""), Just("Other")], int_or_str(), int_or_str(), int_or_str(), int_or_str(), any::<bool>(), (0i32..50, name(), 0i32..9, time()))
        .prop_map(|(meta, sel, rut, mu, ms, part, burst, paused, (mrs, hash, n, t))| {
            json!({"apiVersion": V1ALPHA1, "kind": "DaemonSet", "metadata": meta,
                "spec": {"selector": sel, "template": {"metadata": {"labels": {"app": "x"}}, "spec": {"containers": [{"name": "c", "image": "i"}]}},
                    "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"rollingUpdateType": rut, "maxUnavailable": mu, "maxSurge": ms,
                        "selector": {"matchLabels": {"r": "1"}}, "partition": part, "paused": paused}},
                    "minReadySeconds": mrs, "burstReplicas": burst, "revisionHistoryLimit": mrs,
                    "lifecycle": {"preDelete": {"labelsHandler": {"k": "v"}}}},
                "status": {"currentNumberScheduled": n, "numberMisscheduled": n, "desiredNumberScheduled": n, "numberReady": n,
                    "observedGeneration": n, "updatedNumberScheduled": n, "numberAvailable": n, "numberUnavailable": n, "collisionCount": n,
                    "daemonSetHash": hash, "conditions": [{"type": "T", "status": "True", "lastTransitionTime": t, "reason": "R", "message": "m"}]}})
        })
}

fn completion() -> impl Strategy<Value = Value> {
    (prop_oneof![Just("Always"), Just("Never")], 0i64..10_000, 0i32..1000).prop_map(|(t, a, ttl)| json!({"type": t, "activeDeadlineSeconds": a, "ttlSecondsAfterFinished": ttl}))
}

fn bj_spec() -> impl Strategy<Value = Value> {
    (int_or_str(), completion(), any::<bool>(), 0i32..5).prop_map(|(par, cp, paused, rl)| {
        json!({"parallelism": par, "template": {"spec": {"containers": [{"name": "c", "image": "busybox"}]}},
            "completionPolicy": cp, "paused": paused, "failurePolicy": {"type": "Continue", "restartLimit": rl}})
    })
}

fn simple_kinds() -> impl Strategy<Value = Value> {
    let bj = (metadata(), bj_spec(), time(), 0i32..9).prop_map(|(m, s, t, n)| {
        json!({"apiVersion": V1ALPHA1, "kind": "BroadcastJob", "metadata": m, "spec": s,
            "status": {"conditions": [{"type": "Complete", "status": "True", "lastProbeTime": t, "lastTransitionTime": t, "reason": "r", "message": "m"}],
                "startTime": t, "completionTime": t, "active": n, "succeeded": n, "failed": n, "desired": n, "phase": "running"}})
    });
    let acj = (metadata(), bj_spec(), name(), time(), any::<bool>()).prop_map(|(m, s, tz, t, paused)| {
        json!({"apiVersion": V1ALPHA1, "kind": "AdvancedCronJob", "metadata": m,
            "spec": {"schedule": "*/5 * * * *", "timeZone": tz, "startingDeadlineSeconds": 30, "concurrencyPolicy": "Forbid", "paused": paused,
                "successfulJobsHistoryLimit": 3, "failedJobsHistoryLimit": 1,
                "template": {"broadcastJobTemplate": {"metadata": {"name": "t", "labels": {"a": "b"}}, "spec": s}}},
            "status": {"type": "BroadcastJob", "active": [{"kind": "BroadcastJob", "name": "x"}], "lastScheduleTime": t}})
    });
    let pull = (metadata(), any::<bool>(), int_or_str(), completion(), time(), prop::collection::vec(name(), 0..3)).prop_map(|(m, list, par, cp, t, nodes)| {
        let mut spec = json!({"pullSecrets": ["s"], "selector": {"names": nodes, "matchLabels": {"pool": "a"}}, "podSelector": {"matchLabels": {"app": "w"}},
            "parallelism": par, "pullPolicy": {"timeoutSeconds": 60, "backoffLimit": 2}, "completionPolicy": cp,
            "sandboxConfig": {"labels": {"l": "1"}, "annotations": {"a": "2"}}, "imagePullPolicy": "Always"});
        let (kind, status) = if list {
            spec["images"] = json!(["a:1", "b:2"]);
            ("ImageListPullJob", json!({"startTime": t, "completionTime": t, "desired": 2, "active": 1, "completed": 1, "succeeded": 1,
                "failedImageStatuses": [{"imagePullJob": "j", "name": "b:2", "message": "timeout"}]}))
        } else {
            spec["image"] = json!("a:1");
            ("ImagePullJob", json!({"startTime": t, "completionTime": t, "desired": 2, "active": 1, "succeeded": 1, "failed": 0, "message": "m", "failedNodes": nodes}))
        };
        json!({"apiVersion": V1ALPHA1, "kind": kind, "metadata": m, "spec": spec, "status": status})
    });
    let ni = (metadata(), name(), time(), 0i64..100).prop_map(|(m, img, t, ver)| {
        json!({"apiVersion": V1ALPHA1, "kind": "NodeImage", "metadata": m,
            "spec": {"images": {img.clone(): {"pullSecrets": [{"namespace": "d", "name": "s"}],
                "tags": [{"tag": "1", "createdAt": t, "pullPolicy": {"timeoutSeconds": 1, "backoffLimit": 2, "ttlSecondsAfterFinished": 3, "activeDeadlineSeconds": 4},
                    "ownerReferences": [{"apiVersion": "v1", "kind": "K", "name": "n", "uid": "u"}], "version": ver, "imagePullPolicy": "IfNotPresent"}],
                "sandboxConfig": {"labels": {"x": "y"}}}}},
            "status": {"desired": 1, "succeeded": 1, "failed": 0, "pulling": 0, "waiting": 0,
                "imageStatuses": {img: {"tags": [{"tag": "1", "phase": "Succeeded", "progress": 100, "startTime": t, "completionTime": t, "version": ver, "imageID": "sha256:x", "message": "ok"}]}},
                "firstSyncStatus": {"syncAt": t, "status": "Succeeded", "message": "done"}}})
    });
    let sts = (metadata(), selector(), 0i32..10, int_or_str(), any::<bool>(), name()).prop_map(|(m, sel, n, mu, paused, rev)| {
        json!({"apiVersion": V1ALPHA1, "kind": "StatefulSet", "metadata": m,
            "spec": {"replicas": n, "selector": sel, "template": {"spec": {"containers": [{"name": "c", "image": "i"}]}},
                "volumeClaimTemplates": [{"metadata": {"name": "data"}, "spec": {"resources": {"requests": {"storage": "1Gi"}}}}],
                "serviceName": "svc", "podManagementPolicy": "Parallel", "revisionHistoryLimit": n,
                "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": n, "maxUnavailable": mu, "podUpdatePolicy": "InPlaceIfPossible",
                    "paused": paused, "unorderedUpdate": {"priorityStrategy": {"orderPriority": [{"orderedKey": "k"}]}},
                    "inPlaceUpdateStrategy": {"gracePeriodSeconds": 5}, "minReadySeconds": n}}},
            "status": {"observedGeneration": 1, "replicas": n, "readyReplicas": n, "availableReplicas": n, "currentReplicas": n, "updatedReplicas": n,
                "currentRevision": rev, "updateRevision": rev, "collisionCount": 0, "labelSelector": "a=b"}})
    });
    prop_oneof![bj, acj, pull, ni, sts]
}

fn round_trip(o: &Value) -> (Value, Value) {
    let up = convert(o, V1BETA1).expect("v1alpha1 -> v1beta1");
    let down = convert(&up, V1ALPHA1).expect("v1beta1 -> v1alpha1");
    (up, down)
}

/// Null-pruned form: empty maps/lists and nulls are invisible to Go's omitempty encoder.
fn norm(v: &Value) -> Value {
    prune(v, false)
}

proptest! {
    #![proptest_config(kruise_proptests::config(256))]

    #[test]
    fn identical_schema_kinds_round_trip_exactly(o in simple_kinds()) {
        let (up, down) = round_trip(&o);
        prop_assert_eq!(up["apiVersion"].as_str(), Some(V1BETA1));
        prop_assert_eq!(norm(&down), norm(&o));
    }

    #[test]
    fn sidecarset_round_trip_keeps_all_but_namespace(o in sidecarset(), ns in prop::option::of(name()), cv in prop::option::of(name())) {
        let mut o = o;
        if let Some(ns) = &ns { o["spec"]["namespace"] = json!(ns); }
        if let Some(cv) = &cv { o["metadata"]["labels"][CUSTOM_VERSION_LABEL] = json!(cv); }
        let (up, down) = round_trip(&o);
        prop_assert_eq!(up["spec"].get("customVersion").and_then(Value::as_str), cv.as_deref());
        prop_assert!(up["metadata"]["labels"].get(CUSTOM_VERSION_LABEL).is_none());
        let mut want = o.clone();
        if let Some(ns) = &ns {
            prop_assert_eq!(&up["spec"]["namespaceSelector"], &json!({"matchLabels": {NAMESPACE_NAME_LABEL: ns}}));
            // one-way: the namespace comes back as a selector, never as spec.namespace
            want["spec"].as_object_mut().map(|s| s.remove("namespace"));
            want["spec"]["namespaceSelector"] = json!({"matchLabels": {NAMESPACE_NAME_LABEL: ns}});
        }
        prop_assert_eq!(norm(&down), norm(&want));
    }

    #[test]
    fn daemonset_round_trip_keeps_all_but_surging(o in daemonset(), surging in any::<bool>(), progressive in prop::option::of(prop_oneof![Just("true"), Just("True"), Just("false")])) {
        let mut o = o;
        if surging { o["spec"]["updateStrategy"]["rollingUpdate"]["rollingUpdateType"] = json!("Surging"); }
        if let Some(p) = progressive { o["metadata"]["annotations"][PROGRESSIVE_ANNOTATION] = json!(p); }
        let (up, down) = round_trip(&o);
        prop_assert_eq!(&up["status"]["updateRevision"], &o["status"]["daemonSetHash"]);
        prop_assert_eq!(up["spec"]["scaleStrategy"]["partitionedScaling"].as_bool(), (progressive == Some("true")).then_some(true));
        let mut want = o.clone();
        if surging { want["spec"]["updateStrategy"]["rollingUpdate"]["rollingUpdateType"] = json!("Standard"); }
        prop_assert_eq!(norm(&down), norm(&want));
    }

    #[test]
    fn up_conversion_is_stable_under_a_second_round(o in prop_oneof![sidecarset(), daemonset(), simple_kinds()]) {
        let (up, down) = round_trip(&o);
        let up2 = convert(&down, V1BETA1).expect("second up-conversion");
        prop_assert_eq!(norm(&up2), norm(&up));
    }
}
