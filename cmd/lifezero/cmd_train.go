package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"lifezero/datasets"
	"lifezero/internal/optflags"
	"lifezero/selfplay"
	"lifezero/train"
)

const trainSynopsis = "train --out DIR [--init FILE|DATASET] [--preset 5x64] [--steps N] [--batch-size N] [--optimizer momentum|adam] " +
	"[--lr X] [--low-lr X] [--lr-drop-step N] [--window N] [--max-samples N] [--checkpoint-every N] [--seed N] SAMPLES..."

// trainFlags are the parsed flags of "lifezero train": the options (shared
// with the train stage) and what the stage takes from its inputs: the
// starting network and the samples datasets.
type trainFlags struct {
	opts trainOptions
	out  string
	init string
	dirs []string // the samples datasets, oldest first
}

func parseTrainFlags(args []string, stderr io.Writer) (*trainFlags, error) {
	fs := newFlagSet("train", trainSynopsis, stderr)
	f := &trainFlags{opts: defaultTrainOptions()}
	if err := optflags.Bind(fs, &f.opts); err != nil {
		return nil, err
	}
	fs.StringVar(&f.out, "out", "", "write the network dataset to `DIR` (required); checkpoints go there, and a killed run resumes")
	fs.StringVar(&f.init, "init", "", "start from this network weights `FILE` or network dataset (default: random weights)")
	dirs, err := parseArgs(fs, args)
	if err != nil {
		return nil, err
	}
	if f.out == "" {
		return nil, usagef("--out DIR is required")
	}
	if len(dirs) == 0 {
		return nil, usagef("name at least one samples dataset (a selfplay output), oldest first")
	}
	if err := f.opts.Validate(); err != nil {
		return nil, flagError(err)
	}
	f.dirs = newestWindow(dirs, f.opts.Window)
	return f, nil
}

func cmdTrain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := parseTrainFlags(args, stderr)
	if err != nil {
		return err
	}
	out, dirs := f.out, f.dirs
	if err := removeManifest(out); err != nil {
		return err
	}
	log := newLogger(stderr, false)
	opts := f.opts.options()
	opts.CheckpointDir, opts.Log, opts.Progress = out, log, commandProgress(stderr, log, "train")
	nextDW := ""
	if m, err := datasets.ReadManifest(dirs[len(dirs)-1]); err == nil {
		nextDW = m.Meta[selfplay.MetaNextDW]
	}
	m, err := trainNetwork(ctx, out, dirs, f.init, f.opts.Preset, f.opts.MaxSamples, opts, "train",
		datasets.Manifest{Kind: train.NetworkKind, SchemaVersion: train.NetworkSchemaVersion, Stage: "train"}, nextDW)
	if err != nil {
		return err
	}
	if err := datasets.WriteManifest(out, m); err != nil {
		return err
	}
	if err := train.RemoveCheckpoints(out); err != nil {
		log.Warn("could not remove the training checkpoint", "err", err)
	}
	fmt.Fprintf(stdout, "trained %s for %s steps on %s samples: %s (losses policy %s, value %s, d-win %s)\n",
		m.Meta[selfplay.MetaNetConfig], m.Meta["steps"], m.Meta["samples"], filepath.Join(out, train.NetworkFile),
		m.Meta["loss_policy"], m.Meta["loss_value"], m.Meta["loss_dwin"])
	return nil
}
