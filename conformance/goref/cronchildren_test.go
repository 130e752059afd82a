//go:build goref_overlay

// Differential test of cron.children against the listing every AdvancedCronJob reconcile starts
// from (pkg/controller/advancedcronjob): FindTemplateKind picks the child type, and the
// controller lists it with client.InNamespace(acj.Namespace) and
// client.MatchingFields{".metadata.controller": acj.Name}, over OpenKruise's own field indexes
// (pkg/util/fieldindex, registered on the fake client by kruiseScheme).
//
// Each candidate is decoded (encoding/json) into the Go type of its kind and API group (kind or
// apiVersion unstated: the listed kind's), stored in the fake cluster, and the listed objects are
// mapped back to their indexes. Candidates of no child type, null ones and nameless ones are not
// stored: no List of a child type could return them (the fake cluster refuses nameless objects;
// the zero object has no owner). Error vectors are input-shape errors of kruise-core and are only
// checked against kruise-core.
package goref

import (
	"context"
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"

	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
	"github.com/openkruise/kruise/pkg/controller/advancedcronjob"
	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const fnCronChildren = "cron.children"

type childrenInput struct {
	AdvancedCronJob json.RawMessage   `json:"advancedCronJob"`
	Jobs            []json.RawMessage `json:"jobs"`
}

type childrenOut struct {
	Kind  string   `json:"kind"`
	Owned []int    `json:"owned"`
	Names []string `json:"names"`
}

// refChildren lists the children the reference's reconcile would work on.
func refChildren(t *testing.T, in childrenInput) childrenOut {
	t.Helper()
	acj := &appsv1beta1.AdvancedCronJob{}
	if err := json.Unmarshal(in.AdvancedCronJob, acj); err != nil {
		t.Fatalf("advancedCronJob does not decode: %v", err)
	}
	kind := advancedcronjob.FindTemplateKind(acj.Spec)
	groups := map[appsv1beta1.TemplateKind]string{
		appsv1beta1.JobTemplate: "batch", appsv1beta1.BroadcastJobTemplate: "apps.kruise.io", appsv1beta1.ImageListPullJobTemplate: "apps.kruise.io",
	}
	var objs []client.Object
	index := map[string]int{} // kind/namespace/name -> input index
	for i, raw := range in.Jobs {
		if string(raw) == "null" {
			continue
		}
		var tm metav1.TypeMeta
		if err := json.Unmarshal(raw, &tm); err != nil {
			t.Fatalf("jobs[%d] does not decode: %v", i, err)
		}
		k := tm.Kind
		if k == "" {
			k = string(kind)
		}
		group := groups[appsv1beta1.TemplateKind(k)]
		if tm.APIVersion != "" {
			group = ""
			if g, _, ok := strings.Cut(tm.APIVersion, "/"); ok {
				group = g
			}
		}
		var obj client.Object
		switch {
		case group == "batch" && k == "Job":
			obj = &batchv1.Job{}
		case group == "apps.kruise.io" && k == "BroadcastJob":
			obj = &appsv1beta1.BroadcastJob{}
		case group == "apps.kruise.io" && k == "ImageListPullJob":
			obj = &appsv1beta1.ImageListPullJob{}
		default:
			continue
		}
		if err := json.Unmarshal(raw, obj); err != nil {
			t.Fatalf("jobs[%d] does not decode: %v", i, err)
		}
		obj.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
		if obj.GetName() == "" {
			continue
		}
		key := k + "/" + obj.GetNamespace() + "/" + obj.GetName()
		if _, dup := index[key]; dup {
			t.Fatalf("jobs[%d]: %s given twice", i, key)
		}
		index[key] = i
		objs = append(objs, obj)
	}
	c := newFakeClient(t, objs, nil).Build()
	var list client.ObjectList
	switch kind {
	case appsv1beta1.JobTemplate:
		list = &batchv1.JobList{}
	case appsv1beta1.BroadcastJobTemplate:
		list = &appsv1beta1.BroadcastJobList{}
	default:
		list = &appsv1beta1.ImageListPullJobList{}
	}
	if err := c.List(context.TODO(), list, client.InNamespace(acj.Namespace), client.MatchingFields{".metadata.controller": acj.Name}); err != nil {
		t.Fatalf("reference List: %v", err)
	}
	var owned []int
	items := reflect.ValueOf(list).Elem().FieldByName("Items")
	for j := 0; j < items.Len(); j++ {
		o := items.Index(j).Addr().Interface().(client.Object)
		i, ok := index[string(kind)+"/"+o.GetNamespace()+"/"+o.GetName()]
		if !ok {
			t.Fatalf("reference listed %s/%s, which no input holds", o.GetNamespace(), o.GetName())
		}
		owned = append(owned, i)
	}
	sort.Ints(owned)
	out := childrenOut{Kind: string(kind), Owned: []int{}, Names: []string{}}
	for _, i := range owned {
		var m struct {
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
		}
		_ = json.Unmarshal(in.Jobs[i], &m)
		out.Owned = append(out.Owned, i)
		out.Names = append(out.Names, m.Metadata.Name)
	}
	return out
}

func compareChildren(t *testing.T, r *tally, what string, in childrenInput) {
	t.Helper()
	r.total++
	want := refChildren(t, in)
	raw, kind, err := answer(fnCronChildren, in)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if kind != "" {
		r.fail("%s: reference lists %+v, kruise-core answers error %s", what, want, kind)
		return
	}
	var got childrenOut
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("%s: output %s: %v", what, raw, err)
	}
	if !reflect.DeepEqual(got, want) {
		r.fail("%s: reference %+v, kruise-core %+v", what, want, got)
		return
	}
	r.agreeValue++
}

func TestCronChildrenVectors(t *testing.T) {
	probe := childrenInput{AdvancedCronJob: json.RawMessage(`{"metadata":{"name":"a"}}`)}
	requireFn(t, fnCronChildren, probe)
	var r, refVec tally
	for _, c := range loadVectors(t, "cron_children", fnCronChildren) {
		if c.ExpectError != "" {
			// Input-shape errors: kruise-core must refuse them as the vector says.
			r.total++
			if _, kind, err := ours(fnCronChildren, json.RawMessage(c.Input)); err != nil || kind != c.ExpectError {
				r.fail("vector %s: want error %s, got kind %q (%v)", c.Name, c.ExpectError, kind, err)
			} else {
				r.agreeError++
			}
			continue
		}
		var in childrenInput
		if err := json.Unmarshal(c.Input, &in); err != nil {
			t.Fatal(err)
		}
		compareChildren(t, &r, "vector "+c.Name, in)
		withVectorAnswer(c, func() { compareChildren(t, &refVec, "vector "+c.Name+" (reference vs vector)", in) })
	}
	r.report(t, "cron.children vectors")
	refVec.report(t, "cron.children vectors, reference vs vector")
	if r.total < 20 {
		t.Fatalf("only %d cron.children vectors", r.total)
	}
}
