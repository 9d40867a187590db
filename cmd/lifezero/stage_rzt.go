package main

import (
	"context"
	"fmt"
	"time"

	"lifezero/datasets"
	"lifezero/evaluate"
	"lifezero/pipelines"
)

// rztFile is the rzt stage's data file: a row per problem as JSON.
const rztFile = "rzt.json"

// rztOptions are the rzt stage's params (it has no command).
type rztOptions struct {
	Budget    int    `yaml:"budget" help:"most nodes per solve (each problem is solved twice); the papers' limit is 500000"`
	Evaluator string `yaml:"evaluator" help:"move ordering, one of the solve stage's evaluators (default ldb, with its FPU reduction)"`
	Timeout   string `yaml:"timeout" help:"stop each solve after this long, a Go duration such as 5m (empty: no limit)"`
}

// defaultRZTOptions are the solve stage's budget and ldb, the evaluator
// its results were measured with (docs/results/rzs.md), with its FPU
// reduction (the one search's default, ldb-nakade without the reduction,
// came later: docs/results/tsumego.md, session 28).
func defaultRZTOptions() rztOptions {
	return rztOptions{Budget: evaluate.DefaultSolveBudget, Evaluator: evaluate.DefaultLeadEvaluator}
}

// Validate catches bad params when the pipeline is loaded, at their line.
func (p *rztOptions) Validate() error {
	_, err := p.config()
	return err
}

func (p *rztOptions) config() (evaluate.SolveConfig, error) {
	cfg := evaluate.SolveConfig{Algo: evaluate.AlgoMCTS, Budget: p.Budget, Evaluator: p.Evaluator}
	if p.Budget <= 0 {
		return cfg, &pipelines.ParamError{Key: "budget", Msg: fmt.Sprintf("%d: must be positive", p.Budget)}
	}
	if p.Timeout != "" {
		d, err := time.ParseDuration(p.Timeout)
		if err != nil || d <= 0 {
			return cfg, &pipelines.ParamError{Key: "timeout", Msg: fmt.Sprintf("%q: want a positive Go duration such as 30s or 5m", p.Timeout)}
		}
		cfg.Timeout = d
	}
	if err := cfg.Validate(); err != nil {
		return cfg, &pipelines.ParamError{Key: "evaluator", Msg: err.Error()}
	}
	return cfg, nil
}

func rztKind() pipelines.Kind {
	return pipelines.Kind{
		Name: "rzt",
		Doc: "Solves the L&D problems of its path inputs without and with the RZ pattern table (mcts form), the table's " +
			"traffic also replayed through the linear and no-timestamp settings, and reports paper 000's Tables III/IV " +
			"(simulations, entries, lookups, hits, comparisons, cost) beside the paper's figures and its Fig. 4 (traversal " +
			"cost of LR-NT, LR-TS, TR-NT, TR-TS per problem).",
		Version:     2, // 2: the ldb evaluator counts eye shapes (session 22)
		Params:      defaultRZTOptions(),
		CheckInputs: pathInputs,
		Run:         runRZT,
	}
}

func runRZT(ctx context.Context, env *pipelines.Env) error {
	p, err := pipelines.ParamsAs[rztOptions](env)
	if err != nil {
		return err
	}
	cfg, err := p.config()
	if err != nil {
		return err
	}
	var paths []string
	for _, in := range env.Inputs {
		paths = append(paths, in.Path)
	}
	tasks, err := loadSolveTasks(paths)
	if err != nil {
		return err
	}
	rows, err := collectRows(env, len(tasks), func(emit func(evaluate.RZTRow) error) error {
		return evaluate.RZTProblems(ctx, tasks, cfg, emit)
	})
	if err != nil {
		return err
	}
	if err := writeRowsJSON(env, rztFile, rows); err != nil {
		return err
	}
	settings := fmt.Sprintf("Solver: mcts, one thread, %s evaluator, budget %d nodes per solve.", p.Evaluator, p.Budget)
	if err := evaluate.WriteRZTSection(env.OutDir, settings, rows); err != nil {
		return err
	}
	e, err := env.FileEntry(rztFile, int64(len(rows)))
	if err != nil {
		return err
	}
	return env.WriteManifest(&datasets.Manifest{Kind: evaluate.RZTResultsKind, SchemaVersion: 1, Files: []datasets.FileEntry{e}})
}
