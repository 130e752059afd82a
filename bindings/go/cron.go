package kruisecore

// CronSchedule: a hand-written convenience of the cron family over the generated CronParse and
// CronNext (zz_generated_cron.go), with time.Time fire times. Every other cron decision is a
// generated function (CronDecide, CronPrune, CronJobState, CronDefaults, CronValidate, ...).

import "time"

// CronSchedule is an AdvancedCronJob schedule as the controller parses it: spec.schedule with
// spec.timeZone applied the way OpenKruise's formatSchedule does. Immutable; safe for concurrent use.
type CronSchedule struct {
	spec          string
	timeZone      *string
	localTimeZone string
	parsed        CronParseOutput
}

// ParseCronSchedule parses spec (e.g. "0 */2 * * *") with an optional spec.timeZone (nil = none).
// localTimeZone is the controller's own zone for schedules without one ("" = UTC). Errors are
// *Error with the cron.parse kinds ("above_maximum", "unknown_location", "wrong_field_count", ...).
func ParseCronSchedule(spec string, timeZone *string, localTimeZone string) (*CronSchedule, error) {
	parsed, err := CronParse(CronParseInput{Schedule: spec, TimeZone: timeZone})
	if err != nil {
		return nil, err
	}
	if localTimeZone == "" {
		localTimeZone = "UTC"
	}
	return &CronSchedule{spec: spec, timeZone: timeZone, localTimeZone: localTimeZone, parsed: parsed}, nil
}

// Spec is the schedule text given to ParseCronSchedule.
func (s *CronSchedule) Spec() string { return s.spec }

// Parsed is the "cron.parse" answer: JSON of a CronParseOutputSpec (kind "spec") or a
// CronParseOutputEvery (kind "every").
func (s *CronSchedule) Parsed() CronParseOutput { return s.parsed }

// Next returns up to n chained fire times strictly after after (fewer when robfig's five-year
// window runs out, none for an impossible schedule such as "0 0 30 2 *"), in UTC.
func (s *CronSchedule) Next(after time.Time, n int) ([]time.Time, error) {
	local := s.localTimeZone
	raw, err := CronNext(CronNextInput{
		Schedule:      s.spec,
		TimeZone:      s.timeZone,
		LocalTimeZone: &local,
		After:         after.UTC().Format(time.RFC3339Nano),
		Count:         int64(n),
	})
	if err != nil {
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
