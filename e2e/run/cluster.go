package main

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"
)

const webhookUser = "kruise-core-webhook"

var crdResource = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// The CRDs installed from OpenKruise's config/crd/bases, and whether their conversion webhook is
// the example's /convert (every kind served as both v1alpha1 and v1beta1 in v1.9.0).
var kruiseCRDs = []struct {
	file    string
	convert bool
}{
	{"apps.kruise.io_sidecarsets.yaml", true},
	{"apps.kruise.io_daemonsets.yaml", true},
	{"apps.kruise.io_broadcastjobs.yaml", true},
	{"apps.kruise.io_advancedcronjobs.yaml", true},
	{"apps.kruise.io_imagepulljobs.yaml", true},
	{"apps.kruise.io_imagelistpulljobs.yaml", true},
	{"apps.kruise.io_nodeimages.yaml", true},
	{"apps.kruise.io_statefulsets.yaml", true},
	{"policy.kruise.io_podunavailablebudgets.yaml", false},
}

// The pod webhook configuration's namespaceSelector: the Helm chart's for mpod.kb.io, which is
// also what kruisecore.SidecarsetMatch assumes when given none; passed to the example explicitly.
const podWebhookNamespaceSelectorJSON = `{"matchExpressions":[` +
	`{"key":"control-plane","operator":"NotIn","values":["openkruise"]},` +
	`{"key":"kubernetes.io/metadata.name","operator":"NotIn","values":["kube-system"]}]}`

// grantWebhook gives the webhook's user what the example reads and writes, and nothing else.
func (e *env) grantWebhook(ctx context.Context) error {
	role := &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: webhookUser},
		Rules: []rbacv1.PolicyRule{
			{APIGroups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"get", "list"}},
			{APIGroups: []string{""}, Resources: []string{"namespaces"}, Verbs: []string{"get"}},
			{APIGroups: []string{"policy.kruise.io"}, Resources: []string{"podunavailablebudgets"}, Verbs: []string{"get", "list"}},
			{APIGroups: []string{"policy.kruise.io"}, Resources: []string{"podunavailablebudgets/status"}, Verbs: []string{"update"}},
			{APIGroups: []string{"apps.kruise.io"}, Resources: []string{"sidecarsets"}, Verbs: []string{"list"}},
		},
	}
	if _, err := e.kube.RbacV1().ClusterRoles().Create(ctx, role, metav1.CreateOptions{}); err != nil {
		return err
	}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: webhookUser},
		RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: webhookUser},
		Subjects:   []rbacv1.Subject{{APIGroup: "rbac.authorization.k8s.io", Kind: "User", Name: webhookUser}},
	}
	_, err := e.kube.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{})
	return err
}

// webhookConversion is the CRD conversion stanza pointing at the example's /convert.
func (e *env) webhookConversion() map[string]any {
	return map[string]any{
		"strategy": "Webhook",
		"webhook": map[string]any{
			"clientConfig": map[string]any{
				"url":      e.hookURL + "/convert",
				"caBundle": base64.StdEncoding.EncodeToString(e.ca.certPEM),
			},
			"conversionReviewVersions": []any{"v1"},
		},
	}
}

// installCRDs creates OpenKruise's CRDs (conversion pointed at the example) and a CRD of the
// apps.kruise.io group that v1.9.0 has no conversion for (Widget), then waits until all are
// established.
func (e *env) installCRDs(ctx context.Context) error {
	var names []string
	for _, c := range kruiseCRDs {
		b, err := os.ReadFile(filepath.Join(e.opts.crds, c.file))
		if err != nil {
			return err
		}
		var obj map[string]any
		if err := yaml.Unmarshal(b, &obj); err != nil {
			return fmt.Errorf("%s: %w", c.file, err)
		}
		u := &unstructured.Unstructured{Object: obj}
		if c.convert {
			if err := unstructured.SetNestedField(u.Object, e.webhookConversion(), "spec", "conversion"); err != nil {
				return err
			}
		}
		if _, err := e.dyn.Resource(crdResource).Create(ctx, u, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("%s: %w", c.file, err)
		}
		names = append(names, u.GetName())
	}
	widget := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "widgets.apps.kruise.io"},
		"spec": map[string]any{
			"group": "apps.kruise.io", "scope": "Namespaced",
			"names":      map[string]any{"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
			"conversion": e.webhookConversion(),
			"versions": []any{
				widgetVersion("v1alpha1", true), widgetVersion("v1beta1", false),
			},
		},
	}}
	if _, err := e.dyn.Resource(crdResource).Create(ctx, widget, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("widgets CRD: %w", err)
	}
	names = append(names, widget.GetName())
	return poll(ctx, 60*time.Second, func() error {
		for _, n := range names {
			crd, err := e.dyn.Resource(crdResource).Get(ctx, n, metav1.GetOptions{})
			if err != nil {
				return err
			}
			conds, _, _ := unstructured.NestedSlice(crd.Object, "status", "conditions")
			established := false
			for _, c := range conds {
				m, _ := c.(map[string]any)
				if m["type"] == "Established" && m["status"] == "True" {
					established = true
				}
			}
			if !established {
				return fmt.Errorf("CRD %s not established", n)
			}
		}
		return nil
	})
}

func widgetVersion(name string, storage bool) map[string]any {
	return map[string]any{
		"name": name, "served": true, "storage": storage,
		"schema": map[string]any{"openAPIV3Schema": map[string]any{
			"type": "object", "x-kubernetes-preserve-unknown-fields": true,
		}},
	}
}

// installWebhooks registers OpenKruise's pod webhooks at the example: vpod.kb.io (pods UPDATE,
// DELETE and pods/resize), vpodeviction.kb.io (pods/eviction CREATE) and mpod.kb.io (pods CREATE).
func (e *env) installWebhooks(ctx context.Context) error {
	fail := admissionregistrationv1.Fail
	none := admissionregistrationv1.SideEffectClassNone
	timeout := int32(10)
	var sel metav1.LabelSelector
	if err := yaml.Unmarshal([]byte(podWebhookNamespaceSelectorJSON), &sel); err != nil {
		return err
	}
	client := func(path string) admissionregistrationv1.WebhookClientConfig {
		url := e.hookURL + path
		return admissionregistrationv1.WebhookClientConfig{URL: &url, CABundle: e.ca.certPEM}
	}
	rule := func(op []admissionregistrationv1.OperationType, resources ...string) admissionregistrationv1.RuleWithOperations {
		return admissionregistrationv1.RuleWithOperations{Operations: op, Rule: admissionregistrationv1.Rule{
			APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: resources}}
	}
	validating := &admissionregistrationv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: "kruise-core-e2e"},
		Webhooks: []admissionregistrationv1.ValidatingWebhook{
			{
				Name: "vpod.kb.io", ClientConfig: client("/validate-pod"), FailurePolicy: &fail, SideEffects: &none,
				AdmissionReviewVersions: []string{"v1"}, TimeoutSeconds: &timeout, NamespaceSelector: &sel,
				Rules: []admissionregistrationv1.RuleWithOperations{
					rule([]admissionregistrationv1.OperationType{admissionregistrationv1.Update, admissionregistrationv1.Delete}, "pods"),
					rule([]admissionregistrationv1.OperationType{admissionregistrationv1.Update}, "pods/resize"),
				},
			},
			{
				Name: "vpodeviction.kb.io", ClientConfig: client("/validate-pod"), FailurePolicy: &fail, SideEffects: &none,
				AdmissionReviewVersions: []string{"v1"}, TimeoutSeconds: &timeout, NamespaceSelector: &sel,
				Rules: []admissionregistrationv1.RuleWithOperations{
					rule([]admissionregistrationv1.OperationType{admissionregistrationv1.Create}, "pods/eviction"),
				},
			},
		},
	}
	if _, err := e.kube.AdmissionregistrationV1().ValidatingWebhookConfigurations().Create(ctx, validating, metav1.CreateOptions{}); err != nil {
		return err
	}
	mutating := &admissionregistrationv1.MutatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: "kruise-core-e2e"},
		Webhooks: []admissionregistrationv1.MutatingWebhook{{
			Name: "mpod.kb.io", ClientConfig: client("/mutate-pod"), FailurePolicy: &fail, SideEffects: &none,
			AdmissionReviewVersions: []string{"v1"}, TimeoutSeconds: &timeout, NamespaceSelector: &sel,
			Rules: []admissionregistrationv1.RuleWithOperations{
				rule([]admissionregistrationv1.OperationType{admissionregistrationv1.Create}, "pods"),
			},
		}},
	}
	_, err := e.kube.AdmissionregistrationV1().MutatingWebhookConfigurations().Create(ctx, mutating, metav1.CreateOptions{})
	return err
}

// namespace creates a namespace and its default service account (no controller-manager runs).
func (e *env) namespace(ctx context.Context, name string, labels map[string]string) error {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}}
	if _, err := e.kube.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil {
		return err
	}
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: name}}
	_, err := e.kube.CoreV1().ServiceAccounts(name).Create(ctx, sa, metav1.CreateOptions{})
	return err
}

// markReady writes what a kubelet would: phase Running and the Ready conditions.
func (e *env) markReady(ctx context.Context, pod *corev1.Pod) (*corev1.Pod, error) {
	now := metav1.Now()
	pod = pod.DeepCopy()
	pod.Status.Phase = corev1.PodRunning
	pod.Status.Conditions = []corev1.PodCondition{
		{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: now},
		{Type: corev1.PodInitialized, Status: corev1.ConditionTrue, LastTransitionTime: now},
		{Type: corev1.ContainersReady, Status: corev1.ConditionTrue, LastTransitionTime: now},
		{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: now},
	}
	return e.kube.CoreV1().Pods(pod.Namespace).UpdateStatus(ctx, pod, metav1.UpdateOptions{})
}

// poll runs f every 250 ms until it returns nil, for at most limit (its last error otherwise).
func poll(ctx context.Context, limit time.Duration, f func() error) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	for {
		err := f()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("after %s: %w", limit, err)
		case <-time.After(250 * time.Millisecond):
		}
	}
}
