// Command webhook is an example of OpenKruise's webhooks written on kruise-core's Go binding:
//
//   - /convert: the CRD conversion webhook of the apps.kruise.io kinds served as both v1alpha1 and
//     v1beta1; every object of a ConversionReview goes through kruisecore.ApiConvert.
//   - /validate-pod: the PodUnavailableBudget pod validating webhook (DELETE, pods/eviction, UPDATE
//     and pods/resize); the AdmissionReview goes through kruisecore.PubAdmitReview, and the PUB
//     status it decides is written through the status subresource.
//   - /mutate-pod: the SidecarSet pod mutating webhook (CREATE), reduced to what the library
//     decides today: which SidecarSets apply (kruisecore.SidecarsetMatch), the sidecars' resources
//     under a resourcesPolicy (kruisecore.ResourcesSidecar) and their place (kruisecore.ApiSidecarOrder).
//   - a small PUB status loop: every PUB's status recomputed from its pods by kruisecore.PubStatus
//     (what OpenKruise's podunavailablebudget controller does, for selector PUBs).
//
// The decisions are the library's; this program only does what an operator author's webhook does
// around them: TLS, reading the body, fetching the objects the decision needs, writing its result.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	kruisecore "github.com/kruise-core/kruise-core/bindings/go"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

// maxBody bounds a review body (the API server's own request limit is 3 MiB).
const maxBody = 3 << 20

func main() {
	listen := flag.String("listen", "127.0.0.1:9443", "address to serve HTTPS on")
	certFile := flag.String("tls-cert", "", "serving certificate (PEM)")
	keyFile := flag.String("tls-key", "", "serving key (PEM)")
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig of the API server")
	resync := flag.Duration("pub-resync", time.Second, "period of the PUB status loop (0: off)")
	inPlace := flag.Bool("in-place-pod-vertical-scaling", true, "Kruise feature gate InPlacePodVerticalScaling")
	updateGate := flag.Bool("pub-update-gate", true, "Kruise feature gate PodUnavailableBudgetUpdateGate")
	podNsSelector := flag.String("pod-webhook-namespace-selector", "",
		"the namespaceSelector (JSON) of the pod mutating webhook's configuration; empty: the Helm chart's")
	flag.Parse()
	if *certFile == "" || *keyFile == "" || *kubeconfig == "" {
		log.Fatal("--tls-cert, --tls-key and --kubeconfig are required")
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		log.Fatalf("kubeconfig: %v", err)
	}
	var nsSelector *kruisecore.SidecarsetLabelSelector
	if *podNsSelector != "" {
		nsSelector = &kruisecore.SidecarsetLabelSelector{}
		if err := json.Unmarshal([]byte(*podNsSelector), nsSelector); err != nil {
			log.Fatalf("--pod-webhook-namespace-selector: %v", err)
		}
	}
	s := &server{
		kube:  kubernetes.NewForConfigOrDie(cfg),
		dyn:   dynamic.NewForConfigOrDie(cfg),
		gates: kruisecore.PubFeatureGates{InPlacePodVerticalScaling: inPlace, PodUnavailableBudgetUpdateGate: updateGate},

		podWebhookNamespaceSelector: nsSelector,
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *resync > 0 {
		go s.pubStatusLoop(ctx, *resync)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/convert", s.convert)
	mux.HandleFunc("/validate-pod", s.validatePod)
	mux.HandleFunc("/mutate-pod", s.mutatePod)
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok") })
	srv := &http.Server{Addr: *listen, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	// Load the library before serving (the wasm backend compiles its module on first use), so
	// the first review is not the one that pays for it.
	start := time.Now()
	if _, err := kruisecore.FnIDs(); err != nil {
		log.Fatalf("kruise-core: %v", err)
	}
	log.Printf("kruise-core %s (%s backend) loaded in %s", kruisecore.Version(), kruisecore.Backend(), time.Since(start).Round(time.Millisecond))
	log.Printf("serving on https://%s", *listen)
	if err := srv.ListenAndServeTLS(*certFile, *keyFile); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatal(err)
	}
}

type server struct {
	kube  kubernetes.Interface
	dyn   dynamic.Interface
	gates kruisecore.PubFeatureGates
	// the pod mutating webhook configuration's namespaceSelector (nil: the Helm chart's)
	podWebhookNamespaceSelector *kruisecore.SidecarsetLabelSelector
}

// readBody reads a POSTed JSON review; on failure it has answered the client already.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	if r.Method != http.MethodPost {
		httpError(w, http.StatusMethodNotAllowed, "only POST is served")
		return nil, false
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		httpError(w, http.StatusUnsupportedMediaType, fmt.Sprintf("content type %q, want application/json", ct))
		return nil, false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		httpError(w, http.StatusBadRequest, "reading the body: "+err.Error())
		return nil, false
	}
	if len(body) > maxBody {
		httpError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("body over %d bytes", maxBody))
		return nil, false
	}
	return body, true
}

// httpError answers a request that is not a review at all with a metav1.Status.
func httpError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]any{
		"apiVersion": "v1", "kind": "Status", "status": "Failure", "code": code, "message": msg,
	})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		code, b = http.StatusInternalServerError, []byte(`{"apiVersion":"v1","kind":"Status","status":"Failure","code":500,"message":"encoding the response"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write(b)
}

func now() string { return time.Now().UTC().Format(time.RFC3339) }
