package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"lifezero/pipelines"
)

// Activities are the units of work a worker runs. Their names are the
// method names (Plan, Check, Shard, Stage).
type Activities struct {
	Registry *pipelines.Registry // the stage kinds
	Log      *slog.Logger        // nil: discard
	Worker   string              // this worker's name, reported in outcomes
}

// ErrTypeBadPipeline is the type of the non-retryable error of a run whose
// pipeline file does not load on a worker.
const ErrTypeBadPipeline = "BadPipeline"

// Plan loads the pipeline and returns its planned stages in run order.
func (a *Activities) Plan(ctx context.Context, run Run) ([]pipelines.StagePlan, error) {
	p, err := a.load(run)
	if err != nil {
		return nil, err
	}
	plan, err := p.Schedule(run.Only)
	if err != nil {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeBadPipeline, err)
	}
	return plan, nil
}

// Check reports whether the stage's output is cached (Status "cached") or
// must run (Status "not run").
func (a *Activities) Check(ctx context.Context, t Task) (Outcome, error) {
	p, err := a.load(t.Run)
	if err != nil {
		return Outcome{}, err
	}
	var o Outcome
	err = a.beating(ctx, t, func(ctx context.Context, r *pipelines.Runner) error {
		cached, res, err := r.StageCached(ctx, p, t.Stage)
		o = a.outcome(p, t.Stage, res)
		if !cached {
			o.Status = string(pipelines.StatusNotRun)
		}
		return err
	})
	return o, err
}

// Shard runs shard t.Shard of the stage (skipped when cached).
func (a *Activities) Shard(ctx context.Context, t Task) error {
	p, err := a.load(t.Run)
	if err != nil {
		return err
	}
	return a.beating(ctx, t, func(ctx context.Context, r *pipelines.Runner) error {
		_, err := r.RunShard(ctx, p, t.Stage, t.Shard, t.Force)
		return err
	})
}

// Stage runs the stage (merging its shards, when it has several) unless
// its output is cached.
func (a *Activities) Stage(ctx context.Context, t Task) (Outcome, error) {
	p, err := a.load(t.Run)
	if err != nil {
		return Outcome{}, err
	}
	var o Outcome
	err = a.beating(ctx, t, func(ctx context.Context, r *pipelines.Runner) error {
		res, err := r.RunStage(ctx, p, t.Stage, t.Force)
		o = a.outcome(p, t.Stage, res)
		return err
	})
	return o, err
}

func (a *Activities) outcome(p *pipelines.Pipeline, stage string, res pipelines.Result) Outcome {
	st, _ := p.Stage(stage)
	o := Outcome{Stage: stage, Kind: res.Kind, Status: string(res.Status), Seconds: res.Duration.Seconds(),
		Rows: res.Rows, OutDir: p.OutDir(stage), Shards: 1, Worker: a.Worker}
	if st != nil {
		o.Kind, o.Shards = st.Kind.Name, max(st.Shards, 1)
	}
	return o
}

// load parses the run's pipeline content (not the file, which may have
// changed since the submission) against the file's directory.
func (a *Activities) load(run Run) (*pipelines.Pipeline, error) {
	if a.Registry == nil {
		return nil, errors.New("cluster: the worker has no stage registry")
	}
	p, err := pipelines.Parse(run.File, run.Content, a.Registry)
	if err != nil {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeBadPipeline, err)
	}
	if run.Workdir != "" {
		p.Workdir = run.Workdir
	}
	return p, nil
}

func (a *Activities) logger() *slog.Logger {
	if a.Log != nil {
		return a.Log
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// Beat is the detail of an activity's heartbeats: the phase of the unit's
// progress and how far it is.
type Beat struct {
	Unit  string `json:"unit"`
	What  string `json:"what"`
	Done  int    `json:"done"`
	Total int    `json:"total"`
}

// beating runs f with a runner whose progress is sent with heartbeats at
// a third of the activity's heartbeat timeout, so Temporal sees the worker
// alive, shows how far it is, and cancels ctx when the unit was given up.
func (a *Activities) beating(ctx context.Context, t Task, f func(context.Context, *pipelines.Runner) error) error {
	unit := t.Stage
	info := activity.GetInfo(ctx)
	if info.ActivityType.Name == "Shard" {
		unit = fmt.Sprintf("%s shard %d", t.Stage, t.Shard+1)
	}
	log := a.logger().With("unit", unit, "attempt", info.Attempt)
	hb := &beatProgress{beat: Beat{Unit: unit}}
	r := &pipelines.Runner{Log: log, NewProgress: func(stage string, l *slog.Logger) pipelines.Progress {
		hb.log = pipelines.NewLogProgress(l)
		return hb
	}}
	every := info.HeartbeatTimeout / 3
	if every <= 0 || every > 10*time.Second {
		every = 10 * time.Second
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			activity.RecordHeartbeat(ctx, hb.snapshot())
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	start := time.Now()
	log.Info("unit start")
	err := f(ctx, r)
	close(done)
	wg.Wait()
	log.Info("unit end", "seconds", time.Since(start).Seconds(), "err", err)
	return err
}

// beatProgress is a pipelines.Progress that logs and keeps the latest
// progress for the heartbeats.
type beatProgress struct {
	mu   sync.Mutex
	beat Beat
	log  *pipelines.LogProgress
}

func (b *beatProgress) Start(total int, what string) {
	b.mu.Lock()
	b.beat.What, b.beat.Total, b.beat.Done = what, total, 0
	b.mu.Unlock()
	b.log.Start(total, what)
}

func (b *beatProgress) Add(n int) {
	b.mu.Lock()
	b.beat.Done += n
	b.mu.Unlock()
	b.log.Add(n)
}

func (b *beatProgress) Finish() { b.log.Finish() }

func (b *beatProgress) snapshot() Beat {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.beat
}
