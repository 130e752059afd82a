//go:build goref_overlay

// Differential test of distribution.validate against the reference's ResourceDistribution
// validating webhook (pkg/webhook/resourcedistribution/validating): its
// validateResourceDistribution (exported by the overlay) on a handler whose client answers the
// dry-run create with the input's dryRunError, and Handle itself for the feature gate.
//
// The module proxy's commit (4c2bbcec) validates the v1beta1 object (the input, v1alpha1, goes
// through ConvertTo) and differs from the v1.9.0 tag, which kruise-core follows, in three ways
// that the harness maps onto the tag's answer, each counted under its class (deviations.txt):
// an unreadable spec.resource is reported at spec.resource instead of spec
// (proxy-resource-path), a failed dry run becomes Invalid / Forbidden / InternalError by its
// reason with other words instead of the tag's one InternalError (proxy-dry-run), and the
// selector error names spec.targets.namespaceSelector instead of namespaceLabelSelector
// (proxy-selector-path). Details are compared exactly, except after the prefixes
// "labelSelectorAsSelector error: " (kruise-core words the selector problem itself) and
// "failed to deserialize resource, please check your spec.resource, err " (Go's decoder error,
// which quotes the raw bytes).
package goref

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	appsv1alpha1 "github.com/openkruise/kruise/apis/apps/v1alpha1"
	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
	utilfeature "github.com/openkruise/kruise/pkg/util/feature"
	"github.com/openkruise/kruise/pkg/webhook/resourcedistribution/validating"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
)

const fnDistributionValidate = "distribution.validate"

type dvDryRun struct {
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

type dvInput struct {
	RD     json.RawMessage `json:"resourceDistribution"`
	Old    json.RawMessage `json:"oldResourceDistribution,omitempty"`
	DryRun *dvDryRun       `json:"dryRunError,omitempty"`
	Gate   *bool           `json:"featureGateEnabled,omitempty"`
}

type dvErr struct {
	Field  string `json:"field"`
	Type   string `json:"type"`
	Detail string `json:"detail"`
}

type dvOut struct {
	Allowed bool    `json:"allowed"`
	Code    int     `json:"code"`
	Errors  []dvErr `json:"errors"`
	Message *string `json:"message"`
}

type dvRef struct {
	out     dvOut
	kind    string
	classes []string
}

const (
	dvSelectorPrefix = "labelSelectorAsSelector error: "
	dvDecodePrefix   = "failed to deserialize resource, please check your spec.resource, err "
	dvDryRunTag      = "failed to dry-run to validate spec.resource, error: "
)

func dvDecode(t testing.TB, raw json.RawMessage, what string) *appsv1beta1.ResourceDistribution {
	t.Helper()
	alpha := &appsv1alpha1.ResourceDistribution{}
	if len(raw) != 0 && string(raw) != "null" {
		mustDecode(t, raw, alpha, what)
	}
	beta := &appsv1beta1.ResourceDistribution{}
	if err := alpha.ConvertTo(beta); err != nil {
		t.Fatalf("ConvertTo: %v", err)
	}
	return beta
}

func refDistributionValidate(t testing.TB, in *dvInput) (ref dvRef) {
	t.Helper()
	gate := in.Gate == nil || *in.Gate
	if err := utilfeature.DefaultMutableFeatureGate.Set(fmt.Sprintf("ResourceDistributionGate=%t", gate)); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = utilfeature.DefaultMutableFeatureGate.Set("ResourceDistributionGate=false")
	}()
	if !gate {
		// the gate is checked first (proxy) or right after decoding (tag): Handle answers it
		h := &validating.ResourceDistributionCreateUpdateHandler{}
		resp := h.Handle(context.TODO(), admission.Request{})
		msg := resp.Result.Message
		ref.out = dvOut{Allowed: resp.Allowed, Code: int(resp.Result.Code), Message: &msg}
		return ref
	}
	obj := dvDecode(t, in.RD, "resourceDistribution")
	var old *appsv1beta1.ResourceDistribution
	if len(in.Old) != 0 && string(in.Old) != "null" {
		old = dvDecode(t, in.Old, "oldResourceDistribution")
	}
	funcs := interceptor.Funcs{
		Create: func(ctx context.Context, c client.WithWatch, o client.Object, opts ...client.CreateOption) error {
			if in.DryRun == nil {
				return nil
			}
			return &apierrors.StatusError{ErrStatus: metav1.Status{
				Status: metav1.StatusFailure, Reason: metav1.StatusReason(in.DryRun.Reason), Message: in.DryRun.Message,
				Code: http.StatusUnprocessableEntity,
			}}
		},
	}
	cl := newFakeClient(t, nil, nil).WithInterceptorFuncs(funcs).Build()
	h := &validating.ResourceDistributionCreateUpdateHandler{Client: cl}
	var errs []dvErr
	panicked := func() (p bool) {
		defer func() {
			if recover() != nil {
				p = true
			}
		}()
		for _, e := range h.GorefValidate(obj, old) {
			errs = append(errs, dvErr{Field: e.Field, Type: string(e.Type), Detail: e.Detail})
		}
		return false
	}()
	if panicked {
		// a list of a supported kind: the dry-run step cannot take it as one object
		ref.kind = "invalid_resource"
		return ref
	}
	seen := map[string]bool{}
	class := func(c string) {
		if !seen[c] {
			seen[c] = true
			ref.classes = append(ref.classes, c)
		}
	}
	for i := range errs {
		e := &errs[i]
		switch {
		case e.Field == "spec.resource" && (e.Detail == "empty resource is not allowed" || strings.HasPrefix(e.Detail, dvDecodePrefix)):
			e.Field = "spec"
			class("proxy-resource-path")
		case e.Field == "spec.targets.namespaceSelector":
			e.Field = "spec.targets.namespaceLabelSelector"
			class("proxy-selector-path")
		case e.Field == "spec.resource":
			for _, p := range []string{"spec.resource is invalid: ", "spec.resource is forbidden: ", "failed to dry-run validate spec.resource: "} {
				if rest, ok := strings.CutPrefix(e.Detail, p); ok {
					e.Type, e.Detail = "InternalError", dvDryRunTag+rest
					class("proxy-dry-run")
				}
			}
		}
	}
	ref.out = dvOut{Allowed: len(errs) == 0, Code: 200, Errors: errs}
	if len(errs) != 0 {
		ref.out.Code = 422
	}
	return ref
}

// dvMaxList is the longest namespace list of the input.
func dvMaxList(in *dvInput) int {
	n := 0
	for _, raw := range []json.RawMessage{in.RD, in.Old} {
		var rd struct {
			Spec struct {
				Targets struct {
					In struct {
						List []json.RawMessage `json:"list"`
					} `json:"includedNamespaces"`
					Ex struct {
						List []json.RawMessage `json:"list"`
					} `json:"excludedNamespaces"`
				} `json:"targets"`
			} `json:"spec"`
		}
		_ = json.Unmarshal(raw, &rd)
		n = max(n, len(rd.Spec.Targets.In.List), len(rd.Spec.Targets.Ex.List))
	}
	return n
}

func dvSameDetail(a, b string) bool {
	for _, p := range []string{dvSelectorPrefix, dvDecodePrefix} {
		if strings.HasPrefix(a, p) || strings.HasPrefix(b, p) {
			return strings.HasPrefix(a, p) && strings.HasPrefix(b, p)
		}
	}
	return a == b
}

func dvSame(a, b dvOut) bool {
	if a.Allowed != b.Allowed || a.Code != b.Code || len(a.Errors) != len(b.Errors) {
		return false
	}
	if (a.Message == nil) != (b.Message == nil) || (a.Message != nil && *a.Message != *b.Message) {
		return false
	}
	for i := range a.Errors {
		x, y := a.Errors[i], b.Errors[i]
		if x.Field != y.Field || x.Type != y.Type || !dvSameDetail(x.Detail, y.Detail) {
			return false
		}
	}
	return true
}

func compareDistributionValidate(t *testing.T, r *tally, label string, raw []byte) dvRef {
	t.Helper()
	var in dvInput
	mustDecode(t, raw, &in, label)
	r.total++
	if n := dvMaxList(&in); n > 10000 {
		// kruise-core's own input bound (MAX_NAMESPACES): the reference has none
		_, kind, _ := answer(fnDistributionValidate, json.RawMessage(raw))
		if kind == "invalid_input" {
			r.agreeError++
		} else {
			r.fail("%s: %d namespaces: kruise-core kind %q, want invalid_input", label, n, kind)
		}
		return dvRef{kind: "invalid_input"}
	}
	ref := refDistributionValidate(t, &in)
	got, kind, err := answer(fnDistributionValidate, json.RawMessage(raw))
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	if ref.kind != "" || kind != "" {
		if ref.kind == kind {
			r.agreeError++
		} else {
			r.fail("%s: reference kind %q, kruise-core kind %q %s\ninput %s", label, ref.kind, kind, got, raw)
		}
		return ref
	}
	var out dvOut
	if err := json.Unmarshal(got, &out); err != nil {
		t.Fatalf("%s: decode %s: %v", label, got, err)
	}
	if !dvSame(ref.out, out) {
		r.fail("%s: reference %+v\nkruise-core %+v\ninput %s", label, ref.out, out, raw)
		return ref
	}
	if len(ref.classes) != 0 {
		for _, c := range ref.classes {
			if !allowed("distribution", c) {
				r.fail("%s: class %s is not in deviations.txt", label, c)
			}
		}
		r.allow(strings.Join(ref.classes, "+"))
		return ref
	}
	r.agreeValue++
	return ref
}

func TestDistributionValidateVectorsReference(t *testing.T) {
	var r tally
	for _, c := range loadVectors(t, "distribution_validate", fnDistributionValidate) {
		withVectorAnswer(c, func() { compareDistributionValidate(t, &r, "vector "+c.Name, c.Input) })
	}
	r.report(t, "distribution.validate vectors (reference)")
}

func TestDistributionValidateVectors(t *testing.T) {
	requireFn(t, fnDistributionValidate, map[string]any{})
	var r tally
	for _, c := range loadVectors(t, "distribution_validate", fnDistributionValidate) {
		compareDistributionValidate(t, &r, "vector "+c.Name, c.Input)
	}
	r.report(t, "distribution.validate vectors")
}

func genDistributionValidate(rng *rand.Rand) []byte {
	pick := func(xs ...any) any { return xs[rng.IntN(len(xs))] }
	name := func() any {
		return pick("rd", "rd", "a.b-c", "", "RD", "rd_1", "-rd", strings.Repeat("r", 253), strings.Repeat("r", 254), "x."+strings.Repeat("y", 63), nil)
	}
	nsName := func() any {
		return pick("a", "b", "c", "kube-system", "a.b", "", "A", "-x", strings.Repeat("n", 63), strings.Repeat("n", 64), strings.Repeat("N", 64), "ns-1")
	}
	resource := func() any {
		kind := pick("Secret", "ConfigMap", "ConfigMap", "Secret", "Pod", "", nil, 7)
		av := pick("v1", "v1", "v1", "", "v2", "apps/v1", "example.com/v1", "a/b/c", "/v1", nil)
		m := map[string]any{"metadata": pick(map[string]any{"name": pick("s", "t", "")}, nil, map[string]any{"name": 3})}
		if kind != nil {
			m["kind"] = kind
		}
		if av != nil {
			m["apiVersion"] = av
		}
		if rng.IntN(15) == 0 {
			m["items"] = pick([]any{}, nil, []any{map[string]any{"kind": "Secret", "apiVersion": "v1"}})
		}
		switch rng.IntN(25) {
		case 0:
			return nil
		case 1:
			return pick("str", 5, []any{1}, true)
		}
		return m
	}
	list := func() any {
		var l []any
		for i := rng.IntN(4); i > 0; i-- {
			l = append(l, map[string]any{"name": nsName()})
		}
		if rng.IntN(20) == 0 {
			l = append(l, nil)
		}
		return map[string]any{"list": l}
	}
	rd := func() map[string]any {
		meta := map[string]any{"name": name()}
		if rng.IntN(6) == 0 {
			meta["generateName"] = pick("rd-", "RD-", "x", "-", "a.")
		}
		if rng.IntN(10) == 0 {
			meta["namespace"] = pick("default", "")
		}
		targets := map[string]any{}
		if rng.IntN(2) == 0 {
			targets["includedNamespaces"] = list()
		}
		if rng.IntN(2) == 0 {
			targets["excludedNamespaces"] = list()
		}
		switch rng.IntN(8) {
		case 0:
			targets["namespaceLabelSelector"] = map[string]any{"matchLabels": map[string]any{pick("team", "bad key!", "a/b/c").(string): pick("x", "bad value!", "")}}
		case 1:
			targets["namespaceLabelSelector"] = map[string]any{"matchExpressions": []any{map[string]any{"key": pick("team", "", "k!"), "operator": pick("In", "NotIn", "Exists", "DoesNotExist", "Gt", ""), "values": pick(nil, []any{"x"}, []any{"x", "bad value!"})}}}
		case 2:
			targets["namespaceLabelSelector"] = map[string]any{}
		}
		return map[string]any{"apiVersion": "apps.kruise.io/v1alpha1", "kind": "ResourceDistribution", "metadata": meta,
			"spec": map[string]any{"resource": resource(), "targets": targets}}
	}
	cur := rd()
	in := map[string]any{"resourceDistribution": cur}
	switch rng.IntN(3) {
	case 0:
		old := rd()
		if rng.IntN(2) == 0 {
			old["spec"].(map[string]any)["resource"] = cur["spec"].(map[string]any)["resource"]
		}
		in["oldResourceDistribution"] = old
	}
	if rng.IntN(3) == 0 {
		in["dryRunError"] = map[string]any{"reason": pick("AlreadyExists", "Invalid", "Forbidden", "BadRequest", "InternalError", ""), "message": pick("boom", "secrets \"s\" is forbidden: quota", "")}
	}
	if rng.IntN(40) == 0 {
		in["featureGateEnabled"] = pick(false, true)
	}
	raw, _ := json.Marshal(in)
	return raw
}

// dvOutcomes names what a reference answer shows, for the coverage test.
func dvOutcomes(ref dvRef) []string {
	if ref.kind != "" {
		return []string{ref.kind}
	}
	if ref.out.Code == 403 {
		return []string{"forbidden"}
	}
	if ref.out.Allowed {
		return []string{"allowed"}
	}
	var out []string
	for _, e := range ref.out.Errors {
		d := e.Detail
		switch {
		case strings.HasPrefix(d, "ambiguous"):
			d = "ambiguous"
		case strings.HasPrefix(d, dvSelectorPrefix):
			d = "selector"
		case strings.HasPrefix(d, dvDecodePrefix):
			d = "undecodable"
		case strings.HasPrefix(d, dvDryRunTag):
			d = "dry-run"
		case strings.HasPrefix(d, "a lowercase RFC 1123"):
			d = "dns-regex"
		case strings.HasPrefix(d, "must be no more than"):
			d = "too-long"
		case strings.HasPrefix(d, "unknown or unsupported"):
			d = "unsupported"
		}
		out = append(out, e.Field+" "+e.Type+" "+d)
	}
	return out
}

func TestDistributionValidateRandom(t *testing.T) {
	requireFn(t, fnDistributionValidate, map[string]any{})
	rng := rand.New(rand.NewPCG(14, 31))
	var r tally
	for i := 0; i < randomCount(2000); i++ {
		compareDistributionValidate(t, &r, fmt.Sprintf("random #%d", i), genDistributionValidate(rng))
	}
	r.report(t, "distribution.validate random")
}

func TestDistributionValidateRandomCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 31))
	seen := map[string]int{}
	for i := 0; i < randomCount(2000); i++ {
		var in dvInput
		raw := genDistributionValidate(rng)
		mustDecode(t, raw, &in, "random")
		for _, o := range dvOutcomes(refDistributionValidate(t, &in)) {
			seen[o]++
		}
	}
	t.Logf("distribution.validate outcomes: %v", seen)
	for _, want := range []string{
		"allowed", "forbidden", "invalid_resource",
		"metadata.name FieldValueRequired name or generateName is required",
		"metadata.name FieldValueInvalid dns-regex", "metadata.name FieldValueInvalid too-long",
		"metadata.generateName FieldValueInvalid dns-regex",
		"metadata.namespace FieldValueForbidden not allowed on this type",
		"spec FieldValueInvalid empty resource is not allowed", "spec InternalError undecodable",
		"spec.resource FieldValueInvalid unsupported",
		"spec.resource FieldValueInvalid resource apiVersion, kind, and name are immutable",
		"spec.resource InternalError dry-run",
		"spec.targets.includedNamespaces FieldValueInvalid dns-regex",
		"spec.targets.includedNamespaces FieldValueInvalid must not contain dots",
		"spec.targets.excludedNamespaces FieldValueInvalid too-long",
		"spec.targets FieldValueInvalid ambiguous",
		"spec.targets.namespaceLabelSelector FieldValueInvalid selector",
	} {
		if seen[want] == 0 {
			t.Errorf("the generator never reached %q", want)
		}
	}
}
