//go:build goref_overlay

// Differential test of pub.match against the reference's two directions over a fake cluster
// (controller-runtime's fake client with OpenKruise's scheme and field indexes):
//
//   - pod -> PUB: podunavailablebudget.GetPubForPod (the function the pod mutating webhook calls),
//     with controllerfinder.Finder over the same cluster. The cluster holds the PUBs, the pods'
//     workloads (CloneSets; a Deployment with its ReplicaSet) and the pods. Each pod's answer is
//     compared on the candidates: the reference run with one PUB at a time in the cluster says
//     which PUBs match; the run with all of them must pick one of those (its List order is the
//     fake tracker's, as a real informer cache's is unspecified), and kruise-core's pubIndex must
//     be the first candidate.
//   - PUB -> pods: pubcontrol.PubControl.GetPodsForPub (InitPubControl over the cluster).
//
// kruise-core reads the workload each pod resolves to from its input: the generator gives it as
// the finder resolves it (a Deployment's ReplicaSet -> the Deployment; a CloneSet missing from the
// cluster -> workloadNotFound). Classes: "invalid-selector" (a PUB selector apimachinery's
// LabelSelectorAsSelector refuses; kruise-core answers invalid_label_selector) and
// "targetref-lookup-error" (GetPodsForPub fails to look the target up; kruise-core covers none).
package goref

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	appsv1alpha1 "github.com/openkruise/kruise/apis/apps/v1alpha1"
	policyv1beta1 "github.com/openkruise/kruise/apis/policy/v1beta1"
	"github.com/openkruise/kruise/pkg/control/pubcontrol"
	"github.com/openkruise/kruise/pkg/controller/podunavailablebudget"
	"github.com/openkruise/kruise/pkg/util/controllerfinder"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/record"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const fnPubMatch = "pub.match"

type pubMatchEntry struct {
	Pod              json.RawMessage `json:"pod"`
	Workload         json.RawMessage `json:"workload,omitempty"`
	WorkloadNotFound bool            `json:"workloadNotFound,omitempty"`
}

type pubMatchInput struct {
	Pubs []json.RawMessage `json:"pubs"`
	Pods []pubMatchEntry   `json:"pods"`
	// Workloads are the objects of the fake cluster (test only, not sent to kruise-core).
	Workloads []client.Object `json:"-"`
}

type pubPodMatch struct {
	PubIndex   *int    `json:"pubIndex"`
	Name       *string `json:"name"`
	By         *string `json:"by"`
	Candidates []int   `json:"candidates"`
}

type pubCover struct {
	By   *string `json:"by"`
	Pods []int   `json:"pods"`
}

type pubMatchOut struct {
	Pods []pubPodMatch `json:"pods"`
	Pubs []pubCover    `json:"pubs"`
}

// refPubMatch answers, per pod, the reference's candidates and its pick with every PUB listed,
// and per PUB the covered pods; or a class.
func refPubMatch(t testing.TB, in pubMatchInput) (cands [][]int, picks []int, cover [][]int, coverErr []bool, class string) {
	t.Helper()
	pubs := make([]*policyv1beta1.PodUnavailableBudget, len(in.Pubs))
	for i, raw := range in.Pubs {
		p := &policyv1beta1.PodUnavailableBudget{}
		mustDecode(t, raw, p, "pub")
		p.ResourceVersion = ""
		p.UID = types.UID(fmt.Sprintf("pub-uid-%d", i))
		if invalidSelector(p.Spec.Selector) {
			class = "invalid-selector"
		}
		pubs[i] = p
	}
	if class != "" {
		return nil, nil, nil, nil, class
	}
	pods := make([]*corev1.Pod, len(in.Pods))
	for i, e := range in.Pods {
		p := &corev1.Pod{}
		mustDecode(t, e.Pod, p, "pod")
		p.ResourceVersion = ""
		if p.DeletionTimestamp != nil {
			p.Finalizers = append(p.Finalizers, "goref/keep")
		}
		pods[i] = p
	}
	cluster := func(withPubs []*policyv1beta1.PodUnavailableBudget) client.Client {
		var objs []client.Object
		for _, w := range in.Workloads {
			objs = append(objs, w.DeepCopyObject().(client.Object))
		}
		for _, p := range pods {
			objs = append(objs, p.DeepCopy())
		}
		for _, p := range withPubs {
			objs = append(objs, p.DeepCopy())
		}
		c := newFakeClient(t, objs, nil).Build()
		controllerfinder.Finder = &controllerfinder.ControllerFinder{Client: c}
		pubcontrol.InitPubControl(c, controllerfinder.Finder, &record.FakeRecorder{})
		return c
	}
	defer func() { controllerfinder.Finder = nil }()
	index := func(p *policyv1beta1.PodUnavailableBudget) int {
		for i, q := range pubs {
			if q.Name == p.Name && q.Namespace == p.Namespace {
				return i
			}
		}
		t.Fatalf("unknown PUB %s/%s", p.Namespace, p.Name)
		return -1
	}
	cands = make([][]int, len(pods))
	for i := range pubs {
		c := cluster(pubs[i : i+1])
		for j, pod := range pods {
			got, err := podunavailablebudget.GetPubForPod(c, pod)
			if err != nil {
				t.Fatalf("GetPubForPod: %v", err)
			}
			if got != nil {
				cands[j] = append(cands[j], index(got))
			}
		}
	}
	c := cluster(pubs)
	picks = make([]int, len(pods))
	for j, pod := range pods {
		got, err := podunavailablebudget.GetPubForPod(c, pod)
		if err != nil {
			t.Fatalf("GetPubForPod: %v", err)
		}
		picks[j] = -1
		if got != nil {
			picks[j] = index(got)
		}
	}
	podIndex := map[string]int{}
	for j, p := range pods {
		podIndex[p.Namespace+"/"+p.Name] = j
	}
	cover = make([][]int, len(pubs))
	coverErr = make([]bool, len(pubs))
	for i, p := range pubs {
		got, _, err := pubcontrol.PubControl.GetPodsForPub(p.DeepCopy())
		if err != nil {
			// the finder cannot look the target up (no such kind in that group, an apiVersion
			// that does not parse): the controller gets an error and requeues
			if p.Spec.TargetReference == nil {
				t.Fatalf("GetPodsForPub: %v", err)
			}
			coverErr[i] = true
			continue
		}
		cover[i] = []int{}
		for _, q := range got {
			cover[i] = append(cover[i], podIndex[q.Namespace+"/"+q.Name])
		}
		sort.Ints(cover[i])
	}
	return cands, picks, cover, coverErr, class
}

func comparePubMatch(t *testing.T, r *tally, label string, in pubMatchInput, outcomes map[string]int) {
	t.Helper()
	r.total++
	raw, _ := json.Marshal(in)
	cands, picks, cover, coverErr, class := refPubMatch(t, in)
	got, kind, err := answer(fnPubMatch, json.RawMessage(raw))
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	if outcomes != nil && class != "" {
		outcomes[class]++
	}
	if class == "invalid-selector" {
		if kind == "invalid_label_selector" && allowed("pub", class) {
			r.allow(class)
			return
		}
		r.fail("%s: class %s: kruise-core answered %s %s\n%s", label, class, kind, got, raw)
		return
	}
	if kind != "" {
		r.fail("%s: kruise-core error %s\n%s", label, kind, raw)
		return
	}
	var out pubMatchOut
	mustDecode(t, got, &out, "output")
	if len(out.Pods) != len(in.Pods) || len(out.Pubs) != len(in.Pubs) {
		r.fail("%s: kruise-core answered %s\n%s", label, got, raw)
		return
	}
	for j, pm := range out.Pods {
		want := cands[j]
		if want == nil {
			want = []int{}
		}
		first := -1
		if pm.PubIndex != nil {
			first = *pm.PubIndex
		}
		if !slices.Equal(pm.Candidates, want) || (len(want) > 0 && first != want[0]) || (len(want) == 0 && first != -1) ||
			(picks[j] == -1) != (len(want) == 0) || (picks[j] >= 0 && !slices.Contains(want, picks[j])) {
			r.fail("%s: pod %d: kruise-core candidates %v first %d, reference candidates %v pick %d\n%s", label, j, pm.Candidates, first, want, picks[j], raw)
			return
		}
		if outcomes != nil {
			outcomes[fmt.Sprintf("pod-candidates-%d", min(len(want), 2))]++
			if pm.By != nil {
				outcomes["pod-by-"+*pm.By]++
			}
		}
	}
	lookupErr := false
	for i, pc := range out.Pubs {
		if coverErr[i] {
			if len(pc.Pods) != 0 || !allowed("pub", "targetref-lookup-error") {
				r.fail("%s: pub %d: the reference's lookup of the target fails, kruise-core covers %v\n%s", label, i, pc.Pods, raw)
				return
			}
			lookupErr = true
			continue
		}
		if !slices.Equal(pc.Pods, cover[i]) {
			r.fail("%s: pub %d: kruise-core covers %v, reference %v\n%s", label, i, pc.Pods, cover[i], raw)
			return
		}
		if outcomes != nil && len(pc.Pods) > 0 {
			outcomes["pub-covers-some"]++
		}
	}
	if lookupErr {
		if outcomes != nil {
			outcomes["targetref-lookup-error"]++
		}
		r.allow("targetref-lookup-error")
		return
	}
	r.agreeValue++
}

// pubMatchGen draws a small cluster: two namespaces, CloneSets cs1/cs2 (cs2 sometimes missing),
// Deployment dep1 with ReplicaSet dep1-rs in ns1, pods owned by them or by nothing, and PUBs by
// selector or targetRef.
type pubMatchGen struct{ rng *rand.Rand }

func (g *pubMatchGen) pick(xs ...string) string { return xs[g.rng.IntN(len(xs))] }
func (g *pubMatchGen) chance(n int) bool        { return g.rng.IntN(n) == 0 }

var (
	pmKeys   = []string{"app", "tier", "env"}
	pmValues = []string{"web", "db", "prod", ""}
)

func (g *pubMatchGen) labels() map[string]any {
	m := map[string]any{}
	for i, n := 0, g.rng.IntN(3); i < n; i++ {
		m[g.pick(pmKeys...)] = g.pick(pmValues...)
	}
	return m
}

func (g *pubMatchGen) selector() any {
	switch g.rng.IntN(7) {
	case 0:
		return map[string]any{}
	case 1:
		return map[string]any{"matchExpressions": []any{map[string]any{"key": g.pick(pmKeys...), "operator": g.pick("Exists", "DoesNotExist")}}}
	case 2:
		if g.chance(3) {
			return map[string]any{"matchExpressions": []any{map[string]any{"key": "app", "operator": g.pick("Gt", "Equals", "In")}}}
		}
	case 3:
		return map[string]any{"matchExpressions": []any{map[string]any{"key": g.pick(pmKeys...), "operator": g.pick("In", "NotIn"),
			"values": []any{g.pick(pmValues...), g.pick(pmValues...)}}}}
	}
	return map[string]any{"matchLabels": map[string]any{g.pick(pmKeys...): g.pick(pmValues...)}}
}

func (g *pubMatchGen) input() pubMatchInput {
	var in pubMatchInput
	replicas := int32(1 + g.rng.IntN(3))
	csExists := map[string]bool{"cs1": true, "cs2": !g.chance(3)}
	for _, name := range []string{"cs1", "cs2"} {
		for _, ns := range []string{"ns1", "ns2"} {
			if !csExists[name] {
				continue
			}
			in.Workloads = append(in.Workloads, &appsv1alpha1.CloneSet{
				TypeMeta:   metav1.TypeMeta{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet"},
				ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, UID: types.UID("uid-" + name + "-" + ns)},
				Spec:       appsv1alpha1.CloneSetSpec{Replicas: ptr(replicas), Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"owner": name}}},
			})
		}
	}
	in.Workloads = append(in.Workloads,
		&appsv1.Deployment{
			TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
			ObjectMeta: metav1.ObjectMeta{Name: "dep1", Namespace: "ns1", UID: "uid-dep1"},
			Spec:       appsv1.DeploymentSpec{Replicas: ptr(replicas), Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"owner": "dep1"}}},
		},
		&appsv1.ReplicaSet{
			TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
			ObjectMeta: metav1.ObjectMeta{Name: "dep1-rs", Namespace: "ns1", UID: "uid-dep1-rs", Labels: map[string]string{"owner": "dep1"},
				OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "dep1", UID: "uid-dep1", Controller: ptr(true)}}},
			Spec: appsv1.ReplicaSetSpec{Replicas: ptr(replicas), Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"owner": "dep1"}}},
		})
	for j, n := 0, 1+g.rng.IntN(4); j < n; j++ {
		ns := g.pick("ns1", "ns2")
		meta := map[string]any{"name": fmt.Sprintf("pod-%d", j), "namespace": ns, "labels": g.labels()}
		entry := pubMatchEntry{}
		owner := g.pick("none", "cs1", "cs2", "rs", "not-controller")
		if owner == "rs" && ns != "ns1" {
			owner = "cs1"
		}
		switch owner {
		case "cs1", "cs2":
			meta["ownerReferences"] = []any{map[string]any{"apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "name": owner,
				"uid": "uid-" + owner + "-" + ns, "controller": true}}
			entry.WorkloadNotFound = !csExists[owner]
		case "rs":
			meta["ownerReferences"] = []any{map[string]any{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "dep1-rs", "uid": "uid-dep1-rs", "controller": true}}
			entry.Workload, _ = json.Marshal(map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "name": "dep1"})
		case "not-controller":
			meta["ownerReferences"] = []any{map[string]any{"apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "name": "cs1",
				"uid": "uid-cs1-" + ns, "controller": false}}
		}
		if g.chance(8) {
			meta["deletionTimestamp"] = "2026-06-21T10:00:00Z"
		}
		pod := map[string]any{"metadata": meta, "status": map[string]any{"phase": g.pick("Running", "Running", "Pending", "Succeeded", "Failed")}}
		entry.Pod, _ = json.Marshal(pod)
		in.Pods = append(in.Pods, entry)
	}
	for i, n := 0, 1+g.rng.IntN(3); i < n; i++ {
		spec := map[string]any{"maxUnavailable": "50%"}
		switch g.rng.IntN(5) {
		case 0, 1:
			spec["selector"] = g.selector()
		case 2:
			ref := map[string]any{"apiVersion": g.pick("apps.kruise.io/v1alpha1", "apps.kruise.io/v1beta1", "apps/v1", "a/b/c"), "kind": "CloneSet", "name": g.pick("cs1", "cs2")}
			spec["targetRef"] = ref
		case 3:
			spec["targetRef"] = map[string]any{"apiVersion": "apps/v1", "kind": g.pick("Deployment", "Deployment", "ReplicaSet"), "name": g.pick("dep1", "dep1-rs")}
		case 4:
			if g.chance(2) {
				spec["targetRef"] = map[string]any{"apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "name": "cs1"}
				spec["selector"] = g.selector()
			}
		}
		pub := map[string]any{"apiVersion": "policy.kruise.io/v1beta1", "kind": "PodUnavailableBudget",
			"metadata": map[string]any{"name": fmt.Sprintf("pub-%d", i), "namespace": g.pick("ns1", "ns1", "ns2")}, "spec": spec}
		raw, _ := json.Marshal(pub)
		in.Pubs = append(in.Pubs, raw)
	}
	return in
}

func TestPubMatchVectors(t *testing.T) {
	requireFn(t, fnPubMatch, map[string]any{})
	// The vectors name their workloads by owner references alone; the cluster holds a CloneSet
	// for every CloneSet owner reference (but a controller reference whose pod says
	// workloadNotFound).
	for _, vs := range []bool{false, true} {
		r := &tally{}
		for _, c := range loadVectors(t, "pub_match", fnPubMatch) {
			var in pubMatchInput
			mustDecode(t, c.Input, &in, "input")
			skip := false
			seen := map[string]bool{}
			for _, e := range in.Pods {
				var p corev1.Pod
				mustDecode(t, e.Pod, &p, "pod")
				for _, ref := range p.OwnerReferences {
					if (e.WorkloadNotFound && ref.Controller != nil && *ref.Controller) || seen[p.Namespace+"/"+ref.Name] {
						continue
					}
					seen[p.Namespace+"/"+ref.Name] = true
					switch ref.Kind {
					case "CloneSet":
						in.Workloads = append(in.Workloads, &appsv1alpha1.CloneSet{
							TypeMeta:   metav1.TypeMeta{APIVersion: ref.APIVersion, Kind: "CloneSet"},
							ObjectMeta: metav1.ObjectMeta{Name: ref.Name, Namespace: p.Namespace, UID: ref.UID},
							Spec:       appsv1alpha1.CloneSetSpec{Replicas: ptr(int32(3))},
						})
					default:
						skip = true // the ReplicaSet -> Deployment chain is exercised by the random test
					}
				}
			}
			if skip {
				continue
			}
			if vs {
				withVectorAnswer(c, func() { comparePubMatch(t, r, c.Name, in, nil) })
			} else {
				comparePubMatch(t, r, c.Name, in, nil)
			}
		}
		r.report(t, map[bool]string{false: "pub.match vectors", true: "pub.match reference vs vector"}[vs])
	}
}

func TestPubMatchRandom(t *testing.T) {
	requireFn(t, fnPubMatch, map[string]any{})
	g := &pubMatchGen{rand.New(rand.NewPCG(20260621, 9))}
	r := &tally{}
	outcomes := map[string]int{}
	for i, n := 0, randomCount(2000); i < n; i++ {
		comparePubMatch(t, r, fmt.Sprintf("random %d", i), g.input(), outcomes)
	}
	for _, want := range []string{"invalid-selector", "targetref-lookup-error", "pod-candidates-0", "pod-candidates-1",
		"pod-candidates-2", "pod-by-targetRef", "pod-by-selector", "pub-covers-some"} {
		if outcomes[want] == 0 {
			t.Errorf("the generator never reached %s (%v)", want, outcomes)
		}
	}
	t.Logf("outcomes: %v", outcomes)
	r.report(t, "pub.match random")
}
