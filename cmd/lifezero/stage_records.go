package main

import (
	"context"

	"lifezero/datasets"
	"lifezero/evaluate"
	"lifezero/pipelines"
)

type recordsImportParams struct {
	FromDate    string `yaml:"from_date" help:"keep games dated on or after this: YYYY, YYYY-MM or YYYY-MM-DD"`
	ToDate      string `yaml:"to_date" help:"keep games dated on or before this (same forms)"`
	MaxGames    int    `yaml:"max_games" help:"stop after this many games (0: all)"`
	RowsPerFile int64  `yaml:"rows_per_file" help:"games per Arrow file (0: 50000)"`
	SkipBad     bool   `yaml:"skip_bad" help:"skip malformed games (counted in the report) instead of failing"`
}

// Validate catches bad params when the pipeline is loaded, at their line.
func (p *recordsImportParams) Validate() error {
	for _, d := range []struct{ key, v string }{{"from_date", p.FromDate}, {"to_date", p.ToDate}} {
		if d.v == "" {
			continue
		}
		if err := datasets.CheckDateBound(d.v); err != nil {
			return &pipelines.ParamError{Key: d.key, Msg: err.Error()}
		}
	}
	if p.MaxGames < 0 {
		return &pipelines.ParamError{Key: "max_games", Msg: "must not be negative"}
	}
	if p.RowsPerFile < 0 {
		return &pipelines.ParamError{Key: "rows_per_file", Msg: "must not be negative"}
	}
	return nil
}

func recordsImportKind() pipelines.Kind {
	return pipelines.Kind{
		Name: "records-import",
		Doc: "Imports SGF game records (files, or directories searched for *.sgf) into a games " +
			"dataset, one row per game, with a report section: import counts and game lengths.",
		Version:     1,
		Params:      recordsImportParams{},
		CheckInputs: pathInputs,
		Run:         runRecordsImport,
	}
}

func runRecordsImport(ctx context.Context, env *pipelines.Env) error {
	p, err := pipelines.ParamsAs[recordsImportParams](env)
	if err != nil {
		return err
	}
	var paths []string
	for _, in := range env.Inputs {
		paths = append(paths, in.Path)
	}
	skipped := 0
	m, err := datasets.ImportRecords(ctx, datasets.ImportOptions{
		Inputs: paths, OutDir: env.OutDir, RowsPerFile: p.RowsPerFile,
		FromDate: p.FromDate, ToDate: p.ToDate, MaxGames: p.MaxGames, SkipBad: p.SkipBad,
		Stage: env.Stage,
		// Not the stage's hash yet: the output counts as done only once its
		// report section is written too (below).
		InputHash: "pending-report:" + env.InputHash,
		Progress:  bytesProgress(env.Progress, "SGF bytes"),
		OnSkip: func(s datasets.SkippedGame) {
			if skipped++; skipped <= 20 {
				env.Log.Warn("game skipped", "where", s.String())
			}
		},
	})
	if err != nil {
		return nameSkipBad(err, "set skip_bad: true in the stage's params")
	}
	env.Progress.Finish()
	if err := evaluate.WriteGamesSection(ctx, env.OutDir); err != nil {
		return err
	}
	return env.WriteManifest(m)
}

// bytesProgress adapts a done-of-total callback to a Progress.
func bytesProgress(pr pipelines.Progress, what string) func(done, total int) {
	started, last := false, 0
	return func(done, total int) {
		if !started {
			pr.Start(total, what)
			started = true
		}
		if done > last {
			pr.Add(done - last)
			last = done
		}
	}
}
