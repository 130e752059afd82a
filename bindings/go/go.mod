module github.com/kruise-core/kruise-core/bindings/go

go 1.24
