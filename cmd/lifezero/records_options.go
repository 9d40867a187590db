package main

import (
	"lifezero/datasets"
	"lifezero/pipelines"
)

// recordsImportOptions say which SGF game records go into a games dataset
// and how, one type for the records-import stage's params and the flags of
// "lifezero records import" (optflags: flag = param with '-' for '_'). The
// records and the dataset (a path input, --out) are not options.
//
// The JSON form is the stage's input hash: keep the fields' names and
// order, so that datasets cached before stay valid.
type recordsImportOptions struct {
	FromDate    string `yaml:"from_date" help:"keep games dated on or after this: YYYY, YYYY-MM or YYYY-MM-DD"`
	ToDate      string `yaml:"to_date" help:"keep games dated on or before this (same forms)"`
	MaxGames    int    `yaml:"max_games" help:"stop after this many games (0: all)"`
	RowsPerFile int64  `yaml:"rows_per_file" help:"games per Arrow file (0: 50000)"`
	SkipBad     bool   `yaml:"skip_bad" help:"skip malformed games (counted in the report) instead of failing"`
	// omitempty: left unset, the params hash as before the param existed,
	// so outputs cached then stay valid.
	Append bool `json:",omitempty" yaml:"append" help:"add the games to a games dataset (the stage's first input; the command's --out), skipping those it holds (same game id or same moves); atomic, rerun to resume; movecands' appended_only reads the new ones alone"`
}

// defaultRecordsImportOptions are the defaults of both the stage and the
// command: every game, the datasets package's file size.
func defaultRecordsImportOptions() recordsImportOptions { return recordsImportOptions{} }

// Validate catches bad params when the pipeline is loaded, at their line,
// and bad flags (flagError names the flag).
func (o *recordsImportOptions) Validate() error {
	if err := checkDateParams(o.FromDate, o.ToDate); err != nil {
		return err
	}
	if o.MaxGames < 0 {
		return &pipelines.ParamError{Key: "max_games", Msg: "must not be negative"}
	}
	if o.RowsPerFile < 0 {
		return &pipelines.ParamError{Key: "rows_per_file", Msg: "must not be negative"}
	}
	return nil
}

// importOptions returns the datasets import options of o; the caller adds
// the inputs, the output and where the import reports to.
func (o *recordsImportOptions) importOptions() datasets.ImportOptions {
	return datasets.ImportOptions{FromDate: o.FromDate, ToDate: o.ToDate, MaxGames: o.MaxGames, RowsPerFile: o.RowsPerFile, SkipBad: o.SkipBad}
}
