package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"lifezero/game"
	"lifezero/internal/optflags"
	"lifezero/rzs"
	"lifezero/tsumego"
)

const tsumegoSynopsis = "tsumego train --out DIR [--exclude DIR]... [--folds K] [--no-ld] [--ladders] [--iterations N] [--proofs N [--proof-model DIR]] [--killall N] [--variations N] [--samples-from FILE]... COLLECTION"

// tsumegoFlags are the parsed flags of "lifezero tsumego train": the
// training options (shared with the tsumego-train stage) and the command's
// own inputs and outputs.
type tsumegoFlags struct {
	opts        tsumegoOptions
	out         string
	exclude     stringList
	proofModel  string
	samplesFrom stringList
	collection  string
}

func parseTsumegoFlags(args []string, stderr io.Writer) (*tsumegoFlags, error) {
	fs := newFlagSet("tsumego train", tsumegoSynopsis, stderr)
	f := &tsumegoFlags{opts: defaultTsumegoOptions()}
	if err := optflags.Bind(fs, &f.opts); err != nil {
		return nil, err
	}
	fs.StringVar(&f.out, "out", "", "write the model directory `DIR` (model.weights, features.json, tsumego.json): the solver's --features-model")
	fs.Var(&f.exclude, "exclude", "problem `DIR`s (or files) to be measured: training problems whose stones appear in one of their positions are left out (repeatable)")
	fs.StringVar(&f.proofModel, "proof-model", "", "order the --proofs searches by the solver's evaluator reweighted by the tsumego model in `DIR` (a previous tsumego train's --out), a second round of proofs")
	fs.Var(&f.samplesFrom, "samples-from", "also fit the proof-labelled positions in `FILE`, the "+tsumego.SamplesFile+" of an earlier model (repeatable)")
	rest, err := parseArgs(fs, args)
	if err != nil {
		return nil, err
	}
	switch {
	case len(rest) != 1:
		return nil, usagef("tsumego train: name one collection directory of first-move .sgf problems")
	case f.out == "":
		return nil, usagef("tsumego train: --out DIR is required")
	case f.proofModel != "" && f.opts.Proofs == 0 && f.opts.KillAll == 0 && f.opts.Variations == 0:
		return nil, usagef("tsumego train: --proof-model goes with --proofs N, --killall N or --variations N")
	}
	if err := f.opts.Validate(); err != nil {
		return nil, flagError(err)
	}
	f.collection = rest[0]
	return f, nil
}

func cmdTsumego(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "train" {
		return usagef("want a subcommand: %s", tsumegoSynopsis)
	}
	f, err := parseTsumegoFlags(args[1:], stderr)
	if err != nil {
		return err
	}
	var order rzs.Evaluator
	if f.proofModel != "" {
		r, _, err := tsumego.LoadRanker(f.proofModel)
		if err != nil {
			return fmt.Errorf("--proof-model: %w", err)
		}
		order = rzs.Learned{Base: tsumego.TrainingEvaluator(), Ranker: r}
	}
	src := extraSources{order: order}
	for _, path := range f.samplesFrom {
		src.files = append(src.files, samplesFile{path: path, via: "--samples-from"})
	}
	meta, loaded, err := trainTsumego(ctx, f.opts, src, f.collection, f.collection, f.exclude, f.out, commandProgress(stderr, newLogger(stderr, false), "tsumego"))
	if err != nil {
		return err
	}
	a := meta.CrossValidated
	fmt.Fprintf(stdout, "tsumego: %d problems (%d left out as measured positions)\n", loaded, len(meta.Excluded))
	fmt.Fprintf(stdout, "%d-fold cross-validation: top-1 %.1f%%, top-3 %.1f%%, mean rank %.2f of %.1f moves (uniform top-1 %.1f%%)\n",
		meta.Folds, 100*a.Top1, 100*a.Top3, a.MeanRank, a.MeanMoves, 100*a.UniformTop1)
	if meta.ProofSamples > 0 || meta.ProofSamplesExcluded > 0 {
		fmt.Fprintf(stdout, "%d positions labelled by the solver's proofs fitted besides the book's moves (%d left out as overlapping measured positions)\n",
			meta.ProofSamples, meta.ProofSamplesExcluded)
	}
	fmt.Fprintf(stdout, "model on all %d problems (%d MM iterations) written to %s\n", meta.Problems, meta.Iterations, f.out)
	return nil
}

// loadMeasured reads the problems to be measured (--exclude: problem
// directories or files).
func loadMeasured(paths []string) ([]*game.Problem, error) {
	var measured []*game.Problem
	for _, path := range paths {
		prs, err := loadProblems(path)
		if err != nil {
			return nil, fmt.Errorf("--exclude: %w", err)
		}
		measured = append(measured, prs...)
	}
	return measured, nil
}

// excludeMeasured drops the problems whose stones appear in a position to
// be measured (see tsumego.Contains), returning the kept ones and the
// dropped names. With descendants it also drops those whose position holds
// every stone of a measured one: a position reached from a measured
// problem (a sample of a proof, a random kill-all position that passed
// through it) would carry that problem's answer as well.
func excludeMeasured(problems []tsumego.Problem, measured []*game.Problem, descendants bool) ([]tsumego.Problem, []string) {
	var kept []tsumego.Problem
	var dropped []string
	for _, p := range problems {
		if hit := measuredHit(p, measured, descendants); hit != "" {
			dropped = append(dropped, p.Name+" (in "+strings.TrimSuffix(filepath.Base(hit), ".json")+")")
			continue
		}
		kept = append(kept, p)
	}
	return kept, dropped
}

// measuredHit returns the ID of a measured problem p overlaps (see
// excludeMeasured), or "".
func measuredHit(p tsumego.Problem, measured []*game.Problem, descendants bool) string {
	for _, m := range measured {
		if tsumego.Contains(m.Start, p) || descendants && tsumego.Contains(p.Position, tsumego.Problem{Position: m.Start}) {
			return m.ID
		}
	}
	return ""
}
