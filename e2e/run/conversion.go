package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"

	kruisecore "github.com/kruise-core/kruise-core/bindings/go"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"
)

const (
	v1alpha1 = "apps.kruise.io/v1alpha1"
	v1beta1  = "apps.kruise.io/v1beta1"
	convNS   = "e2e-conversion"
)

func gvr(version, resource string) schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: "apps.kruise.io", Version: version, Resource: resource}
}

// checkConversion: the seed SidecarSet both ways, then one object of every other convertible
// kind, each read back at both versions through the API server (which calls the example's
// /convert) and compared with kruisecore.ApiConvert; then a kind v1.9.0 cannot convert.
func checkConversion(ctx context.Context, e *env, r *report) error {
	if err := e.namespace(ctx, convNS, nil); err != nil {
		return err
	}

	// The seed: v1alpha1 in, v1beta1 out in the shape of the v1.9 release notes.
	b, err := os.ReadFile(e.opts.seed)
	if err != nil {
		return err
	}
	var seed map[string]any
	if err := yaml.Unmarshal(b, &seed); err != nil {
		return err
	}
	seedObj := &unstructured.Unstructured{Object: seed} // SidecarSets are cluster-scoped
	if _, err := e.dyn.Resource(gvr("v1alpha1", "sidecarsets")).Create(ctx, seedObj, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating the seed SidecarSet as v1alpha1: %w", err)
	}
	alpha, beta, err := e.readBoth(ctx, "sidecarsets", "", seedObj.GetName())
	if r.check("conversion: seed v1alpha1 SidecarSet created, read back at v1alpha1 and v1beta1", err) {
		r.check("conversion: seed as v1beta1 has the release notes' shape (namespaceSelector from spec.namespace, customVersion from the label)",
			expectFields(beta, map[string]any{
				"spec.namespaceSelector": map[string]any{"matchLabels": map[string]any{"kubernetes.io/metadata.name": "default"}},
				"spec.customVersion":     "v1",
				"spec.namespace":         nil,
				"metadata.labels":        nil,
			}))
		// Stored as v1beta1, so the v1alpha1 read is ConvertFrom's: the namespaceSelector stays,
		// spec.namespace is not restored (apis/apps/v1alpha1/sidecarset_conversion.go).
		r.check("conversion: seed read back at v1alpha1 has the label again and the namespaceSelector instead of spec.namespace",
			expectFields(alpha, map[string]any{
				"spec.namespace":         nil,
				"spec.namespaceSelector": map[string]any{"matchLabels": map[string]any{"kubernetes.io/metadata.name": "default"}},
				"metadata.labels":        map[string]any{"apps.kruise.io/sidecarset-custom-version": "v1"},
			}))
		r.check("conversion: seed's two reads equal api.convert's answers both ways", sameAsLibrary(alpha, beta))
	}

	// The reverse: v1beta1 in, v1alpha1 out.
	rev := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": v1beta1, "kind": "SidecarSet",
		"metadata": map[string]any{"name": "e2e-beta-sidecarset"},
		"spec": map[string]any{
			"customVersion":     "v2",
			"namespaceSelector": map[string]any{"matchLabels": map[string]any{"team": "e2e"}},
			"selector":          map[string]any{"matchLabels": map[string]any{"app": "rev"}},
			"containers":        []any{map[string]any{"name": "agent", "image": "busybox:1.36", "podInjectPolicy": "AfterAppContainer"}},
		},
	}}
	if _, err := e.dyn.Resource(gvr("v1beta1", "sidecarsets")).Create(ctx, rev, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating a v1beta1 SidecarSet: %w", err)
	}
	alpha, beta, err = e.readBoth(ctx, "sidecarsets", "", rev.GetName())
	if r.check("conversion: v1beta1 SidecarSet created, read back at both versions", err) {
		r.check("conversion: v1beta1 SidecarSet as v1alpha1 carries customVersion as the label, keeps namespaceSelector",
			expectFields(alpha, map[string]any{
				"metadata.labels":        map[string]any{"apps.kruise.io/sidecarset-custom-version": "v2"},
				"spec.namespaceSelector": map[string]any{"matchLabels": map[string]any{"team": "e2e"}},
				"spec.customVersion":     nil,
				"spec.namespace":         nil,
			}))
		r.check("conversion: v1beta1 SidecarSet's two reads equal api.convert's answers both ways", sameAsLibrary(alpha, beta))
	}

	// Every other convertible kind, created at v1alpha1.
	for _, k := range otherKinds() {
		obj := &unstructured.Unstructured{Object: k.obj}
		ns := convNS
		if k.clusterScoped {
			ns = ""
		} else {
			obj.SetNamespace(ns)
		}
		name := "conversion: " + obj.GetKind() + " v1alpha1 created, both reads equal api.convert's answers"
		if _, err := e.res(gvr("v1alpha1", k.resource), ns).Create(ctx, obj, metav1.CreateOptions{}); err != nil {
			r.fail(name, fmt.Errorf("create: %w", err))
			continue
		}
		alpha, beta, err := e.readBoth(ctx, k.resource, ns, obj.GetName())
		if err == nil {
			err = sameAsLibrary(alpha, beta)
		}
		r.check(name, err)
	}

	// A kind of the group that v1.9.0 has no conversion for: the API server asks, the library
	// answers unsupported_kind, the API server fails the read and serves nothing converted.
	w := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": v1alpha1, "kind": "Widget",
		"metadata": map[string]any{"name": "w", "namespace": convNS}, "spec": map[string]any{"size": int64(1)},
	}}
	if _, err := e.dyn.Resource(gvr("v1alpha1", "widgets")).Namespace(convNS).Create(ctx, w, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating a Widget: %w", err)
	}
	got, err := e.dyn.Resource(gvr("v1beta1", "widgets")).Namespace(convNS).Get(ctx, "w", metav1.GetOptions{})
	switch {
	case err == nil:
		r.fail("conversion: unknown kind refused", fmt.Errorf("the API server served %s", got.GetAPIVersion()))
	case !strings.Contains(err.Error(), "unsupported_kind"):
		r.fail("conversion: unknown kind refused", fmt.Errorf("error without the library's kind: %v", err))
	default:
		r.check("conversion: unknown kind (Widget) refused through the API server with the library's unsupported_kind", nil)
	}
	return nil
}

type kindCase struct {
	resource      string
	clusterScoped bool
	obj           map[string]any
}

func podTemplate(labels map[string]any, restart string) map[string]any {
	spec := map[string]any{"containers": []any{map[string]any{"name": "main", "image": "registry.k8s.io/pause:3.10"}}}
	if restart != "" {
		spec["restartPolicy"] = restart
	}
	return map[string]any{"metadata": map[string]any{"labels": labels}, "spec": spec}
}

func otherKinds() []kindCase {
	sel := map[string]any{"matchLabels": map[string]any{"app": "conv"}}
	labels := map[string]any{"app": "conv"}
	meta := func(kind, name string) (string, string, map[string]any) {
		return v1alpha1, kind, map[string]any{"name": name}
	}
	obj := func(kind, name string, spec map[string]any) map[string]any {
		api, k, m := meta(kind, name)
		return map[string]any{"apiVersion": api, "kind": k, "metadata": m, "spec": spec}
	}
	return []kindCase{
		{resource: "daemonsets", obj: obj("DaemonSet", "e2e-ds", map[string]any{
			"selector": sel, "template": podTemplate(labels, ""),
			"updateStrategy": map[string]any{"type": "RollingUpdate", "rollingUpdate": map[string]any{
				"rollingUpdateType": "Surging", "maxUnavailable": int64(0), "maxSurge": "20%", "partition": int64(2)}},
		})},
		{resource: "broadcastjobs", obj: obj("BroadcastJob", "e2e-bj", map[string]any{
			"template": podTemplate(nil, "Never"), "parallelism": "50%",
			"completionPolicy": map[string]any{"type": "Always", "ttlSecondsAfterFinished": int64(60)},
		})},
		{resource: "advancedcronjobs", obj: obj("AdvancedCronJob", "e2e-acj", map[string]any{
			"schedule": "*/5 * * * *", "concurrencyPolicy": "Forbid",
			"template": map[string]any{"broadcastJobTemplate": map[string]any{"spec": map[string]any{
				"template": podTemplate(nil, "Never")}}},
		})},
		{resource: "imagepulljobs", obj: obj("ImagePullJob", "e2e-ipj", map[string]any{
			"image": "registry.k8s.io/pause:3.10", "parallelism": int64(2),
			"completionPolicy": map[string]any{"type": "Always", "activeDeadlineSeconds": int64(600)},
		})},
		{resource: "imagelistpulljobs", obj: obj("ImageListPullJob", "e2e-iplj", map[string]any{
			"images": []any{"registry.k8s.io/pause:3.10", "busybox:1.36"}, "parallelism": int64(1),
			"completionPolicy": map[string]any{"type": "Never"},
		})},
		{resource: "nodeimages", clusterScoped: true, obj: obj("NodeImage", "e2e-node-1", map[string]any{
			"images": map[string]any{"busybox": map[string]any{"tags": []any{
				map[string]any{"tag": "1.36", "version": int64(1)}}}},
		})},
		{resource: "statefulsets", obj: obj("StatefulSet", "e2e-sts", map[string]any{
			"selector": sel, "template": podTemplate(labels, ""), "serviceName": "e2e-sts", "replicas": int64(3),
			"updateStrategy": map[string]any{"type": "RollingUpdate", "rollingUpdate": map[string]any{
				"partition": int64(1), "maxUnavailable": "50%", "podUpdatePolicy": "InPlaceIfPossible"}},
		})},
	}
}

func (e *env) res(g schema.GroupVersionResource, ns string) dynamic.ResourceInterface {
	if ns == "" {
		return e.dyn.Resource(g)
	}
	return e.dyn.Resource(g).Namespace(ns)
}

// readBoth reads one object at v1alpha1 and at v1beta1, from the same stored revision.
func (e *env) readBoth(ctx context.Context, resource, ns, name string) (alpha, beta map[string]any, err error) {
	a, err := e.res(gvr("v1alpha1", resource), ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, nil, fmt.Errorf("read at v1alpha1: %w", err)
	}
	b, err := e.res(gvr("v1beta1", resource), ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, nil, fmt.Errorf("read at v1beta1: %w", err)
	}
	if a.GetResourceVersion() != b.GetResourceVersion() {
		return nil, nil, fmt.Errorf("the object changed between the reads (%s, %s)", a.GetResourceVersion(), b.GetResourceVersion())
	}
	return a.Object, b.Object, nil
}

// sameAsLibrary: the API server's v1beta1 read is api.convert of its v1alpha1 read, and the reverse.
func sameAsLibrary(alpha, beta map[string]any) error {
	for _, c := range []struct {
		from, want map[string]any
		to         string
	}{{alpha, beta, v1beta1}, {beta, alpha, v1alpha1}} {
		got, err := libConvert(c.from, c.to)
		if err != nil {
			return fmt.Errorf("api.convert to %s: %w", c.to, err)
		}
		if d := diff("", got, normalizeJSON(c.want)); d != "" {
			return fmt.Errorf("API server's %s read differs from api.convert's: %s", c.to, d)
		}
	}
	return nil
}

func libConvert(obj map[string]any, to string) (any, error) {
	raw := map[string]json.RawMessage{}
	for k, v := range obj {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		raw[k] = b
	}
	out, err := kruisecore.ApiConvert(kruisecore.ApiConvertInput{Object: raw, TargetApiVersion: to})
	if err != nil {
		return nil, err
	}
	var v any
	return v, json.Unmarshal(out, &v)
}

// normalizeJSON round-trips through encoding/json so numbers compare as float64 on both sides.
func normalizeJSON(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// diff names the first paths where a and b differ ("" when equal).
func diff(path string, a, b any) string {
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
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		var out []string
		for _, k := range sorted {
			if d := diff(path+"."+k, am[k], bm[k]); d != "" {
				out = append(out, d)
			}
		}
		if len(out) > 3 {
			out = append(out[:3], "...")
		}
		return strings.Join(out, "; ")
	}
	if reflect.DeepEqual(a, b) {
		return ""
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return fmt.Sprintf("%s: library %s, API server %s", strings.TrimPrefix(path, "."), ja, jb)
}

// expectFields checks dotted paths of obj: a nil want means the member must be absent.
func expectFields(obj map[string]any, want map[string]any) error {
	paths := make([]string, 0, len(want))
	for p := range want {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		got, found, err := unstructured.NestedFieldNoCopy(obj, strings.Split(p, ".")...)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		w := want[p]
		if w == nil {
			if found {
				return fmt.Errorf("%s: want absent, got %v", p, got)
			}
			continue
		}
		if !found || !reflect.DeepEqual(normalizeJSON(got), normalizeJSON(w)) {
			return fmt.Errorf("%s: want %v, got %v (present %v)", p, w, got, found)
		}
	}
	return nil
}
