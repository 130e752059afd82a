//go:build cgo

package kruisecore

/*
#include "kruise_core.h"
*/
import "C"

// ScaleIntOrPercent scales v against total like "rollout.scale_int_or_percent": integers come back
// unchanged; a percentage gives ceil (roundUp) or floor of p*total/100 in float64. A nil v is an
// *Error with Kind "nil_value"; bad strings "not_a_percentage" or "invalid_number" (Field "value").
// The string form goes through the typed C function kruise_scale_int_or_percent (no JSON).
func ScaleIntOrPercent(v *IntOrPercent, total int64, roundUp bool, mode ScaleMode) (int64, error) {
	var cmode C.uint32_t
	switch mode {
	case ScaleModeScaled:
		cmode = C.KRUISE_SCALE_SCALED
	case ScaleModeLegacy:
		cmode = C.KRUISE_SCALE_LEGACY
	case ScaleModeKruise:
		cmode = C.KRUISE_SCALE_KRUISE
	default:
		return scaleViaCall(v, total, roundUp, mode) // the core names the bad mode
	}
	if v == nil {
		return scaleViaCall(v, total, roundUp, mode) // nil_value
	}
	if !v.IsString {
		return int64(v.IntVal), nil
	}
	sp, sl := stringArg(v.StrVal)
	var up C.uint8_t
	if roundUp {
		up = 1
	}
	var out C.int64_t
	var errBuf C.kruise_buf
	st := C.kruise_scale_int_or_percent(sp, sl, C.int64_t(total), up, cmode, &out, &errBuf)
	if _, err := result(st, errBuf); err != nil {
		return 0, err
	}
	return int64(out), nil
}
