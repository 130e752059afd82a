//go:build goref_overlay

// Differential test of pub.validate against the proxy's PUB validating webhook
// (pkg/webhook/podunavailablebudget/validating). The proxy validates v1beta1 objects and first
// converts a v1alpha1 request with ConvertTo, which rejects the whole object on the first bad
// protect-operations piece or an unparsable protect-total-replicas. To compare every check the tag
// makes, the test asks the proxy piece by piece: the gate check through Handle (both PUB gates
// off), each comma piece of kruise.io/pub-protect-operations through the conversion
// (protectPieceAccepted), and the rest through validatingPodUnavailableBudgetFnV1beta1 (exported
// by the overlay) on the v1beta1 form of the object with its annotations kept (the proxy checks
// protect-total-replicas there with the same strconv.ParseInt(v, 10, 32) as the tag).
package goref

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	policyv1beta1 "github.com/openkruise/kruise/apis/policy/v1beta1"
	pubvalidating "github.com/openkruise/kruise/pkg/webhook/podunavailablebudget/validating"
	admissionv1 "k8s.io/api/admission/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
)

const fnPubValidate = "pub.validate"

type pubValidateInput struct {
	Pub          map[string]any  `json:"pub"`
	OldPub       map[string]any  `json:"oldPub"`
	FeatureGates map[string]bool `json:"featureGates,omitempty"`
}

// pubFieldCode maps one field error of the proxy's validation to kruise-core's code.
func pubFieldCode(e *field.Error) string {
	f, d := e.Field, e.Detail
	switch {
	case strings.HasPrefix(f, "metadata.annotations") && strings.Contains(f, annoTotalReplica):
		return "invalid_protect_total_replicas"
	case f == "spec.selector, targetRef" && strings.HasPrefix(d, "no selector or targetRef"):
		return "selector_or_target_ref_required"
	case f == "spec.selector, targetRef" && strings.Contains(d, "mutually exclusive"):
		return "selector_and_target_ref_exclusive"
	case f == "spec.selector, targetRef" && strings.Contains(d, "cannot be modified"):
		return "selector_or_target_ref_immutable"
	case f == "spec.targetRef" && strings.HasPrefix(d, "empty targetRef"):
		return "target_ref_incomplete"
	case f == "spec.targetRef":
		return "target_ref_invalid_api_version"
	case f == "spec.selector" && strings.HasPrefix(d, "empty selector"):
		return "selector_empty"
	case f == "spec.selector" && d == "":
		return "selector_invalid"
	case strings.HasPrefix(f, "spec.selector."):
		return "selector_field_error" // metav1validation.ValidateLabelSelector
	case f == "spec.maxUnavailable, minAvailable" && strings.HasPrefix(d, "no maxUnavailable"):
		return "max_or_min_required"
	case f == "spec.maxUnavailable, minAvailable" && strings.Contains(d, "mutually exclusive"):
		return "max_and_min_exclusive"
	case f == "spec.maxUnavailable" && strings.Contains(d, "greater than 100%"):
		return "max_unavailable_over_100_percent"
	case f == "spec.maxUnavailable":
		return "max_unavailable_invalid"
	case f == "spec.minAvailable" && strings.Contains(d, "greater than 100%"):
		return "min_available_over_100_percent"
	case f == "spec.minAvailable":
		return "min_available_invalid"
	}
	return "unmapped: " + e.Error()
}

func decodeBetaPub(t testing.TB, m map[string]any) *policyv1beta1.PodUnavailableBudget {
	t.Helper()
	if m == nil {
		return nil
	}
	b, _ := json.Marshal(m)
	pub := &policyv1beta1.PodUnavailableBudget{}
	if err := json.Unmarshal(b, pub); err != nil {
		t.Fatalf("PUB does not decode: %v\n%s", err, b)
	}
	return pub
}

func pubAnnotation(m map[string]any, key string) *string {
	meta, _ := m["metadata"].(map[string]any)
	annos, _ := meta["annotations"].(map[string]any)
	if v, ok := annos[key].(string); ok {
		return &v
	}
	return nil
}

func refPubValidate(t testing.TB, in pubValidateInput) []string {
	t.Helper()
	setPubGates(t, in.FeatureGates)
	c := newFakeClient(t, nil, nil).Build()
	h := &pubvalidating.PodUnavailableBudgetCreateUpdateHandler{Client: c, Decoder: admission.NewDecoder(kruiseScheme())}
	gateResp := h.Handle(context.TODO(), admission.Request{AdmissionRequest: admissionv1.AdmissionRequest{Operation: admissionv1.Create}})
	if gateResp.Result != nil && strings.Contains(gateResp.Result.Message, "please open via feature-gate") {
		return []string{"feature_gate_disabled"}
	}
	codes := []string{}
	if v := pubAnnotation(in.Pub, annoProtectOps); v != nil {
		for _, p := range strings.Split(*v, ",") {
			if !protectPieceAccepted(p) {
				codes = append(codes, "invalid_protect_operations")
			}
		}
	}
	obj := decodeBetaPub(t, in.Pub)
	obj.Namespace = "default"
	var old *policyv1beta1.PodUnavailableBudget
	if in.OldPub != nil {
		old = decodeBetaPub(t, in.OldPub)
	}
	for _, e := range h.GorefValidate(obj, old) {
		codes = append(codes, pubFieldCode(e))
	}
	return codes
}

func pubValidateDeviation(in pubValidateInput, want []string) string {
	if protectPieceTrimmed(pubAnnotation(in.Pub, annoProtectOps)) {
		return "proxy-protect-operations-trimmed"
	}
	for _, c := range want {
		if c == "selector_field_error" {
			return "selector-validation"
		}
	}
	return ""
}

func comparePubValidate(t *testing.T, r *tally, label string, in pubValidateInput) {
	r.total++
	want := refPubValidate(t, in)
	raw, gotK, err := answer(fnPubValidate, in)
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	for _, c := range want {
		if strings.HasPrefix(c, "unmapped") {
			r.fail("%s %s: reference %v", label, jsonText(in), want)
			return
		}
	}
	var got []string
	if gotK == "" {
		if err := json.Unmarshal(raw, &got); err == nil {
			if got == nil {
				got = []string{}
			}
			if reflect.DeepEqual(got, want) {
				r.agreeValue++
				return
			}
		}
	}
	if c := pubValidateDeviation(in, want); c != "" && allowed("pub", c) {
		r.allow(c)
		return
	}
	r.fail("%s %s:\n reference %v\n ours      %s/%s", label, jsonText(in), want, raw, gotK)
}

func TestPubValidateVectors(t *testing.T) {
	requireFn(t, fnPubValidate, pubValidateInput{Pub: map[string]any{}})
	var r tally
	var refVec tally // the reference against each vector's expected answer
	for _, c := range loadVectors(t, "pub", fnPubValidate) {
		var in pubValidateInput
		if err := json.Unmarshal(c.Input, &in); err != nil {
			t.Fatal(err)
		}
		comparePubValidate(t, &r, "vector "+c.Name, in)
		withVectorAnswer(c, func() { comparePubValidate(t, &refVec, "vector "+c.Name+" (reference vs vector)", in) })
	}
	r.report(t, "pub.validate vectors")
	refVec.report(t, "pub.validate vectors, reference vs vector")
}

func (g *pubGen) selector() map[string]any {
	switch g.rng.IntN(12) {
	case 0:
		return map[string]any{}
	case 1:
		return map[string]any{"matchLabels": map[string]any{}}
	case 2:
		return map[string]any{"matchExpressions": []any{map[string]any{"key": "app", "operator": g.pick("In", "NotIn"), "values": []any{"a", "b"}}}}
	case 3:
		return map[string]any{"matchExpressions": []any{map[string]any{"key": "app", "operator": "Exists"}}}
	case 4: // invalid for LabelSelectorAsSelector and Kubernetes' selector validation
		if g.chance(2) {
			return map[string]any{"matchExpressions": []any{map[string]any{"key": "app", "operator": g.pick("In", "Exists", "Bogus"),
				"values": []any{}}}}
		}
		return map[string]any{"matchLabels": map[string]any{g.pick("bad key", "-x", strings.Repeat("k", 64)): "v"}}
	default:
		return map[string]any{"matchLabels": map[string]any{"app": g.pick("demo", "web")}}
	}
}

func (g *pubGen) targetRef() map[string]any {
	ref := map[string]any{}
	for _, k := range []string{"apiVersion", "kind", "name"} {
		if g.chance(8) {
			continue
		}
		switch k {
		case "apiVersion":
			ref[k] = g.pick("apps/v1", "apps/v1", "apps.kruise.io/v1alpha1", "v1", "apps", "a/b/c", "", "/v1", "apps/")
		case "kind":
			ref[k] = g.pick("Deployment", "CloneSet", "")
		default:
			ref[k] = g.pick("web", "web", "", "other")
		}
	}
	return ref
}

func randomPubValidateInputs(n int, each func(i int, in pubValidateInput)) {
	g := &pubGen{rng: rand.New(rand.NewPCG(20261202, 6))}
	now := time.Date(2026, 6, 21, 10, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		pub := g.pubObject(nil, now)
		spec := pub["spec"].(map[string]any)
		delete(spec, "selector")
		delete(spec, "targetRef")
		switch g.rng.IntN(10) {
		case 0:
		case 1:
			spec["selector"], spec["targetRef"] = g.selector(), g.targetRef()
		case 2, 3, 4:
			spec["targetRef"] = g.targetRef()
		default:
			spec["selector"] = g.selector()
		}
		in := pubValidateInput{Pub: pub}
		if g.chance(4) {
			var old map[string]any
			b, _ := json.Marshal(pub)
			_ = json.Unmarshal(b, &old)
			if g.chance(2) {
				os := old["spec"].(map[string]any)
				switch g.rng.IntN(3) {
				case 0:
					os["selector"] = g.selector()
				case 1:
					os["targetRef"] = g.targetRef()
				default:
					delete(os, "selector")
					delete(os, "targetRef")
				}
			}
			in.OldPub = old
		}
		if g.chance(3) {
			in.FeatureGates = map[string]bool{"PodUnavailableBudgetDeleteGate": !g.chance(3), "PodUnavailableBudgetUpdateGate": g.chance(3)}
		}
		each(i, in)
	}
}

func TestPubValidateRandom(t *testing.T) {
	requireFn(t, fnPubValidate, pubValidateInput{Pub: map[string]any{}})
	var r tally
	seen := map[string]int{}
	randomPubValidateInputs(randomCount(3000), func(i int, in pubValidateInput) {
		want := refPubValidate(t, in)
		if len(want) == 0 {
			seen["valid"]++
		}
		for _, c := range want {
			seen[c]++
		}
		comparePubValidate(t, &r, fmt.Sprintf("random #%d", i), in)
	})
	r.report(t, "pub.validate random")
	t.Logf("reference codes: %v", seen)
	for _, k := range []string{"valid", "feature_gate_disabled", "invalid_protect_operations", "invalid_protect_total_replicas",
		"selector_or_target_ref_required", "selector_and_target_ref_exclusive", "target_ref_incomplete", "target_ref_invalid_api_version",
		"selector_empty", "selector_invalid", "max_or_min_required", "max_and_min_exclusive", "max_unavailable_invalid",
		"max_unavailable_over_100_percent", "min_available_invalid", "min_available_over_100_percent", "selector_or_target_ref_immutable"} {
		if seen[k] < 10 {
			t.Errorf("reference code %s reached %d times", k, seen[k])
		}
	}
}
