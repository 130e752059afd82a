// Command gencoreshapes prints core/src/api/core_types.rs: the JSON schemas (kruise-core's
// `Shape` language, core/src/api/schema.rs) of the Kubernetes core types that the convertible
// apps.kruise.io kinds embed, read by reflection from k8s.io/api v0.32.10 (the version
// OpenKruise v1.9.0 builds with). Conversion decodes into these Go types and re-encodes them, so
// the schemas say which members survive, which are quantities, times or int-or-strings.
//
// Run from conformance/goref:
//
//	go run ./gencoreshapes > ../../core/src/api/core_types.rs && rustfmt --edition 2024 ../../core/src/api/core_types.rs
package main

import (
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strings"
	"unicode"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// roots are the types the apps.kruise.io schemas (core/src/api/types.rs) refer to.
var roots = []reflect.Type{
	reflect.TypeOf(metav1.ObjectMeta{}),
	reflect.TypeOf(metav1.LabelSelector{}),
	reflect.TypeOf(metav1.OwnerReference{}),
	reflect.TypeOf(corev1.PodTemplateSpec{}),
	reflect.TypeOf(batchv1.JobTemplateSpec{}),
	reflect.TypeOf(corev1.PersistentVolumeClaim{}),
	reflect.TypeOf(corev1.Container{}),
	reflect.TypeOf(corev1.Volume{}),
	reflect.TypeOf(corev1.LocalObjectReference{}),
	reflect.TypeOf(corev1.ObjectReference{}),
	reflect.TypeOf(corev1.ObjectFieldSelector{}),
}

// inlined are the structs another schema inlines (SidecarContainer inlines corev1.Container):
// their member list is a const of its own, <NAME>_FIELDS.
var inlined = map[reflect.Type]bool{reflect.TypeOf(corev1.Container{}): true}

var (
	timeT     = reflect.TypeOf(metav1.Time{})
	quantityT = reflect.TypeOf(resource.Quantity{})
	intstrT   = reflect.TypeOf(intstr.IntOrString{})
	fieldsV1T = reflect.TypeOf(metav1.FieldsV1{})
	rawExtT   = reflect.TypeOf(runtime.RawExtension{})
)

type gen struct {
	done  map[reflect.Type]bool
	busy  map[reflect.Type]bool
	order []reflect.Type
	body  map[reflect.Type]string
}

// constName is the Rust const of a struct type: K8S_<PKG>_<TYPE> in SCREAMING_SNAKE_CASE.
func constName(t reflect.Type) string {
	pkg := t.PkgPath()
	var p string
	switch {
	case strings.HasSuffix(pkg, "/core/v1"):
		p = "CORE"
	case strings.HasSuffix(pkg, "/batch/v1"):
		p = "BATCH"
	case strings.HasSuffix(pkg, "/meta/v1"):
		p = "META"
	default:
		panic("unexpected package " + pkg)
	}
	var b strings.Builder
	rs := []rune(t.Name())
	for i, r := range rs {
		if i > 0 && unicode.IsUpper(r) && (unicode.IsLower(rs[i-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]))) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToUpper(r))
	}
	return p + "_" + b.String()
}

// shape is the Rust expression of a member of type t; ptr says it sits behind a pointer.
func (g *gen) shape(t reflect.Type, ptr bool) string {
	switch t {
	case timeT:
		return "Time"
	case quantityT:
		if ptr {
			return "Quantity"
		}
		return "QuantityValue"
	case intstrT:
		return "IntOrStr"
	case fieldsV1T, rawExtT:
		return "Any"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return g.shape(t.Elem(), true)
	case reflect.String:
		return "Str"
	case reflect.Bool:
		return "Bool"
	case reflect.Int32:
		return "Int32"
	case reflect.Int64, reflect.Int:
		return "Int64"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			panic("[]byte member in " + t.String())
		}
		return "List(&" + g.shape(t.Elem(), false) + ")"
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			panic("map key " + t.Key().String())
		}
		// A null map value decodes to the element's zero value.
		return "Map(&" + g.shape(t.Elem(), false) + ")"
	case reflect.Struct:
		g.visit(t)
		return constName(t)
	case reflect.Interface:
		return "Any"
	}
	panic("unhandled type " + t.String())
}

// fields lists the JSON members of struct t, inlining embedded and `json:",inline"` members.
func (g *gen) fields(t reflect.Type, out *[][2]string, seen map[string]bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" || strings.Contains(","+opts+",", ",inline,") {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() != reflect.Struct {
				panic("inline non-struct in " + t.String())
			}
			g.fields(ft, out, seen)
			continue
		}
		if name == "" {
			name = f.Name
		}
		if seen[name] {
			panic("duplicate member " + name + " in " + t.String())
		}
		seen[name] = true
		*out = append(*out, [2]string{name, g.shape(f.Type, false)})
	}
}

func (g *gen) visit(t reflect.Type) {
	if g.done[t] {
		return
	}
	if g.busy[t] {
		panic("recursive type " + t.String())
	}
	g.busy[t] = true
	var fs [][2]string
	g.fields(t, &fs, map[string]bool{})
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "    (%q, %s),\n", f[0], f[1])
	}
	g.body[t] = b.String()
	g.busy[t] = false
	g.done[t] = true
	g.order = append(g.order, t)
}

func main() { write(os.Stdout) }

// write prints the generated Rust file (before rustfmt) to w.
func write(w io.Writer) {
	g := &gen{done: map[reflect.Type]bool{}, busy: map[reflect.Type]bool{}, body: map[reflect.Type]string{}}
	for _, r := range roots {
		g.visit(r)
	}
	sorted := append([]reflect.Type(nil), g.order...)
	sort.Slice(sorted, func(i, j int) bool { return constName(sorted[i]) < constName(sorted[j]) })
	fmt.Fprint(w, `//! GENERATED by conformance/goref/gencoreshapes from k8s.io/api v0.32.10 and
//! k8s.io/apimachinery v0.32.10 (the versions OpenKruise v1.9.0 builds with); do not edit.
//!
//! The JSON members of the Kubernetes types that the convertible apps.kruise.io kinds embed
//! (pod templates, job templates, volume claim templates, containers, volumes, references,
//! object metadata), as conversion decodes and re-encodes them: members not listed are dropped,
//! quantities are re-printed, times normalised, scalars type-checked (see super::schema).
`)
	fmt.Fprint(w, "\nuse super::schema::Shape::{Any, Bool, Int32, Int64, IntOrStr, List, Map, Obj, Quantity, QuantityValue, Str, Time};\nuse super::schema::{Field, Shape};\n")
	for _, t := range sorted {
		name := constName(t)
		if inlined[t] {
			fmt.Fprintf(w, "\n/// The members of `%s.%s`.\npub const %s_FIELDS: &[Field] = &[\n%s];\n", t.PkgPath(), t.Name(), name, g.body[t])
			fmt.Fprintf(w, "\n/// `%s.%s`.\npub const %s: Shape = Obj(%s_FIELDS);\n", t.PkgPath(), t.Name(), name, name)
			continue
		}
		fmt.Fprintf(w, "\n/// `%s.%s`.\npub const %s: Shape = Obj(&[\n%s]);\n", t.PkgPath(), t.Name(), name, g.body[t])
	}
}
