package testdata

import (
	"reflect"
	"strings"
	"testing"
)

// CheckHashCoversFields checks that hash, the input hash of options opts
// (a struct), changes when any field that is not tagged json:"-" changes
// (each field of a nested struct, each alone), and stays put when a
// tagged one does. It changes fields by reflection, so a field added to
// the options later is covered without the test naming it: a new option
// that shapes a build's output is in the cache key unless its author opts
// it out. Fields of a kind it cannot change (funcs, pointers) must be
// tagged json:"-".
func CheckHashCoversFields[T any](t *testing.T, opts T, hash func(T) string) {
	t.Helper()
	base := hash(opts)
	if again := hash(opts); again != base {
		t.Fatalf("hash of the same options differs: %s then %s", base, again)
	}
	typ := reflect.TypeFor[T]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		if !f.IsExported() {
			continue
		}
		ignored := strings.Split(f.Tag.Get("json"), ",")[0] == "-"
		for _, path := range changeablePaths(f.Type, []int{i}) {
			changed := opts
			v := reflect.ValueOf(&changed).Elem().FieldByIndex(path)
			if !change(v) {
				if !ignored {
					t.Errorf("field %s (%s) is hashed but of a kind this check cannot change; tag it json:\"-\" or teach change", fieldName(typ, path), v.Type())
				}
				continue
			}
			got := hash(changed)
			switch {
			case ignored && got != base:
				t.Errorf("field %s is tagged json:\"-\" but changes the hash", fieldName(typ, path))
			case !ignored && got == base:
				t.Errorf("changing field %s leaves the hash %s: a cached build would be reused for different options", fieldName(typ, path), base)
			}
		}
	}
}

// changeablePaths lists the field index paths under a field of type t: the
// field itself, or each exported field of a struct.
func changeablePaths(t reflect.Type, path []int) [][]int {
	if t.Kind() != reflect.Struct {
		return [][]int{path}
	}
	var paths [][]int
	for i := range t.NumField() {
		if t.Field(i).IsExported() {
			paths = append(paths, changeablePaths(t.Field(i).Type, append(append([]int(nil), path...), i))...)
		}
	}
	return paths
}

// change sets v to a different value; false when its kind is not handled.
func change(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(v.Uint() + 1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(v.Float() + 1)
	case reflect.Slice:
		v.Set(reflect.Append(v, reflect.Zero(v.Type().Elem())))
	default:
		return false
	}
	return true
}

func fieldName(t reflect.Type, path []int) string {
	var names []string
	for _, i := range path {
		f := t.Field(i)
		names = append(names, f.Name)
		t = f.Type
	}
	return strings.Join(names, ".")
}
