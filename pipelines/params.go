package pipelines

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// ParamError is an error in a stage's params. Line is the YAML line (0 when
// unknown: the loader then uses the params' or the stage's line); Key is the
// param's key, dotted for nested structs.
type ParamError struct {
	Line    int
	Key     string
	Msg     string
	Unknown bool // Key is not a param of the kind; Msg lists the known ones
}

func (e *ParamError) Error() string {
	switch {
	case e.Unknown:
		return fmt.Sprintf("unknown param %q (%s)", e.Key, e.Msg)
	case e.Key == "":
		return e.Msg
	default:
		return fmt.Sprintf("param %q: %s", e.Key, e.Msg)
	}
}

// ParamField documents one param of a kind.
type ParamField struct {
	Key     string // dotted for nested structs
	Type    string
	Default string // the default value, as YAML would write it; "unset" for a nil pointer (an optional param)
	Help    string // the field's "help" struct tag
	index   []int
	typ     reflect.Type
}

// ParamFields lists the params of a params struct (or pointer to one), in
// field order. Nested structs appear as their own entry (their fields are
// checked by DecodeStruct when given as a mapping).
func ParamFields(params any) ([]ParamField, error) {
	v := reflect.ValueOf(params)
	for v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil, fmt.Errorf("params must be a struct, not %T", params)
	}
	return structFields(v, nil)
}

func structFields(v reflect.Value, index []int) ([]ParamField, error) {
	var out []ParamField
	t := v.Type()
	seen := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" {
			continue
		}
		idx := append(append([]int(nil), index...), i)
		if strings.Contains(opts, "inline") {
			if f.Type.Kind() != reflect.Struct {
				return nil, fmt.Errorf("field %s: inline needs a struct", f.Name)
			}
			inner, err := structFields(v.Field(i), idx)
			if err != nil {
				return nil, err
			}
			out = append(out, inner...)
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name) // yaml.v3's default key
		}
		if seen[name] {
			return nil, fmt.Errorf("field %s: key %q used twice", f.Name, name)
		}
		seen[name] = true
		// A pointer param is optional: unset, its default depends on
		// other params, which its help says.
		typeName, def := f.Type.String(), yamlValue(v.Field(i).Interface())
		if f.Type.Kind() == reflect.Pointer {
			typeName = f.Type.Elem().String()
			if v.Field(i).IsNil() {
				def = "unset"
			}
		}
		out = append(out, ParamField{
			Key:     name,
			Type:    typeName,
			Default: def,
			Help:    f.Tag.Get("help"),
			index:   idx,
			typ:     f.Type,
		})
	}
	return out, nil
}

func yamlValue(x any) string {
	b, err := yaml.Marshal(x)
	if err != nil {
		return fmt.Sprint(x)
	}
	return strings.TrimSpace(string(b))
}

// DecodeStruct decodes a params mapping onto a copy of defaults (a struct) and
// returns the copy (same type as defaults). A nil or null node gives the
// defaults. Every key must be one of the struct's yaml keys: unknown and
// repeated keys, and values of the wrong type, are *ParamError values (joined
// when several) naming the line and the key. If the struct, or a pointer to it,
// has a method Validate() error, it is called last; a *ParamError it returns
// with a Key but no Line gets that key's line.
func DecodeStruct(defaults any, node *yaml.Node) (any, error) {
	dv := reflect.ValueOf(defaults)
	if dv.Kind() != reflect.Struct {
		return nil, fmt.Errorf("pipelines: params defaults must be a struct, not %T", defaults)
	}
	ptr := reflect.New(dv.Type())
	ptr.Elem().Set(dv)
	lines := map[string]int{}
	if node != nil && !isNull(node) {
		if err := decodeMapping(ptr.Elem(), node, "", lines); err != nil {
			return nil, err
		}
	}
	if v, ok := ptr.Interface().(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return nil, placeParamError(err, node, lines)
		}
	}
	return ptr.Elem().Interface(), nil
}

func placeParamError(err error, node *yaml.Node, lines map[string]int) error {
	var pe *ParamError
	if !errors.As(err, &pe) {
		pe = &ParamError{Msg: err.Error()}
	}
	if pe.Line == 0 {
		pe.Line = lines[pe.Key]
	}
	if pe.Line == 0 && node != nil {
		pe.Line = node.Line
	}
	return pe
}

func decodeMapping(v reflect.Value, node *yaml.Node, prefix string, lines map[string]int) error {
	if node.Kind != yaml.MappingNode {
		key := strings.TrimSuffix(prefix, ".")
		return &ParamError{Line: node.Line, Key: key, Msg: "want a mapping of key: value, got " + nodeKindName(node)}
	}
	fields, err := structFields(v, nil)
	if err != nil {
		return fmt.Errorf("pipelines: params struct %s: %w", v.Type(), err)
	}
	byKey := make(map[string]ParamField, len(fields))
	var known []string
	for _, f := range fields {
		byKey[f.Key] = f
		known = append(known, f.Key)
	}
	var errs []error
	seen := map[string]int{}
	for i := 0; i+1 < len(node.Content); i += 2 {
		k, val := node.Content[i], node.Content[i+1]
		name := prefix + k.Value
		f, ok := byKey[k.Value]
		switch {
		case k.Kind != yaml.ScalarNode:
			errs = append(errs, &ParamError{Line: k.Line, Msg: "param keys must be plain names"})
			continue
		case !ok:
			errs = append(errs, &ParamError{Line: k.Line, Key: name, Unknown: true, Msg: knownList(known)})
			continue
		case seen[k.Value] != 0:
			errs = append(errs, &ParamError{Line: k.Line, Key: name, Msg: fmt.Sprintf("given twice (first on line %d)", seen[k.Value])})
			continue
		}
		seen[k.Value] = k.Line
		lines[name] = k.Line
		fv := v.FieldByIndex(f.index)
		if fv.Kind() == reflect.Struct && val.Kind == yaml.MappingNode {
			if err := decodeMapping(fv, val, name+".", lines); err != nil {
				errs = append(errs, err)
			}
			continue
		}
		fv.Set(reflect.Zero(fv.Type())) // a given value replaces the default, maps included
		if frac := fractionForInt(fv.Type(), val); frac != nil {
			errs = append(errs, &ParamError{Line: frac.Line, Key: name, Msg: frac.Value + " is not a whole number"})
			continue
		}
		if err := val.Decode(fv.Addr().Interface()); err != nil {
			errs = append(errs, &ParamError{Line: val.Line, Key: name, Msg: yamlErrorText(err)})
		}
	}
	return errors.Join(errs...)
}

// fractionForInt returns the first number of n with a fraction where type t
// wants an integer (in t itself, or its elements or map values), or nil.
// yaml.v3 would truncate it silently (10.7 becomes 10); a number written
// with a point but no fraction (10.0, 1e3) decodes as it should.
func fractionForInt(t reflect.Type, n *yaml.Node) *yaml.Node {
	n = resolve(n)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!float" {
			return nil
		}
		var f float64
		if err := n.Decode(&f); err != nil || f != math.Trunc(f) {
			return n
		}
	case reflect.Slice, reflect.Array:
		if n.Kind == yaml.SequenceNode {
			for _, c := range n.Content {
				if bad := fractionForInt(t.Elem(), c); bad != nil {
					return bad
				}
			}
		}
	case reflect.Map:
		if n.Kind == yaml.MappingNode {
			for i := 1; i < len(n.Content); i += 2 {
				if bad := fractionForInt(t.Elem(), n.Content[i]); bad != nil {
					return bad
				}
			}
		}
	}
	return nil
}

func knownList(known []string) string {
	if len(known) == 0 {
		return "this kind takes no params"
	}
	return "known: " + strings.Join(known, ", ")
}

var yamlLinePrefix = regexp.MustCompile(`^(yaml: )?line \d+: `)

// yamlErrorText strips yaml.v3's "line N:" prefixes: the caller places the
// error at its own line.
func yamlErrorText(err error) string {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs := make([]string, len(te.Errors))
		for i, m := range te.Errors {
			msgs[i] = yamlLinePrefix.ReplaceAllString(m, "")
		}
		return strings.Join(msgs, "; ")
	}
	return yamlLinePrefix.ReplaceAllString(err.Error(), "")
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

func nodeKindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		if isNull(n) {
			return "nothing"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "a document"
}
