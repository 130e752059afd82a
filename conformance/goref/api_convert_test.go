//go:build goref_overlay

// Differential tests of api.convert and api.default against the module proxy's OpenKruise:
//   - api.convert: controller-runtime's conversion webhook (pkg/webhook/conversion, the handler
//     OpenKruise serves at /convert) over OpenKruise's scheme, i.e. decoding into the source Go
//     type and the apis packages' ConvertTo/ConvertFrom; both answers are compared after the
//     zero-pruned normalisation the vectors use.
//   - api.default: apis/apps/defaults SetDefaults* on the decoded object (template defaults off,
//     as the vector function models), compared null-pruned. NodeImage createdAt reads the
//     overlay clock (metav1.Now in v1beta1.go).
//
// Random inputs are the shared vectors' objects under random edits (fields dropped, set to zero
// values or other values, the fields the conversion rules look at toggled, timestamps with
// fractions and offsets, quantities re-spelt), in both directions.
package goref

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/openkruise/kruise/apis/apps/defaults"
	appsv1alpha1 "github.com/openkruise/kruise/apis/apps/v1alpha1"
	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
	apix "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/webhook/conversion"
)

const (
	fnAPIConvert = "api.convert"
	fnAPIDefault = "api.default"
	apiAlpha     = "apps.kruise.io/v1alpha1"
	apiBeta      = "apps.kruise.io/v1beta1"
)

// ---- JSON normalisation (conformance/vectors README, api 0.1) --------------------------------

// pruneJSON removes, recursively inside objects, members whose normalised value is null, {} or
// [] and (zero = true) also false, 0 and "". Array elements are kept in place.
func pruneJSON(v any, zero bool) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			n := pruneJSON(e, zero)
			if isPrunable(n, zero) {
				continue
			}
			out[k] = n
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = pruneJSON(e, zero)
		}
		return out
	case json.Number:
		f, _ := x.Float64()
		return f
	}
	return v
}

func isPrunable(v any, zero bool) bool {
	switch x := v.(type) {
	case nil:
		return true
	case map[string]any:
		return len(x) == 0
	case []any:
		return len(x) == 0
	case bool:
		return zero && !x
	case float64:
		return zero && x == 0
	case string:
		return zero && x == ""
	}
	return false
}

func decodeJSON(t testing.TB, b []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("bad JSON %s: %v", b, err)
	}
	return v
}

func deepCopyJSON(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// ---- api.convert --------------------------------------------------------------------------------

type convertInput struct {
	Object           any    `json:"object"`
	TargetAPIVersion string `json:"targetApiVersion"`
}

// refConvert sends the object through the conversion webhook: the converted object, or the
// kind its error maps to.
func refConvert(t testing.TB, in convertInput) (any, string) {
	t.Helper()
	raw, _ := json.Marshal(in.Object)
	review := apix.ConversionReview{Request: &apix.ConversionRequest{UID: "goref", DesiredAPIVersion: in.TargetAPIVersion,
		Objects: []runtime.RawExtension{{Raw: raw}}}}
	review.APIVersion, review.Kind = "apiextensions.k8s.io/v1", "ConversionReview"
	body, _ := json.Marshal(review)
	rec := httptest.NewRecorder()
	conversion.NewWebhookHandler(kruiseScheme()).ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/convert", bytes.NewReader(body)))
	if rec.Code != http.StatusOK {
		return nil, "invalid_input"
	}
	var resp apix.ConversionReview
	if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil || resp.Response == nil {
		t.Fatalf("conversion webhook answered %s", rec.Body.Bytes())
	}
	if resp.Response.Result.Status != "Success" {
		return nil, convertErrKind(resp.Response.Result.Message, in)
	}
	return decodeJSON(t, resp.Response.ConvertedObjects[0].Raw), ""
}

// convertErrKind maps the webhook's failure message to the kinds of api.convert.
func convertErrKind(msg string, in convertInput) string {
	obj, _ := in.Object.(map[string]any)
	src, _ := obj["apiVersion"].(string)
	known := func(v string) bool { return v == apiAlpha || v == apiBeta }
	switch {
	case strings.Contains(msg, "Object 'Kind' is missing"), strings.Contains(msg, "Object 'apiVersion' is missing"),
		strings.Contains(msg, "cannot unmarshal"), strings.Contains(msg, "couldn't get version/kind"),
		strings.HasPrefix(msg, "parsing time "), strings.HasPrefix(msg, "quantities must match"),
		strings.HasPrefix(msg, "unexpected GroupVersion string"):
		return "invalid_input"
	case strings.Contains(msg, "imageListPullJobTemplate is not supported"):
		return "not_representable"
	case strings.Contains(msg, "conversion is not allowed between same type"):
		return "same_version"
	case strings.Contains(msg, "does not belong to same API Group"):
		return "unsupported_version"
	case strings.Contains(msg, "no kind") && strings.Contains(msg, "is registered for version"):
		if !known(src) || !known(in.TargetAPIVersion) {
			return "unsupported_version"
		}
		if src == in.TargetAPIVersion {
			return "same_version"
		}
		return "unsupported_kind"
	case strings.Contains(msg, "is not convertible to"):
		return "unsupported_kind"
	}
	return "unmapped: " + msg
}

// proxyConvertibleKinds gained v1beta1 and conversions after the v1.9.0 tag (the proxy's commit
// converts them; the tag has them in v1alpha1 only).
var proxyConvertibleKinds = map[string]bool{"CloneSet": true, "UnitedDeployment": true, "WorkloadSpread": true,
	"ContainerRecreateRequest": true, "ResourceDistribution": true, "PersistentPodState": true}

func objKind(o any) string {
	m, _ := o.(map[string]any)
	s, _ := m["kind"].(string)
	return s
}

// nonCanonicalQuantity: some value under a resources/limits/requests/capacity map is a valid
// quantity spelt differently from its canonical form.
func nonCanonicalQuantity(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			switch k {
			case "limits", "requests", "capacity", "allocatable", "sizeLimit", "overhead":
				if s, ok := e.(string); ok {
					if q, err := resource.ParseQuantity(s); err == nil && q.String() != s {
						return true
					}
				}
				if m, ok := e.(map[string]any); ok {
					for _, qv := range m {
						if s, ok := qv.(string); ok {
							if q, err := resource.ParseQuantity(s); err == nil && q.String() != s {
								return true
							}
						}
					}
				}
			}
			if nonCanonicalQuantity(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if nonCanonicalQuantity(e) {
				return true
			}
		}
	}
	return false
}

// inEmbeddedCore reports whether a path lies inside an embedded Kubernetes core type (pod
// template specs, containers, volumes, PVC templates, job templates, owner references,
// tolerations, update-priority strategies), which kruise-core carries verbatim
// (docs/deviations.md, api). SidecarSet containers count whole (their inlined corev1.Container).
func inEmbeddedCore(path []any) bool {
	for i, seg := range path {
		switch seg {
		case "containers", "initContainers", "volumes", "volumeClaimTemplates", "ownerReferences", "priorityStrategy",
			"tolerations", "jobTemplate":
			return true
		case "template":
			if i+1 < len(path) && path[i+1] == "spec" {
				return true
			}
		case "active": // AdvancedCronJob status.active: core object references
			if i+1 < len(path) {
				if _, idx := path[i+1].(int); idx {
					return true
				}
			}
		}
	}
	return false
}

// goRoundTrip is the object as the reference's Go type for its apiVersion/kind re-encodes it
// (nil when the scheme has no such type or it does not decode).
func goRoundTrip(o any) (any, error) {
	m, _ := o.(map[string]any)
	av, _ := m["apiVersion"].(string)
	obj, err := kruiseScheme().New(schemaGVK(av, objKind(o)))
	if err != nil {
		return nil, err
	}
	b, _ := json.Marshal(o)
	if err := json.Unmarshal(b, obj); err != nil {
		return nil, err
	}
	out, _ := json.Marshal(obj)
	var v any
	_ = json.Unmarshal(out, &v)
	return v, nil
}

// diffPaths lists the paths where two pruned JSON values differ.
func diffPaths(a, b any, path []any, out *[][]any) {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		keys := map[string]bool{}
		for k := range am {
			keys[k] = true
		}
		for k := range bm {
			keys[k] = true
		}
		for k := range keys {
			diffPaths(am[k], bm[k], append(append([]any{}, path...), k), out)
		}
		return
	}
	as, aok := a.([]any)
	bs, bok := b.([]any)
	if aok && bok && len(as) == len(bs) {
		for i := range as {
			diffPaths(as[i], bs[i], append(append([]any{}, path...), i), out)
		}
		return
	}
	if !reflect.DeepEqual(a, b) {
		*out = append(*out, path)
	}
}

// convertDeviation names the class of a disagreement from the input and the reference's own
// decoding of it ("" for none): embedded-core-verbatim when the input is not in the Go types'
// form inside an embedded core type (the reference's round trip of the input changes it there,
// or cannot decode it there).
func convertDeviation(t testing.TB, in convertInput) string {
	rt, err := goRoundTrip(in.Object)
	if err != nil {
		if strings.Contains(err.Error(), "no kind") {
			return ""
		}
		var ute *json.UnmarshalTypeError
		if errorsAs(err, &ute) {
			var path []any
			for _, f := range strings.Split(ute.Field, ".") {
				path = append(path, f)
			}
			if inEmbeddedCore(path) {
				return "embedded-core-verbatim"
			}
		}
		// an error elsewhere (a bad quantity or time): inside an embedded core type when the
		// object decodes once those subtrees are left out
		if _, err := goRoundTrip(stripEmbedded(in.Object)); err == nil {
			return "embedded-core-verbatim"
		}
		return ""
	}
	var paths [][]any
	diffPaths(pruneJSON(decodeJSON(t, mustJSON(in.Object)), true), pruneJSON(decodeJSON(t, mustJSON(rt)), true), nil, &paths)
	for _, p := range paths {
		if inEmbeddedCore(p) {
			return "embedded-core-verbatim"
		}
	}
	return ""
}

// stripEmbedded is a copy of o without its embedded core subtrees (inEmbeddedCore).
func stripEmbedded(o any) any {
	c := deepCopyJSON(o)
	var cut [][]any
	leaves(c, nil, func(p []any, _ any) {
		if len(p) > 0 && inEmbeddedCore(p) && !inEmbeddedCore(p[:len(p)-1]) {
			cut = append(cut, p)
		}
	})
	for _, p := range cut {
		var parent any = c
		for _, k := range p[:len(p)-1] {
			switch x := parent.(type) {
			case map[string]any:
				parent = x[k.(string)]
			case []any:
				parent = x[k.(int)]
			}
		}
		switch x := parent.(type) {
		case map[string]any:
			delete(x, p[len(p)-1].(string))
		case []any:
			x[p[len(p)-1].(int)] = map[string]any{}
		}
	}
	return c
}

func compareConvert(t *testing.T, r *tally, label string, in convertInput) {
	r.total++
	want, wantK := refConvert(t, in)
	raw, gotK, err := answer(fnAPIConvert, in)
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	if strings.HasPrefix(wantK, "unmapped") {
		r.fail("%s %s: reference %s", label, jsonText(in), wantK)
		return
	}
	switch {
	case wantK == "" && gotK == "" && reflect.DeepEqual(pruneJSON(want, true), pruneJSON(decodeJSON(t, raw), true)):
		r.agreeValue++
		return
	case wantK != "" && wantK == gotK:
		r.agreeError++
		return
	}
	switch c := convertDeviation(t, in); {
	case c != "" && allowed("api", c):
		r.allow(c)
		return
	case proxyConvertibleKinds[objKind(in.Object)] && allowed("api", "proxy-convertible-kinds"):
		r.allow("proxy-convertible-kinds")
		return
	case wantK == "" && gotK == "" && nonCanonicalQuantity(in.Object) && allowed("api", "pending-quantity-canonical"):
		r.allow("pending-quantity-canonical")
		return
	case wantK == "invalid_input" && gotK == "invalid_quantity" && allowed("api", "invalid-quantity-kind"):
		// Both refuse the object; the reference's decode error is generic, ours names the quantity.
		r.allow("invalid-quantity-kind")
		return
	case wantK == "invalid_input" && gotK == "unsupported_version" && !strings.HasPrefix(objAPIVersion(in.Object), "apps.kruise.io/") &&
		allowed("api", "foreign-kind-not-decoded"):
		// Both refuse; unreachable through an API server (it converts only its CRD's own group).
		r.allow("foreign-kind-not-decoded")
		return
	}
	var g any
	if gotK == "" {
		g = pruneJSON(decodeJSON(t, raw), true)
	}
	r.fail("%s %s:\n reference %s/%s\n ours      %s/%s", label, jsonText(in), jsonText(pruneJSON(want, true)), wantK, jsonText(g), gotK)
}

func TestAPIConvertVectors(t *testing.T) {
	requireFn(t, fnAPIConvert, convertInput{Object: map[string]any{}})
	var r tally
	var refVec tally // the reference against each vector's expected answer
	// api_typed_fixes.json: the precedence of decode and version errors (the webhook decodes first)
	for _, c := range append(loadVectors(t, "api", fnAPIConvert), loadVectors(t, "api_typed_fixes", fnAPIConvert)...) {
		var in convertInput
		if err := json.Unmarshal(c.Input, &in); err != nil {
			t.Fatal(err)
		}
		compareConvert(t, &r, "vector "+c.Name, in)
		withVectorAnswer(c, func() { compareConvert(t, &refVec, "vector "+c.Name+" (reference vs vector)", in) })
	}
	r.report(t, "api.convert vectors")
	refVec.report(t, "api.convert vectors, reference vs vector")
}

// ---- random objects ------------------------------------------------------------------------------

type apiGen struct{ rng *rand.Rand }

func (g *apiGen) pick(xs ...string) string { return xs[g.rng.IntN(len(xs))] }
func (g *apiGen) chance(n int) bool        { return g.rng.IntN(n) == 0 }

// seedObjects are the objects of the shared api.convert and api.default vectors.
func seedObjects(t *testing.T) []map[string]any {
	var out []map[string]any
	for _, fn := range []string{fnAPIConvert, fnAPIDefault} {
		for _, c := range loadVectors(t, "api", fn) {
			var in struct {
				Object map[string]any `json:"object"`
			}
			if json.Unmarshal(c.Input, &in) == nil && in.Object != nil {
				out = append(out, in.Object)
			}
		}
	}
	return out
}

// leaves lists the paths of an object's members (objects and arrays included).
func leaves(v any, path []any, each func(path []any, v any)) {
	each(path, v)
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			leaves(x[k], append(append([]any{}, path...), k), each)
		}
	case []any:
		for i, e := range x {
			leaves(e, append(append([]any{}, path...), i), each)
		}
	}
}

// setPath sets (or, with del, removes) the member at path, creating objects on the way.
func setPath(root map[string]any, path []string, v any, del bool) {
	m := root
	for i, k := range path {
		if i == len(path)-1 {
			if del {
				delete(m, k)
			} else {
				m[k] = v
			}
			return
		}
		next, ok := m[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[k] = next
		}
		m = next
	}
}

// sameType draws a replacement of the same JSON type as v (nil: any), or, one time in twelve, of
// another type (a value the Go types cannot decode).
func (g *apiGen) sameType(v any) (any, bool) {
	if g.chance(12) {
		return g.scalar(), true
	}
	switch v.(type) {
	case string:
		return g.pick("", "Standard", "Surging", "InPlaceIfPossible", "OnDelete", "RollingUpdate", "Always", "Replace", "v2",
			"50%", "0%", "5", "x", "2026-06-21T10:00:00Z"), false
	case float64:
		return float64(g.rng.IntN(20) - 2), false
	case bool:
		return g.chance(2), false
	case map[string]any:
		return map[string]any{}, false
	case []any:
		return []any{}, false
	}
	return nil, false
}

func (g *apiGen) scalar() any {
	switch g.rng.IntN(10) {
	case 0:
		return nil
	case 1:
		return ""
	case 2:
		return 0
	case 3:
		return false
	case 4:
		return true
	case 5:
		return g.rng.IntN(20) - 2
	case 6:
		return g.pick("50%", "0%", "100%", "5", "x")
	case 7:
		return map[string]any{}
	case 8:
		return []any{}
	}
	return g.pick("Standard", "Surging", "InPlaceIfPossible", "OnDelete", "RollingUpdate", "Always", "Replace", "v2")
}

func (g *apiGen) timestamp() string {
	t := time.Date(2026, 6, 21, 10, 0, 0, 0, time.UTC).Add(time.Duration(g.rng.IntN(86400)) * time.Second)
	switch g.rng.IntN(4) {
	case 0:
		return t.Add(time.Duration(g.rng.IntN(1e9))).Format(time.RFC3339Nano)
	case 1:
		return t.In(time.FixedZone("", 5*3600+1800)).Format(time.RFC3339)
	}
	return t.Format(time.RFC3339)
}

// ruleEdits are the edits the conversion and defaulting rules look at (api spec sections 1, 2).
func (g *apiGen) ruleEdit(o map[string]any) {
	switch g.rng.IntN(16) {
	case 0:
		setPath(o, []string{"metadata", "labels", "apps.kruise.io/sidecarset-custom-version"}, g.pick("v2", ""), false)
	case 1:
		setPath(o, []string{"spec", "namespace"}, g.pick("ns1", ""), false)
	case 2:
		setPath(o, []string{"spec", "namespaceSelector"}, map[string]any{"matchLabels": map[string]any{"team": "a"}}, false)
	case 3:
		setPath(o, []string{"spec", "customVersion"}, g.pick("v3", ""), false)
	case 4:
		setPath(o, []string{"metadata", "annotations", "daemonset.kruise.io/progressive-create-pod"}, g.pick("true", "True", "false"), false)
	case 5:
		setPath(o, []string{"spec", "scaleStrategy", "partitionedScaling"}, g.chance(2), false)
	case 6:
		setPath(o, []string{"spec", "updateStrategy", "rollingUpdate", "rollingUpdateType"}, g.pick("Surging", "Standard", "", "InPlaceIfPossible", "Other"), false)
	case 7:
		setPath(o, []string{"status", g.pick("daemonSetHash", "updateRevision")}, "h-"+strconv.Itoa(g.rng.IntN(9)), false)
	case 8:
		setPath(o, []string{"spec", "template", "imageListPullJobTemplate"}, map[string]any{"spec": map[string]any{"images": []any{"busybox:1"}}}, false)
	case 9:
		setPath(o, []string{"status", "failedImageStatuses"}, []any{nil, map[string]any{"imagePullJob": "j", "name": "busybox", "message": "m"}, nil}, false)
	case 10:
		setPath(o, []string{"metadata", "creationTimestamp"}, g.timestamp(), false)
	case 11:
		setPath(o, []string{"spec", "updateStrategy", "maxUnavailable"}, g.scalar(), false)
	case 12:
		setPath(o, []string{"spec", "template", "spec", "containers"}, []any{map[string]any{"name": "c", "image": "nginx",
			"resources": map[string]any{"limits": map[string]any{"cpu": g.pick("1", "1000m", "0.5", "500m", "2"), "memory": g.pick("1Gi", "1024Mi", "1G")}}}}, false)
	case 13:
		setPath(o, []string{"spec", "unknownField"}, g.scalar(), false)
	case 14:
		setPath(o, []string{"spec", "images", "nginx", "pullSecrets"}, []any{map[string]any{"namespace": "ns", "name": "s", "mode": g.pick("", "Cached")}}, false)
	default:
		setPath(o, []string{"spec", "updateStrategy", "type"}, g.pick("RollingUpdate", "OnDelete", "", "NotUpdate"), false)
	}
}

// mutate applies a few random edits to a copy of seed.
func (g *apiGen) mutate(seed map[string]any) map[string]any {
	o := deepCopyJSON(seed).(map[string]any)
	for n := g.rng.IntN(4); n >= 0; n-- {
		if g.chance(2) {
			g.ruleEdit(o)
			continue
		}
		var paths [][]any
		leaves(o, nil, func(p []any, _ any) {
			if len(p) > 0 && !(len(p) == 1 && (p[0] == "apiVersion" || p[0] == "kind")) {
				paths = append(paths, p)
			}
		})
		if len(paths) == 0 {
			continue
		}
		p := paths[g.rng.IntN(len(paths))]
		var parent any = o
		for _, k := range p[:len(p)-1] {
			switch c := parent.(type) {
			case map[string]any:
				parent = c[k.(string)]
			case []any:
				parent = c[k.(int)]
			}
		}
		last := p[len(p)-1]
		switch c := parent.(type) {
		case map[string]any:
			if g.chance(2) {
				delete(c, last.(string))
			} else {
				c[last.(string)], _ = g.sameType(c[last.(string)])
			}
		case []any:
			c[last.(int)], _ = g.sameType(c[last.(int)])
		}
	}
	return o
}

func randomConvertInputs(t *testing.T, n int, each func(i int, in convertInput)) {
	g := &apiGen{rng: rand.New(rand.NewPCG(20261202, 8))}
	seeds := seedObjects(t)
	for i := 0; i < n; i++ {
		o := g.mutate(seeds[g.rng.IntN(len(seeds))])
		if g.chance(10) {
			o["apiVersion"] = g.pick(apiAlpha, apiBeta, "apps.kruise.io/v2", "apps/v1", "")
		}
		if g.chance(20) {
			o["kind"] = g.pick("CloneSet", "WorkloadSpread", "UnitedDeployment", "Foo", "")
		}
		target := apiBeta
		if o["apiVersion"] == apiBeta {
			target = apiAlpha
		}
		if g.chance(12) {
			target = g.pick(apiAlpha, apiBeta, "apps.kruise.io/v3", "apps/v1")
		}
		each(i, convertInput{Object: o, TargetAPIVersion: target})
	}
}

func TestAPIConvertRandom(t *testing.T) {
	requireFn(t, fnAPIConvert, convertInput{Object: map[string]any{}})
	var r tally
	seen := map[string]int{}
	randomConvertInputs(t, randomCount(3000), func(i int, in convertInput) {
		_, k := refConvert(t, in)
		if k == "" {
			k = "converted " + objKind(in.Object)
		}
		seen[k]++
		compareConvert(t, &r, fmt.Sprintf("random #%d", i), in)
	})
	r.report(t, "api.convert random")
	t.Logf("reference outcomes: %v", seen)
	for _, k := range []string{"converted SidecarSet", "converted DaemonSet", "converted BroadcastJob", "converted AdvancedCronJob",
		"converted ImagePullJob", "converted ImageListPullJob", "converted NodeImage", "converted StatefulSet",
		"same_version", "unsupported_kind", "unsupported_version", "not_representable"} {
		if seen[k] < 5 {
			t.Errorf("reference outcome %s reached %d times", k, seen[k])
		}
	}
}

// ---- api.default ------------------------------------------------------------------------------

type defaultInput struct {
	Object       map[string]any  `json:"object"`
	Now          string          `json:"now,omitempty"`
	FeatureGates map[string]bool `json:"featureGates,omitempty"`
}

// refDefault decodes the object into its Go type and runs the SetDefaults function OpenKruise's
// mutating webhook for that kind calls (pkg/webhook/<kind>/mutating), template defaults off.
//
// roundTrip, when not nil, receives the object as its Go type re-encodes it before defaulting.
func refDefault(t testing.TB, in defaultInput, roundTrip *map[string]any) (any, string) {
	t.Helper()
	setPubGates(t, in.FeatureGates)
	if in.Now != "" {
		now := mustParseTime(t, in.Now)
		defaults.GorefClock = func() time.Time { return now }
		defer func() { defaults.GorefClock = nil }()
	}
	raw, _ := json.Marshal(in.Object)
	apiVersion, _ := in.Object["apiVersion"].(string)
	var obj any
	var apply func()
	switch apiVersion + " " + objKind(in.Object) {
	case apiBeta + " SidecarSet":
		o := &appsv1beta1.SidecarSet{}
		obj, apply = o, func() { defaults.SetDefaultsSidecarSetV1beta1(o) }
	case apiBeta + " DaemonSet":
		o := &appsv1beta1.DaemonSet{}
		obj, apply = o, func() { defaults.SetDefaultsDaemonSetV1beta1(o) }
	case apiAlpha + " DaemonSet":
		o := &appsv1alpha1.DaemonSet{}
		obj, apply = o, func() { defaults.SetDefaultsDaemonSet(o) }
	case apiBeta + " BroadcastJob":
		o := &appsv1beta1.BroadcastJob{}
		obj, apply = o, func() { defaults.SetDefaultsBroadcastJob(o, false) }
	case apiBeta + " AdvancedCronJob":
		o := &appsv1beta1.AdvancedCronJob{}
		obj, apply = o, func() { defaults.SetDefaultsAdvancedCronJob(o, false) }
	case apiBeta + " ImagePullJob":
		o := &appsv1beta1.ImagePullJob{}
		obj, apply = o, func() { defaults.SetDefaultsImagePullJobV1beta1(o, false) }
	case apiBeta + " ImageListPullJob":
		o := &appsv1beta1.ImageListPullJob{}
		obj, apply = o, func() { defaults.SetDefaultsImageListPullJobV1beta1(o) }
	case apiBeta + " NodeImage":
		o := &appsv1beta1.NodeImage{}
		obj, apply = o, func() { defaults.SetDefaultsNodeImageV1beta1(o) }
	case apiBeta + " StatefulSet":
		o := &appsv1beta1.StatefulSet{}
		obj, apply = o, func() { defaults.SetDefaultsStatefulSet(o, false) }
	default:
		return nil, "unsupported_kind"
	}
	if err := json.Unmarshal(raw, obj); err != nil {
		return nil, "invalid_input"
	}
	if roundTrip != nil {
		b, _ := json.Marshal(obj)
		*roundTrip = decodeJSON(t, b).(map[string]any)
	}
	panicked := func() (p any) {
		defer func() { p = recover() }()
		apply()
		return nil
	}()
	if panicked != nil {
		// The webhook's handler recovers the panic and the request fails.
		t.Logf("reference defaulting panicked: %v", panicked)
		return nil, "panic"
	}
	out, _ := json.Marshal(obj)
	return decodeJSON(t, out), ""
}

// compareDefault compares the defaulting of the object as its Go type re-encodes it (so that what
// defaulting leaves alone is spelt alike on both sides: kruise-core keeps its input's spelling, the
// reference re-encodes its Go struct). An object the Go type cannot hold is not compared.
func compareDefault(t *testing.T, r *tally, label string, in defaultInput) bool {
	var rt map[string]any
	want, wantK := refDefault(t, in, &rt)
	if wantK == "invalid_input" {
		return false
	}
	r.total++
	if rt != nil {
		in.Object = rt
	}
	raw, gotK, err := answer(fnAPIDefault, in)
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	if gotK == "" && wantK == "" {
		// the answer as the Go type spells it too (zero status counters, no empty structs)
		if rt, err := goRoundTrip(decodeJSON(t, raw)); err == nil {
			raw = mustJSON(rt)
		}
	}
	switch {
	case wantK == "" && gotK == "" && reflect.DeepEqual(pruneJSON(want, false), pruneJSON(decodeJSON(t, raw), false)):
		r.agreeValue++
		return true
	case wantK != "" && wantK == gotK:
		r.agreeError++
		return true
	case wantK == "panic" && gotK == "field_ref_missing" && allowed("api", "transfer-env-fieldref-panic"):
		r.allow("transfer-env-fieldref-panic")
		return true
	}
	if wantK == "" && gotK == "" && nonCanonicalQuantity(in.Object) && allowed("api", "pending-quantity-canonical") {
		r.allow("pending-quantity-canonical")
		return true
	}
	var g any
	if gotK == "" {
		g = pruneJSON(decodeJSON(t, raw), false)
	}
	r.fail("%s %s:\n reference %s/%s\n ours      %s/%s", label, jsonText(in), jsonText(pruneJSON(want, false)), wantK, jsonText(g), gotK)
	return true
}

func TestAPIDefaultVectors(t *testing.T) {
	requireFn(t, fnAPIDefault, defaultInput{Object: map[string]any{}})
	var r tally
	var refVec tally // the reference against each vector's expected answer
	for _, c := range loadVectors(t, "api", fnAPIDefault) {
		var in defaultInput
		if err := json.Unmarshal(c.Input, &in); err != nil {
			t.Fatal(err)
		}
		if !compareDefault(t, &r, "vector "+c.Name, in) {
			t.Errorf("vector %s: the Go type cannot hold the object", c.Name)
		}
		withVectorAnswer(c, func() { compareDefault(t, &refVec, "vector "+c.Name+" (reference vs vector)", in) })
	}
	r.report(t, "api.default vectors")
	refVec.report(t, "api.default vectors, reference vs vector")
}

func TestAPIDefaultRandom(t *testing.T) {
	requireFn(t, fnAPIDefault, defaultInput{Object: map[string]any{}})
	g := &apiGen{rng: rand.New(rand.NewPCG(20261202, 9))}
	seeds := seedObjects(t)
	var r tally
	seen := map[string]int{}
	for i := 0; i < randomCount(3000); i++ {
		o := g.mutate(seeds[g.rng.IntN(len(seeds))])
		if o["kind"] != "DaemonSet" || g.chance(2) {
			o["apiVersion"] = apiBeta // v1alpha1 is defaulted only for DaemonSet
		}
		in := defaultInput{Object: o, Now: g.timestamp()}
		if g.chance(3) {
			in.FeatureGates = map[string]bool{"StatefulSetAutoDeletePVC": g.chance(2), "StatefulSetAutoResizePVCGate": g.chance(2)}
		}
		_, k := refDefault(t, in, nil)
		if k == "" {
			k = objKind(o)
		}
		if compareDefault(t, &r, fmt.Sprintf("random #%d", i), in) {
			seen[k]++
		} else {
			seen["not a Go object (not compared)"]++
		}
	}
	r.report(t, "api.default random")
	t.Logf("reference outcomes: %v", seen)
	for _, k := range []string{"SidecarSet", "DaemonSet", "BroadcastJob", "AdvancedCronJob", "ImagePullJob", "ImageListPullJob", "NodeImage", "StatefulSet", "unsupported_kind"} {
		if seen[k] < 5 {
			t.Errorf("reference outcome %s reached %d times", k, seen[k])
		}
	}
}

func schemaGVK(apiVersion, kind string) schema.GroupVersionKind {
	return schema.FromAPIVersionAndKind(apiVersion, kind)
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }

// objAPIVersion is the object's apiVersion member ("" when absent or not a string).
func objAPIVersion(o any) string {
	m, _ := o.(map[string]any)
	v, _ := m["apiVersion"].(string)
	return v
}
