package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"

	"lifezero/evaluate"
	"lifezero/featmodel"
	"lifezero/internal/optflags"
	"lifezero/movecands"
	"lifezero/movepred"
	"lifezero/pipelines"
)

const movepredSynopsis = "movepred --data DATASET [--model WEIGHTS]... [--random] [--json] [--frequencies] [--report DIR] [--seed N] [--phase-size N]"

// movepredFlags are the parsed flags of "lifezero movepred": the
// evaluation options (shared with the movepred stage) and the command's own
// inputs and outputs.
type movepredFlags struct {
	opts         movepredOptions
	data, models stringList
	json         bool
	report       string
}

func parseMovepredFlags(args []string, stderr io.Writer) (*movepredFlags, error) {
	fs := newFlagSet("movepred", movepredSynopsis, stderr)
	f := &movepredFlags{opts: movepredCommandOptions()}
	if err := optflags.Bind(fs, &f.opts); err != nil {
		return nil, err
	}
	fs.Var(&f.data, "data", "movecands `DATASET` to evaluate on (repeatable; required)")
	fs.Var(&f.models, "model", "feature-model weights `FILE` (repeatable)")
	fs.BoolVar(&f.json, "json", false, "print one JSON object per player (player, positions, top1, top5, top_k, phase, ...) instead of tables")
	fs.StringVar(&f.report, "report", "", "also write the report section (tables, per-phase plot, feature frequencies) into `DIR`/report/")
	rest, err := parseArgs(fs, args)
	if err != nil {
		return nil, err
	}
	switch {
	case len(rest) > 0:
		return nil, usagef("movepred takes no arguments, got %q (models go after --model)", rest)
	case len(f.data) == 0:
		return nil, usagef("--data DATASET is required")
	case len(f.models) == 0 && !f.opts.Random:
		return nil, usagef("name at least one player: --model WEIGHTS or --random")
	}
	if err := f.opts.Validate(); err != nil {
		return nil, flagError(err)
	}
	return f, nil
}

// cmdMovepred evaluates feature models (and the random player) on the move
// prediction of a movecands dataset.
func cmdMovepred(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := parseMovepredFlags(args, stderr)
	if err != nil {
		return err
	}
	d, err := movecands.Open(f.data...)
	if err != nil {
		return err
	}
	rankers, err := modelRankers(f.models, d.NumFeatures())
	if err != nil {
		return err
	}
	rankers = f.opts.withRandom(rankers)
	log := newLogger(stderr, false)
	results, err := evaluatePlayers(ctx, d, rankers, f.opts.evalOptions(),
		commandProgress(stderr, log, "movepred"))
	if err != nil {
		return err
	}
	if f.report != "" {
		rep := evaluate.MovePredReport{Data: dataDescription(d), FeatureName: d.Features().Name}
		if err := evaluate.WriteMovePredSection(f.report, results, rep); err != nil {
			return err
		}
		log.Info("report section written", "dir", filepath.Join(f.report, evaluate.ReportDir))
	}
	if f.json {
		enc := json.NewEncoder(stdout)
		for _, r := range results {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		return nil
	}
	return printResults(stdout, results)
}

// modelRankers loads weights files as players, checking that each model was
// trained on a feature set of numFeatures ids. Players are named after their
// model, and after their file too when two models share a name.
func modelRankers(paths []string, numFeatures int) ([]movepred.Ranker, error) {
	var models []featmodel.Model
	count := map[string]int{}
	for _, p := range paths {
		m, err := featmodel.LoadModel(p)
		if err != nil {
			return nil, err
		}
		if err := checkModelFeatures(m, numFeatures); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		models = append(models, m)
		count[m.Name()]++
	}
	rankers := make([]movepred.Ranker, len(models))
	for i, m := range models {
		r := movepred.FromModel(m)
		if count[m.Name()] > 1 {
			r.Label = m.Name() + "(" + filepath.Base(paths[i]) + ")"
		}
		rankers[i] = r
	}
	return rankers, nil
}

// checkModelFeatures fails when the model knows another number of feature
// ids than the data's feature set: its ids would mean other features.
func checkModelFeatures(m featmodel.Model, numFeatures int) error {
	nf, ok := m.(interface{ NumFeatures() int })
	if ok && nf.NumFeatures() != numFeatures {
		return fmt.Errorf("the %s model has %d feature ids but the data's feature set has %d: it was trained on another feature set",
			m.Name(), nf.NumFeatures(), numFeatures)
	}
	return nil
}

// evaluatePlayers runs the players over every position of d in one pass,
// showing progress in positions.
func evaluatePlayers(ctx context.Context, d *movecands.Data, rankers []movepred.Ranker, opt movepred.Options, pr pipelines.Progress) ([]movepred.Result, error) {
	pr.Start(int(d.Positions()), "positions")
	results, err := movepred.Evaluate(ctx, &countingSource{src: d, pr: pr}, opt, rankers...)
	pr.Finish()
	return results, err
}

// countingSource reports the samples scanned to a Progress, in steps of 64.
type countingSource struct {
	src featmodel.SampleSource
	pr  pipelines.Progress
}

func (c *countingSource) Scan(ctx context.Context, visit func(*featmodel.Sample) error) error {
	n := 0
	err := c.src.Scan(ctx, func(s *featmodel.Sample) error {
		if n++; n%64 == 0 {
			c.pr.Add(64)
		}
		return visit(s)
	})
	c.pr.Add(n % 64)
	return err
}

// printResults writes the accuracy table and the top-1 rate per game phase.
func printResults(w io.Writer, results []movepred.Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "player\tpositions\ttop-1\ttop-5\ttop-10\tmean rank\tmean log-likelihood\t")
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t%d\t%.2f%%\t%.2f%%\t%.2f%%\t%.1f\t%.3f\t\n", r.Player, r.Positions, 100*r.Top1, 100*r.Top5,
			100*r.TopK[min(9, len(r.TopK)-1)], r.MeanRank, r.MeanLogLikelihood)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\ntop-1 per game phase (moves played before the position):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "phase\tpositions\t")
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t", r.Player)
	}
	fmt.Fprintln(tw)
	for i, p := range results[0].Phases {
		fmt.Fprintf(tw, "%d-%d\t%d\t", p.From, p.To, p.Positions)
		for _, r := range results {
			fmt.Fprintf(tw, "%.1f%%\t", 100*r.Phases[i].Top1)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}
