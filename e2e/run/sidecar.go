package main

import (
	"context"
	"fmt"
	"reflect"
	"time"

	kruisecore "github.com/kruise-core/kruise-core/bindings/go"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

const sidecarNS = "e2e-sidecar"

// The case "sum mode with percentage - basic" of OpenKruise's
// pkg/webhook/pod/mutating/sidecarset_resources_test.go TestApplyResourcesPolicy: its policy,
// its two target containers and its expected sidecar resources.
var (
	sidecarPolicy = map[string]any{
		"targetContainersMode": "sum", "targetContainersNameRegex": ".*",
		"resourcesExpr": map[string]any{
			"limits":   map[string]any{"cpu": "cpu*50%", "memory": "200Mi"},
			"requests": map[string]any{"cpu": "cpu*50%", "memory": "100Mi"},
		},
	}
	sidecarTargets = []corev1.Container{
		appContainer("app1", "200m", "200Mi", "50m", "100Mi"),
		appContainer("app2", "400m", "400Mi", "100m", "200Mi"),
	}
	sidecarExpected = corev1.ResourceRequirements{
		Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("300m"), corev1.ResourceMemory: resource.MustParse("200Mi")},
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("75m"), corev1.ResourceMemory: resource.MustParse("100Mi")},
	}
)

func appContainer(name, cpuLimit, memLimit, cpuReq, memReq string) corev1.Container {
	return corev1.Container{Name: name, Image: "registry.k8s.io/pause:3.10", Resources: corev1.ResourceRequirements{
		Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpuLimit), corev1.ResourceMemory: resource.MustParse(memLimit)},
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpuReq), corev1.ResourceMemory: resource.MustParse(memReq)},
	}}
}

func sidecarPod(name string, labels map[string]string) *corev1.Pod {
	no := false
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: sidecarNS, Labels: labels},
		Spec: corev1.PodSpec{Containers: append([]corev1.Container{}, sidecarTargets...),
			AutomountServiceAccountToken: &no},
	}
}

// checkSidecarResources: a pod a SidecarSet with a resourcesPolicy selects is stored with the
// sidecar the example's /mutate-pod added, with the resources the library computes (and the
// reference's test expects); a pod it does not select is stored unchanged.
func checkSidecarResources(ctx context.Context, e *env, r *report) error {
	if err := e.namespace(ctx, sidecarNS, map[string]string{"team": "e2e"}); err != nil {
		return err
	}
	set := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": v1beta1, "kind": "SidecarSet",
		"metadata": map[string]any{"name": "e2e-resources"},
		"spec": map[string]any{
			"selector":          map[string]any{"matchLabels": map[string]any{"app": "sidecar-demo"}},
			"namespaceSelector": map[string]any{"matchLabels": map[string]any{"team": "e2e"}},
			"containers": []any{map[string]any{
				"name": "log-agent", "image": "busybox:1.36", "podInjectPolicy": "BeforeAppContainer",
				"resourcesPolicy": sidecarPolicy,
			}},
		},
	}}
	if _, err := e.dyn.Resource(gvr("v1beta1", "sidecarsets")).Create(ctx, set, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating the SidecarSet: %w", err)
	}

	// What the library computes for these targets.
	var podIn kruisecore.ResourcesPodContainers
	if err := convertJSON(corev1.PodSpec{Containers: sidecarTargets}, &podIn); err != nil {
		return err
	}
	var policy kruisecore.ResourcesResourcesPolicy
	if err := convertJSON(sidecarPolicy, &policy); err != nil {
		return err
	}
	names := []string{"log-agent"}
	lib, err := kruisecore.ResourcesSidecar(kruisecore.ResourcesSidecarInput{Pod: podIn, ResourcesPolicy: &policy, SidecarContainerNames: &names})
	if err != nil || lib == nil {
		return fmt.Errorf("resources.sidecar: %v (output %v)", err, lib)
	}
	var libResources corev1.ResourceRequirements
	if err := convertJSON(lib, &libResources); err != nil {
		return err
	}
	r.check("sidecar: resources.sidecar on the reference test's pod gives the reference test's answer",
		sameResources(libResources, sidecarExpected))

	// The API server calls /mutate-pod once its webhook configuration is loaded: wait for that
	// with server-side dry runs (nothing is stored).
	selected := sidecarPod("selected", map[string]string{"app": "sidecar-demo"})
	err = poll(ctx, 30*time.Second, func() error {
		p, err := e.kube.CoreV1().Pods(sidecarNS).Create(ctx, selected, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if err != nil {
			return err
		}
		if len(p.Spec.Containers) != 3 {
			return fmt.Errorf("dry run: %d containers, want 3", len(p.Spec.Containers))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("the pod mutating webhook never answered: %w", err)
	}
	stored, err := e.kube.CoreV1().Pods(sidecarNS).Create(ctx, selected, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("creating the selected pod: %w", err)
	}
	got := make([]string, 0, len(stored.Spec.Containers))
	for _, c := range stored.Spec.Containers {
		got = append(got, c.Name)
	}
	want := []string{"log-agent", "app1", "app2"}
	if !r.check("sidecar: the selected pod is stored with log-agent before the app containers (BeforeAppContainer)",
		expectEqual("containers", got, want)) {
		return nil
	}
	agent := stored.Spec.Containers[0]
	r.check("sidecar: the stored log-agent resources are what resources.sidecar computes", sameResources(agent.Resources, libResources))
	r.check("sidecar: ... and what the reference's test expects (limits 300m/200Mi, requests 75m/100Mi)", sameResources(agent.Resources, sidecarExpected))

	other, err := e.kube.CoreV1().Pods(sidecarNS).Create(ctx, sidecarPod("not-selected", map[string]string{"app": "other"}), metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("creating the other pod: %w", err)
	}
	r.check("sidecar: a pod the SidecarSet does not select is stored unchanged", expectEqual("containers", len(other.Spec.Containers), 2))
	return nil
}

func sameResources(got, want corev1.ResourceRequirements) error {
	eq := func(a, b corev1.ResourceList) bool {
		if len(a) != len(b) {
			return false
		}
		for k, v := range a {
			w, ok := b[k]
			if !ok || v.Cmp(w) != 0 {
				return false
			}
		}
		return true
	}
	if !eq(got.Limits, want.Limits) || !eq(got.Requests, want.Requests) {
		return fmt.Errorf("resources %v, want %v", fmtResources(got), fmtResources(want))
	}
	return nil
}

func fmtResources(r corev1.ResourceRequirements) string {
	f := func(l corev1.ResourceList) string {
		return fmt.Sprintf("cpu=%s memory=%s", l.Cpu(), l.Memory())
	}
	return fmt.Sprintf("{limits %s, requests %s}", f(r.Limits), f(r.Requests))
}

func expectEqual(what string, got, want any) error {
	if !reflect.DeepEqual(got, want) {
		return fmt.Errorf("%s: got %v, want %v", what, got, want)
	}
	return nil
}
