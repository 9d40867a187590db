// Package cluster runs lifezero pipelines on many machines through Temporal
// (go.temporal.io/sdk): a durable workflow walks the pipeline's stage graph
// and hands each stage, and each shard of a sharded stage, to whichever
// worker polls the task queue; Temporal retries a unit whose worker died
// (its heartbeats stop) on another worker.
//
// The work is the local runner's (package pipelines): every unit reads its
// input datasets from, and writes its output dataset to, the pipeline's
// workdir, which all workers share (a network file system), so the caching by
// input hash, the resume of partial work after a kill and the manifests are
// the same as in a local run, and so are the datasets. The workflow id is a
// hash of the pipeline file, its content and the run's options, and a second
// submission of the same run attaches to the running workflow instead of
// starting another.
package cluster
