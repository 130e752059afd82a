package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	kruisecore "github.com/kruise-core/kruise-core/bindings/go"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// convert answers a ConversionReview: every object goes through kruisecore.ApiConvert to the
// desired version. One failing object fails the whole review (the API server needs all of them),
// with the library's error (kind, field, message) as the result's message.
func (s *server) convert(w http.ResponseWriter, r *http.Request) {
	body, ok := readBody(w, r)
	if !ok {
		return
	}
	var review apiextensionsv1.ConversionReview
	if err := json.Unmarshal(body, &review); err != nil {
		writeJSON(w, http.StatusBadRequest, conversionFailure("", "reading the ConversionReview: "+err.Error()))
		return
	}
	if review.APIVersion != "apiextensions.k8s.io/v1" || review.Kind != "ConversionReview" || review.Request == nil {
		writeJSON(w, http.StatusBadRequest, conversionFailure("",
			fmt.Sprintf("want an apiextensions.k8s.io/v1 ConversionReview with a request, got %q %q", review.APIVersion, review.Kind)))
		return
	}
	req := review.Request
	converted := make([]runtime.RawExtension, 0, len(req.Objects))
	for i, obj := range req.Objects {
		var object map[string]json.RawMessage
		if err := json.Unmarshal(obj.Raw, &object); err != nil || object == nil {
			writeJSON(w, http.StatusOK, conversionFailure(req.UID, fmt.Sprintf("objects[%d]: not a JSON object", i)))
			return
		}
		out, err := kruisecore.ApiConvert(kruisecore.ApiConvertInput{Object: object, TargetApiVersion: req.DesiredAPIVersion})
		if err != nil {
			f := conversionFailure(req.UID, fmt.Sprintf("objects[%d]: %v", i, err))
			var kerr *kruisecore.Error
			if errors.As(err, &kerr) {
				f.Response.Result.Reason = metav1.StatusReason(kerr.Kind())
			}
			writeJSON(w, http.StatusOK, f)
			return
		}
		converted = append(converted, runtime.RawExtension{Raw: out})
	}
	writeJSON(w, http.StatusOK, apiextensionsv1.ConversionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: "apiextensions.k8s.io/v1", Kind: "ConversionReview"},
		Response: &apiextensionsv1.ConversionResponse{
			UID:              req.UID,
			ConvertedObjects: converted,
			Result:           metav1.Status{Status: metav1.StatusSuccess},
		},
	})
}

// conversionFailure is a well-formed ConversionReview whose result is a Failure: the API server
// then fails the read or write that needed the conversion, with msg.
func conversionFailure(uid types.UID, msg string) apiextensionsv1.ConversionReview {
	return apiextensionsv1.ConversionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: "apiextensions.k8s.io/v1", Kind: "ConversionReview"},
		Response: &apiextensionsv1.ConversionResponse{
			UID:              uid,
			ConvertedObjects: []runtime.RawExtension{},
			Result:           metav1.Status{Status: metav1.StatusFailure, Message: msg},
		},
	}
}
