#!/usr/bin/env python3
"""Writes the inputs of the realistic-object benchmarks (issue 12), shared by the Rust benches
(benches/benches/realistic.rs), the Go binding (bindings/go/bench_test.go) and the Python binding
(bindings/python/benchmarks/bench.py):

- sidecar_policy_apply.json: a full Pod object of about 3.5 KB as the API server returns it
  (`fullPod`), a SidecarSet container's `resourcesPolicy` and the SidecarSet container names.
  The `resources.sidecar` input is {resourcesPolicy, pod: fullPod.spec, sidecarContainerNames}.
- pub_admit.json: a `pub.admit` input (`input`): the eviction of one ready pod covered by a
  PodUnavailableBudget over 1,000 pods whose status records 60 disrupted and 40 unavailable pods.

Deterministic; run from anywhere: python3 benches/data/gen_realistic.py
"""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def probe(port, path):
    return {"httpGet": {"path": path, "port": port, "scheme": "HTTP"}, "initialDelaySeconds": 10,
            "periodSeconds": 10, "timeoutSeconds": 1, "successThreshold": 1, "failureThreshold": 3}


def container(name, image, cpu_req, mem_req, cpu_lim, mem_lim, port, env):
    c = {
        "name": name, "image": image, "imagePullPolicy": "IfNotPresent",
        "ports": [{"name": "http", "containerPort": port, "protocol": "TCP"}],
        "env": [{"name": k, "value": v} for k, v in env],
        "resources": {"requests": {"cpu": cpu_req, "memory": mem_req}},
        "readinessProbe": probe(port, "/ready"),
    }
    if cpu_lim:
        c["resources"]["limits"] = {"cpu": cpu_lim, "memory": mem_lim}
    return c


def full_pod():
    env = [("LOG_LEVEL", "info"), ("REGION", "eu-west-1"), ("POD_NAMESPACE", "shop")]
    return {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {
            "name": "checkout-7d9f8c6b5-x2k4p", "namespace": "shop", "uid": "6f1c2a7e-4b1d-4c55-9a0e-2f7d3c1b9e84",
            "resourceVersion": "48213377", "creationTimestamp": "2026-06-21T09:58:12Z",
            "labels": {"app": "checkout", "pod-template-hash": "7d9f8c6b5", "version": "v3"},
            "annotations": {"kruise.io/related-pub": "checkout-pub", "prometheus.io/scrape": "true",
                            "prometheus.io/port": "9090"},
            "ownerReferences": [{"apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "name": "checkout",
                                 "uid": "0b6a3c9d-2e4f-4a71-8c5d-1e9f7a2b3c4d", "controller": True,
                                 "blockOwnerDeletion": True}],
        },
        "spec": {
            "initContainers": [
                {"name": "init-config", "image": "busybox:1.36", "command": ["sh", "-c", "cp /src/* /cfg/"],
                 "resources": {"requests": {"cpu": "10m", "memory": "16Mi"}}},
                {"name": "log-shipper", "image": "fluent/fluent-bit:3.0", "restartPolicy": "Always",
                 "resources": {"requests": {"cpu": "50m", "memory": "64Mi"},
                               "limits": {"cpu": "200m", "memory": "128Mi"}}},
            ],
            "containers": [
                container("checkout", "registry.example.com/shop/checkout:3.4.1", "500m", "512Mi", "2", "1Gi", 8080,
                          env + [("DB_HOST", "postgres.shop.svc"), ("CACHE_URL", "redis://redis.shop.svc:6379")]),
                container("payments-adapter", "registry.example.com/shop/payments-adapter:1.9.0", "250m", "256Mi",
                          "1", "512Mi", 8081, env),
                container("metrics-exporter", "prom/statsd-exporter:v0.26.0", "50m", "64Mi", "100m", "128Mi",
                          9090, [("LOG_LEVEL", "warn")]),
            ],
            "volumes": [{"name": "kube-api-access", "projected": {"sources": [{"serviceAccountToken": {
                "expirationSeconds": 3607, "path": "token"}}]}}],
            "restartPolicy": "Always", "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst",
            "serviceAccountName": "checkout", "nodeName": "node-eu-west-1a-17", "schedulerName": "default-scheduler",
            "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute",
                             "tolerationSeconds": 300}],
        },
        "status": {
            "phase": "Running", "podIP": "10.12.3.45", "hostIP": "10.0.1.17", "qosClass": "Burstable",
            "startTime": "2026-06-21T09:58:12Z",
            "conditions": [{"type": t, "status": "True", "lastTransitionTime": "2026-06-21T09:58:40Z"}
                           for t in ["Ready", "ContainersReady"]],
        },
    }


def sidecar_case():
    pod = full_pod()
    return {
        "note": "resources.sidecar input = {resourcesPolicy, pod: fullPod.spec, sidecarContainerNames}",
        "fullPod": pod,
        "resourcesPolicy": {
            "targetContainersMode": "sum", "targetContainersNameRegex": ".*",
            "resourcesExpr": {"limits": {"cpu": "max(cpu * 50%, 50m)", "memory": "memory * 50%"},
                              "requests": {"cpu": "max(cpu * 50%, 50m)", "memory": "memory * 50%"}},
        },
        "sidecarContainerNames": ["envoy", "envoy-init"],
    }


def admit_case():
    pod = full_pod()
    pod["metadata"]["name"] = "checkout-7d9f8c6b5-0417"
    pod["metadata"]["annotations"] = {"kruise.io/related-pub": "checkout-pub"}
    disrupted = {f"checkout-7d9f8c6b5-{i * 7 % 1000:04d}": "2026-06-21T09:59:%02dZ" % (i % 60) for i in range(60)}
    unavailable = {f"checkout-7d9f8c6b5-{(i * 13 + 500) % 1000:04d}": "2026-06-21T09:58:%02dZ" % (i % 60)
                   for i in range(40)}
    pub = {
        "apiVersion": "policy.kruise.io/v1alpha1", "kind": "PodUnavailableBudget",
        "metadata": {"name": "checkout-pub", "namespace": "shop", "generation": 3},
        "spec": {"targetRef": {"apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "name": "checkout"},
                 "maxUnavailable": "10%"},
        "status": {"observedGeneration": 3, "disruptedPods": disrupted, "unavailablePods": unavailable,
                   "unavailableAllowed": 20, "currentAvailable": 920, "desiredAvailable": 900,
                   "totalReplicas": 1000},
    }
    return {
        "note": "pub.admit input: evicting one ready pod under a PUB over 1,000 pods (60 disrupted, 40 unavailable records)",
        "input": {"request": {"operation": "CREATE", "subResource": "eviction"}, "pod": pod, "pub": pub,
                  "featureGates": {}, "now": "2026-06-21T10:00:00Z"},
    }


for name, case in [("sidecar_policy_apply.json", sidecar_case()), ("pub_admit.json", admit_case())]:
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(case, f, indent=1, sort_keys=True)
        f.write("\n")
print("full pod:", len(json.dumps(full_pod(), separators=(",", ":"))), "bytes (compact JSON)")
