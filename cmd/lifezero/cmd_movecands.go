package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"

	"lifezero/datasets"
	"lifezero/features"
	"lifezero/internal/optflags"
	"lifezero/movecands"
	"lifezero/pipelines"
	"lifezero/progress"
)

const featuresBuildSynopsis = "features build --out DIR [--from-date DATE] [--to-date DATE] [--max-games N] [--positions-per-game K] [--seed S] " +
	"[--features FILE|DATASET] [--learn-diamonds MIN] [--learn-shapes MIN] [--no-pattern3-liberties] [--rows-per-file N] [--appended-only] [--workers N] INPUT..."

// featuresBuildFlags are the parsed flags of "lifezero features build": the
// build options (shared with the movecands stage) and the command's own
// inputs and output.
type featuresBuildFlags struct {
	opts    moveCandsOptions
	out     string
	setPath string
	workers int
	inputs  []string
}

func parseFeaturesBuildFlags(args []string, stderr io.Writer) (*featuresBuildFlags, error) {
	fs := newFlagSet("features build", featuresBuildSynopsis, stderr)
	f := &featuresBuildFlags{opts: defaultMoveCandsOptions()}
	if err := optflags.Bind(fs, &f.opts); err != nil {
		return nil, err
	}
	fs.StringVar(&f.out, "out", "", "write the movecands dataset to `DIR` (required)")
	fs.StringVar(&f.setPath, "features", "", "feature set: a JSON `file`, or a movecands dataset whose set to reuse (default: the built-in set)")
	fs.IntVar(&f.workers, "workers", 0, "games replayed in parallel (0: one per CPU)")
	inputs, err := parseArgs(fs, args)
	if err != nil {
		return nil, err
	}
	switch {
	case f.out == "":
		return nil, usagef("--out DIR is required")
	case len(inputs) == 0:
		return nil, usagef("name at least one games dataset, SGF file or directory of SGF files")
	}
	if err := f.opts.Validate(); err != nil {
		return nil, flagError(err)
	}
	f.inputs = inputs
	return f, nil
}

// cmdFeaturesBuild builds a movecands dataset (the candidate moves of sampled
// positions with their features) from games datasets or SGF files.
func cmdFeaturesBuild(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := parseFeaturesBuildFlags(args, stderr)
	if err != nil {
		return err
	}
	e, err := featureSetFrom(f.setPath, f.opts.FeatureSetOptions)
	if err != nil {
		return err
	}
	log := newLogger(stderr, false)
	pr := commandProgress(stderr, log, "features build")
	opts := f.opts.build(e)
	gameDirs, cleanup, err := gamesInputs(ctx, f.inputs, opts.Dates, pr, log)
	defer cleanup()
	if err != nil {
		return err
	}
	if f.opts.AppendedOnly {
		views, cleanup, err := appendedViews(gameDirs, "--appended-only")
		defer cleanup()
		if err != nil {
			return err
		}
		gameDirs = views
	}
	skipped := 0
	opts.Workers, opts.Stage, opts.Progress = f.workers, "features-build", progress.Counter(pr, "games")
	opts.OnSkip = func(s movecands.SkippedGame) {
		if skipped++; skipped <= 20 {
			log.Warn("game skipped", "game", s.String())
		}
	}
	m, err := movecands.Build(ctx, gameDirs, f.out, opts)
	pr.Finish()
	if err != nil {
		return err
	}
	s, err := movecands.SummaryOf(m)
	if err != nil {
		return err
	}
	printBuildSummary(stdout, s, f.out)
	return nil
}

func printBuildSummary(w io.Writer, s movecands.Summary, dir string) {
	fmt.Fprintf(w, "built %d positions (%d candidate moves, %d feature ids, %d diamonds, %d shapes) from %d of %d sampled games into %s\n",
		s.Positions, s.Candidates, s.NumFeatures, s.Diamonds, s.Shapes, s.Used, s.Sampled, dir)
	fmt.Fprintf(w, "  %d games read, %d distinct in range %s\n", s.GamesRead, s.InRange, s.Dates)
	for _, r := range movecands.Reasons(s.OutOfRange) {
		fmt.Fprintf(w, "  out of range %d: %s\n", s.OutOfRange[r], r)
	}
	for _, r := range movecands.Reasons(s.Skipped) {
		fmt.Fprintf(w, "  skipped %d: %s\n", s.Skipped[r], r)
	}
}

// commandProgress draws bars on a terminal and logs otherwise.
func commandProgress(stderr io.Writer, log *slog.Logger, what string) pipelines.Progress {
	if isTerminal(stderr) {
		return pipelines.NewBarProgress(stderr, what)
	}
	return pipelines.NewLogProgress(log)
}

// featureSetFrom loads the feature set at path: a movecands dataset's, or a
// JSON file; "" gives the built-in set that o shapes.
func featureSetFrom(path string, o FeatureSetOptions) (*features.Extractor, error) {
	if path == "" {
		return o.builtinSet()
	}
	if o != defaultFeatureSetOptions() {
		return nil, usagef("--no-pattern3-liberties applies to the built-in set only, not to --features %s", path)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		m, err := datasets.ReadManifest(path)
		if err != nil {
			return nil, err
		}
		e, err := movecands.FeatureSet(m)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return e, nil
	}
	return features.Load(path)
}

// gamesInputs returns the games datasets among inputs, importing the SGF
// files and directories among them into a temporary games dataset (only
// the games in dates). cleanup removes it.
func gamesInputs(ctx context.Context, inputs []string, dates datasets.DateRange, pr pipelines.Progress, log *slog.Logger) (dirs []string, cleanup func(), err error) {
	cleanup = func() {}
	var sgfs []string
	for _, in := range inputs {
		m, err := datasets.ReadManifest(in)
		switch {
		case err == nil && m.Kind == datasets.GamesKind:
			dirs = append(dirs, in)
		case err == nil:
			return nil, cleanup, fmt.Errorf("%s is a %q dataset; want a games dataset or SGF files", in, m.Kind)
		case errors.Is(err, datasets.ErrNoDataset) || errors.Is(err, fs.ErrNotExist) || isFile(in):
			sgfs = append(sgfs, in)
		default:
			return nil, cleanup, err
		}
	}
	if len(sgfs) == 0 {
		return dirs, cleanup, nil
	}
	tmp, err := os.MkdirTemp("", "lifezero-games-*")
	if err != nil {
		return nil, cleanup, err
	}
	cleanup = func() { os.RemoveAll(tmp) }
	games := filepath.Join(tmp, "games")
	_, err = datasets.ImportRecords(ctx, datasets.ImportOptions{
		Inputs: sgfs, OutDir: games, FromDate: dates.From, ToDate: dates.To, SkipBad: true,
		Stage: "features-build", Progress: progress.Counter(pr, "SGF bytes"),
		OnSkip: func(s datasets.SkippedGame) {
			if s.Reason == datasets.SkipMalformed {
				log.Warn("malformed game skipped", "where", s.String())
			}
		},
	})
	pr.Finish()
	if err != nil {
		return nil, cleanup, err
	}
	return append(dirs, games), cleanup, nil
}

func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}
