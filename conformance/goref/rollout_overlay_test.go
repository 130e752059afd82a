//go:build goref_overlay

// Differential tests of the rollout fns whose reference is unexported (exports in overlay/, run
// through conformance/goref/run):
//   - rollout.partition: CloneSet CalculatePartitionReplicas (pkg/util/tools.go), DaemonSet
//     filterDaemonPodsNodeToUpdate (pkg/controller/daemonset/daemonset_update.go), StatefulSet
//     sortPodsToUpdate (pkg/controller/statefulset/stateful_update_utils.go);
//   - rollout.cloneset_update_budget: calculateDiffsWithExpectation and limitUpdateIndexes
//     (pkg/controller/cloneset/sync);
//   - rollout.progress: calculateProgressingStatus and hasProgressingConditionChanged
//     (pkg/controller/cloneset/cloneset_status.go);
//   - rollout.daemonset_budget: updatedDesiredNodeCounts; rollout.daemonset_update_nodes:
//     filterDaemonPodsNodeToUpdate;
//   - rollout.validate: the CloneSet (v1alpha1), Advanced DaemonSet and Advanced StatefulSet
//     (v1beta1) spec validators of pkg/webhook/*/validating.
package goref

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	apps "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation/field"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	appspub "github.com/openkruise/kruise/apis/apps/pub"
	appsv1alpha1 "github.com/openkruise/kruise/apis/apps/v1alpha1"
	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
	clonesetctrl "github.com/openkruise/kruise/pkg/controller/cloneset"
	clonesetsync "github.com/openkruise/kruise/pkg/controller/cloneset/sync"
	clonesetutils "github.com/openkruise/kruise/pkg/controller/cloneset/utils"
	dsctrl "github.com/openkruise/kruise/pkg/controller/daemonset"
	stsctrl "github.com/openkruise/kruise/pkg/controller/statefulset"
	"github.com/openkruise/kruise/pkg/features"
	kruiseutil "github.com/openkruise/kruise/pkg/util"
	utilfeature "github.com/openkruise/kruise/pkg/util/feature"
	csvalidating "github.com/openkruise/kruise/pkg/webhook/cloneset/validating"
	dsvalidating "github.com/openkruise/kruise/pkg/webhook/daemonset/validating"
	stsvalidating "github.com/openkruise/kruise/pkg/webhook/statefulset/validating"
)

const specifiedDeleteLabel = "apps.kruise.io/specified-delete"

// scaleOverflows reports whether the reference converts a float outside the int64 range (or
// NaN) to int for value scaled against total in mode (the intstr int64-overflow class).
func scaleOverflows(v *intstr.IntOrString, total int, mode string) bool {
	if v == nil || v.Type != intstr.String {
		return false
	}
	return percentInt64Overflow(scaleInput{Value: v.StrVal, Total: total, Mode: mode})
}

// partitionBeyondInt32 reports whether a DaemonSet partition scales (rounding down, as
// filterDaemonPodsNodeToUpdate does) to a value outside int32, which the reference then
// truncates to its int32 partition.
func partitionBeyondInt32(p *intstr.IntOrString, desired int) bool {
	if p == nil {
		return false
	}
	v, err := intstr.GetScaledValueFromIntOrPercent(p, desired, false)
	return err == nil && int(int32(v)) != v
}

// ---- rollout.partition ----

type partitionIn struct {
	Kind                   string              `json:"kind"`
	Partition              *intstr.IntOrString `json:"partition"`
	Replicas               *int32              `json:"replicas"`
	DesiredNumberScheduled int32               `json:"desiredNumberScheduled"`
	Nodes                  *int32              `json:"nodes"`
}

// maxRefNodes bounds the node and pod lists the adapters build (larger inputs are not drawn).
const maxRefNodes = 20000

// oldDaemonPods gives every one of n nodes exactly one live pod of an old revision.
func oldDaemonPods(n int) map[string][]*corev1.Pod {
	m := make(map[string][]*corev1.Pod, n)
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("node-%d", i)
		m[name] = []*corev1.Pod{daemonPod(name, "rev-old")}
	}
	return m
}

func daemonPod(node, hash string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "pod-" + node,
		Labels: map[string]string{apps.DefaultDaemonSetUniqueLabelKey: hash}}}
}

func refPartition(in json.RawMessage) refOutcome {
	var i partitionIn
	if err := decodeInto(in, &i); err != nil {
		if strings.Contains(string(in), `"kind":"StatefulSet"`) && strings.Contains(err.Error(), "int32") {
			return refOutcome{kind: "not_an_integer", label: "StatefulSet/not_an_integer"}
		}
		return refOutcome{kind: "invalid_input"}
	}
	o := refOutcome{}
	if bigIntegers(in) {
		o.classes = append(o.classes, "int32-overflow")
	}
	switch i.Kind {
	case "CloneSet":
		r := 1
		if i.Replicas != nil {
			r = int(*i.Replicas)
		}
		if scaleOverflows(i.Partition, r, "kruise") {
			o.classes = append(o.classes, "int64-overflow")
		}
		p, err := kruiseutil.CalculatePartitionReplicas(i.Partition, i.Replicas)
		if err != nil {
			o.kind, o.label = scaleErrKind(err.Error()), "CloneSet/error"
			return o
		}
		o.value = map[string]any{"partition": p, "maxUpdated": r - p}
	case "DaemonSet":
		desired := int(i.DesiredNumberScheduled)
		nodes := desired
		if i.Nodes != nil {
			nodes = int(*i.Nodes)
		}
		if scaleOverflows(i.Partition, desired, "scaled") {
			o.classes = append(o.classes, "int64-overflow")
		}
		if partitionBeyondInt32(i.Partition, desired) {
			o.classes = append(o.classes, "int32-overflow")
		}
		ds := &appsv1beta1.DaemonSet{}
		ds.Spec.UpdateStrategy.RollingUpdate = &appsv1beta1.RollingUpdateDaemonSet{Partition: i.Partition}
		ds.Status.DesiredNumberScheduled = i.DesiredNumberScheduled
		eligible, err := dsctrl.GorefFilterDaemonPodsNodeToUpdate(ds, "rev-new", oldDaemonPods(nodes), nil)
		if err != nil {
			o.kind, o.label = scaleErrKind(err.Error()), "DaemonSet/error"
			return o
		}
		p := 0
		if i.Partition != nil {
			// the partition filterDaemonPodsNodeToUpdate computed (it does not return it)
			p, _ = intstr.GetScaledValueFromIntOrPercent(i.Partition, desired, false)
		}
		if nodes-int(int32(p)) > len(eligible) && len(eligible) == nodes {
			// more updates allowed than there are nodes: the reference caps at the node count
			o.classes = append(o.classes, "pending-daemonset-maxupdated-cap")
		}
		o.value = map[string]any{"partition": p, "maxUpdated": len(eligible)}
	case "StatefulSet":
		if i.Replicas == nil {
			return refOutcome{kind: "invalid_input"}
		}
		var p *int32
		if i.Partition != nil {
			if i.Partition.Type == intstr.String {
				return refOutcome{kind: "not_an_integer", label: "StatefulSet/not_an_integer"}
			}
			p = &i.Partition.IntVal
		}
		if p != nil && *p < 0 {
			o.classes = append(o.classes, "negative-sts-partition")
		}
		n := max(int(*i.Replicas), 0)
		pods := make([]*corev1.Pod, n)
		for k := range pods {
			pods[k] = &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("p-%d", k)}}
		}
		idx := stsctrl.GorefSortPodsToUpdate(&appsv1beta1.RollingUpdateStatefulSetStrategy{Partition: p}, "rev-new", *i.Replicas, pods)
		part := 0
		if p != nil {
			part = int(*p)
		}
		o.value = map[string]any{"partition": part, "maxUpdated": len(idx)}
	default:
		return refOutcome{kind: "invalid_input"}
	}
	if o.label == "" {
		o.label = i.Kind
	}
	return o
}

var diffPartition = diffFn{family: "rollout", fn: "rollout.partition", ref: withClassesOnPanic(refPartition, func(in json.RawMessage) []string {
	var i partitionIn
	if decodeInto(in, &i) == nil && i.Kind == "StatefulSet" && i.Partition != nil && i.Partition.Type == intstr.Int && i.Partition.IntVal < 0 {
		return []string{"negative-sts-partition"}
	}
	return nil
})}

// replicasCount is a replica count biased to small values, with a few large and negative ones.
func (g *gen) replicasCount() int {
	switch g.n(20) {
	case 0:
		return g.pickInt(-1, 1000, 9999, 10000, 19999)
	case 1, 2:
		return 0
	}
	return g.pickInt(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 20, 33, 99, 100, 101)
}

func genPartition(g *gen) any {
	in := map[string]any{"partition": g.maybeIOP(8)}
	if g.chance(8) {
		in["partition"] = g.badPercent()
	}
	switch g.n(3) {
	case 0:
		in["kind"] = "CloneSet"
		if g.chance(10) {
			in["replicas"] = nil
		} else {
			in["replicas"] = g.replicasCount()
		}
		if g.chance(20) {
			in["replicas"] = g.int32Edge()
		}
	case 1:
		in["kind"] = "DaemonSet"
		in["desiredNumberScheduled"] = max(g.replicasCount(), 0)
		if g.n(3) == 0 {
			in["nodes"] = max(g.replicasCount(), 0)
		}
	default:
		in["kind"] = "StatefulSet"
		in["replicas"] = max(g.replicasCount(), 0)
		if g.n(4) > 0 {
			in["partition"] = g.pickInt(0, 0, 1, 2, 3, 5, 10, 100, -1)
		}
	}
	return in
}

func TestRolloutPartitionVectorsReference(t *testing.T) {
	diffPartition.checkVectorsReference(t, "rollout")
}

func TestRolloutPartitionVectors(t *testing.T) {
	requireFn(t, diffPartition.fn, map[string]any{"kind": "CloneSet", "replicas": 1})
	diffPartition.compareVectors(t, "rollout")
}

func TestRolloutPartitionRandomCoverage(t *testing.T) {
	diffPartition.checkCoverage(t, genInputs(3201, randomCount(baseRandom), genPartition), 30,
		"CloneSet", "CloneSet/error", "DaemonSet", "DaemonSet/error", "StatefulSet", "StatefulSet/not_an_integer")
}

func TestRolloutPartitionRandom(t *testing.T) {
	requireFn(t, diffPartition.fn, map[string]any{"kind": "CloneSet", "replicas": 1})
	diffPartition.compareRandom(t, genInputs(3201, randomCount(baseRandom), genPartition))
}

// ---- rollout.cloneset_update_budget ----

type budgetPodIn struct {
	Updated         bool   `json:"updated"`
	LifecycleState  string `json:"lifecycleState"`
	Available       bool   `json:"available"`
	SpecifiedDelete bool   `json:"specifiedDelete"`
}

type budgetIn struct {
	Type                          string              `json:"type"`
	Replicas                      int32               `json:"replicas"`
	Partition                     *intstr.IntOrString `json:"partition"`
	MaxUnavailable                *intstr.IntOrString `json:"maxUnavailable"`
	MaxSurge                      *intstr.IntOrString `json:"maxSurge"`
	ScaleMaxUnavailable           *intstr.IntOrString `json:"scaleMaxUnavailable"`
	Paused                        bool                `json:"paused"`
	RevisionConsistent            bool                `json:"revisionConsistent"`
	PartitionRollback             bool                `json:"partitionRollback"`
	PreparingUpdateAsUpdate       bool                `json:"preparingUpdateAsUpdate"`
	ScalingExcludePreparingDelete bool                `json:"scalingExcludePreparingDelete"`
	Pods                          []budgetPodIn       `json:"pods"`
}

// budgetPods builds the controller's pods for the vector pods: revision label, lifecycle state,
// specified-delete label, and an availability made of phase and Ready condition.
func budgetPods(in []budgetPodIn) []*corev1.Pod {
	readySince := metav1.NewTime(genEpoch.Add(-time.Hour))
	out := make([]*corev1.Pod, len(in))
	for k, p := range in {
		hash := "rev-old"
		if p.Updated {
			hash = "rev-new"
		}
		pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("pod-%d", k),
			Labels: map[string]string{apps.ControllerRevisionHashLabelKey: hash}}}
		if p.LifecycleState != "" {
			pod.Labels[appspub.LifecycleStateKey] = p.LifecycleState
		}
		if p.SpecifiedDelete {
			pod.Labels[specifiedDeleteLabel] = "true"
		}
		ready := corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: readySince}
		switch {
		case p.Available:
			pod.Status = corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{ready}}
		case k%2 == 0:
			pod.Status = corev1.PodStatus{Phase: corev1.PodPending}
		default:
			ready.Status = corev1.ConditionFalse
			pod.Status = corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{ready}}
		}
		out[k] = pod
	}
	return out
}

// setGates sets the two feature gates the budget reads.
func setGates(rollback, preparingUpdateAsUpdate bool) {
	if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(map[string]bool{
		string(features.CloneSetPartitionRollback): rollback,
		string(features.PreparingUpdateAsUpdate):   preparingUpdateAsUpdate,
	}); err != nil {
		panic(err)
	}
}

func refBudget(in json.RawMessage) refOutcome {
	var i budgetIn
	if err := decodeInto(in, &i); err != nil {
		return refOutcome{kind: "invalid_input"}
	}
	o := refOutcome{}
	if bigIntegers(in) {
		o.classes = append(o.classes, "int32-overflow")
	}
	if nullMember(in, "pods") {
		o.classes = append(o.classes, "pending-null-list")
	}
	r := int(i.Replicas)
	for _, v := range []*intstr.IntOrString{i.MaxUnavailable, i.MaxSurge, i.ScaleMaxUnavailable} {
		if v != nil && v.Type == intstr.String {
			// the legacy parser deletes every '%' before Atoi
			if n, err := strconv.Atoi(strings.ReplaceAll(v.StrVal, "%", "")); err == nil && math.Abs(float64(n)*float64(r)/100) >= 0x1p63 {
				o.classes = append(o.classes, "int64-overflow")
			}
		}
	}
	if scaleOverflows(i.Partition, r, "kruise") {
		o.classes = append(o.classes, "int64-overflow")
	}
	if i.Type == string(appsv1beta1.OnDeleteCloneSetUpdateStrategyType) {
		o.classes = append(o.classes, "pending-ondelete")
	}
	cs := &appsv1beta1.CloneSet{}
	cs.Spec.Replicas = &i.Replicas
	cs.Spec.UpdateStrategy.Type = appsv1beta1.CloneSetUpdateStrategyType(i.Type)
	cs.Spec.UpdateStrategy.RollingUpdate = &appsv1beta1.RollingUpdateCloneSetStrategy{Partition: i.Partition,
		MaxUnavailable: i.MaxUnavailable, MaxSurge: i.MaxSurge, Paused: i.Paused}
	cs.Spec.ScaleStrategy.MaxUnavailable = i.ScaleMaxUnavailable
	cs.Spec.ScaleStrategy.ExcludePreparingDelete = i.ScalingExcludePreparingDelete
	pods := budgetPods(i.Pods)
	current := "rev-old"
	if i.RevisionConsistent {
		current = "rev-new"
	}
	setGates(i.PartitionRollback, i.PreparingUpdateAsUpdate)
	defer setGates(false, false)
	d := clonesetsync.GorefCalculateDiffs(cs, pods, current, "rev-new", i.PreparingUpdateAsUpdate)

	// The resolved values: calculateDiffsWithExpectation keeps them local, so they are
	// recomputed with the same reference helpers and the same wiring (cloneset_sync_utils.go).
	partition := 0
	if i.Partition != nil {
		if p, err := kruiseutil.CalculatePartitionReplicas(i.Partition, cs.Spec.Replicas); err == nil {
			partition = p
		}
	}
	maxSurge := 0
	if i.MaxSurge != nil {
		maxSurge, _ = intstr.GetValueFromIntOrPercent(i.MaxSurge, r, true)
		if i.Paused {
			maxSurge = 0
		}
	}
	maxUnavailable, _ := intstr.GetValueFromIntOrPercent(intstr.ValueOrDefault(i.MaxUnavailable,
		intstr.FromString(appsv1beta1.DefaultCloneSetMaxUnavailable)), r, maxSurge == 0)
	scaleMaxUnavailable, _ := intstr.GetValueFromIntOrPercent(intstr.ValueOrDefault(i.ScaleMaxUnavailable,
		intstr.FromInt32(math.MaxInt32)), r, true)

	// Pods updated now (cloneset_update.go Update): none when OnDelete or paused; otherwise the
	// update path's diff and limitUpdateIndexes over the candidates in input order.
	now := 0
	if cs.Spec.UpdateStrategy.Type != appsv1beta1.OnDeleteCloneSetUpdateStrategyType && !i.Paused {
		_, kept := clonesetsync.GorefLimitUpdateIndexes(cs, pods, current, "rev-new", func(updateNum int) []int {
			var wait []int
			for k, p := range i.Pods {
				if p.Updated != (updateNum > 0) && p.LifecycleState != string(appspub.LifecycleStatePreparingDelete) {
					wait = append(wait, k)
				}
			}
			return wait
		})
		now = len(kept)
	}
	o.value = map[string]any{
		"partition": partition, "maxSurge": maxSurge, "maxUnavailable": maxUnavailable, "scaleMaxUnavailable": scaleMaxUnavailable,
		"scaleUpNum": d.ScaleUpNum, "scaleUpNumOldRevision": d.ScaleUpNumOldRevision, "scaleDownNum": d.ScaleDownNum,
		"scaleDownNumOldRevision": d.ScaleDownNumOldRevision, "scaleUpLimit": d.ScaleUpLimit, "deleteReadyLimit": d.DeleteReadyLimit,
		"useSurge": d.UseSurge, "useSurgeOldRevision": d.UseSurgeOldRevision, "updateNum": d.UpdateNum,
		"updateMaxUnavailable": d.UpdateMaxUnavailable, "podsToUpdateNow": now,
	}
	switch {
	case now > 0:
		o.label = "updates"
	case d.UpdateNum < 0:
		o.label = "rollback"
	case d.ScaleUpNum > 0:
		o.label = "scale-up"
	case d.ScaleDownNum > 0:
		o.label = "scale-down"
	case d.UseSurge > 0:
		o.label = "surge"
	default:
		o.label = "steady"
	}
	return o
}

var diffBudget = diffFn{family: "rollout", fn: "rollout.cloneset_update_budget", ref: refBudget}

func (g *gen) budgetPod() map[string]any {
	p := map[string]any{"updated": g.bool(), "available": g.n(3) > 0}
	if g.n(3) > 0 {
		p["lifecycleState"] = g.pick("", "Normal", "Normal", "PreparingNormal", "PreparingUpdate", "Updating", "Updated", "PreparingDelete")
	}
	if g.chance(6) {
		p["specifiedDelete"] = true
	} else if g.chance(6) {
		p["specifiedDelete"] = false
	}
	return p
}

func genBudget(g *gen) any {
	r := g.pickInt(0, 1, 2, 3, 4, 5, 5, 6, 8, 10, 10, 12, 20)
	in := map[string]any{
		"replicas":            r,
		"partition":           g.budgetValue(r),
		"maxUnavailable":      g.budgetValue(r),
		"maxSurge":            g.budgetValue(r),
		"scaleMaxUnavailable": g.budgetValue(r),
	}
	for _, k := range []string{"paused", "revisionConsistent", "partitionRollback", "preparingUpdateAsUpdate", "scalingExcludePreparingDelete"} {
		switch g.n(5) {
		case 0:
		case 1:
			in[k] = true
		default:
			in[k] = g.chance(4)
		}
	}
	if g.chance(6) {
		in["type"] = g.pick("ReCreate", "InPlaceIfPossible", "OnDelete")
	}
	pods := []any{}
	for k := r + g.pickInt(-3, -1, 0, 0, 0, 1, 2, 4); k > 0; k-- {
		pods = append(pods, g.budgetPod())
	}
	switch {
	case g.chance(30):
		in["pods"] = nil
	case len(pods) > 0 || g.bool():
		in["pods"] = pods
	}
	for _, k := range []string{"partition", "maxUnavailable", "maxSurge", "scaleMaxUnavailable"} {
		if in[k] == nil && g.bool() {
			delete(in, k)
		}
	}
	return in
}

// budgetValue is an int-or-percent of a budget field, or nil.
func (g *gen) budgetValue(r int) any {
	switch g.n(8) {
	case 0, 1:
		return nil
	case 2:
		return g.intOrPercent()
	case 3, 4:
		return g.n(r + 2)
	}
	return fmt.Sprintf("%d%%", g.pickInt(0, 10, 20, 25, 30, 33, 40, 50, 60, 75, 90, 100))
}

func TestRolloutBudgetVectorsReference(t *testing.T) {
	diffBudget.checkVectorsReference(t, "rollout")
}

func TestRolloutBudgetVectors(t *testing.T) {
	requireFn(t, diffBudget.fn, map[string]any{"replicas": 0})
	diffBudget.compareVectors(t, "rollout")
}

func TestRolloutBudgetRandomCoverage(t *testing.T) {
	diffBudget.checkCoverage(t, genInputs(3301, randomCount(baseRandom), genBudget), 30,
		"updates", "rollback", "scale-up", "scale-down", "steady")
}

func TestRolloutBudgetRandom(t *testing.T) {
	requireFn(t, diffBudget.fn, map[string]any{"replicas": 0})
	diffBudget.compareRandom(t, genInputs(3301, randomCount(baseRandom), genBudget))
}

// ---- rollout.progress ----

type progressCondIn struct {
	Type               string      `json:"type"`
	Status             string      `json:"status"`
	Reason             string      `json:"reason"`
	Message            string      `json:"message"`
	LastUpdateTime     metav1.Time `json:"lastUpdateTime"`
	LastTransitionTime metav1.Time `json:"lastTransitionTime"`
}

type progressIn struct {
	Spec struct {
		Replicas                *int32 `json:"replicas"`
		ProgressDeadlineSeconds *int32 `json:"progressDeadlineSeconds"`
		MinReadySeconds         int32  `json:"minReadySeconds"`
		UpdateStrategy          struct {
			Partition *intstr.IntOrString `json:"partition"`
			Paused    bool                `json:"paused"`
		} `json:"updateStrategy"`
	} `json:"spec"`
	Status    appsv1beta1.CloneSetStatus `json:"status"`
	Condition *progressCondIn            `json:"condition"`
	Now       string                     `json:"now"`
}

func progressCondJSON(c *appsv1beta1.CloneSetCondition) any {
	if c == nil {
		return nil
	}
	return map[string]any{"type": string(c.Type), "status": string(c.Status), "reason": c.Reason, "message": c.Message,
		"lastUpdateTime": c.LastUpdateTime.UTC().Format(time.RFC3339), "lastTransitionTime": c.LastTransitionTime.UTC().Format(time.RFC3339)}
}

func refProgress(in json.RawMessage) refOutcome {
	var i progressIn
	if err := decodeInto(in, &i); err != nil {
		return refOutcome{kind: "invalid_input"}
	}
	now, err := parseTime(i.Now)
	if err != nil {
		return refOutcome{kind: "invalid_input"}
	}
	o := refOutcome{}
	if bigIntegers(in) {
		o.classes = append(o.classes, "int32-overflow")
	}
	cs := &appsv1beta1.CloneSet{}
	cs.Spec.Replicas = i.Spec.Replicas
	cs.Spec.ProgressDeadlineSeconds = i.Spec.ProgressDeadlineSeconds
	cs.Spec.MinReadySeconds = i.Spec.MinReadySeconds
	cs.Spec.UpdateStrategy.RollingUpdate = &appsv1beta1.RollingUpdateCloneSetStrategy{
		Partition: i.Spec.UpdateStrategy.Partition, Paused: i.Spec.UpdateStrategy.Paused}
	status := i.Status.DeepCopy()
	status.Conditions = nil
	if c := i.Condition; c != nil {
		status.Conditions = []appsv1beta1.CloneSetCondition{{Type: appsv1beta1.CloneSetConditionTypeProgressing,
			Status: corev1.ConditionStatus(c.Status), Reason: c.Reason, Message: c.Message,
			LastUpdateTime: c.LastUpdateTime, LastTransitionTime: c.LastTransitionTime}}
	}
	old := status.DeepCopy()
	d := clonesetctrl.GorefCalculateProgressingStatus(cs, status, now)
	cond := clonesetutils.GetCloneSetCondition(*status, appsv1beta1.CloneSetConditionTypeProgressing)
	var requeue any
	if d != -1 {
		requeue = int64(d / time.Second)
	}
	o.value = map[string]any{"condition": progressCondJSON(cond),
		"changed": clonesetctrl.GorefHasProgressingConditionChanged(*old, *status), "requeueAfterSeconds": requeue}
	o.label = "removed"
	if cond != nil {
		o.label = cond.Reason
	}
	return o
}

var diffProgress = diffFn{family: "rollout", fn: "rollout.progress", ref: refProgress}

var progressReasons = []string{"CloneSetAvailable", "CloneSetPaused", "ProgressPartitionAvailable", "ProgressDeadlineExceeded", "CloneSetUpdated"}

func genProgress(g *gen) any {
	r := g.pickInt(0, 1, 2, 3, 5, 10, 10, 20)
	cnt := func() int {
		switch g.n(4) {
		case 0:
			return r
		case 1:
			return g.n(r + 2)
		}
		return g.pickInt(r, r, 0, max(r-1, 0))
	}
	rep, upd := cnt(), cnt()
	updAvail := min(upd, cnt())
	exp := g.pickInt(r, r, 0, r/2, max(r-1, 0), upd, updAvail)
	cur, next := "r1", g.pick("r1", "r2", "r2")
	spec := map[string]any{"replicas": r, "minReadySeconds": g.pickInt(0, 0, 5, 30)}
	switch g.n(8) {
	case 0:
	case 1:
		spec["progressDeadlineSeconds"] = g.pickInt(math.MaxInt32, 0, -1)
	default:
		spec["progressDeadlineSeconds"] = g.pickInt(1, 5, 10, 30, 60, 600)
	}
	us := map[string]any{}
	if g.n(3) > 0 {
		us["paused"] = g.chance(4)
	}
	if g.chance(3) {
		us["partition"] = g.pick("50%", "0%", "90%")
	}
	spec["updateStrategy"] = us
	status := map[string]any{"replicas": rep, "readyReplicas": rep, "availableReplicas": updAvail, "updatedReplicas": upd,
		"updatedReadyReplicas": upd, "updatedAvailableReplicas": updAvail, "expectedUpdatedReplicas": exp,
		"currentRevision": cur, "updateRevision": next}
	in := map[string]any{"spec": spec, "status": status, "now": rfc3339(genEpoch)}
	if g.n(3) > 0 {
		reason := progressReasons[g.n(len(progressReasons))]
		st := "True"
		if reason == "ProgressDeadlineExceeded" || g.chance(12) {
			st = "False"
		}
		upd := g.timeNear().Truncate(time.Second) // the API serves whole seconds (metav1.Time)
		c := map[string]any{"status": st, "reason": reason, "lastUpdateTime": rfc3339(upd),
			"lastTransitionTime": rfc3339(upd.Add(-time.Duration(g.pickInt(0, 0, 10, 100)) * time.Second))}
		if g.bool() {
			c["message"] = g.pick("CloneSet is progressing", "x", "")
		}
		if g.chance(4) {
			c["type"] = "Progressing"
		}
		in["condition"] = c
	}
	return in
}

func TestRolloutProgressVectorsReference(t *testing.T) {
	diffProgress.checkVectorsReference(t, "rollout")
}

func TestRolloutProgressVectors(t *testing.T) {
	requireFn(t, diffProgress.fn, map[string]any{"spec": map[string]any{"replicas": 1}, "now": rfc3339(genEpoch)})
	diffProgress.compareVectors(t, "rollout")
}

func TestRolloutProgressRandomCoverage(t *testing.T) {
	diffProgress.checkCoverage(t, genInputs(3401, randomCount(baseRandom), genProgress), 30, append(progressReasons, "removed")...)
}

func TestRolloutProgressRandom(t *testing.T) {
	requireFn(t, diffProgress.fn, map[string]any{"spec": map[string]any{"replicas": 1}, "now": rfc3339(genEpoch)})
	diffProgress.compareRandom(t, genInputs(3401, randomCount(baseRandom), genProgress))
}

// ---- rollout.daemonset_budget ----

type dsBudgetIn struct {
	DesiredNumberScheduled int32                               `json:"desiredNumberScheduled"`
	UpdateStrategy         appsv1beta1.DaemonSetUpdateStrategy `json:"updateStrategy"`
}

func refDSBudget(in json.RawMessage) refOutcome {
	var i dsBudgetIn
	if err := decodeInto(in, &i); err != nil {
		return refOutcome{kind: "invalid_input"}
	}
	n := int(i.DesiredNumberScheduled)
	if n > maxRefNodes {
		return refOutcome{kind: "unmapped: too many nodes for the adapter"}
	}
	o := refOutcome{}
	if r := i.UpdateStrategy.RollingUpdate; r != nil && (scaleOverflows(r.MaxUnavailable, n, "scaled") || scaleOverflows(r.MaxSurge, n, "scaled")) {
		o.classes = append(o.classes, "int64-overflow")
	}
	ds := &appsv1beta1.DaemonSet{}
	ds.Spec.UpdateStrategy = i.UpdateStrategy
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node"}}
	nodes := make([]*corev1.Node, max(n, 0))
	for k := range nodes {
		nodes[k] = node
	}
	surge, unavailable, err := dsctrl.GorefUpdatedDesiredNodeCounts(ds, nodes, map[string][]*corev1.Pod{})
	if err != nil {
		switch msg := err.Error(); {
		case strings.Contains(msg, "invalid value for MaxUnavailable"):
			o.kind = "invalid_max_unavailable"
		case strings.Contains(msg, "invalid value for MaxSurge"):
			o.kind = "invalid_max_surge"
		default:
			o.kind = "unmapped: " + msg
		}
		return o
	}
	o.value = map[string]any{"maxSurge": surge, "maxUnavailable": unavailable}
	switch {
	case surge > 0:
		o.label = "surge"
	case unavailable > 0:
		o.label = "unavailable"
	default:
		o.label = "zero"
	}
	return o
}

var diffDSBudget = diffFn{family: "rollout", fn: "rollout.daemonset_budget", ref: refDSBudget}

func genDSBudget(g *gen) any {
	ru := map[string]any{}
	for _, k := range []string{"maxUnavailable", "maxSurge"} {
		switch g.n(5) {
		case 0:
		case 1:
			ru[k] = nil
		case 2:
			ru[k] = g.intOrPercent()
			if g.chance(3) {
				ru[k] = g.badPercent()
			}
		default:
			ru[k] = g.pick("0", "0%", "1", "25%", "50%", "100%", "10%")
			if ru[k] == "0" || ru[k] == "1" {
				ru[k] = g.pickInt(0, 1, 2)
			}
		}
	}
	us := map[string]any{"type": g.pick("RollingUpdate", "RollingUpdate", "RollingUpdate", "OnDelete", "", "rollingUpdate")}
	if g.n(6) > 0 {
		us["rollingUpdate"] = ru
	} else if g.bool() {
		us["rollingUpdate"] = nil
	}
	return map[string]any{"desiredNumberScheduled": max(g.replicasCount(), 0), "updateStrategy": us}
}

func TestRolloutDaemonSetBudgetVectorsReference(t *testing.T) {
	diffDSBudget.checkVectorsReference(t, "rollout")
}

func TestRolloutDaemonSetBudgetVectors(t *testing.T) {
	requireFn(t, diffDSBudget.fn, map[string]any{"desiredNumberScheduled": 0})
	diffDSBudget.compareVectors(t, "rollout")
}

func TestRolloutDaemonSetBudgetRandomCoverage(t *testing.T) {
	diffDSBudget.checkCoverage(t, genInputs(3501, randomCount(baseRandom), genDSBudget), 30,
		"surge", "unavailable", "zero", "invalid_max_unavailable", "invalid_max_surge")
}

func TestRolloutDaemonSetBudgetRandom(t *testing.T) {
	requireFn(t, diffDSBudget.fn, map[string]any{"desiredNumberScheduled": 0})
	diffDSBudget.compareRandom(t, genInputs(3501, randomCount(baseRandom), genDSBudget))
}

// ---- rollout.daemonset_update_nodes ----

type updateNodesIn struct {
	Partition              *intstr.IntOrString `json:"partition"`
	DesiredNumberScheduled int32               `json:"desiredNumberScheduled"`
	Selector               bool                `json:"selector"`
	Nodes                  []struct {
		Name     string `json:"name"`
		State    string `json:"state"`
		Selected bool   `json:"selected"`
	} `json:"nodes"`
}

func refUpdateNodes(in json.RawMessage) refOutcome {
	var i updateNodesIn
	if err := decodeInto(in, &i); err != nil {
		return refOutcome{kind: "invalid_input"}
	}
	o := refOutcome{}
	if scaleOverflows(i.Partition, int(i.DesiredNumberScheduled), "scaled") {
		o.classes = append(o.classes, "int64-overflow")
	}
	if bigIntegers(in) {
		o.classes = append(o.classes, "int32-overflow")
	}
	if nullMember(in, "nodes") {
		o.classes = append(o.classes, "pending-null-list")
	}
	if partitionBeyondInt32(i.Partition, int(i.DesiredNumberScheduled)) {
		o.classes = append(o.classes, "int32-overflow")
	}
	ds := &appsv1beta1.DaemonSet{}
	ru := &appsv1beta1.RollingUpdateDaemonSet{Partition: i.Partition}
	if i.Selector {
		ru.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"goref": "selected"}}
	}
	ds.Spec.UpdateStrategy = appsv1beta1.DaemonSetUpdateStrategy{Type: appsv1beta1.RollingUpdateDaemonSetStrategyType, RollingUpdate: ru}
	ds.Status.DesiredNumberScheduled = i.DesiredNumberScheduled
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	pods := map[string][]*corev1.Pod{}
	seen := map[string]bool{}
	for _, n := range i.Nodes {
		if seen[n.Name] {
			o.classes = append(o.classes, "pending-duplicate-node-names")
		}
		seen[n.Name] = true
		node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: n.Name}}
		if n.Selected {
			node.Labels = map[string]string{"goref": "selected"}
		}
		if err := indexer.Add(node); err != nil {
			panic(err)
		}
		switch n.State {
		case "updated":
			pods[n.Name] = []*corev1.Pod{daemonPod(n.Name, "rev-new")}
		case "updating":
			pods[n.Name] = nil
		case "old":
			pods[n.Name] = []*corev1.Pod{daemonPod(n.Name, "rev-old")}
		default:
			return refOutcome{kind: "invalid_input"}
		}
	}
	got, err := dsctrl.GorefFilterDaemonPodsNodeToUpdate(ds, "rev-new", pods, corelisters.NewNodeLister(indexer))
	if err != nil {
		o.kind = scaleErrKind(err.Error())
		return o
	}
	if got == nil {
		got = []string{}
	}
	o.value = got
	switch {
	case len(got) == 0:
		o.label = "none"
	case len(got) < len(seen):
		o.label = "some"
	default:
		o.label = "all"
	}
	return o
}

var diffUpdateNodes = diffFn{family: "rollout", fn: "rollout.daemonset_update_nodes", ref: refUpdateNodes}

func genUpdateNodes(g *gen) any {
	k := g.count(8)
	nodes := []any{}
	names := g.nodeNames(k)
	for _, name := range names {
		n := map[string]any{"name": name, "state": g.pick("updated", "updating", "old", "old", "old")}
		if g.n(3) > 0 {
			n["selected"] = g.bool()
		}
		nodes = append(nodes, n)
	}
	in := map[string]any{"desiredNumberScheduled": g.pickInt(0, k, k, k+1, max(k-1, 0), 10), "nodes": nodes}
	if g.chance(30) {
		in["nodes"] = nil
	}
	switch g.n(4) {
	case 0:
	case 1:
		in["partition"] = g.intOrPercent()
		if g.chance(3) {
			in["partition"] = g.badPercent()
		}
	default:
		in["partition"] = g.pickInt(0, 1, 2, k, k+1, -1)
	}
	if g.n(3) > 0 {
		in["selector"] = g.bool()
	}
	return in
}

func TestRolloutUpdateNodesVectorsReference(t *testing.T) {
	diffUpdateNodes.checkVectorsReference(t, "rollout")
}

func TestRolloutUpdateNodesVectors(t *testing.T) {
	requireFn(t, diffUpdateNodes.fn, map[string]any{"nodes": []any{}})
	diffUpdateNodes.compareVectors(t, "rollout")
}

func TestRolloutUpdateNodesRandomCoverage(t *testing.T) {
	diffUpdateNodes.checkCoverage(t, genInputs(3601, randomCount(baseRandom), genUpdateNodes), 30,
		"none", "some", "all", "not_a_percentage", "invalid_number")
}

func TestRolloutUpdateNodesRandom(t *testing.T) {
	requireFn(t, diffUpdateNodes.fn, map[string]any{"nodes": []any{}})
	diffUpdateNodes.compareRandom(t, genInputs(3601, randomCount(baseRandom), genUpdateNodes))
}

// ---- rollout.validate ----

type validateRolloutIn struct {
	Kind string          `json:"kind"`
	Spec json.RawMessage `json:"spec"`
}

// rolloutReason maps one webhook error to the spec's reason (spec section 6).
func rolloutReason(e *field.Error) string {
	d := e.Detail
	switch {
	case e.Type == field.ErrorTypeRequired:
		switch {
		case strings.Contains(d, "cannot be 0 when maxSurge is 0"):
			return "both_zero"
		case strings.Contains(d, "must be 0 for InPlaceIfPossible type"):
			return "surge_not_allowed_for_inplace"
		}
		return "required"
	case e.Type == field.ErrorTypeNotSupported:
		return "unsupported_type"
	case strings.Contains(d, "must be greater than or equal to 0"):
		return "negative"
	case strings.Contains(d, "failed GetScaledValueFromIntOrPercent"), strings.Contains(d, "getValueFromIntOrPercent error"):
		return "invalid_int_or_percent"
	case strings.Contains(d, "must be an integer or percentage"), strings.Contains(d, "a valid percent string must be"):
		return "invalid_percent"
	case strings.Contains(d, "must not be greater than 100%"):
		return "more_than_100_percent"
	case strings.Contains(d, "can not use maxSurge with strategy type InPlaceOnly"):
		return "surge_not_allowed_for_inplace_only"
	case strings.Contains(d, "maxUnavailable and maxSurge should not both be less than 1"):
		return "both_less_than_one"
	case strings.Contains(d, "must be greater than minReadySeconds"):
		return "not_greater_than_min_ready_seconds"
	case strings.Contains(d, "may not be set when maxUnavailable is non-zero"):
		return "surge_and_unavailable_both_set"
	case strings.Contains(d, "must be no more than 300 seconds"):
		return "more_than_300_seconds"
	case strings.Contains(d, "should not be less than 1"):
		return "less_than_one"
	case strings.Contains(d, "can only work with Parallel PodManagementPolicyType"):
		return "requires_parallel"
	case strings.Contains(d, "only allowed for updateStrategy"):
		return "only_for_rolling_update"
	case strings.HasPrefix(d, "must be '"):
		return "unsupported_type"
	}
	return ""
}

func findings(errs field.ErrorList) ([]any, string) {
	out := []any{}
	for _, e := range errs {
		r := rolloutReason(e)
		if r == "" {
			return nil, "unmapped: " + e.Error()
		}
		out = append(out, map[string]any{"field": e.Field, "reason": r})
	}
	return out, ""
}

func refValidateRollout(in json.RawMessage) refOutcome {
	var i validateRolloutIn
	if err := decodeInto(in, &i); err != nil {
		return refOutcome{kind: "invalid_input"}
	}
	o := refOutcome{}
	if bigIntegers(in) {
		o.classes = append(o.classes, "int32-overflow")
	}
	var errs field.ErrorList
	switch i.Kind {
	case "CloneSet":
		var spec appsv1alpha1.CloneSetSpec
		if err := decodeInto(i.Spec, &spec); err != nil {
			return refOutcome{kind: "invalid_input"}
		}
		if spec.Replicas == nil {
			o.classes = append(o.classes, "replicas-unset")
		}
		if scaleOverflows(spec.UpdateStrategy.Partition, int(ptrOr(spec.Replicas, 1)), "kruise") ||
			scaleOverflows(spec.UpdateStrategy.MaxUnavailable, int(ptrOr(spec.Replicas, 1)), "kruise") ||
			scaleOverflows(spec.UpdateStrategy.MaxSurge, int(ptrOr(spec.Replicas, 1)), "kruise") {
			o.classes = append(o.classes, "int64-overflow")
		}
		spec.Selector, spec.Template = validSelector(), validPodTemplate()
		errs = csvalidating.GorefValidateCloneSetSpec(&spec)
	case "DaemonSet":
		var spec appsv1beta1.DaemonSetSpec
		if err := decodeInto(i.Spec, &spec); err != nil {
			return refOutcome{kind: "invalid_input"}
		}
		if ru := spec.UpdateStrategy.RollingUpdate; ru != nil && (atoiOverflows(ru.MaxUnavailable) || atoiOverflows(ru.MaxSurge) || atoiOverflows(ru.Partition)) {
			o.classes = append(o.classes, "pending-atoi-saturation")
		}
		spec.Selector, spec.Template = validSelector(), validPodTemplate()
		errs = dsvalidating.GorefValidateDaemonSetSpec(&spec)
	case "StatefulSet":
		var spec appsv1beta1.StatefulSetSpec
		if err := decodeInto(i.Spec, &spec); err != nil {
			return refOutcome{kind: "invalid_input"}
		}
		if spec.Replicas == nil {
			o.classes = append(o.classes, "replicas-unset")
		}
		if ru := spec.UpdateStrategy.RollingUpdate; ru != nil && (ru.Partition == nil || ru.MinReadySeconds == nil) &&
			spec.UpdateStrategy.Type == apps.RollingUpdateStatefulSetStrategyType {
			o.classes = append(o.classes, "sts-rolling-update-undefaulted")
		}
		spec.Selector, spec.Template = validSelector(), validPodTemplate()
		errs = stsvalidating.GorefValidateStatefulSetSpec(&spec)
	default:
		return refOutcome{kind: "invalid_input"}
	}
	f, unmapped := findings(errs)
	if unmapped != "" {
		o.kind = unmapped
		return o
	}
	o.value = f
	o.label = i.Kind + "/valid"
	if len(f) > 0 {
		o.label = i.Kind + "/invalid"
	}
	return o
}

// nullMember reports whether the top-level member key of the JSON object in is null (Go reads a
// zero value; kruise-core rejects a null list today, a known kruise-core bug).
func nullMember(in json.RawMessage, key string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(in, &m) != nil {
		return false
	}
	v, ok := m[key]
	return ok && string(v) == "null"
}

func ptrOr(p *int32, d int32) int32 {
	if p == nil {
		return d
	}
	return *p
}

// atoiOverflows reports whether v is a string whose digits (before a final '%', if any) form a
// number outside the int64 range: Go's Atoi then saturates (a known kruise-core difference).
func atoiOverflows(v *intstr.IntOrString) bool {
	if v == nil || v.Type != intstr.String {
		return false
	}
	s := strings.TrimSuffix(v.StrVal, "%")
	_, err := strconv.Atoi(s)
	return err != nil && strings.Contains(err.Error(), "value out of range")
}

var diffValidateRollout = diffFn{family: "rollout", fn: "rollout.validate", ref: withClassesOnPanic(refValidateRollout, func(in json.RawMessage) []string {
	var i validateRolloutIn
	if decodeInto(in, &i) != nil {
		return nil
	}
	var probe struct {
		Replicas       *int32 `json:"replicas"`
		UpdateStrategy struct {
			Type          string `json:"type"`
			RollingUpdate *struct {
				Partition       *int32 `json:"partition"`
				MinReadySeconds *int32 `json:"minReadySeconds"`
			} `json:"rollingUpdate"`
		} `json:"updateStrategy"`
	}
	_ = json.Unmarshal(i.Spec, &probe)
	var classes []string
	if probe.Replicas == nil && i.Kind != "DaemonSet" {
		classes = append(classes, "replicas-unset")
	}
	if ru := probe.UpdateStrategy.RollingUpdate; i.Kind == "StatefulSet" && ru != nil && (ru.Partition == nil || ru.MinReadySeconds == nil) {
		classes = append(classes, "sts-rolling-update-undefaulted")
	}
	return classes
})}

func (g *gen) cloneSetSpec() map[string]any {
	us := map[string]any{}
	if !g.chance(10) {
		us["type"] = g.pick("ReCreate", "InPlaceIfPossible", "InPlaceOnly", "ReCreate", "", "OnDelete", "Bogus")
	}
	for _, k := range []string{"partition", "maxUnavailable", "maxSurge"} {
		switch g.n(6) {
		case 0:
		case 1:
			us[k] = nil
		case 2, 3:
			us[k] = g.intOrPercent()
		default:
			us[k] = g.pickInt(0, 1, 2, 3)
		}
	}
	spec := map[string]any{"updateStrategy": us}
	if !g.chance(25) {
		spec["replicas"] = g.pickInt(0, 1, 2, 3, 5, 10, -1, 100)
	}
	if g.n(3) > 0 {
		spec["minReadySeconds"] = g.pickInt(0, 0, 5, 10, 600, math.MaxInt32, -1)
	}
	if g.bool() {
		spec["progressDeadlineSeconds"] = g.pickInt(0, 5, 10, 11, 600, math.MaxInt32, -1)
	}
	return spec
}

func (g *gen) daemonSetSpec() map[string]any {
	ru := map[string]any{}
	for _, k := range []string{"maxUnavailable", "maxSurge", "partition"} {
		switch g.n(6) {
		case 0, 1:
		case 2:
			ru[k] = nil
		case 3:
			ru[k] = g.intOrPercent()
		default:
			ru[k] = g.pick("0", "1", "50%", "0%", "100%", "101%", "abc", "5")
			if g.bool() {
				ru[k] = g.pickInt(0, 1, 2, -1)
			}
		}
	}
	if g.bool() {
		ru["rollingUpdateType"] = g.pick("", "Standard", "InPlaceIfPossible", "InPlaceIfPossible", "Surging", "Bogus")
	}
	us := map[string]any{"type": g.pick("RollingUpdate", "RollingUpdate", "RollingUpdate", "OnDelete", "", "Bogus")}
	switch g.n(8) {
	case 0:
	case 1:
		us["rollingUpdate"] = nil
	default:
		us["rollingUpdate"] = ru
	}
	spec := map[string]any{"updateStrategy": us}
	if g.n(4) > 0 {
		spec["minReadySeconds"] = g.pickInt(0, 0, 5, -1)
	}
	return spec
}

func (g *gen) statefulSetSpec() map[string]any {
	spec := map[string]any{"podManagementPolicy": g.pick("OrderedReady", "Parallel", "Parallel", "", "Bogus")}
	if !g.chance(25) {
		spec["replicas"] = g.pickInt(0, 1, 3, 5, -1)
	}
	if g.chance(3) {
		spec["scaleStrategy"] = map[string]any{"maxUnavailable": g.intOrPercent()}
	}
	us := map[string]any{"type": g.pick("RollingUpdate", "RollingUpdate", "RollingUpdate", "OnDelete", "", "Bogus")}
	if g.n(4) > 0 {
		ru := map[string]any{"partition": g.pickInt(0, 0, 1, 3, -1), "minReadySeconds": g.pickInt(0, 0, 10, 300, 301, -1),
			"podUpdatePolicy": "ReCreate"}
		switch g.n(6) {
		case 0:
		case 1:
			ru["maxUnavailable"] = nil
		case 2, 3:
			ru["maxUnavailable"] = g.intOrPercent()
		default:
			ru["maxUnavailable"] = g.pickInt(1, 1, 2, 0)
		}
		if g.chance(20) {
			delete(ru, g.pick("partition", "minReadySeconds"))
		}
		us["rollingUpdate"] = ru
	}
	spec["updateStrategy"] = us
	return spec
}

func genValidateRollout(g *gen) any {
	switch g.n(3) {
	case 0:
		return map[string]any{"kind": "CloneSet", "spec": g.cloneSetSpec()}
	case 1:
		return map[string]any{"kind": "DaemonSet", "spec": g.daemonSetSpec()}
	}
	return map[string]any{"kind": "StatefulSet", "spec": g.statefulSetSpec()}
}

func TestRolloutValidateVectorsReference(t *testing.T) {
	diffValidateRollout.checkVectorsReference(t, "rollout")
}

func TestRolloutValidateVectors(t *testing.T) {
	requireFn(t, diffValidateRollout.fn, map[string]any{"kind": "CloneSet", "spec": map[string]any{"replicas": 1}})
	diffValidateRollout.compareVectors(t, "rollout")
}

// TestRolloutValidateRandomCoverage requires every finding reason in some random spec.
func TestRolloutValidateRandomCoverage(t *testing.T) {
	diffValidateRollout.checkCoverage(t, genInputs(3701, randomCount(baseRandom), genValidateRollout), 30,
		"CloneSet/valid", "CloneSet/invalid", "DaemonSet/valid", "DaemonSet/invalid", "StatefulSet/valid", "StatefulSet/invalid")
	seen := map[string]int{}
	for _, in := range genInputs(3701, randomCount(baseRandom), genValidateRollout) {
		o := callRef(diffValidateRollout.ref, mustJSON(in))
		if fs, ok := o.value.([]any); ok {
			for _, f := range fs {
				seen[f.(map[string]any)["reason"].(string)]++
			}
		}
	}
	t.Logf("rollout.validate: findings per reason: %v", seen)
	for _, r := range []string{"negative", "unsupported_type", "required", "invalid_int_or_percent", "invalid_percent",
		"more_than_100_percent", "both_less_than_one", "both_zero", "surge_not_allowed_for_inplace_only",
		"surge_not_allowed_for_inplace", "surge_and_unavailable_both_set", "not_greater_than_min_ready_seconds",
		"more_than_300_seconds", "less_than_one", "requires_parallel", "only_for_rolling_update"} {
		if seen[r] < 5 {
			t.Errorf("reason %s reached only %d times", r, seen[r])
		}
	}
}

func TestRolloutValidateRandom(t *testing.T) {
	requireFn(t, diffValidateRollout.fn, map[string]any{"kind": "CloneSet", "spec": map[string]any{"replicas": 1}})
	diffValidateRollout.compareRandom(t, genInputs(3701, randomCount(baseRandom), genValidateRollout))
}
