package main

import (
	"fmt"

	"lifezero/nn"
	"lifezero/pipelines"
	"lifezero/train"
)

// trainOptions are the network training settings, one type for the train
// stage's params and the flags of "lifezero train" (a param's flag is its
// name with '-' for '_'). The starting network and the samples, which the
// stage takes from its inputs, the command takes as --init and arguments
// (trainFlags).
//
// The JSON form is the stage's input hash: its fields and their order are
// those of the params before the command shared them, so networks cached
// then stay valid.
type trainOptions struct {
	Preset          string  `yaml:"preset" help:"shape <blocks>x<filters> of a new network (no starting network); empty: the samples' shape"`
	Steps           int     `yaml:"steps" help:"optimisation steps"`
	BatchSize       int     `yaml:"batch_size" help:"samples per step, drawn with replacement"`
	Optimizer       string  `yaml:"optimizer" help:"momentum (SGD, the paper's) or adam"`
	LR              float64 `yaml:"lr" help:"learning rate (the paper: 0.02)"`
	LowLR           float64 `yaml:"low_lr" help:"learning rate from lr_drop_step on (the paper: 0.002)"`
	LRDropStep      int     `yaml:"lr_drop_step" help:"step at which the rate drops to low_lr (0: never)"`
	Momentum        float64 `yaml:"momentum" help:"SGD momentum"`
	WeightDecay     float64 `yaml:"weight_decay" help:"L2 coefficient of the weights"`
	Window          int     `yaml:"window" help:"train on the newest this many samples datasets (0: all)"`
	MaxSamples      int     `yaml:"max_samples" help:"keep at most this many of the newest samples (0: all)"`
	Augment         bool    `yaml:"augment" help:"map each sample by a random board symmetry"`
	CheckpointEvery int     `yaml:"checkpoint_every" help:"steps between checkpoints (the unit of resume)"`
	LogEvery        int     `yaml:"log_every" help:"steps per point of the loss curve"`
	Seed            uint64  `yaml:"seed" help:"random seed of the initial weights and the batches"`
}

// defaultTrainOptions are the defaults of both the stage and the command:
// the optimiser of train.DefaultNetOptions, at the demo's scale (200 steps,
// no rate drop, a checkpoint every 50 steps and a loss point every 10).
func defaultTrainOptions() trainOptions {
	d := train.DefaultNetOptions()
	return trainOptions{Steps: 200, BatchSize: d.BatchSize, Optimizer: d.Train.Optimizer, LR: d.Train.LearningRate,
		LowLR: d.LowLR, Momentum: d.Train.Momentum, WeightDecay: d.Train.WeightDecay, Augment: d.Augment,
		CheckpointEvery: 50, LogEvery: 10, Seed: 1}
}

// Validate catches bad params when the pipeline is loaded, at their line,
// and bad flags (flagError names the flag).
func (o *trainOptions) Validate() error {
	if o.Preset != "" {
		if _, err := nn.Preset(o.Preset, 7); err != nil {
			return &pipelines.ParamError{Key: "preset", Msg: err.Error()}
		}
	}
	for _, c := range []struct {
		key    string
		v, min int
	}{
		{"steps", o.Steps, 0}, {"batch_size", o.BatchSize, 1}, {"lr_drop_step", o.LRDropStep, 0},
		{"window", o.Window, 0}, {"max_samples", o.MaxSamples, 0},
		{"checkpoint_every", o.CheckpointEvery, 1}, {"log_every", o.LogEvery, 1},
	} {
		if err := paramAtLeast(c.key, c.v, c.min); err != nil {
			return err
		}
	}
	switch {
	case o.Optimizer != nn.OptimizerMomentum && o.Optimizer != nn.OptimizerAdam:
		return &pipelines.ParamError{Key: "optimizer", Msg: fmt.Sprintf("%q: want %s or %s", o.Optimizer, nn.OptimizerMomentum, nn.OptimizerAdam)}
	case !(o.LR > 0):
		return &pipelines.ParamError{Key: "lr", Msg: fmt.Sprintf("%v: want > 0", o.LR)}
	case o.LRDropStep > 0 && !(o.LowLR > 0):
		return &pipelines.ParamError{Key: "low_lr", Msg: fmt.Sprintf("%v: want > 0 with lr_drop_step", o.LowLR)}
	case o.Momentum < 0 || o.Momentum >= 1:
		return &pipelines.ParamError{Key: "momentum", Msg: fmt.Sprintf("%v: want 0 <= m < 1", o.Momentum)}
	case o.WeightDecay < 0:
		return &pipelines.ParamError{Key: "weight_decay", Msg: fmt.Sprintf("%v: want 0 or more", o.WeightDecay)}
	}
	// The training package's own checks, on any valid shape (the real one
	// comes from the samples or the starting network).
	n := o.options()
	n.Config, _ = nn.Preset(nn.Preset2x16, 7)
	if err := n.Validate(); err != nil {
		return &pipelines.ParamError{Msg: err.Error()}
	}
	return nil
}

// options returns the training options of o (without the network's shape,
// the starting weights and the checkpoint directory).
func (o *trainOptions) options() train.NetOptions {
	n := train.DefaultNetOptions()
	n.Steps, n.BatchSize, n.LowLR, n.LRDropStep = o.Steps, o.BatchSize, o.LowLR, o.LRDropStep
	n.Train.Optimizer, n.Train.LearningRate, n.Train.Momentum, n.Train.WeightDecay = o.Optimizer, o.LR, o.Momentum, o.WeightDecay
	n.Augment, n.CheckpointEvery, n.LogEvery = o.Augment, o.CheckpointEvery, o.LogEvery
	n.Train.Seed, n.Seed = o.Seed, o.Seed+1
	return n
}

// newestWindow returns the newest window of dirs (oldest first), all of
// them for window 0.
func newestWindow[T any](dirs []T, window int) []T {
	if window > 0 && len(dirs) > window {
		return dirs[len(dirs)-window:]
	}
	return dirs
}
