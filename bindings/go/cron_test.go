//go:build cgo

package kruisecore

import (
	"encoding/json"
	"errors"
	"testing"
	"time"
)

func TestCronScheduleNextWithZone(t *testing.T) {
	tz := "Asia/Shanghai"
	s, err := ParseCronSchedule("0 */2 * * *", &tz, "")
	if err != nil {
		t.Fatal(err)
	}
	if loc := s.Parsed().Location; loc == nil || *loc != "Asia/Shanghai" {
		t.Fatalf("location = %v", loc)
	}
	got, err := s.Next(time.Date(2026, 6, 21, 10, 17, 0, 0, time.UTC), 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"2026-06-21T12:00:00Z", "2026-06-21T14:00:00Z", "2026-06-21T16:00:00Z"}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i].Format(time.RFC3339) != want[i] {
			t.Errorf("fire %d = %s, want %s", i, got[i].Format(time.RFC3339), want[i])
		}
	}
}

func TestCronScheduleSkipsSpringForwardAndImpossible(t *testing.T) {
	tz := "America/New_York"
	s, err := ParseCronSchedule("30 2 * * *", &tz, "")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := s.Next(time.Date(2026, 3, 7, 12, 0, 0, 0, time.UTC), 1)
	if len(got) != 1 || got[0].Format(time.RFC3339) != "2026-03-09T06:30:00Z" {
		t.Fatalf("got %v", got)
	}
	never, _ := ParseCronSchedule("0 0 30 2 *", nil, "")
	if got, err := never.Next(time.Now(), 3); err != nil || len(got) != 0 {
		t.Fatalf("impossible schedule: %v %v", got, err)
	}
}

func TestCronParseErrorKinds(t *testing.T) {
	for spec, kind := range map[string]string{
		"0 0 * * 7":                 "above_maximum",
		"":                          "empty_spec",
		"TZ=Mars/Olympus 0 0 * * *": "unknown_location",
		"@every 1d":                 "invalid_duration",
	} {
		_, err := ParseCronSchedule(spec, nil, "")
		var kerr *Error
		if !errors.As(err, &kerr) || kerr.Kind() != kind {
			t.Errorf("%q: err = %v, want kind %s", spec, err, kind)
		}
	}
}

func TestCronDecideReplaceWhilePreviousRuns(t *testing.T) {
	at := "2026-06-21T08:00:00Z"
	d, err := CronDecide(CronDecideInput{
		Name:              "acj-image-pull",
		CreationTimestamp: time.Date(2026, 6, 21, 7, 30, 0, 0, time.UTC),
		Now:               time.Date(2026, 6, 21, 10, 0, 5, 0, time.UTC),
		Spec:              json.RawMessage(`{"schedule": "0 */2 * * *", "concurrencyPolicy": "Replace", "template": {"imageListPullJobTemplate": {"spec": {"images": ["nginx:1.14.2"]}}}}`),
		Jobs:              []CronChild{{Name: "acj-image-pull-1782028800", State: "active", ScheduledAt: &at}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if d.Action != "replace" || d.JobName == nil || *d.JobName != "acj-image-pull-1782036000" ||
		len(d.JobsToDelete) != 1 || d.RequeueAfterSeconds == nil || *d.RequeueAfterSeconds != 7195 || d.Type != "ImageListPullJob" {
		t.Fatalf("decision = %+v", d)
	}
}

func TestCronPruneStateDefaultsValidate(t *testing.T) {
	one := int32(1)
	t1 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	t2 := t1.Add(time.Hour)
	del, err := CronPrune(&one, nil, []CronChild{{Name: "new", State: "succeeded", StartTime: &t2}, {Name: "old", State: "succeeded", StartTime: &t1}})
	if err != nil || len(del) != 1 || del[0] != "old" {
		t.Fatalf("prune = %v %v", del, err)
	}
	st, err := CronJobState("ImageListPullJob", json.RawMessage(`{"desired": 2, "succeeded": 1, "completionTime": "2026-01-01T00:00:00Z"}`))
	if err != nil || st != "failed" {
		t.Fatalf("jobState = %q %v", st, err)
	}
	spec, err := CronDefaults(json.RawMessage(`{"schedule": "0 2 * * *", "template": {"imageListPullJobTemplate": {"spec": {"images": ["nginx:1.25"]}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(spec, &m); err != nil || m["concurrencyPolicy"] != "Replace" {
		t.Fatalf("defaults = %s %v", spec, err)
	}
	probs, err := CronValidate(nil, json.RawMessage(`{"schedule": "0 0 * * *", "timeZone": "", "template": {"jobTemplate": {}}}`))
	if err != nil || len(probs) != 1 || probs[0].Kind != "timezone_empty" || probs[0].Field != "spec.timeZone" {
		t.Fatalf("validate = %v %v", probs, err)
	}
}
