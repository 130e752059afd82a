// Benchmarks of the Go reference, for the side-by-side comparison with kruise-core's criterion
// benches (scripts/bench-side-by-side). Sub-benchmark names are the case texts, so the script can
// pair them with the Rust benches of the same case.
//
//	cd conformance/goref && go test -run '^$' -bench . -benchmem
package goref

import (
	"testing"
	"time"

	"github.com/openkruise/kruise/pkg/util"
	"github.com/openkruise/kruise/pkg/util/calculator"
	"github.com/robfig/cron/v3"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// CalculatorBenchSet is OpenKruise's calculator benchmark set (pkg/util/calculator
// benchmark_test.go and BENCHMARK.md); cpu is bound to the quantity 200m.
var CalculatorBenchSet = []string{
	"2 + 3",
	"(10 + 20) * 3 - 5",
	"100 * 50%",
	"100m + 50m",
	"(100m + 50m) * 2",
	"1000Gi + 500Gi",
	"max(100m, 200m)",
	"max(min(100m, 200m), 150m)",
	"cpu * 2",
	"max(cpu * 50%, 50m)",
}

// CronBenchSet is the schedule set of the cron benches (issue: AdvancedCronJob scheduling).
var CronBenchSet = []string{"0 */2 * * *", "*/5 * * * *", "0 0 29 2 *", "@every 90s"}

// cronBenchZones are the zones of the zoned variants (UTC = no prefix), as in
// benches/benches/cron.rs.
var cronBenchZones = []string{"UTC", "Asia/Shanghai", "America/New_York"}

var sink any

// BenchmarkCalculator: parse and evaluate each expression once per iteration (the reference has
// no separate compile step), with cpu = 200m.
func BenchmarkCalculator(b *testing.B) {
	vars := map[string]*calculator.Value{"cpu": {IsQuantity: true, Quantity: resource.MustParse("200m")}}
	for _, expr := range CalculatorBenchSet {
		b.Run(expr, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				v, err := calculator.NewCalculatorWithVariables(vars).Parse(expr)
				if err != nil {
					b.Fatal(err)
				}
				sink = v
			}
		})
	}
}

// zoned prefixes spec with the zone (none for UTC).
func zoned(spec, zone string) string {
	if zone == "UTC" {
		return spec
	}
	return "TZ=" + zone + " " + spec
}

// BenchmarkCronParse: robfig ParseStandard of each schedule, without and with a zone prefix
// (a prefix makes robfig load the zone, from the host's zoneinfo, on every parse).
func BenchmarkCronParse(b *testing.B) {
	for _, zone := range cronBenchZones {
		for _, spec := range CronBenchSet {
			spec := zoned(spec, zone)
			b.Run(spec, func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					s, err := cron.ParseStandard(spec)
					if err != nil {
						b.Fatal(err)
					}
					sink = s
				}
			})
		}
	}
}

// BenchmarkCronNext: one Next call of a parsed schedule from 2026-06-21T10:17:23Z (the instant
// of benches/benches/cron.rs; UTC is the local zone), named "<schedule>/<zone>".
func BenchmarkCronNext(b *testing.B) {
	after := time.Date(2026, 6, 21, 10, 17, 23, 0, time.UTC)
	for _, spec := range CronBenchSet {
		for _, zone := range cronBenchZones {
			s, err := cron.ParseStandard(zoned(spec, zone))
			if err != nil {
				b.Fatal(err)
			}
			b.Run(spec+"/"+zone, func(b *testing.B) {
				b.ReportAllocs()
				var t time.Time
				for i := 0; i < b.N; i++ {
					t = s.Next(after)
				}
				sink = t
			})
		}
	}
}

// intstrBenchCase is one scaling of BenchmarkIntstr.
type intstrBenchCase struct {
	name  string
	value intstr.IntOrString
	fn    func(*intstr.IntOrString, int, bool) (int, error)
}

// BenchmarkIntstr: the three scaling modes of rollout.scale_int_or_percent, each against a total
// of 1000, rounding up (the cases of benches/benches/rollout.rs "rollout/scale").
func BenchmarkIntstr(b *testing.B) {
	cases := []intstrBenchCase{
		{"scaled 25%", intstr.FromString("25%"), intstr.GetScaledValueFromIntOrPercent},
		{"legacy 5%0", intstr.FromString("5%0"), intstr.GetValueFromIntOrPercent},
		{"kruise 33.3%", intstr.FromString("33.3%"), util.GetScaledValueFromIntOrPercent},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var n int
			for i := 0; i < b.N; i++ {
				v, err := c.fn(&c.value, 1000, true)
				if err != nil {
					b.Fatal(err)
				}
				n += v
			}
			sink = n
		})
	}
}
