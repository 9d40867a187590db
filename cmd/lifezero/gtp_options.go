package main

import (
	"fmt"

	"lifezero/gtpengine"
	"lifezero/pipelines"
)

// gtpOptions are the settings of "lifezero gtp": the search of the network
// player and the engine's game. It has no stage, but its names are the
// params' of the stages where they mean the same: simulations as in
// selfplay, batch as in solve, size, seed and sample_moves as in match.
// The player itself (--features-model, --features or --net) is named by
// flags of the command's own (gtpFlags).
type gtpOptions struct {
	Simulations int     `yaml:"simulations" help:"with --net: PUCT simulations per move (0: play the policy's best move)"`
	Batch       int     `yaml:"batch" help:"with --simulations: leaves evaluated per network call, under virtual loss (1: the plain sequential search)"`
	Size        int     `yaml:"size" help:"board size at start (0: the network's with --net, else 19)"`
	Komi        float64 `yaml:"komi" help:"komi at start"`
	Seed        uint64  `yaml:"seed" help:"seed of the opening draws and tie-breaks"`
	SampleMoves int     `yaml:"sample_moves" help:"draw the first N moves of each game from the softmax of the player's scores, so that games differ"`
	Resign      bool    `yaml:"resign" help:"resign when the opponent's unconditionally alive area wins the game"`
}

// defaultGtpOptions are the command's defaults: the plain network policy,
// komi 7.5 and resigning on.
func defaultGtpOptions() gtpOptions {
	return gtpOptions{Batch: 1, Komi: 7.5, Seed: 1, Resign: true}
}

// Validate checks the options; the board size is the engine's to check,
// against its player.
func (o *gtpOptions) Validate() error {
	switch {
	case o.Simulations < 0:
		return &pipelines.ParamError{Key: "simulations", Msg: fmt.Sprintf("%d: want 0 or more", o.Simulations)}
	case o.Batch != 1 && o.Simulations == 0:
		return &pipelines.ParamError{Key: "batch", Msg: "goes with --simulations"}
	case o.Batch < 1:
		return &pipelines.ParamError{Key: "batch", Msg: fmt.Sprintf("%d: want at least 1", o.Batch)}
	case o.SampleMoves < 0:
		return &pipelines.ParamError{Key: "sample_moves", Msg: fmt.Sprintf("%d: want 0 or more", o.SampleMoves)}
	}
	return nil
}

// engineOptions returns the engine's options of o for a player whose
// board is netBoard (0: no size of its own).
func (o *gtpOptions) engineOptions(version string, netBoard int) gtpengine.Options {
	size := o.Size
	if size == 0 {
		size = netBoard
	}
	return gtpengine.Options{Version: version, Size: size, Komi: o.Komi, Seed: o.Seed, SampleMoves: o.SampleMoves, NoResign: !o.Resign}
}
