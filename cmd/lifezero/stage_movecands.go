package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"lifezero/datasets"
	"lifezero/evaluate"
	"lifezero/features"
	"lifezero/movecands"
	"lifezero/pipelines"
	"lifezero/progress"
)

func moveCandsKind() pipelines.Kind {
	return pipelines.Kind{
		Name: "movecands",
		Doc: "Samples positions of games datasets (a date range, max_games games, positions_per_game " +
			"positions each) and writes a movecands dataset: per position every legal move and the pass " +
			"with its active feature ids, the move played, game id, move number and date. The feature set is " +
			"the built-in one (plus learned diamonds and shapes), or that of a movecands input (so validation data " +
			"shares the training data's ids) or of a features .json input. Games that cannot be replayed " +
			"(handicap, illegal or out-of-turn moves) are skipped and counted in the report section.",
		Version:     1,
		Params:      defaultMoveCandsOptions(),
		CheckInputs: anyInputs,
		Run:         runMoveCands,
	}
}

// anyInputs checks that a stage has at least one input, stage or path.
func anyInputs(inputs []pipelines.Input) error {
	if len(inputs) == 0 {
		return errNoInputs
	}
	return nil
}

func runMoveCands(ctx context.Context, env *pipelines.Env) error {
	p, err := pipelines.ParamsAs[moveCandsOptions](env)
	if err != nil {
		return err
	}
	var gameDirs []string
	var set *features.Extractor
	for _, in := range env.Inputs {
		var e *features.Extractor
		switch {
		case in.Manifest != nil && in.Manifest.Kind == datasets.GamesKind:
			gameDirs = append(gameDirs, in.Path)
			continue
		case in.Manifest != nil && in.Manifest.Kind == datasets.MoveCandsKind:
			e, err = movecands.FeatureSet(in.Manifest)
		case in.Manifest == nil && isFile(in.Path) && strings.EqualFold(filepath.Ext(in.Path), ".json"):
			e, err = features.Load(in.Path)
		default:
			return fmt.Errorf("input %s: want games datasets, and at most one feature set (a movecands dataset or a features .json file)", in.Path)
		}
		if err != nil {
			return fmt.Errorf("input %s: %w", in.Path, err)
		}
		if set != nil {
			return fmt.Errorf("input %s: a second feature set; give at most one", in.Path)
		}
		set = e
	}
	if len(gameDirs) == 0 {
		return fmt.Errorf("no games dataset among the inputs")
	}
	if p.AppendedOnly {
		views, cleanup, err := appendedViews(gameDirs, "appended_only")
		defer cleanup()
		if err != nil {
			return err
		}
		gameDirs = views
	}
	if set == nil {
		if set, err = p.builtinSet(); err != nil {
			return err
		}
	} else if p.LearnDiamonds > 0 || p.LearnShapes > 0 || !p.Pattern3Liberties {
		return fmt.Errorf("learn_diamonds, learn_shapes and pattern3_liberties shape a new feature set; with a feature-set input leave them at their defaults")
	}
	skipped := 0
	opts := p.build(set)
	opts.Stage = env.Stage
	// Not the stage's hash yet: the output is done once its report section
	// is written too (below).
	opts.InputHash = "pending-report:" + env.InputHash
	opts.Progress = progress.Counter(env.Progress, "games")
	opts.OnSkip = func(s movecands.SkippedGame) {
		if skipped++; skipped <= 20 {
			env.Log.Warn("game skipped", "game", s.String())
		}
	}
	m, err := movecands.Build(ctx, gameDirs, env.OutDir, opts)
	env.Progress.Finish()
	if err != nil {
		return err
	}
	s, err := movecands.SummaryOf(m)
	if err != nil {
		return err
	}
	env.Log.Info("movecands built", "positions", s.Positions, "games", s.Used, "skipped", s.SkippedTotal(), "features", s.NumFeatures)
	if err := evaluate.WriteMoveCandsSection(env.OutDir, s); err != nil {
		return err
	}
	return env.WriteManifest(m)
}

// appendedViews returns, for each games dataset in dirs, a temporary games
// dataset of the games its last append added; cleanup removes them. Errors
// name the option as the user gave it (the param or the flag).
func appendedViews(dirs []string, option string) (views []string, cleanup func(), err error) {
	tmp, err := os.MkdirTemp("", "lifezero-appended-*")
	if err != nil {
		return nil, func() {}, fmt.Errorf("%s: %w", option, err)
	}
	cleanup = func() { os.RemoveAll(tmp) }
	for i, dir := range dirs {
		view := filepath.Join(tmp, fmt.Sprint(i))
		if _, err := datasets.AppendedView(dir, view); err != nil {
			return nil, cleanup, fmt.Errorf("%s: %w", option, err)
		}
		views = append(views, view)
	}
	return views, cleanup, nil
}
