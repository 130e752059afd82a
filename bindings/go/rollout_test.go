package kruisecore

import (
	"errors"
	"math"
	"testing"
)

func TestScaleIntOrPercentModes(t *testing.T) {
	cases := []struct {
		v    IntOrPercent
		tot  int64
		up   bool
		mode ScaleMode
		want int64
	}{
		{FromString("25%"), 10, true, ScaleModeScaled, 3},
		{FromString("25%"), 10, false, ScaleModeScaled, 2},
		{FromString("5%0"), 10, true, ScaleModeLegacy, 5},
		{FromString("32.3%"), 1000, false, ScaleModeKruise, 322},
		{FromString("0.07%"), 10000, true, ScaleModeKruise, 8},
		{FromInt(-7), 3, true, ScaleModeLegacy, -7},
		{FromString("9223372036854775807%"), 100, true, ScaleModeScaled, math.MinInt64},
	}
	for _, c := range cases {
		v := c.v
		got, err := ScaleIntOrPercent(&v, c.tot, c.up, c.mode)
		if err != nil || got != c.want {
			t.Errorf("%+v of %d (up=%v, %s): got %d, %v; want %d", c.v, c.tot, c.up, c.mode, got, err, c.want)
		}
	}
}

func TestScaleIntOrPercentErrors(t *testing.T) {
	bad := FromString("1e2%")
	_, err := ScaleIntOrPercent(&bad, 10, true, ScaleModeScaled)
	var kerr *Error
	if !errors.As(err, &kerr) || kerr.Kind() != "invalid_number" || kerr.Field() != "value" {
		t.Fatalf("want invalid_number on value, got %v", err)
	}
	_, err = ScaleIntOrPercent(nil, 10, true, ScaleModeScaled)
	if !errors.As(err, &kerr) || kerr.Kind() != "nil_value" {
		t.Fatalf("want nil_value, got %v", err)
	}
}

func TestPartitions(t *testing.T) {
	p99, r9 := FromString("99%"), int32(9)
	got, err := CloneSetPartition(&p99, &r9)
	if err != nil || got != (Partition{Partition: 8, MaxUpdated: 1}) {
		t.Errorf("CloneSet 99%% of 9: %+v, %v", got, err)
	}
	got, err = CloneSetPartition(nil, nil)
	if err != nil || got != (Partition{Partition: 0, MaxUpdated: 1}) {
		t.Errorf("CloneSet nil: %+v, %v", got, err)
	}
	p50 := FromString("50%")
	got, err = DaemonSetPartition(&p50, 5, 5)
	if err != nil || got != (Partition{Partition: 2, MaxUpdated: 3}) {
		t.Errorf("DaemonSet 50%% of 5: %+v, %v", got, err)
	}
	three := int32(3)
	got, err = StatefulSetPartition(&three, 5)
	if err != nil || got != (Partition{Partition: 3, MaxUpdated: 2}) {
		t.Errorf("StatefulSet 3 of 5: %+v, %v", got, err)
	}
	neg := int32(-1)
	_, err = StatefulSetPartition(&neg, 5)
	var kerr *Error
	if !errors.As(err, &kerr) || kerr.Kind() != "negative_partition" {
		t.Errorf("want negative_partition, got %v", err)
	}
}

func TestScaleTypedPathAgreesWithCall(t *testing.T) {
	for _, s := range []string{"0.07%", "16.1%", "32.3%", "5%0", "%50", "1_000%", "0x1p4%", "abc", "-50%", "9223372036854775807%"} {
		for _, mode := range []ScaleMode{ScaleModeScaled, ScaleModeLegacy, ScaleModeKruise} {
			for _, up := range []bool{true, false} {
				v := FromString(s)
				a, errA := ScaleIntOrPercent(&v, 1000, up, mode)
				b, errB := scaleViaCall(&v, 1000, up, mode)
				var ea, eb *Error
				if a != b || (errA == nil) != (errB == nil) || (errors.As(errA, &ea) && errors.As(errB, &eb) && (ea.Kind() != eb.Kind() || ea.Field() != eb.Field())) {
					t.Errorf("%q %s up=%v: typed %d, %v; call %d, %v", s, mode, up, a, errA, b, errB)
				}
			}
		}
	}
	v := FromString("1%")
	if _, err := ScaleIntOrPercent(&v, 10, true, ScaleMode("float")); err == nil {
		t.Error("an unknown mode must fail")
	}
}
