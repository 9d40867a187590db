package cluster

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"lifezero/pipelines"
)

// WorkflowName is the name the workflow is registered under.
const WorkflowName = "lifezero.Pipeline"

// DefaultTaskQueue is the task queue of workers and submitters that name
// none.
const DefaultTaskQueue = "lifezero"

// Run is one submission of a pipeline: the workflow's input. Paths are
// absolute and must mean the same on every worker (a shared file system).
type Run struct {
	File    string   `json:"file"`    // the pipeline file
	Content []byte   `json:"content"` // its content when submitted: what the workers run
	Workdir string   `json:"workdir"` // where stage outputs go
	Only    []string `json:"only,omitempty"`
	Force   []string `json:"force,omitempty"`
	Retry   Retry    `json:"retry"`
}

// Retry says how long a unit of work may run and how it is retried.
type Retry struct {
	// Heartbeat is how long a unit may go without a heartbeat before
	// Temporal takes its worker for dead and retries it elsewhere; workers
	// beat at a third of it.
	Heartbeat time.Duration `json:"heartbeat"`
	// Timeout bounds one attempt of a unit.
	Timeout time.Duration `json:"timeout"`
	// Attempts bounds the attempts of a unit (a failing stage is tried this
	// many times before the run gives up on it).
	Attempts int32 `json:"attempts"`
}

// DefaultRetry returns a 60 s heartbeat timeout, 48 h per attempt and 3
// attempts.
func DefaultRetry() Retry {
	return Retry{Heartbeat: 60 * time.Second, Timeout: 48 * time.Hour, Attempts: 3}
}

// Task is the input of an activity: one stage, or one shard of it, of a run.
type Task struct {
	Run   Run    `json:"run"`
	Stage string `json:"stage"`
	Shard int    `json:"shard"` // 0-based, for Activities.Shard
	Force bool   `json:"force"`
}

// Outcome is what became of a stage.
type Outcome struct {
	Stage   string  `json:"stage"`
	Kind    string  `json:"kind"`
	Status  string  `json:"status"` // a pipelines.Status
	Seconds float64 `json:"seconds"`
	Rows    int64   `json:"rows"`
	OutDir  string  `json:"out_dir"`
	Shards  int     `json:"shards"`
	Worker  string  `json:"worker,omitempty"` // who ran (or found cached) the stage's last unit
	Error   string  `json:"error,omitempty"`
}

// Output is the workflow's result: an outcome per planned stage, in run
// order.
type Output struct {
	Stages []Outcome `json:"stages"`
}

// Results returns the outcomes as pipelines results (for WriteSummary).
func (o Output) Results() []pipelines.Result {
	out := make([]pipelines.Result, len(o.Stages))
	for i, s := range o.Stages {
		r := pipelines.Result{Stage: s.Stage, Kind: s.Kind, Status: pipelines.Status(s.Status), Rows: s.Rows, OutDir: s.OutDir,
			Duration: time.Duration(s.Seconds * float64(time.Second))}
		if s.Error != "" {
			r.Err = fmt.Errorf("%s", s.Error)
		}
		out[i] = r
	}
	return out
}

// ErrTypeStageFailed is the type of the application error a workflow with a
// failed stage ends with; its details hold the Output.
const ErrTypeStageFailed = "StageFailed"

// Workflow runs a pipeline: it plans the stages (an activity: the workers
// hold the stage kinds), then runs each stage once the stages it reads have
// finished, independent stages at the same time. A stage is skipped when
// its output is cached; a sharded stage runs its shards as parallel
// activities and then merges them. A failed stage stops the stages after
// it, not the others; the workflow then fails with an ErrTypeStageFailed
// error whose details are the Output.
func Workflow(ctx workflow.Context, run Run) (Output, error) {
	ctx = workflow.WithActivityOptions(ctx, activityOptions(run.Retry))
	var a *Activities
	var plan []pipelines.StagePlan
	if err := workflow.ExecuteActivity(ctx, a.Plan, run).Get(ctx, &plan); err != nil {
		return Output{}, err
	}
	futures := make(map[string]workflow.Future, len(plan))
	out := Output{Stages: make([]Outcome, len(plan))}
	for i, sp := range plan {
		deps := make([]workflow.Future, len(sp.Deps))
		for j, d := range sp.Deps {
			deps[j] = futures[d] // planned earlier: the plan is in run order
		}
		f, set := workflow.NewFuture(ctx)
		futures[sp.Name] = f
		workflow.Go(ctx, func(ctx workflow.Context) {
			o := runStage(ctx, run, sp, deps)
			out.Stages[i] = o
			set.Set(o, nil)
		})
	}
	var failed []string
	for _, sp := range plan {
		var o Outcome
		_ = futures[sp.Name].Get(ctx, &o) // never set with an error
		if o.Status != string(pipelines.StatusRan) && o.Status != string(pipelines.StatusCached) {
			failed = append(failed, fmt.Sprintf("%s (%s)", o.Stage, o.Status))
		}
	}
	if len(failed) > 0 {
		return out, temporal.NewNonRetryableApplicationError("stages not done: "+strings.Join(failed, ", "),
			ErrTypeStageFailed, nil, out)
	}
	return out, nil
}

// runStage waits for the stage's inputs and runs it.
func runStage(ctx workflow.Context, run Run, sp pipelines.StagePlan, deps []workflow.Future) Outcome {
	notRun := Outcome{Stage: sp.Name, Kind: sp.Kind, Status: string(pipelines.StatusNotRun), Shards: sp.Shards}
	for _, f := range deps {
		var o Outcome
		if err := f.Get(ctx, &o); err != nil || (o.Status != string(pipelines.StatusRan) && o.Status != string(pipelines.StatusCached)) {
			return notRun
		}
	}
	var a *Activities
	task := Task{Run: run, Stage: sp.Name, Force: slices.Contains(run.Force, sp.Name)}
	failed := func(err error) Outcome {
		o := notRun
		o.Status, o.Error = string(pipelines.StatusFailed), err.Error()
		if temporal.IsCanceledError(err) {
			o.Status = string(pipelines.StatusCancelled)
		}
		return o
	}
	// A sharded stage's cache is checked first, so its shards do not run
	// when it is cached; any other stage's run activity checks it itself.
	if !task.Force && sp.Shards > 1 {
		var o Outcome
		if err := workflow.ExecuteActivity(ctx, a.Check, task).Get(ctx, &o); err != nil {
			return failed(err)
		}
		if o.Status == string(pipelines.StatusCached) {
			return o
		}
	}
	if sp.Shards > 1 {
		shards := make([]workflow.Future, sp.Shards)
		for i := range shards {
			t := task
			t.Shard = i
			shards[i] = workflow.ExecuteActivity(ctx, a.Shard, t)
		}
		var firstErr error
		for _, f := range shards {
			if err := f.Get(ctx, nil); err != nil && firstErr == nil {
				firstErr = err
			}
		}
		if firstErr != nil {
			return failed(firstErr)
		}
	}
	var o Outcome
	if err := workflow.ExecuteActivity(ctx, a.Stage, task).Get(ctx, &o); err != nil {
		return failed(err)
	}
	return o
}

// activityOptions turns the run's retry settings into Temporal's.
func activityOptions(r Retry) workflow.ActivityOptions {
	d := DefaultRetry()
	if r.Heartbeat <= 0 {
		r.Heartbeat = d.Heartbeat
	}
	if r.Timeout <= 0 {
		r.Timeout = d.Timeout
	}
	if r.Attempts <= 0 {
		r.Attempts = d.Attempts
	}
	return workflow.ActivityOptions{
		StartToCloseTimeout: r.Timeout,
		HeartbeatTimeout:    r.Heartbeat,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:    time.Second,
			BackoffCoefficient: 2,
			MaximumInterval:    time.Minute,
			MaximumAttempts:    r.Attempts,
		},
	}
}
