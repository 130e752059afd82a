//go:build goref_overlay

// Differential test of rollout.daemonset_status: the loop of updateDaemonSetStatus
// (pkg/controller/daemonset/daemonset_controller.go) over the reference's own pieces, exported by
// overlay/ (nodeShouldRunDaemonPod, podByCreationTimestampAndPhase, isDaemonPodAvailable,
// storeDaemonSetStatus writing through the fake kruise clientset) and Kubernetes'
// pkg/controller/daemon/util (GetTargetNodeName, IsPodUpdated), with podutil.IsPodReady. The
// harness plays getNodesToDaemonPods: the input's pods are the claimed ones.
package goref

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	podutil "k8s.io/kubernetes/pkg/api/v1/pod"
	daemonutil "k8s.io/kubernetes/pkg/controller/daemon/util"

	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
	kruisefake "github.com/openkruise/kruise/pkg/client/clientset/versioned/fake"
	dsctrl "github.com/openkruise/kruise/pkg/controller/daemonset"
)

type dsStatusIn struct {
	DaemonSet                appsv1beta1.DaemonSet `json:"daemonSet"`
	Nodes                    []*corev1.Node        `json:"nodes"`
	Pods                     []*corev1.Pod         `json:"pods"`
	Hash                     string                `json:"hash"`
	UpdateObservedGeneration *bool                 `json:"updateObservedGeneration"`
	Now                      string                `json:"now"`
}

// dsSeq gives every reference call its own DaemonSet UID: NewPod caches the template pod by UID.
var dsSeq atomic.Int64

func refDaemonsetStatus(in json.RawMessage) refOutcome {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(in, &top); err != nil {
		return refOutcome{kind: "invalid_input"}
	}
	for k := range top {
		switch k {
		case "daemonSet", "nodes", "pods", "hash", "updateObservedGeneration", "now":
		default:
			return refOutcome{kind: "invalid_input"} // kruise-core refuses unknown members
		}
	}
	var i dsStatusIn
	if err := decodeInto(in, &i); err != nil {
		return refOutcome{kind: "invalid_input"}
	}
	now, err := time.Parse(time.RFC3339, i.Now)
	if err != nil {
		return refOutcome{kind: "invalid_input"}
	}
	ds := i.DaemonSet.DeepCopy()
	ds.Name, ds.Namespace = "ds", "default"
	ds.UID = types.UID(fmt.Sprintf("goref-ds-%d", dsSeq.Add(1)))

	nodeToDaemonPods := map[string][]*corev1.Pod{}
	for _, p := range i.Pods {
		name, err := daemonutil.GetTargetNodeName(p)
		if err != nil {
			continue
		}
		nodeToDaemonPods[name] = append(nodeToDaemonPods[name], p)
	}
	var desired, current, mis, ready, updated, available int
	label := "value"
	for _, node := range i.Nodes {
		shouldRun, _ := dsctrl.GorefNodeShouldRunDaemonPod(node, ds)
		scheduled := len(nodeToDaemonPods[node.Name]) > 0
		if !shouldRun {
			if scheduled {
				mis++
				label = "misscheduled"
			}
			continue
		}
		desired++
		if !scheduled {
			continue
		}
		current++
		pods := nodeToDaemonPods[node.Name]
		dsctrl.GorefSortDaemonPods(pods)
		pod := pods[0]
		if podutil.IsPodReady(pod) {
			ready++
			if dsctrl.GorefIsDaemonPodAvailable(pod, ds.Spec.MinReadySeconds, metav1.Time{Time: now}) {
				available++
			}
		}
		generation, err := dsctrl.GetTemplateGeneration(ds)
		if err != nil {
			generation = nil
		}
		if daemonutil.IsPodUpdated(pod, i.Hash, generation) {
			updated++
		}
	}
	unavailable := desired - available
	upd := i.UpdateObservedGeneration == nil || *i.UpdateObservedGeneration
	client := kruisefake.NewSimpleClientset(ds.DeepCopy())
	if err := dsctrl.GorefStoreDaemonSetStatus(client, ds, desired, current, mis, ready, updated, available, unavailable, upd, i.Hash); err != nil {
		return refOutcome{kind: "unmapped: " + err.Error()}
	}
	changed := len(client.Actions()) > 0 // before the Get below, which is an action too
	got, err := client.AppsV1beta1().DaemonSets("default").Get(context.TODO(), "ds", metav1.GetOptions{})
	if err != nil {
		return refOutcome{kind: "unmapped: " + err.Error()}
	}
	st := got.Status
	var requeue any
	if ds.Spec.MinReadySeconds >= 0 && ready != available {
		requeue = ds.Spec.MinReadySeconds
		label = "requeue"
	}
	if !changed {
		label = "unchanged"
	}
	o := refOutcome{label: label, value: map[string]any{
		"status": map[string]any{"currentNumberScheduled": st.CurrentNumberScheduled, "numberMisscheduled": st.NumberMisscheduled,
			"desiredNumberScheduled": st.DesiredNumberScheduled, "numberReady": st.NumberReady, "observedGeneration": st.ObservedGeneration,
			"updatedNumberScheduled": st.UpdatedNumberScheduled, "numberAvailable": st.NumberAvailable,
			"numberUnavailable": st.NumberUnavailable, "updateRevision": st.UpdateRevision},
		"changed": changed, "requeueAfterSeconds": requeue}}
	if bigIntegers(in) {
		o.classes = append(o.classes, "int32-overflow")
	}
	return o
}

var diffDaemonsetStatus = diffFn{family: "rollout", fn: "rollout.daemonset_status", ref: refDaemonsetStatus}

func (g *gen) dsLabels() map[string]any {
	l := map[string]any{}
	if !g.chance(4) {
		l["zone"] = g.pick("z1", "z2", "z3")
	}
	if g.bool() {
		l["cpu"] = g.pick("2", "8", "16", "x", "-1", "99999999999999999999")
	}
	if g.chance(3) {
		l["disk"] = g.pick("ssd", "hdd")
	}
	return l
}

func (g *gen) dsTaints() []any {
	n := g.pickInt(0, 0, 0, 1, 2)
	out := make([]any, n)
	for k := range out {
		t := map[string]any{"key": g.pick("dedicated", "gpu", "node.kubernetes.io/unschedulable", "node.kubernetes.io/not-ready",
			"node.kubernetes.io/network-unavailable", "node.kubernetes.io/memory-pressure", "")}
		if g.bool() {
			t["value"] = g.pick("x", "y", "")
		}
		t["effect"] = g.pick("NoSchedule", "NoExecute", "PreferNoSchedule", "")
		out[k] = t
	}
	return out
}

func (g *gen) dsRequirement(field bool) map[string]any {
	if field {
		r := map[string]any{"key": g.pick("metadata.name", "metadata.name", "spec.unschedulable"), "operator": g.pick("In", "NotIn", "Exists")}
		switch g.n(5) {
		case 0:
		case 1:
			r["values"] = []any{"n0", "n1"}
		default:
			r["values"] = []any{g.pick("n0", "n1", "n2", "")}
		}
		return r
	}
	r := map[string]any{"key": g.pick("zone", "cpu", "disk", "bad key!", ""), "operator": g.pick("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "Bogus")}
	switch g.n(5) {
	case 0:
	case 1:
		r["values"] = []any{g.pick("4", "x", "10", "-3", "99999999999999999999", "-bad-")}
	case 2:
		r["values"] = []any{"4", "z1"}
	default:
		r["values"] = []any{g.pick("z1", "z2", "ssd", "4", "8")}
	}
	return r
}

func (g *gen) dsTerms() []any {
	n := g.pickInt(0, 1, 1, 2, 3)
	out := make([]any, n)
	for k := range out {
		t := map[string]any{}
		for range g.pickInt(0, 1, 1, 2) {
			ex, _ := t["matchExpressions"].([]any)
			t["matchExpressions"] = append(ex, g.dsRequirement(false))
		}
		if g.chance(3) {
			t["matchFields"] = []any{g.dsRequirement(true)}
		}
		out[k] = t
	}
	return out
}

func genDaemonsetStatus(g *gen) any {
	nNodes := g.pickInt(0, 1, 2, 3, 4, 6)
	tspec := map[string]any{}
	if g.chance(6) {
		tspec["nodeName"] = g.pick("n0", "n1", "nx")
	}
	if g.chance(3) {
		tspec["nodeSelector"] = map[string]any{g.pick("zone", "disk"): g.pick("z1", "ssd")}
	}
	if g.chance(3) {
		tspec["affinity"] = map[string]any{"nodeAffinity": map[string]any{"requiredDuringSchedulingIgnoredDuringExecution": map[string]any{"nodeSelectorTerms": g.dsTerms()}}}
	}
	if g.chance(3) {
		var tols []any
		for range g.pickInt(1, 1, 2) {
			t := map[string]any{"key": g.pick("dedicated", "gpu", "")}
			if g.bool() {
				t["operator"] = g.pick("Equal", "Exists", "Bad")
			}
			if g.bool() {
				t["value"] = g.pick("x", "y")
			}
			if g.bool() {
				t["effect"] = g.pick("NoSchedule", "NoExecute", "PreferNoSchedule")
			}
			tols = append(tols, t)
		}
		tspec["tolerations"] = tols
	}
	if g.chance(4) {
		tspec["hostNetwork"] = true
	}
	mrs := g.pickInt(0, 0, 0, 30, 600, 3600, -5)
	meta := map[string]any{"generation": g.pickInt(0, 1, 2, 3)}
	if g.chance(4) {
		meta["annotations"] = map[string]any{"deprecated.daemonset.template.generation": g.pick("2", "3", "x", "")}
	}
	hash := g.pick("h1", "h1", "h2", "")
	cnt := func() int { return g.n(nNodes + 2) }
	status := map[string]any{}
	if g.chance(3) {
		status = map[string]any{"currentNumberScheduled": cnt(), "numberMisscheduled": g.n(2), "desiredNumberScheduled": cnt(),
			"numberReady": cnt(), "observedGeneration": g.pickInt(0, 1, 2, 3), "updatedNumberScheduled": cnt(),
			"numberAvailable": cnt(), "numberUnavailable": g.n(2), "updateRevision": g.pick("h1", "h2", "")}
	}
	ds := map[string]any{"metadata": meta, "spec": map[string]any{"template": map[string]any{"spec": tspec}, "minReadySeconds": mrs}, "status": status}
	nodes := make([]any, nNodes)
	for k := range nodes {
		n := map[string]any{"metadata": map[string]any{"name": fmt.Sprintf("n%d", k), "labels": g.dsLabels()}}
		if ts := g.dsTaints(); len(ts) > 0 {
			n["spec"] = map[string]any{"taints": ts}
		}
		nodes[k] = n
	}
	nPods := g.n(nNodes + 3)
	pods := make([]any, nPods)
	for k := range pods {
		labels := map[string]any{}
		if !g.chance(5) {
			labels["controller-revision-hash"] = g.pick("h1", "h2", "")
		}
		if g.chance(4) {
			labels["pod-template-generation"] = g.pick("2", "3")
		}
		meta := map[string]any{"name": fmt.Sprintf("p%d", g.n(nPods+1)*10+k), "labels": labels}
		switch g.n(6) {
		case 0:
		case 1:
			meta["creationTimestamp"] = g.pick("not-a-time", "2026-06-21T09:00:00Z")
		default:
			meta["creationTimestamp"] = rfc3339(genEpoch.Add(-time.Duration(g.pickInt(0, 60, 600, 3600)) * time.Second))
		}
		spec := map[string]any{}
		target := fmt.Sprintf("n%d", g.n(nNodes+1))
		if !g.chance(4) {
			spec["nodeName"] = target
		} else if g.chance(5) == false {
			vals := []any{target}
			if g.chance(6) {
				vals = append(vals, "n0")
			}
			spec["affinity"] = map[string]any{"nodeAffinity": map[string]any{"requiredDuringSchedulingIgnoredDuringExecution": map[string]any{
				"nodeSelectorTerms": []any{map[string]any{"matchFields": []any{map[string]any{"key": "metadata.name", "operator": "In", "values": vals}}}}}}}
		}
		if g.chance(3) {
			spec["readinessGates"] = []any{map[string]any{"conditionType": "InPlaceUpdateReady"}}
		}
		var conds []any
		if !g.chance(5) {
			c := map[string]any{"type": "Ready", "status": g.pick("True", "True", "False", "Unknown")}
			switch g.n(8) {
			case 0:
			case 1:
				c["lastTransitionTime"] = g.pick("0001-01-01T00:00:00Z", "bad")
			default:
				c["lastTransitionTime"] = rfc3339(genEpoch.Add(-time.Duration(g.pickInt(0, 29, 30, 31, 600, 3600)) * time.Second))
			}
			conds = append(conds, c)
		}
		if g.chance(3) {
			conds = append(conds, map[string]any{"type": "InPlaceUpdateReady", "status": g.pick("True", "False")})
		}
		pods[k] = map[string]any{"metadata": meta, "spec": spec, "status": map[string]any{"conditions": conds}}
	}
	in := map[string]any{"daemonSet": ds, "nodes": nodes, "pods": pods, "hash": hash, "now": rfc3339(genEpoch)}
	if g.chance(4) {
		in["updateObservedGeneration"] = g.bool()
	}
	if g.chance(60) {
		in["now"] = "soon"
	}
	return in
}

func TestRolloutDaemonsetStatusVectorsReference(t *testing.T) {
	diffDaemonsetStatus.checkVectorsReference(t, "rollout_daemonset_status")
}

func TestRolloutDaemonsetStatusVectors(t *testing.T) {
	requireFn(t, diffDaemonsetStatus.fn, map[string]any{"daemonSet": map[string]any{}, "now": rfc3339(genEpoch)})
	diffDaemonsetStatus.compareVectors(t, "rollout_daemonset_status")
}

func TestRolloutDaemonsetStatusRandomCoverage(t *testing.T) {
	diffDaemonsetStatus.checkCoverage(t, genInputs(3703, randomCount(baseRandom), genDaemonsetStatus), 15,
		"value", "misscheduled", "requeue", "unchanged", "invalid_input")
}

func TestRolloutDaemonsetStatusRandom(t *testing.T) {
	requireFn(t, diffDaemonsetStatus.fn, map[string]any{"daemonSet": map[string]any{}, "now": rfc3339(genEpoch)})
	diffDaemonsetStatus.compareRandom(t, genInputs(3703, randomCount(baseRandom), genDaemonsetStatus))
}
