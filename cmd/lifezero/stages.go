package main

import (
	"errors"
	"fmt"

	"lifezero/pipelines"
)

// newRegistry builds the registry of every stage kind a pipeline may use.
// A new kind is one file (stage_NAME.go) and one row here.
func newRegistry() (*pipelines.Registry, error) {
	return pipelines.NewRegistry(
		recordsImportKind(),
		problemsKind(),
		withSolveShards(solveKind()),
		withSelfplayShards(selfplayKind()),
		trainKind(),
		moveCandsKind(),
		featuresTrainKind(),
		movepredKind(),
		reportKind(),
		owlKind(),
		matchKind(),
		rztKind(),
		tsumegoKind(),
	)
}

var errNoInputs = errors.New("none given: list at least one")

// pathInputs checks that a stage reads files or directories only, at least
// one.
func pathInputs(inputs []pipelines.Input) error {
	if len(inputs) == 0 {
		return errNoInputs
	}
	for _, in := range inputs {
		if in.Stage != "" {
			return fmt.Errorf("%q is a stage output; this kind reads files or directories", in.Raw)
		}
	}
	return nil
}

// newerInput returns whichever of cur (nil: none yet) and in comes later in
// the pipeline's run order: a stage given several networks takes the newest.
func newerInput(cur, in *pipelines.InputRef) *pipelines.InputRef {
	if cur == nil || in.Order > cur.Order {
		return in
	}
	return cur
}

// stageInputs checks that a stage reads other stages' outputs only, at least
// one.
func stageInputs(inputs []pipelines.Input) error {
	if len(inputs) == 0 {
		return errNoInputs
	}
	for _, in := range inputs {
		if in.Stage == "" {
			return fmt.Errorf("%q is a path; this kind reads stage outputs (stage:NAME)", in.Raw)
		}
	}
	return nil
}
