package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"go.temporal.io/sdk/client"

	"lifezero/cluster"
)

const workerSynopsis = "worker --temporal HOST:PORT [--task-queue Q] [--units N]"

// cmdWorker runs a Temporal worker: it takes stages and shards of pipelines
// submitted with "run --temporal" until stopped (Ctrl-C, SIGTERM).
func cmdWorker(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("worker", workerSynopsis, stderr)
	tf := addTemporalFlags(fs)
	units := fs.Int("units", 1, "stages or shards run at once (each already uses every CPU it may)")
	name := fs.String("name", "", "this worker's name in Temporal and in run summaries (default host@pid)")
	verbose := fs.Bool("v", false, "log debug messages")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("worker takes no arguments, got %v", pos)
	}
	if tf.hostPort == "" {
		return usagef("--temporal HOST:PORT is required (the Temporal server's frontend)")
	}
	if *units < 1 {
		return usagef("--units %d: want at least 1", *units)
	}
	reg, err := newRegistry()
	if err != nil {
		return err
	}
	log := newLogger(stderr, *verbose)
	c, err := tf.dial(ctx, stderr, *verbose)
	if err != nil {
		return err
	}
	defer c.Close()
	log.Info("worker polling", "temporal", tf.hostPort, "task_queue", tf.queue(), "units", *units)
	err = cluster.Serve(ctx, c, cluster.WorkerOptions{TaskQueue: tf.queue(), Units: *units, Name: *name,
		Activities: cluster.Activities{Registry: reg, Log: log}})
	if err != nil {
		return err
	}
	// Stopped by Ctrl-C or SIGTERM: main reports the signal in the exit
	// status.
	log.Info("worker stopped")
	return nil
}

// temporalFlags are the flags that reach a Temporal server.
type temporalFlags struct {
	hostPort, taskQueue, namespace string
}

func addTemporalFlags(fs interface {
	StringVar(p *string, name, value, usage string)
}) *temporalFlags {
	tf := &temporalFlags{}
	fs.StringVar(&tf.hostPort, "temporal", "", "run through the Temporal server at `HOST:PORT` (its frontend, e.g. 127.0.0.1:7233)")
	fs.StringVar(&tf.taskQueue, "task-queue", cluster.DefaultTaskQueue, "Temporal task queue of the workers")
	fs.StringVar(&tf.namespace, "namespace", "default", "Temporal namespace")
	return tf
}

func (tf *temporalFlags) queue() string { return tf.taskQueue }

// dial connects to the server; the SDK's own log lines show only from
// warnings up, or everything with -v.
func (tf *temporalFlags) dial(ctx context.Context, stderr io.Writer, verbose bool) (client.Client, error) {
	level := slog.LevelWarn
	if verbose {
		level = slog.LevelDebug
	}
	c, err := cluster.Dial(ctx, cluster.Conn{HostPort: tf.hostPort, Namespace: tf.namespace,
		Log: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))})
	if err != nil {
		return nil, fmt.Errorf("%w (is the server running? e.g. temporal server start-dev)", err)
	}
	return c, nil
}
