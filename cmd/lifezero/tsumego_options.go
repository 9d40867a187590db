package main

import (
	"fmt"

	"lifezero/featmodel"
	"lifezero/pipelines"
	"lifezero/tsumego"
)

// tsumegoOptions are the training settings of a tsumego model, one type for
// the tsumego-train stage's params and the flags of "lifezero tsumego
// train" (optflags: flag = param with '-' for '_', ld's is --no-ld). What
// the stage takes from its inputs (the collection, the problems to be
// measured) and the command's own files (--out, --exclude, --proof-model,
// --samples-from) are not options.
//
// The JSON form is the stage's input hash: keep the fields' names and
// order, so that models cached before stay valid.
type tsumegoOptions struct {
	Folds      int  `yaml:"folds" help:"measure the model's move prediction by K-fold cross-validation (at least 2) before the final fit on all"`
	LD         bool `yaml:"ld" help:"add the life-and-death features (eye-space region, vital point, liberties) to the Fuego-style ones (off: an ablation)"`
	Ladders    bool `yaml:"ladders" help:"read ladders for the ladder features (a third of the solver's time per node; off, the ladder ids never fire)"`
	Iterations int  `yaml:"iterations" help:"most MM iterations"`
	Proofs     int  `yaml:"proofs" help:"also fit positions labelled by the solver's own proofs: a search of this many nodes per problem and living side (0: off)"`
	KillAll    int  `yaml:"killall" help:"also fit positions labelled by the solver's proofs of this many random 7x7 kill-all positions (budget: proofs, or 5000 nodes; 0: off)"`
	Variations int  `json:",omitempty" yaml:"variations" help:"also fit positions labelled by the solver's proofs of this many variations of the collection's problems, 1-3 moves drawn from the search's priors (budget: proofs, or 5000 nodes; 0: off)"`
}

// defaultTsumegoOptions are the defaults of both the stage and the command,
// the tsumego and featmodel packages' own.
func defaultTsumegoOptions() tsumegoOptions {
	return tsumegoOptions{Folds: tsumego.DefaultFolds, LD: true, Iterations: featmodel.DefaultBTConfig().MaxIterations}
}

// Validate catches bad params when the pipeline is loaded, at their line,
// and bad flags (flagError names the flag).
func (o *tsumegoOptions) Validate() error {
	switch {
	case o.Folds < 2:
		return &pipelines.ParamError{Key: "folds", Msg: fmt.Sprintf("%d: want at least 2", o.Folds)}
	case o.Iterations < 1:
		return &pipelines.ParamError{Key: "iterations", Msg: fmt.Sprintf("%d: want at least 1", o.Iterations)}
	case o.Proofs < 0:
		return &pipelines.ParamError{Key: "proofs", Msg: fmt.Sprintf("%d: want 0 (off) or a node budget", o.Proofs)}
	case o.KillAll < 0:
		return &pipelines.ParamError{Key: "killall", Msg: fmt.Sprintf("%d: want 0 (off) or a number of positions", o.KillAll)}
	case o.Variations < 0:
		return &pipelines.ParamError{Key: "variations", Msg: fmt.Sprintf("%d: want 0 (off) or a number of positions", o.Variations)}
	}
	return nil
}
