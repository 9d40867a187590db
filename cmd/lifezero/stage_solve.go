package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"lifezero/evaluate"
	"lifezero/neteval"
	"lifezero/pipelines"
	"lifezero/train"
	"lifezero/tsumego"
)

func solveKind() pipelines.Kind {
	return pipelines.Kind{
		Name: "solve",
		Doc: "Solves the L&D problems of its path inputs (problem directories or .json/.sgf files) by " +
			"relevance-zone based search, ordered by the newest network input (a train stage) when there is " +
			"one and by the evaluator param otherwise, its move priors reweighted by a tsumego-train input " +
			"when there is one (with two and a portfolio, the members alternate between them), and writes a solve-results dataset (per problem: result from the " +
			"living side's view, first move, nodes, seconds, RZ size, TT and table hits, settings, the " +
			"papers' node counts) with a report section: per problem set a table beside the papers' " +
			"columns, solved counts, and plots of our nodes against the papers' and of solved counts.",
		// 2: the ldb evaluator counts eye shapes (session 22), and the
		// dataset records each result's search settings, proving member
		// and reason (schema version 2). 3: a portfolio's members after
		// the first search with ldb-noshapes by default (session 24). 4:
		// one search defaults to ldb-nakade without the FPU reduction
		// (session 28). 5: a portfolio's member 3 drops the FPU reduction
		// with the depth discount (session 29). 6: by default, the members
		// that drop the first's depth discount search with ldb-nakade
		// (session 30; at the default settings, portfolios of two and
		// three are unchanged).
		Version:     6,
		Params:      defaultSolveOptions(),
		CheckInputs: solveInputs,
		Run:         runSolve,
	}
}

func runSolve(ctx context.Context, env *pipelines.Env) error {
	p, err := pipelines.ParamsAs[solveOptions](env)
	if err != nil {
		return err
	}
	cfg, err := p.config()
	if err != nil {
		return err
	}
	paths, netIn, rankersIn, err := splitSolveInputs(env.Inputs)
	if err != nil {
		return err
	}
	for i, in := range rankersIn {
		load, role := loadSolveRanker, "features model"
		if i == 1 {
			load, role = loadPortfolioRanker, "the portfolio's second model"
		}
		if err := load(&cfg, in.Path); err != nil {
			return fmt.Errorf("input stage:%s: %w", in.Stage, err)
		}
		env.Log.Info("priors from a tsumego model", "model", in.Stage, "as", role)
	}
	if err := paramError(cfg.ValidateModels()); err != nil {
		return err
	}
	if netIn != nil {
		file, _, err := train.NetworkPath(netIn.Path)
		if err == nil {
			err = loadSolveNet(&cfg, file, p.NetMode)
		}
		if err != nil {
			return fmt.Errorf("input stage:%s: %w", netIn.Stage, err)
		}
		env.Log.Info("searching with a network", "network", netIn.Stage, "mode", p.NetMode)
	}
	tasks, err := loadSolveTasks(paths)
	if err != nil {
		return err
	}
	rows, err := collectRows(env, len(tasks), func(emit func(evaluate.SolveRow) error) error {
		return evaluate.SolveProblems(ctx, tasks, cfg, func(s evaluate.Solved) error {
			env.Log.Debug("solved", "problem", s.Row.Source, "result", s.Row.Result, "nodes", s.Row.Nodes, "seconds", s.Row.Seconds)
			return emit(s.Row)
		})
	})
	if err != nil {
		return err
	}
	solved := 0
	for i := range rows {
		if rows[i].Solved() {
			solved++
		}
	}
	env.Log.Info("problems solved", "solved", solved, "of", len(rows))
	_, err = evaluate.WriteSolveResults(ctx, env.OutDir, rows, env.Manifest(evaluate.SolveResultsKind, evaluate.SolveResultsSchemaVersion))
	return err
}

// solveInputs checks the inputs of a solve stage: at least one problem path,
// and stage inputs only for networks (checked by kind when the stage runs).
func solveInputs(inputs []pipelines.Input) error {
	for _, in := range inputs {
		if in.Stage == "" {
			return nil
		}
	}
	return errors.New("no problem path: list problem directories or .json/.sgf files (stage inputs give only the network or the tsumego model)")
}

// splitSolveInputs returns the problem paths, the newest network input and
// the tsumego model inputs in the order listed: none, one (the features
// model), or two (the second alternates with the first among a
// portfolio's members). Any other stage input, or a third model, is an
// error.
func splitSolveInputs(inputs []pipelines.InputRef) (paths []string, netIn *pipelines.InputRef, rankersIn []*pipelines.InputRef, err error) {
	for i, in := range inputs {
		switch {
		case in.Stage == "":
			paths = append(paths, in.Path)
		case in.Kind() == train.NetworkKind:
			netIn = newerInput(netIn, &inputs[i])
		case in.Kind() == tsumegoModelKind && len(rankersIn) < 2:
			rankersIn = append(rankersIn, &inputs[i])
		case in.Kind() == tsumegoModelKind:
			return nil, nil, nil, fmt.Errorf("input stage:%s: a third %q input; solve reads at most two (the features model, and the portfolio's second model)",
				in.Stage, tsumegoModelKind)
		default:
			return nil, nil, nil, fmt.Errorf("input stage:%s is a %q dataset; solve reads problem paths, %q and %q stages",
				in.Stage, in.Kind(), train.NetworkKind, tsumegoModelKind)
		}
	}
	return paths, netIn, rankersIn, nil
}

// loadSolveNet sets cfg to search with the network weights file, read in
// the neteval mode named modeName (the solve and the stage share it).
func loadSolveNet(cfg *evaluate.SolveConfig, file, modeName string) error {
	mode, err := neteval.ParseMode(modeName)
	if err != nil {
		return err
	}
	ev, err := neteval.Load(file, mode)
	if err != nil {
		return err
	}
	cfg.Net, cfg.NetCheck, cfg.NetName = ev, ev.Check, "net-"+mode.String()
	return nil
}

// loadSolveRanker sets cfg to reweight its move priors by the tsumego
// model in dir.
func loadSolveRanker(cfg *evaluate.SolveConfig, dir string) error {
	r, _, err := tsumego.LoadRanker(dir)
	if err != nil {
		return err
	}
	cfg.Ranker, cfg.RankerName = r, "tsumego"
	return nil
}

// loadPortfolioRanker sets cfg's portfolio to alternate between its
// ranker and the tsumego model in dir, named in proofs' settings by the
// directory's name.
func loadPortfolioRanker(cfg *evaluate.SolveConfig, dir string) error {
	r, _, err := tsumego.LoadRanker(dir)
	if err != nil {
		return err
	}
	cfg.PortfolioRanker, cfg.PortfolioRankerName = r, filepath.Base(filepath.Clean(dir))
	if err := cfg.Validate(); err != nil {
		return err
	}
	return nil
}
