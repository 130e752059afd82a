"""A user's file for ``mypy --strict`` (scripts/test-all runs it): one typed call per family with
literal TypedDict inputs, using the outputs. Also run by pytest (test_typed_usage.py)."""

from __future__ import annotations

import kruise_core
from kruise_core import allocation, api, compat, cron, distribution, imagepull, jobsidecar, pub, resources, rollout, sidecarset, workloadspread


def rollout_example() -> int:
    inp: rollout.ScaleIntOrPercentInput = {"value": "25%", "total": 10, "roundUp": True, "mode": "scaled"}
    out: int = rollout.scale_int_or_percent(inp)
    return out + rollout.scale("25%", 10)


def allocation_example() -> int:
    inp: allocation.ParseReplicasInput = {"replicas": 5, "value": "50%"}
    return allocation.parse_replicas(inp)


def cron_example() -> cron.JobState:
    state: cron.JobState = cron.job_state({"kind": "Job", "status": {"conditions": []}})
    fires: list[str] = cron.next({"schedule": "0 */2 * * *", "after": "2026-06-21T10:17:00Z", "count": 2})
    assert fires == ["2026-06-21T12:00:00Z", "2026-06-21T14:00:00Z"]
    return state


def pub_example() -> list[str]:
    out = pub.protect_operations({"annotation": "DELETE,EVICT", "strict": True})
    ops: list[str] = list(out["operations"])
    return ops


def resources_example() -> str:
    out: str = resources.eval({"expr": "max(cpu*50%, 50m)", "variables": {"cpu": "200m"}})
    return out


def error_kind() -> kruise_core.ErrorKind:
    try:
        rollout.scale_int_or_percent({"value": None, "total": 1, "roundUp": False, "mode": "legacy"})
    except kruise_core.KruiseError as e:
        kind: kruise_core.ErrorKind = e.kind
        return kind
    raise AssertionError("expected nil_value")


def api_example() -> object:
    out = api.launch_priority({"pod": {"metadata": {"name": "fake"}, "spec": {"containers": [{"name": "a"}, {"name": "b"}]}}})
    return out["skip"]


def compat_example() -> bool:
    sv: compat.ServerVersionOutput = compat.server_version({"version": "v1.33.2-gke.1240000"})
    return sv["features"]["resizeSubresource"]


def sidecarset_example() -> sidecarset.MatchReason:
    out: sidecarset.MatchOutput = sidecarset.match(
        {
            "pod": {"metadata": {"namespace": "kube-system", "labels": {"app": "web"}}},
            "namespace": {"metadata": {"name": "kube-system"}},
            "sidecarSet": {"spec": {"selector": {"matchLabels": {"app": "web"}}}},
        }
    )
    assert out["matched"] is False
    return out["reason"]


def jobsidecar_example() -> list[str]:
    out: jobsidecar.DecideOutput = jobsidecar.decide(
        {
            "pod": {
                "metadata": {"uid": "87076677", "name": "job-a"},
                "spec": {
                    "nodeName": "node-a",
                    "restartPolicy": "Never",
                    "containers": [
                        {"name": "main"},
                        {"name": "sidecar", "env": [{"name": "KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT", "value": "true"}]},
                    ],
                },
                "status": {
                    "phase": "Running",
                    "containerStatuses": [
                        {"name": "main", "state": {"terminated": {"exitCode": 0}}},
                        {"name": "sidecar", "state": {}},
                    ],
                },
            },
            "node": {"metadata": {"labels": {}}},
        }
    )
    crr = out["containerRecreateRequest"]
    assert crr is not None
    return list(crr["containers"])


def distribution_example() -> list[str]:
    out: distribution.TargetsOutput = distribution.targets(
        {
            "resourceDistribution": {
                "metadata": {"name": "rd"},
                "spec": {
                    "resource": {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}, "data": {"k": "dg=="}},
                    "targets": {"includedNamespaces": {"list": [{"name": "ns-1"}]}},
                },
            },
            "namespaces": [{"metadata": {"name": "ns-1"}}, {"metadata": {"name": "ns-2"}}],
        }
    )
    return list(out["matchedNamespaces"])


def distribution_validate_example() -> list[str]:
    out: distribution.ValidateOutput = distribution.validate(
        {
            "resourceDistribution": {
                "metadata": {"name": "rd"},
                "spec": {"resource": {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}}},
            },
            "oldResourceDistribution": {
                "metadata": {"name": "rd"},
                "spec": {"resource": {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "t"}}},
            },
        }
    )
    return [e["field"] for e in out["errors"]]


def imagepull_example() -> int:
    out: imagepull.StatusOutput = imagepull.status(
        {
            "imagePullJob": {
                "metadata": {"uid": "u1"},
                "spec": {"image": "nginx:1.25", "completionPolicy": {"type": "Never"}, "imagePullPolicy": "Always"},
                "status": {"startTime": "2024-05-01T00:00:00Z"},
            },
            "nodeImages": [{"metadata": {"name": "node-a"}}],
            "now": "2024-05-01T00:01:00Z",
        }
    )
    policy: imagepull.TagPullPolicy = out["pullPolicy"]
    assert out["nodesToSync"] == ["node-a"]
    return int(policy["ttlSecondsAfterFinishedMin"])


def workloadspread_example() -> list[tuple[str, str]]:
    matched = '{"name":"ws","subset":"zone-a"}'
    out: workloadspread.ReconcileOutput = workloadspread.reconcile(
        {
            "workloadSpread": {
                "metadata": {"name": "ws"},
                "spec": {
                    "targetRef": {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web"},
                    "subsets": [{"name": "zone-a", "maxReplicas": 1}, {"name": "zone-b"}],
                },
            },
            "workloadReplicas": 2,
            "latestVersion": "versionIgnored",
            "pods": [
                {
                    "metadata": {
                        "name": f"web-{k}",
                        "creationTimestamp": f"2024-05-01T00:0{k}:00Z",
                        "annotations": {"apps.kruise.io/matched-workloadspread": matched},
                    },
                    "status": {"phase": "Running"},
                }
                for k in range(2)
            ],
            "now": "2024-05-01T00:10:00Z",
        }
    )
    costs: list[workloadspread.DeletionCost] = out["deletionCosts"]
    return [(c["pod"], c["value"]) for c in costs]


def main() -> None:
    assert rollout_example() == 6
    assert allocation_example() == 3
    assert cron_example() == "active"
    assert pub_example() == ["DELETE", "EVICT"]
    assert resources_example() == "100m"
    assert error_kind() == "nil_value"
    assert api_example() is True
    assert compat_example() is True
    assert sidecarset_example() == "webhook_namespace_excluded"
    assert jobsidecar_example() == ["sidecar"]
    assert distribution_example() == ["ns-1"]
    assert distribution_validate_example() == ["spec.resource"]
    assert imagepull_example() == 85800
    assert workloadspread_example() == [("web-0", "200"), ("web-1", "-100")]


if __name__ == "__main__":
    main()
