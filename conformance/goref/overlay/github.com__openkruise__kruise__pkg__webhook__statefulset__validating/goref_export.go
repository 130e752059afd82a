//go:build goref_overlay

// Added to the reference package by conformance/goref/run (go test -overlay); not part of
// OpenKruise: exports the v1beta1 Advanced StatefulSet spec validator for the differential tests.

package validating

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
)

// GorefValidateStatefulSetSpec is validateStatefulSetSpec at path "spec".
func GorefValidateStatefulSetSpec(spec *appsv1beta1.StatefulSetSpec) field.ErrorList {
	return validateStatefulSetSpec(spec, field.NewPath("spec"))
}
