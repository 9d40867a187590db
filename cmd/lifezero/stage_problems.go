package main

import (
	"context"
	"os"
	"path/filepath"

	"lifezero/evaluate"
	"lifezero/game"
	"lifezero/pipelines"
)

func problemsKind() pipelines.Kind {
	return pipelines.Kind{
		Name: "problems",
		Doc: "Loads every L&D problem of its inputs (problem directories or .json/.sgf files) and " +
			"writes a problems dataset (id, board size, side to play, winner, goals, ko rules, crucial " +
			"stones, region size, ftl_d, book move) with a report section listing them.",
		Version:     1,
		CheckInputs: pathInputs,
		Run:         runProblems,
	}
}

func runProblems(ctx context.Context, env *pipelines.Env) error {
	var rows []evaluate.ProblemRow
	env.Progress.Start(len(env.Inputs), "problem sets")
	for _, in := range env.Inputs {
		if err := ctx.Err(); err != nil {
			return err
		}
		probs, err := loadProblems(in.Path)
		if err != nil {
			return err
		}
		set := filepath.Base(in.Path)
		for _, pr := range probs {
			r := evaluate.ProblemRowOf(pr)
			if filepath.Dir(pr.Source) == filepath.Clean(in.Path) {
				r.Source = filepath.ToSlash(filepath.Join(set, r.Source))
			}
			rows = append(rows, r)
		}
		env.Progress.Add(1)
	}
	env.Progress.Finish()
	env.Log.Info("problems loaded", "count", len(rows))
	_, err := evaluate.WriteProblems(ctx, env.OutDir, rows, env.Manifest(evaluate.ProblemsKind, evaluate.ProblemsSchemaVersion))
	return err
}

// loadProblems loads a problem directory or a single problem file.
func loadProblems(path string) ([]*game.Problem, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return game.LoadProblemDir(path)
	}
	pr, err := game.LoadProblem(path)
	if err != nil {
		return nil, err
	}
	return []*game.Problem{pr}, nil
}
