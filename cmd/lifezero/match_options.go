package main

import (
	"fmt"
	"strings"

	"lifezero/game"
	"lifezero/match"
	"lifezero/pipelines"
)

// matchOptions are a match's settings, one type for the match stage's
// params and the flags of "lifezero match" (a param's flag is its name with
// '-' for '_'). The engines are the exception: the stage plays each feature
// model of its inputs through "lifezero gtp --sample-moves N" against the
// opponent param, while the command takes both engines' command lines as
// --black and --white (matchFlags), so opponent and sample_moves have no
// flag.
//
// The JSON form is the stage's input hash: its fields and their order are
// those of the params before the command shared them, and handicap and
// fixed_colours, params since, are left out at their defaults
// (omitempty), so matches cached before stay valid.
type matchOptions struct {
	Opponent     string  `yaml:"opponent" flag:"-" help:"the opponent's GTP command line (split on spaces; the command's --white)"`
	Games        int     `yaml:"games" help:"games per player"`
	Size         int     `yaml:"size" help:"board size"`
	Komi         float64 `yaml:"komi" help:"komi"`
	SampleMoves  int     `yaml:"sample_moves" flag:"-" help:"the feature player draws its first N moves from the softmax of its scores, so games differ"`
	MaxMoves     int     `yaml:"max_moves" help:"end a game after N moves and score it as it stands (0: 3 x size²)"`
	Seed         uint64  `yaml:"seed" help:"match seed: game n's engines get set_random_seed seed*1000003+n when they know it (lifezero, GNU Go)"`
	Handicap     int     `yaml:"handicap" json:",omitempty" help:"fixed handicap stones for Black (2..9; 0: none)"`
	FixedColours bool    `yaml:"fixed_colours" json:",omitempty" help:"engine A (the stage's feature model, the command's --black) plays Black in every game (default: colours alternate)"`
}

// defaultMatchOptions are the defaults of both the stage and the command:
// 20 games on 9x9 at komi 7.5, colours alternating, against GNU Go level 1
// scoring by area.
func defaultMatchOptions() matchOptions {
	return matchOptions{Opponent: "/usr/games/gnugo --mode gtp --level 1 --chinese-rules", Games: 20, Size: 9, Komi: 7.5,
		SampleMoves: 8, Seed: 1}
}

// Validate catches bad params when the pipeline is loaded, at their line,
// and bad flags (flagError names the flag).
func (o *matchOptions) Validate() error {
	switch {
	case strings.TrimSpace(o.Opponent) == "":
		return &pipelines.ParamError{Key: "opponent", Msg: "empty: give the opponent's GTP command line"}
	case o.Games < 1:
		return &pipelines.ParamError{Key: "games", Msg: fmt.Sprintf("%d: want at least 1", o.Games)}
	case o.Size < game.MinSize || o.Size > game.MaxSize:
		return &pipelines.ParamError{Key: "size", Msg: fmt.Sprintf("%d: want %d..%d", o.Size, game.MinSize, game.MaxSize)}
	case o.SampleMoves < 0:
		return &pipelines.ParamError{Key: "sample_moves", Msg: fmt.Sprintf("%d: want 0 or more", o.SampleMoves)}
	case o.MaxMoves < 0:
		return &pipelines.ParamError{Key: "max_moves", Msg: fmt.Sprintf("%d: want 0 or more", o.MaxMoves)}
	case o.Handicap < 0 || o.Handicap > 9:
		return &pipelines.ParamError{Key: "handicap", Msg: fmt.Sprintf("%d: want 0..9", o.Handicap)}
	}
	return nil
}

// options returns the match's options of o between engines a and b
// (B is the opponent), written to outDir.
func (o *matchOptions) options(a, b, outDir string) match.Options {
	return match.Options{A: a, B: b, Games: o.Games, Size: o.Size, Komi: o.Komi, Handicap: o.Handicap,
		MaxMoves: o.MaxMoves, FixedColours: o.FixedColours, Seed: o.Seed, OutDir: outDir}
}
