package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	kruisecore "github.com/kruise-core/kruise-core/bindings/go"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

var pubResource = schema.GroupVersionResource{Group: "policy.kruise.io", Version: "v1alpha1", Resource: "podunavailablebudgets"}

// The reference's denial: pkg/control/pubcontrol/pub_control_utils.go PodUnavailableBudgetValidatePod
// (errors.NewForbidden on the podunavailablebudget resource).
func pubDenial(pub string) string {
	return fmt.Sprintf(`podunavailablebudget.policy.kruise.io %q is forbidden: pub unavailable allowed is negative`, pub)
}

// createPub creates a selector PUB with maxUnavailable 1 and the protect-total-replicas
// annotation (no workload owns these pods, so the expected count is given).
func (e *env) createPub(ctx context.Context, ns, name, app string, total int, extra map[string]any) error {
	ann := map[string]any{"pub.kruise.io/protect-total-replicas": fmt.Sprint(total)}
	for k, v := range extra {
		ann[k] = v
	}
	pub := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "policy.kruise.io/v1alpha1", "kind": "PodUnavailableBudget",
		"metadata": map[string]any{"name": name, "namespace": ns, "annotations": ann},
		"spec": map[string]any{
			"selector":       map[string]any{"matchLabels": map[string]any{"app": app}},
			"maxUnavailable": int64(1),
		},
	}}
	_, err := e.dyn.Resource(pubResource).Namespace(ns).Create(ctx, pub, metav1.CreateOptions{})
	return err
}

// readyPod creates a pod the PUB named protects and marks it Running and Ready.
func (e *env) readyPod(ctx context.Context, ns, name, app, pub string) (*corev1.Pod, error) {
	no := false
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{"app": app},
			// set by OpenKruise's PUB mutating webhook, which this example does not include
			Annotations: map[string]string{"kruise.io/related-pub": pub}},
		Spec: corev1.PodSpec{AutomountServiceAccountToken: &no, Containers: []corev1.Container{{
			Name: "main", Image: "registry.k8s.io/pause:3.10",
			Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("64Mi")},
				Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("128Mi")},
			},
		}}},
	}
	created, err := e.kube.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{})
	if err != nil {
		return nil, fmt.Errorf("creating pod %s: %w", name, err)
	}
	return e.markReady(ctx, created)
}

type pubStatus struct {
	TotalReplicas      int64                `json:"totalReplicas"`
	DesiredAvailable   int64                `json:"desiredAvailable"`
	CurrentAvailable   int64                `json:"currentAvailable"`
	UnavailableAllowed int64                `json:"unavailableAllowed"`
	DisruptedPods      map[string]time.Time `json:"disruptedPods"`
	UnavailablePods    map[string]time.Time `json:"unavailablePods"`
}

// recorded names the status maps that hold pod ("" when none, "disruptedPods", "unavailablePods" or both).
func (s pubStatus) recorded(pod string) string {
	var in []string
	if _, ok := s.DisruptedPods[pod]; ok {
		in = append(in, "disruptedPods")
	}
	if _, ok := s.UnavailablePods[pod]; ok {
		in = append(in, "unavailablePods")
	}
	return strings.Join(in, ",")
}

func (e *env) pubStatus(ctx context.Context, ns, name string) (pubStatus, error) {
	var s pubStatus
	obj, err := e.dyn.Resource(pubResource).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return s, err
	}
	st, found, _ := unstructured.NestedMap(obj.Object, "status")
	if !found {
		return s, fmt.Errorf("PUB %s has no status yet", name)
	}
	return s, convertJSON(st, &s)
}

// waitBudget waits until the example's status loop reports the budget.
func (e *env) waitBudget(ctx context.Context, ns, name string, current, allowed int64) error {
	return poll(ctx, 30*time.Second, func() error {
		s, err := e.pubStatus(ctx, ns, name)
		if err != nil {
			return err
		}
		if s.CurrentAvailable != current || s.UnavailableAllowed != allowed {
			return fmt.Errorf("PUB %s: currentAvailable %d unavailableAllowed %d, want %d and %d",
				name, s.CurrentAvailable, s.UnavailableAllowed, current, allowed)
		}
		return nil
	})
}

func (e *env) evict(ctx context.Context, ns, name string) error {
	return e.kube.PolicyV1().Evictions(ns).Evict(ctx, &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}})
}

// denied: err is the API server passing on the webhook's denial with the reference's message.
func denied(err error, pub string) error {
	if err == nil {
		return fmt.Errorf("allowed, want denied")
	}
	if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), pubDenial(pub)) {
		return fmt.Errorf("want 403 with %q, got %v", pubDenial(pub), err)
	}
	return nil
}

func (e *env) podGone(ctx context.Context, ns, name string) error {
	_, err := e.kube.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	return fmt.Errorf("pod %s still there (%v)", name, err)
}

func (e *env) podThere(ctx context.Context, ns, name string) error {
	_, err := e.kube.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
	return err
}

// checkPubEviction: 3 ready pods, a PUB with maxUnavailable 1, evictions through the eviction API.
func checkPubEviction(ctx context.Context, e *env, r *report) error {
	const ns, pub, app = "e2e-pub", "e2e-pub", "pub-demo"
	if err := e.namespace(ctx, ns, nil); err != nil {
		return err
	}
	if err := e.createPub(ctx, ns, pub, app, 3, nil); err != nil {
		return fmt.Errorf("creating the PUB: %w", err)
	}
	for i := 0; i < 3; i++ {
		if _, err := e.readyPod(ctx, ns, fmt.Sprintf("web-%d", i), app, pub); err != nil {
			return err
		}
	}
	if !r.check("pub: status from pub.status: 3 available, unavailableAllowed 1", e.waitBudget(ctx, ns, pub, 3, 1)) {
		return nil
	}
	err := e.evict(ctx, ns, "web-0")
	if err == nil {
		err = e.podGone(ctx, ns, "web-0")
	}
	r.check("pub: first eviction (web-0) allowed, the pod is gone", err)
	s, err := e.pubStatus(ctx, ns, pub)
	if err == nil {
		err = expectEqual("unavailableAllowed", s.UnavailableAllowed, int64(0))
	}
	r.check("pub: the webhook wrote the decremented budget (unavailableAllowed 0)", err)
	err = denied(e.evict(ctx, ns, "web-1"), pub)
	if err == nil {
		err = e.podThere(ctx, ns, "web-1")
	}
	r.check("pub: second eviction (web-1) denied with the reference's message, the pod stays", err)

	if _, err := e.readyPod(ctx, ns, "web-3", app, pub); err != nil {
		return err
	}
	if !r.check("pub: replacement web-3 ready: the status loop gives the budget back (3 available, unavailableAllowed 1)",
		e.waitBudget(ctx, ns, pub, 3, 1)) {
		return nil
	}
	err = e.evict(ctx, ns, "web-1")
	if err == nil {
		err = e.podGone(ctx, ns, "web-1")
	}
	r.check("pub: eviction of web-1 allowed again", err)
	err = denied(e.kube.CoreV1().Pods(ns).Delete(ctx, "web-2", metav1.DeleteOptions{}), pub)
	if err == nil {
		err = e.podThere(ctx, ns, "web-2")
	}
	r.check("pub: DELETE of web-2 with the budget spent denied with the reference's message", err)

	// An image change is an UPDATE (protected by default, PodUnavailableBudgetUpdateGate on).
	old, err := e.kube.CoreV1().Pods(ns).Get(ctx, "web-2", metav1.GetOptions{})
	if err != nil {
		return err
	}
	changed := old.DeepCopy()
	changed.Spec.Containers[0].Image = "registry.k8s.io/pause:3.9"
	class, err := kruisecore.PubClassifyUpdate(kruisecore.PubClassifyUpdateInput{OldPod: pubPod(old), NewPod: pubPod(changed)})
	if err == nil {
		err = expectOperation(class, "UPDATE")
	}
	if err == nil {
		_, err = e.kube.CoreV1().Pods(ns).Update(ctx, changed, metav1.UpdateOptions{})
		err = denied(err, pub)
	}
	r.check("pub: an image change of web-2 (pub.classify_update: UPDATE) with the budget spent denied with the reference's message", err)
	return nil
}

func expectOperation(class kruisecore.PubClassifyUpdateOutput, want string) error {
	if class.Operation == nil {
		return fmt.Errorf("operation None, want %s", want)
	}
	return expectEqual("operation", string(*class.Operation), want)
}

// resize patches the pod's first container's cpu request through the pods/resize subresource.
func (e *env) resize(ctx context.Context, ns, name, cpu string) (*corev1.Pod, error) {
	patch := fmt.Sprintf(`{"spec":{"containers":[{"name":"main","resources":{"requests":{"cpu":%q}}}]}}`, cpu)
	return e.kube.CoreV1().Pods(ns).Patch(ctx, name, types.StrategicMergePatchType, []byte(patch), metav1.PatchOptions{}, "resize")
}

// checkPubResize: a resize-only update is RESIZE, protected only when the PUB's
// kruise.io/pub-protect-operations names it.
func checkPubResize(ctx context.Context, e *env, r *report) error {
	const ns, pub, app = "e2e-resize", "e2e-resize-pub", "resize-demo"
	if err := e.namespace(ctx, ns, nil); err != nil {
		return err
	}
	if err := e.createPub(ctx, ns, pub, app, 2, nil); err != nil {
		return fmt.Errorf("creating the PUB: %w", err)
	}
	var pods []*corev1.Pod
	for i := 0; i < 2; i++ {
		p, err := e.readyPod(ctx, ns, fmt.Sprintf("rz-%d", i), app, pub)
		if err != nil {
			return err
		}
		pods = append(pods, p)
	}
	if !r.check("resize: status: 2 available, unavailableAllowed 1", e.waitBudget(ctx, ns, pub, 2, 1)) {
		return nil
	}

	// Default protected operations (DELETE, UPDATE, EVICT): a resize passes without a record.
	resized, err := e.resize(ctx, ns, "rz-0", "150m")
	if !r.check("resize: rz-0 cpu request 100m -> 150m through pods/resize allowed", err) {
		return nil
	}
	class, err := kruisecore.PubClassifyUpdate(kruisecore.PubClassifyUpdateInput{OldPod: pubPod(pods[0]), NewPod: pubPod(resized)})
	if err == nil {
		err = expectOperation(class, "RESIZE")
	}
	r.check("resize: pub.classify_update judges the stored change RESIZE", err)
	s, err := e.pubStatus(ctx, ns, pub)
	if err == nil && (s.UnavailableAllowed != 1 || s.recorded("rz-0") != "") {
		err = fmt.Errorf("budget spent or pod recorded: %+v", s)
	}
	r.check("resize: not protected by default: budget untouched, nothing recorded", err)

	// Now the PUB asks for RESIZE.
	ann := `{"metadata":{"annotations":{"kruise.io/pub-protect-operations":"DELETE,EVICT,UPDATE,RESIZE"}}}`
	if _, err := e.dyn.Resource(pubResource).Namespace(ns).Patch(ctx, pub, types.MergePatchType, []byte(ann), metav1.PatchOptions{}); err != nil {
		return fmt.Errorf("annotating the PUB: %w", err)
	}
	_, err = e.resize(ctx, ns, "rz-1", "150m")
	if err == nil {
		s, err = e.pubStatus(ctx, ns, pub)
	}
	if err == nil && (s.UnavailableAllowed != 0 || s.recorded("rz-1") != "disruptedPods") {
		err = fmt.Errorf("want unavailableAllowed 0 and rz-1 in disruptedPods only (a RESIZE record), got %+v", s)
	}
	r.check("resize: with RESIZE protected, rz-1's resize is admitted as RESIZE (budget spent, recorded in disruptedPods)", err)
	_, err = e.resize(ctx, ns, "rz-0", "200m")
	r.check("resize: with the budget spent, rz-0's next resize is denied with the reference's message", denied(err, pub))
	return nil
}

func pubPod(p *corev1.Pod) kruisecore.PubPod {
	var out kruisecore.PubPod
	_ = convertJSON(p, &out)
	return out
}

func convertJSON(from, to any) error {
	b, err := json.Marshal(from)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, to)
}
