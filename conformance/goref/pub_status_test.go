//go:build goref_overlay

// Differential test of pub.status against one pass of the proxy's PodUnavailableBudget
// controller (pkg/controller/podunavailablebudget syncPodUnavailableBudget, exported by the
// overlay, with its clock set to the input's now) over a fake cluster. The pass finds the pods
// itself (pkg/control/pubcontrol GetPodsForPub and pkg/util/controllerfinder): the test stands
// the input up as a cluster in which the PUB's pods are exactly the input's pods: in targetRef
// mode they are owned by a CloneSet with workloadReplicas replicas (absent when null), in selector
// mode they carry a label the PUB selects and, when workloadReplicas is set, the same CloneSet
// owns them.
package goref

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	appsv1alpha1 "github.com/openkruise/kruise/apis/apps/v1alpha1"
	policyv1beta1 "github.com/openkruise/kruise/apis/policy/v1beta1"
	"github.com/openkruise/kruise/pkg/control/pubcontrol"
	"github.com/openkruise/kruise/pkg/controller/podunavailablebudget"
	"github.com/openkruise/kruise/pkg/util"
	"github.com/openkruise/kruise/pkg/util/controllerfinder"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/record"
	kubecontroller "k8s.io/kubernetes/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const fnPubStatus = "pub.status"

type pubStatusInput struct {
	Pub              map[string]any   `json:"pub"`
	Pods             []map[string]any `json:"pods"`
	WorkloadReplicas *int32           `json:"workloadReplicas"`
	Now              string           `json:"now"`
}

type pubStatusOut struct {
	DesiredAvailable   int32             `json:"desiredAvailable"`
	CurrentAvailable   int32             `json:"currentAvailable"`
	TotalReplicas      int32             `json:"totalReplicas"`
	UnavailableAllowed int32             `json:"unavailableAllowed"`
	DisruptedPods      map[string]string `json:"disruptedPods"`
	UnavailablePods    map[string]string `json:"unavailablePods"`
	ObservedGeneration int64             `json:"observedGeneration"`
	RecheckTime        *string           `json:"recheckTime"`
	Changed            bool              `json:"changed"`
}

const (
	gorefWorkload    = "goref-workload"
	gorefWorkloadUID = "goref-workload-uid"
	gorefMatchLabel  = "goref.kruise-core/match"
)

// refPubStatus runs one controller pass. totalErr reports that the proxy's conversion rejects
// the PUB's protect-total-replicas (the pass then runs without it).
func refPubStatus(t testing.TB, in pubStatusInput) (out *pubStatusOut, kind string, totalErr error) {
	t.Helper()
	raw, _ := json.Marshal(in.Pub)
	pub, totalErr := betaPub(t, raw)
	pub.Namespace = "default"
	pub.ResourceVersion = ""
	pub.UID = "goref-pub-uid"
	ownerRef := metav1.OwnerReference{APIVersion: appsv1alpha1.GroupVersion.String(), Kind: "CloneSet", Name: gorefWorkload,
		UID: gorefWorkloadUID, Controller: ptr(true)}
	objs := []client.Object{}
	withOwner := false
	switch {
	case pub.Spec.TargetReference != nil:
		pub.Spec.TargetReference = &policyv1beta1.TargetReference{APIVersion: ownerRef.APIVersion, Kind: ownerRef.Kind, Name: gorefWorkload}
		withOwner = true
	case pub.Spec.Selector != nil:
		pub.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{gorefMatchLabel: "true"}}
		withOwner = in.WorkloadReplicas != nil
	}
	if in.WorkloadReplicas != nil && withOwner {
		objs = append(objs, &appsv1alpha1.CloneSet{
			ObjectMeta: metav1.ObjectMeta{Name: gorefWorkload, Namespace: "default", UID: gorefWorkloadUID},
			Spec: appsv1alpha1.CloneSetSpec{Replicas: ptr(*in.WorkloadReplicas),
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{gorefMatchLabel: "true"}}},
		})
	}
	for _, pm := range in.Pods {
		p := decodePod(t, pm)
		p.Namespace = "default"
		p.ResourceVersion = ""
		if p.Labels == nil {
			p.Labels = map[string]string{}
		}
		p.Labels[gorefMatchLabel] = "true"
		if withOwner {
			p.OwnerReferences = append(p.OwnerReferences, ownerRef)
		}
		if p.DeletionTimestamp != nil {
			p.Finalizers = append(p.Finalizers, "goref/keep") // the fake client refuses a deleting object without one
		}
		objs = append(objs, p)
	}
	objs = append(objs, pub.DeepCopy())
	c := newFakeClient(t, objs, []client.Object{&policyv1beta1.PodUnavailableBudget{}}).Build()
	rec := &record.FakeRecorder{}
	pubcontrol.InitPubControl(c, &controllerfinder.ControllerFinder{Client: c}, rec)
	_ = util.GlobalCache.Delete(pub)
	now, err := time.Parse(time.RFC3339, in.Now)
	if err != nil {
		t.Fatalf("now %q: %v", in.Now, err)
	}
	podunavailablebudget.GorefClock = func() time.Time { return now }
	defer func() { podunavailablebudget.GorefClock = nil }()

	before := &policyv1beta1.PodUnavailableBudget{}
	if err := c.Get(context.TODO(), types.NamespacedName{Namespace: "default", Name: pub.Name}, before); err != nil {
		t.Fatal(err)
	}
	r := podunavailablebudget.GorefNewReconciler(c, rec)
	recheck, err := r.GorefSync(before.DeepCopy())
	if err != nil {
		if strings.Contains(err.Error(), "invalid value for IntOrString") || strings.Contains(err.Error(), "invalid type: string is not a percentage") {
			return nil, "invalid_int_or_percent", totalErr
		}
		t.Fatalf("reference sync failed: %v", err)
	}
	after := &policyv1beta1.PodUnavailableBudget{}
	if err := c.Get(context.TODO(), types.NamespacedName{Namespace: "default", Name: pub.Name}, after); err != nil {
		t.Fatal(err)
	}
	st := after.Status
	out = &pubStatusOut{
		DesiredAvailable: st.DesiredAvailable, CurrentAvailable: st.CurrentAvailable, TotalReplicas: st.TotalReplicas,
		UnavailableAllowed: st.UnavailableAllowed, ObservedGeneration: st.ObservedGeneration,
		DisruptedPods: timeMap(st.DisruptedPods), UnavailablePods: timeMap(st.UnavailablePods),
		Changed: after.ResourceVersion != before.ResourceVersion,
	}
	if recheck != nil {
		s := recheck.UTC().Format(time.RFC3339)
		out.RecheckTime = &s
	}
	return out, "", totalErr
}

func ptr[T any](v T) *T { return &v }

func timeMap(m map[string]metav1.Time) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = v.UTC().Format(time.RFC3339)
	}
	return out
}

// instantMap re-spells the times of a map as UTC RFC3339 (kruise-core keeps the input spelling).
func instantMap(t testing.TB, m map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		tm, err := time.Parse(time.RFC3339, v)
		if err != nil {
			t.Fatalf("time %q: %v", v, err)
		}
		out[k] = tm.UTC().Format(time.RFC3339)
	}
	return out
}

func comparePubStatus(t *testing.T, r *tally, label string, in pubStatusInput) {
	r.total++
	want, wantK, totalErr := refPubStatus(t, in)
	raw, gotK, err := answer(fnPubStatus, in)
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	var got pubStatusOut
	if gotK == "" {
		if err := json.Unmarshal(raw, &got); err != nil {
			r.fail("%s: ours %s: %v", label, raw, err)
			return
		}
		got.DisruptedPods = instantMap(t, got.DisruptedPods)
		got.UnavailablePods = instantMap(t, got.UnavailablePods)
		if got.RecheckTime != nil {
			s := instantMap(t, map[string]string{"": *got.RecheckTime})[""]
			got.RecheckTime = &s
		}
	}
	switch {
	case wantK == "" && gotK == "" && reflect.DeepEqual(*want, got):
		r.agreeValue++
		return
	case wantK != "" && wantK == gotK:
		r.agreeError++
		return
	}
	if totalErr != nil && allowed("pub", "proxy-total-replicas-unparsable") {
		r.allow("proxy-total-replicas-unparsable")
		return
	}
	r.fail("%s %s:\n reference %s/%s\n ours      %s/%s", label, jsonText(in), jsonText(want), wantK, jsonText(got), gotK)
}

func TestPubStatusVectors(t *testing.T) {
	requireFn(t, fnPubStatus, pubStatusInput{Pub: map[string]any{}, Now: "2026-01-01T00:00:00Z"})
	var r tally
	var refVec tally // the reference against each vector's expected answer
	for _, c := range loadVectors(t, "pub", fnPubStatus) {
		var in pubStatusInput
		if err := json.Unmarshal(c.Input, &in); err != nil {
			t.Fatal(err)
		}
		if !statusRepresentable(t, in) {
			t.Logf("vector %s: selector mode with workloadReplicas %d but no active pod: no cluster has that pod set, not run", c.Name, *in.WorkloadReplicas)
			continue
		}
		comparePubStatus(t, &r, "vector "+c.Name, in)
		withVectorAnswer(c, func() { comparePubStatus(t, &refVec, "vector "+c.Name+" (reference vs vector)", in) })
	}
	r.report(t, "pub.status vectors")
	refVec.report(t, "pub.status vectors, reference vs vector")
}

// statusRepresentable: the test's cluster can hold the input. In selector mode workloadReplicas
// is the replica sum of the workloads that own the active pods, so a non-zero sum needs an active pod.
func statusRepresentable(t testing.TB, in pubStatusInput) bool {
	spec, _ := in.Pub["spec"].(map[string]any)
	if _, tr := spec["targetRef"]; tr || spec["selector"] == nil || in.WorkloadReplicas == nil || *in.WorkloadReplicas == 0 {
		return true
	}
	for _, p := range in.Pods {
		if kubecontroller.IsPodActive(decodePod(t, p)) {
			return true
		}
	}
	return false
}

// ---- PUB generator (shared with pub.admit and pub.validate) ------------------------------------

func (g *pubGen) intOrPercent() any {
	switch g.rng.IntN(10) {
	case 0, 1, 2:
		return g.rng.IntN(13)
	case 3:
		return []int{0, -1, -5, 100, 2147483647}[g.rng.IntN(5)]
	case 4, 5, 6:
		return strconv.Itoa(g.rng.IntN(101)) + "%"
	case 7:
		return g.pick("0%", "100%", "33%", "50%", "1%", "99%")
	default:
		return g.pick("150%", "-10%", "+30%", "abc", "5", "50.5%", "%", "", " 30%", "30 %", "0x10%", "00030%", "300%")
	}
}

func (g *pubGen) totalReplicasAnnotation() (string, bool) {
	if !g.chance(4) {
		return "", false
	}
	return g.pick("15", "0", "3", "10", "-3", "", "abc", "99999999999", "+5", " 5", "2147483647", "-2147483649", "5.0", "007"), true
}

// pubObject draws a v1alpha1 PUB (vector JSON). targetPods are names for the status maps.
func (g *pubGen) pubObject(podNames []string, now time.Time) map[string]any {
	annos := map[string]any{}
	if a := g.protectAnnotation(); a != nil {
		annos[annoProtectOps] = *a
	}
	if v, ok := g.totalReplicasAnnotation(); ok {
		annos[annoTotalReplica] = v
	}
	meta := map[string]any{"name": "pub-test", "namespace": "default", "generation": g.rng.IntN(4), "annotations": annos}
	spec := map[string]any{}
	switch g.rng.IntN(12) {
	case 0:
	case 1:
		spec["selector"] = map[string]any{"matchLabels": map[string]any{"app": "demo"}}
		spec["targetRef"] = map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}
	case 2, 3, 4, 5:
		spec["targetRef"] = map[string]any{"apiVersion": g.pick("apps/v1", "apps.kruise.io/v1alpha1", "apps"), "kind": g.pick("Deployment", "CloneSet"), "name": "web"}
	case 6:
		spec["selector"] = map[string]any{}
	default:
		spec["selector"] = map[string]any{"matchLabels": map[string]any{"app": "demo"}}
	}
	switch g.rng.IntN(8) {
	case 0:
	case 1:
		spec["maxUnavailable"], spec["minAvailable"] = g.intOrPercent(), g.intOrPercent()
	case 2, 3, 4:
		spec["maxUnavailable"] = g.intOrPercent()
	default:
		spec["minAvailable"] = g.intOrPercent()
	}
	status := map[string]any{}
	if !g.chance(4) {
		status["observedGeneration"] = g.rng.IntN(4)
		status["desiredAvailable"] = g.rng.IntN(6)
		status["currentAvailable"] = g.rng.IntN(8)
		status["unavailableAllowed"] = g.rng.IntN(4) - 1
		status["totalReplicas"] = g.rng.IntN(10)
	}
	for _, field := range []string{"disruptedPods", "unavailablePods"} {
		if g.chance(3) {
			continue
		}
		m := map[string]any{}
		for i := g.rng.IntN(4); i > 0; i-- {
			name := "foreign"
			if len(podNames) > 0 && !g.chance(5) {
				name = podNames[g.rng.IntN(len(podNames))]
			}
			m[name] = g.recordTime(now)
		}
		status[field] = m
	}
	return map[string]any{"metadata": meta, "spec": spec, "status": status}
}

// recordTime is a disruption/unavailability record time near now (the 10 s and 20 s bounds).
func (g *pubGen) recordTime(now time.Time) string {
	var d int
	switch g.rng.IntN(4) {
	case 0:
		d = []int{0, 9, 10, 11, 19, 20, 21}[g.rng.IntN(7)]
	case 1:
		d = g.rng.IntN(60) - 10
	default:
		d = g.rng.IntN(30)
	}
	tm := now.Add(-time.Duration(d) * time.Second)
	if g.chance(10) {
		return tm.In(time.FixedZone("", 2*3600)).Format(time.RFC3339)
	}
	return tm.UTC().Format(time.RFC3339)
}

func (g *pubGen) now() time.Time {
	return time.Date(2026, 6, 21, 10, 0, 0, 0, time.UTC).Add(time.Duration(g.rng.IntN(86400)) * time.Second)
}

func randomPubStatusInputs(t testing.TB, n int, each func(i int, in pubStatusInput)) {
	g := &pubGen{rng: rand.New(rand.NewPCG(20261202, 4))}
	for i := 0; i < n; i++ {
		now := g.now()
		pods := []map[string]any{}
		var names []string
		active := false
		for j := g.rng.IntN(7); j > 0; j-- {
			name := "pod-" + strconv.Itoa(len(pods))
			p := g.pod(name)
			pods = append(pods, p)
			names = append(names, name)
			if kubecontroller.IsPodActive(decodePod(t, p)) {
				active = true
			}
		}
		pub := g.pubObject(names, now)
		in := pubStatusInput{Pub: pub, Pods: pods, Now: now.Format(time.RFC3339)}
		if !g.chance(4) {
			w := int32(g.rng.IntN(13))
			if g.chance(30) {
				w = -2
			}
			in.WorkloadReplicas = &w
		}
		// selector mode: workloadReplicas is the replica sum of the workloads owning active pods,
		// so with no active pod it is 0 (kept consistent with the pod set)
		spec := pub["spec"].(map[string]any)
		if _, tr := spec["targetRef"]; !tr && !active && in.WorkloadReplicas != nil {
			in.WorkloadReplicas = nil
		}
		each(i, in)
		if g.chance(4) { // the next pass over the same cluster: the status the first pass wrote
			if out, k, _ := refPubStatus(t, in); k == "" {
				next := in
				b, _ := json.Marshal(in.Pub)
				_ = json.Unmarshal(b, &next.Pub)
				st := map[string]any{"observedGeneration": out.ObservedGeneration, "desiredAvailable": out.DesiredAvailable,
					"currentAvailable": out.CurrentAvailable, "unavailableAllowed": out.UnavailableAllowed,
					"totalReplicas": out.TotalReplicas, "disruptedPods": out.DisruptedPods, "unavailablePods": out.UnavailablePods}
				next.Pub["status"] = st
				if g.chance(3) {
					next.Now = now.Add(time.Duration(g.rng.IntN(25)) * time.Second).Format(time.RFC3339)
				}
				each(i, next)
			}
		}
	}
}

func TestPubStatusRandom(t *testing.T) {
	requireFn(t, fnPubStatus, pubStatusInput{Pub: map[string]any{}, Now: "2026-01-01T00:00:00Z"})
	var r tally
	seen := map[string]int{}
	randomPubStatusInputs(t, randomCount(1700), func(i int, in pubStatusInput) {
		out, k, _ := refPubStatus(t, in)
		switch {
		case k != "":
			seen[k]++
		default:
			if out.Changed {
				seen["changed"]++
			} else {
				seen["unchanged"]++
			}
			if out.RecheckTime != nil {
				seen["recheck"]++
			}
			if len(out.DisruptedPods)+len(out.UnavailablePods) > 0 {
				seen["records kept"]++
			}
			if out.UnavailableAllowed > 0 {
				seen["budget left"]++
			}
			if out.CurrentAvailable > 0 {
				seen["available pods"]++
			}
		}
		comparePubStatus(t, &r, fmt.Sprintf("random #%d", i), in)
	})
	r.report(t, "pub.status random")
	t.Logf("reference outcomes: %v", seen)
	for _, k := range []string{"invalid_int_or_percent", "changed", "unchanged", "recheck", "records kept", "budget left", "available pods"} {
		if seen[k] < 20 {
			t.Errorf("reference outcome %s reached %d times", k, seen[k])
		}
	}
}
