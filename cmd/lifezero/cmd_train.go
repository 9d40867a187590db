package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"lifezero/datasets"
	"lifezero/pipelines"
	"lifezero/selfplay"
	"lifezero/train"
)

const trainSynopsis = "train --out DIR [--init FILE|DATASET] [--preset 5x64] [--steps N] [--batch N] [--optimizer momentum|adam] " +
	"[--lr X] [--low-lr X] [--lr-drop N] [--max-samples N] [--checkpoint-every N] [--seed N] SAMPLES..."

func cmdTrain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("train", trainSynopsis, stderr)
	d := train.DefaultNetOptions()
	out := fs.String("out", "", "write the network dataset to `DIR` (required); checkpoints go there, and a killed run resumes")
	init := fs.String("init", "", "start from this network weights `FILE` or network dataset (default: random weights)")
	preset := fs.String("preset", "", "`shape` of a new network (default: the samples' shape)")
	steps := fs.Int("steps", d.Steps, "`N` optimisation steps")
	batch := fs.Int("batch", d.BatchSize, "`N` samples per step")
	optimizer := fs.String("optimizer", d.Train.Optimizer, "momentum or adam")
	lr := fs.Float64("lr", d.Train.LearningRate, "learning `rate`")
	lowLR := fs.Float64("low-lr", d.LowLR, "learning `rate` after --lr-drop steps")
	drop := fs.Int("lr-drop", d.LRDropStep, "drop the rate at step `N` (0: never)")
	maxSamples := fs.Int("max-samples", 0, "train on the newest `N` samples (0: all)")
	every := fs.Int("checkpoint-every", d.CheckpointEvery, "checkpoint every `N` steps")
	logEvery := fs.Int("log-every", d.LogEvery, "`N` steps per loss point")
	noAugment := fs.Bool("no-augment", false, "do not map samples by random board symmetries")
	seed := fs.Uint64("seed", 1, "random `seed`")
	dirs, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if *out == "" {
		return usagef("--out DIR is required")
	}
	if len(dirs) == 0 {
		return usagef("name at least one samples dataset (a selfplay output), oldest first")
	}
	opts := d
	opts.Steps, opts.BatchSize, opts.LowLR, opts.LRDropStep = *steps, *batch, *lowLR, *drop
	opts.Train.Optimizer, opts.Train.LearningRate = *optimizer, *lr
	opts.CheckpointEvery, opts.LogEvery, opts.Augment = *every, *logEvery, !*noAugment
	opts.Train.Seed, opts.Seed = *seed, *seed+1
	if err := removeManifest(*out); err != nil {
		return err
	}
	log := newLogger(stderr, false)
	var prog pipelines.Progress = pipelines.NewLogProgress(log)
	if isTerminal(stderr) {
		prog = pipelines.NewBarProgress(stderr, "train")
	}
	opts.CheckpointDir, opts.Log, opts.Progress = *out, log, prog
	nextDW := ""
	if m, err := datasets.ReadManifest(dirs[len(dirs)-1]); err == nil {
		nextDW = m.Meta[selfplay.MetaNextDW]
	}
	m, err := trainNetwork(ctx, *out, dirs, *init, *preset, *maxSamples, opts, "train",
		datasets.Manifest{Kind: train.NetworkKind, SchemaVersion: train.NetworkSchemaVersion, Stage: "train"}, nextDW)
	if err != nil {
		return err
	}
	if err := datasets.WriteManifest(*out, m); err != nil {
		return err
	}
	if err := train.RemoveCheckpoints(*out); err != nil {
		log.Warn("could not remove the training checkpoint", "err", err)
	}
	fmt.Fprintf(stdout, "trained %s for %s steps on %s samples: %s (losses policy %s, value %s, d-win %s)\n",
		m.Meta[selfplay.MetaNetConfig], m.Meta["steps"], m.Meta["samples"], filepath.Join(*out, train.NetworkFile),
		m.Meta["loss_policy"], m.Meta["loss_value"], m.Meta["loss_dwin"])
	return nil
}
