package pipelines

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse feeds the pipeline parser arbitrary YAML, seeded from the
// repository's pipeline.yaml and the test pipelines: no input may panic,
// every error must be an *Error placed at a line of the file, and what
// parses must be a usable graph (every stage with a kind, all in the order).
func FuzzParse(f *testing.F) {
	reg := newWorld().registry(f)
	data, err := os.ReadFile(filepath.Join("..", "pipeline.yaml"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(goodPipeline))
	f.Add([]byte("name: x\nstages:\n  s:\n    kind: emit\n    params:\n      rows: 10.7\n      labels: [a, b]\n      inner: {depth: 2}\n"))
	f.Add([]byte("name: x\nstages:\n  a: &a\n    kind: emit\n  b: *a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse("pipeline.yaml", data, reg)
		if err != nil {
			errs := []error{err}
			if j, ok := err.(interface{ Unwrap() []error }); ok {
				errs = j.Unwrap()
			}
			for _, e := range errs {
				var pe *Error
				if !errors.As(e, &pe) || pe.File != "pipeline.yaml" || pe.Line < 1 {
					t.Fatalf("error %q (%T) is not an *Error at a line of pipeline.yaml", e, e)
				}
			}
			return
		}
		if len(p.Stages) == 0 || len(p.Order()) != len(p.Stages) {
			t.Fatalf("%d stages, %d in order", len(p.Stages), len(p.Order()))
		}
		for _, st := range p.Stages {
			if st.Kind == nil {
				t.Fatalf("stage %q without a kind", st.Name)
			}
		}
	})
}
