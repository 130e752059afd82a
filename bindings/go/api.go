package kruisecore

// API versions of the apps.kruise.io kinds with two versions in OpenKruise v1.9 (the values of
// ApiConvertInput.TargetApiVersion). The api and compat decisions themselves are the generated
// ApiConvert, ApiDefault, ..., CompatServerVersion and CompatKruiseUpgrade (zz_generated_*.go).
const (
	V1Alpha1 = "apps.kruise.io/v1alpha1"
	V1Beta1  = "apps.kruise.io/v1beta1"
)
