// Command run is kruise-core's end-to-end test (issue 15): on loopback only, it starts etcd, a
// kube-apiserver and the example webhook (examples/webhook, on the Go binding), installs
// OpenKruise v1.9.0's CRDs with their conversion webhook pointed at the example and the pod
// webhook configurations, and checks that the API server, going through the library's decisions,
// answers as OpenKruise's own webhooks would. Everything it starts is stopped and its temporary
// directory removed on every exit path. scripts/e2e builds the binaries and runs it.
package main

import (
	"context"
	"crypto/tls"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

type options struct {
	apiserver, etcd, webhook, crds, seed, dir string
	timeout                                   time.Duration
	keep                                      bool
}

// env is the running cluster and the clients of the checks.
type env struct {
	opts     options
	dir      string
	ca       *ca
	kube     kubernetes.Interface
	dyn      dynamic.Interface
	cfg      *rest.Config
	hookURL  string // https://127.0.0.1:PORT of the example webhook
	hookHTTP *http.Client
	procs    []*proc
}

func main() {
	var o options
	flag.StringVar(&o.apiserver, "apiserver", "", "kube-apiserver binary")
	flag.StringVar(&o.etcd, "etcd", "etcd", "etcd binary")
	flag.StringVar(&o.webhook, "webhook", "", "examples/webhook binary")
	flag.StringVar(&o.crds, "crds", "", "OpenKruise's config/crd/bases directory")
	flag.StringVar(&o.seed, "seed", "", "the v1alpha1 SidecarSet seed (cli/examples/api/sidecarset.yaml)")
	flag.DurationVar(&o.timeout, "timeout", 8*time.Minute, "bound on the whole run")
	flag.StringVar(&o.dir, "dir", "", "where to make the temporary directory (default: $TMPDIR)")
	flag.BoolVar(&o.keep, "keep", false, "keep the temporary directory (logs, certificates)")
	flag.Parse()
	if o.apiserver == "" || o.webhook == "" || o.crds == "" || o.seed == "" {
		fmt.Fprintln(os.Stderr, "usage: run --apiserver BIN --webhook BIN --crds DIR --seed FILE [--etcd BIN] [--timeout D] [--keep]")
		os.Exit(2)
	}
	os.Exit(runAll(o))
}

func runAll(o options) int {
	ctx, cancel := context.WithTimeout(context.Background(), o.timeout)
	defer cancel()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	r := &report{}
	e := &env{opts: o}
	started := time.Now()
	defer func() {
		e.teardown(r.failed > 0)
		fmt.Printf("%d passed, %d failed\n", r.passed, r.failed)
	}()
	if err := e.setup(ctx); err != nil {
		r.fail("setup", err)
		return 1
	}
	fmt.Printf("setup: etcd, kube-apiserver and the webhook up, CRDs and webhooks installed in %.1fs\n", time.Since(started).Seconds())
	for _, s := range []struct {
		name string
		run  func(context.Context, *env, *report) error
	}{
		{"conversion", checkConversion},
		{"sidecar resources", checkSidecarResources},
		{"pub eviction", checkPubEviction},
		{"pub resize", checkPubResize},
		{"bad requests", checkBadRequests},
	} {
		if ctx.Err() != nil {
			r.fail(s.name, fmt.Errorf("not run: %w", ctx.Err()))
			continue
		}
		if err := s.run(ctx, e, r); err != nil {
			r.fail(s.name+" (aborted)", err)
		}
	}
	fmt.Printf("checks done in %.1fs total\n", time.Since(started).Seconds())
	if r.failed > 0 {
		return 1
	}
	return 0
}

// report counts and prints the checks.
type report struct{ passed, failed int }

func (r *report) check(name string, err error) bool {
	if err != nil {
		r.fail(name, err)
		return false
	}
	r.passed++
	fmt.Printf("PASS  %s\n", name)
	return true
}

func (r *report) fail(name string, err error) {
	r.failed++
	fmt.Printf("FAIL  %s: %v\n", name, err)
}

func (e *env) setup(ctx context.Context) error {
	dir, err := os.MkdirTemp(e.opts.dir, "run-")
	if err != nil {
		return err
	}
	e.dir = dir
	if e.ca, err = newCA(); err != nil {
		return err
	}
	caFile := filepath.Join(dir, "ca.crt")
	if err := os.WriteFile(caFile, e.ca.certPEM, 0o600); err != nil {
		return err
	}

	// etcd on two free loopback ports, its data in the temporary directory.
	clientPort, err := freePort()
	if err != nil {
		return err
	}
	peerPort, err := freePort()
	if err != nil {
		return err
	}
	etcdURL := "http://127.0.0.1:" + strconv.Itoa(clientPort)
	peerURL := "http://127.0.0.1:" + strconv.Itoa(peerPort)
	etcd, err := start(dir, "etcd", e.opts.etcd, "--name=e2e", "--data-dir="+filepath.Join(dir, "etcd"),
		"--listen-client-urls="+etcdURL, "--advertise-client-urls="+etcdURL,
		"--listen-peer-urls="+peerURL, "--initial-advertise-peer-urls="+peerURL,
		"--initial-cluster=e2e="+peerURL, "--logger=zap", "--log-level=warn")
	if err != nil {
		return err
	}
	e.procs = append(e.procs, etcd)
	if err := waitHTTP(ctx, etcd, &http.Client{Timeout: 5 * time.Second}, etcdURL+"/health", 60*time.Second); err != nil {
		return err
	}

	// kube-apiserver: client-certificate authentication, RBAC, the service-account flags it needs.
	apiCertFile, apiKeyFile, err := e.servingCert("apiserver")
	if err != nil {
		return err
	}
	saKey, saPub, err := serviceAccountKeys(dir)
	if err != nil {
		return err
	}
	apiPort, err := freePort()
	if err != nil {
		return err
	}
	apiURL := "https://127.0.0.1:" + strconv.Itoa(apiPort)
	apiserver, err := start(dir, "kube-apiserver", e.opts.apiserver,
		"--etcd-servers="+etcdURL, "--etcd-prefix=/registry",
		"--bind-address=127.0.0.1", "--advertise-address=127.0.0.1", "--secure-port="+strconv.Itoa(apiPort),
		"--tls-cert-file="+apiCertFile, "--tls-private-key-file="+apiKeyFile, "--cert-dir="+filepath.Join(dir, "apiserver-certs"),
		"--client-ca-file="+caFile, "--anonymous-auth=false", "--authorization-mode=RBAC",
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file="+saPub, "--service-account-signing-key-file="+saKey,
		"--service-cluster-ip-range=10.96.0.0/24",
		"--feature-gates=InPlacePodVerticalScaling=true",
		"--enable-priority-and-fairness=false", "--profiling=false", "--v=1")
	if err != nil {
		return err
	}
	e.procs = append(e.procs, apiserver)
	admin, err := writeKubeconfig(filepath.Join(dir, "admin.kubeconfig"), apiURL, e.ca, "e2e-admin", []string{"system:masters"})
	if err != nil {
		return err
	}
	adminCert, err := tls.X509KeyPair(admin.CertData, admin.KeyData)
	if err != nil {
		return err
	}
	if err := waitHTTP(ctx, apiserver, tlsClient(e.ca.certPEM, &adminCert), apiURL+"/readyz", 180*time.Second); err != nil {
		return err
	}
	admin.QPS, admin.Burst = 100, 200
	e.cfg = admin
	if e.kube, err = kubernetes.NewForConfig(admin); err != nil {
		return err
	}
	if e.dyn, err = dynamic.NewForConfig(admin); err != nil {
		return err
	}

	// The example webhook: its own serving certificate and a user with only the rights it needs.
	if err := e.grantWebhook(ctx); err != nil {
		return fmt.Errorf("webhook RBAC: %w", err)
	}
	hookKubeconfig := filepath.Join(dir, "webhook.kubeconfig")
	if _, err := writeKubeconfig(hookKubeconfig, apiURL, e.ca, webhookUser, nil); err != nil {
		return err
	}
	hookCertFile, hookKeyFile, err := e.servingCert("webhook")
	if err != nil {
		return err
	}
	hookPort, err := freePort()
	if err != nil {
		return err
	}
	e.hookURL = "https://127.0.0.1:" + strconv.Itoa(hookPort)
	hook, err := start(dir, "webhook", e.opts.webhook, "--listen=127.0.0.1:"+strconv.Itoa(hookPort),
		"--tls-cert="+hookCertFile, "--tls-key="+hookKeyFile, "--kubeconfig="+hookKubeconfig,
		"--pod-webhook-namespace-selector="+podWebhookNamespaceSelectorJSON)
	if err != nil {
		return err
	}
	e.procs = append(e.procs, hook)
	e.hookHTTP = tlsClient(e.ca.certPEM, nil)
	if err := waitHTTP(ctx, hook, e.hookHTTP, e.hookURL+"/healthz", 60*time.Second); err != nil {
		return err
	}

	if err := e.installCRDs(ctx); err != nil {
		return fmt.Errorf("CRDs: %w", err)
	}
	if err := e.installWebhooks(ctx); err != nil {
		return fmt.Errorf("webhook configurations: %w", err)
	}
	return nil
}

// servingCert writes a loopback serving certificate of the run's CA and its key, dir/name.{crt,key}.
func (e *env) servingCert(name string) (certFile, keyFile string, err error) {
	certPEM, keyPEM, err := e.ca.issue(name, nil, true)
	if err != nil {
		return "", "", err
	}
	certFile, keyFile = filepath.Join(e.dir, name+".crt"), filepath.Join(e.dir, name+".key")
	if err := os.WriteFile(certFile, certPEM, 0o600); err != nil {
		return "", "", err
	}
	return certFile, keyFile, os.WriteFile(keyFile, keyPEM, 0o600)
}

// teardown stops the processes in reverse order and removes the temporary directory; on failure
// it first prints the end of each log.
func (e *env) teardown(failed bool) {
	for i := len(e.procs) - 1; i >= 0; i-- {
		p := e.procs[i]
		p.stop()
		if failed {
			fmt.Printf("---- last lines of %s's log\n%s\n", p.name, indent(p.tail(25)))
		}
	}
	if e.dir == "" {
		return
	}
	if e.opts.keep {
		fmt.Printf("kept %s\n", e.dir)
		return
	}
	_ = os.RemoveAll(e.dir)
}

func indent(s string) string { return "    " + strings.ReplaceAll(s, "\n", "\n    ") }
