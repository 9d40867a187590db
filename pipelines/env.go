package pipelines

import (
	"fmt"
	"log/slog"
	"path/filepath"

	"lifezero/datasets"
)

// Env is what a running stage gets from the runner.
type Env struct {
	Pipeline  string // the pipeline's name
	Stage     string // the stage's name
	Kind      string
	Params    any        // decoded params (see Kind.Params)
	Inputs    []InputRef // in the order the pipeline file lists them
	OutDir    string     // the stage's output dataset directory; exists when Run starts
	InputHash string     // what the output manifest's InputHash must be
	Log       *slog.Logger
	Progress  Progress
}

// InputRef is a resolved stage input.
type InputRef struct {
	Stage    string // producing stage; "" for a path input
	Path     string // the producing stage's output directory, or the input path
	Manifest *datasets.Manifest
	// Order is the producing stage's position in the pipeline's run order
	// (-1 for a path input), so a stage can treat its inputs in pipeline order.
	Order int
}

// Kind is the kind of the input's dataset ("" for a path input, or an
// output without a manifest).
func (r InputRef) Kind() string {
	if r.Manifest == nil {
		return ""
	}
	return r.Manifest.Kind
}

// WriteManifest writes m as the stage's output manifest, with m.Stage and
// m.InputHash set from the env. Call it last: it makes the output a dataset.
func (e *Env) WriteManifest(m *datasets.Manifest) error {
	m.Stage = e.Stage
	m.InputHash = e.InputHash
	return datasets.WriteManifest(e.OutDir, m)
}

// Manifest returns a manifest of the given dataset kind with Stage and
// InputHash set, for datasets.Writer.Commit.
func (e *Env) Manifest(kind string, schemaVersion int) datasets.Manifest {
	return datasets.Manifest{Kind: kind, SchemaVersion: schemaVersion, Stage: e.Stage, InputHash: e.InputHash}
}

// FileEntry describes the file name (relative to OutDir) for a manifest,
// hashing it.
func (e *Env) FileEntry(name string, rows int64) (datasets.FileEntry, error) {
	sha, size, err := datasets.HashFile(filepath.Join(e.OutDir, name))
	if err != nil {
		return datasets.FileEntry{}, fmt.Errorf("stage %q: %w", e.Stage, err)
	}
	return datasets.FileEntry{Name: filepath.ToSlash(name), Rows: rows, Bytes: size, SHA256: sha}, nil
}

// ParamsAs returns env.Params as a T, or an error naming the stage if the
// kind's decoder produced another type (a bug in the kind).
func ParamsAs[T any](env *Env) (T, error) {
	p, ok := env.Params.(T)
	if !ok {
		var zero T
		return zero, fmt.Errorf("stage %q (kind %s): params are %T, want %T", env.Stage, env.Kind, env.Params, zero)
	}
	return p, nil
}
