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

// cronBenchZone is the zone of the "with a zone" variants (the seed's zone).
const cronBenchZone = "Asia/Shanghai"

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

func cronBenchSpecs() []string {
	var out []string
	for _, s := range CronBenchSet {
		out = append(out, s, "TZ="+cronBenchZone+" "+s)
	}
	return out
}

// BenchmarkCronParse: robfig ParseStandard, without and with a zone prefix.
func BenchmarkCronParse(b *testing.B) {
	for _, spec := range cronBenchSpecs() {
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

// BenchmarkCronNext: one Next call on a parsed schedule from a fixed instant
// (2026-03-07T12:34:56Z, UTC local zone), without and with a zone prefix.
func BenchmarkCronNext(b *testing.B) {
	after := time.Date(2026, 3, 7, 12, 34, 56, 0, time.UTC)
	for _, spec := range cronBenchSpecs() {
		s, err := cron.ParseStandard(spec)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(spec, func(b *testing.B) {
			b.ReportAllocs()
			var t time.Time
			for i := 0; i < b.N; i++ {
				t = s.Next(after)
			}
			sink = t
		})
	}
}

// intstrBenchCase is one scaling of BenchmarkIntstr.
type intstrBenchCase struct {
	name    string
	value   intstr.IntOrString
	total   int
	roundUp bool
	fn      func(*intstr.IntOrString, int, bool) (int, error)
}

// BenchmarkIntstr: the three scaling modes of rollout.scale_int_or_percent.
func BenchmarkIntstr(b *testing.B) {
	cases := []intstrBenchCase{
		{"scaled 25% of 10 up", intstr.FromString("25%"), 10, true, intstr.GetScaledValueFromIntOrPercent},
		{"scaled int 3", intstr.FromInt32(3), 10, true, intstr.GetScaledValueFromIntOrPercent},
		{"legacy 25% of 10 down", intstr.FromString("25%"), 10, false, intstr.GetValueFromIntOrPercent},
		{"kruise 32.3% of 1000 up", intstr.FromString("32.3%"), 1000, true, util.GetScaledValueFromIntOrPercent},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var n int
			for i := 0; i < b.N; i++ {
				v, err := c.fn(&c.value, c.total, c.roundUp)
				if err != nil {
					b.Fatal(err)
				}
				n += v
			}
			sink = n
		})
	}
}
