package pipelines

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const goodPipeline = `name: demo
description: a test pipeline
stages:
  a:
    kind: emit
    inputs: [in.txt]
    params:
      rows: 3
      tag: alpha
  b:
    kind: emit
    inputs: [stage:a]
  c:
    kind: emit
    inputs:
      - stage:b
      - stage:a
  d:
    kind: noparams
`

func TestParseGood(t *testing.T) {
	reg := newWorld().registry(t)
	p, err := Parse("dir/pipeline.yaml", []byte(goodPipeline), reg)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "demo" || p.Description != "a test pipeline" {
		t.Errorf("name %q description %q", p.Name, p.Description)
	}
	if want := filepath.Join("dir", "runs", "demo"); p.Workdir != want {
		t.Errorf("workdir %q, want %q", p.Workdir, want)
	}
	a, _ := p.Stage("a")
	got := a.Params.(testParams)
	if got.Rows != 3 || got.Tag != "alpha" {
		t.Errorf("a params %+v", got)
	}
	b, _ := p.Stage("b")
	if bp := b.Params.(testParams); bp.Rows != 2 || bp.Tag != "x" {
		t.Errorf("b params %+v, want the defaults", bp)
	}
	if a.Inputs[0].Path != filepath.Join("dir", "in.txt") || a.Inputs[0].Line != 6 {
		t.Errorf("a input %+v", a.Inputs[0])
	}
	c, _ := p.Stage("c")
	if len(c.Inputs) != 2 || c.Inputs[0].Stage != "b" || c.Inputs[1].Stage != "a" || c.Inputs[1].Line != 17 {
		t.Errorf("c inputs %+v", c.Inputs)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, yaml string
		want       []string // every one must appear in the error
	}{
		{"unknown param", `name: x
stages:
  import:
    kind: emit
    params:
      rows: 1
      max_game: 10
`, []string{`pipeline.yaml:7: stage "import": unknown param "max_game" (known: rows, tag, fail, labels, inner)`}},
		{"nested unknown param", `name: x
stages:
  s:
    kind: emit
    params:
      inner:
        depth: 2
        deep: 1
`, []string{`pipeline.yaml:8: stage "s": unknown param "inner.deep" (known: depth)`}},
		{"param type", `name: x
stages:
  s:
    kind: emit
    params:
      rows: many
`, []string{`pipeline.yaml:6: stage "s": param "rows": cannot unmarshal !!str ` + "`many`" + ` into int`}},
		// Issue 12, item 7: yaml.v3 truncates a float into an int field.
		{"param fraction into int", `name: x
stages:
  s:
    kind: emit
    params:
      rows: 10.7
`, []string{`pipeline.yaml:6: stage "s": param "rows": 10.7 is not a whole number`}},
		{"nested param fraction into int", `name: x
stages:
  s:
    kind: emit
    params:
      inner: {depth: -2.5}
`, []string{`pipeline.yaml:6: stage "s": param "inner.depth": -2.5 is not a whole number`}},
		{"param validate", `name: x
stages:
  s:
    kind: emit
    params:
      tag: t
      rows: -4
`, []string{`pipeline.yaml:7: stage "s": param "rows": must be >= 0, got -4`}},
		{"param twice", `name: x
stages:
  s:
    kind: emit
    params:
      rows: 1
      rows: 2
`, []string{`pipeline.yaml:7: stage "s": param "rows": given twice (first on line 6)`}},
		{"params not a mapping", `name: x
stages:
  s:
    kind: emit
    params: [1, 2]
`, []string{`pipeline.yaml:5: stage "s": want a mapping of key: value, got a list`}},
		{"params on a kind without params", `name: x
stages:
  s:
    kind: noparams
    params:
      rows: 1
`, []string{`pipeline.yaml:6: stage "s": kind "noparams" takes no params`}},
		{"unknown kind", `name: x
stages:
  s:
    kind: emitt
`, []string{`pipeline.yaml:4: stage "s": unknown kind "emitt" (kinds: emit, noparams)`}},
		{"missing kind", `name: x
stages:
  s:
    inputs: [in.txt]
`, []string{`pipeline.yaml:4: stage "s": missing required key "kind" in the stage`}},
		{"unknown stage key", `name: x
stages:
  s:
    kind: emit
    input: [in.txt]
`, []string{`pipeline.yaml:5: stage "s": unknown key "input" in the stage (known: kind, doc, inputs, params, shards)`}},
		{"unknown input stage", `name: x
stages:
  a:
    kind: emit
  b:
    kind: emit
    inputs: [stage:a, stage:c]
`, []string{`pipeline.yaml:7: stage "b": input "stage:c" names no stage of this pipeline (stages: a, b)`}},
		{"empty stage input", `name: x
stages:
  a:
    kind: emit
    inputs:
      - "stage:"
`, []string{`pipeline.yaml:6: stage "a": input "stage:" names no stage`}},
		{"cycle", `name: x
stages:
  a:
    kind: emit
    inputs: [stage:c]
  b:
    kind: emit
    inputs: [stage:a]
  c:
    kind: emit
    inputs: [stage:b]
`, []string{`pipeline.yaml:3: stage "a": inputs form a cycle: a -> c -> b -> a`}},
		{"self cycle", `name: x
stages:
  a:
    kind: emit
    inputs: [stage:a]
`, []string{`pipeline.yaml:3: stage "a": inputs form a cycle: a -> a`}},
		{"duplicate stage", `name: x
stages:
  a:
    kind: emit
  a:
    kind: noparams
`, []string{`pipeline.yaml:5: "a" given twice in stages (first on line 3)`}},
		{"bad stage name", `name: x
stages:
  "a b":
    kind: emit
`, []string{`pipeline.yaml:3: stage "a b": the name must be letters`}},
		{"stage not a mapping", `name: x
stages:
  a: emit
`, []string{`pipeline.yaml:3: stage "a": the stage must be a mapping, got "emit"`}},
		{"inputs a mapping", `name: x
stages:
  a:
    kind: emit
    inputs: {x: 1}
`, []string{`pipeline.yaml:5: stage "a": inputs must be a list`}},
		{"missing name", `stages:
  a:
    kind: emit
`, []string{`pipeline.yaml:1: missing required key "name" in the pipeline`}},
		{"missing stages", `name: x
`, []string{`pipeline.yaml:1: missing required key "stages" in the pipeline`}},
		{"empty stages", `name: x
stages: {}
`, []string{`pipeline.yaml:2: stages is empty`}},
		{"unknown top key", `name: x
stage:
  a:
    kind: emit
`, []string{`pipeline.yaml:2: unknown key "stage" in the pipeline (known: name, description, workdir, stages)`,
			`pipeline.yaml:1: missing required key "stages"`}},
		{"bad yaml", "name: x\nstages:\n  a:\n    kind: emit\n   bad: [\n", []string{`pipeline.yaml:`, `invalid YAML`}},
		{"empty file", "", []string{`pipeline.yaml:1: empty pipeline file`}},
		{"not a mapping", "- a\n- b\n", []string{`pipeline.yaml:1: the pipeline must be a mapping, got a list`}},
		{"several errors", `name: x
stages:
  a:
    kind: emit
    params: {rowz: 1}
  b:
    kind: nope
`, []string{`pipeline.yaml:5: stage "a": unknown param "rowz"`, `pipeline.yaml:7: stage "b": unknown kind "nope"`}},
	}
	reg := newWorld().registry(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("pipeline.yaml", []byte(tt.yaml), reg)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error\n  %v\nwant it to contain\n  %s", err, w)
				}
			}
		})
	}
}

func TestOrderAndPlan(t *testing.T) {
	yml := `name: x
stages:
  report:
    kind: emit
    inputs: [stage:train, stage:import]
  train:
    kind: emit
    inputs: [stage:features]
  import:
    kind: emit
  features:
    kind: emit
    inputs: [stage:import]
  lone:
    kind: emit
`
	p, err := Parse("pipeline.yaml", []byte(yml), newWorld().registry(t))
	if err != nil {
		t.Fatal(err)
	}
	names := func(stages []*Stage) []string {
		var out []string
		for _, s := range stages {
			out = append(out, s.Name)
		}
		return out
	}
	if got, want := names(p.Order()), []string{"import", "features", "train", "report", "lone"}; !reflect.DeepEqual(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	for _, tt := range []struct {
		only []string
		want []string
	}{
		{nil, []string{"import", "features", "train", "report", "lone"}},
		{[]string{"train"}, []string{"import", "features", "train"}},
		{[]string{"lone", "features"}, []string{"import", "features", "lone"}},
		{[]string{"import"}, []string{"import"}},
	} {
		plan, err := p.Plan(tt.only)
		if err != nil {
			t.Fatal(err)
		}
		if got := names(plan); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Plan(%v) = %v, want %v", tt.only, got, tt.want)
		}
	}
	if _, err := p.Plan([]string{"nope"}); err == nil || !strings.Contains(err.Error(), `no stage "nope"`) {
		t.Errorf("Plan(nope) error %v", err)
	}
}

// TestLoadNotARegularFile: issue 12, item 4. A pipeline file that is a
// device (or a symlink to one) was read until memory ran out.
func TestLoadNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "pipeline.yaml")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	txt := filepath.Join(dir, "pipeline.txt")
	if err := os.WriteFile(txt, []byte(goodPipeline), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := newWorld().registry(t)
	for path, want := range map[string]string{
		link:        "pipelines: " + link + ": not a regular file (it is a character device)",
		"/dev/zero": "pipelines: /dev/zero: want a .yaml or .yml file",
		txt:         "pipelines: " + txt + ": want a .yaml or .yml file",
	} {
		if _, err := Load(path, reg); err == nil || err.Error() != want {
			t.Errorf("Load(%s): error %v, want %q", path, err, want)
		}
	}
}
