package train

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"lifezero/nn"
	"lifezero/progress"
)

// NetOptions configure TrainNet. Start from DefaultNetOptions.
type NetOptions struct {
	// Config is the network's shape; the samples must fit it.
	Config nn.Config
	// Train holds the optimiser settings (LearningRate is the first
	// phase's rate) and the starting weights (Init: the previous
	// generation's network; nil starts from random weights by Train.Seed).
	Train nn.TrainOptions
	// LowLR is the learning rate from step LRDropStep on (the paper: 0.02,
	// then 0.002); LRDropStep 0 never drops.
	LowLR      float64
	LRDropStep int
	// Steps is the number of optimisation steps; BatchSize the samples per
	// step, drawn with replacement.
	Steps, BatchSize int
	// Augment maps each sample by a random board symmetry.
	Augment bool
	// Seed seeds the batches (step s draws from Seed and s).
	Seed uint64
	// CheckpointDir, when set, holds a checkpoint (weights and step) saved
	// every CheckpointEvery steps and when the context is cancelled;
	// TrainNet resumes from it when it was made by the same settings.
	CheckpointDir   string
	CheckpointEvery int
	// LogEvery is the number of steps each loss point averages.
	LogEvery int
	Log      *slog.Logger
	Progress progress.Reporter // counts training steps; nil: none
}

// DefaultNetOptions returns nn.DefaultTrainOptions (momentum SGD at 0.02)
// dropping to 0.002 at step 6000, 10,000 steps of 64 samples with symmetry
// augmentation, a checkpoint every 200 steps and a loss point every 20.
func DefaultNetOptions() NetOptions {
	return NetOptions{
		Train: nn.DefaultTrainOptions(), LowLR: 0.002, LRDropStep: 6000, Steps: 10000, BatchSize: 64,
		Augment: true, CheckpointEvery: 200, LogEvery: 20,
	}
}

// Validate checks the options.
func (o *NetOptions) Validate() error {
	switch {
	case o.Steps < 0:
		return fmt.Errorf("steps %d: want >= 0", o.Steps)
	case o.BatchSize < 1:
		return fmt.Errorf("batch size %d: want at least 1", o.BatchSize)
	case o.LRDropStep < 0 || (o.LRDropStep > 0 && !(o.LowLR > 0)):
		return fmt.Errorf("learning-rate drop at step %d to %v: want a step >= 0 and a rate > 0", o.LRDropStep, o.LowLR)
	case o.CheckpointEvery < 1 || o.LogEvery < 1:
		return fmt.Errorf("checkpoint every %d, log every %d: want at least 1", o.CheckpointEvery, o.LogEvery)
	}
	return o.Config.Validate()
}

// LearningRate returns the rate of step s (0-based).
func (o *NetOptions) LearningRate(s int) float64 {
	if o.LRDropStep > 0 && s >= o.LRDropStep {
		return o.LowLR
	}
	return o.Train.LearningRate
}

// LossPoint is the mean of the losses over the LogEvery steps that end at
// Step (1-based: the number of steps taken).
type LossPoint struct {
	Step                       int
	LR                         float64
	Policy, Value, DWin, Total float64
}

// NetResult is a finished training run.
type NetResult struct {
	Weights *nn.Weights
	Steps   int
	// Resumed is the step the run resumed from (0 for a fresh start).
	Resumed int
	Losses  []LossPoint
	// Seconds is the training time of this call; SamplesPerSecond the rate
	// of its steps.
	Seconds, SamplesPerSecond float64
}

// maxBadSteps is how many failed (NaN) steps in a row end a run.
const maxBadSteps = 10

// TrainNet trains the network on data for opts.Steps steps, resuming from a
// checkpoint in opts.CheckpointDir left by an interrupted run with the same
// settings. On cancellation it saves a checkpoint and returns ctx.Err().
//
// A resumed run continues at the saved step with the saved weights
// (batch-norm statistics included) and optimiser state (momentum, or
// Adam's moments and step count), and draws the same batches as an
// uninterrupted one: it ends with the same weights.
func TrainNet(ctx context.Context, data *NetData, opts NetOptions) (*NetResult, error) {
	if err := opts.Validate(); err != nil {
		return nil, fmt.Errorf("train: network: %w", err)
	}
	if err := data.check(opts.Config); err != nil {
		return nil, err
	}
	log := opts.Log
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	fp := netFingerprint(data, &opts)
	res := &NetResult{}
	trainOpts := opts.Train
	var state *nn.OptimizerState
	if opts.CheckpointDir != "" {
		ck, w, st, err := loadCheckpoint(opts.CheckpointDir, fp)
		if err != nil {
			return nil, err
		}
		if ck != nil {
			trainOpts.Init, state = w, st
			res.Resumed, res.Losses = ck.Step, ck.Losses
			log.Info("training resumes from checkpoint", "step", ck.Step, "dir", opts.CheckpointDir)
		}
	}
	tr, err := nn.NewTrainer(opts.Config, trainOpts)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	if state != nil {
		if err := tr.SetOptimizerState(state); err != nil {
			return nil, fmt.Errorf("train: checkpoint in %s: %w", opts.CheckpointDir, err)
		}
	}
	b, err := newBatcher(data, opts.BatchSize, opts.Seed, opts.Augment)
	if err != nil {
		return nil, err
	}
	prog := progress.Or(opts.Progress)
	prog.Start(opts.Steps, "training steps")
	prog.Add(res.Resumed)
	defer prog.Finish()

	began := time.Now()
	step := res.Resumed
	save := func() error {
		if opts.CheckpointDir == "" {
			return nil
		}
		return saveCheckpoint(opts.CheckpointDir, fp, step, tr.Weights(), tr.OptimizerState(), res.Losses)
	}
	var acc LossPoint
	accN, bad := 0, 0
	for step < opts.Steps {
		if ctx.Err() != nil {
			if err := save(); err != nil {
				return nil, err
			}
			return nil, ctx.Err()
		}
		lr := opts.LearningRate(step)
		if err := tr.SetLearningRate(lr); err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
		l, err := tr.Step(b.draw(step))
		step++
		prog.Add(1)
		if err != nil {
			if bad++; bad >= maxBadSteps {
				return nil, fmt.Errorf("train: %d failed steps in a row, the last: %w", bad, err)
			}
			log.Warn("training step skipped", "step", step, "err", err)
		} else {
			bad = 0
			acc.Policy += l.Policy
			acc.Value += l.Value
			acc.DWin += l.DWin
			acc.Total += l.Total
			accN++
		}
		if step%opts.LogEvery == 0 || step == opts.Steps {
			if accN > 0 {
				f := 1 / float64(accN)
				p := LossPoint{Step: step, LR: lr, Policy: acc.Policy * f, Value: acc.Value * f, DWin: acc.DWin * f, Total: acc.Total * f}
				res.Losses = append(res.Losses, p)
				log.Debug("training", "step", step, "lr", lr, "policy", p.Policy, "value", p.Value, "dwin", p.DWin)
			}
			acc, accN = LossPoint{}, 0
		}
		if step%opts.CheckpointEvery == 0 && step < opts.Steps {
			if err := save(); err != nil {
				return nil, err
			}
		}
	}
	if err := save(); err != nil {
		return nil, err
	}
	res.Seconds = time.Since(began).Seconds()
	res.Steps = step
	res.Weights = tr.Weights()
	if done := step - res.Resumed; done > 0 && res.Seconds > 0 {
		res.SamplesPerSecond = float64(done*opts.BatchSize) / res.Seconds
	}
	if n := len(res.Losses); n > 0 {
		last := res.Losses[n-1]
		log.Info("training done", "steps", step, "policy", fmt.Sprintf("%.4f", last.Policy), "value",
			fmt.Sprintf("%.4f", last.Value), "dwin", fmt.Sprintf("%.4f", last.DWin),
			"samples_per_s", fmt.Sprintf("%.0f", res.SamplesPerSecond))
	}
	return res, nil
}
