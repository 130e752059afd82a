//go:build goref_overlay

// Added to the reference package only for conformance/goref (go test -overlay, see ../../run).
package validating

import (
	policyv1beta1 "github.com/openkruise/kruise/apis/policy/v1beta1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// GorefValidate exports validatingPodUnavailableBudgetFnV1beta1 (old is nil on create).
func (h *PodUnavailableBudgetCreateUpdateHandler) GorefValidate(obj, old *policyv1beta1.PodUnavailableBudget) field.ErrorList {
	return h.validatingPodUnavailableBudgetFnV1beta1(obj, old)
}
