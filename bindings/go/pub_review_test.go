//go:build cgo

package kruisecore

import (
	"encoding/json"
	"errors"
	"testing"
)

func pubDeleteRequest() map[string]any {
	return map[string]any{
		"uid": "d-7", "kind": map[string]any{"group": "", "version": "v1", "kind": "Pod"},
		"operation": "DELETE", "name": "web-server-7", "namespace": "default",
		"oldObject": pubTestPod("web-server-7", "500m", true),
		"options":   map[string]any{"apiVersion": "meta.k8s.io/v1", "kind": "DeleteOptions"},
	}
}

func pubNoBudget() map[string]any {
	return pubTestPub(&PubStatus{UnavailableAllowed: 0, DesiredAvailable: 8, CurrentAvailable: 8, TotalReplicas: 10})
}

func TestPubAdmitReviewWholeReviewLikeItsRequest(t *testing.T) {
	ctx := PubReviewContext{Pub: pubNoBudget(), Now: pubNow}
	byRequest, err := PubAdmitReview(pubDeleteRequest(), ctx)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]any{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
		"request": pubDeleteRequest()})
	byReview, err := PubAdmitReview(body, ctx) // the raw request body
	if err != nil {
		t.Fatal(err)
	}
	if byReview.Decision != "denied_no_budget" || byReview.Allowed || *byReview.Operation != "DELETE" {
		t.Fatalf("review: %+v", byReview)
	}
	if byRequest.Decision != byReview.Decision || byRequest.Reason != byReview.Reason {
		t.Fatalf("request %+v != review %+v", byRequest, byReview)
	}
	want := PubAdmissionResponse{UID: "d-7", Allowed: false, Status: PubResponseStatus{Code: 403, Reason: "Forbidden",
		Message: `podunavailablebudget.policy.kruise.io "web-server-pub" is forbidden: pub unavailable allowed is negative`}}
	if byReview.Response != want {
		t.Fatalf("response: %+v", byReview.Response)
	}
	// budget left: admitted, the status to write comes back
	budget := pubTestPub(&PubStatus{UnavailableAllowed: 1, DesiredAvailable: 8, CurrentAvailable: 9, TotalReplicas: 10})
	a, err := PubAdmitReview(pubDeleteRequest(), PubReviewContext{Pub: budget, Now: pubNow})
	if err != nil || a.Decision != "admitted" || a.NewStatus == nil || a.NewStatus.DisruptedPods["web-server-7"] != "2026-06-21T10:00:00Z" ||
		a.Response != (PubAdmissionResponse{UID: "d-7", Allowed: true, Status: PubResponseStatus{Code: 200}}) {
		t.Fatalf("admitted: %+v, %v", a, err)
	}
}

func TestPubAdmitReviewFailsClosed(t *testing.T) {
	without := func(key string) map[string]any {
		r := pubDeleteRequest()
		delete(r, key)
		return r
	}
	with := func(key string, v any) map[string]any {
		r := pubDeleteRequest()
		r[key] = v
		return r
	}
	cases := []struct {
		name   string
		review any
		field  string
	}{
		{"empty object", map[string]any{}, "request.operation"},
		{"empty body", []byte(`{}`), "request.operation"},
		{"lower-case create", map[string]any{"uid": "e", "operation": "create", "subResource": "eviction", "name": "p",
			"kind": map[string]any{"group": "policy", "version": "v1", "kind": "Eviction"}}, "request.operation"},
		{"unknown operation", with("operation", "PATCH"), "request.operation"},
		{"no kind", without("kind"), "request.kind"},
		{"no uid", without("uid"), "request.uid"},
		{"no options", without("options"), "request.options"},
		{"old object not an object", with("oldObject", "web-server-7"), "request.oldObject"},
		{"review without request", map[string]any{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview"}, "request"},
		{"wrong apiVersion", map[string]any{"apiVersion": "v1", "kind": "AdmissionReview", "request": pubDeleteRequest()}, "apiVersion"},
		{"wrong kind", map[string]any{"apiVersion": "admission.k8s.io/v1", "kind": "Review", "request": pubDeleteRequest()}, "kind"},
		{"not an object", []any{}, "review"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := PubAdmitReview(c.review, PubReviewContext{Pub: pubNoBudget(), Now: pubNow})
			var kerr *Error
			if !errors.As(err, &kerr) || kerr.Kind() != "invalid_input" || kerr.Field() != c.field {
				t.Fatalf("want invalid_input at %s, got %+v, %v", c.field, a, err)
			}
		})
	}
}
