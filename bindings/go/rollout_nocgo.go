//go:build !cgo

package kruisecore

// ScaleIntOrPercent needs cgo; without it, it returns ErrCgoRequired (like every function).
func ScaleIntOrPercent(v *IntOrPercent, total int64, roundUp bool, mode ScaleMode) (int64, error) {
	return scaleViaCall(v, total, roundUp, mode)
}
