package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"lifezero/match"
)

const matchSynopsis = `match --black "CMD" --white "CMD" --out DIR [--games N] [--size N] [--komi K] [--handicap N] [--max-moves N] [--seed N] [--fixed-colours]`

// cmdMatch plays games between two GTP engines.
func cmdMatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("match", matchSynopsis, stderr)
	var o match.Options
	fs.StringVar(&o.A, "black", "", "command line of engine A, Black in the first game (split on spaces; e.g. \"lifezero gtp --features-model runs/default/bt\")")
	fs.StringVar(&o.B, "white", "", "command line of engine B, White in the first game (e.g. \"/usr/games/gnugo --mode gtp --level 1 --chinese-rules\": GNU Go scores the games it plays in, by area only with --chinese-rules)")
	fs.StringVar(&o.OutDir, "out", "", "write match.json, games/game-NNNN.{sgf,json} and results.json into `DIR`; a rerun skips the finished games")
	fs.IntVar(&o.Games, "games", 2, "number of `games`")
	fs.IntVar(&o.Size, "size", 9, "board `size`")
	fs.Float64Var(&o.Komi, "komi", 7.5, "`komi`")
	fs.IntVar(&o.Handicap, "handicap", 0, "fixed handicap stones for Black (`N` 2..9; 0: none)")
	fs.IntVar(&o.MaxMoves, "max-moves", 0, "end a game after `N` moves and score it as it stands (0: 3 x size²)")
	fs.Uint64Var(&o.Seed, "seed", 1, "match `seed`: game n's engines get set_random_seed seed*1000003+n when they know it (lifezero, GNU Go)")
	fs.BoolVar(&o.FixedColours, "fixed-colours", false, "engine A plays Black in every game (default: colours alternate)")
	rest, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(rest) > 0:
		return usagef("match takes no arguments, got %q (quote each engine's command line)", rest)
	case o.A == "" || o.B == "":
		return usagef("--black CMD and --white CMD are required")
	case o.OutDir == "":
		return usagef("--out DIR is required")
	case o.Games < 1:
		return usagef("--games %d: want at least 1", o.Games)
	case o.Handicap < 0 || o.Handicap > 9:
		return usagef("--handicap %d: want 0..9", o.Handicap)
	case o.MaxMoves < 0:
		return usagef("--max-moves %d: want 0 or more", o.MaxMoves)
	}
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
