#!/usr/bin/env python3
"""Benchmarks of the Python binding, the cases of the Go binding's benchmarks (bindings/go/bench_test.go).

Prints one line per case: ``name  ns/op`` (the best of --repeat runs of timeit, each long enough
to take about --seconds). Run from a venv where kruise_core is installed (``maturin develop
--release`` in bindings/python), e.g.:

    python bindings/python/benchmarks/bench.py            # all cases
    python bindings/python/benchmarks/bench.py --json     # machine-readable (scripts/bench-side-by-side)
"""

import argparse
import json
import os
import timeit

import kruise_core

EXPR = "max(cpu * 50%, 50m)"
# The realistic-object inputs shared with the Rust and Go benches (benches/data/gen_realistic.py).
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "benches", "data")


def realistic():
    """The resources.sidecar input on the 3.4 KB pod and the pub.admit input (1,000-pod budget)."""
    with open(os.path.join(DATA, "sidecar_policy_apply.json")) as f:
        d = json.load(f)
    sidecar_in = {"resourcesPolicy": d["resourcesPolicy"], "pod": d["fullPod"]["spec"],
                  "sidecarContainerNames": d["sidecarContainerNames"]}
    with open(os.path.join(DATA, "pub_admit.json")) as f:
        admit_in = json.load(f)["input"]
    return sidecar_in, admit_in


def cases():
    e = kruise_core.Expression(EXPR)
    assert e.eval(cpu="200m") == "100m"
    inp = {"expr": EXPR, "variables": {"cpu": "200m"}}
    text = json.dumps(inp)
    scale_in = {"value": "90%", "total": 95, "roundUp": True, "mode": "scaled"}
    sidecar_in, admit_in = realistic()
    assert kruise_core.resources.sidecar(sidecar_in) is not None
    assert kruise_core.pub.admit(admit_in)["decision"] == "admitted"
    return [
        ("ExpressionEval", lambda: e.eval(cpu="200m")),
        ("CallResourcesEval", lambda: kruise_core.call("resources.eval", inp)),
        ("CallJSONResourcesEval", lambda: kruise_core.call_json("resources.eval", text)),
        ("ScaleIntOrPercent", lambda: kruise_core.rollout.scale("25%", 1000, True)),
        ("Call", lambda: kruise_core.call("rollout.scale_int_or_percent", scale_in)),
        ("SidecarPolicyApply", lambda: kruise_core.resources.sidecar(sidecar_in)),
        ("PubAdmit", lambda: kruise_core.pub.admit(admit_in)),
    ]


def measure(fn, seconds, repeat):
    t = timeit.Timer(fn)
    n, took = t.autorange()
    n = max(1, int(n * seconds / max(took, 1e-9)))
    return min(t.repeat(repeat=repeat, number=n)) / n * 1e9


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=0.3)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("-k", default="", help="only cases whose name contains this")
    a = ap.parse_args()
    rows = [(name, measure(fn, a.seconds, a.repeat)) for name, fn in cases() if a.k in name]
    if a.json:
        print(json.dumps([{"name": n, "ns": ns} for n, ns in rows]))
    else:
        for n, ns in rows:
            print(f"{n:<24} {ns:10.1f} ns/op")


if __name__ == "__main__":
    main()
