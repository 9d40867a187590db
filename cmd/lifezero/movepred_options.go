package main

import (
	"fmt"
	"math/rand/v2"

	"lifezero/movepred"
	"lifezero/pipelines"
)

// movepredOptions say what a move-prediction evaluation measures beside
// the models' accuracy, one type for the movepred stage's params and the
// flags of "lifezero movepred" (optflags: flag = param with '-' for '_').
// What the stage takes from its inputs (movecands data, features-train
// models) the command takes as flags of its own (--data, --model).
//
// The JSON form is the stage's input hash: keep the fields' names and
// order, so that results cached before stay valid.
type movepredOptions struct {
	Random      bool   `yaml:"random" help:"also evaluate the random legal player, the chance baseline"`
	Seed        uint64 `yaml:"seed" help:"seed of the random player"`
	PhaseSize   int    `yaml:"phase_size" help:"moves per game phase in the per-phase results (paper 004: 50)"`
	Frequencies bool   `yaml:"frequencies" help:"count feature frequencies in legal, played and predicted moves (paper 004 Sec. 4.4)"`
}

// defaultMovepredOptions are the stage's defaults: its report shows the
// random baseline and the frequency tables. The command starts from them
// with both turned off (movepredCommandOptions).
func defaultMovepredOptions() movepredOptions {
	return movepredOptions{Random: true, Seed: 1, PhaseSize: movepred.DefaultPhaseSize, Frequencies: true}
}

// movepredCommandOptions are the defaults of "lifezero movepred": the
// stage's, except that a command line evaluates only the players it names
// (--random adds the baseline) and counts frequencies only when asked.
func movepredCommandOptions() movepredOptions {
	o := defaultMovepredOptions()
	o.Random, o.Frequencies = false, false
	return o
}

// Validate catches bad params when the pipeline is loaded, at their line,
// and bad flags (flagError names the flag).
func (o *movepredOptions) Validate() error {
	if o.PhaseSize < 1 {
		return &pipelines.ParamError{Key: "phase_size", Msg: fmt.Sprintf("%d: want at least 1", o.PhaseSize)}
	}
	return nil
}

// evalOptions are the movepred package's options of o.
func (o *movepredOptions) evalOptions() movepred.Options {
	return movepred.Options{PhaseSize: o.PhaseSize, Frequencies: o.Frequencies}
}

// withRandom returns the players with the random player, seeded by Seed,
// added when Random is set.
func (o *movepredOptions) withRandom(players []movepred.Ranker) []movepred.Ranker {
	if !o.Random {
		return players
	}
	return append(players, movepred.NewRandom(rand.New(rand.NewPCG(o.Seed, 0x72616e64)))) // "rand"
}
