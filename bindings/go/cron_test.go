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
	var parsed CronParseOutputSpec
	if err := json.Unmarshal(s.Parsed(), &parsed); err != nil || parsed.Kind != "spec" {
		t.Fatalf("parsed = %s %v", s.Parsed(), err)
	}
	if loc := parsed.Location; loc == nil || *loc != "Asia/Shanghai" {
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
	var spec CronDecideSpec
	if err := json.Unmarshal([]byte(`{"schedule": "0 */2 * * *", "concurrencyPolicy": "Replace", "template": {"imageListPullJobTemplate": {"spec": {"images": ["nginx:1.14.2"]}}}}`), &spec); err != nil {
		t.Fatal(err)
	}
	d, err := CronDecide(CronDecideInput{
		Name:              "acj-image-pull",
		CreationTimestamp: "2026-06-21T07:30:00Z",
		Now:               "2026-06-21T10:00:05Z",
		Spec:              spec,
		Jobs:              &[]CronDecideJob{{Name: "acj-image-pull-1782028800", State: CronJobStateOutputActive, ScheduledAt: &at}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if d.Action != CronActionReplace || d.JobName == nil || *d.JobName != "acj-image-pull-1782036000" ||
		len(d.JobsToDelete) != 1 || d.RequeueAfterSeconds == nil || *d.RequeueAfterSeconds != 7195 || d.Type != CronChildKindImageListPullJob {
		t.Fatalf("decision = %+v", d)
	}
}

func TestCronPruneStateDefaultsValidate(t *testing.T) {
	one := int32(1)
	t1, t2 := "2026-01-01T00:00:00Z", "2026-01-01T01:00:00Z"
	del, err := CronPrune(CronPruneInput{SuccessfulJobsHistoryLimit: &one, Jobs: &[]CronPruneJob{
		{Name: "new", State: CronJobStateOutputSucceeded, StartTime: &t2},
		{Name: "old", State: CronJobStateOutputSucceeded, StartTime: &t1},
	}})
	if err != nil || len(del) != 1 || del[0] != "old" {
		t.Fatalf("prune = %v %v", del, err)
	}
	var status CronChildStatus
	if err := json.Unmarshal([]byte(`{"desired": 2, "succeeded": 1, "completionTime": "2026-01-01T00:00:00Z"}`), &status); err != nil {
		t.Fatal(err)
	}
	st, err := CronJobState(CronJobStateInput{Kind: CronChildKindImageListPullJob, Status: &status})
	if err != nil || st != CronJobStateOutputFailed {
		t.Fatalf("jobState = %q %v", st, err)
	}
	spec := map[string]json.RawMessage{
		"schedule": json.RawMessage(`"0 2 * * *"`),
		"template": json.RawMessage(`{"imageListPullJobTemplate": {"spec": {"images": ["nginx:1.25"]}}}`),
	}
	out, err := CronDefaults(CronDefaultsInput{Spec: &spec})
	if err != nil || string(out["concurrencyPolicy"]) != `"Replace"` {
		t.Fatalf("defaults = %v %v", out, err)
	}
	var vspec CronValidateSpec
	if err := json.Unmarshal([]byte(`{"schedule": "0 0 * * *", "timeZone": "", "template": {"jobTemplate": {}}}`), &vspec); err != nil {
		t.Fatal(err)
	}
	probs, err := CronValidate(CronValidateInput{Spec: &vspec})
	if err != nil || len(probs) != 1 || probs[0].Kind != "timezone_empty" || probs[0].Field != "spec.timeZone" {
		t.Fatalf("validate = %v %v", probs, err)
	}
}
