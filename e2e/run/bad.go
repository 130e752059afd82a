package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// checkBadRequests posts what an API server (or anything else) might send wrong straight to the
// example: every answer must be well-formed JSON that fails or denies, and the webhook must live on.
func checkBadRequests(ctx context.Context, e *env, r *report) error {
	cases := []struct {
		name, path, method, contentType, body string
		status                                int
		check                                 func(map[string]any) error
	}{
		{"conversion review that is not JSON", "/convert", http.MethodPost, "application/json", `{"apiVersion":`, http.StatusBadRequest, conversionFailed("")},
		{"conversion review without request", "/convert", http.MethodPost, "application/json",
			`{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview"}`, http.StatusBadRequest, conversionFailed("")},
		{"conversion review of the wrong kind", "/convert", http.MethodPost, "application/json",
			`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"x"}}`, http.StatusBadRequest, conversionFailed("")},
		{"conversion of an unknown kind (CloneSet)", "/convert", http.MethodPost, "application/json",
			`{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u-1","desiredAPIVersion":"apps.kruise.io/v1beta1",` +
				`"objects":[{"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet","metadata":{"name":"c"}}]}}`,
			http.StatusOK, conversionFailed("u-1", "unsupported_kind")},
		{"conversion of an object that is not an object", "/convert", http.MethodPost, "application/json",
			`{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u-2","desiredAPIVersion":"apps.kruise.io/v1beta1","objects":[42]}}`,
			http.StatusOK, conversionFailed("u-2")},
		{"conversion to an unknown version", "/convert", http.MethodPost, "application/json",
			`{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u-3","desiredAPIVersion":"apps.kruise.io/v2",` +
				`"objects":[{"apiVersion":"apps.kruise.io/v1alpha1","kind":"SidecarSet","metadata":{"name":"s"}}]}}`,
			http.StatusOK, conversionFailed("u-3", "unsupported_version")},
		{"GET on /convert", "/convert", http.MethodGet, "", "", http.StatusMethodNotAllowed, isStatusFailure},
		{"conversion review as text/plain", "/convert", http.MethodPost, "text/plain", `{}`, http.StatusUnsupportedMediaType, isStatusFailure},
		{"admission review that is not JSON", "/validate-pod", http.MethodPost, "application/json", `[`, http.StatusBadRequest, admissionDenied("")},
		{"admission review without request", "/validate-pod", http.MethodPost, "application/json",
			`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"}`, http.StatusBadRequest, admissionDenied("")},
		{"admission review with an unknown operation", "/validate-pod", http.MethodPost, "application/json",
			`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"a-1","operation":"EXPLODE",` +
				`"kind":{"group":"","version":"v1","kind":"Pod"},"resource":{"group":"","version":"v1","resource":"pods"},"name":"p","namespace":"default"}}`,
			http.StatusOK, admissionDenied("a-1")},
		{"pod DELETE review whose old object is not a pod", "/validate-pod", http.MethodPost, "application/json",
			`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"a-2","operation":"DELETE",` +
				`"kind":{"group":"","version":"v1","kind":"Pod"},"resource":{"group":"","version":"v1","resource":"pods"},"name":"p","namespace":"default",` +
				`"oldObject":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","annotations":"not a map"}},"options":{"kind":"DeleteOptions","apiVersion":"meta.k8s.io/v1"}}}`,
			http.StatusOK, admissionDenied("a-2")},
		{"mutating review that is not JSON", "/mutate-pod", http.MethodPost, "application/json", `nope`, http.StatusBadRequest, admissionDenied("")},
		{"mutating review without uid", "/mutate-pod", http.MethodPost, "application/json",
			`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"operation":"CREATE"}}`, http.StatusBadRequest, admissionDenied("")},
		{"mutating review whose object is not a pod", "/mutate-pod", http.MethodPost, "application/json",
			`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"m-1","operation":"CREATE",` +
				`"kind":{"group":"","version":"v1","kind":"Pod"},"namespace":"default","object":{"spec":{"containers":"x"}}}}`,
			http.StatusOK, admissionDenied("m-1")},
	}
	for _, c := range cases {
		req, err := http.NewRequestWithContext(ctx, c.method, e.hookURL+c.path, strings.NewReader(c.body))
		if err != nil {
			return err
		}
		if c.contentType != "" {
			req.Header.Set("Content-Type", c.contentType)
		}
		resp, err := e.hookHTTP.Do(req)
		if err != nil {
			r.fail("bad request: "+c.name, err)
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var doc map[string]any
		switch {
		case resp.StatusCode != c.status:
			err = fmt.Errorf("HTTP %d, want %d: %s", resp.StatusCode, c.status, body)
		case resp.Header.Get("Content-Type") != "application/json":
			err = fmt.Errorf("content type %q", resp.Header.Get("Content-Type"))
		case json.NewDecoder(bytes.NewReader(body)).Decode(&doc) != nil:
			err = fmt.Errorf("answer is not JSON: %s", body)
		default:
			if err = c.check(doc); err != nil {
				err = fmt.Errorf("%v: %s", err, body)
			}
		}
		r.check("bad request: "+c.name+" -> well-formed failure", err)
	}
	resp, err := e.hookHTTP.Get(e.hookURL + "/healthz")
	if err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			err = fmt.Errorf("healthz %s", resp.Status)
		}
	}
	r.check("bad request: the webhook still serves after all of them", err)
	return nil
}

func isStatusFailure(doc map[string]any) error {
	if doc["kind"] != "Status" || doc["status"] != "Failure" {
		return fmt.Errorf("not a Failure Status")
	}
	return nil
}

// conversionFailed: a ConversionReview whose result is a Failure, echoing uid, converting nothing,
// with a message containing each of words.
func conversionFailed(uid string, words ...string) func(map[string]any) error {
	return func(doc map[string]any) error {
		if doc["apiVersion"] != "apiextensions.k8s.io/v1" || doc["kind"] != "ConversionReview" {
			return fmt.Errorf("not a ConversionReview")
		}
		resp, _ := doc["response"].(map[string]any)
		result, _ := resp["result"].(map[string]any)
		if resp == nil || result == nil || result["status"] != "Failure" {
			return fmt.Errorf("result is not a Failure")
		}
		if fmt.Sprint(resp["uid"]) != uid && !(uid == "" && resp["uid"] == nil) {
			return fmt.Errorf("uid %v, want %q", resp["uid"], uid)
		}
		if objs, _ := resp["convertedObjects"].([]any); len(objs) > 0 {
			return fmt.Errorf("converted objects in a failure")
		}
		msg := fmt.Sprint(result["message"], " ", result["reason"])
		for _, w := range words {
			if !strings.Contains(msg, w) {
				return fmt.Errorf("message %q without %q", msg, w)
			}
		}
		return nil
	}
}

// admissionDenied: an AdmissionReview whose response denies, echoing uid, with a message.
func admissionDenied(uid string) func(map[string]any) error {
	return func(doc map[string]any) error {
		if doc["apiVersion"] != "admission.k8s.io/v1" || doc["kind"] != "AdmissionReview" {
			return fmt.Errorf("not an AdmissionReview")
		}
		resp, _ := doc["response"].(map[string]any)
		if resp == nil || resp["allowed"] != false {
			return fmt.Errorf("response missing or allowed")
		}
		if fmt.Sprint(resp["uid"]) != uid && !(uid == "" && resp["uid"] == nil) {
			return fmt.Errorf("uid %v, want %q", resp["uid"], uid)
		}
		status, _ := resp["status"].(map[string]any)
		if status == nil || status["message"] == "" || status["message"] == nil {
			return fmt.Errorf("denial without a message")
		}
		if _, patched := resp["patch"]; patched {
			return fmt.Errorf("a denial with a patch")
		}
		return nil
	}
}
