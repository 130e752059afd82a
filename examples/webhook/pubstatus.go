package main

import (
	"context"
	"log"
	"time"

	kruisecore "github.com/kruise-core/kruise-core/bindings/go"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// pubStatusLoop recomputes every PUB's status from the pods its selector picks with
// kruisecore.PubStatus and writes it when the library says it changed (a minimal stand-in for
// OpenKruise's podunavailablebudget controller: selector PUBs only, no targetRef workloads).
func (s *server) pubStatusLoop(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := s.syncPubs(ctx); err != nil && ctx.Err() == nil {
			log.Printf("pub status: %v", err)
		}
	}
}

func (s *server) syncPubs(ctx context.Context) error {
	list, err := s.dyn.Resource(pubResource).Namespace(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
	if apierrors.IsNotFound(err) {
		return nil // the PodUnavailableBudget CRD is not installed (yet)
	}
	if err != nil {
		return err
	}
	for i := range list.Items {
		obj := &list.Items[i]
		var pub kruisecore.PubPub
		if err := convertJSON(obj.Object, &pub); err != nil {
			return err
		}
		sel, found, _ := unstructuredSelector(obj.Object)
		if !found {
			continue // targetRef PUBs need the workload; not in this example
		}
		selector, err := metav1.LabelSelectorAsSelector(sel)
		if err != nil {
			log.Printf("pub %s/%s: selector: %v", obj.GetNamespace(), obj.GetName(), err)
			continue
		}
		pods, err := s.kube.CoreV1().Pods(obj.GetNamespace()).List(ctx, metav1.ListOptions{LabelSelector: selector.String()})
		if err != nil {
			return err
		}
		var typed []kruisecore.PubPod
		if err := convertJSON(pods.Items, &typed); err != nil {
			return err
		}
		out, err := kruisecore.PubStatus(kruisecore.PubStatusInput{Now: now(), Pods: &typed, Pub: pub})
		if err != nil {
			log.Printf("pub %s/%s: %v", obj.GetNamespace(), obj.GetName(), err)
			continue
		}
		if !out.Changed {
			continue
		}
		status := kruisecore.PubPubStatusOutput{
			CurrentAvailable: out.CurrentAvailable, DesiredAvailable: out.DesiredAvailable,
			DisruptedPods: out.DisruptedPods, ObservedGeneration: out.ObservedGeneration,
			TotalReplicas: out.TotalReplicas, UnavailableAllowed: out.UnavailableAllowed,
			UnavailablePods: out.UnavailablePods,
		}
		if err := s.writePubStatus(ctx, obj, status); err != nil && !apierrors.IsConflict(err) {
			return err
		}
	}
	return nil
}

func unstructuredSelector(obj map[string]any) (*metav1.LabelSelector, bool, error) {
	spec, _ := obj["spec"].(map[string]any)
	raw, ok := spec["selector"]
	if !ok || raw == nil {
		return nil, false, nil
	}
	var sel metav1.LabelSelector
	if err := convertJSON(raw, &sel); err != nil {
		return nil, false, err
	}
	return &sel, true, nil
}
