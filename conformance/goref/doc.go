// Package goref holds differential tests and benchmarks that run kruise-core (through the Go
// binding kruisecore) side by side with the real Go reference code it mirrors:
//
//   - github.com/openkruise/kruise v1.9.0 pkg/util/calculator (resources.eval) and pkg/util
//     (GetScaledValueFromIntOrPercent, rollout mode "kruise");
//   - k8s.io/apimachinery v0.32.10 pkg/util/intstr (rollout modes "scaled" and "legacy");
//   - github.com/robfig/cron/v3 v3.0.1 (ParseStandard, Next: cron.next).
//
// The package has no non-test code. Run, from the repository root:
//
//	cargo build --release -p kruise-core-c   # the static library the binding links
//	cd conformance/goref && go test ./...
//
// Known, accepted disagreements are listed in deviations.txt (explained in docs/deviations.md,
// section "goref").
package goref
