//go:build goref_overlay

// Added to the reference package by conformance/goref/run (go test -overlay); not part of
// OpenKruise: exports the UnitedDeployment spec validator for the differential tests.

package validating

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
)

// GorefValidateSpec is validateUnitedDeploymentSpecV1beta1 at path "spec".
func GorefValidateSpec(spec *appsv1beta1.UnitedDeploymentSpec) field.ErrorList {
	return validateUnitedDeploymentSpecV1beta1(spec, field.NewPath("spec"))
}
