package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"lifezero/evaluate"
	"lifezero/pipelines"
)

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("run", "run [FILE=pipeline.yaml] [--only STAGE] [--force STAGE] [--workdir DIR] [--temporal HOST:PORT]", stderr)
	var only, force stringList
	fs.Var(&only, "only", "run only `STAGE` and the stages it needs (repeat or comma-separate for several)")
	fs.Var(&force, "force", "rerun `STAGE` even if its output is cached (repeat or comma-separate for several)")
	workdir := fs.String("workdir", "", "write stage outputs under `DIR` instead of the pipeline's workdir")
	verbose := fs.Bool("v", false, "log debug messages")
	temporal := addRunTemporalFlags(fs)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	file := "pipeline.yaml"
	switch len(pos) {
	case 0:
	case 1:
		file = pos[0]
	default:
		return usagef("one pipeline file at a time, got %d: %v", len(pos), pos)
	}
	reg, err := newRegistry()
	if err != nil {
		return err
	}
	p, err := pipelines.Load(file, reg)
	if err != nil {
		return err
	}
	if *workdir != "" {
		p.Workdir = *workdir
	}
	if temporal.hostPort != "" {
		return runTemporal(ctx, temporal, p, file, only, force, *verbose, stdout, stderr)
	}
	runner := &pipelines.Runner{Log: newLogger(stderr, *verbose), NewProgress: progressFactory(stderr)}
	results, runErr := runner.Run(ctx, p, pipelines.RunOptions{Only: only, Force: force})
	if len(results) > 0 {
		fmt.Fprintf(stdout, "\npipeline %s (%s), outputs in %s\n", p.Name, file, p.Workdir)
		if err := pipelines.WriteSummary(stdout, results); err != nil {
			return err
		}
	}
	for _, r := range results {
		if r.Kind != reportKindName || (r.Status != pipelines.StatusRan && r.Status != pipelines.StatusCached) {
			continue
		}
		path := filepath.Join(r.OutDir, evaluate.ReportFile)
		if _, err := os.Stat(path); err == nil {
			fmt.Fprintf(stdout, "report: %s\n", path)
		}
	}
	return runErr
}
