package main

import (
	"encoding/json"
	"fmt"
	"runtime"

	"lifezero/nn"
	"lifezero/pipelines"
	"lifezero/selfplay"
)

// selfplayOptions are self-play's settings, one type for the selfplay
// stage's params and the flags of "lifezero selfplay" (a param's flag is its
// name with '-' for '_'). What the stage takes from its inputs (the
// network, d_w from an earlier generation, the problems) the command takes
// as flags and arguments of its own (selfplayFlags).
//
// The JSON form is the stage's input hash (see MarshalJSON): its fields
// and their order are those of the params before the command shared them,
// so samples cached then stay valid.
type selfplayOptions struct {
	Preset          string  `yaml:"preset" help:"network shape <blocks>x<filters> of the samples when no network is given (generation 0: uniform priors)"`
	Board           int     `yaml:"board" help:"board size when no network or problem gives one"`
	MovePlanes      int     `yaml:"move_planes" help:"one-hot move-number input planes when no network gives them"`
	Games           int     `yaml:"games" help:"games to play"`
	Simulations     int     `yaml:"simulations" help:"PUCT simulations per move (the paper: 400)"`
	TempMoves       int     `yaml:"temperature_moves" help:"moves from the start sampled by visit counts; later moves take the most visited"`
	DirichletAlpha  float64 `yaml:"dirichlet_alpha" help:"root noise concentration (the paper: 0.03)"`
	DirichletWeight float64 `yaml:"dirichlet_weight" help:"root noise weight (the paper: 0.25)"`
	DW              int     `yaml:"dw" help:"d_w when no input carries one: the living side wins by living by this move number (0: the network's D)"`
	MaxMoves        int     `yaml:"max_moves" help:"move cap per game, from its start (0: twice the region's points)"`
	GamesPerFile    int     `yaml:"games_per_file" help:"games played together (one evaluation batch) and written per file: the unit of resume"`
	LeavesPerGame   int     `yaml:"leaves_per_game" help:"leaves a game queues per batch under virtual loss"`
	Workers         int     `yaml:"workers" help:"chunks of games played at once (0: one per CPU)"`
	Seed            uint64  `yaml:"seed" help:"random seed (a stage mixes in its name, so that generations differ)"`
	ReuseTree       bool    `yaml:"reuse_tree" json:"-" help:"start each search from the subtree of the move played (its visits count as simulations)"`
	EvalCache       int     `yaml:"eval_cache" json:"-" help:"cache the network's outputs for up to this many positions per chunk (0: off)"`
}

// defaultSelfplayOptions are the defaults of both the stage and the
// command: self-play's own (selfplay.DefaultOptions) but for the scale of
// the demo, 8 games of 7x7 kill-all at 32 simulations, and workers 0 for
// one per CPU of the machine that runs it.
func defaultSelfplayOptions() selfplayOptions {
	d := selfplay.DefaultOptions()
	return selfplayOptions{Preset: nn.Preset2x16, Board: 7, Games: 8, Simulations: 32, TempMoves: d.TempMoves,
		DirichletAlpha: d.DirichletAlpha, DirichletWeight: d.DirichletWeight, GamesPerFile: d.GamesPerFile,
		LeavesPerGame: d.LeavesPerGame, Seed: 1, ReuseTree: d.ReuseTree, EvalCache: d.CacheEntries}
}

// MarshalJSON is the canonical form the stage's input hash is computed
// from: the params as they are, except that reuse_tree appears only when
// off (every stage run before it was a param reused the tree, and its cache
// must stay valid) and eval_cache never (a cache of the network's outputs
// changes no game, as Workers would not; selfplay's own resume fingerprint
// leaves both out likewise).
func (o selfplayOptions) MarshalJSON() ([]byte, error) {
	type fields selfplayOptions // the same fields without this method
	return json.Marshal(struct {
		fields
		NoReuseTree bool `json:",omitempty"`
	}{fields(o), !o.ReuseTree})
}

// Validate catches bad params when the pipeline is loaded, at their line,
// and bad flags (flagError names the flag).
func (o *selfplayOptions) Validate() error {
	for _, c := range []struct {
		key    string
		v, min int
	}{
		{"games", o.Games, 1}, {"simulations", o.Simulations, 2}, {"games_per_file", o.GamesPerFile, 1},
		{"leaves_per_game", o.LeavesPerGame, 1}, {"workers", o.Workers, 0}, {"dw", o.DW, 0},
		{"max_moves", o.MaxMoves, 0}, {"temperature_moves", o.TempMoves, 0}, {"move_planes", o.MovePlanes, 0},
		{"eval_cache", o.EvalCache, 0},
	} {
		if err := paramAtLeast(c.key, c.v, c.min); err != nil {
			return err
		}
	}
	switch {
	case o.DirichletAlpha < 0:
		return &pipelines.ParamError{Key: "dirichlet_alpha", Msg: fmt.Sprintf("%v: want 0 or more", o.DirichletAlpha)}
	case o.DirichletWeight < 0 || o.DirichletWeight > 1:
		return &pipelines.ParamError{Key: "dirichlet_weight", Msg: fmt.Sprintf("%v: want 0..1", o.DirichletWeight)}
	case o.DirichletWeight > 0 && o.DirichletAlpha == 0:
		return &pipelines.ParamError{Key: "dirichlet_alpha", Msg: "0 with a noise weight: set dirichlet_weight to 0 for no noise"}
	}
	if _, err := nn.Preset(o.Preset, o.Board); err != nil {
		return &pipelines.ParamError{Key: "preset", Msg: err.Error()}
	}
	return nil
}

// paramAtLeast is the ParamError of an integer param below its least
// value, nil when v is at least min.
func paramAtLeast(key string, v, min int) error {
	if v >= min {
		return nil
	}
	if min == 0 {
		return &pipelines.ParamError{Key: key, Msg: fmt.Sprintf("%d: want 0 or more", v)}
	}
	return &pipelines.ParamError{Key: key, Msg: fmt.Sprintf("%d: want at least %d", v, min)}
}

// options returns the self-play options of o: all but the network, the
// starts and d_w, which come from the command's flags or the stage's
// inputs, with the seed as given (the stage mixes in its name).
func (o *selfplayOptions) options() selfplay.Options {
	opts := selfplay.DefaultOptions()
	opts.Games, opts.Simulations, opts.TempMoves = o.Games, o.Simulations, o.TempMoves
	opts.DirichletAlpha, opts.DirichletWeight = o.DirichletAlpha, o.DirichletWeight
	opts.MaxMoves, opts.GamesPerFile, opts.LeavesPerGame = o.MaxMoves, o.GamesPerFile, o.LeavesPerGame
	opts.Workers, opts.Seed = o.Workers, o.Seed
	if opts.Workers == 0 {
		opts.Workers = runtime.NumCPU()
	}
	opts.ReuseTree, opts.CacheEntries = o.ReuseTree, o.EvalCache
	return opts
}
