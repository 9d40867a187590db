package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"lifezero/datasets"
	"lifezero/internal/optflags"
	"lifezero/selfplay"
)

const selfplaySynopsis = "selfplay --out DIR [--net FILE|DATASET] [--preset 2x16] [--board 7] [--games N] [--simulations N] " +
	"[--dw N | --dw-from DATASET] [--temperature-moves N] [--max-moves N] [--games-per-file N] [--leaves-per-game N] [--workers N] [--seed N] [PROBLEMS...]"

// selfplayFlags are the parsed flags of "lifezero selfplay": the options
// (shared with the selfplay stage) and what the stage takes from its
// inputs: the network, d_w from an earlier generation, the problems.
type selfplayFlags struct {
	opts     selfplayOptions
	out      string
	net      string
	dwFrom   string
	problems []string
}

func parseSelfplayFlags(args []string, stderr io.Writer) (*selfplayFlags, error) {
	fs := newFlagSet("selfplay", selfplaySynopsis, stderr)
	f := &selfplayFlags{opts: defaultSelfplayOptions()}
	if err := optflags.Bind(fs, &f.opts); err != nil {
		return nil, err
	}
	fs.StringVar(&f.out, "out", "", "write the samples dataset (and games.sgf) to `DIR` (required); a killed run resumes there")
	fs.StringVar(&f.net, "net", "", "network weights `FILE` or network dataset (a train output); none: uniform priors (generation 0)")
	fs.StringVar(&f.dwFrom, "dw-from", "", "take d_w from the next_dw of a samples or network `DATASET` (without --dw)")
	problems, err := parseArgs(fs, args)
	if err != nil {
		return nil, err
	}
	if f.out == "" {
		return nil, usagef("--out DIR is required")
	}
	if err := f.opts.Validate(); err != nil {
		return nil, flagError(err)
	}
	f.problems = problems
	return f, nil
}

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
	f, err := parseSelfplayFlags(args, stderr)
	if err != nil {
		return err
	}
	opts := f.opts.options()
	if err := setNet(&opts, f.net, f.opts.Preset, f.opts.Board, f.opts.MovePlanes); err != nil {
		return err
	}
	opts.DW = f.opts.DW
	if opts.DW == 0 && f.dwFrom != "" {
		m, err := datasets.ReadManifest(f.dwFrom)
		if err != nil {
			return err
		}
		if opts.DW, err = strconv.Atoi(m.Meta[selfplay.MetaNextDW]); err != nil {
			return fmt.Errorf("--dw-from %s: no %s in its manifest", f.dwFrom, selfplay.MetaNextDW)
		}
	}
	if opts.DW == 0 {
		opts.DW = opts.Config.D
	}
	if opts.Starts, err = selfplayStarts(f.problems, opts.Config.Board); err != nil {
		return err
	}
	if err := removeManifest(f.out); err != nil {
		return err
	}
	log := newLogger(stderr, false)
	opts.Log, opts.Progress = log, commandProgress(stderr, log, "selfplay")
	res, err := selfplay.Run(ctx, f.out, opts)
	if err != nil {
		return err
	}
	if err := writeSelfplaySection(f.out, "selfplay", res); err != nil {
		return err
	}
	m, err := res.Manifest(datasets.Manifest{Stage: "selfplay"})
	if err != nil {
		return err
	}
	if err := datasets.WriteManifest(f.out, &m); err != nil {
		return err
	}
	s := res.Summary
	fmt.Fprintf(stdout, "%d games (%d resumed) in %.1fs: living side lived %d, by move d_w=%d %d, mean length %.1f, next d_w %d; %d samples in %s\n",
		s.Games, s.Resumed, s.Seconds, s.LivingWins, s.DW, s.WinsWithinDW, s.MeanLength, s.NextDW, s.Samples, f.out)
	return nil
}
