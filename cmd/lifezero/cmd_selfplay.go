package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"

	"lifezero/datasets"
	"lifezero/nn"
	"lifezero/pipelines"
	"lifezero/selfplay"
)

const selfplaySynopsis = "selfplay --out DIR [--net FILE|DATASET] [--preset 2x16] [--board 7] [--games N] [--sims N] " +
	"[--dw N | --dw-from DATASET] [--temp-moves N] [--max-moves N] [--games-per-file N] [--leaves N] [--workers N] [--seed N] [PROBLEMS...]"

// removeManifest removes the manifest of an earlier dataset in dir, so that
// it stops claiming files that are about to be rewritten.
func removeManifest(dir string) error {
	err := os.Remove(filepath.Join(dir, datasets.ManifestName))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

func cmdSelfplay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := newFlagSet("selfplay", selfplaySynopsis, stderr)
	out := flags.String("out", "", "write the samples dataset (and games.sgf) to `DIR` (required); a killed run resumes there")
	net := flags.String("net", "", "network weights `FILE` or network dataset (a train output); none: uniform priors (generation 0)")
	preset := flags.String("preset", nn.Preset2x16, "network `shape` of the samples without --net")
	board := flags.Int("board", 7, "board `size` without --net or problems")
	d := selfplay.DefaultOptions()
	games := flags.Int("games", 8, "play `N` games")
	sims := flags.Int("sims", d.Simulations, "`N` PUCT simulations per move")
	dw := flags.Int("dw", 0, "d_w: the living side wins by living by move `N` (0: from --dw-from, else the network's D)")
	dwFrom := flags.String("dw-from", "", "take d_w from the next_dw of a samples or network `DATASET`")
	temp := flags.Int("temp-moves", d.TempMoves, "sample the first `N` moves of a game by visit counts")
	maxMoves := flags.Int("max-moves", 0, "cap games at `N` moves from their start (0: twice the region's points)")
	perFile := flags.Int("games-per-file", d.GamesPerFile, "play `N` games together and write them per file")
	leaves := flags.Int("leaves", d.LeavesPerGame, "`N` leaves per game per evaluation batch (virtual loss)")
	workers := flags.Int("workers", runtime.NumCPU(), "play `N` chunks of games at once")
	seed := flags.Uint64("seed", 1, "random `seed`")
	alpha := flags.Float64("dirichlet-alpha", d.DirichletAlpha, "root noise `alpha`")
	eps := flags.Float64("dirichlet-weight", d.DirichletWeight, "root noise `weight`")
	reuse := flags.Bool("reuse-tree", d.ReuseTree, "start each search from the subtree of the move played (its visits count as simulations)")
	cache := flags.Int("eval-cache", d.CacheEntries, "cache the network's outputs for up to `N` positions per chunk (0: off)")
	problems, err := parseArgs(flags, args)
	if err != nil {
		return err
	}
	if *out == "" {
		return usagef("--out DIR is required")
	}
	opts := d
	opts.Games, opts.Simulations, opts.TempMoves, opts.MaxMoves = *games, *sims, *temp, *maxMoves
	opts.GamesPerFile, opts.LeavesPerGame, opts.Workers, opts.Seed = *perFile, *leaves, *workers, *seed
	opts.DirichletAlpha, opts.DirichletWeight = *alpha, *eps
	opts.ReuseTree, opts.CacheEntries = *reuse, *cache
	if err := setNet(&opts, *net, *preset, *board, 0); err != nil {
		return err
	}
	opts.DW = *dw
	if opts.DW == 0 && *dwFrom != "" {
		m, err := datasets.ReadManifest(*dwFrom)
		if err != nil {
			return err
		}
		if opts.DW, err = strconv.Atoi(m.Meta[selfplay.MetaNextDW]); err != nil {
			return fmt.Errorf("--dw-from %s: no %s in its manifest", *dwFrom, selfplay.MetaNextDW)
		}
	}
	if opts.DW == 0 {
		opts.DW = opts.Config.D
	}
	if opts.Starts, err = selfplayStarts(problems, opts.Config.Board); err != nil {
		return err
	}
	if err := removeManifest(*out); err != nil {
		return err
	}
	log := newLogger(stderr, false)
	opts.Log = log
	var prog pipelines.Progress = pipelines.NewLogProgress(log)
	if isTerminal(stderr) {
		prog = pipelines.NewBarProgress(stderr, "selfplay")
	}
	opts.Progress = prog
	res, err := selfplay.Run(ctx, *out, opts)
	if err != nil {
		return err
	}
	if err := writeSelfplaySection(*out, "selfplay", res); err != nil {
		return err
	}
	m, err := res.Manifest(datasets.Manifest{Stage: "selfplay"})
	if err != nil {
		return err
	}
	if err := datasets.WriteManifest(*out, &m); err != nil {
		return err
	}
	s := res.Summary
	fmt.Fprintf(stdout, "%d games (%d resumed) in %.1fs: living side lived %d, by move d_w=%d %d, mean length %.1f, next d_w %d; %d samples in %s\n",
		s.Games, s.Resumed, s.Seconds, s.LivingWins, s.DW, s.WinsWithinDW, s.MeanLength, s.NextDW, s.Samples, *out)
	return nil
}
