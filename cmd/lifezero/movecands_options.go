package main

import (
	"lifezero/datasets"
	"lifezero/features"
	"lifezero/movecands"
	"lifezero/pipelines"
)

// moveCandsOptions say which positions of which games a movecands dataset
// holds and how its feature set is made, one type for the movecands
// stage's params and the flags of "lifezero features build" (optflags: flag
// = param with '-' for '_'). What the stage takes from its inputs (games
// datasets, a feature set to reuse) the command takes as arguments and
// flags of its own (INPUT..., --features, --out).
//
// The JSON form is the stage's input hash: keep the fields' names and
// order, so that datasets cached before stay valid (FeatureSetOptions'
// field is promoted in place).
type moveCandsOptions struct {
	FromDate          string `yaml:"from_date" help:"keep games dated on or after this: YYYY, YYYY-MM or YYYY-MM-DD"`
	ToDate            string `yaml:"to_date" help:"keep games dated on or before this (same forms)"`
	MaxGames          int    `yaml:"max_games" help:"sample this many of the games in range, uniformly (0: all)"`
	PositionsPerGame  int    `yaml:"positions_per_game" help:"sample this many positions of each game, uniformly (0: all)"`
	Seed              uint64 `yaml:"seed" help:"seed of the sampling"`
	LearnDiamonds     int64  `yaml:"learn_diamonds" help:"learn the diamonds seen at least this often in the played moves of the sampled games (0: no diamonds); not with a feature-set input"`
	LearnShapes       int64  `yaml:"learn_shapes" help:"learn the large shape patterns (sizes 5-14) seen at least this often in the played moves of the sampled games (0: no shapes); not with a feature-set input"`
	FeatureSetOptions `yaml:",inline"`
	RowsPerFile       int64 `yaml:"rows_per_file" help:"positions per Arrow file (0: 10000)"`
	// omitempty: left unset, the params hash as before the param existed,
	// so outputs cached then stay valid.
	AppendedOnly bool `json:",omitempty" yaml:"appended_only" help:"read only the games that the last append to each games input added (a records-import stage with append: true); false reads all its games"`
}

// FeatureSetOptions shape the built-in feature set: a movecands param and
// a flag of "features build" and "features list". (Exported only so that
// its field is promoted as a param and in the input hash's JSON.)
type FeatureSetOptions struct {
	Pattern3Liberties bool `yaml:"pattern3_liberties" help:"3x3 patterns carry the liberties (1, 2, 3+) of adjacent blocks; built-in set only, not with a feature-set input"`
}

// defaultFeatureSetOptions are the features package's defaults.
func defaultFeatureSetOptions() FeatureSetOptions {
	return FeatureSetOptions{Pattern3Liberties: features.DefaultConfig().Pattern3Liberties}
}

// builtinSet returns the built-in feature set these options shape.
func (o FeatureSetOptions) builtinSet() (*features.Extractor, error) {
	cfg := features.DefaultConfig()
	cfg.Pattern3Liberties = o.Pattern3Liberties
	return features.New(cfg)
}

// defaultMoveCandsOptions are the defaults of both the stage and the
// command.
func defaultMoveCandsOptions() moveCandsOptions {
	return moveCandsOptions{Seed: 1, FeatureSetOptions: defaultFeatureSetOptions()}
}

// Validate catches bad params when the pipeline is loaded, at their line,
// and bad flags (flagError names the flag).
func (o *moveCandsOptions) Validate() error {
	if err := checkDateParams(o.FromDate, o.ToDate); err != nil {
		return err
	}
	if err := (datasets.DateRange{From: o.FromDate, To: o.ToDate}).Check(); err != nil {
		return &pipelines.ParamError{Key: "from_date", Msg: err.Error()}
	}
	for _, c := range []struct {
		key string
		v   int64
	}{{"max_games", int64(o.MaxGames)}, {"positions_per_game", int64(o.PositionsPerGame)},
		{"learn_diamonds", o.LearnDiamonds}, {"learn_shapes", o.LearnShapes}, {"rows_per_file", o.RowsPerFile}} {
		if c.v < 0 {
			return &pipelines.ParamError{Key: c.key, Msg: "must not be negative"}
		}
	}
	return nil
}

// checkDateParams checks the from_date and to_date params (movecands,
// records-import): each empty or YYYY, YYYY-MM or YYYY-MM-DD.
func checkDateParams(from, to string) error {
	for _, d := range []struct{ key, v string }{{"from_date", from}, {"to_date", to}} {
		if d.v == "" {
			continue
		}
		if err := datasets.CheckDateBound(d.v); err != nil {
			return &pipelines.ParamError{Key: d.key, Msg: err.Error()}
		}
	}
	return nil
}

// build returns the movecands build options of o over the feature set
// set; the caller adds where the build reports to.
func (o *moveCandsOptions) build(set *features.Extractor) movecands.Options {
	return movecands.Options{Features: set, LearnDiamonds: o.LearnDiamonds, LearnShapes: o.LearnShapes,
		Dates: datasets.DateRange{From: o.FromDate, To: o.ToDate}, MaxGames: o.MaxGames, PositionsPerGame: o.PositionsPerGame,
		Seed: o.Seed, RowsPerFile: o.RowsPerFile}
}
