package main

import (
	"context"
	"fmt"

	"lifezero/datasets"
	"lifezero/evaluate"
	"lifezero/pipelines"
	"lifezero/progress"
)

type recordsImportParams struct {
	FromDate    string `yaml:"from_date" help:"keep games dated on or after this: YYYY, YYYY-MM or YYYY-MM-DD"`
	ToDate      string `yaml:"to_date" help:"keep games dated on or before this (same forms)"`
	MaxGames    int    `yaml:"max_games" help:"stop after this many games (0: all)"`
	RowsPerFile int64  `yaml:"rows_per_file" help:"games per Arrow file (0: 50000)"`
	SkipBad     bool   `yaml:"skip_bad" help:"skip malformed games (counted in the report) instead of failing"`
	// omitempty: left unset, the params hash as before the param existed,
	// so outputs cached then stay valid.
	Append bool `json:",omitempty" yaml:"append" help:"the first input is a games dataset (stage:NAME or its path): the output is its games plus the new ones, skipping those it holds (same game id or same moves); movecands' appended_only reads the new ones alone"`
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
			"dataset, one row per game, with a report section: import counts and game lengths. " +
			"With append, adds them to the games dataset of the first input.",
		Version:     1,
		Params:      recordsImportParams{},
		CheckInputs: recordsImportInputs,
		Run:         runRecordsImport,
	}
}

func runRecordsImport(ctx context.Context, env *pipelines.Env) error {
	p, err := pipelines.ParamsAs[recordsImportParams](env)
	if err != nil {
		return err
	}
	inputs := env.Inputs
	if p.Append {
		if len(inputs) < 2 || inputs[0].Manifest == nil || inputs[0].Manifest.Kind != datasets.GamesKind {
			return fmt.Errorf("append: want a games dataset as the first input (stage:NAME or its path), then SGF files or directories")
		}
		// The output starts as the first input's games (hard links), and
		// grows by an append; a killed run restarts from the links.
		if _, err := datasets.LinkDataset(inputs[0].Path, env.OutDir); err != nil {
			return err
		}
		inputs = inputs[1:]
	} else if inputs[0].Stage != "" {
		return fmt.Errorf("input stage:%s: a stage output; to add records to its games set append: true", inputs[0].Stage)
	}
	var paths []string
	for _, in := range inputs {
		if in.Stage != "" {
			return fmt.Errorf("input %s: a stage output; only the first input of an append may be one", in.Path)
		}
		paths = append(paths, in.Path)
	}
	skipped := 0
	opts := datasets.ImportOptions{
		Inputs: paths, OutDir: env.OutDir, RowsPerFile: p.RowsPerFile,
		FromDate: p.FromDate, ToDate: p.ToDate, MaxGames: p.MaxGames, SkipBad: p.SkipBad,
		Stage: env.Stage,
		// Not the stage's hash yet: the output counts as done only once its
		// report section is written too (below).
		InputHash: "pending-report:" + env.InputHash,
		Progress:  progress.Counter(env.Progress, "SGF bytes"),
		OnSkip: func(s datasets.SkippedGame) {
			if skipped++; skipped <= 20 {
				env.Log.Warn("game skipped", "where", s.String())
			}
		},
	}
	var m *datasets.Manifest
	if p.Append {
		// Recorded even when empty: the output's last append must be this
		// stage's, never one the input dataset made.
		opts.RecordEmptyAppend = true
		var sum datasets.ImportSummary
		if m, sum, err = datasets.AppendRecords(ctx, opts); err == nil {
			env.Log.Info("records appended", "games", sum.Written, "read", sum.Read, "skipped", fmt.Sprint(sum.Skipped))
		}
	} else {
		m, err = datasets.ImportRecords(ctx, opts)
	}
	if err != nil {
		return nameSkipBad(err, "set skip_bad: true in the stage's params")
	}
	env.Progress.Finish()
	if err := evaluate.WriteGamesSection(ctx, env.OutDir); err != nil {
		return err
	}
	return env.WriteManifest(m)
}

// recordsImportInputs checks a records-import stage's inputs: files or
// directories, the first of which may be a stage's games dataset (to
// append to).
func recordsImportInputs(inputs []pipelines.Input) error {
	if len(inputs) == 0 {
		return errNoInputs
	}
	for i, in := range inputs {
		if in.Stage != "" && i > 0 {
			return fmt.Errorf("%q is a stage output; only the first input (the games dataset to append to) may be one", in.Raw)
		}
	}
	return nil
}
