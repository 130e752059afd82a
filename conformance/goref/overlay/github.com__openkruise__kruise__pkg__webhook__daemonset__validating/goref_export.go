//go:build goref_overlay

// Added to the reference package by conformance/goref/run (go test -overlay); not part of
// OpenKruise: exports the v1beta1 Advanced DaemonSet spec validator for the differential tests.

package validating

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
)

// GorefValidateDaemonSetSpec is validateDaemonSetSpecV1beta1 at path "spec".
func GorefValidateDaemonSetSpec(spec *appsv1beta1.DaemonSetSpec) field.ErrorList {
	return validateDaemonSetSpecV1beta1(spec, field.NewPath("spec"))
}
