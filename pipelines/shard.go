package pipelines

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"

	"gopkg.in/yaml.v3"

	"lifezero/datasets"
)

// Sharding splits a kind's work into independent shards. A stage with
// "shards: N" runs the kind N times, each with the params Params gives for
// its shard, into its own dataset under ShardsDir, then Merge writes the
// stage's one dataset from them. The split is part of the stage's input
// hash: a kind may give each shard its own seed, so N shards need not
// reproduce the unsplit output, but the same N always gives the same
// dataset, whichever machine ran which shard.
type Sharding struct {
	// Params returns the params of shard i (0-based) of n, from the stage's
	// decoded params; an error (say, fewer games than shards) fails the
	// stage with the error naming it.
	Params func(params any, i, n int) (any, error)
	// Merge writes env.OutDir's dataset, manifest last (Env.WriteManifest),
	// from the shards' verified datasets, given in shard order.
	Merge func(ctx context.Context, env *Env, shards []string) error
}

// ShardsDir is the directory of the workdir that holds the shard datasets
// of sharded stages while they run: <workdir>/_shards/<stage>/<i>-of-<n>/.
// The runner removes a stage's shards once its merged dataset is sealed.
const ShardsDir = "_shards"

// MaxShards bounds a stage's shards param.
const MaxShards = 4096

// ShardDir returns the output directory of shard i of n of stage name.
func (p *Pipeline) ShardDir(name string, i, n int) string {
	return filepath.Join(p.Workdir, ShardsDir, name, fmt.Sprintf("%d-of-%d", i, n))
}

// shards parses a stage's shards key: a positive integer, above 1 only for
// a shardable kind.
func (ps *parser) shards(st *Stage, n *yaml.Node, where string) int {
	v, err := strconv.Atoi(n.Value)
	if n.Kind != yaml.ScalarNode || err != nil || v < 1 || v > MaxShards {
		ps.add(n.Line, "%sshards must be a whole number from 1 to %d, got %q", where, MaxShards, n.Value)
		return 0
	}
	if v > 1 && st.Kind.Shard == nil {
		ps.add(n.Line, "%sshards: kind %s cannot be split (its work is one piece); remove the key or set it to 1",
			where, st.Kind.Name)
		return 0
	}
	return v
}

// stageHash is the stage's input hash: InputHash, and the number of shards
// when there are several (one shard hashes as before sharding existed, so
// cached outputs stay valid).
func stageHash(ctx context.Context, st *Stage, inputs []InputRef) (string, error) {
	h, err := InputHash(ctx, st.Kind, st.Params, inputs)
	if err != nil || st.Shards <= 1 {
		return h, err
	}
	return datasets.SubHash(h, fmt.Sprintf("shards %d", st.Shards)), nil
}

// shardHash is the input hash of shard i of n of a stage whose hash is h.
func shardHash(h string, i, n int) string {
	return datasets.SubHash(h, fmt.Sprintf("shard %d of %d", i, n))
}

// execute runs the stage's kind into env.OutDir: directly, or, for a
// sharded stage, shard by shard (each skipped when cached, so a killed run
// resumes at the first unfinished shard) and then the merge. forceShards
// reruns cached shards.
func (r *Runner) execute(ctx context.Context, p *Pipeline, st *Stage, env *Env, forceShards bool) error {
	if st.Shards <= 1 {
		return runKind(ctx, st.Kind, env)
	}
	dirs := make([]string, st.Shards)
	for i := range st.Shards {
		dir, err := r.runShard(ctx, p, st, env.Inputs, env.InputHash, i, forceShards, env.Log)
		if err != nil {
			return err
		}
		dirs[i] = dir
	}
	return runMerge(ctx, st.Kind, env, dirs)
}

// runShard runs shard i of stage st, whose input hash is hash, unless its
// verified output is current, and returns its directory.
func (r *Runner) runShard(ctx context.Context, p *Pipeline, st *Stage, inputs []InputRef, hash string, i int,
	force bool, log *slog.Logger) (string, error) {
	n := st.Shards
	dir := p.ShardDir(st.Name, i, n)
	h := shardHash(hash, i, n)
	log = log.With("shard", fmt.Sprintf("%d/%d", i+1, n))
	if !force {
		if m, err := datasets.Verify(dir); err == nil && m.InputHash == h {
			log.Info("shard cached", "rows", m.Rows)
			return dir, nil
		}
	}
	params, err := st.Kind.Shard.Params(st.Params, i, n)
	if err != nil {
		return "", fmt.Errorf("shard %d of %d: %w", i+1, n, err)
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", fmt.Errorf("shard %d of %d: %w", i+1, n, err)
	}
	markerPath := filepath.Join(p.Workdir, StateDir, fmt.Sprintf("%s.shard-%d-of-%d.json", st.Name, i, n))
	if err := prepareOutDir(dir, markerPath, marker{Stage: st.Name, Kind: st.Kind.Name, InputHash: h}, force, log); err != nil {
		return "", fmt.Errorf("shard %d of %d: %w", i+1, n, err)
	}
	env := &Env{
		Pipeline: p.Name, Stage: st.Name, Kind: st.Kind.Name, Params: params, Inputs: inputs,
		OutDir: dir, InputHash: h, Log: log, Progress: r.progress(st.Name, log),
	}
	log.Info("shard start", "kind", st.Kind.Name, "dir", dir)
	if err := runKind(ctx, st.Kind, env); err != nil {
		return "", fmt.Errorf("shard %d of %d: %w", i+1, n, err)
	}
	m, err := datasets.Verify(dir)
	if err != nil {
		return "", fmt.Errorf("shard %d of %d finished without a valid dataset (a bug in kind %s): %w", i+1, n, st.Kind.Name, err)
	}
	if m.InputHash != h {
		return "", fmt.Errorf("shard %d of %d wrote input hash %q, want %q (use Env.WriteManifest)", i+1, n, m.InputHash, h)
	}
	os.Remove(markerPath)
	log.Info("shard done", "rows", m.Rows)
	return dir, nil
}

// runMerge runs the kind's merge, turning a panic into an error as runKind
// does.
func runMerge(ctx context.Context, k *Kind, env *Env, dirs []string) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("panic in the merge of kind %s: %v", k.Name, v)
		}
	}()
	return k.Shard.Merge(ctx, env, dirs)
}

// removeShards deletes the shard datasets of a stage once its merged
// dataset is sealed; a failure only leaves disk space used.
func removeShards(p *Pipeline, st *Stage, log *slog.Logger) {
	if st.Shards <= 1 {
		return
	}
	if err := os.RemoveAll(filepath.Join(p.Workdir, ShardsDir, st.Name)); err != nil {
		log.Warn("could not remove the shard datasets", "err", err)
	}
}
