package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"go.temporal.io/sdk/client"

	"lifezero/cluster"
	"lifezero/evaluate"
	"lifezero/pipelines"
)

// runTemporalFlags are run's flags for a run through Temporal.
type runTemporalFlags struct {
	*temporalFlags
	heartbeat time.Duration
	attempts  int
}

func addRunTemporalFlags(fs interface {
	StringVar(p *string, name, value, usage string)
	DurationVar(p *time.Duration, name string, value time.Duration, usage string)
	IntVar(p *int, name string, value int, usage string)
}) *runTemporalFlags {
	d := cluster.DefaultRetry()
	rf := &runTemporalFlags{temporalFlags: addTemporalFlags(fs)}
	fs.DurationVar(&rf.heartbeat, "heartbeat", d.Heartbeat, "with --temporal: a stage whose worker is silent this long is retried on another worker")
	fs.IntVar(&rf.attempts, "attempts", int(d.Attempts), "with --temporal: attempts of a stage before the run gives up on it")
	return rf
}

// reportPending logs, every period, the units the workflow waits for with
// their last heartbeat (stage, phase, done/total, worker, attempt), until
// the returned stop is called.
func reportPending(ctx context.Context, c client.Client, sub *cluster.Submission, log *slog.Logger, period time.Duration) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(period)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			pending, err := sub.Pending(ctx, c)
			if err != nil {
				if ctx.Err() == nil {
					log.Warn("cannot read the workflow's progress", "err", err)
				}
				continue
			}
			units := make([]string, len(pending))
			for i, p := range pending {
				units[i] = p.String()
			}
			log.Info("running", "units", strings.Join(units, "; "))
		}
	}()
	return func() { cancel(); <-done }
}

// runTemporal submits the pipeline as a Temporal workflow (or attaches to
// the running one of the same run) and waits for it: the workers, started
// with "lifezero worker", do the stages in the shared workdir.
func runTemporal(ctx context.Context, rf *runTemporalFlags, p *pipelines.Pipeline, file string, only, force []string,
	verbose bool, stdout, stderr io.Writer) error {
	if rf.heartbeat < time.Second || rf.attempts < 1 {
		return usagef("--heartbeat %v, --attempts %d: want at least 1s and 1", rf.heartbeat, rf.attempts)
	}
	run, err := cluster.NewRun(file, p.Workdir, only, force)
	if err != nil {
		return err
	}
	run.Retry.Heartbeat, run.Retry.Attempts = rf.heartbeat, int32(rf.attempts)
	c, err := rf.dial(ctx, stderr, verbose)
	if err != nil {
		return err
	}
	defer c.Close()
	id := cluster.WorkflowID(p.Name, run)
	sub, err := cluster.Submit(ctx, c, id, rf.queue(), run)
	if err != nil {
		return err
	}
	verb := "started"
	if sub.Attached {
		verb = "attached to the running"
	}
	fmt.Fprintf(stderr, "%s workflow %s (run %s) on task queue %s; waiting for workers (lifezero worker --temporal %s)\n",
		verb, sub.ID, sub.RunID(), rf.queue(), rf.hostPort)
	stop := reportPending(ctx, c, sub, newLogger(stderr, verbose), 10*time.Second)
	out, runErr := sub.Wait(ctx)
	stop()
	if len(out.Stages) > 0 {
		fmt.Fprintf(stdout, "\npipeline %s (%s) through Temporal, outputs in %s\n", p.Name, file, p.Workdir)
		if err := pipelines.WriteSummary(stdout, out.Results()); err != nil {
			return err
		}
		for _, s := range out.Stages {
			if s.Error != "" {
				fmt.Fprintf(stdout, "%s: %s\n", s.Stage, s.Error)
			}
			if s.Kind == reportKindName && (s.Status == string(pipelines.StatusRan) || s.Status == string(pipelines.StatusCached)) {
				fmt.Fprintf(stdout, "report: %s\n", filepath.Join(s.OutDir, evaluate.ReportFile))
			}
		}
	}
	return runErr
}
