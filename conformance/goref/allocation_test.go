// Differential tests of the allocation family whose reference functions are exported:
// allocation.parse_replicas (ParseSubsetReplicas, pkg/controller/uniteddeployment
// uniteddeployment_controller_utils.go), allocation.pending_timeout (GetTimeBeforePendingTimeout,
// pkg/controller/util/pod_condition_utils.go) and allocation.pod_reserved
// (CheckPodReallyInReservedStatus, uniteddeployment_controller_utils.go). The other allocation
// fns need the overlay (allocation_overlay_test.go). Shared generators for UnitedDeployment
// specs, workloads and pods live here too.
//
// Prerequisite (from the repository root): cargo build --release -p kruise-core-c
// Then: conformance/goref/run -run Allocation
package goref

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
	udctrl "github.com/openkruise/kruise/pkg/controller/uniteddeployment"
	ctrlutil "github.com/openkruise/kruise/pkg/controller/util"
)

const (
	revisionLabel = "apps.kruise.io/controller-revision-hash"
	reservedLabel = "apps.kruise.io/united-deployment-reserved-pod"
)

// baseRandom is the number of random inputs per fn in CI (times GOREF_SCALE).
const baseRandom = 2000

// parseTime reads an RFC 3339 time of an input.
func parseTime(s string) (time.Time, error) { return time.Parse(time.RFC3339Nano, s) }

// durationOverflows reports whether n seconds do not fit a time.Duration (the reference's
// time.Duration(n) * time.Second wraps there; kruise-core computes in seconds).
func durationOverflows(n int64) bool { return n > 9_000_000_000 || n < -9_000_000_000 }

// udErrKind maps the allocation reference's error text to the spec's kind.
func udErrKind(err error) string {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "should not be less than 0"):
		return "negative_value"
	case strings.Contains(msg, "should not be string when unitedDeployment replicas is empty"):
		return "percent_requires_total"
	case strings.Contains(msg, "only support integer value or percentage"):
		return "not_percent"
	case strings.Contains(msg, "should be correct percentage integer"):
		return "invalid_percent"
	case strings.Contains(msg, "should be in range [0, 100]"):
		return "percent_out_of_range"
	case strings.Contains(msg, "is greater than UnitedDeployment replica"):
		return "specified_exceeds_total"
	case strings.Contains(msg, "is less than UnitedDeployment replica"):
		return "specified_less_than_total"
	case strings.Contains(msg, "all subsets must be specified when UnitedDeployment replica is unspecified"):
		return "unspecified_total_requires_all"
	case strings.Contains(msg, "must be more than or equal to minReplicas"):
		return "min_greater_than_max"
	}
	return "unmapped: " + msg
}

// ---- allocation.parse_replicas ----

type parseReplicasIn struct {
	Replicas *int32             `json:"replicas"`
	Value    intstr.IntOrString `json:"value"`
}

func refParseReplicas(in json.RawMessage) refOutcome {
	var i parseReplicasIn
	if err := decodeInto(in, &i); err != nil {
		return refOutcome{kind: "invalid_input"}
	}
	total := int32(-1)
	if i.Replicas != nil {
		total = *i.Replicas
	}
	v, err := udctrl.ParseSubsetReplicas(total, i.Value)
	if err != nil {
		return refOutcome{kind: udErrKind(err)}
	}
	return refOutcome{value: v}
}

var diffParseReplicas = diffFn{family: "allocation", fn: "allocation.parse_replicas", ref: refParseReplicas}

// total is a UnitedDeployment spec.replicas: nil (unset) or an int32 biased to small values.
func (g *gen) total() any {
	switch g.n(10) {
	case 0, 1:
		return nil
	case 2:
		return g.int32Edge()
	}
	return g.pickInt(0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 13, 20, 33, 100, 101)
}

func genParseReplicas(g *gen) any {
	return map[string]any{"replicas": g.total(), "value": g.intOrPercent()}
}

func TestAllocationParseReplicasVectorsReference(t *testing.T) {
	diffParseReplicas.checkVectorsReference(t, "allocation")
}

func TestAllocationParseReplicasVectors(t *testing.T) {
	requireFn(t, diffParseReplicas.fn, map[string]any{"replicas": 1, "value": 1})
	diffParseReplicas.compareVectors(t, "allocation")
}

func TestAllocationParseReplicasRandomCoverage(t *testing.T) {
	diffParseReplicas.checkCoverage(t, genInputs(1101, randomCount(baseRandom), genParseReplicas), 20,
		"value", "negative_value", "percent_requires_total", "not_percent", "invalid_percent", "percent_out_of_range")
}

func TestAllocationParseReplicasRandom(t *testing.T) {
	requireFn(t, diffParseReplicas.fn, map[string]any{"replicas": 1, "value": 1})
	diffParseReplicas.compareRandom(t, genInputs(1101, randomCount(baseRandom), genParseReplicas))
}

// ---- pods ----

// podOpts steers the pod generator.
type podOpts struct {
	updatedRevision string
	// pendingBias makes most pods pending and unschedulable (the interesting case of the
	// pending and reserved checks).
	pendingBias bool
}

// pod is a Kubernetes Pod (JSON) biased to the states the allocation checks look at; one in 30
// lacks metadata.creationTimestamp.
func (g *gen) pod(name string, o podOpts) map[string]any {
	meta := map[string]any{"name": name}
	if !g.chance(30) {
		meta["creationTimestamp"] = rfc3339(g.timeNear())
	}
	if g.chance(10) {
		meta["deletionTimestamp"] = rfc3339(g.timeNear())
	}
	labels := map[string]any{}
	switch g.n(6) {
	case 0:
	case 1:
		labels[revisionLabel] = g.pick("rev-old", "", "rev-other")
	default:
		labels[revisionLabel] = o.updatedRevision
	}
	switch g.n(6) {
	case 0:
		labels[reservedLabel] = "true"
	case 1:
		labels[reservedLabel] = g.pick("false", "", "True")
	}
	if len(labels) > 0 || g.bool() {
		meta["labels"] = labels
	}
	p := map[string]any{"metadata": meta}
	switch g.n(6) {
	case 0:
		p["spec"] = map[string]any{"nodeName": g.pick("node-1", "")}
	case 1:
		p["spec"] = map[string]any{}
	}
	status := map[string]any{}
	phases := []string{"Pending", "Running", "Succeeded", "Failed", "", "pending"}
	if o.pendingBias && g.n(3) > 0 {
		status["phase"] = "Pending"
	} else if ph := phases[g.n(len(phases))]; ph != "" || g.bool() {
		status["phase"] = ph
	}
	var conds []any
	for k := g.n(4); k > 0; k-- {
		c := map[string]any{}
		switch g.n(7) {
		case 0, 1, 2:
			c["type"], c["status"], c["reason"] = "PodScheduled", "False", "Unschedulable"
		case 3:
			c["type"], c["status"] = "PodScheduled", g.pick("True", "False")
			if g.bool() {
				c["reason"] = g.pick("SchedulerError", "")
			}
		case 4, 5:
			c["type"], c["status"] = "Ready", g.pick("True", "True", "False")
		default:
			c["type"], c["status"] = g.pick("ContainersReady", "Initialized"), "True"
		}
		if !g.chance(5) {
			c["lastTransitionTime"] = rfc3339(g.timeNear())
		}
		conds = append(conds, c)
	}
	if conds != nil {
		status["conditions"] = conds
	}
	if len(status) > 0 || g.bool() {
		p["status"] = status
	}
	return p
}

// podLacksCreation reports whether the JSON pod has no metadata.creationTimestamp (kruise-core
// then answers invalid_input where a pending check needs it; docs/deviations.md, allocation).
func podLacksCreation(p *corev1.Pod) bool { return p.CreationTimestamp.IsZero() }

// ---- allocation.pending_timeout ----

type pendingIn struct {
	Pod            corev1.Pod `json:"pod"`
	TimeoutSeconds int64      `json:"timeoutSeconds"`
	Now            string     `json:"now"`
}

// checkAfterJSON is a re-check delay as the vectors print it: null for the reference's -1.
func checkAfterJSON(d time.Duration) any {
	if d == -1 {
		return nil
	}
	return seconds(d)
}

func refPendingTimeout(in json.RawMessage) refOutcome {
	var i pendingIn
	if err := decodeInto(in, &i); err != nil {
		return refOutcome{kind: "invalid_input"}
	}
	now, err := parseTime(i.Now)
	if err != nil {
		return refOutcome{kind: "invalid_input"}
	}
	var classes []string
	if podLacksCreation(&i.Pod) {
		classes = append(classes, "missing-creation-timestamp")
	}
	if durationOverflows(i.TimeoutSeconds) {
		classes = append(classes, "duration-overflow")
	}
	timedOut, after := ctrlutil.GetTimeBeforePendingTimeout(&i.Pod, time.Duration(i.TimeoutSeconds)*time.Second, now)
	label := "not-timed-out"
	switch {
	case timedOut:
		label = "timed-out"
	case after == -1:
		label = "no-check"
	}
	return refOutcome{value: map[string]any{"timedOut": timedOut, "nextCheckAfterSeconds": checkAfterJSON(after)},
		classes: classes, label: label}
}

var diffPendingTimeout = diffFn{family: "allocation", fn: "allocation.pending_timeout", ref: refPendingTimeout}

// timeoutSeconds is a timeout biased to the defaults, zero, negative and huge values.
func (g *gen) timeoutSeconds() int64 {
	switch g.n(12) {
	case 0:
		return 0
	case 1:
		return -int64(g.pickInt(1, 30))
	case 2:
		return int64(g.pickInt(1<<31-1, 1<<40)) // the second wraps a time.Duration
	}
	return int64(g.pickInt(1, 5, 10, 15, 29, 30, 31, 60, 120, 300, 600, 1800))
}

func genPendingTimeout(g *gen) any {
	return map[string]any{
		"pod":            g.pod("p", podOpts{updatedRevision: "rev-new", pendingBias: true}),
		"timeoutSeconds": g.timeoutSeconds(),
		"now":            rfc3339(genEpoch),
	}
}

func TestAllocationPendingTimeoutVectorsReference(t *testing.T) {
	diffPendingTimeout.checkVectorsReference(t, "allocation")
}

func TestAllocationPendingTimeoutVectors(t *testing.T) {
	requireFn(t, diffPendingTimeout.fn, genPendingTimeout(newGen(1)))
	diffPendingTimeout.compareVectors(t, "allocation")
}

func TestAllocationPendingTimeoutRandomCoverage(t *testing.T) {
	diffPendingTimeout.checkCoverage(t, genInputs(1201, randomCount(baseRandom), genPendingTimeout), 100,
		"timed-out", "not-timed-out", "no-check")
}

func TestAllocationPendingTimeoutRandom(t *testing.T) {
	requireFn(t, diffPendingTimeout.fn, genPendingTimeout(newGen(1)))
	diffPendingTimeout.compareRandom(t, genInputs(1201, randomCount(baseRandom), genPendingTimeout))
}

// ---- allocation.pod_reserved ----

type podReservedIn struct {
	Pod                                corev1.Pod   `json:"pod"`
	UpdatedRevision                    string       `json:"updatedRevision"`
	UpdatedConditionLastTransitionTime *metav1.Time `json:"updatedConditionLastTransitionTime"`
	PendingTimeoutSeconds              int64        `json:"pendingTimeoutSeconds"`
	MinReadySeconds                    int64        `json:"minReadySeconds"`
	Now                                string       `json:"now"`
}

// updatedCondition is the UnitedDeploymentUpdated condition with the given transition time.
func updatedCondition(t metav1.Time) *appsv1beta1.UnitedDeploymentCondition {
	return &appsv1beta1.UnitedDeploymentCondition{Type: appsv1beta1.UnitedDeploymentUpdated, LastTransitionTime: t}
}

// reservedCheckClasses are the accepted classes of one reserved check on pod: a missing
// creationTimestamp or UnitedDeploymentUpdated time that the reference reads (as the zero time,
// or through a nil pointer), and durations that wrap a time.Duration.
func reservedCheckClasses(pod *corev1.Pod, updatedRevision string, haveCondition bool, durations ...int64) []string {
	var classes []string
	if podLacksCreation(pod) {
		classes = append(classes, "missing-creation-timestamp")
	}
	if !haveCondition && pod.Labels[revisionLabel] != updatedRevision {
		classes = append(classes, "missing-update-condition")
	}
	for _, d := range durations {
		if durationOverflows(d) {
			classes = append(classes, "duration-overflow")
			break
		}
	}
	return classes
}

func refPodReserved(in json.RawMessage) refOutcome {
	var i podReservedIn
	if err := decodeInto(in, &i); err != nil {
		return refOutcome{kind: "invalid_input"}
	}
	now, err := parseTime(i.Now)
	if err != nil {
		return refOutcome{kind: "invalid_input"}
	}
	o := refOutcome{classes: reservedCheckClasses(&i.Pod, i.UpdatedRevision, i.UpdatedConditionLastTransitionTime != nil,
		i.PendingTimeoutSeconds, i.MinReadySeconds)}
	subset := &udctrl.Subset{}
	subset.Status.UpdatedRevision = i.UpdatedRevision
	var cond *appsv1beta1.UnitedDeploymentCondition
	if i.UpdatedConditionLastTransitionTime != nil {
		cond = updatedCondition(*i.UpdatedConditionLastTransitionTime)
	}
	reserved, after := udctrl.CheckPodReallyInReservedStatus(&i.Pod, subset, cond,
		time.Duration(i.PendingTimeoutSeconds)*time.Second, time.Duration(i.MinReadySeconds)*time.Second, now)
	timeout := subset.Status.UnschedulableStatus.UpdateTimeoutPods > 0
	o.value = map[string]any{"reserved": reserved, "nextCheckAfterSeconds": checkAfterJSON(after), "updateTimeout": timeout}
	switch {
	case timeout:
		o.label = "update-timeout"
	case reserved:
		o.label = "reserved"
	default:
		o.label = "not-reserved"
	}
	return o
}

var diffPodReserved = diffFn{family: "allocation", fn: "allocation.pod_reserved", ref: withClassesOnPanic(refPodReserved, func(in json.RawMessage) []string {
	var i podReservedIn
	if decodeInto(in, &i) != nil {
		return nil
	}
	return reservedCheckClasses(&i.Pod, i.UpdatedRevision, i.UpdatedConditionLastTransitionTime != nil,
		i.PendingTimeoutSeconds, i.MinReadySeconds)
})}

// withClassesOnPanic wraps ref so that a panic of the reference still carries the input's
// classes (computed by classes from the input alone).
func withClassesOnPanic(ref refFn, classes func(in json.RawMessage) []string) refFn {
	return func(in json.RawMessage) (o refOutcome) {
		defer func() {
			if p := recover(); p != nil {
				o = refOutcome{kind: fmt.Sprintf("panic: %v", p), classes: classes(in)}
			}
		}()
		return ref(in)
	}
}

func genPodReserved(g *gen) any {
	in := map[string]any{
		"pod":                   g.pod("p", podOpts{updatedRevision: "rev-new", pendingBias: g.bool()}),
		"updatedRevision":       "rev-new",
		"pendingTimeoutSeconds": g.timeoutSeconds(),
		"minReadySeconds":       g.timeoutSeconds(),
		"now":                   rfc3339(genEpoch),
	}
	if !g.chance(8) {
		in["updatedConditionLastTransitionTime"] = rfc3339(g.timeNear())
	}
	return in
}

func TestAllocationPodReservedVectorsReference(t *testing.T) {
	diffPodReserved.checkVectorsReference(t, "allocation")
}

func TestAllocationPodReservedVectors(t *testing.T) {
	requireFn(t, diffPodReserved.fn, genPodReserved(newGen(1)))
	diffPodReserved.compareVectors(t, "allocation")
}

func TestAllocationPodReservedRandomCoverage(t *testing.T) {
	diffPodReserved.checkCoverage(t, genInputs(1301, randomCount(baseRandom), genPodReserved), 100,
		"reserved", "not-reserved", "update-timeout")
}

func TestAllocationPodReservedRandom(t *testing.T) {
	requireFn(t, diffPodReserved.fn, genPodReserved(newGen(1)))
	diffPodReserved.compareRandom(t, genInputs(1301, randomCount(baseRandom), genPodReserved))
}
