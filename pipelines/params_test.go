package pipelines

import (
	"testing"

	"gopkg.in/yaml.v3"
)

// An optional (pointer) param lists as its element type, "unset" while
// nil, and a value given in YAML, 0 included, sets it.
func TestOptionalParam(t *testing.T) {
	type params struct {
		Scale *float64 `yaml:"scale"`
	}
	half := 0.5
	for _, tt := range []struct {
		p    params
		want string
	}{{params{}, "unset"}, {params{&half}, "0.5"}} {
		fields, err := ParamFields(tt.p)
		if err != nil {
			t.Fatal(err)
		}
		if len(fields) != 1 || fields[0].Type != "float64" || fields[0].Default != tt.want {
			t.Errorf("%+v: fields %+v, want one float64 defaulting to %s", tt.p, fields, tt.want)
		}
	}
	for _, tt := range []struct {
		src  string
		want *float64
	}{{"{}", nil}, {"{scale: 0}", new(float64)}, {"{scale: 0.5}", &half}} {
		var node yaml.Node
		if err := yaml.Unmarshal([]byte(tt.src), &node); err != nil {
			t.Fatal(err)
		}
		got, err := DecodeStruct(params{}, node.Content[0])
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		s := got.(params).Scale
		if (s == nil) != (tt.want == nil) || (s != nil && *s != *tt.want) {
			t.Errorf("%s: scale %v, want %v", tt.src, s, tt.want)
		}
	}
}
