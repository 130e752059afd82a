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
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

var pubResource = schema.GroupVersionResource{Group: "policy.kruise.io", Version: "v1alpha1", Resource: "podunavailablebudgets"}

// relatedPubAnnotation names the PUB of a pod (OpenKruise's PUB mutating webhook sets it).
const relatedPubAnnotation = "kruise.io/related-pub"

// validatePod answers the pod AdmissionReview through kruisecore.PubAdmitReview. The program
// fetches what the decision needs (the PUB named by the checked pod, and for an eviction the pod
// itself) and, when the library admits the request, writes the PUB status it returns; a write
// conflict re-reads the PUB and decides again. Whatever fails answers a denial (fail closed).
func (s *server) validatePod(w http.ResponseWriter, r *http.Request) {
	body, ok := readBody(w, r)
	if !ok {
		return
	}
	var review admissionv1.AdmissionReview
	if err := json.Unmarshal(body, &review); err != nil || review.Request == nil {
		// Not readable as a review: the library still words the answer (invalid_input naming the field).
		writeJSON(w, http.StatusBadRequest, s.refusal("", body, err))
		return
	}
	req := review.Request
	ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
	defer cancel()

	evicted, pubName, err := s.checkedPod(ctx, req)
	if err != nil {
		writeJSON(w, http.StatusOK, deny(req.UID, http.StatusInternalServerError, err.Error()))
		return
	}
	for attempt := 0; ; attempt++ {
		pub, obj, err := s.getPub(ctx, req.Namespace, pubName)
		if err != nil {
			writeJSON(w, http.StatusOK, deny(req.UID, http.StatusInternalServerError, err.Error()))
			return
		}
		out, err := kruisecore.PubAdmitReview(kruisecore.PubAdmitReviewInput{
			Review: body, Pub: pub, EvictedPod: evicted, Now: now(), FeatureGates: &s.gates,
		})
		if err != nil {
			writeJSON(w, http.StatusOK, deny(req.UID, http.StatusBadRequest, err.Error()))
			return
		}
		if out.NewStatus != nil {
			err = s.writePubStatus(ctx, obj, out.NewStatus)
			if apierrors.IsConflict(err) && attempt < 5 {
				continue
			}
			if err != nil {
				writeJSON(w, http.StatusOK, deny(req.UID, http.StatusInternalServerError, "writing the PUB status: "+err.Error()))
				return
			}
		}
		log.Printf("validate-pod %s %s/%s %s: %s", req.Operation, req.Namespace, req.Name, req.SubResource, out.Decision)
		writeJSON(w, http.StatusOK, reviewWith(out.Response))
		return
	}
}

// checkedPod finds the PUB name of the pod the request is about (oldObject for DELETE and UPDATE,
// the stored pod for an eviction, which it also returns) as OpenKruise's webhook reads it; the
// rest of the request is the library's to judge.
func (s *server) checkedPod(ctx context.Context, req *admissionv1.AdmissionRequest) (*kruisecore.PubPod, string, error) {
	var meta struct {
		Metadata metav1.ObjectMeta `json:"metadata"`
	}
	switch {
	case req.Operation == admissionv1.Create && req.SubResource == "eviction":
		pod, err := s.kube.CoreV1().Pods(req.Namespace).Get(ctx, req.Name, metav1.GetOptions{})
		if err != nil {
			return nil, "", fmt.Errorf("reading the evicted pod: %w", err)
		}
		var p kruisecore.PubPod
		if err := convertJSON(pod, &p); err != nil {
			return nil, "", err
		}
		return &p, pod.Annotations[relatedPubAnnotation], nil
	case req.Operation == admissionv1.Delete || req.Operation == admissionv1.Update:
		if len(req.OldObject.Raw) > 0 && json.Unmarshal(req.OldObject.Raw, &meta) == nil {
			return nil, meta.Metadata.Annotations[relatedPubAnnotation], nil
		}
	}
	return nil, "", nil
}

// getPub reads the named PUB (nil when unnamed or not found), typed for the library and as stored.
func (s *server) getPub(ctx context.Context, namespace, name string) (*kruisecore.PubPub, *unstructured.Unstructured, error) {
	if name == "" {
		return nil, nil, nil
	}
	obj, err := s.dyn.Resource(pubResource).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("reading PUB %s/%s: %w", namespace, name, err)
	}
	var pub kruisecore.PubPub
	if err := convertJSON(obj.Object, &pub); err != nil {
		return nil, nil, err
	}
	return &pub, obj, nil
}

// writePubStatus replaces the PUB's status with the library's (optimistic: the read resourceVersion).
func (s *server) writePubStatus(ctx context.Context, obj *unstructured.Unstructured, status any) error {
	if obj == nil {
		return fmt.Errorf("no PUB to write")
	}
	var m map[string]any
	if err := convertJSON(status, &m); err != nil {
		return err
	}
	obj = obj.DeepCopy()
	obj.Object["status"] = m
	_, err := s.dyn.Resource(pubResource).Namespace(obj.GetNamespace()).UpdateStatus(ctx, obj, metav1.UpdateOptions{})
	return err
}

// refusal answers a body that is not a readable AdmissionReview: the library reads it and names
// what is wrong; the answer is a denial either way.
func (s *server) refusal(uid types.UID, body []byte, cause error) admissionv1.AdmissionReview {
	_, err := kruisecore.PubAdmitReview(kruisecore.PubAdmitReviewInput{Review: body, Now: now(), FeatureGates: &s.gates})
	msg := "not an AdmissionReview"
	switch {
	case err != nil:
		msg = err.Error()
	case cause != nil:
		msg = cause.Error()
	}
	return deny(uid, http.StatusBadRequest, msg)
}

func deny(uid types.UID, code int32, msg string) admissionv1.AdmissionReview {
	return admissionv1.AdmissionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview"},
		Response: &admissionv1.AdmissionResponse{
			UID: uid, Allowed: false,
			Result: &metav1.Status{Status: metav1.StatusFailure, Code: code, Message: msg},
		},
	}
}

// reviewWith wraps the library's AdmissionResponse in the review the API server reads.
func reviewWith(resp kruisecore.PubReviewResponse) map[string]any {
	return map[string]any{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "response": resp}
}

func convertJSON(from, to any) error {
	b, err := json.Marshal(from)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, to)
}
