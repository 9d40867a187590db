package cluster

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
)

// Conn says how to reach the Temporal server.
type Conn struct {
	HostPort  string // host:port of the frontend, e.g. 127.0.0.1:7233
	Namespace string // "" means "default"
	Log       *slog.Logger
}

// Dial connects to the Temporal server, with an error that names it.
func Dial(ctx context.Context, c Conn) (client.Client, error) {
	if c.HostPort == "" {
		return nil, errors.New("cluster: no Temporal server given (--temporal HOST:PORT)")
	}
	opts := client.Options{HostPort: c.HostPort, Namespace: c.Namespace}
	if c.Log != nil {
		opts.Logger = sdklog.NewStructuredLogger(c.Log)
	}
	cl, err := client.DialContext(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("cluster: cannot reach the Temporal server at %s: %w", c.HostPort, err)
	}
	return cl, nil
}

// NewRun reads the pipeline file and returns its run with absolute paths;
// workdir is the stage outputs' directory (it must be on a file system all
// workers share).
func NewRun(file, workdir string, only, force []string) (Run, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return Run{}, fmt.Errorf("cluster: pipeline file %s: %w", file, err)
	}
	content, err := os.ReadFile(abs)
	if err != nil {
		return Run{}, fmt.Errorf("cluster: %w", err)
	}
	wd, err := filepath.Abs(workdir)
	if err != nil {
		return Run{}, fmt.Errorf("cluster: workdir %s: %w", workdir, err)
	}
	return Run{File: abs, Content: content, Workdir: wd, Only: only, Force: force, Retry: DefaultRetry()}, nil
}

// WorkflowID is the id of a run's workflow: the pipeline's name and a hash
// of the file's path and content, the workdir and the only/force lists, so
// that resubmitting the same run finds its workflow.
func WorkflowID(name string, run Run) string {
	key, _ := json.Marshal([]any{run.File, run.Content, run.Workdir, run.Only, run.Force})
	sum := sha256.Sum256(key)
	return "lifezero-" + name + "-" + hex.EncodeToString(sum[:8])
}

// Submission is a started (or joined) workflow.
type Submission struct {
	ID       string
	Attached bool // the workflow was already running: this submission joined it
	run      client.WorkflowRun
}

// Submit starts the run's workflow on the task queue, or attaches to it when
// a workflow of the same id is running (a resubmission after the
// submitter died). A finished one is started anew: its stages are cached.
func Submit(ctx context.Context, c client.Client, id, queue string, run Run) (*Submission, error) {
	if queue == "" {
		queue = DefaultTaskQueue
	}
	s := &Submission{ID: id}
	if d, err := c.DescribeWorkflowExecution(ctx, id, ""); err == nil &&
		d.GetWorkflowExecutionInfo().GetStatus() == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
		s.Attached = true
	}
	opts := client.StartWorkflowOptions{
		ID:                       id,
		TaskQueue:                queue,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}
	wr, err := c.ExecuteWorkflow(ctx, opts, WorkflowName, run)
	if err != nil {
		return nil, fmt.Errorf("cluster: start workflow %s: %w", id, err)
	}
	s.run = wr
	return s, nil
}

// RunID returns the id of the workflow run the submission started or joined.
func (s *Submission) RunID() string { return s.run.GetRunID() }

// Wait waits for the workflow's end and returns its output; when stages
// failed, the output comes with the error. Cancelling ctx stops the wait,
// not the workflow.
func (s *Submission) Wait(ctx context.Context) (Output, error) {
	var out Output
	err := s.run.Get(ctx, &out)
	if err == nil {
		return out, nil
	}
	var ae *temporal.ApplicationError
	if errors.As(err, &ae) && ae.Type() == ErrTypeStageFailed && ae.HasDetails() {
		if derr := ae.Details(&out); derr == nil {
			return out, fmt.Errorf("workflow %s: %s", s.ID, ae.Message())
		}
	}
	if ctx.Err() != nil {
		return out, fmt.Errorf("stopped waiting for workflow %s, which goes on (submit again to attach): %w", s.ID, ctx.Err())
	}
	return out, fmt.Errorf("workflow %s: %w", s.ID, err)
}
