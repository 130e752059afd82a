//go:build goref_overlay

// Differential tests of the status fns.
//
// rollout.statefulset_status: updateStatus (computeReplicaStatus), completeRollingUpdate and
// inconsistentStatus of pkg/controller/statefulset (exported by overlay/, clock settable), started
// from the status updateStatefulSet builds (generation, revisions, selector string).
//
// rollout.cloneset_status: calculateStatus
// (pkg/controller/cloneset/cloneset_status.go, exported by overlay/, clocks settable) with the new
// status Reconcile (cloneset_controller.go) starts it from: observed generation, current and update
// revision, kruise's ValidatedLabelSelectorAsSelector string, the entry conditions; the pods it
// hands over are the active ones (kubecontroller.IsPodActive) of the listing by owner UID.
//
// What the harness decides itself, as kruise-core's input checks do (the reference never sees such
// input): a revision name that is not a DNS-1123 subdomain (invalid_revision), a pod whose owner
// references miss the CloneSet's UID (foreign_pod: the owner index would not list it), a selector
// the reference refuses (invalid_selector: Reconcile stops before the status).
package goref

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	apps "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	k8svalidation "k8s.io/apimachinery/pkg/util/validation"
	kubecontroller "k8s.io/kubernetes/pkg/controller"

	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
	clonesetctrl "github.com/openkruise/kruise/pkg/controller/cloneset"
	clonesetutils "github.com/openkruise/kruise/pkg/controller/cloneset/utils"
	stsctrl "github.com/openkruise/kruise/pkg/controller/statefulset"
	kruiseutil "github.com/openkruise/kruise/pkg/util"
)

type csStatusIn struct {
	CloneSet struct {
		Metadata metav1.ObjectMeta `json:"metadata"`
		Spec     struct {
			Replicas                *int32                `json:"replicas"`
			MinReadySeconds         int32                 `json:"minReadySeconds"`
			Selector                *metav1.LabelSelector `json:"selector"`
			ProgressDeadlineSeconds *int32                `json:"progressDeadlineSeconds"`
			UpdateStrategy          struct {
				Partition *intstr.IntOrString `json:"partition"`
				Paused    bool                `json:"paused"`
			} `json:"updateStrategy"`
		} `json:"spec"`
		Status appsv1beta1.CloneSetStatus `json:"status"`
	} `json:"cloneSet"`
	Pods            []*corev1.Pod `json:"pods"`
	UpdateRevision  *string       `json:"updateRevision"`
	CurrentRevision *string       `json:"currentRevision"`
	Now             string        `json:"now"`
}

func validRevision(s string) bool {
	return s != "" && len(k8svalidation.IsDNS1123Subdomain(s)) == 0
}

func refClonesetStatus(in json.RawMessage) refOutcome {
	var i csStatusIn
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
	in0 := &i.CloneSet
	update := in0.Status.UpdateRevision
	if i.UpdateRevision != nil {
		update = *i.UpdateRevision
	}
	if !validRevision(update) {
		return refOutcome{kind: "invalid_revision"}
	}
	current := in0.Status.CurrentRevision
	if i.CurrentRevision != nil {
		current = *i.CurrentRevision
	}
	if current == "" {
		current = update // getActiveRevisions: the recorded revision is not found
	} else if !validRevision(current) {
		return refOutcome{kind: "invalid_revision"}
	}
	selector, err := kruiseutil.ValidatedLabelSelectorAsSelector(in0.Spec.Selector)
	if err != nil {
		return refOutcome{kind: "invalid_selector"}
	}
	var active []*corev1.Pod
	for _, p := range i.Pods {
		if p == nil {
			p = &corev1.Pod{}
		}
		if in0.Metadata.UID != "" && len(p.OwnerReferences) > 0 {
			owned := false
			for _, r := range p.OwnerReferences {
				owned = owned || r.UID == in0.Metadata.UID
			}
			if !owned {
				return refOutcome{kind: "foreign_pod"}
			}
		}
		if kubecontroller.IsPodActive(p) {
			active = append(active, p)
		}
	}
	cs := &appsv1beta1.CloneSet{}
	cs.Name, cs.Namespace = "goref-status", "default"
	cs.Generation = in0.Metadata.Generation
	cs.Spec.Replicas = in0.Spec.Replicas
	if cs.Spec.Replicas == nil {
		one := int32(1) // the API server's default; the reference dereferences it
		cs.Spec.Replicas = &one
	}
	cs.Spec.MinReadySeconds = in0.Spec.MinReadySeconds
	cs.Spec.Selector = in0.Spec.Selector
	cs.Spec.ProgressDeadlineSeconds = in0.Spec.ProgressDeadlineSeconds
	cs.Spec.UpdateStrategy.RollingUpdate = &appsv1beta1.RollingUpdateCloneSetStrategy{
		Partition: in0.Spec.UpdateStrategy.Partition, Paused: in0.Spec.UpdateStrategy.Paused}
	cs.Status = in0.Status
	newStatus := &appsv1beta1.CloneSetStatus{
		ObservedGeneration: cs.Generation,
		CurrentRevision:    current,
		UpdateRevision:     update,
		LabelSelector:      selector.String(),
		Conditions:         cs.Status.Conditions,
	}
	key := clonesetutils.GetControllerKey(cs)
	clonesetutils.DurationStore.Pop(key)
	clonesetctrl.GorefCalculateStatus(cs, newStatus, active, now)
	requeue := int64(clonesetutils.DurationStore.Pop(key) / time.Second)
	cond := clonesetutils.GetCloneSetCondition(*newStatus, appsv1beta1.CloneSetConditionTypeProgressing)
	s := newStatus
	o.value = map[string]any{
		"status": map[string]any{"observedGeneration": s.ObservedGeneration, "replicas": s.Replicas,
			"readyReplicas": s.ReadyReplicas, "availableReplicas": s.AvailableReplicas, "updatedReplicas": s.UpdatedReplicas,
			"updatedReadyReplicas": s.UpdatedReadyReplicas, "updatedAvailableReplicas": s.UpdatedAvailableReplicas,
			"expectedUpdatedReplicas": s.ExpectedUpdatedReplicas, "currentRevision": s.CurrentRevision,
			"updateRevision": s.UpdateRevision, "labelSelector": s.LabelSelector},
		"progressing": map[string]any{"condition": progressCondJSON(cond),
			"changed": clonesetctrl.GorefHasProgressingConditionChanged(cs.Status, *newStatus), "requeueAfterSeconds": requeue},
		"changed": clonesetctrl.GorefInconsistentStatus(cs, newStatus),
	}
	switch {
	case current != update && s.CurrentRevision == update:
		o.label = "promoted"
	case s.UpdatedAvailableReplicas < s.UpdatedReadyReplicas:
		o.label = "waiting-min-ready"
	default:
		o.label = "value"
	}
	return o
}

// projectClonesetStatus maps kruise-core's answer to what the reference shows: the controller
// hands the requeue time to its duration store, which keeps positive durations only (0 = none).
func projectClonesetStatus(ours any) any {
	m, ok := ours.(map[string]any)
	if !ok {
		return ours
	}
	if p, ok := m["progressing"].(map[string]any); ok {
		r, _ := p["requeueAfterSeconds"].(float64)
		p["requeueAfterSeconds"] = math.Max(r, 0)
	}
	return m
}

var diffClonesetStatus = diffFn{family: "rollout", fn: "rollout.cloneset_status", ref: refClonesetStatus, project: projectClonesetStatus}

func (g *gen) statusPod(uid string) map[string]any {
	labels := map[string]any{}
	switch g.n(7) {
	case 0:
	case 1:
		labels["controller-revision-hash"] = g.pick("r2", "x-r2", "", "web-r3")
	case 2, 3:
		labels["controller-revision-hash"] = "web-r1"
	default:
		labels["controller-revision-hash"] = "web-r2"
	}
	if g.chance(4) {
		labels["lifecycle.apps.kruise.io/state"] = g.pick("Normal", "PreparingUpdate", "Updating", "", "PreparingDelete")
	}
	meta := map[string]any{"name": "p", "labels": labels}
	if g.chance(12) {
		meta["deletionTimestamp"] = rfc3339(genEpoch.Add(-time.Minute))
	}
	if uid != "" && g.chance(3) {
		ref := g.pick(uid, uid, uid, "u-other")
		meta["ownerReferences"] = []any{map[string]any{"apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "name": "web", "uid": ref}}
	}
	var conds []any
	if !g.chance(6) {
		c := map[string]any{"type": "Ready", "status": g.pick("True", "True", "True", "False", "Unknown")}
		if !g.chance(8) {
			c["lastTransitionTime"] = rfc3339(g.timeNear().Truncate(time.Second))
		}
		conds = append(conds, c)
	}
	if g.chance(4) {
		conds = append(conds, map[string]any{"type": "InPlaceUpdateReady", "status": g.pick("True", "False")})
	}
	if g.chance(10) {
		conds = append(conds, map[string]any{"type": "Ready", "status": g.pick("True", "False")})
	}
	st := map[string]any{"phase": g.pick("Running", "Running", "Running", "Running", "Pending", "Succeeded", "Failed", "Unknown", ""), "conditions": conds}
	return map[string]any{"metadata": meta, "status": st}
}

func genClonesetStatus(g *gen) any {
	r := g.pickInt(0, 1, 2, 3, 4, 5, 10)
	spec := map[string]any{"replicas": r}
	if g.chance(20) {
		delete(spec, "replicas")
		r = 1
	}
	us := map[string]any{}
	if g.chance(2) {
		us["partition"] = []any{"0%", "30%", "50%", "99%", "100%", 1, 2, 0, "abc", -1, 20}[g.n(11)]
	}
	if g.chance(6) {
		us["paused"] = true
	}
	spec["updateStrategy"] = us
	if g.chance(3) {
		spec["minReadySeconds"] = g.pickInt(5, 30, 60, 3600, -5)
	}
	switch g.n(4) {
	case 0:
	case 1:
		spec["progressDeadlineSeconds"] = math.MaxInt32
	default:
		spec["progressDeadlineSeconds"] = g.pickInt(10, 60, 600)
	}
	switch g.n(8) {
	case 0:
	case 1:
		spec["selector"] = map[string]any{}
	case 2:
		spec["selector"] = map[string]any{"matchLabels": map[string]any{"b": "2", "a": "1"}, "matchExpressions": []any{
			map[string]any{"key": "tier", "operator": "In", "values": []any{"z", "a"}},
			map[string]any{"key": "a", "operator": g.pick("Exists", "DoesNotExist", "NotIn", "Gt")}}}
	default:
		spec["selector"] = map[string]any{"matchLabels": map[string]any{"app": "web"}}
	}
	uid := ""
	meta := map[string]any{"name": "web", "generation": g.pickInt(0, 1, 2, 5)}
	if g.bool() {
		uid = "u-1"
		meta["uid"] = uid
	}
	cnt := func() int { return g.n(r + 2) }
	status := map[string]any{"observedGeneration": g.pickInt(0, 1, 2, 5), "replicas": cnt(), "readyReplicas": cnt(),
		"availableReplicas": cnt(), "updatedReplicas": cnt(), "updatedReadyReplicas": cnt(), "updatedAvailableReplicas": cnt(),
		"expectedUpdatedReplicas": cnt(), "labelSelector": g.pick("app=web", "", "a=1,b=2,tier in (a,z)")}
	if !g.chance(8) {
		status["currentRevision"] = g.pick("web-r1", "web-r1", "web-r2", "")
	}
	if !g.chance(10) {
		status["updateRevision"] = "web-r2"
	}
	if g.n(3) > 0 {
		reason := progressReasons[g.n(len(progressReasons))]
		st := "True"
		if reason == "ProgressDeadlineExceeded" {
			st = "False"
		}
		upd := g.timeNear().Truncate(time.Second)
		status["conditions"] = []any{map[string]any{"type": "Progressing", "status": st, "reason": reason, "message": "m",
			"lastUpdateTime": rfc3339(upd), "lastTransitionTime": rfc3339(upd.Add(-time.Duration(g.pickInt(0, 10)) * time.Second))}}
	}
	in := map[string]any{"cloneSet": map[string]any{"apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet",
		"metadata": meta, "spec": spec, "status": status}, "now": rfc3339(genEpoch)}
	switch g.n(30) {
	case 0:
		in["updateRevision"] = g.pick("Web_R2", "", "web-r3")
	case 1:
		in["currentRevision"] = g.pick("web r1", "", "web-r2")
	}
	n := g.n(r + 3)
	if g.chance(3) {
		n = r
	}
	pods := make([]any, n)
	for k := range pods {
		pods[k] = g.statusPod(uid)
	}
	in["pods"] = pods
	return in
}

func TestRolloutClonesetStatusVectorsReference(t *testing.T) {
	diffClonesetStatus.checkVectorsReference(t, "rollout_status")
}

func TestRolloutClonesetStatusVectors(t *testing.T) {
	requireFn(t, diffClonesetStatus.fn, map[string]any{"cloneSet": map[string]any{}, "updateRevision": "r", "now": rfc3339(genEpoch)})
	diffClonesetStatus.compareVectors(t, "rollout_status")
}

func TestRolloutClonesetStatusRandomCoverage(t *testing.T) {
	diffClonesetStatus.checkCoverage(t, genInputs(3701, randomCount(baseRandom), genClonesetStatus), 20,
		"value", "promoted", "waiting-min-ready", "invalid_revision", "foreign_pod", "invalid_selector")
}

func TestRolloutClonesetStatusRandom(t *testing.T) {
	requireFn(t, diffClonesetStatus.fn, map[string]any{"cloneSet": map[string]any{}, "updateRevision": "r", "now": rfc3339(genEpoch)})
	diffClonesetStatus.compareRandom(t, genInputs(3701, randomCount(baseRandom), genClonesetStatus))
}

// ---- rollout.statefulset_status ----

type stsStatusIn struct {
	StatefulSet struct {
		Metadata metav1.ObjectMeta             `json:"metadata"`
		Spec     appsv1beta1.StatefulSetSpec   `json:"spec"`
		Status   appsv1beta1.StatefulSetStatus `json:"status"`
	} `json:"statefulSet"`
	Pods            []*corev1.Pod `json:"pods"`
	UpdateRevision  *string       `json:"updateRevision"`
	CurrentRevision *string       `json:"currentRevision"`
	Now             string        `json:"now"`
}

func refStatefulsetStatus(in json.RawMessage) refOutcome {
	var i stsStatusIn
	if err := decodeInto(in, &i); err != nil {
		return refOutcome{kind: "invalid_input"}
	}
	now, err := parseTime(i.Now)
	if err != nil {
		return refOutcome{kind: "invalid_input"}
	}
	in0 := &i.StatefulSet
	update := in0.Status.UpdateRevision
	if i.UpdateRevision != nil {
		update = *i.UpdateRevision
	}
	if !validRevision(update) {
		return refOutcome{kind: "invalid_revision"}
	}
	current := in0.Status.CurrentRevision
	if i.CurrentRevision != nil {
		current = *i.CurrentRevision
	}
	if current == "" {
		current = update
	} else if !validRevision(current) {
		return refOutcome{kind: "invalid_revision"}
	}
	selector, err := kruiseutil.ValidatedLabelSelectorAsSelector(in0.Spec.Selector)
	if err != nil {
		return refOutcome{kind: "invalid_selector"}
	}
	set := &appsv1beta1.StatefulSet{Spec: in0.Spec, Status: in0.Status}
	set.Generation = in0.Metadata.Generation
	if set.Spec.UpdateStrategy.Type == "" {
		set.Spec.UpdateStrategy.Type = apps.RollingUpdateStatefulSetStrategyType // the API default
	}
	status := &appsv1beta1.StatefulSetStatus{ObservedGeneration: set.Generation, CurrentRevision: current,
		UpdateRevision: update, LabelSelector: selector.String()}
	cr := &apps.ControllerRevision{ObjectMeta: metav1.ObjectMeta{Name: current}}
	ur := &apps.ControllerRevision{ObjectMeta: metav1.ObjectMeta{Name: update}}
	stsctrl.GorefUpdateStatus(set, status, cr, ur, i.Pods, now)
	stsctrl.GorefCompleteRollingUpdate(set, status)
	o := refOutcome{value: map[string]any{
		"status": map[string]any{"observedGeneration": status.ObservedGeneration, "replicas": status.Replicas,
			"readyReplicas": status.ReadyReplicas, "availableReplicas": status.AvailableReplicas,
			"currentReplicas": status.CurrentReplicas, "updatedReplicas": status.UpdatedReplicas,
			"updatedReadyReplicas": status.UpdatedReadyReplicas, "updatedAvailableReplicas": status.UpdatedAvailableReplicas,
			"currentRevision": status.CurrentRevision, "updateRevision": status.UpdateRevision, "labelSelector": status.LabelSelector},
		"changed": stsctrl.GorefInconsistentStatus(set, status)}}
	if bigIntegers(in) {
		o.classes = append(o.classes, "int32-overflow")
	}
	switch {
	case current != update && status.CurrentRevision == update:
		o.label = "completed"
	case status.AvailableReplicas < status.ReadyReplicas:
		o.label = "waiting-min-ready"
	default:
		o.label = "value"
	}
	return o
}

var diffStatefulsetStatus = diffFn{family: "rollout", fn: "rollout.statefulset_status", ref: refStatefulsetStatus}

func genStatefulsetStatus(g *gen) any {
	r := g.pickInt(0, 1, 2, 3, 5)
	us := map[string]any{}
	switch g.n(4) {
	case 0:
	case 1:
		us["type"] = g.pick("OnDelete", "RollingUpdate")
	default:
		us["type"] = "RollingUpdate"
		if g.bool() {
			us["rollingUpdate"] = map[string]any{"minReadySeconds": g.pickInt(0, 5, 30, 60, 3600, -5)}
		}
	}
	spec := map[string]any{"replicas": r, "updateStrategy": us}
	switch g.n(6) {
	case 0:
	case 1:
		spec["selector"] = map[string]any{"matchExpressions": []any{map[string]any{"key": "a", "operator": g.pick("Exists", "Gt")}}}
	default:
		spec["selector"] = map[string]any{"matchLabels": map[string]any{"app": "db"}}
	}
	cnt := func() int { return g.n(r + 2) }
	status := map[string]any{"observedGeneration": g.pickInt(0, 1, 2), "replicas": cnt(), "readyReplicas": cnt(),
		"availableReplicas": cnt(), "currentReplicas": cnt(), "updatedReplicas": cnt(), "labelSelector": g.pick("app=db", "")}
	if !g.chance(8) {
		status["currentRevision"] = g.pick("db-r1", "db-r1", "db-r2", "")
	}
	if !g.chance(12) {
		status["updateRevision"] = "db-r2"
	}
	in := map[string]any{"statefulSet": map[string]any{"apiVersion": "apps.kruise.io/v1beta1", "kind": "StatefulSet",
		"metadata": map[string]any{"name": "db", "generation": g.pickInt(0, 1, 2)}, "spec": spec, "status": status}, "now": rfc3339(genEpoch)}
	if g.chance(30) {
		in["updateRevision"] = g.pick("Db_R2", "", "db-r3")
	}
	n := g.n(r + 2)
	if g.chance(3) {
		n = r
	}
	pods := make([]any, n)
	for k := range pods {
		p := g.statusPod("")
		labels := p["metadata"].(map[string]any)["labels"].(map[string]any)
		if h, ok := labels["controller-revision-hash"].(string); ok && h != "" {
			labels["controller-revision-hash"] = strings.Replace(h, "web", "db", 1)
		}
		pods[k] = p
	}
	in["pods"] = pods
	return in
}

func TestRolloutStatefulsetStatusVectorsReference(t *testing.T) {
	diffStatefulsetStatus.checkVectorsReference(t, "rollout_sts_status")
}

func TestRolloutStatefulsetStatusVectors(t *testing.T) {
	requireFn(t, diffStatefulsetStatus.fn, map[string]any{"statefulSet": map[string]any{}, "updateRevision": "r", "now": rfc3339(genEpoch)})
	diffStatefulsetStatus.compareVectors(t, "rollout_sts_status")
}

func TestRolloutStatefulsetStatusRandomCoverage(t *testing.T) {
	diffStatefulsetStatus.checkCoverage(t, genInputs(3702, randomCount(baseRandom), genStatefulsetStatus), 20,
		"value", "completed", "waiting-min-ready", "invalid_revision", "invalid_selector")
}

func TestRolloutStatefulsetStatusRandom(t *testing.T) {
	requireFn(t, diffStatefulsetStatus.fn, map[string]any{"statefulSet": map[string]any{}, "updateRevision": "r", "now": rfc3339(genEpoch)})
	diffStatefulsetStatus.compareRandom(t, genInputs(3702, randomCount(baseRandom), genStatefulsetStatus))
}
