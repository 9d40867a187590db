package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"lifezero/evaluate"
	"lifezero/pipelines"
)

// withSolveShards makes the solve kind shardable ("shards: N"): shard i
// solves the problems k with k%N == i of the stage's problem list, and the
// merge interleaves the shards' rows back into the list's order. Each
// problem is solved on its own, so N shards give the rows one piece would
// (but for the seconds). Run through Temporal, the shards solve on as many
// workers.
func withSolveShards(k pipelines.Kind) pipelines.Kind {
	run := k.Run
	k.Run = func(ctx context.Context, env *pipelines.Env) error {
		sp, ok := env.Params.(solveShardParams)
		if !ok {
			return run(ctx, env)
		}
		inputs, err := shardProblemInputs(env, sp.Shard, sp.Of)
		if err != nil {
			return err
		}
		inner := *env
		inner.Params, inner.Inputs = sp.solveOptions, inputs
		return run(ctx, &inner)
	}
	k.Shard = &pipelines.Sharding{
		Params: func(params any, i, n int) (any, error) {
			p, ok := params.(solveOptions)
			if !ok {
				return nil, fmt.Errorf("solve shards: params are %T", params)
			}
			return solveShardParams{solveOptions: p, Shard: i, Of: n}, nil
		},
		Merge: mergeSolveShards,
	}
	return k
}

// solveShardParams are the params of one shard of a solve stage.
type solveShardParams struct {
	solveOptions
	Shard, Of int
}

// shardProblemInputs returns the stage's inputs with the problem paths
// replaced by copies of the shard's problems, in a scratch directory beside
// the shard's output: <scratch>/<input>/<set>/<file>, so that each problem
// keeps its set (its directory's name) and its source (set/file).
func shardProblemInputs(env *pipelines.Env, shard, of int) ([]pipelines.InputRef, error) {
	scratch := filepath.Join(filepath.Dir(env.OutDir), fmt.Sprintf(".problems-%d-of-%d", shard, of))
	if err := os.RemoveAll(scratch); err != nil {
		return nil, err
	}
	var out []pipelines.InputRef
	k, mine := 0, 0
	for j, in := range env.Inputs {
		if in.Stage != "" {
			out = append(out, in)
			continue
		}
		tasks, err := loadSolveTasks([]string{in.Path})
		if err != nil {
			return nil, err
		}
		dir := filepath.Join(scratch, fmt.Sprint(j))
		for _, t := range tasks {
			if k%of == shard {
				dst := filepath.Join(dir, t.Set, filepath.Base(t.Problem.Source))
				if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
					return nil, err
				}
				if err := copyFile(t.Problem.Source, dst); err != nil {
					return nil, err
				}
				mine++
			}
			k++
		}
		sets, err := os.ReadDir(dir)
		if err != nil && !os.IsNotExist(err) {
			return nil, err
		}
		for _, s := range sets {
			out = append(out, pipelines.InputRef{Path: filepath.Join(dir, s.Name()), Order: -1})
		}
	}
	if mine == 0 {
		return nil, fmt.Errorf("%d problems cannot be split into %d shards: lower shards", k, of)
	}
	return out, nil
}

// mergeSolveShards writes the stage's solve results: the shards' rows,
// interleaved back into the problem list's order.
func mergeSolveShards(ctx context.Context, env *pipelines.Env, shards []string) error {
	parts := make([][]evaluate.SolveRow, len(shards))
	total := 0
	for i, dir := range shards {
		rows, _, err := evaluate.ReadSolveResults(ctx, dir)
		if err != nil {
			return fmt.Errorf("shard %d: %w", i+1, err)
		}
		parts[i] = rows
		total += len(rows)
	}
	rows := make([]evaluate.SolveRow, 0, total)
	for k := 0; k < total; k++ {
		i, j := k%len(parts), k/len(parts)
		if j >= len(parts[i]) {
			return fmt.Errorf("shard %d holds %d rows, want at least %d (the shards were not split by problem index)", i+1, len(parts[i]), j+1)
		}
		rows = append(rows, parts[i][j])
	}
	_, err := evaluate.WriteSolveResults(ctx, env.OutDir, rows, env.Manifest(evaluate.SolveResultsKind, evaluate.SolveResultsSchemaVersion))
	return err
}
