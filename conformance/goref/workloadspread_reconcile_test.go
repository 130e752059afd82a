//go:build goref_overlay

// Differential test of workloadspread.reconcile against the steps of the reference's
// WorkloadSpread controller pass (pkg/controller/workloadspread, syncWorkloadSpread after the pod
// listing: groupVersionedPods with the takeover patches, the deletion costs per version,
// calculateWorkloadSpreadStatus with rescheduling), exported by the overlay as GorefPass, over a
// fake cluster holding the pods and nodes, the package's clock set to the input's now. The
// patches written are read from the client calls; the requeue from the controller's duration
// store.
//
// The module proxy's commit works on the v1beta1 WorkloadSpread (the input, v1alpha1, goes
// through ConvertTo) whose subset conditions are metav1.Conditions: a condition it writes has
// reason "Sufficient" (True) or "PodUnschedulable" (False) where the tag writes "" (compared as
// ""; the generator's old conditions carry an empty reason and message, where both behave alike:
// the tag keeps an old condition of the same status and reason as it is, the proxy replaces it by
// one with the old transition time).
package goref

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1alpha1 "github.com/openkruise/kruise/apis/apps/v1alpha1"
	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
	"github.com/openkruise/kruise/pkg/controller/workloadspread"
	wsutil "github.com/openkruise/kruise/pkg/util/workloadspread"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

const fnWSReconcile = "workloadspread.reconcile"

type wsrInput struct {
	WorkloadSpread       json.RawMessage   `json:"workloadSpread"`
	WorkloadReplicas     *int32            `json:"workloadReplicas,omitempty"`
	LatestVersion        *string           `json:"latestVersion,omitempty"`
	Pods                 []json.RawMessage `json:"pods,omitempty"`
	Nodes                []json.RawMessage `json:"nodes,omitempty"`
	Now                  string            `json:"now"`
	VersionedStatusKinds *[]string         `json:"versionedStatusKinds,omitempty"`
}

type wsrCondition struct {
	Type               string  `json:"type"`
	Status             string  `json:"status"`
	LastTransitionTime *string `json:"lastTransitionTime"`
	Reason             string  `json:"reason"`
	Message            string  `json:"message"`
}

type wsrSubsetStatus struct {
	Name            string            `json:"name"`
	MissingReplicas int32             `json:"missingReplicas"`
	Replicas        int32             `json:"replicas"`
	CreatingPods    map[string]string `json:"creatingPods"`
	DeletingPods    map[string]string `json:"deletingPods"`
	Conditions      []wsrCondition    `json:"conditions"`
}

type wsrStatus struct {
	ObservedGeneration      int64                          `json:"observedGeneration"`
	SubsetStatuses          *[]wsrSubsetStatus             `json:"subsetStatuses"`
	VersionedSubsetStatuses map[string]*[]wsrSubsetStatus `json:"versionedSubsetStatuses"`
}

type wsrSubsetPods struct {
	Name string   `json:"name"`
	Pods []string `json:"pods"`
}

type wsrTakeover struct {
	Pod      string          `json:"pod"`
	Subset   string          `json:"subset"`
	Metadata json.RawMessage `json:"metadata"`
}

type wsrCost struct {
	Pod     string `json:"pod"`
	Value   string `json:"value"`
	Patched bool   `json:"patched"`
}

type wsrOut struct {
	Status            *wsrStatus      `json:"status"`
	Subsets           []wsrSubsetPods `json:"subsets"`
	UnmatchedPods     []string        `json:"unmatchedPods"`
	Takeovers         []wsrTakeover   `json:"takeovers"`
	DeletionCosts     []wsrCost       `json:"deletionCosts"`
	PodsToDelete      []string        `json:"podsToDelete"`
	RequeueAfterNanos *int64          `json:"requeueAfterNanos"`
}

// wsrView is what is compared: orders the reference leaves to map iteration are sorted, JSON
// values canonicalised.
type wsrView struct {
	Status        string
	Subsets       map[string][]string
	Unmatched     []string
	Takeovers     map[string]string
	CostPatches   map[string]string
	Costs         map[string]string
	PodsToDelete  []string
	RequeueNanos  int64
	NothingToDo   bool
	TakeoverOrder int
}

func sortedCopy(xs []string) []string {
	out := append([]string(nil), xs...)
	sort.Strings(out)
	if len(out) == 0 {
		return nil
	}
	return out
}

func wsrCanonJSON(raw []byte) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "!" + string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func normStatusJSON(s *wsrStatus) string {
	if s == nil {
		return "null"
	}
	fix := func(l *[]wsrSubsetStatus) {
		if l == nil {
			return
		}
		for i := range *l {
			st := &(*l)[i]
			if len(st.CreatingPods) == 0 {
				st.CreatingPods = nil
			}
			if len(st.DeletingPods) == 0 {
				st.DeletingPods = nil
			}
			if len(st.Conditions) == 0 {
				st.Conditions = nil
			}
		}
	}
	fix(s.SubsetStatuses)
	for _, l := range s.VersionedSubsetStatuses {
		fix(l)
	}
	if len(s.VersionedSubsetStatuses) == 0 {
		s.VersionedSubsetStatuses = nil
	}
	b, _ := json.Marshal(s)
	return string(b)
}

func (o *wsrOut) view() wsrView {
	v := wsrView{
		Status:      normStatusJSON(o.Status),
		Subsets:     map[string][]string{},
		Unmatched:   sortedCopy(o.UnmatchedPods),
		Takeovers:   map[string]string{},
		CostPatches: map[string]string{},
		Costs:       map[string]string{},
	}
	v.NothingToDo = o.Status == nil
	for _, s := range o.Subsets {
		v.Subsets[s.Name] = sortedCopy(s.Pods)
	}
	for _, t := range o.Takeovers {
		v.Takeovers[t.Pod] = t.Subset + " " + wsrCanonJSON(t.Metadata)
	}
	for _, c := range o.DeletionCosts {
		v.Costs[c.Pod] = c.Value
		if c.Patched {
			v.CostPatches[c.Pod] = c.Value
		}
	}
	v.PodsToDelete = sortedCopy(o.PodsToDelete)
	if o.RequeueAfterNanos != nil {
		v.RequeueNanos = *o.RequeueAfterNanos
	}
	return v
}

type wsrRef struct {
	view    wsrView
	kind    string
	classes []string
}

var wsrMu sync.Mutex

func fmtTime(t metav1.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := t.UTC().Format(time.RFC3339)
	return &s
}

func fromRefStatuses(l []appsv1beta1.WorkloadSpreadSubsetStatus) *[]wsrSubsetStatus {
	if l == nil {
		return nil
	}
	out := make([]wsrSubsetStatus, 0, len(l))
	for _, s := range l {
		st := wsrSubsetStatus{Name: s.Name, MissingReplicas: s.MissingReplicas, Replicas: s.Replicas,
			CreatingPods: map[string]string{}, DeletingPods: map[string]string{}}
		for k, v := range s.CreatingPods {
			st.CreatingPods[k] = *fmtTime(v)
		}
		for k, v := range s.DeletingPods {
			st.DeletingPods[k] = *fmtTime(v)
		}
		for _, c := range s.Conditions {
			reason := c.Reason
			switch reason {
			case "Unknown", "Sufficient", "PodUnschedulable":
				reason = "" // proxy commit: it names the reason; the tag writes "" (see the file comment)
			}
			st.Conditions = append(st.Conditions, wsrCondition{Type: c.Type, Status: string(c.Status),
				LastTransitionTime: fmtTime(c.LastTransitionTime), Reason: reason, Message: c.Message})
		}
		out = append(out, st)
	}
	return &out
}

func refWSReconcile(t testing.TB, in *wsrInput) (ref wsrRef) {
	t.Helper()
	// Inputs no cluster holds (an unparsable time, a pod without a name or with the name of
	// another) cannot be given to the reference: the API server refuses them. kruise-core
	// answers invalid_input naming the field; these are the vectors' error cases.
	now, err := time.Parse(time.RFC3339, in.Now)
	if err != nil {
		ref.kind = "invalid_input"
		return
	}
	alpha := &appsv1alpha1.WorkloadSpread{}
	mustDecode(t, in.WorkloadSpread, alpha, "workloadSpread")
	ws := &appsv1beta1.WorkloadSpread{}
	if err := alpha.ConvertTo(ws); err != nil {
		t.Fatalf("ConvertTo: %v", err)
	}
	ws.Namespace = "default"
	if ws.Spec.TargetFilter != nil {
		ref.kind = "unsupported"
		return
	}
	if ws.Spec.TargetReference == nil {
		ref.view = (&wsrOut{}).view()
		return
	}
	var objs []client.Object
	var names []string
	seenPod := map[string]bool{}
	for _, raw := range in.Pods {
		p := &corev1.Pod{}
		if err := json.Unmarshal(raw, p); err != nil || p.Name == "" || seenPod[p.Name] {
			ref.kind = "invalid_input"
			return
		}
		seenPod[p.Name] = true
		p.Namespace = "default"
		if p.DeletionTimestamp != nil && len(p.Finalizers) == 0 {
			p.Finalizers = []string{"goref/keep"}
		}
		names = append(names, p.Name)
		objs = append(objs, p)
	}
	for _, raw := range in.Nodes {
		n := &corev1.Node{}
		mustDecode(t, raw, n, "node")
		objs = append(objs, n)
	}
	type patchRec struct {
		pod  string
		body []byte
	}
	var patches []patchRec
	funcs := interceptor.Funcs{
		Patch: func(ctx context.Context, c client.WithWatch, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
			body, _ := patch.Data(obj)
			patches = append(patches, patchRec{obj.GetName(), body})
			return c.Patch(ctx, obj, patch, opts...)
		},
	}
	cl := newFakeClient(t, objs, nil).WithInterceptorFuncs(funcs).Build()
	var pods []*corev1.Pod
	for _, n := range names {
		p := &corev1.Pod{}
		if err := cl.Get(context.TODO(), types.NamespacedName{Namespace: "default", Name: n}, p); err != nil {
			t.Fatalf("pod %s: %v", n, err)
		}
		pods = append(pods, p)
	}
	var replicas int32
	if in.WorkloadReplicas != nil {
		replicas = *in.WorkloadReplicas
	}
	latest := ""
	if in.LatestVersion != nil {
		latest = *in.LatestVersion
	}

	wsrMu.Lock()
	defer wsrMu.Unlock()
	workloadspread.GorefClock = func() time.Time { return now }
	defer func() { workloadspread.GorefClock = nil }()
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

	var status *appsv1beta1.WorkloadSpreadStatus
	var subsetPods, failed map[string][]*corev1.Pod
	var requeue time.Duration
	panicked := func() (p bool) {
		defer func() {
			if r := recover(); r != nil {
				p = true
			}
		}()
		status, subsetPods, failed, requeue, err = workloadspread.GorefPass(cl, ws, pods, replicas, latest)
		return false
	}()
	if panicked {
		ref.kind = "invalid_input" // a preferred term that does not parse: the reference panics
		return
	}
	if err != nil {
		t.Fatalf("GorefPass: %v", err)
	}
	out := wsrOut{Status: &wsrStatus{ObservedGeneration: status.ObservedGeneration,
		SubsetStatuses: fromRefStatuses(status.SubsetStatuses), VersionedSubsetStatuses: map[string]*[]wsrSubsetStatus{}}}
	for v, l := range status.VersionedSubsetStatuses {
		out.Status.VersionedSubsetStatuses[v] = fromRefStatuses(l)
	}
	seen := map[string]bool{}
	for _, s := range ws.Spec.Subsets {
		sp := wsrSubsetPods{Name: s.Name}
		if !seen[s.Name] {
			for _, p := range subsetPods[s.Name] {
				sp.Pods = append(sp.Pods, p.Name)
			}
		}
		out.Subsets = append(out.Subsets, sp)
	}
	for _, p := range subsetPods[workloadspread.GorefFakeSubsetName] {
		out.UnmatchedPods = append(out.UnmatchedPods, p.Name)
	}
	for _, l := range failed {
		for _, p := range l {
			out.PodsToDelete = append(out.PodsToDelete, p.Name)
		}
	}
	if requeue > 0 {
		n := int64(requeue)
		out.RequeueAfterNanos = &n
	}
	ref.view = out.view()
	ref.view.Costs = nil
	for _, pr := range patches {
		var body struct {
			Metadata map[string]any `json:"metadata"`
		}
		_ = json.Unmarshal(pr.body, &body)
		ann, _ := body.Metadata["annotations"].(map[string]any)
		if m, ok := ann["apps.kruise.io/matched-workloadspread"].(string); ok {
			var inj struct {
				Subset string `json:"subset"`
			}
			_ = json.Unmarshal([]byte(m), &inj)
			mb, _ := json.Marshal(body.Metadata)
			ref.view.Takeovers[pr.pod] = inj.Subset + " " + wsrCanonJSON(mb)
		} else if c, ok := ann["controller.kubernetes.io/pod-deletion-cost"].(string); ok && len(body.Metadata) == 1 && len(ann) == 1 {
			ref.view.CostPatches[pr.pod] = c
		} else {
			t.Fatalf("unexpected patch of %s: %s", pr.pod, pr.body)
		}
	}
	// the final annotations of the pods, to check every cost kruise-core reports
	ref.view.Costs = map[string]string{}
	for _, n := range names {
		p := &corev1.Pod{}
		if err := cl.Get(context.TODO(), types.NamespacedName{Namespace: "default", Name: n}, p); err == nil {
			if v, ok := p.Annotations["controller.kubernetes.io/pod-deletion-cost"]; ok {
				ref.view.Costs[n] = v
			}
		}
	}
	return ref
}

func compareWSReconcile(t *testing.T, r *tally, label string, in wsrInput) {
	t.Helper()
	r.total++
	ref := refWSReconcile(t, &in)
	raw, kind, err := answer(fnWSReconcile, in)
	if err != nil {
		t.Fatalf("%s: kruise-core call failed: %v", label, err)
	}
	if kind == "unsupported" && ref.kind == "" {
		r.allow("unsupported-patch")
		return
	}
	if ref.kind != "" || kind != "" {
		if ref.kind == kind {
			r.agreeError++
			return
		}
		r.fail("%s: reference kind %q, kruise-core kind %q %s", label, ref.kind, kind, raw)
		return
	}
	var o wsrOut
	if err := json.Unmarshal(raw, &o); err != nil {
		t.Fatalf("%s: output does not decode: %v\n%s", label, err, raw)
	}
	got := o.view()
	// every cost kruise-core reports is what the pod carries after the reference's pass
	for pod, v := range got.Costs {
		if ref.view.Costs[pod] != v {
			in2, _ := json.Marshal(in)
			r.fail("%s: pod %s: kruise-core cost %q, reference leaves %q\n input %s\n  ours %s", label, pod, v, ref.view.Costs[pod], in2, raw)
			return
		}
	}
	got.Costs, ref.view.Costs = nil, nil
	if !reflect.DeepEqual(got, ref.view) {
		in2, _ := json.Marshal(in)
		r.fail("%s:\n input %s\n   ref %+v\n  ours %+v", label, in2, ref.view, got)
		return
	}
	r.agreeValue++
}

func TestWorkloadspreadReconcileVectors(t *testing.T) {
	requireFn(t, fnWSReconcile, wsrInput{WorkloadSpread: json.RawMessage(`{}`), Now: "2024-01-01T00:00:00Z"})
	var r tally
	for _, c := range loadVectors(t, "workloadspread_reconcile", fnWSReconcile) {
		var in wsrInput
		mustDecode(t, c.Input, &in, c.Name)
		compareWSReconcile(t, &r, c.Name, in)
	}
	r.report(t, fnWSReconcile+" vectors")
}

func TestWorkloadspreadReconcileVectorsReference(t *testing.T) {
	var r tally
	for _, c := range loadVectors(t, "workloadspread_reconcile", fnWSReconcile) {
		var in wsrInput
		mustDecode(t, c.Input, &in, c.Name)
		withVectorAnswer(c, func() { compareWSReconcile(t, &r, c.Name, in) })
	}
	r.report(t, fnWSReconcile+" vectors (reference gives the expected answers)")
}

// ---- random inputs ----

type wsrGen struct {
	rng *rand.Rand
	now time.Time
}

func (g *wsrGen) n(k int) int              { return g.rng.IntN(k) }
func (g *wsrGen) chance(k int) bool        { return g.rng.IntN(k) == 0 }
func (g *wsrGen) pick(xs ...string) string { return xs[g.rng.IntN(len(xs))] }
func (g *wsrGen) at(offsetSec int) string  { return g.now.Add(time.Duration(offsetSec) * time.Second).Format(time.RFC3339) }

var wsrSubsetNames = []string{"a", "b", "c", "d"}

func (g *wsrGen) requirement() map[string]any {
	switch g.n(8) {
	case 0:
		return map[string]any{"key": "zone", "operator": "In", "values": []string{g.pick("z1", "z2", "z3")}}
	case 1:
		return map[string]any{"key": "zone", "operator": "NotIn", "values": []string{g.pick("z1", "z2")}}
	case 2:
		return map[string]any{"key": g.pick("gpu", "zone"), "operator": g.pick("Exists", "DoesNotExist")}
	case 3:
		return map[string]any{"key": "rank", "operator": g.pick("Gt", "Lt"), "values": []string{g.pick("1", "3", "x")}}
	case 4:
		return map[string]any{"key": "zone", "operator": g.pick("Bad", "In"), "values": []string{}}
	default:
		return map[string]any{"key": "zone", "operator": "In", "values": []string{"z1", "z2"}}
	}
}

func (g *wsrGen) term() map[string]any {
	t := map[string]any{}
	k := g.n(3)
	var exprs []any
	for i := 0; i < k; i++ {
		exprs = append(exprs, g.requirement())
	}
	if exprs != nil {
		t["matchExpressions"] = exprs
	}
	if g.chance(5) {
		op := g.pick("In", "NotIn")
		t["matchFields"] = []any{map[string]any{"key": "metadata.name", "operator": op, "values": []string{g.pick("n0", "n1", "n2")}}}
	}
	return t
}

func (g *wsrGen) toleration() map[string]any {
	return map[string]any{"key": g.pick("dedicated", "", "spot"), "operator": g.pick("Equal", "Exists", ""),
		"value": g.pick("x", "y", ""), "effect": g.pick("", "NoSchedule", "NoExecute")}
}

func (g *wsrGen) maxReplicas() any {
	switch g.n(9) {
	case 0, 1:
		return nil
	case 2:
		return g.n(4)
	case 3:
		return fmt.Sprintf("%d%%", g.pick2(0, 20, 33, 50, 100))
	case 4:
		if g.chance(3) {
			return -1
		}
		return g.n(3) + 1
	case 5:
		if g.chance(3) {
			return g.pick("bad", "-10%", "50")
		}
		return fmt.Sprintf("%d%%", g.pick2(25, 60))
	default:
		return g.n(3) + 1
	}
}

func (g *wsrGen) pick2(xs ...int) int { return xs[g.rng.IntN(len(xs))] }

func (g *wsrGen) subset(i int) map[string]any {
	name := wsrSubsetNames[i]
	if g.chance(25) {
		name = wsrSubsetNames[g.n(len(wsrSubsetNames))]
	}
	s := map[string]any{"name": name}
	if mr := g.maxReplicas(); mr != nil {
		s["maxReplicas"] = mr
	}
	if !g.chance(3) {
		s["requiredNodeSelectorTerm"] = g.term()
	}
	if g.chance(3) {
		var prefs []any
		for k := g.n(3); k >= 0; k-- {
			term := g.term()
			if g.chance(4) {
				delete(term, "matchExpressions")
				term["matchExpressions"] = []any{map[string]any{"key": "zone", "operator": "In", "values": []string{g.pick("z1", "z2")}}}
			}
			prefs = append(prefs, map[string]any{"weight": g.pick2(0, 1, 5, 10, 100), "preference": term})
		}
		s["preferredNodeSelectorTerms"] = prefs
	}
	if g.chance(3) {
		s["tolerations"] = []any{g.toleration()}
	}
	switch g.n(6) {
	case 0:
		s["patch"] = map[string]any{"metadata": map[string]any{"labels": map[string]any{"subset": name}}}
	case 1:
		s["patch"] = map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "demo", "gone": nil},
			"annotations": map[string]any{"note": name}}}
	case 2:
		if g.chance(4) {
			s["patch"] = map[string]any{"spec": map[string]any{"priorityClassName": "high"}}
		}
	}
	return s
}

func (g *wsrGen) oldStatuses(subsets []map[string]any, pods []string) []any {
	var out []any
	for _, s := range subsets {
		if g.chance(3) {
			continue
		}
		st := map[string]any{"name": s["name"], "missingReplicas": g.n(5) - 1, "replicas": g.n(4)}
		cp, dp := map[string]any{}, map[string]any{}
		for k := g.n(3); k > 0; k-- {
			id := g.pick("new-1", "uid-1", "uid-2")
			if len(pods) > 0 && g.chance(2) {
				id = pods[g.n(len(pods))]
			}
			cp[id] = g.at(-g.pick2(0, 5, 29, 30, 31, 60))
		}
		for k := g.n(3); k > 0 && len(pods) > 0; k-- {
			dp[pods[g.n(len(pods))]] = g.at(-g.pick2(0, 5, 14, 15, 16, 60))
		}
		if len(cp) > 0 {
			st["creatingPods"] = cp
		}
		if len(dp) > 0 {
			st["deletingPods"] = dp
		}
		if g.chance(2) {
			st["conditions"] = []any{map[string]any{"type": "Schedulable", "status": g.pick("True", "False"),
				"lastTransitionTime": g.at(-g.pick2(0, 100, 299, 300, 301, 1000)), "reason": "", "message": ""}}
		}
		out = append(out, st)
	}
	return out
}

func (g *wsrGen) input() wsrInput {
	in := wsrInput{Now: g.now.Format(time.RFC3339)}
	nSubsets := g.n(4) + 1
	var subsets []map[string]any
	var subsetsAny []any
	for i := 0; i < nSubsets; i++ {
		s := g.subset(i)
		subsets = append(subsets, s)
		subsetsAny = append(subsetsAny, s)
	}
	// nodes
	var nodeNames []string
	for i := 0; i < g.n(5); i++ {
		name := fmt.Sprintf("n%d", i)
		nodeNames = append(nodeNames, name)
		labels := map[string]any{"zone": g.pick("z1", "z2", "z3")}
		if g.chance(3) {
			labels["gpu"] = "true"
		}
		if g.chance(2) {
			labels["rank"] = g.pick("0", "2", "5", "x")
		}
		node := map[string]any{"metadata": map[string]any{"name": name, "labels": labels}}
		if g.chance(4) {
			node["spec"] = map[string]any{"taints": []any{map[string]any{"key": g.pick("dedicated", "spot"), "value": g.pick("x", "y"), "effect": g.pick("NoSchedule", "NoExecute")}}}
		}
		b, _ := json.Marshal(node)
		in.Nodes = append(in.Nodes, b)
	}
	// pods
	var podNames []string
	nPods := g.n(12)
	kind := g.pick("ReplicaSet", "ReplicaSet", "CloneSet", "Deployment", "StatefulSet")
	for i := 0; i < nPods; i++ {
		name := fmt.Sprintf("p%d", i)
		podNames = append(podNames, name)
		labels := map[string]any{"app": "demo"}
		if g.chance(6) {
			labels = map[string]any{}
		}
		if !g.chance(4) {
			labels["pod-template-hash"] = g.pick("v1", "v2")
		} else if g.chance(2) {
			labels["controller-revision-hash"] = g.pick("cs-v1", "cs-v2")
		}
		if g.chance(5) {
			labels["subset"] = g.pick(wsrSubsetNames...)
		}
		annotations := map[string]any{}
		switch g.n(4) {
		case 0:
			inj := map[string]any{"name": g.pick("ws", "ws", "other"), "subset": g.pick("a", "b", "c", "gone", "")}
			if g.chance(3) {
				inj["uid"] = g.pick("uid-1", "uid-2")
			}
			b, _ := json.Marshal(inj)
			annotations["apps.kruise.io/matched-workloadspread"] = string(b)
		case 1:
			if g.chance(5) {
				annotations["apps.kruise.io/matched-workloadspread"] = g.pick("{bad", `{"name":1}`)
			}
		}
		if g.chance(4) {
			annotations["controller.kubernetes.io/pod-deletion-cost"] = g.pick("100", "200", "-100", "0", "300")
		}
		owner := map[string]any{"apiVersion": "apps/v1", "kind": g.pick("ReplicaSet", "StatefulSet", "CloneSet"), "name": "w", "uid": "u1", "controller": true}
		meta := map[string]any{"name": name, "labels": labels, "ownerReferences": []any{owner},
			"creationTimestamp": g.at(-g.pick2(1, 10, 59, 60, 61, 3600))}
		if len(annotations) > 0 {
			meta["annotations"] = annotations
		}
		if g.chance(8) {
			meta["deletionTimestamp"] = g.at(-5)
		}
		spec := map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}}
		if len(nodeNames) > 0 && !g.chance(4) {
			spec["nodeName"] = nodeNames[g.n(len(nodeNames))]
		} else if g.chance(4) {
			spec["nodeName"] = "missing-node"
		}
		if g.chance(4) {
			spec["tolerations"] = []any{g.toleration()}
		}
		if g.chance(5) {
			spec["affinity"] = map[string]any{"nodeAffinity": map[string]any{"requiredDuringSchedulingIgnoredDuringExecution": map[string]any{"nodeSelectorTerms": []any{g.term()}}}}
		}
		phase := g.pick("Running", "Running", "Pending", "Succeeded", "Failed", "Unknown")
		status := map[string]any{"phase": phase}
		var conds []any
		if g.chance(2) {
			conds = append(conds, map[string]any{"type": "Ready", "status": g.pick("True", "False"), "lastTransitionTime": g.at(-g.pick2(10, 20, 30))})
		}
		if phase == "Pending" && !g.chance(4) {
			conds = append(conds, map[string]any{"type": "PodScheduled", "status": "False", "reason": g.pick("Unschedulable", "Unschedulable", "Other")})
			if g.chance(2) { // in the first subset, where rescheduling applies
				annotations["apps.kruise.io/matched-workloadspread"] = `{"name":"ws","subset":"a"}`
				meta["annotations"] = annotations
			}
		}
		if conds != nil {
			status["conditions"] = conds
		}
		if g.chance(3) {
			status["containerStatuses"] = []any{map[string]any{"name": "c", "restartCount": g.n(3), "ready": true, "image": "nginx", "imageID": ""}}
		}
		b, _ := json.Marshal(map[string]any{"metadata": meta, "spec": spec, "status": status})
		in.Pods = append(in.Pods, b)
	}
	ws := map[string]any{"metadata": map[string]any{"name": "ws", "generation": g.n(5)}}
	spec := map[string]any{"subsets": subsetsAny}
	if !g.chance(20) {
		spec["targetRef"] = map[string]any{"apiVersion": "apps/v1", "kind": kind, "name": "w"}
	}
	if g.chance(2) {
		strat := map[string]any{"type": g.pick("Adaptive", "Adaptive", "Fixed")}
		if g.chance(4) == false {
			strat["adaptive"] = map[string]any{"rescheduleCriticalSeconds": g.pick2(0, 30, 60, 120)}
		}
		spec["scheduleStrategy"] = strat
	}
	if g.chance(4) {
		ws["metadata"].(map[string]any)["annotations"] = map[string]any{"workloadspread.kruise.io/ignore-patch-existing-pods-metadata": g.pick("true", "TRUE", "false")}
	}
	ws["spec"] = spec
	status := map[string]any{}
	if g.chance(3) == false {
		status["subsetStatuses"] = g.oldStatuses(subsets, podNames)
	}
	if g.chance(2) {
		vs := map[string]any{}
		for _, v := range []string{"v1", "v2", "v0", "versionIgnored"} {
			if g.chance(2) {
				vs[v] = g.oldStatuses(subsets, podNames)
			}
		}
		status["versionedSubsetStatuses"] = vs
	}
	ws["status"] = status
	in.WorkloadSpread, _ = json.Marshal(ws)
	r := int32(g.pick2(0, 1, 3, 5, 10))
	if !g.chance(10) {
		in.WorkloadReplicas = &r
	}
	if !g.chance(5) {
		v := g.pick("v1", "v2", "versionIgnored", "")
		in.LatestVersion = &v
	}
	if g.chance(6) {
		k := []string{g.pick("cloneset", "deployment", "statefulset")}
		in.VersionedStatusKinds = &k
	}
	return in
}

func wsrCases(n int) []wsrInput {
	g := &wsrGen{rng: rand.New(rand.NewPCG(17, 2024)), now: time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)}
	out := make([]wsrInput, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, g.input())
	}
	return out
}

func TestWorkloadspreadReconcileRandom(t *testing.T) {
	requireFn(t, fnWSReconcile, wsrInput{WorkloadSpread: json.RawMessage(`{}`), Now: "2024-01-01T00:00:00Z"})
	var r tally
	for i, in := range wsrCases(randomCount(2000)) {
		compareWSReconcile(t, &r, fmt.Sprintf("random #%d", i), in)
	}
	r.report(t, fnWSReconcile+" random")
}

// TestWorkloadspreadReconcileRandomCoverage checks the generator reaches every outcome: takeovers
// (with patch labels), unmatched pods, cost patches (positive and negative), pods to delete,
// Schedulable False and True, requeue, null subset statuses, kept creating and deleting entries,
// and both error kinds.
func TestWorkloadspreadReconcileRandomCoverage(t *testing.T) {
	seen := map[string]int{}
	for _, in := range wsrCases(2000) {
		ref := refWSReconcile(t, &in)
		if ref.kind != "" {
			seen["error "+ref.kind]++
			continue
		}
		v := ref.view
		if v.NothingToDo {
			seen["no targetRef"]++
		}
		for _, tk := range v.Takeovers {
			seen["takeover"]++
			if strings.Contains(tk, `"labels"`) {
				seen["takeover with labels"]++
			}
		}
		if len(v.Unmatched) > 0 {
			seen["unmatched"]++
		}
		for _, c := range v.CostPatches {
			if strings.HasPrefix(c, "-") {
				seen["negative cost"]++
			} else {
				seen["positive cost"]++
			}
		}
		if len(v.PodsToDelete) > 0 {
			seen["pods to delete"]++
		}
		if v.RequeueNanos > 0 {
			seen["requeue"]++
		}
		for _, k := range []string{`"status":"False"`, `"status":"True"`, `"subsetStatuses":null`, `"creatingPods":{`, `"deletingPods":{`} {
			if strings.Contains(v.Status, k) {
				seen[k]++
			}
		}
		raw, kind, err := ours(fnWSReconcile, in)
		if err == nil && kind == "unsupported" {
			seen["error unsupported"]++
		}
		_ = raw
	}
	for _, k := range []string{"takeover", "takeover with labels", "unmatched", "negative cost", "positive cost", "pods to delete",
		"requeue", `"status":"False"`, `"status":"True"`, `"subsetStatuses":null`, `"creatingPods":{`, `"deletingPods":{`,
		"no targetRef", "error invalid_input", "error unsupported"} {
		if seen[k] == 0 {
			t.Errorf("the generator never reaches %q (seen %v)", k, seen)
		}
	}
	t.Logf("outcomes: %v", seen)
}
