//go:build goref_overlay

// Differential test of pub.admit against the proxy's pod validating webhook
// (pkg/webhook/pod/validating PodCreateHandler.Handle, which runs pod_unavailable_budget.go and
// pkg/control/pubcontrol PodUnavailableBudgetValidatePod) over a fake cluster holding the PUB (and,
// for an eviction, the pod), with pubcontrol's clock set to the input's now (overlay).
//
// Compared: allowed, the denial reason, and the status the webhook writes (newStatus; none is
// written unless kruise-core answers "admitted"). kruise-core's decision code and operation are
// not observable from the webhook and are checked only through those: a written status must come
// with decision admitted, and the map the record went to (disruptedPods for DELETE/EVICT/RESIZE,
// unavailablePods for UPDATE) shows the operation.
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

	policyv1beta1 "github.com/openkruise/kruise/apis/policy/v1beta1"
	"github.com/openkruise/kruise/pkg/control/pubcontrol"
	"github.com/openkruise/kruise/pkg/util"
	"github.com/openkruise/kruise/pkg/util/controllerfinder"
	podvalidating "github.com/openkruise/kruise/pkg/webhook/pod/validating"
	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/record"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
)

const fnPubAdmit = "pub.admit"

type admitRequest struct {
	Operation        string `json:"operation"`
	SubResource      string `json:"subResource"`
	DryRun           bool   `json:"dryRun"`
	OldObjectPresent *bool  `json:"oldObjectPresent,omitempty"`
}

type pubAdmitInput struct {
	Request      admitRequest    `json:"request"`
	OldPod       map[string]any  `json:"oldPod,omitempty"`
	NewPod       map[string]any  `json:"newPod,omitempty"`
	Pod          map[string]any  `json:"pod,omitempty"`
	Pub          map[string]any  `json:"pub"`
	FeatureGates map[string]bool `json:"featureGates,omitempty"`
	Now          string          `json:"now"`
	// WebhookNamespace: the request's namespace and the webhook's selector (see
	// webhook_namespace_test.go); absent in the generated inputs.
	WebhookNamespace json.RawMessage `json:"webhookNamespace,omitempty"`
}

type admitStatus struct {
	ObservedGeneration int64             `json:"observedGeneration"`
	DisruptedPods      map[string]string `json:"disruptedPods"`
	UnavailablePods    map[string]string `json:"unavailablePods"`
	UnavailableAllowed int32             `json:"unavailableAllowed"`
	CurrentAvailable   int32             `json:"currentAvailable"`
	DesiredAvailable   int32             `json:"desiredAvailable"`
	TotalReplicas      int32             `json:"totalReplicas"`
}

type pubAdmitOut struct {
	Allowed   bool         `json:"allowed"`
	Reason    string       `json:"reason"`
	Decision  string       `json:"decision,omitempty"`
	NewStatus *admitStatus `json:"newStatus"`
}

func podRaw(t testing.TB, m map[string]any) []byte {
	t.Helper()
	if m == nil {
		return nil
	}
	var p map[string]any
	b, _ := json.Marshal(m)
	_ = json.Unmarshal(b, &p)
	p["apiVersion"], p["kind"] = "v1", "Pod"
	out, _ := json.Marshal(p)
	return out
}

// checkedPod is the pod whose related-pub names the PUB (the old pod for UPDATE).
func (in pubAdmitInput) checkedPod() map[string]any {
	if in.Request.Operation == "UPDATE" {
		return in.OldPod
	}
	return in.Pod
}

func podAnnotations(m map[string]any) map[string]string {
	out := map[string]string{}
	meta, _ := m["metadata"].(map[string]any)
	annos, _ := meta["annotations"].(map[string]any)
	for k, v := range annos {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

func podName(m map[string]any) string {
	meta, _ := m["metadata"].(map[string]any)
	s, _ := meta["name"].(string)
	return s
}

// refPubAdmit runs the webhook on the request the input describes.
func refPubAdmit(t testing.TB, in pubAdmitInput) pubAdmitOut {
	t.Helper()
	gates := map[string]bool{"WorkloadSpread": false} // its check runs first on DELETE/CREATE; not part of pub.admit
	for k, v := range in.FeatureGates {
		gates[k] = v
	}
	setPubGates(t, gates)
	now, err := time.Parse(time.RFC3339, in.Now)
	if err != nil {
		t.Fatalf("now %q: %v", in.Now, err)
	}
	pubcontrol.GorefClock = func() time.Time { return now }
	defer func() { pubcontrol.GorefClock = nil }()

	var objs []client.Object
	var pub *policyv1beta1.PodUnavailableBudget
	if in.Pub != nil {
		raw, _ := json.Marshal(in.Pub)
		pub, _ = betaPub(t, raw) // protect-total-replicas plays no part in admission
		pub.Namespace, pub.ResourceVersion, pub.UID = "default", "", "goref-pub-uid"
		if cp := in.checkedPod(); cp != nil {
			if name := podAnnotations(cp)[annoRelatedPub]; name != "" {
				pub.Name = name
			}
		}
		objs = append(objs, pub)
	}
	req := admission.Request{AdmissionRequest: admissionv1.AdmissionRequest{
		UID: "goref", Namespace: "default", Operation: admissionv1.Operation(in.Request.Operation), SubResource: in.Request.SubResource,
		Resource: metav1.GroupVersionResource{Version: "v1", Resource: "pods"},
	}}
	var dry []string
	if in.Request.DryRun {
		dry = []string{metav1.DryRunAll}
	}
	switch in.Request.Operation {
	case "UPDATE":
		req.Name = podName(in.NewPod)
		req.Object = runtime.RawExtension{Raw: podRaw(t, in.NewPod)}
		req.OldObject = runtime.RawExtension{Raw: podRaw(t, in.OldPod)}
		b, _ := json.Marshal(metav1.UpdateOptions{DryRun: dry})
		req.Options = runtime.RawExtension{Raw: b}
	case "DELETE":
		req.Name = podName(in.Pod)
		if in.Request.OldObjectPresent == nil || *in.Request.OldObjectPresent {
			req.OldObject = runtime.RawExtension{Raw: podRaw(t, in.Pod)}
		}
		b, _ := json.Marshal(metav1.DeleteOptions{DryRun: dry})
		req.Options = runtime.RawExtension{Raw: b}
	case "CREATE":
		req.Name = podName(in.Pod)
		ev := map[string]any{"apiVersion": "policy/v1", "kind": "Eviction",
			"metadata": map[string]any{"name": req.Name, "namespace": "default"}}
		if in.Request.DryRun {
			ev["deleteOptions"] = map[string]any{"dryRun": dry}
		}
		b, _ := json.Marshal(ev)
		req.Object = runtime.RawExtension{Raw: b}
		if in.Request.SubResource == "eviction" {
			p := decodePod(t, in.Pod)
			p.Namespace, p.ResourceVersion = "default", ""
			if p.DeletionTimestamp != nil {
				p.Finalizers = append(p.Finalizers, "goref/keep")
			}
			objs = append(objs, p)
		}
	}
	c := newFakeClient(t, objs, []client.Object{&policyv1beta1.PodUnavailableBudget{}}).Build()
	pubcontrol.InitPubControl(c, &controllerfinder.ControllerFinder{Client: c}, &record.FakeRecorder{})
	var before policyv1beta1.PodUnavailableBudget
	if pub != nil {
		_ = util.GlobalCache.Delete(pub)
		if err := c.Get(context.TODO(), types.NamespacedName{Namespace: "default", Name: pub.Name}, &before); err != nil {
			t.Fatal(err)
		}
	}
	h := &podvalidating.PodCreateHandler{Client: c, Decoder: admission.NewDecoder(kruiseScheme())}
	resp := h.Handle(context.TODO(), req)
	out := pubAdmitOut{Allowed: resp.Allowed}
	if resp.Result != nil {
		out.Reason = resp.Result.Message
		if resp.Result.Code != 200 && resp.Result.Code != 403 {
			t.Fatalf("webhook errored (%d): %s\ninput %s", resp.Result.Code, resp.Result.Message, jsonText(in))
		}
	}
	if pub != nil {
		var after policyv1beta1.PodUnavailableBudget
		if err := c.Get(context.TODO(), types.NamespacedName{Namespace: "default", Name: pub.Name}, &after); err != nil {
			t.Fatal(err)
		}
		_ = util.GlobalCache.Delete(&after)
		if after.ResourceVersion != before.ResourceVersion {
			s := after.Status
			out.NewStatus = &admitStatus{ObservedGeneration: s.ObservedGeneration, DisruptedPods: timeMap(s.DisruptedPods),
				UnavailablePods: timeMap(s.UnavailablePods), UnavailableAllowed: s.UnavailableAllowed,
				CurrentAvailable: s.CurrentAvailable, DesiredAvailable: s.DesiredAvailable, TotalReplicas: s.TotalReplicas}
		}
	}
	return out
}

// admitDeviation names the proxy-vs-tag class an input falls in ("" for none).
func admitDeviation(in pubAdmitInput) string {
	if cp := in.checkedPod(); cp != nil && noProtectParseBool(podAnnotations(cp)) {
		return "proxy-no-protect-parsebool"
	}
	if in.Request.Operation == "CREATE" && in.Request.SubResource == "eviction" && in.Request.DryRun {
		return "eviction-dry-run-ignored"
	}
	if in.Pub != nil {
		meta, _ := in.Pub["metadata"].(map[string]any)
		annos, _ := meta["annotations"].(map[string]any)
		if v, ok := annos[annoProtectOps].(string); ok && protectAllPiecesEmpty(&v) {
			return "proxy-protect-operations-all-empty"
		}
	}
	return ""
}

func comparePubAdmit(t *testing.T, r *tally, label string, in pubAdmitInput) {
	r.total++
	if in.WebhookNamespace != nil {
		excluded, kind := webhookVerdict(in.WebhookNamespace)
		if excluded || kind != "" {
			compareWebhookFixed(t, r, label, fnPubAdmit, in, kind, pubAdmitExcluded)
			return
		}
	}
	want := refPubAdmit(t, in)
	raw, gotK, err := answer(fnPubAdmit, in)
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	var got pubAdmitOut
	if gotK == "" {
		if err := json.Unmarshal(raw, &got); err != nil {
			r.fail("%s: ours %s: %v", label, raw, err)
			return
		}
		if got.NewStatus != nil {
			got.NewStatus.DisruptedPods = instantMap(t, got.NewStatus.DisruptedPods)
			got.NewStatus.UnavailablePods = instantMap(t, got.NewStatus.UnavailablePods)
		}
		decision := got.Decision
		got.Decision = ""
		if gotK == "" && reflect.DeepEqual(want, got) && (want.NewStatus == nil || decision == "admitted") {
			r.agreeValue++
			return
		}
		got.Decision = decision
	}
	if c := admitDeviation(in); c != "" && allowed("pub", c) {
		r.allow(c)
		return
	}
	r.fail("%s %s:\n reference %s\n ours      %s/%s", label, jsonText(in), jsonText(want), raw, gotK)
}

func TestPubAdmitVectors(t *testing.T) {
	requireFn(t, fnPubAdmit, pubAdmitInput{Request: admitRequest{Operation: "DELETE"}, Now: "2026-01-01T00:00:00Z"})
	var r tally
	var refVec tally // the reference against each vector's expected answer
	for _, c := range loadVectors(t, "pub", fnPubAdmit) {
		var in pubAdmitInput
		if err := json.Unmarshal(c.Input, &in); err != nil {
			t.Fatal(err)
		}
		comparePubAdmit(t, &r, "vector "+c.Name, in)
		withVectorAnswer(c, func() { comparePubAdmit(t, &refVec, "vector "+c.Name+" (reference vs vector)", in) })
	}
	r.report(t, "pub.admit vectors")
	refVec.report(t, "pub.admit vectors, reference vs vector")
}

func randomPubAdmitInputs(n int, each func(i int, in pubAdmitInput)) {
	g := &pubGen{rng: rand.New(rand.NewPCG(20261202, 5))}
	for i := 0; i < n; i++ {
		now := g.now()
		in := pubAdmitInput{Now: now.Format(time.RFC3339)}
		name := "pod-" + strconv.Itoa(g.rng.IntN(3))
		newPod := g.pod
		if g.chance(2) {
			newPod = g.healthyPod
		}
		switch g.rng.IntN(10) {
		case 0, 1, 2, 3:
			in.Request.Operation = "UPDATE"
			in.OldPod = newPod(name)
			if g.chance(8) {
				in.NewPod = in.OldPod
			} else {
				in.NewPod = g.mutatePod(in.OldPod)
			}
			if g.chance(10) { // the new pod drops or changes its related-pub
				annos := in.NewPod["metadata"].(map[string]any)["annotations"].(map[string]any)
				if g.chance(2) {
					delete(annos, annoRelatedPub)
				} else {
					annos[annoRelatedPub] = "pub-test"
				}
			}
		case 4, 5, 6:
			in.Request.Operation = "DELETE"
			in.Pod = newPod(name)
			if g.chance(15) {
				in.Request.OldObjectPresent = ptr(false)
			}
		default:
			in.Request.Operation = "CREATE"
			in.Pod = newPod(name)
		}
		switch in.Request.Operation {
		case "CREATE":
			in.Request.SubResource = g.pick("eviction", "eviction", "eviction", "eviction", "", "status")
		default:
			if g.chance(10) {
				in.Request.SubResource = g.pick("status", "eviction", "binding")
			}
		}
		in.Request.DryRun = g.chance(6)
		if !g.chance(10) {
			names := []string{"pod-9"}
			if g.chance(4) {
				names = append(names, name)
			}
			in.Pub = g.pubObject(names, now)
			if g.chance(2) {
				delete(in.Pub["metadata"].(map[string]any)["annotations"].(map[string]any), annoProtectOps)
			}
			st := in.Pub["status"].(map[string]any)
			// budgets that let requests through
			switch g.rng.IntN(3) {
			case 0:
				st["unavailableAllowed"] = 1 + g.rng.IntN(3)
				st["desiredAvailable"] = 1 + g.rng.IntN(3)
			case 1:
				st["unavailableAllowed"] = g.rng.IntN(2) - 1
				st["desiredAvailable"] = 1 + g.rng.IntN(3)
			}
			if g.chance(25) { // near the 2000-record cap
				m := map[string]any{}
				for j := 0; j < 1999+g.rng.IntN(3); j++ { // 2000 records still pass, 2001 do not
					m["rec-"+strconv.Itoa(j)] = now.UTC().Format(time.RFC3339)
				}
				st["disruptedPods"] = m
				st["unavailableAllowed"] = 2
				st["desiredAvailable"] = 1
			}
		}
		if !g.chance(4) {
			in.FeatureGates = map[string]bool{}
			for _, k := range []string{"PodUnavailableBudgetDeleteGate", "PodUnavailableBudgetUpdateGate", "InPlacePodVerticalScaling"} {
				if !g.chance(5) {
					in.FeatureGates[k] = !g.chance(4)
					if k == "InPlacePodVerticalScaling" {
						in.FeatureGates[k] = g.chance(2)
					}
				}
			}
		}
		each(i, in)
	}
}

func TestPubAdmitRandom(t *testing.T) {
	requireFn(t, fnPubAdmit, pubAdmitInput{Request: admitRequest{Operation: "DELETE"}, Now: "2026-01-01T00:00:00Z"})
	var r tally
	seen := map[string]int{}
	randomPubAdmitInputs(randomCount(2000), func(i int, in pubAdmitInput) {
		want := refPubAdmit(t, in)
		switch {
		case want.NewStatus != nil:
			seen["written "+in.Request.Operation]++
		case !want.Allowed && strings.Contains(want.Reason, "unavailable allowed is negative"):
			seen["denied: no budget"]++
		case !want.Allowed && strings.Contains(want.Reason, "map too big"):
			seen["denied: too many records"]++
		case !want.Allowed:
			seen["denied: "+want.Reason]++
		default:
			seen["allowed"]++
		}
		comparePubAdmit(t, &r, fmt.Sprintf("random #%d", i), in)
	})
	r.report(t, "pub.admit random")
	t.Logf("reference outcomes: %v", seen)
	for _, k := range []string{"written UPDATE", "written DELETE", "written CREATE", "allowed",
		"denied: no budget", "denied: too many records"} {
		if seen[k] < 5 {
			t.Errorf("reference outcome %q reached %d times", k, seen[k])
		}
	}
}
