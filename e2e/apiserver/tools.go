//go:build tools

// Package apiserver only pins the kube-apiserver build: scripts/e2e runs
// `go build k8s.io/kubernetes/cmd/kube-apiserver` in this module.
package apiserver

import _ "k8s.io/kubernetes/cmd/kube-apiserver"
