package main

import (
	"fmt"

	"lifezero/datasets"
	"lifezero/pipelines"
	"lifezero/recindex"
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

// recordsSearchOptions say how "lifezero records search" matches a
// pattern and what it lists (no stage has them; the flags are bound from
// the same tags as the stages' options, so they are named alike).
type recordsSearchOptions struct {
	Limit    int  `yaml:"limit" help:"list at most this many hits (0: all); counts and statistics cover every hit"`
	Fixed    bool `yaml:"fixed" help:"an SGF pattern matches only at its place on the board (and the symmetric places)"`
	Swap     bool `yaml:"swap" help:"also match with the colours swapped"`
	Symmetry bool `yaml:"symmetry" help:"also match the pattern rotated and mirrored, not only as drawn"`
	Workers  int  `yaml:"workers" help:"search with this many goroutines"`
}

// defaultRecordsSearchOptions list 20 hits, under the 8 symmetries and
// with the colours swapped, searching on one goroutine.
func defaultRecordsSearchOptions() recordsSearchOptions {
	return recordsSearchOptions{Limit: 20, Swap: true, Symmetry: true, Workers: 1}
}

// Validate catches bad flags (flagError names the flag).
func (o *recordsSearchOptions) Validate() error {
	if o.Limit < 0 {
		return &pipelines.ParamError{Key: "limit", Msg: fmt.Sprintf("%d: want 0 (all) or more", o.Limit)}
	}
	if o.Workers < 1 {
		return &pipelines.ParamError{Key: "workers", Msg: fmt.Sprintf("%d: want at least 1", o.Workers)}
	}
	return nil
}

// searchOptions are the recindex options of o.
func (o *recordsSearchOptions) searchOptions() recindex.Options {
	return recindex.Options{NoSwap: !o.Swap, NoSymmetry: !o.Symmetry, Workers: o.Workers, Limit: o.Limit}
}
