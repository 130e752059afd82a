//go:build goref_overlay

// Differential test of jobsidecar.decide against one pass of the reference's sidecar terminator
// (pkg/controller/sidecarterminator, ReconcileSidecarTerminator.Reconcile -> doReconcile) over a
// fake cluster holding the pod, its Node (when the input has one) and, when the input says it
// exists, the ContainerRecreateRequest sidecar-termination-<uid>. What the pass did is read back
// from the cluster and the client calls: the pod's container images (in-place update), the CRR
// created (containers sorted by name), a Get that finds the CRR (waiting for it), the status
// patch sent (phase and condition type) and the pod's phase afterwards. `handled` is the
// reference's isInterestingPod (exported by the overlay), `virtualKubelet` its
// IsPodRunningOnVirtualKubelet, and a failed pass is the missing node.
//
// The module proxy's commit creates the CRR as apps.kruise.io/v1beta1 where the v1.9.0 tag uses
// v1alpha1 (same members); the test reads whichever the proxy writes.
package goref

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"

	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
	"github.com/openkruise/kruise/pkg/controller/sidecarterminator"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/record"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

const fnJobSidecar = "jobsidecar.decide"

type jsInput struct {
	Pod       json.RawMessage `json:"pod"`
	Node      json.RawMessage `json:"node,omitempty"`
	CRRExists bool            `json:"containerRecreateRequestExists,omitempty"`
}

type jsImage struct {
	Name  string `json:"name"`
	Image string `json:"image"`
}

type jsCRR struct {
	Name       string   `json:"name"`
	PodName    string   `json:"podName"`
	Containers []string `json:"containers"`
}

type jsPatch struct {
	Phase         string `json:"phase"`
	ConditionType string `json:"conditionType"`
}

type jsOut struct {
	Handled        bool      `json:"handled"`
	NodeNotFound   bool      `json:"nodeNotFound"`
	VirtualKubelet bool      `json:"virtualKubelet"`
	InPlaceUpdate  []jsImage `json:"inPlaceUpdate"`
	CRR            *jsCRR    `json:"containerRecreateRequest"`
	Waiting        bool      `json:"waitingForContainerRecreateRequest"`
	StatusPatch    *jsPatch  `json:"statusPatch"`
	Phase          string    `json:"phase"`
}

func (o *jsOut) normalize() {
	if len(o.InPlaceUpdate) == 0 {
		o.InPlaceUpdate = nil
	}
}

// refJobSidecar runs one reference pass over in.
func refJobSidecar(t testing.TB, in jsInput) jsOut {
	t.Helper()
	pod := &corev1.Pod{}
	mustDecode(t, in.Pod, pod, "pod")
	if pod.Name == "" {
		t.Fatalf("the test needs a pod name")
	}
	if pod.Namespace == "" {
		pod.Namespace = "default"
	}
	pod.ResourceVersion = ""
	if pod.DeletionTimestamp != nil && len(pod.Finalizers) == 0 {
		pod.Finalizers = []string{"goref/keep"} // the fake client refuses a deleting object without one
	}
	handled := sidecarterminator.GorefIsInterestingPod(pod.DeepCopy())
	objs := []client.Object{pod.DeepCopy()}
	if present(in.Node) && pod.Spec.NodeName != "" {
		node := &corev1.Node{}
		mustDecode(t, in.Node, node, "node")
		node.Name = pod.Spec.NodeName
		node.ResourceVersion = ""
		objs = append(objs, node)
	}
	crrName := fmt.Sprintf("sidecar-termination-%v", pod.UID)
	if in.CRRExists {
		objs = append(objs, &appsv1beta1.ContainerRecreateRequest{ObjectMeta: metav1.ObjectMeta{Namespace: pod.Namespace, Name: crrName}})
	}
	crrFound, counting := 0, true // Gets of the CRR that found it during the pass
	var patches [][]byte
	funcs := interceptor.Funcs{
		Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
			err := c.Get(ctx, key, obj, opts...)
			if _, ok := obj.(*appsv1beta1.ContainerRecreateRequest); ok && counting && err == nil {
				crrFound++
			}
			return err
		},
		SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
			data, err := patch.Data(obj)
			if err != nil {
				t.Fatalf("patch data: %v", err)
			}
			patches = append(patches, data)
			return c.SubResource(sub).Patch(ctx, obj, patch, opts...)
		},
	}
	c := newFakeClient(t, objs, nil).WithInterceptorFuncs(funcs).Build()
	r := sidecarterminator.GorefNewReconciler(c, record.NewFakeRecorder(100))
	key := types.NamespacedName{Namespace: pod.Namespace, Name: pod.Name}
	_, err := r.Reconcile(context.TODO(), reconcile.Request{NamespacedName: key})
	counting = false
	out := jsOut{Handled: handled, Waiting: crrFound > 0}
	after := &corev1.Pod{}
	if gerr := c.Get(context.TODO(), key, after); gerr != nil {
		t.Fatalf("pod after the pass: %v", gerr)
	}
	out.Phase = string(after.Status.Phase)
	if err != nil {
		if !handled || (present(in.Node) && pod.Spec.NodeName != "") {
			t.Fatalf("the pass failed on a pod it handles with its node: %v\n%s", err, in.Pod)
		}
		out.NodeNotFound = true
		return out
	}
	if handled {
		vk, verr := sidecarterminator.IsPodRunningOnVirtualKubelet(pod, c)
		if verr != nil {
			t.Fatalf("IsPodRunningOnVirtualKubelet: %v", verr)
		}
		out.VirtualKubelet = vk
	}
	if len(after.Spec.Containers) != len(pod.Spec.Containers) {
		t.Fatalf("containers changed in number")
	}
	for i, c := range after.Spec.Containers {
		if c.Image != pod.Spec.Containers[i].Image {
			out.InPlaceUpdate = append(out.InPlaceUpdate, jsImage{c.Name, c.Image})
		}
	}
	if !in.CRRExists {
		crr := &appsv1beta1.ContainerRecreateRequest{}
		if c.Get(context.TODO(), types.NamespacedName{Namespace: pod.Namespace, Name: crrName}, crr) == nil {
			got := &jsCRR{Name: crr.Name, PodName: crr.Spec.PodName}
			for _, x := range crr.Spec.Containers {
				got.Containers = append(got.Containers, x.Name)
			}
			sort.Strings(got.Containers)
			out.CRR = got
		}
	}
	if len(patches) > 1 {
		t.Fatalf("%d status patches in one pass", len(patches))
	}
	if len(patches) == 1 {
		var p struct {
			Status struct {
				Phase      string `json:"phase"`
				Conditions []struct {
					Type string `json:"type"`
				} `json:"conditions"`
			} `json:"status"`
		}
		mustDecode(t, patches[0], &p, "status patch")
		if len(p.Status.Conditions) != 1 {
			t.Fatalf("status patch with %d conditions: %s", len(p.Status.Conditions), patches[0])
		}
		out.StatusPatch = &jsPatch{p.Status.Phase, p.Status.Conditions[0].Type}
	}
	out.normalize()
	return out
}

func compareJobSidecar(t *testing.T, r *tally, label string, raw []byte) jsOut {
	t.Helper()
	r.total++
	var in jsInput
	mustDecode(t, raw, &in, "input")
	want := refJobSidecar(t, in)
	got, kind, err := answer(fnJobSidecar, json.RawMessage(raw))
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	if kind != "" {
		r.fail("%s: kruise-core error %s, reference %+v\n%s", label, kind, want, raw)
		return want
	}
	var out jsOut
	mustDecode(t, got, &out, "output")
	out.normalize()
	if !reflect.DeepEqual(out, want) {
		w, _ := json.Marshal(want)
		r.fail("%s: kruise-core %s, reference %s\n%s", label, got, w, raw)
		return want
	}
	r.agreeValue++
	return want
}

func TestJobSidecarVectors(t *testing.T) {
	cases := loadVectors(t, "jobsidecar", fnJobSidecar)
	var ref, diff tally
	for _, c := range cases {
		withVectorAnswer(c, func() { compareJobSidecar(t, &ref, "reference vs vector "+c.Name, c.Input) })
	}
	ref.report(t, "jobsidecar vectors: reference vs vector")
	requireFn(t, fnJobSidecar, json.RawMessage(cases[0].Input))
	for _, c := range cases {
		compareJobSidecar(t, &diff, c.Name, c.Input)
	}
	diff.report(t, "jobsidecar vectors: reference vs kruise-core")
}

// genJobSidecar draws one input: a job pod of 1-5 containers from a small name pool (duplicates
// possible), the terminator envs with true/other values, the image env, statuses mostly one per
// container, the restart policies and phases, and the node and CRR present or not.
func genJobSidecar(rng *rand.Rand) []byte {
	pick := func(xs ...any) any { return xs[rng.IntN(len(xs))] }
	names := []string{"main", "main-2", "s1", "s2", "s3"}
	n := 1 + rng.IntN(5)
	var containers []any
	var statuses []any
	for i := 0; i < n; i++ {
		name := names[i]
		if rng.IntN(12) == 0 {
			name = names[rng.IntN(len(names))]
		}
		image := pick("app:1", "sidecar:1", "exit:1", "").(string)
		var env []any
		if i > 0 || rng.IntN(4) == 0 {
			for _, e := range []string{"KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT", "KRUISE_TERMINATE_SIDECAR_IGNORE_EXIT_CODE", "KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT_WITH_IMAGE"} {
				if rng.IntN(3) == 0 {
					continue
				}
				v := pick("true", "true", "TRUE", "True", "false", "yes", "", "exit:1", image)
				env = append(env, map[string]any{"name": e, "value": v})
				if rng.IntN(10) == 0 {
					env = append(env, map[string]any{"name": e, "value": pick("true", "", "exit:2")})
				}
			}
			if rng.IntN(10) == 0 {
				env = append(env, nil)
			}
		}
		c := map[string]any{"name": name, "image": image}
		if env != nil || rng.IntN(2) == 0 {
			c["env"] = env
		}
		containers = append(containers, c)
		if rng.IntN(40) == 0 {
			continue // a missing status
		}
		// main containers (no env) mostly terminated, sidecars mostly not, so that most pods are
		// handled and reach the later steps.
		k := rng.IntN(6)
		if env == nil && rng.IntN(3) > 0 {
			k = 3
		} else if env != nil && rng.IntN(2) == 0 {
			k = rng.IntN(3)
		}
		var state any
		switch k {
		case 0:
			state = map[string]any{"running": map[string]any{"startedAt": "2024-01-01T00:00:00Z"}}
		case 1:
			state = map[string]any{"waiting": map[string]any{"reason": "ContainerCreating"}}
		case 2:
			state = pick(map[string]any{}, nil)
		default:
			state = map[string]any{"terminated": map[string]any{"exitCode": pick(0, 0, 0, 1, 137, -1)}}
		}
		sname := name
		if rng.IntN(20) == 0 {
			sname = names[rng.IntN(len(names))]
		}
		statuses = append(statuses, map[string]any{"name": sname, "state": state})
	}
	if rng.IntN(40) == 0 {
		statuses = append(statuses, map[string]any{"name": "extra", "state": map[string]any{}})
	}
	meta := map[string]any{"name": "job-pod", "namespace": "jobs", "uid": pick("u-1", "87076677", "")}
	if rng.IntN(25) == 0 {
		meta["deletionTimestamp"] = "2024-01-01T00:00:00Z"
	}
	spec := map[string]any{"containers": containers, "restartPolicy": pick("Never", "Never", "Never", "OnFailure", "OnFailure", "OnFailure", "Always", "", "Other")}
	if rng.IntN(12) != 0 {
		spec["nodeName"] = "node-1"
	}
	pod := map[string]any{"metadata": meta, "spec": spec,
		"status": map[string]any{"phase": pick("Running", "Running", "Running", "Running", "Running", "Pending", "Succeeded", "Failed", "", "Unknown"), "containerStatuses": statuses}}
	in := map[string]any{"pod": pod}
	switch rng.IntN(8) {
	case 0:
	case 1, 2, 3:
		in["node"] = map[string]any{"metadata": map[string]any{"name": "node-1", "labels": map[string]any{"type": "virtual-kubelet"}}}
	default:
		in["node"] = map[string]any{"metadata": map[string]any{"name": "node-1", "labels": pick(nil, map[string]any{"type": "other"})}}
	}
	if rng.IntN(4) == 0 {
		in["containerRecreateRequestExists"] = true
	}
	raw, _ := json.Marshal(in)
	return raw
}

func TestJobSidecarRandom(t *testing.T) {
	requireFn(t, fnJobSidecar, map[string]any{"pod": map[string]any{}})
	rng := rand.New(rand.NewPCG(14, 5))
	var r tally
	seen := map[string]int{}
	for i := 0; i < randomCount(4000); i++ {
		raw := genJobSidecar(rng)
		o := compareJobSidecar(t, &r, fmt.Sprintf("random #%d", i), raw)
		mark := func(ok bool, what string) {
			if ok {
				seen[what]++
			}
		}
		mark(!o.Handled, "not handled")
		mark(o.Handled, "handled")
		mark(o.NodeNotFound, "node not found")
		mark(o.VirtualKubelet, "virtual kubelet")
		mark(len(o.InPlaceUpdate) > 0, "in-place update")
		mark(o.CRR != nil, "crr")
		mark(o.CRR != nil && len(o.CRR.Containers) > 1, "crr of several")
		mark(o.Waiting, "waiting")
		mark(o.StatusPatch != nil && o.StatusPatch.Phase == "Succeeded", "patch succeeded")
		mark(o.StatusPatch != nil && o.StatusPatch.Phase == "Failed", "patch failed")
		mark(o.StatusPatch != nil && o.CRR != nil, "patch and crr")
	}
	t.Logf("jobsidecar outcomes: %v", seen)
	for _, want := range []string{"not handled", "handled", "node not found", "virtual kubelet", "in-place update", "crr", "crr of several", "waiting", "patch succeeded", "patch failed", "patch and crr"} {
		if seen[want] == 0 {
			t.Errorf("the generator never reached %q", want)
		}
	}
	r.report(t, "jobsidecar random")
}
