package pipelines

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"lifezero/datasets"
	"lifezero/internal/atomicfile"
)

// Status is what became of a stage in a run.
type Status string

const (
	StatusRan       Status = "ran"
	StatusCached    Status = "cached"
	StatusFailed    Status = "failed"
	StatusCancelled Status = "cancelled"
	StatusNotRun    Status = "not run" // an earlier stage failed or was cancelled
)

// Result is the outcome of one stage of a run.
type Result struct {
	Stage    string
	Kind     string
	Status   Status
	Duration time.Duration
	Rows     int64 // rows of the output dataset
	OutDir   string
	Err      error
}

// RunOptions select what a run does.
type RunOptions struct {
	Only  []string // run these stages and what they need (empty: all)
	Force []string // rerun these stages even if their output is cached
}

// Runner runs pipelines in this process, one stage at a time.
type Runner struct {
	Log *slog.Logger // nil: discard
	// NewProgress returns a stage's progress reporter; nil: log lines.
	NewProgress func(stage string, log *slog.Logger) Progress
}

// StateDir is the directory of the workdir where the runner keeps, for each
// stage that has started but not finished, a marker <stage>.json telling a
// later run which input hash the partial work in its output directory belongs
// to. It lives outside the output directories, which hold only dataset files.
const StateDir = "_state"

// ReportDir is the subdirectory of a stage's output directory that holds its
// report section and plots (see package evaluate). The runner removes it
// before the stage runs: a report is always written whole, and a leftover one
// would keep datasets.NewWriter from reusing the directory.
const ReportDir = "report"

type marker struct {
	Stage     string    `json:"stage"`
	Kind      string    `json:"kind"`
	InputHash string    `json:"input_hash"`
	Started   time.Time `json:"started"`
}

// Run runs the planned stages of p in order, skipping those whose cached
// output is current. It stops at the first failure or when ctx is cancelled;
// the results list every planned stage either way.
func (r *Runner) Run(ctx context.Context, p *Pipeline, opts RunOptions) ([]Result, error) {
	plan, err := p.Plan(opts.Only)
	if err != nil {
		return nil, err
	}
	force := map[string]bool{}
	for _, name := range opts.Force {
		if _, ok := p.Stage(name); !ok {
			return nil, fmt.Errorf("pipelines: --force: %s has no stage %q", p.File, name)
		}
		force[name] = true
	}
	if err := os.MkdirAll(p.Workdir, 0o755); err != nil {
		return nil, fmt.Errorf("pipelines: workdir: %w", err)
	}
	log := r.logger()
	outs := map[string]*datasets.Manifest{}
	results := make([]Result, 0, len(plan))
	var runErr error
	for _, st := range plan {
		if runErr != nil {
			results = append(results, Result{Stage: st.Name, Kind: st.Kind.Name, Status: StatusNotRun,
				OutDir: p.OutDir(st.Name)})
			continue
		}
		res, m := r.runStage(ctx, p, st, outs, force[st.Name], log.With("stage", st.Name))
		results = append(results, res)
		if res.Err != nil {
			runErr = fmt.Errorf("stage %q (kind %s): %w", st.Name, st.Kind.Name, res.Err)
			continue
		}
		outs[st.Name] = m
	}
	return results, runErr
}

// OutDir returns the output dataset directory of stage name.
func (p *Pipeline) OutDir(name string) string { return filepath.Join(p.Workdir, name) }

func (r *Runner) logger() *slog.Logger {
	if r.Log != nil {
		return r.Log
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

func (r *Runner) runStage(ctx context.Context, p *Pipeline, st *Stage, outs map[string]*datasets.Manifest,
	force bool, log *slog.Logger) (Result, *datasets.Manifest) {
	dir := p.OutDir(st.Name)
	res := Result{Stage: st.Name, Kind: st.Kind.Name, OutDir: dir}
	start := time.Now()
	fail := func(err error) (Result, *datasets.Manifest) {
		res.Duration = time.Since(start)
		res.Err = err
		res.Status = StatusFailed
		if ctx.Err() != nil {
			res.Status = StatusCancelled
		}
		log.Error("stage "+string(res.Status), "kind", st.Kind.Name, "seconds", res.Duration.Seconds(), "err", err)
		return res, nil
	}
	inputs, err := p.resolveInputs(st, outs)
	if err != nil {
		return fail(err)
	}
	hash, err := InputHash(ctx, st.Kind, st.Params, inputs)
	if err != nil {
		return fail(err)
	}
	if !force {
		m, err := datasets.Verify(dir)
		switch {
		case err == nil && m.InputHash == hash:
			res.Status, res.Rows, res.Duration = StatusCached, m.Rows, time.Since(start)
			log.Info("stage cached", "kind", st.Kind.Name, "rows", m.Rows, "dir", dir)
			return res, m
		case err == nil:
			log.Info("stage config or inputs changed: rerunning", "kind", st.Kind.Name)
		case !errors.Is(err, datasets.ErrNoDataset):
			log.Warn("cached output does not verify: rerunning", "kind", st.Kind.Name, "err", err)
		}
	}
	markerPath := filepath.Join(p.Workdir, StateDir, st.Name+".json")
	if err := prepareOutDir(dir, markerPath, marker{Stage: st.Name, Kind: st.Kind.Name, InputHash: hash}, force, log); err != nil {
		return fail(err)
	}
	env := &Env{
		Pipeline: p.Name, Stage: st.Name, Kind: st.Kind.Name, Params: st.Params, Inputs: inputs,
		OutDir: dir, InputHash: hash, Log: log, Progress: r.progress(st.Name, log),
	}
	log.Info("stage start", "kind", st.Kind.Name, "dir", dir)
	if err := runKind(ctx, st.Kind, env); err != nil {
		return fail(err)
	}
	m, err := datasets.Verify(dir)
	if err != nil {
		return fail(fmt.Errorf("the stage finished without a valid output dataset (a bug in kind %s): %w", st.Kind.Name, err))
	}
	if m.InputHash != hash {
		return fail(fmt.Errorf("the stage wrote a manifest with input hash %q, want %q (use Env.WriteManifest)", m.InputHash, hash))
	}
	os.Remove(markerPath)
	res.Status, res.Rows, res.Duration = StatusRan, m.Rows, time.Since(start)
	log.Info("stage done", "kind", st.Kind.Name, "rows", m.Rows, "seconds", res.Duration.Seconds())
	return res, m
}

func (r *Runner) progress(stage string, log *slog.Logger) Progress {
	if r.NewProgress != nil {
		return r.NewProgress(stage, log)
	}
	return NewLogProgress(log)
}

// runKind runs the kind, turning a panic into an error so that one broken
// stage cannot take the runner (and its summary) down.
func runKind(ctx context.Context, k *Kind, env *Env) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("panic in kind %s: %v\n%s", k.Name, v, debug.Stack())
		}
	}()
	return k.Run(ctx, env)
}

// resolveInputs maps a stage's inputs to directories: an earlier stage's
// output (already verified by this run) or an existing path.
func (p *Pipeline) resolveInputs(st *Stage, outs map[string]*datasets.Manifest) ([]InputRef, error) {
	order := map[string]int{}
	for i, s := range p.order {
		order[s.Name] = i
	}
	refs := make([]InputRef, 0, len(st.Inputs))
	for _, in := range st.Inputs {
		if in.Stage != "" {
			m, ok := outs[in.Stage]
			if !ok { // Plan always includes dependencies: this is a runner bug
				return nil, fmt.Errorf("input stage %q has not run", in.Stage)
			}
			refs = append(refs, InputRef{Stage: in.Stage, Path: p.OutDir(in.Stage), Manifest: m, Order: order[in.Stage]})
			continue
		}
		if _, err := os.Stat(in.Path); err != nil {
			return nil, &Error{File: p.File, Line: in.Line,
				Msg: fmt.Sprintf("stage %q: input %q: %v (paths are relative to the pipeline file)", st.Name, in.Raw, err)}
		}
		ref := InputRef{Path: in.Path, Order: -1}
		if m, err := datasets.ReadManifest(in.Path); err == nil {
			ref.Manifest = m // a dataset given by path
		}
		refs = append(refs, ref)
	}
	return refs, nil
}

// prepareOutDir readies a stage's output directory. Stale complete outputs
// (a manifest with another hash, or one that does not verify) and partial
// work of another config are removed; partial work of this config is kept so
// the stage can resume inside itself. The marker records the config.
func prepareOutDir(dir, markerPath string, mk marker, force bool, log *slog.Logger) error {
	wipe := force
	if _, err := os.Stat(filepath.Join(dir, datasets.ManifestName)); err == nil {
		wipe = true
	} else if old, err := readMarker(markerPath); err == nil && old.InputHash != mk.InputHash {
		log.Info("discarding partial output of another config", "dir", dir)
		wipe = true
	}
	if wipe {
		if err := os.RemoveAll(dir); err != nil {
			return fmt.Errorf("clear output dir: %w", err)
		}
	}
	if err := os.RemoveAll(filepath.Join(dir, ReportDir)); err != nil {
		return fmt.Errorf("clear old report: %w", err)
	}
	for _, d := range []string{dir, filepath.Dir(markerPath)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("output dir: %w", err)
		}
	}
	mk.Started = time.Now().UTC()
	data, err := json.MarshalIndent(mk, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(markerPath, append(data, '\n'))
}

func readMarker(path string) (marker, error) {
	var mk marker
	data, err := os.ReadFile(path)
	if err != nil {
		return mk, err
	}
	err = json.Unmarshal(data, &mk)
	return mk, err
}
