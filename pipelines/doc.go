// Package pipelines reads pipeline files (pipeline.yaml), validates them, orders
// their stages and runs them locally with caching and resume.
//
// A pipeline names stages; each stage has a kind (a Kind in a Registry that the
// command line builds), inputs (the output dataset of an earlier stage, written
// "stage:NAME", or a file or directory path relative to the pipeline file) and
// params, which the kind decodes into its own struct: unknown keys are errors
// that name the file, the line and the key.
//
// Every stage writes one dataset, <workdir>/<stage>/, whose _manifest.json
// (package datasets) is written last and atomically and records the stage's
// input hash: a hash of the kind, its version, the canonical params and the
// checksums of every input file. The runner skips a stage whose manifest
// verifies and carries the current input hash, so a rerun after a change runs
// exactly the stages the change affects, and a run killed at any moment resumes
// from the first unfinished stage.
//
// A stage of a shardable kind (Kind.Shard) may say "shards: N": its work is
// split into N independent pieces, each a dataset of its own, merged into the
// stage's one dataset. The local runner runs the pieces one after another; a
// distributed runner (package cluster) schedules the units this package
// exposes (Schedule, RunShard, RunStage), each reading its inputs from the
// workdir that all its machines share.
package pipelines
