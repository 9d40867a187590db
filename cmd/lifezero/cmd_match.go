package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"lifezero/internal/optflags"
	"lifezero/match"
)

const matchSynopsis = `match --black "CMD" --white "CMD" --out DIR [--games N] [--size N] [--komi K] [--handicap N] [--max-moves N] [--seed N] [--fixed-colours]`

// matchFlags are the parsed flags of "lifezero match": the options (shared
// with the match stage) and the engines and output the command is given.
type matchFlags struct {
	opts         matchOptions
	black, white string
	out          string
}

func parseMatchFlags(args []string, stderr io.Writer) (*matchFlags, error) {
	fs := newFlagSet("match", matchSynopsis, stderr)
	f := &matchFlags{opts: defaultMatchOptions()}
	if err := optflags.Bind(fs, &f.opts); err != nil {
		return nil, err
	}
	fs.StringVar(&f.black, "black", "", "command line of engine A, Black in the first game (split on spaces; e.g. \"lifezero gtp --features-model runs/default/bt\")")
	fs.StringVar(&f.white, "white", "", "command line of engine B, White in the first game (a match stage's opponent; e.g. \"/usr/games/gnugo --mode gtp --level 1 --chinese-rules\": GNU Go scores the games it plays in, by area only with --chinese-rules)")
	fs.StringVar(&f.out, "out", "", "write match.json, games/game-NNNN.{sgf,json} and results.json into `DIR`; a rerun skips the finished games")
	rest, err := parseArgs(fs, args)
	if err != nil {
		return nil, err
	}
	switch {
	case len(rest) > 0:
		return nil, usagef("match takes no arguments, got %q (quote each engine's command line)", rest)
	case f.black == "" || f.white == "":
		return nil, usagef("--black CMD and --white CMD are required")
	case f.out == "":
		return nil, usagef("--out DIR is required")
	}
	f.opts.Opponent = f.white
	if err := f.opts.Validate(); err != nil {
		return nil, flagError(err)
	}
	return f, nil
}

// cmdMatch plays games between two GTP engines.
func cmdMatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := parseMatchFlags(args, stderr)
	if err != nil {
		return err
	}
	o := f.opts.options(f.black, f.white, f.out)
	log := newLogger(stderr, false)
	o.Log = log
	o.Progress = commandProgress(stderr, log, "match")
	sum, err := match.Run(ctx, o)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "A (Black in game 1): %s\nB: %s\n", o.A, o.B)
	fmt.Fprintf(stdout, "%dx%d, komi %g, handicap %d; %d games (%d from an earlier run)\n", o.Size, o.Size, o.Komi, o.Handicap, len(sum.Games), sum.Skipped)
	fmt.Fprintf(stdout, "A: %v\n", sum.Stats)
	fmt.Fprintf(stdout, "results: %s and the dataset %s\n", filepath.Join(o.OutDir, "results.json"), filepath.Join(o.OutDir, match.ResultsDir))
	return nil
}
