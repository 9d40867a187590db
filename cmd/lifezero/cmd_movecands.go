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
	"lifezero/movecands"
	"lifezero/pipelines"
	"lifezero/progress"
)

const featuresBuildSynopsis = "features build --out DIR [--from DATE] [--to DATE] [--max-games N] [--positions-per-game K] [--seed S] " +
	"[--features FILE|DATASET] [--learn-diamonds MIN] [--learn-shapes MIN] [--no-libs] [--workers N] INPUT..."

// cmdFeaturesBuild builds a movecands dataset (the candidate moves of sampled
// positions with their features) from games datasets or SGF files.
func cmdFeaturesBuild(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("features build", featuresBuildSynopsis, stderr)
	out := fs.String("out", "", "write the movecands dataset to `DIR` (required)")
	from := fs.String("from", "", "keep games dated on or after `DATE` (YYYY, YYYY-MM or YYYY-MM-DD)")
	to := fs.String("to", "", "keep games dated on or before `DATE`")
	maxGames := fs.Int("max-games", 0, "sample `N` of the games in range (0: all)")
	perGame := fs.Int("positions-per-game", 0, "sample `K` positions per game (0: all)")
	seed := fs.Uint64("seed", 1, "`seed` of the sampling")
	setPath := fs.String("features", "", "feature set: a JSON `file`, or a movecands dataset whose set to reuse (default: the built-in set)")
	learn := fs.Int64("learn-diamonds", 0, "learn diamonds seen at least `MIN` times in the played moves of the sampled games (0: none)")
	learnShapes := fs.Int64("learn-shapes", 0, "learn large shape patterns (sizes 5-14) seen at least `MIN` times in the played moves of the sampled games (0: none)")
	noLibs := fs.Bool("no-libs", false, "built-in set: 3x3 patterns without the liberties of adjacent blocks")
	workers := fs.Int("workers", 0, "games replayed in parallel (0: one per CPU)")
	inputs, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	switch {
	case *out == "":
		return usagef("--out DIR is required")
	case len(inputs) == 0:
		return usagef("name at least one games dataset, SGF file or directory of SGF files")
	}
	dates := datasets.DateRange{From: *from, To: *to}
	if err := dates.Check(); err != nil {
		return usagef("%v", err)
	}
	e, err := featureSetFrom(*setPath, *noLibs)
	if err != nil {
		return err
	}
	log := newLogger(stderr, false)
	pr := commandProgress(stderr, log, "features build")
	gameDirs, cleanup, err := gamesInputs(ctx, inputs, dates, pr, log)
	defer cleanup()
	if err != nil {
		return err
	}
	skipped := 0
	m, err := movecands.Build(ctx, gameDirs, *out, movecands.Options{
		Features: e, LearnDiamonds: *learn, LearnShapes: *learnShapes, Dates: dates, MaxGames: *maxGames, PositionsPerGame: *perGame,
		Seed: *seed, Workers: *workers, Stage: "features-build",
		Progress: progress.Counter(pr, "games"),
		OnSkip: func(s movecands.SkippedGame) {
			if skipped++; skipped <= 20 {
				log.Warn("game skipped", "game", s.String())
			}
		},
	})
	pr.Finish()
	if err != nil {
		return err
	}
	s, err := movecands.SummaryOf(m)
	if err != nil {
		return err
	}
	printBuildSummary(stdout, s, *out)
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
// JSON file; "" gives the built-in set.
func featureSetFrom(path string, noLibs bool) (*features.Extractor, error) {
	if path == "" {
		cfg := features.DefaultConfig()
		cfg.Pattern3Liberties = !noLibs
		return features.New(cfg)
	}
	if noLibs {
		return nil, usagef("--no-libs applies to the built-in set only, not to --features %s", path)
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
