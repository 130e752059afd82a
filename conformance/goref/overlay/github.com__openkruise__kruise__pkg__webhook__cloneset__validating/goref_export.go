//go:build goref_overlay

// Added to the reference package by conformance/goref/run (go test -overlay); not part of
// OpenKruise: exports the v1alpha1 CloneSet spec validator for the differential tests.

package validating

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	appsv1alpha1 "github.com/openkruise/kruise/apis/apps/v1alpha1"
)

// GorefValidateCloneSetSpec is validateCloneSetSpec for a create (no old spec) at path "spec".
func GorefValidateCloneSetSpec(spec *appsv1alpha1.CloneSetSpec) field.ErrorList {
	return (&CloneSetCreateUpdateHandler{}).validateCloneSetSpec(spec, nil, &metav1.ObjectMeta{}, field.NewPath("spec"))
}
