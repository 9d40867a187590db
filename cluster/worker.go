package cluster

import (
	"context"
	"fmt"
	"os"
	"strconv"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// WorkerOptions configure a worker.
type WorkerOptions struct {
	TaskQueue string // "" means DefaultTaskQueue
	// Units is how many activities (stages or shards) the worker runs at
	// once; a stage already uses every CPU it is given, so 1 by default.
	Units int
	// Name identifies the worker in Temporal and in the run's outcomes;
	// "" means host@pid.
	Name       string
	Activities Activities
}

// NewWorker returns a worker polling the task queue for the pipeline
// workflow and its activities; Start or Run it.
func NewWorker(c client.Client, o WorkerOptions) worker.Worker {
	queue := o.TaskQueue
	if queue == "" {
		queue = DefaultTaskQueue
	}
	units := o.Units
	if units < 1 {
		units = 1
	}
	name := o.Name
	if name == "" {
		host, _ := os.Hostname()
		name = host + "@" + strconv.Itoa(os.Getpid())
	}
	w := worker.New(c, queue, worker.Options{
		MaxConcurrentActivityExecutionSize: units,
		Identity:                           name,
	})
	w.RegisterWorkflowWithOptions(Workflow, workflow.RegisterOptions{Name: WorkflowName})
	acts := o.Activities
	acts.Worker = name
	w.RegisterActivity(&acts)
	return w
}

// Serve runs a worker until ctx is cancelled; then it stops taking work and
// returns once its running activities have ended (they are cancelled too).
func Serve(ctx context.Context, c client.Client, o WorkerOptions) error {
	w := NewWorker(c, o)
	if err := w.Start(); err != nil {
		return fmt.Errorf("cluster: start worker: %w", err)
	}
	<-ctx.Done()
	w.Stop()
	return nil
}
