//go:build goref_overlay

// Added to the reference package only for conformance/goref (go test -overlay, see ../../run).
package validating

import (
	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// GorefValidate exports validateResourceDistribution.
func (h *ResourceDistributionCreateUpdateHandler) GorefValidate(obj, oldObj *appsv1beta1.ResourceDistribution) field.ErrorList {
	return h.validateResourceDistribution(obj, oldObj)
}
