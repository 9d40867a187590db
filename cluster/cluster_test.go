package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"lifezero/datasets"
	"lifezero/internal/temporaltest"
	"lifezero/pipelines"
)

// The test kind "lines" writes "STAGE n" for n below rows, after the lines
// of its inputs; it is shardable (shard i writes the lines k with
// k%shards == i and the merge interleaves them back), so a sharded run must write what an
// unsharded one does. fail makes it fail.
type linesParams struct {
	Rows  int  `yaml:"rows"`
	Fail  bool `yaml:"fail"`
	Shard int  `yaml:"-" json:"-"`
	Of    int  `yaml:"-" json:"-"`
}

// recorder counts the units the kind ran, per worker process (all workers
// of a test share it).
type recorder struct {
	mu    sync.Mutex
	units map[string]int
	// release ends the runs of kind "block", which report 3 of 10 steps
	// done and wait for it.
	release chan struct{}
}

func (r *recorder) add(unit string) {
	r.mu.Lock()
	r.units[unit]++
	r.mu.Unlock()
}

func (r *recorder) count(unit string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.units[unit]
}

func testRegistry(t testing.TB, rec *recorder) *pipelines.Registry {
	t.Helper()
	run := func(ctx context.Context, env *pipelines.Env) error {
		p, err := pipelines.ParamsAs[linesParams](env)
		if err != nil {
			return err
		}
		unit := env.Stage
		if p.Of > 1 {
			unit = fmt.Sprintf("%s/%d", env.Stage, p.Shard)
		}
		rec.add(unit)
		if p.Fail {
			return errors.New("asked to fail")
		}
		var b strings.Builder
		for _, in := range env.Inputs {
			data, err := os.ReadFile(filepath.Join(in.Path, "data.txt"))
			if err != nil {
				return err
			}
			b.Write(data)
		}
		for n := range p.Rows {
			fmt.Fprintf(&b, "%s %d\n", env.Stage, n)
		}
		if p.Of <= 1 {
			return writeLines(env, b.String())
		}
		var mine strings.Builder
		for k, line := range strings.SplitAfter(b.String(), "\n") {
			if k%p.Of == p.Shard {
				mine.WriteString(line)
			}
		}
		return writeLines(env, mine.String())
	}
	merge := func(ctx context.Context, env *pipelines.Env, shards []string) error {
		var lines [][]string
		for _, dir := range shards {
			data, err := os.ReadFile(filepath.Join(dir, "data.txt"))
			if err != nil {
				return err
			}
			l := strings.SplitAfter(string(data), "\n")
			lines = append(lines, l[:len(l)-1])
		}
		var b strings.Builder
		for k := 0; k/len(lines) < len(lines[k%len(lines)]); k++ {
			b.WriteString(lines[k%len(lines)][k/len(lines)])
		}
		return writeLines(env, b.String())
	}
	block := pipelines.Kind{Name: "block", Params: linesParams{}, Run: func(ctx context.Context, env *pipelines.Env) error {
		env.Progress.Start(10, "steps")
		env.Progress.Add(3)
		select {
		case <-rec.release:
		case <-ctx.Done():
			return ctx.Err()
		}
		env.Progress.Finish()
		return writeLines(env, "done\n")
	}}
	reg, err := pipelines.NewRegistry(block, pipelines.Kind{
		Name: "lines", Version: 1, Params: linesParams{Rows: 3}, Run: run,
		Shard: &pipelines.Sharding{
			Params: func(params any, i, n int) (any, error) {
				p := params.(linesParams)
				p.Shard, p.Of = i, n
				return p, nil
			},
			Merge: merge,
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func writeLines(env *pipelines.Env, s string) error {
	if err := os.WriteFile(filepath.Join(env.OutDir, "data.txt"), []byte(s), 0o644); err != nil {
		return err
	}
	fe, err := env.FileEntry("data.txt", int64(strings.Count(s, "\n")))
	if err != nil {
		return err
	}
	return env.WriteManifest(&datasets.Manifest{Kind: "lines", SchemaVersion: 1, Files: []datasets.FileEntry{fe}})
}

// env is a dev server, a client and n in-process workers on a task queue.
type env struct {
	c     client.Client
	queue string
	rec   *recorder
	reg   *pipelines.Registry
}

func newEnv(t testing.TB, workers int) *env {
	t.Helper()
	srv := temporaltest.Start(t)
	c, err := Dial(context.Background(), Conn{HostPort: srv.HostPort, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	e := &env{c: c, queue: "test", rec: &recorder{units: map[string]int{}, release: make(chan struct{})}}
	e.reg = testRegistry(t, e.rec)
	for i := range workers {
		w := NewWorker(c, WorkerOptions{TaskQueue: e.queue, Units: 2, Name: fmt.Sprintf("w%d", i+1),
			Activities: Activities{Registry: e.reg}})
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(w.Stop)
	}
	return e
}

// run submits the pipeline yml (written to a temp dir) and waits for it.
func (e *env) run(t testing.TB, dir, yml string, force ...string) (Run, Output, error) {
	t.Helper()
	file := filepath.Join(dir, "pipeline.yaml")
	if err := os.WriteFile(file, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	run, err := NewRun(file, filepath.Join(dir, "work"), nil, force)
	if err != nil {
		t.Fatal(err)
	}
	run.Retry = Retry{Heartbeat: 5 * time.Second, Timeout: time.Minute, Attempts: 2}
	sub, err := Submit(context.Background(), e.c, WorkflowID("t", run), e.queue, run)
	if err != nil {
		t.Fatal(err)
	}
	out, err := sub.Wait(context.Background())
	return run, out, err
}

const graphPipeline = `name: graph
stages:
  a: {kind: lines, params: {rows: 2}}
  b: {kind: lines, inputs: [stage:a], shards: 3, params: {rows: 7}}
  c: {kind: lines, inputs: [stage:a], params: {rows: 1}}
  d: {kind: lines, inputs: [stage:b, stage:c]}
`

func statusOf(out Output) map[string]string {
	m := map[string]string{}
	for _, s := range out.Stages {
		m[s.Stage] = s.Status
	}
	return m
}

// TestWorkflowGraph runs a stage graph with a sharded stage through
// Temporal and holds its outputs against the local runner's; a rerun is
// cached, a forced stage reruns alone.
func TestWorkflowGraph(t *testing.T) {
	e := newEnv(t, 2)
	dir := t.TempDir()
	run, out, err := e.run(t, dir, graphPipeline)
	if err != nil {
		t.Fatal(err)
	}
	for name, st := range statusOf(out) {
		if st != "ran" {
			t.Errorf("stage %s %s, want ran", name, st)
		}
	}
	if len(out.Stages) != 4 || out.Stages[1].Stage != "b" || out.Stages[1].Shards != 3 || out.Stages[1].Rows != 2+7 {
		t.Errorf("outcomes %+v", out.Stages)
	}
	for i := range 3 {
		if n := e.rec.count(fmt.Sprintf("b/%d", i)); n != 1 {
			t.Errorf("shard %d of b ran %d times", i, n)
		}
	}
	// Merged, the shards of b hold what one piece would.
	if got, _ := os.ReadFile(filepath.Join(run.Workdir, "b", "data.txt")); string(got) != "a 0\na 1\nb 0\nb 1\nb 2\nb 3\nb 4\nb 5\nb 6\n" {
		t.Errorf("b through Temporal:\n%s", got)
	}
	// The local runner on another workdir writes the same data.
	p, err := pipelines.Parse(run.File, run.Content, e.reg)
	if err != nil {
		t.Fatal(err)
	}
	p.Workdir = filepath.Join(dir, "local")
	if _, err := (&pipelines.Runner{}).Run(context.Background(), p, pipelines.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, st := range []string{"a", "b", "c", "d"} {
		want, _ := os.ReadFile(filepath.Join(p.Workdir, st, "data.txt"))
		got, err := os.ReadFile(filepath.Join(run.Workdir, st, "data.txt"))
		if err != nil || string(got) != string(want) || len(want) == 0 {
			t.Errorf("stage %s through Temporal:\n%s\nlocal:\n%s (%v)", st, got, want, err)
		}
	}
	_, out, err = e.run(t, dir, graphPipeline, "c")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a": "cached", "b": "cached", "c": "ran", "d": "cached"}
	if got := statusOf(out); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("rerun forcing c: %v, want %v (c's data is unchanged, so d stays cached)", got, want)
	}
}

// TestWorkflowFailure: a failing stage is tried Attempts times, the stages
// after it do not run, the others do, and the workflow's error carries the
// outcomes.
func TestWorkflowFailure(t *testing.T) {
	e := newEnv(t, 1)
	yml := `name: fail
stages:
  a: {kind: lines}
  bad: {kind: lines, inputs: [stage:a], params: {fail: true}}
  after: {kind: lines, inputs: [stage:bad]}
  side: {kind: lines, inputs: [stage:a]}
`
	_, out, err := e.run(t, t.TempDir(), yml)
	if err == nil || !strings.Contains(err.Error(), "bad (failed)") || !strings.Contains(err.Error(), "after (not run)") {
		t.Fatalf("error %v, want it to name bad (failed) and after (not run)", err)
	}
	want := map[string]string{"a": "ran", "bad": "failed", "after": "not run", "side": "ran"}
	if got := statusOf(out); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("outcomes %v, want %v", got, want)
	}
	if n := e.rec.count("bad"); n != 2 {
		t.Errorf("the failing stage ran %d times, want 2 (the attempts)", n)
	}
	for _, s := range out.Stages {
		if s.Stage == "bad" && !strings.Contains(s.Error, "asked to fail") {
			t.Errorf("bad's error %q does not say why", s.Error)
		}
	}
}

// TestWorkflowBadPipeline: a pipeline that does not load fails at once,
// naming the file and line, without retries.
func TestWorkflowBadPipeline(t *testing.T) {
	e := newEnv(t, 1)
	_, _, err := e.run(t, t.TempDir(), "name: bad\nstages:\n  a: {kind: nosuchkind}\n")
	if err == nil || !strings.Contains(err.Error(), `pipeline.yaml:3: stage "a": unknown kind "nosuchkind"`) {
		t.Fatalf("error %v, want the pipeline file's line and the unknown kind", err)
	}
}

// BenchmarkDispatch measures the overhead Temporal adds per unit of work:
// a chain of stages that write one line each, so the time is dispatch
// (one activity per stage, in turn).
func BenchmarkDispatch(b *testing.B) {
	e := newEnv(b, 1)
	const stages = 20
	var yml strings.Builder
	yml.WriteString("name: chain\nstages:\n  s0: {kind: lines, params: {rows: 1}}\n")
	for i := 1; i < stages; i++ {
		fmt.Fprintf(&yml, "  s%d: {kind: lines, inputs: [stage:s%d], params: {rows: 1}}\n", i, i-1)
	}
	b.ResetTimer()
	for range b.N {
		dir := b.TempDir()
		if _, _, err := e.run(b, dir, yml.String()); err != nil {
			b.Fatal(err)
		}
	}
	perActivity := float64(b.Elapsed().Milliseconds()) / float64(b.N*(stages+1))
	b.ReportMetric(perActivity, "ms/activity")
}

// TestPending: while a stage runs, the submission sees it pending on its
// worker with the progress of its last heartbeat.
func TestPending(t *testing.T) {
	e := newEnv(t, 1)
	dir := t.TempDir()
	file := filepath.Join(dir, "pipeline.yaml")
	if err := os.WriteFile(file, []byte("name: p\nstages:\n  b: {kind: block}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run, err := NewRun(file, filepath.Join(dir, "work"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	run.Retry.Heartbeat = 2 * time.Second
	ctx := context.Background()
	sub, err := Submit(ctx, e.c, WorkflowID("p", run), e.queue, run)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		pending, err := sub.Pending(ctx, e.c)
		if err != nil {
			t.Fatal(err)
		}
		if len(pending) == 1 && pending[0].String() == "b: steps 3/10 on w1" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("pending %v, want [b: steps 3/10 on w1]", pending)
		}
		time.Sleep(200 * time.Millisecond)
	}
	close(e.rec.release)
	if out, err := sub.Wait(ctx); err != nil || out.Stages[0].Status != "ran" {
		t.Fatalf("%+v, %v", out, err)
	}
}
