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

func pubNoBudget(t *testing.T) *PubPub {
	p := conv[PubPub](t, pubTestPub(map[string]any{"unavailableAllowed": 0, "desiredAvailable": 8, "currentAvailable": 8, "totalReplicas": 10}))
	return &p
}

func raw(t *testing.T, v any) json.RawMessage {
	t.Helper()
	if b, ok := v.([]byte); ok {
		return b
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestPubAdmitReviewWholeReviewLikeItsRequest(t *testing.T) {
	byRequest, err := PubAdmitReview(PubAdmitReviewInput{Review: raw(t, pubDeleteRequest()), Pub: pubNoBudget(t), Now: pubNow})
	if err != nil {
		t.Fatal(err)
	}
	body := raw(t, map[string]any{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": pubDeleteRequest()})
	byReview, err := PubAdmitReview(PubAdmitReviewInput{Review: body, Pub: pubNoBudget(t), Now: pubNow}) // the raw request body
	if err != nil {
		t.Fatal(err)
	}
	if byReview.Decision != "denied_no_budget" || byReview.Allowed || *byReview.Operation != "DELETE" {
		t.Fatalf("review: %+v", byReview)
	}
	if byRequest.Decision != byReview.Decision || byRequest.Reason != byReview.Reason {
		t.Fatalf("request %+v != review %+v", byRequest, byReview)
	}
	msg, forbidden := `podunavailablebudget.policy.kruise.io "web-server-pub" is forbidden: pub unavailable allowed is negative`, "Forbidden"
	r := byReview.Response
	if r.Uid != "d-7" || r.Allowed || r.Status.Code != 403 || r.Status.Reason == nil || *r.Status.Reason != forbidden ||
		r.Status.Message == nil || *r.Status.Message != msg {
		t.Fatalf("response: %+v", r)
	}
	// budget left: admitted, the status to write comes back
	budget := conv[PubPub](t, pubTestPub(map[string]any{"unavailableAllowed": 1, "desiredAvailable": 8, "currentAvailable": 9, "totalReplicas": 10}))
	a, err := PubAdmitReview(PubAdmitReviewInput{Review: raw(t, pubDeleteRequest()), Pub: &budget, Now: pubNow})
	if err != nil || a.Decision != "admitted" || a.NewStatus == nil || a.NewStatus.DisruptedPods["web-server-7"] != "2026-06-21T10:00:00Z" ||
		a.Response != (PubReviewResponse{Uid: "d-7", Allowed: true, Status: PubResponseStatus{Code: 200}}) {
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
			a, err := PubAdmitReview(PubAdmitReviewInput{Review: raw(t, c.review), Pub: pubNoBudget(t), Now: pubNow})
			var kerr *Error
			if !errors.As(err, &kerr) || kerr.Kind() != "invalid_input" || kerr.Field() != c.field {
				t.Fatalf("want invalid_input at %s, got %+v, %v", c.field, a, err)
			}
		})
	}
}
