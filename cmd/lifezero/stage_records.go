package main

import (
	"context"
	"fmt"

	"lifezero/datasets"
	"lifezero/evaluate"
	"lifezero/pipelines"
	"lifezero/progress"
)

func recordsImportKind() pipelines.Kind {
	return pipelines.Kind{
		Name: "records-import",
		Doc: "Imports SGF game records (files, or directories searched for *.sgf) into a games " +
			"dataset, one row per game, with a report section: import counts and game lengths. " +
			"With append, adds them to the games dataset of the first input.",
		Version:     1,
		Params:      defaultRecordsImportOptions(),
		CheckInputs: recordsImportInputs,
		Run:         runRecordsImport,
	}
}

func runRecordsImport(ctx context.Context, env *pipelines.Env) error {
	p, err := pipelines.ParamsAs[recordsImportOptions](env)
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
	opts := p.importOptions()
	opts.Inputs, opts.OutDir, opts.Stage = paths, env.OutDir, env.Stage
	// Not the stage's hash yet: the output counts as done only once its
	// report section is written too (below).
	opts.InputHash = "pending-report:" + env.InputHash
	opts.Progress = progress.Counter(env.Progress, "SGF bytes")
	opts.OnSkip = func(s datasets.SkippedGame) {
		if skipped++; skipped <= 20 {
			env.Log.Warn("game skipped", "where", s.String())
		}
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
