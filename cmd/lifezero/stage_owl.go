package main

import (
	"context"
	"fmt"

	"lifezero/datasets"
	"lifezero/evaluate"
	"lifezero/pipelines"
)

// owlFile is the owl stage's data file: the verdicts as JSON.
const owlFile = "owl.json"

// owlOptions are the owl stage's params (it has no command).
type owlOptions struct {
	GNUGo string `yaml:"gnugo" help:"the GNU Go binary"`
	Level int    `yaml:"level" help:"GNU Go's --level, 1..10 (owl reads deeper at higher levels)"`
}

// defaultOwlOptions ask the system's GNU Go at its deepest reading.
func defaultOwlOptions() owlOptions { return owlOptions{GNUGo: evaluate.DefaultGNUGo, Level: 10} }

// Validate catches bad params when the pipeline is loaded, at their line.
func (p *owlOptions) Validate() error {
	if p.Level < 1 || p.Level > 10 {
		return &pipelines.ParamError{Key: "level", Msg: fmt.Sprintf("%d: want 1..10", p.Level)}
	}
	if p.GNUGo == "" {
		return &pipelines.ParamError{Key: "gnugo", Msg: "empty: name the GNU Go binary"}
	}
	return nil
}

func owlKind() pipelines.Kind {
	return pipelines.Kind{
		Name: "owl",
		Doc: "Asks GNU Go's owl (over GTP: owl_defend or owl_attack on the crucial stones) about the L&D problems of " +
			"its path inputs, as a baseline; solve stages among its inputs are set beside it in the report section " +
			"(per problem: owl's verdict, its move, the book move and each solve's result).",
		Version:     1,
		Params:      defaultOwlOptions(),
		CheckInputs: solveInputs,
		Run:         runOwl,
	}
}

func runOwl(ctx context.Context, env *pipelines.Env) error {
	p, err := pipelines.ParamsAs[owlOptions](env)
	if err != nil {
		return err
	}
	var paths []string
	var solves []evaluate.SolveStage
	for _, in := range env.Inputs {
		switch {
		case in.Stage == "":
			paths = append(paths, in.Path)
		case in.Manifest != nil && in.Manifest.Kind == evaluate.SolveResultsKind:
			rows, _, err := evaluate.ReadSolveResults(ctx, in.Path)
			if err != nil {
				return fmt.Errorf("input stage:%s: %w", in.Stage, err)
			}
			solves = append(solves, evaluate.SolveStage{Stage: in.Stage, Rows: rows})
		default:
			return fmt.Errorf("input stage:%s is not a %q dataset; owl reads problem paths and solve stages", in.Stage, evaluate.SolveResultsKind)
		}
	}
	tasks, err := loadSolveTasks(paths)
	if err != nil {
		return err
	}
	cfg := evaluate.OwlConfig{GNUGo: p.GNUGo, Level: p.Level}
	rows, err := collectRows(env, len(tasks), func(emit func(evaluate.OwlRow) error) error {
		return evaluate.OwlProblems(ctx, tasks, cfg, emit)
	})
	if err != nil {
		return err
	}
	if err := writeRowsJSON(env, owlFile, rows); err != nil {
		return err
	}
	if err := evaluate.WriteOwlSection(env.OutDir, cfg, rows, solves); err != nil {
		return err
	}
	e, err := env.FileEntry(owlFile, int64(len(rows)))
	if err != nil {
		return err
	}
	return env.WriteManifest(&datasets.Manifest{Kind: evaluate.OwlResultsKind, SchemaVersion: 1, Files: []datasets.FileEntry{e}})
}
