package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"time"

	kruisecore "github.com/kruise-core/kruise-core/bindings/go"
	admissionv1 "k8s.io/api/admission/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

var sidecarSetResource = schema.GroupVersionResource{Group: "apps.kruise.io", Version: "v1beta1", Resource: "sidecarsets"}

// sidecarContainer is a SidecarSet container (apps.kruise.io/v1beta1 SidecarContainer): the core
// Container plus the Kruise members this example reads.
type sidecarContainer struct {
	corev1.Container `json:",inline"`
	PodInjectPolicy  string                                `json:"podInjectPolicy,omitempty"`
	UpgradeStrategy  *kruisecore.ApiSidecarUpgradeStrategy `json:"upgradeStrategy,omitempty"`
	ResourcesPolicy  *kruisecore.ResourcesResourcesPolicy  `json:"resourcesPolicy,omitempty"`
}

type sidecarSetSpec struct {
	Containers     []sidecarContainer `json:"containers"`
	InitContainers []sidecarContainer `json:"initContainers"`
}

// mutatePod answers the pod CREATE AdmissionReview of the SidecarSet mutating webhook (OpenKruise
// pkg/webhook/pod/mutating/sidecarset.go). Which SidecarSets apply is kruisecore.SidecarsetMatch,
// each sidecar's resources under a resourcesPolicy are kruisecore.ResourcesSidecar, and where the
// sidecars go is kruisecore.ApiSidecarOrder. The rest of OpenKruise's injection (volumes, env
// transfer, hot upgrade, the sidecarset hash annotations) is not in this example: sidecars are
// added as the SidecarSet declares them, which is the place to grow it into full injection.
func (s *server) mutatePod(w http.ResponseWriter, r *http.Request) {
	body, ok := readBody(w, r)
	if !ok {
		return
	}
	var review admissionv1.AdmissionReview
	if err := json.Unmarshal(body, &review); err != nil {
		writeJSON(w, http.StatusBadRequest, deny("", http.StatusBadRequest, "reading the AdmissionReview: "+err.Error()))
		return
	}
	if review.APIVersion != "admission.k8s.io/v1" || review.Kind != "AdmissionReview" || review.Request == nil || review.Request.UID == "" {
		writeJSON(w, http.StatusBadRequest, deny("", http.StatusBadRequest,
			fmt.Sprintf("want an admission.k8s.io/v1 AdmissionReview with a request and a uid, got %q %q", review.APIVersion, review.Kind)))
		return
	}
	req := review.Request
	if req.Operation != admissionv1.Create || req.SubResource != "" || req.Kind.Group != "" || req.Kind.Kind != "Pod" {
		writeJSON(w, http.StatusOK, allow(req.UID, nil))
		return
	}
	var pod corev1.Pod
	if err := json.Unmarshal(req.Object.Raw, &pod); err != nil {
		writeJSON(w, http.StatusOK, deny(req.UID, http.StatusBadRequest, "request.object: "+err.Error()))
		return
	}
	if pod.Namespace == "" {
		pod.Namespace = req.Namespace
	}
	ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
	defer cancel()
	patch, err := s.sidecarPatch(ctx, &pod)
	if err != nil {
		writeJSON(w, http.StatusOK, deny(req.UID, http.StatusInternalServerError, err.Error()))
		return
	}
	log.Printf("mutate-pod %s/%s: %d patch operations", pod.Namespace, pod.Name, len(patch))
	writeJSON(w, http.StatusOK, allow(req.UID, patch))
}

// sidecarPatch is the JSON patch that adds the matched SidecarSets' sidecars to the pod (nil: none).
func (s *server) sidecarPatch(ctx context.Context, pod *corev1.Pod) ([]map[string]any, error) {
	matched, err := s.matchedSidecarSets(ctx, pod)
	if err != nil || len(matched) == 0 {
		return nil, err
	}
	// Every sidecar name of every matched SidecarSet: never a target of a resourcesPolicy.
	var names []string
	for _, spec := range matched {
		for _, c := range append(append([]sidecarContainer{}, spec.InitContainers...), spec.Containers...) {
			names = append(names, c.Name)
		}
	}
	var podContainers kruisecore.ResourcesPodContainers
	if err := convertJSON(pod.Spec, &podContainers); err != nil {
		return nil, err
	}
	byName := map[string]corev1.Container{}
	for _, c := range append(append([]corev1.Container{}, pod.Spec.InitContainers...), pod.Spec.Containers...) {
		byName[c.Name] = c
	}
	var order kruisecore.ApiSidecarOrderInput
	var sidecars, initSidecars []kruisecore.ApiSidecarContainer
	for _, spec := range matched {
		for i, list := range [][]sidecarContainer{spec.InitContainers, spec.Containers} {
			for _, sc := range list {
				if _, exists := byName[sc.Name]; exists {
					continue // already in the pod
				}
				c, err := withResources(sc, podContainers, names)
				if err != nil {
					return nil, err
				}
				byName[sc.Name] = c
				placed := kruisecore.ApiSidecarContainer{Name: &sc.Name, PodInjectPolicy: &sc.PodInjectPolicy,
					UpgradeStrategy: sc.UpgradeStrategy}
				if c.RestartPolicy != nil {
					rp := string(*c.RestartPolicy)
					placed.RestartPolicy = &rp
				}
				if i == 0 {
					initSidecars = append(initSidecars, placed)
				} else {
					sidecars = append(sidecars, placed)
				}
			}
		}
	}
	if len(sidecars)+len(initSidecars) == 0 {
		return nil, nil
	}
	order.PodContainers, order.PodInitContainers = containerNames(pod.Spec.Containers), containerNames(pod.Spec.InitContainers)
	order.SidecarContainers, order.SidecarInitContainers = &sidecars, &initSidecars
	placed, err := kruisecore.ApiSidecarOrder(order)
	if err != nil {
		return nil, err
	}
	containers, err := pick(byName, placed.Containers)
	if err != nil {
		return nil, err
	}
	inits, err := pick(byName, placed.InitContainers)
	if err != nil {
		return nil, err
	}
	patch := []map[string]any{{"op": "add", "path": "/spec/containers", "value": containers}}
	if len(inits) > 0 {
		patch = append(patch, map[string]any{"op": "add", "path": "/spec/initContainers", "value": inits})
	}
	return patch, nil
}

// matchedSidecarSets lists the SidecarSets and keeps those kruisecore.SidecarsetMatch applies to the pod.
func (s *server) matchedSidecarSets(ctx context.Context, pod *corev1.Pod) ([]sidecarSetSpec, error) {
	var namespace *kruisecore.SidecarsetNamespace
	ns, err := s.kube.CoreV1().Namespaces().Get(ctx, pod.Namespace, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
	case err != nil:
		return nil, fmt.Errorf("reading namespace %s: %w", pod.Namespace, err)
	default:
		namespace = &kruisecore.SidecarsetNamespace{}
		if err := convertJSON(ns, namespace); err != nil {
			return nil, err
		}
	}
	var matchPod kruisecore.SidecarsetPod
	if err := convertJSON(pod, &matchPod); err != nil {
		return nil, err
	}
	list, err := s.dyn.Resource(sidecarSetResource).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, fmt.Errorf("listing SidecarSets: %w", err)
	}
	var matched []sidecarSetSpec
	for _, item := range list.Items {
		var set kruisecore.SidecarsetSidecarSetObject
		if err := convertJSON(item.Object, &set); err != nil {
			return nil, err
		}
		out, err := kruisecore.SidecarsetMatch(kruisecore.SidecarsetMatchInput{
			Namespace: namespace, Pod: matchPod, SidecarSet: set, WebhookNamespaceSelector: s.podWebhookNamespaceSelector,
		})
		if err != nil {
			return nil, fmt.Errorf("SidecarSet %s: %w", item.GetName(), err)
		}
		if !out.Matched {
			continue
		}
		var spec sidecarSetSpec
		if err := convertJSON(item.Object["spec"], &spec); err != nil {
			return nil, fmt.Errorf("SidecarSet %s: %w", item.GetName(), err)
		}
		matched = append(matched, spec)
	}
	return matched, nil
}

// withResources is the sidecar as injected: the SidecarSet's container, with the resources
// kruisecore.ResourcesSidecar computes from the pod's containers when it has a resourcesPolicy.
func withResources(sc sidecarContainer, pod kruisecore.ResourcesPodContainers, sidecarNames []string) (corev1.Container, error) {
	c := *sc.Container.DeepCopy()
	if sc.ResourcesPolicy == nil {
		return c, nil
	}
	out, err := kruisecore.ResourcesSidecar(kruisecore.ResourcesSidecarInput{
		Pod: pod, ResourcesPolicy: sc.ResourcesPolicy, SidecarContainerNames: &sidecarNames,
	})
	if err != nil {
		return c, fmt.Errorf("sidecar %s resourcesPolicy: %w", sc.Name, err)
	}
	if out == nil {
		return c, nil
	}
	limits, err := resourceList(out.Limits)
	if err != nil {
		return c, err
	}
	requests, err := resourceList(out.Requests)
	if err != nil {
		return c, err
	}
	c.Resources.Limits, c.Resources.Requests = limits, requests
	return c, nil
}

func resourceList(l kruisecore.ResourcesResourceList) (corev1.ResourceList, error) {
	out := corev1.ResourceList{}
	for name, q := range map[corev1.ResourceName]*string{corev1.ResourceCPU: l.Cpu, corev1.ResourceMemory: l.Memory} {
		if q == nil {
			continue
		}
		v, err := resource.ParseQuantity(*q)
		if err != nil {
			return nil, fmt.Errorf("quantity %q: %w", *q, err)
		}
		out[name] = v
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

func containerNames(cs []corev1.Container) *[]string {
	names := make([]string, 0, len(cs))
	for _, c := range cs {
		names = append(names, c.Name)
	}
	return &names
}

func pick(byName map[string]corev1.Container, names []string) ([]corev1.Container, error) {
	out := make([]corev1.Container, 0, len(names))
	for _, n := range names {
		c, ok := byName[n]
		if !ok {
			// HotUpgrade's <name>-1/<name>-2 pair is part of full injection, not of this example.
			return nil, fmt.Errorf("sidecar container %q: hot upgrade is not supported by this example", n)
		}
		out = append(out, c)
	}
	return out, nil
}

// allow is an allowing AdmissionReview, with a JSON patch when patch is non-empty.
func allow(uid types.UID, patch []map[string]any) admissionv1.AdmissionReview {
	resp := &admissionv1.AdmissionResponse{UID: uid, Allowed: true, Result: &metav1.Status{Code: http.StatusOK}}
	if len(patch) > 0 {
		b, _ := json.Marshal(patch)
		pt := admissionv1.PatchTypeJSONPatch
		resp.Patch, resp.PatchType = b, &pt
	}
	return admissionv1.AdmissionReview{TypeMeta: metav1.TypeMeta{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview"}, Response: resp}
}
