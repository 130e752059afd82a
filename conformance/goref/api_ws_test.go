//go:build goref_overlay

// Differential test of api.workloadspread_subset against the proxy's pkg/util/workloadspread
// Handler (HandlePodCreation, HandlePodDeletion) over a fake cluster. The proxy's commit works on
// apps.kruise.io/v1beta1 WorkloadSpreads (the tag has v1alpha1 only): the input's v1alpha1 object
// goes through the proxy's own ConvertTo first. The cluster holds the WorkloadSpread, the target
// workload (with workloadReplicas replicas) and, when the pod's controller is a ReplicaSet of a
// targeted Deployment, that ReplicaSet, so the handler's own matching finds the WorkloadSpread.
//
// Compared: version (GetPodVersion), statusChanged and the persisted subset statuses of that
// version (names, missingReplicas, creatingPods/deletingPods keys; a generated UUID key is the
// literal "<generated-uid>"), generatedUid, and the subset: for Create the subset injected into
// the pod's matched-workloadspread annotation; for Delete/Eviction the subset whose deletingPods
// gained the pod when the status changed (otherwise the handler does not expose it and it is not
// compared).
package goref

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	appsv1alpha1 "github.com/openkruise/kruise/apis/apps/v1alpha1"
	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
	"github.com/openkruise/kruise/pkg/util"
	wsutil "github.com/openkruise/kruise/pkg/util/workloadspread"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const fnAPIWS = "api.workloadspread_subset"

type wsInput struct {
	WorkloadSpread       map[string]any `json:"workloadSpread"`
	Pod                  map[string]any `json:"pod"`
	Operation            string         `json:"operation"`
	WorkloadReplicas     *int32         `json:"workloadReplicas,omitempty"`
	VersionedStatusKinds *[]string      `json:"versionedStatusKinds,omitempty"`
	// WebhookNamespace: see webhook_namespace_test.go.
	WebhookNamespace json.RawMessage `json:"webhookNamespace,omitempty"`
}

type wsSubsetOut struct {
	Name            string   `json:"name"`
	MissingReplicas int32    `json:"missingReplicas"`
	CreatingPods    []string `json:"creatingPods"`
	DeletingPods    []string `json:"deletingPods"`
}

type wsOut struct {
	Subset         *string       `json:"subset"`
	Version        string        `json:"version"`
	StatusChanged  bool          `json:"statusChanged"`
	GeneratedUID   bool          `json:"generatedUid"`
	SubsetStatuses []wsSubsetOut `json:"subsetStatuses,omitempty"`

	subsetHidden bool // reference only: the handler did not expose the subset
}

func sortedKeys[V any](m map[string]V, rename map[string]string) []string {
	out := []string{}
	for k := range m {
		if r, ok := rename[k]; ok {
			k = r
		}
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// refWS runs the handler. convErr is the proxy's v1alpha1 -> v1beta1 conversion error.
func refWS(t testing.TB, in wsInput) (out *wsOut, convErr error) {
	t.Helper()
	alpha := &appsv1alpha1.WorkloadSpread{}
	decodeMapInto(t, in.WorkloadSpread, alpha)
	ws := &appsv1beta1.WorkloadSpread{}
	if err := alpha.ConvertTo(ws); err != nil {
		return nil, err
	}
	ws.Namespace, ws.UID, ws.ResourceVersion = "default", "goref-ws-uid", ""
	pod := decodePod(t, in.Pod)
	pod.Namespace = "default"

	kinds := []string{"deployment", "replicaset"}
	if in.VersionedStatusKinds != nil {
		kinds = *in.VersionedStatusKinds
	}
	saved := wsutil.EnabledWorkloadSetForVersionedStatus
	defer func() { wsutil.EnabledWorkloadSetForVersionedStatus = saved }()
	set := sets.NewString()
	for _, k := range kinds {
		set.Insert(strings.ToLower(k))
	}
	if set.Has("deployment") {
		set.Insert("replicaset")
	}
	wsutil.EnabledWorkloadSetForVersionedStatus = set

	objs := []client.Object{ws}
	replicas := int32(0)
	if in.WorkloadReplicas != nil {
		replicas = *in.WorkloadReplicas
	}
	var targetUID types.UID = "goref-target-uid"
	if tr := ws.Spec.TargetReference; tr != nil {
		meta := metav1.ObjectMeta{Name: tr.Name, Namespace: "default", UID: targetUID}
		switch schema.FromAPIVersionAndKind(tr.APIVersion, tr.Kind) {
		case appsv1.SchemeGroupVersion.WithKind("Deployment"):
			objs = append(objs, &appsv1.Deployment{ObjectMeta: meta, Spec: appsv1.DeploymentSpec{Replicas: ptr(replicas)}})
		case appsv1.SchemeGroupVersion.WithKind("StatefulSet"):
			objs = append(objs, &appsv1.StatefulSet{ObjectMeta: meta, Spec: appsv1.StatefulSetSpec{Replicas: ptr(replicas)}})
		case appsv1alpha1.SchemeGroupVersion.WithKind("CloneSet"):
			objs = append(objs, &appsv1alpha1.CloneSet{ObjectMeta: meta, Spec: appsv1alpha1.CloneSetSpec{Replicas: ptr(replicas)}})
		}
		// the pod's ReplicaSet, owned by the targeted Deployment
		if ref := metav1.GetControllerOf(pod); ref != nil && ref.Kind == "ReplicaSet" && tr.Kind == "Deployment" && ref.Name != tr.Name {
			objs = append(objs, &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: ref.Name, Namespace: "default", UID: ref.UID,
				OwnerReferences: []metav1.OwnerReference{{APIVersion: tr.APIVersion, Kind: tr.Kind, Name: tr.Name, UID: targetUID, Controller: ptr(true)}}}})
		}
	}
	c := newFakeClient(t, objs, []client.Object{&appsv1beta1.WorkloadSpread{}}).Build()
	_ = util.GlobalCache.Delete(ws)
	before := &appsv1beta1.WorkloadSpread{}
	if err := c.Get(context.TODO(), types.NamespacedName{Namespace: "default", Name: ws.Name}, before); err != nil {
		t.Fatal(err)
	}
	h := wsutil.NewWorkloadSpreadHandler(c)
	var err error
	switch in.Operation {
	case "Create":
		_, err = h.HandlePodCreation(pod)
	default:
		err = h.HandlePodDeletion(pod, wsutil.Operation(in.Operation))
	}
	if err != nil {
		t.Fatalf("reference handler failed: %v\ninput %s", err, jsonText(in))
	}
	after := &appsv1beta1.WorkloadSpread{}
	if err := c.Get(context.TODO(), types.NamespacedName{Namespace: "default", Name: ws.Name}, after); err != nil {
		t.Fatal(err)
	}
	_ = util.GlobalCache.Delete(after)
	out = &wsOut{Version: wsutil.GetPodVersion(pod), StatusChanged: after.ResourceVersion != before.ResourceVersion}
	rename := map[string]string{}
	if in.Operation == "Create" {
		if s, ok := pod.Annotations[wsutil.MatchedWorkloadSpreadSubsetAnnotations]; ok {
			var inj wsutil.InjectWorkloadSpread
			if err := json.Unmarshal([]byte(s), &inj); err != nil {
				t.Fatalf("injected annotation %q: %v", s, err)
			}
			out.Subset = &inj.Subset
			if inj.UID != "" {
				out.GeneratedUID = true
				rename[inj.UID] = "<generated-uid>"
			}
		}
	}
	if out.StatusChanged {
		for _, st := range after.Status.VersionedSubsetStatuses[out.Version] {
			out.SubsetStatuses = append(out.SubsetStatuses, wsSubsetOut{Name: st.Name, MissingReplicas: st.MissingReplicas,
				CreatingPods: sortedKeys(st.CreatingPods, rename), DeletingPods: sortedKeys(st.DeletingPods, rename)})
			if in.Operation != "Create" {
				if _, now := st.DeletingPods[pod.Name]; now {
					old := findSubsetStatus(before.Status.VersionedSubsetStatuses[out.Version], st.Name)
					if old == nil || old.DeletingPods == nil || !hasKey(old.DeletingPods, pod.Name) {
						out.Subset = ptr(st.Name)
					}
				}
			}
		}
	} else if in.Operation != "Create" {
		out.subsetHidden = true
	}
	return out, nil
}

func findSubsetStatus(l []appsv1beta1.WorkloadSpreadSubsetStatus, name string) *appsv1beta1.WorkloadSpreadSubsetStatus {
	for i := range l {
		if l[i].Name == name {
			return &l[i]
		}
	}
	return nil
}

func hasKey[V any](m map[string]V, k string) bool {
	_, ok := m[k]
	return ok
}

func compareWS(t *testing.T, r *tally, label string, in wsInput) {
	r.total++
	if in.WebhookNamespace != nil {
		excluded, kind := webhookVerdict(in.WebhookNamespace)
		if excluded || kind != "" {
			compareWebhookFixed(t, r, label, fnAPIWS, in, kind, wsExcluded)
			return
		}
	}
	want, convErr := refWS(t, in)
	raw, gotK, err := answer(fnAPIWS, in)
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	if convErr != nil {
		if allowed("api", "proxy-workloadspread-conversion") {
			r.allow("proxy-workloadspread-conversion")
			return
		}
		r.fail("%s %s: the proxy's conversion refuses the WorkloadSpread: %v", label, jsonText(in), convErr)
		return
	}
	var got wsOut
	if gotK == "" {
		if err := json.Unmarshal(raw, &got); err != nil {
			r.fail("%s: ours %s: %v", label, raw, err)
			return
		}
		if want.subsetHidden {
			got.Subset = nil
			want.Subset = nil
		}
		for i := range got.SubsetStatuses {
			for _, l := range []*[]string{&got.SubsetStatuses[i].CreatingPods, &got.SubsetStatuses[i].DeletingPods} {
				if *l == nil {
					*l = []string{}
				}
			}
		}
		got.subsetHidden = want.subsetHidden
		if reflect.DeepEqual(*want, got) {
			r.agreeValue++
			return
		}
	}
	r.fail("%s %s:\n reference %s\n ours      %s/%s", label, jsonText(in), jsonText(want), raw, gotK)
}

func TestAPIWSVectors(t *testing.T) {
	requireFn(t, fnAPIWS, wsInput{WorkloadSpread: map[string]any{}, Pod: map[string]any{}, Operation: "Create"})
	var r tally
	var refVec tally // the reference against each vector's expected answer
	for _, c := range loadVectors(t, "api", fnAPIWS) {
		var in wsInput
		if err := json.Unmarshal(c.Input, &in); err != nil {
			t.Fatal(err)
		}
		compareWS(t, &r, "vector "+c.Name, in)
		withVectorAnswer(c, func() { compareWS(t, &refVec, "vector "+c.Name+" (reference vs vector)", in) })
	}
	r.report(t, "api.workloadspread_subset vectors")
	refVec.report(t, "api.workloadspread_subset vectors, reference vs vector")
}

type wsGen struct{ rng *rand.Rand }

func (g *wsGen) pick(xs ...string) string { return xs[g.rng.IntN(len(xs))] }
func (g *wsGen) chance(n int) bool        { return g.rng.IntN(n) == 0 }

func (g *wsGen) maxReplicas() any {
	switch g.rng.IntN(8) {
	case 0, 1:
		return nil
	case 2:
		return g.pick("50%", "30%", "0%", "100%", "34%", "x%", "5")
	}
	return g.rng.IntN(5)
}

func (g *wsGen) input() wsInput {
	target := []map[string]any{
		{"apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "name": "cs"},
		{"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"},
		{"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "sts"},
	}[g.rng.IntN(3)]
	var subsets []any
	names := []string{"subset-a", "subset-b", "subset-c"}[:1+g.rng.IntN(3)]
	for _, n := range names {
		s := map[string]any{"name": n}
		if m := g.maxReplicas(); m != nil {
			s["maxReplicas"] = m
		}
		subsets = append(subsets, s)
	}
	podName := "p-" + strconv.Itoa(g.rng.IntN(4))
	if target["kind"] == "StatefulSet" {
		podName = "sts-" + strconv.Itoa(g.rng.IntN(9))
		if g.chance(8) {
			podName = g.pick("sts", "sts-x", "sts-99999999999")
		}
	}
	// pod owner: the target itself, or a ReplicaSet of the targeted Deployment
	owner := map[string]any{"apiVersion": target["apiVersion"], "kind": target["kind"], "name": target["name"], "controller": true, "uid": "goref-target-uid"}
	labels := map[string]any{}
	if target["kind"] == "Deployment" && !g.chance(4) {
		hash := g.pick("5d8f7b9c4", "7c9f8d6b5")
		owner = map[string]any{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-" + hash, "controller": true, "uid": "rs-" + hash}
		labels["pod-template-hash"] = hash
	}
	if g.chance(6) {
		labels["controller-revision-hash"] = g.pick("web-6b7c8d9e0f", "x", "a-b-c123")
	}
	if g.chance(12) {
		owner = map[string]any{"apiVersion": "apps/v1", "kind": "DaemonSet", "name": "ds", "controller": true, "uid": "d"}
	}
	meta := map[string]any{"name": podName, "namespace": "default", "ownerReferences": []any{owner}, "labels": labels}
	if g.chance(10) {
		meta["name"], meta["generateName"] = "", "web-"
	}
	op := g.pick("Create", "Create", "Create", "Delete", "Eviction")
	if op != "Create" && !g.chance(6) {
		sub := names[g.rng.IntN(len(names))]
		if g.chance(8) {
			sub = "gone"
		}
		meta["annotations"] = map[string]any{"apps.kruise.io/matched-workloadspread": fmt.Sprintf(`{"name":"%s","subset":"%s"}`, g.pick("ws", "ws", "ws", "other"), sub)}
	}
	phase := g.pick("Pending", "Pending", "Running", "Succeeded")
	pod := map[string]any{"metadata": meta, "status": map[string]any{"phase": phase}}

	// status: a versioned list for some version (or none), with records
	status := map[string]any{}
	if !g.chance(3) {
		version := g.pick("versionIgnored", "5d8f7b9c4", "7c9f8d6b5")
		var list []any
		for _, n := range names {
			st := map[string]any{"name": n, "missingReplicas": g.rng.IntN(4) - 1}
			if g.chance(5) {
				st["creatingPods"] = map[string]any{g.pick(podName, "other"): "2026-06-21T09:00:00Z"}
			}
			if g.chance(6) {
				st["deletingPods"] = map[string]any{g.pick(podName, "other"): "2026-06-21T09:00:00Z"}
			}
			if g.chance(6) {
				st["conditions"] = []any{map[string]any{"type": "Schedulable", "status": g.pick("False", "True"), "lastTransitionTime": "2026-06-21T09:00:00Z"}}
			}
			list = append(list, st)
		}
		status["versionedSubsetStatuses"] = map[string]any{version: list}
		status["subsetStatuses"] = list
	}
	ws := map[string]any{"apiVersion": "apps.kruise.io/v1alpha1", "kind": "WorkloadSpread",
		"metadata": map[string]any{"name": "ws", "namespace": "default"},
		"spec":     map[string]any{"targetRef": target, "subsets": subsets}, "status": status}
	in := wsInput{WorkloadSpread: ws, Pod: pod, Operation: op}
	if g.chance(2) {
		in.WorkloadReplicas = ptr(int32(g.rng.IntN(12)))
	}
	if g.chance(5) {
		in.VersionedStatusKinds = &[][]string{{}, {"deployment"}, {"cloneset"}, {"replicaset", "statefulset"}}[g.rng.IntN(4)]
	}
	return in
}

func TestAPIWSRandom(t *testing.T) {
	requireFn(t, fnAPIWS, wsInput{WorkloadSpread: map[string]any{}, Pod: map[string]any{}, Operation: "Create"})
	g := &wsGen{rng: rand.New(rand.NewPCG(20261202, 11))}
	var r tally
	seen := map[string]int{}
	for i := 0; i < randomCount(2500); i++ {
		in := g.input()
		if out, err := refWS(t, in); err == nil {
			switch {
			case out.StatusChanged:
				seen[in.Operation+" changed"]++
			case out.Subset != nil:
				seen[in.Operation+" subset, no change"]++
			default:
				seen[in.Operation+" nothing"]++
			}
			if out.GeneratedUID {
				seen["generated uid"]++
			}
			if out.Version != "versionIgnored" {
				seen["versioned"]++
			}
		}
		compareWS(t, &r, fmt.Sprintf("random #%d", i), in)
	}
	r.report(t, "api.workloadspread_subset random")
	t.Logf("reference outcomes: %v", seen)
	for _, k := range []string{"Create changed", "Create subset, no change", "Create nothing", "Delete changed", "Eviction changed",
		"generated uid", "versioned"} {
		if seen[k] < 10 {
			t.Errorf("reference outcome %s reached %d times", k, seen[k])
		}
	}
}
