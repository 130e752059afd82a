//go:build goref_overlay

// A fake cluster for the tests that run a reference controller pass or webhook (pub.status,
// pub.admit, pub.validate, cron.decide, api.delete_protection): controller-runtime's fake client
// with OpenKruise's scheme and OpenKruise's own field indexes (pkg/util/fieldindex).
package goref

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"

	kruiseapis "github.com/openkruise/kruise/apis"
	"github.com/openkruise/kruise/pkg/util/fieldindex"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
)

func init() {
	klog.SetLogger(logr.Discard()) // the reference logs at error level for bad images etc.
	ctrllog.SetLogger(logr.Discard())
}

var (
	fakeSchemeOnce sync.Once
	fakeScheme     *runtime.Scheme
	fakeIndexes    []fakeIndex
)

type fakeIndex struct {
	obj   client.Object
	field string
	fn    client.IndexerFunc
}

// indexCollector is the part of a cache.Cache that fieldindex.RegisterFieldIndexes uses: it
// records the indexes so every fake client gets them.
type indexCollector struct{ cache.Cache }

func (indexCollector) IndexField(_ context.Context, obj client.Object, field string, fn client.IndexerFunc) error {
	fakeIndexes = append(fakeIndexes, fakeIndex{obj, field, fn})
	return nil
}

func kruiseScheme() *runtime.Scheme {
	fakeSchemeOnce.Do(func() {
		s := runtime.NewScheme()
		if err := clientgoscheme.AddToScheme(s); err != nil {
			panic(err)
		}
		if err := kruiseapis.AddToScheme(s); err != nil {
			panic(err)
		}
		fakeScheme = s
		if err := fieldindex.RegisterFieldIndexes(indexCollector{}); err != nil {
			panic(err)
		}
	})
	return fakeScheme
}

// newFakeClient is a fake client holding objs, with OpenKruise's field indexes, the status
// subresource for the given kinds, and the interceptors (may be zero).
func newFakeClient(t testing.TB, objs []client.Object, status []client.Object) *fake.ClientBuilder {
	t.Helper()
	b := fake.NewClientBuilder().WithScheme(kruiseScheme()).WithObjects(objs...).WithStatusSubresource(status...)
	for _, ix := range fakeIndexes {
		b = b.WithIndex(ix.obj, ix.field, ix.fn)
	}
	return b
}

// answer is what the differential comparisons read as kruise-core's answer: the binding, or, in
// the reference checks of the vector tests, the vector's expected answer (the same comparison
// then checks that the reference gives every vector's answer; the reference wins).
var answer = ours

// withVectorAnswer makes answer return c's expectation while f runs.
func withVectorAnswer(c vectorCase, f func()) {
	saved := answer
	answer = func(string, any) (json.RawMessage, string, error) {
		if c.ExpectError != "" {
			return nil, c.ExpectError, nil
		}
		return c.Expect, "", nil
	}
	defer func() { answer = saved }()
	f()
}
