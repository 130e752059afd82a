//go:build goref_overlay

// Differential tests of rollout.cloneset_pods_to_update and rollout.cloneset_pods_to_delete.
//
// Update: the steps of Update (pkg/controller/cloneset/sync/cloneset_update.go) after the pod
// state refresh: OnDelete and paused stop the pass; the update path's calculateDiffsWithExpectation
// and limitUpdateIndexes (GorefLimitUpdateIndexes, overlay) over the candidates of Update's own loop
// (EqualToRevisionHash, lifecycle state, GetInPlaceUpdateGrace) sorted by the exported
// SortUpdateIndexes. The waiting reasons name the branch of that loop or of the limit.
//
// Delete: the steps of Scale (cloneset_scale.go): managePreparingDelete, the scale path's diff
// (revision.IsPodUpdate), scale up, the PreparingDelete pods, the specified deletions
// (getPlannedDeletedPods, util.DiffPods, isPodReady and deleteReadyLimit), and the scale-down choice
// of choosePodsToDelete (overlay), with deletePods' per-pod outcome (lifecycle.IsPodHooked:
// PreparingDelete, or Keep when the pod is already there; else Delete).
//
// The harness decides, as kruise-core's input checks do: an updateStrategy.type outside the CRD's
// enum, more than 20 priority or scatter terms (invalid_input), revision names (invalid_revision),
// pods whose owner references miss the CloneSet's UID (foreign_pod). The random pods have distinct
// creation times and UIDs, so the reference's unstable sorts have one answer.
package goref

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	kubecontroller "k8s.io/kubernetes/pkg/controller"

	appspub "github.com/openkruise/kruise/apis/apps/pub"
	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
	clonesetcore "github.com/openkruise/kruise/pkg/controller/cloneset/core"
	clonesetsync "github.com/openkruise/kruise/pkg/controller/cloneset/sync"
	clonesetutils "github.com/openkruise/kruise/pkg/controller/cloneset/utils"
	kruiseutil "github.com/openkruise/kruise/pkg/util"
	"github.com/openkruise/kruise/pkg/util/lifecycle"
)

type podsIn struct {
	CloneSet struct {
		Metadata struct {
			UID    types.UID         `json:"uid"`
			Labels map[string]string `json:"labels"`
		} `json:"metadata"`
		Spec struct {
			Replicas        *int32 `json:"replicas"`
			MinReadySeconds int32  `json:"minReadySeconds"`
			UpdateStrategy  struct {
				Type             string                            `json:"type"`
				Partition        *intstr.IntOrString               `json:"partition"`
				MaxUnavailable   *intstr.IntOrString               `json:"maxUnavailable"`
				MaxSurge         *intstr.IntOrString               `json:"maxSurge"`
				Paused           bool                              `json:"paused"`
				PriorityStrategy *appspub.UpdatePriorityStrategy   `json:"priorityStrategy"`
				ScatterStrategy  appsv1beta1.UpdateScatterStrategy `json:"scatterStrategy"`
			} `json:"updateStrategy"`
			ScaleStrategy struct {
				PodsToDelete   []string            `json:"podsToDelete"`
				MaxUnavailable *intstr.IntOrString `json:"maxUnavailable"`
			} `json:"scaleStrategy"`
			Lifecycle *appspub.Lifecycle `json:"lifecycle"`
		} `json:"spec"`
		Status struct {
			UpdateRevision  string `json:"updateRevision"`
			CurrentRevision string `json:"currentRevision"`
		} `json:"status"`
	} `json:"cloneSet"`
	Pods            []*corev1.Pod `json:"pods"`
	UpdateRevision  *string       `json:"updateRevision"`
	CurrentRevision *string       `json:"currentRevision"`
	Now             string        `json:"now"`
	FeatureGates    struct {
		CloneSetPartitionRollback bool `json:"cloneSetPartitionRollback"`
		PreparingUpdateAsUpdate   bool `json:"preparingUpdateAsUpdate"`
	} `json:"featureGates"`
	ScalingExcludePreparingDelete bool `json:"scalingExcludePreparingDelete"`
}

// podsSetup decodes and checks the input and builds the reference's CloneSet and active pods.
func podsSetup(in json.RawMessage) (i podsIn, cs *appsv1beta1.CloneSet, active []*corev1.Pod, update, current string, fail *refOutcome) {
	if err := decodeInto(in, &i); err != nil {
		return i, nil, nil, "", "", &refOutcome{kind: "invalid_input"}
	}
	now, err := parseTime(i.Now)
	if err != nil {
		return i, nil, nil, "", "", &refOutcome{kind: "invalid_input"}
	}
	s := &i.CloneSet.Spec
	switch s.UpdateStrategy.Type {
	case "", "ReCreate", "InPlaceIfPossible", "InPlaceOnly", "OnDelete":
	default:
		return i, nil, nil, "", "", &refOutcome{kind: "invalid_input"}
	}
	if ps := s.UpdateStrategy.PriorityStrategy; ps != nil && (len(ps.WeightPriority) > 20 || len(ps.OrderPriority) > 20) {
		return i, nil, nil, "", "", &refOutcome{kind: "invalid_input"}
	}
	if len(s.UpdateStrategy.ScatterStrategy) > 20 {
		return i, nil, nil, "", "", &refOutcome{kind: "invalid_input"}
	}
	update = i.CloneSet.Status.UpdateRevision
	if i.UpdateRevision != nil {
		update = *i.UpdateRevision
	}
	if !validRevision(update) {
		return i, nil, nil, "", "", &refOutcome{kind: "invalid_revision"}
	}
	current = i.CloneSet.Status.CurrentRevision
	if i.CurrentRevision != nil {
		current = *i.CurrentRevision
	}
	if current == "" {
		current = update
	} else if !validRevision(current) {
		return i, nil, nil, "", "", &refOutcome{kind: "invalid_revision"}
	}
	for _, p := range i.Pods {
		if p == nil {
			p = &corev1.Pod{}
		}
		if uid := i.CloneSet.Metadata.UID; uid != "" && len(p.OwnerReferences) > 0 {
			owned := false
			for _, r := range p.OwnerReferences {
				owned = owned || r.UID == uid
			}
			if !owned {
				return i, nil, nil, "", "", &refOutcome{kind: "foreign_pod"}
			}
		}
		if kubecontroller.IsPodActive(p) {
			active = append(active, p)
		}
	}
	cs = &appsv1beta1.CloneSet{}
	cs.Name, cs.Namespace, cs.UID = "goref-pods", "default", i.CloneSet.Metadata.UID
	cs.Spec.Replicas = s.Replicas
	if cs.Spec.Replicas == nil {
		one := int32(1)
		cs.Spec.Replicas = &one
	}
	cs.Spec.MinReadySeconds = s.MinReadySeconds
	u := s.UpdateStrategy
	cs.Spec.UpdateStrategy.Type = appsv1beta1.CloneSetUpdateStrategyType(u.Type)
	cs.Spec.UpdateStrategy.RollingUpdate = &appsv1beta1.RollingUpdateCloneSetStrategy{Partition: u.Partition,
		MaxUnavailable: u.MaxUnavailable, MaxSurge: u.MaxSurge, Paused: u.Paused,
		PriorityStrategy: u.PriorityStrategy, ScatterStrategy: u.ScatterStrategy}
	cs.Spec.ScaleStrategy.PodsToDelete = s.ScaleStrategy.PodsToDelete
	cs.Spec.ScaleStrategy.MaxUnavailable = s.ScaleStrategy.MaxUnavailable
	// the tag reads the flag or the CloneSet label; the proxy's commit the flag or this field
	cs.Spec.ScaleStrategy.ExcludePreparingDelete = i.ScalingExcludePreparingDelete ||
		i.CloneSet.Metadata.Labels["apps.kruise.io/cloneset-scaling-exclude-preparing-delete"] == "true"
	cs.Spec.Lifecycle = s.Lifecycle
	clonesetutils.GorefClock = func() time.Time { return now }
	setGates(i.FeatureGates.CloneSetPartitionRollback, i.FeatureGates.PreparingUpdateAsUpdate)
	return i, cs, active, update, current, nil
}

func podsCleanup() {
	clonesetutils.GorefClock = nil
	setGates(false, false)
}

func waitingAll(pods []*corev1.Pod, reason string) []any {
	out := []any{}
	for _, p := range pods {
		out = append(out, map[string]any{"name": p.Name, "reason": reason})
	}
	return out
}

func refPodsToUpdate(in json.RawMessage) refOutcome {
	i, cs, active, update, current, fail := podsSetup(in)
	if fail != nil {
		return *fail
	}
	defer podsCleanup()
	o := refOutcome{}
	if bigIntegers(in) {
		o.classes = append(o.classes, "int32-overflow")
	}
	value := func(reason string) map[string]any {
		return map[string]any{"updateNum": 0, "updateMaxUnavailable": 0, "targetRevision": "",
			"updateOrder": []any{}, "podsToUpdate": []any{}, "waiting": waitingAll(active, reason)}
	}
	if i.CloneSet.Spec.UpdateStrategy.Type == "OnDelete" {
		o.value, o.label = value("OnDelete"), "OnDelete"
		return o
	}
	if i.CloneSet.Spec.UpdateStrategy.Paused {
		o.value, o.label = value("Paused"), "Paused"
		return o
	}
	var order []int
	skipped := []any{}
	d, kept := clonesetsync.GorefLimitUpdateIndexes(cs, active, current, update, func(updateNum int) []int {
		var wait []int
		for k, pod := range active {
			var waitUpdate bool
			if updateNum > 0 {
				waitUpdate = !clonesetutils.EqualToRevisionHash("", pod, update)
			} else {
				waitUpdate = clonesetutils.EqualToRevisionHash("", pod, update)
			}
			reason := ""
			switch {
			case !waitUpdate:
				reason = "OnTargetRevision"
			case lifecycle.GetPodLifecycleState(pod) == appspub.LifecycleStatePreparingDelete:
				reason = "PreparingDelete"
			case lifecycle.GetPodLifecycleState(pod) == appspub.LifecycleStateUpdated:
			default:
				if g, _ := appspub.GetInPlaceUpdateGrace(pod); g != "" {
					reason = "InPlaceUpdateGrace"
				}
			}
			if reason == "" {
				wait = append(wait, k)
			} else {
				skipped = append(skipped, map[string]any{"name": pod.Name, "reason": reason})
			}
		}
		wait = clonesetsync.SortUpdateIndexes(clonesetcore.New(cs), cs.Spec.UpdateStrategy, active, wait)
		order = append([]int(nil), wait...)
		return wait
	})
	if d.UpdateNum == 0 {
		o.value, o.label = value("NoUpdateNeeded"), "NoUpdateNeeded"
		return o
	}
	target := update
	if d.UpdateNum < 0 {
		target = current
	}
	names := func(idx []int) []any {
		out := []any{}
		for _, k := range idx {
			out = append(out, active[k].Name)
		}
		return out
	}
	limit := d.UpdateNum
	if limit < 0 {
		limit = -limit
	}
	waiting := []any{}
	for k := len(kept); k < len(order); k++ {
		reason := "MaxUnavailable"
		if k >= limit {
			reason = "UpdateNumReached"
		}
		waiting = append(waiting, map[string]any{"name": active[order[k]].Name, "reason": reason})
	}
	waiting = append(waiting, skipped...)
	o.value = map[string]any{"updateNum": d.UpdateNum, "updateMaxUnavailable": d.UpdateMaxUnavailable,
		"targetRevision": target, "updateOrder": names(order), "podsToUpdate": names(kept), "waiting": waiting}
	switch {
	case d.UpdateNum < 0:
		o.label = "rollback"
	case len(kept) == 0:
		o.label = "blocked"
	case len(kept) < len(order):
		o.label = "partial"
	default:
		o.label = "all-candidates"
	}
	return o
}

func refPodsToDelete(in json.RawMessage) refOutcome {
	_, cs, active, update, current, fail := podsSetup(in)
	if fail != nil {
		return *fail
	}
	defer podsCleanup()
	o := refOutcome{}
	if bigIntegers(in) {
		o.classes = append(o.classes, "int32-overflow")
	}
	pods := []any{}
	limited := []any{}
	out := func(step string, create, createCur int, d clonesetsync.GorefDiffs) refOutcome {
		o.value = map[string]any{"step": step, "create": create, "createCurrentRevision": createCur,
			"scaleDownNum": d.ScaleDownNum, "scaleDownNumOldRevision": d.ScaleDownNumOldRevision,
			"deleteReadyLimit": d.DeleteReadyLimit, "pods": pods, "limited": limited}
		o.label = step
		return o
	}
	specified, preDelete, numToDelete := clonesetsync.GorefPlannedDeletedPods(cs, active)
	if !lifecycle.IsLifecycleMarkPodNotReady(cs.Spec.Lifecycle) {
		diff := int(*cs.Spec.Replicas) - len(active) + numToDelete
		for _, p := range preDelete {
			if diff <= 0 {
				break
			}
			if clonesetsync.GorefIsSpecifiedDelete(cs, p) {
				continue
			}
			pods = append(pods, map[string]any{"name": p.Name, "action": "CancelDelete"})
			diff--
		}
		if len(pods) > 0 {
			return out("CancelPreparingDelete", 0, 0, clonesetsync.GorefDiffs{})
		}
	}
	d := clonesetsync.GorefCalculateDiffs(cs, active, current, update, true)
	updatedPods, notUpdatedPods := clonesetutils.GroupUpdateAndNotUpdatePods(active, update)
	if d.ScaleUpNum > 0 {
		return out("ScaleUp", d.ScaleUpLimit, d.ScaleUpNumOldRevision, d)
	}
	run := func(list []*corev1.Pod) bool {
		modified := false
		for _, p := range list {
			action := "Delete"
			if cs.Spec.Lifecycle != nil && lifecycle.IsPodHooked(cs.Spec.Lifecycle.PreDelete, p) {
				action = "PreparingDelete"
				if lifecycle.GetPodLifecycleState(p) == appspub.LifecycleStatePreparingDelete {
					action = "Keep"
				}
			}
			modified = modified || action != "Keep"
			pods = append(pods, map[string]any{"name": p.Name, "action": action})
		}
		return modified
	}
	if len(preDelete) > 0 && run(preDelete) {
		return out("DeletePreparingDelete", 0, 0, d)
	}
	readyLimit := d.DeleteReadyLimit
	byReadiness := func(list []*corev1.Pod) []*corev1.Pod {
		var can []*corev1.Pod
		for _, p := range list {
			if !clonesetsync.GorefIsPodReady(cs, p) {
				can = append(can, p)
			} else if readyLimit > 0 {
				can = append(can, p)
				readyLimit--
			} else {
				limited = append(limited, p.Name)
			}
		}
		return can
	}
	if toDelete := kruiseutil.DiffPods(specified, preDelete); len(toDelete) > 0 {
		if run(byReadiness(toDelete)) {
			return out("SpecifiedDelete", 0, 0, d)
		}
	}
	if d.ScaleDownNum > 0 {
		if numToDelete > 0 {
			return out("WaitForPlannedDeletions", 0, 0, d)
		}
		chosen := clonesetsync.GorefChoosePodsToDelete(cs, d.ScaleDownNum, d.ScaleDownNumOldRevision, notUpdatedPods, updatedPods)
		run(byReadiness(chosen))
		return out("ScaleDown", 0, 0, d)
	}
	return out("None", 0, 0, d)
}

var diffPodsToUpdate = diffFn{family: "rollout", fn: "rollout.cloneset_pods_to_update", ref: refPodsToUpdate}
var diffPodsToDelete = diffFn{family: "rollout", fn: "rollout.cloneset_pods_to_delete", ref: refPodsToDelete}

// genPods draws a CloneSet and its pods, biased to small counts, lifecycle states, hooks,
// specified deletions, shared nodes and equal sort keys other than the creation time.
func genPods(g *gen) any {
	n := g.pickInt(0, 1, 2, 3, 4, 5, 6, 8, 10, 12)
	replicas := n + g.pickInt(-3, -2, -1, 0, 0, 0, 0, 1, 2)
	if replicas < 0 {
		replicas = 0
	}
	us := map[string]any{}
	if g.chance(3) {
		us["type"] = g.pick("ReCreate", "InPlaceIfPossible", "InPlaceOnly", "OnDelete", "")
	}
	for _, k := range []string{"partition", "maxUnavailable", "maxSurge"} {
		switch g.n(6) {
		case 0, 1:
		case 2:
			us[k] = g.n(replicas + 2)
		case 3:
			us[k] = fmt.Sprintf("%d%%", g.pickInt(0, 20, 34, 50, 100))
		default:
			if k == "maxUnavailable" {
				us[k] = g.pick("100%", "50%", "3", "1")
			}
		}
	}
	if g.chance(8) {
		us["paused"] = true
	}
	switch g.n(5) {
	case 0:
		terms := []any{}
		for k := g.n(4); k > 0; k-- {
			sel := map[string]any{"matchLabels": map[string]any{"tier": g.pick("a", "b", "c")}}
			if g.chance(4) {
				sel = map[string]any{"matchExpressions": []any{map[string]any{"key": "tier",
					"operator": g.pick("In", "NotIn", "Exists", "DoesNotExist", "Bogus"), "values": []any{g.pick("a", "b")}}}}
			}
			terms = append(terms, map[string]any{"weight": g.pickInt(1, 10, 50, 100), "matchSelector": sel})
		}
		us["priorityStrategy"] = map[string]any{"weightPriority": terms}
	case 1:
		terms := []any{}
		for k := g.n(3) + 1; k > 0; k-- {
			terms = append(terms, map[string]any{"orderedKey": g.pick("order", "rank")})
		}
		us["priorityStrategy"] = map[string]any{"orderPriority": terms}
	}
	if g.chance(3) {
		terms := []any{}
		for k := g.n(3) + 1; k > 0; k-- {
			terms = append(terms, map[string]any{"key": g.pick("zone", "tier"), "value": g.pick("a", "b", "")})
		}
		us["scatterStrategy"] = terms
	}
	ss := map[string]any{}
	if g.chance(4) {
		names := []any{}
		for k := g.n(3) + 1; k > 0; k-- {
			names = append(names, fmt.Sprintf("p%d", g.n(n+1)))
		}
		ss["podsToDelete"] = names
	}
	if g.chance(5) {
		ss["maxUnavailable"] = g.pickInt(0, 1, 2)
	}
	spec := map[string]any{"replicas": replicas, "updateStrategy": us, "scaleStrategy": ss}
	if g.chance(3) {
		spec["minReadySeconds"] = g.pickInt(10, 300)
	}
	if g.chance(3) {
		hook := map[string]any{"finalizersHandler": []any{"example.com/hold"}}
		if g.bool() {
			hook = map[string]any{"labelsHandler": map[string]any{"hold": "true"}}
		}
		if g.chance(4) {
			hook["markPodNotReady"] = true
		}
		spec["lifecycle"] = map[string]any{"preDelete": hook}
	}
	cs := map[string]any{"metadata": map[string]any{"uid": "cs-uid"}, "spec": spec,
		"status": map[string]any{"updateRevision": "web-r2", "currentRevision": "web-r1"}}
	if g.chance(10) {
		cs["metadata"] = map[string]any{"uid": "cs-uid", "labels": map[string]any{"apps.kruise.io/cloneset-scaling-exclude-preparing-delete": "true"}}
	}
	pods := []any{}
	for k := 0; k < n; k++ {
		pods = append(pods, g.podsPod(k))
	}
	if n > 2 && g.chance(8) {
		// planned deletions pending while pods are in excess: a held PreparingDelete pod
		spec["replicas"] = n - 2
		spec["lifecycle"] = map[string]any{"preDelete": map[string]any{"finalizersHandler": []any{"example.com/hold"}, "markPodNotReady": g.bool()}}
		m := pods[0].(map[string]any)["metadata"].(map[string]any)
		m["labels"].(map[string]any)["lifecycle.apps.kruise.io/state"] = "PreparingDelete"
		m["finalizers"] = []any{"example.com/hold"}
		delete(m, "deletionTimestamp")
	}
	in := map[string]any{"cloneSet": cs, "pods": pods, "now": rfc3339(genEpoch)}
	gates := map[string]any{}
	if g.chance(3) {
		gates["cloneSetPartitionRollback"] = true
	}
	if g.chance(3) {
		gates["preparingUpdateAsUpdate"] = true
	}
	in["featureGates"] = gates
	if g.chance(10) {
		in["scalingExcludePreparingDelete"] = true
	}
	switch g.n(60) {
	case 0:
		us["type"] = "Rolling"
	case 1:
		in["updateRevision"] = "Not_A_Revision"
	case 2:
		if len(pods) > 0 {
			pods[0].(map[string]any)["metadata"].(map[string]any)["ownerReferences"] = []any{map[string]any{"uid": "other"}}
		}
	}
	return in
}

func (g *gen) podsPod(k int) map[string]any {
	labels := map[string]any{"controller-revision-hash": g.pick("web-r1", "web-r2", "web-r2", "r2", "web-r1")}
	if g.chance(3) {
		labels["lifecycle.apps.kruise.io/state"] = g.pick("Normal", "PreparingNormal", "PreparingUpdate", "Updating", "Updated", "PreparingDelete")
	}
	if g.chance(2) {
		labels["zone"] = g.pick("a", "b")
	}
	if g.chance(2) {
		labels["tier"] = g.pick("a", "b", "c")
	}
	if g.chance(3) {
		labels[g.pick("order", "rank")] = g.pick("x-1", "x-7", "12", "abc", "3")
	}
	if g.chance(10) {
		labels["apps.kruise.io/specified-delete"] = "true"
	}
	if g.chance(8) {
		labels["hold"] = "true"
	}
	meta := map[string]any{"name": fmt.Sprintf("p%d", k), "uid": fmt.Sprintf("uid-%d", k), "labels": labels,
		// distinct creation times: the reference's sorts are not stable
		"creationTimestamp": rfc3339(genEpoch.Add(-time.Duration(g.n(1000)*100+k) * time.Second)),
		"ownerReferences":   []any{map[string]any{"uid": "cs-uid"}}}
	ann := map[string]any{}
	if g.chance(5) {
		ann["controller.kubernetes.io/pod-deletion-cost"] = g.pick("10", "-5", "0", "abc", "07", "+3", "2147483648")
	}
	if g.chance(10) {
		ann[g.pick("apps.kruise.io/inplace-update-grace", "inplace-update-grace")] = g.pick("{}", "")
	}
	meta["annotations"] = ann
	if g.chance(8) {
		meta["finalizers"] = []any{"example.com/hold"}
	}
	if g.chance(15) {
		meta["deletionTimestamp"] = rfc3339(genEpoch.Add(-time.Minute))
	}
	phase := g.pick("Running", "Running", "Running", "Pending", "Unknown", "Succeeded")
	conds := []any{}
	if g.n(4) > 0 {
		conds = append(conds, map[string]any{"type": "Ready", "status": g.pick("True", "True", "False"),
			"lastTransitionTime": rfc3339(genEpoch.Add(-time.Duration(g.pickInt(5, 60, 600, 3600)) * time.Second))})
	}
	if g.chance(6) {
		conds = append(conds, map[string]any{"type": "InPlaceUpdateReady", "status": g.pick("True", "False")})
	}
	status := map[string]any{"phase": phase, "conditions": conds,
		"containerStatuses": []any{map[string]any{"name": "main", "restartCount": g.pickInt(0, 0, 1, 3)}}}
	return map[string]any{"metadata": meta, "spec": map[string]any{"nodeName": g.pick("n1", "n1", "n2", "n3", "")}, "status": status}
}

func TestRolloutPodsToUpdateVectorsReference(t *testing.T) {
	diffPodsToUpdate.checkVectorsReference(t, "rollout_pods_to_update")
}

func TestRolloutPodsToUpdateVectors(t *testing.T) {
	requireFn(t, diffPodsToUpdate.fn, map[string]any{"cloneSet": map[string]any{}, "now": rfc3339(genEpoch)})
	diffPodsToUpdate.compareVectors(t, "rollout_pods_to_update")
}

func TestRolloutPodsToUpdateRandomCoverage(t *testing.T) {
	diffPodsToUpdate.checkCoverage(t, genInputs(4401, randomCount(baseRandom), genPods), 10,
		"OnDelete", "Paused", "NoUpdateNeeded", "rollback", "blocked", "partial", "all-candidates",
		"invalid_input", "invalid_revision", "foreign_pod")
}

func TestRolloutPodsToUpdateRandom(t *testing.T) {
	requireFn(t, diffPodsToUpdate.fn, map[string]any{"cloneSet": map[string]any{}, "now": rfc3339(genEpoch)})
	diffPodsToUpdate.compareRandom(t, genInputs(4401, randomCount(baseRandom), genPods))
}

func TestRolloutPodsToDeleteVectorsReference(t *testing.T) {
	diffPodsToDelete.checkVectorsReference(t, "rollout_pods_to_delete")
}

func TestRolloutPodsToDeleteVectors(t *testing.T) {
	requireFn(t, diffPodsToDelete.fn, map[string]any{"cloneSet": map[string]any{}, "now": rfc3339(genEpoch)})
	diffPodsToDelete.compareVectors(t, "rollout_pods_to_delete")
}

func TestRolloutPodsToDeleteRandomCoverage(t *testing.T) {
	diffPodsToDelete.checkCoverage(t, genInputs(4402, randomCount(baseRandom), genPods), 10,
		"CancelPreparingDelete", "ScaleUp", "DeletePreparingDelete", "SpecifiedDelete", "ScaleDown",
		"WaitForPlannedDeletions", "None", "invalid_input", "invalid_revision", "foreign_pod")
}

func TestRolloutPodsToDeleteRandom(t *testing.T) {
	requireFn(t, diffPodsToDelete.fn, map[string]any{"cloneSet": map[string]any{}, "now": rfc3339(genEpoch)})
	diffPodsToDelete.compareRandom(t, genInputs(4402, randomCount(baseRandom), genPods))
}
