package pipelines

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"lifezero/datasets"
	"lifezero/internal/atomicfile"
	"lifezero/internal/dirlock"
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
const ReportDir = datasets.ReportDir

type marker struct {
	Stage     string    `json:"stage"`
	Kind      string    `json:"kind"`
	InputHash string    `json:"input_hash"`
	Started   time.Time `json:"started"`
	// OwnsDir says the runner made the output directory (it did not exist,
	// was empty or was a dataset it cleared), so whatever is in it without a
	// manifest is this stage's partial work, which a later run may delete.
	// Markers written before the field existed prove nothing.
	OwnsDir bool `json:"owns_dir"`
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
	// One run at a time per workdir: two would clear each other's stage
	// directories. The OS lock dies with the process (kill -9 included).
	lock, err := dirlock.Acquire(p.Workdir)
	if err != nil {
		return nil, fmt.Errorf("pipelines: work directory %w", err)
	}
	defer lock.Release()
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
		res, m := r.runStage(ctx, p, st, outs, force[st.Name], force[st.Name], log.With("stage", st.Name))
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

// runStage runs one stage whose input stages' manifests are in outs.
// forceShards reruns the cached shards of a sharded stage (see execute).
func (r *Runner) runStage(ctx context.Context, p *Pipeline, st *Stage, outs map[string]*datasets.Manifest,
	force, forceShards bool, log *slog.Logger) (Result, *datasets.Manifest) {
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
	hash, err := stageHash(ctx, st, inputs)
	if err != nil {
		return fail(err)
	}
	if !force {
		m, err := datasets.Verify(dir)
		switch {
		case err == nil && m.InputHash == hash:
			// A run killed between the stage's manifest and sealReport,
			// or a dataset made before manifests listed reports, has its
			// report unlisted: list it now, so that later edits are caught.
			if m.Report == nil {
				if err := sealReport(dir, m); err != nil {
					return fail(err)
				}
			}
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
	if err := r.execute(ctx, p, st, env, forceShards); err != nil {
		return fail(err)
	}
	m, err := datasets.Verify(dir)
	if err != nil {
		return fail(fmt.Errorf("the stage finished without a valid output dataset (a bug in kind %s): %w", st.Kind.Name, err))
	}
	if m.InputHash != hash {
		return fail(fmt.Errorf("the stage wrote a manifest with input hash %q, want %q (use Env.WriteManifest)", m.InputHash, hash))
	}
	if err := sealReport(dir, m); err != nil {
		return fail(err)
	}
	os.Remove(markerPath)
	removeShards(p, st, log)
	res.Status, res.Rows, res.Duration = StatusRan, m.Rows, time.Since(start)
	log.Info("stage done", "kind", st.Kind.Name, "rows", m.Rows, "seconds", res.Duration.Seconds())
	return res, m
}

// sealReport lists the files of the stage output's report directory in its
// manifest (Manifest.Report), so that Verify catches an edited, added or
// removed report file. The runner does it, not the kinds, because stages
// write their report section after their data's manifest. It rewrites the
// manifest only when there is a report to list.
func sealReport(dir string, m *datasets.Manifest) error {
	entries, err := datasets.ReportEntries(dir)
	if err != nil {
		return fmt.Errorf("list the report: %w", err)
	}
	if len(entries) == 0 && len(m.Report) == 0 {
		return nil
	}
	m.Report = entries
	if err := datasets.WriteManifest(dir, m); err != nil {
		return fmt.Errorf("list the report in the manifest: %w", err)
	}
	return nil
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
//
// It deletes or writes into only a directory that is lifezero's (see
// outDirOwned): anything else at the stage's output path, a folder of source
// data when the workdir is a data folder or a stage is named like its input
// folder, is refused with an error naming it, with or without --force.
func prepareOutDir(dir, markerPath string, mk marker, force bool, log *slog.Logger) error {
	old, oldErr := readMarker(markerPath)
	hasManifest, err := outDirOwned(dir, old.OwnsDir && oldErr == nil)
	if err != nil {
		return err
	}
	wipe := force || hasManifest
	if !wipe && oldErr == nil && old.InputHash != mk.InputHash {
		log.Info("discarding partial output of another config", "dir", dir)
		wipe = true
	}
	if wipe {
		if err := os.RemoveAll(dir); err != nil {
			return fmt.Errorf("clear output dir: %w", err)
		}
	}
	// The marker claims the directory before it is made, so a kill in
	// between leaves at worst a claim on a directory that does not exist.
	if err := os.MkdirAll(filepath.Dir(markerPath), 0o755); err != nil {
		return fmt.Errorf("output dir: %w", err)
	}
	mk.Started = time.Now().UTC()
	mk.OwnsDir = true
	data, err := json.MarshalIndent(mk, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(markerPath, append(data, '\n')); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("output dir: %w", err)
	}
	if err := checkWritable(dir); err != nil {
		return err
	}
	if err := os.RemoveAll(filepath.Join(dir, ReportDir)); err != nil {
		return fmt.Errorf("clear old report: %w", err)
	}
	return nil
}

// outDirOwned checks that the stage output directory dir is lifezero's to
// delete and write into, and says whether it holds a manifest. It is when
//   - it does not exist;
//   - it holds a manifest (_manifest.json): a dataset, current, stale or
//     corrupt, which only lifezero writes;
//   - the stage's marker says the runner made it (marked), so what is in it
//     is the partial work of an interrupted run of the stage;
//   - it is empty, or holds only the temp files of interrupted atomic
//     writes (".<name>.tmp…"), which nobody but a writer of it could miss.
//
// Anything else is refused with an error that names the directory and one
// of its entries: deleting it could destroy data lifezero never wrote.
func outDirOwned(dir string, marked bool) (hasManifest bool, err error) {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("output dir: %w", err)
	case !fi.IsDir():
		return false, fmt.Errorf("stage output %s exists and is not a directory; refusing to replace it "+
			"(move it away, or choose another --workdir or stage name)", dir)
	}
	if fi, err := os.Stat(filepath.Join(dir, datasets.ManifestName)); err == nil && fi.Mode().IsRegular() {
		return true, nil
	}
	if marked {
		return false, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false, fmt.Errorf("output dir: %w", err)
	}
	for _, e := range entries {
		if !isTempFile(e) {
			return false, fmt.Errorf("stage output folder %s holds %q and is no lifezero dataset (no %s) nor partial work "+
				"of this stage; refusing to delete or write into it: move it away, or choose another --workdir or stage name",
				dir, e.Name(), datasets.ManifestName)
		}
	}
	return false, nil
}

// isTempFile reports whether e is the temp file of an interrupted atomic
// write (atomicfile, the Arrow file writer, the model and SGF writers).
func isTempFile(e fs.DirEntry) bool {
	return e.Type().IsRegular() && strings.HasPrefix(e.Name(), ".") && strings.Contains(e.Name(), ".tmp")
}

// checkWritable fails early, naming dir, when files cannot be made there,
// rather than after the stage has done its work.
func checkWritable(dir string) error {
	f, err := atomicfile.CreateTemp(dir, ".write-check.tmp-*")
	if err != nil {
		return fmt.Errorf("stage output folder %s is not writable: %w", dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
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
