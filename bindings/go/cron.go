package kruisecore

// Typed helpers of the cron family (AdvancedCronJob, OpenKruise v1.9; robfig/cron v3.0.1
// ParseStandard dialect). Standard library only: every helper goes through Call with the
// cron.* function's JSON shapes, so the answers are exactly those of the conformance vectors.

import (
	"encoding/json"
	"time"
)

// CronSpec is the parsed form of a schedule, the result of "cron.parse".
// Kind is "spec" (five fields or a descriptor) or "every" (@every, EverySeconds set).
type CronSpec struct {
	Kind         string  `json:"kind"`
	Location     *string `json:"location,omitempty"` // nil: the controller's local zone
	Minutes      []int   `json:"minutes,omitempty"`
	Hours        []int   `json:"hours,omitempty"`
	DaysOfMonth  []int   `json:"daysOfMonth,omitempty"`
	Months       []int   `json:"months,omitempty"`
	DaysOfWeek   []int   `json:"daysOfWeek,omitempty"` // 0 = Sunday
	DomStar      bool    `json:"domStar,omitempty"`
	DowStar      bool    `json:"dowStar,omitempty"`
	EverySeconds int64   `json:"everySeconds,omitempty"`
}

// CronSchedule is an AdvancedCronJob schedule as the controller parses it: spec.schedule with
// spec.timeZone applied the way OpenKruise's formatSchedule does. Immutable; safe for concurrent use.
type CronSchedule struct {
	spec          string
	timeZone      *string
	localTimeZone string
	parsed        CronSpec
}

// ParseCronSchedule parses spec (e.g. "0 */2 * * *") with an optional spec.timeZone (nil = none).
// localTimeZone is the controller's own zone for schedules without one ("" = UTC). Errors are
// *Error with the cron.parse kinds ("above_maximum", "unknown_location", "wrong_field_count", ...).
func ParseCronSchedule(spec string, timeZone *string, localTimeZone string) (*CronSchedule, error) {
	in := map[string]any{"schedule": spec}
	if timeZone != nil {
		in["timeZone"] = *timeZone
	}
	var parsed CronSpec
	if err := callTyped("cron.parse", in, &parsed); err != nil {
		return nil, err
	}
	if localTimeZone == "" {
		localTimeZone = "UTC"
	}
	return &CronSchedule{spec: spec, timeZone: timeZone, localTimeZone: localTimeZone, parsed: parsed}, nil
}

// Spec is the schedule text given to ParseCronSchedule.
func (s *CronSchedule) Spec() string { return s.spec }

// Parsed is the parsed form (bit sets as sorted lists, star flags, zone).
func (s *CronSchedule) Parsed() CronSpec { return s.parsed }

// Next returns up to n chained fire times strictly after after (fewer when robfig's five-year
// window runs out, none for an impossible schedule such as "0 0 30 2 *"), in UTC.
func (s *CronSchedule) Next(after time.Time, n int) ([]time.Time, error) {
	in := map[string]any{
		"schedule":      s.spec,
		"localTimeZone": s.localTimeZone,
		"after":         after.UTC().Format(time.RFC3339Nano),
		"count":         n,
	}
	if s.timeZone != nil {
		in["timeZone"] = *s.timeZone
	}
	var raw []string
	if err := callTyped("cron.next", in, &raw); err != nil {
		return nil, err
	}
	out := make([]time.Time, 0, len(raw))
	for _, r := range raw {
		t, err := time.Parse(time.RFC3339, r)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// CronChild is one owned child of an AdvancedCronJob, as "cron.decide" and "cron.prune" see it.
type CronChild struct {
	Name        string     `json:"name"`
	State       string     `json:"state"` // "active", "succeeded" or "failed" (see CronJobState)
	StartTime   *time.Time `json:"startTime,omitempty"`
	ScheduledAt *string    `json:"scheduledAt,omitempty"` // raw apps.kruise.io/scheduled-at annotation
}

// CronDecideInput is the input of one reconcile pass ("cron.decide"). Spec is the AdvancedCronJob
// spec JSON (schedule, timeZone, startingDeadlineSeconds, concurrencyPolicy, paused, history limits,
// template); no defaults are applied to it.
type CronDecideInput struct {
	Name              string          `json:"name"`
	CreationTimestamp time.Time       `json:"creationTimestamp"`
	Now               time.Time       `json:"now"`
	LocalTimeZone     string          `json:"localTimeZone,omitempty"`
	Spec              json.RawMessage `json:"spec"`
	Jobs              []CronChild     `json:"jobs"`
}

// CronDecision is what one reconcile pass does. Action is "create", "replace", "skip", "paused"
// or "error"; Reason says why nothing was created; RequeueAfterSeconds is nil for no timed requeue.
type CronDecision struct {
	Type                string   `json:"type"`
	LastScheduleTime    *string  `json:"lastScheduleTime"`
	Active              []string `json:"active"`
	HistoryDeletes      []string `json:"historyDeletes"`
	Action              string   `json:"action"`
	Reason              *string  `json:"reason"`
	ScheduledTime       *string  `json:"scheduledTime"`
	JobName             *string  `json:"jobName"`
	JobsToDelete        []string `json:"jobsToDelete"`
	RequeueAfterSeconds *int64   `json:"requeueAfterSeconds"`
}

// CronDecide runs one AdvancedCronJob reconcile pass at in.Now. Errors are *Error (kind
// "invalid_input" for malformed times); schedule problems are the "error" action instead.
func CronDecide(in CronDecideInput) (*CronDecision, error) {
	if in.Jobs == nil {
		in.Jobs = []CronChild{}
	}
	var d CronDecision
	if err := callTyped("cron.decide", in, &d); err != nil {
		return nil, err
	}
	return &d, nil
}

// CronPrune returns the finished children to delete for the history limits (nil = unset), failed
// ones first, oldest first.
func CronPrune(successfulJobsHistoryLimit, failedJobsHistoryLimit *int32, jobs []CronChild) ([]string, error) {
	in := map[string]any{"jobs": jobs}
	if jobs == nil {
		in["jobs"] = []CronChild{}
	}
	if successfulJobsHistoryLimit != nil {
		in["successfulJobsHistoryLimit"] = *successfulJobsHistoryLimit
	}
	if failedJobsHistoryLimit != nil {
		in["failedJobsHistoryLimit"] = *failedJobsHistoryLimit
	}
	var out []string
	err := callTyped("cron.prune", in, &out)
	return out, err
}

// CronJobState classifies a child: kind is "Job", "BroadcastJob" or "ImageListPullJob", status
// its status JSON. Returns "active", "succeeded" or "failed".
func CronJobState(kind string, status json.RawMessage) (string, error) {
	if len(status) == 0 {
		status = json.RawMessage("{}")
	}
	var out string
	err := callTyped("cron.jobState", map[string]any{"kind": kind, "status": status}, &out)
	return out, err
}

// CronDefaults applies SetDefaultsAdvancedCronJob (without pod-template injection) to a spec.
func CronDefaults(spec json.RawMessage) (json.RawMessage, error) {
	var out json.RawMessage
	err := callTyped("cron.defaults", map[string]any{"spec": spec}, &out)
	return out, err
}

// CronFieldError is one admission problem: the field path and the error kind.
type CronFieldError struct {
	Field string `json:"field"`
	Kind  string `json:"kind"`
}

// CronValidate runs the validating webhook's create-path checks; name is checked when non-nil.
// An empty result means valid.
func CronValidate(name *string, spec json.RawMessage) ([]CronFieldError, error) {
	in := map[string]any{"spec": spec}
	if name != nil {
		in["name"] = *name
	}
	var out []CronFieldError
	err := callTyped("cron.validate", in, &out)
	return out, err
}
