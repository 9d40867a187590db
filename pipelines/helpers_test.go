package pipelines

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"lifezero/datasets"
)

// testParams are the params of the test kinds.
type testParams struct {
	Rows   int      `yaml:"rows" help:"lines to write"`
	Tag    string   `yaml:"tag"`
	Fail   bool     `yaml:"fail"`
	Labels []string `yaml:"labels"`
	Inner  struct {
		Depth int `yaml:"depth"`
	} `yaml:"inner"`
}

func (p *testParams) Validate() error {
	if p.Rows < 0 {
		return &ParamError{Key: "rows", Msg: fmt.Sprintf("must be >= 0, got %d", p.Rows)}
	}
	return nil
}

// world records which stages ran, and lets tests make a stage block.
type world struct {
	mu    sync.Mutex
	runs  map[string]int
	block map[string]chan struct{} // stage -> closed when it has started blocking
}

func newWorld() *world {
	return &world{runs: map[string]int{}, block: map[string]chan struct{}{}}
}

func (w *world) count(stage string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.runs[stage]
}

// registry returns kinds "emit" (writes Rows lines, from its inputs'
// content plus the tag) and "noparams".
func (w *world) registry(t testing.TB) *Registry {
	t.Helper()
	emit := Kind{
		Name: "emit", Doc: "writes lines", Version: 1,
		Params: testParams{Rows: 2, Tag: "x"},
		Run: func(ctx context.Context, env *Env) error {
			p, err := ParamsAs[testParams](env)
			if err != nil {
				return err
			}
			w.mu.Lock()
			w.runs[env.Stage]++
			started := w.block[env.Stage]
			w.mu.Unlock()
			var b strings.Builder
			for _, in := range env.Inputs {
				b.WriteString(readInput(in))
			}
			for i := 0; i < p.Rows; i++ {
				fmt.Fprintf(&b, "%s %s %d\n", env.Stage, p.Tag, i)
			}
			// Partial work first: a resumed run finds it.
			partial := filepath.Join(env.OutDir, "partial.txt")
			old, _ := os.ReadFile(partial)
			if err := os.WriteFile(partial, append(old, "attempt\n"...), 0o644); err != nil {
				return err
			}
			if started != nil {
				close(started)
				if os.Getenv(helperEnv) != "" {
					select {} // killed from outside
				}
				<-ctx.Done()
				return ctx.Err()
			}
			if p.Fail {
				return errors.New("asked to fail")
			}
			if err := os.WriteFile(filepath.Join(env.OutDir, "data.txt"), []byte(b.String()), 0o644); err != nil {
				return err
			}
			fe, err := env.FileEntry("data.txt", int64(strings.Count(b.String(), "\n")))
			if err != nil {
				return err
			}
			return env.WriteManifest(&datasets.Manifest{Kind: "lines", SchemaVersion: 1, Files: []datasets.FileEntry{fe}})
		},
	}
	noparams := Kind{Name: "noparams", Run: emit.Run}
	reg, err := NewRegistry(emit, noparams)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func readInput(in InputRef) string {
	if in.Stage != "" {
		b, _ := os.ReadFile(filepath.Join(in.Path, "data.txt"))
		return string(b)
	}
	b, _ := os.ReadFile(in.Path)
	return string(b)
}

// writePipeline writes a pipeline file (and an input file "in.txt") into a
// temp dir and returns the pipeline file's path.
func writePipeline(t testing.TB, dir, yml string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte("input line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "pipeline.yaml")
	if err := os.WriteFile(path, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func statuses(results []Result) map[string]Status {
	m := map[string]Status{}
	for _, r := range results {
		m[r.Stage] = r.Status
	}
	return m
}
