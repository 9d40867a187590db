package pipelines

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"lifezero/datasets"
	"lifezero/internal/dirlock"
)

// The functions of this file serve a distributed runner (package cluster):
// a scheduler that runs each stage, or each shard of a sharded stage, as a
// separate unit of work, possibly on another machine sharing the workdir.
// Each unit reads its input stages' datasets from the workdir, so a unit runs
// only after the units it needs have finished; the caching, the resume of
// partial work and the manifests are the local runner's.

// StagePlan is a stage as a distributed runner schedules it.
type StagePlan struct {
	Name   string   `json:"name"`
	Kind   string   `json:"kind"`
	Deps   []string `json:"deps"`   // stages whose outputs it reads, in input order
	Shards int      `json:"shards"` // 1 when it is not split
}

// Schedule returns the planned stages (see Plan) in run order, with their
// dependencies and shard counts.
func (p *Pipeline) Schedule(only []string) ([]StagePlan, error) {
	plan, err := p.Plan(only)
	if err != nil {
		return nil, err
	}
	out := make([]StagePlan, len(plan))
	for i, st := range plan {
		sp := StagePlan{Name: st.Name, Kind: st.Kind.Name, Deps: []string{}, Shards: max(st.Shards, 1)}
		for _, d := range st.deps {
			sp.Deps = append(sp.Deps, d.Name)
		}
		out[i] = sp
	}
	return out, nil
}

// StageCached reports whether stage name's output is current: its manifest
// verifies and records the input hash its inputs give now. Its input
// stages must be finished.
func (r *Runner) StageCached(ctx context.Context, p *Pipeline, name string) (bool, Result, error) {
	st, inputs, err := p.diskInputs(name)
	if err != nil {
		return false, Result{}, err
	}
	res := Result{Stage: st.Name, Kind: st.Kind.Name, OutDir: p.OutDir(st.Name)}
	hash, err := stageHash(ctx, st, inputs)
	if err != nil {
		return false, res, err
	}
	m, err := datasets.Verify(res.OutDir)
	if err != nil || m.InputHash != hash {
		return false, res, nil
	}
	res.Status, res.Rows = StatusCached, m.Rows
	return true, res, nil
}

// RunStage runs stage name as Run would (skipped when cached unless force),
// its input stages being finished. For a sharded stage it runs the shards not
// yet done, one after another, then merges them; a distributed runner runs
// them first, in parallel, with RunShard. It holds the stage's lock (see
// LockStage) meanwhile, not the workdir's: other stages may run at once.
func (r *Runner) RunStage(ctx context.Context, p *Pipeline, name string, force bool) (Result, error) {
	st, _, err := p.diskInputs(name)
	if err != nil {
		return Result{Stage: name, Status: StatusFailed, Err: err}, err
	}
	lock, err := p.LockStage(ctx, name)
	if err != nil {
		return Result{Stage: name, Kind: st.Kind.Name, Status: StatusFailed, Err: err}, err
	}
	defer lock.Release()
	outs, err := p.depManifests(st)
	if err != nil {
		return Result{Stage: name, Kind: st.Kind.Name, Status: StatusFailed, Err: err}, err
	}
	res, _ := r.runStage(ctx, p, st, outs, force, false, r.logger().With("stage", st.Name))
	if res.Err != nil {
		return res, fmt.Errorf("stage %q (kind %s): %w", st.Name, st.Kind.Name, res.Err)
	}
	return res, nil
}

// RunShard runs shard i (0-based) of sharded stage name unless its output is
// cached (or force), under the shard's own lock, and returns its directory.
func (r *Runner) RunShard(ctx context.Context, p *Pipeline, name string, i int, force bool) (string, error) {
	st, inputs, err := p.diskInputs(name)
	if err != nil {
		return "", err
	}
	if st.Shards <= 1 || i < 0 || i >= st.Shards {
		return "", fmt.Errorf("pipelines: stage %q has %d shard(s), no shard %d", name, max(st.Shards, 1), i+1)
	}
	lock, err := p.LockStage(ctx, fmt.Sprintf("%s.shard-%d-of-%d", name, i, st.Shards))
	if err != nil {
		return "", err
	}
	defer lock.Release()
	hash, err := stageHash(ctx, st, inputs)
	if err != nil {
		return "", err
	}
	log := r.logger().With("stage", st.Name)
	dir, err := r.runShard(ctx, p, st, inputs, hash, i, force, log)
	if err != nil {
		return "", fmt.Errorf("stage %q (kind %s): %w", st.Name, st.Kind.Name, err)
	}
	return dir, nil
}

// LocksDir is the directory of the workdir holding one lock directory per
// stage (and per shard) that a distributed runner works on.
const LocksDir = "_locks"

// LockWait is how long LockStage waits for a unit's lock held elsewhere.
const LockWait = 2 * time.Minute

// LockStage takes the lock of one unit of work (a stage or "STAGE.shard-I-of-N")
// in the workdir: an OS file lock that dies with its process, so a worker
// killed mid-stage leaves the unit free for a retry, while a slow worker
// still at it keeps a second one from clearing its output under it. It
// waits up to LockWait for a holder to let go: a scheduler that gave up on
// a worker which is in fact alive retries the unit elsewhere while the first
// attempt is still being cancelled.
func (p *Pipeline) LockStage(ctx context.Context, unit string) (*dirlock.Lock, error) {
	dir := filepath.Join(p.Workdir, LocksDir, unit)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("pipelines: lock %s: %w", unit, err)
	}
	deadline := time.Now().Add(LockWait)
	for {
		l, err := dirlock.Acquire(dir)
		var busy *dirlock.BusyError
		switch {
		case err == nil:
			return l, nil
		case !errors.As(err, &busy) || time.Now().After(deadline):
			return nil, fmt.Errorf("pipelines: stage %w", err)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// diskInputs returns stage name and its inputs, resolved against the
// verified datasets of its input stages in the workdir.
func (p *Pipeline) diskInputs(name string) (*Stage, []InputRef, error) {
	st, ok := p.Stage(name)
	if !ok {
		return nil, nil, fmt.Errorf("pipelines: %s has no stage %q (stages: %v)", p.File, name, p.stageNames())
	}
	outs, err := p.depManifests(st)
	if err != nil {
		return nil, nil, err
	}
	inputs, err := p.resolveInputs(st, outs)
	return st, inputs, err
}

// depManifests verifies the outputs of the stages st reads.
func (p *Pipeline) depManifests(st *Stage) (map[string]*datasets.Manifest, error) {
	outs := map[string]*datasets.Manifest{}
	for _, d := range st.deps {
		m, err := datasets.Verify(p.OutDir(d.Name))
		if err != nil {
			return nil, fmt.Errorf("stage %q: input stage %q has no finished output: %w", st.Name, d.Name, err)
		}
		outs[d.Name] = m
	}
	return outs, nil
}
