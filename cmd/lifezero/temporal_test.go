package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"lifezero/cluster"
	"lifezero/datasets"
	"lifezero/evaluate"
	"lifezero/internal/temporaltest"
	"lifezero/train"
)

// These tests run pipelines through a real Temporal development server
// and real worker processes (this test binary acting as "lifezero worker"),
// and hold the datasets against a local run of the same pipeline.

// worker is a "lifezero worker" process.
type worker struct {
	name string
	cmd  *exec.Cmd
	mu   sync.Mutex
	log  bytes.Buffer
	// lines receives the worker's log lines until it exits.
	lines chan string
}

// startWorker starts a worker process on srv; it is killed when t ends.
func startWorker(t *testing.T, srv *temporaltest.Server, name string, extra ...string) *worker {
	t.Helper()
	args := append([]string{"worker", "--temporal", srv.HostPort, "--name", name}, extra...)
	cmd := exec.Command(os.Args[0], "-test.run=^TestMainProcess$")
	cmd.Env = append(os.Environ(), mainEnv+"="+strings.Join(args, "\n"))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	w := &worker{name: name, cmd: cmd, lines: make(chan string, 4096)}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			w.mu.Lock()
			w.log.WriteString(sc.Text() + "\n")
			w.mu.Unlock()
			select {
			case w.lines <- sc.Text():
			default:
			}
		}
		close(w.lines)
	}()
	t.Cleanup(func() {
		w.stop()
		if t.Failed() {
			t.Logf("worker %s log:\n%s", name, w.logText())
		}
	})
	return w
}

func (w *worker) logText() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.log.String()
}

// stop ends the worker as Ctrl-C would, or kills it after 20 s.
func (w *worker) stop() {
	if w.cmd.ProcessState != nil {
		return
	}
	w.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { w.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		w.cmd.Process.Kill()
		<-done
	}
}

// kill9 kills the worker with SIGKILL: no cleanup, no goodbye to Temporal.
func (w *worker) kill9() {
	w.cmd.Process.Signal(syscall.SIGKILL)
	w.cmd.Wait()
}

// waitLine waits for a log line of the worker containing all of subs.
func (w *worker) waitLine(t *testing.T, timeout time.Duration, subs ...string) string {
	t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case line, ok := <-w.lines:
			if !ok {
				t.Fatalf("worker %s exited before logging %q", w.name, subs)
			}
			if containsAll(line, subs) {
				return line
			}
		case <-deadline:
			t.Fatalf("worker %s logged no line with %q in %v", w.name, subs, timeout)
		}
	}
}

func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

// compareManifests checks that every stage dataset of got has the files of
// want, byte for byte (their SHA-256 in the manifests), except the timing
// columns of solve results (compared row by row without them) and the
// report, which shows timings.
func compareManifests(t *testing.T, want, got string, stages []string) {
	t.Helper()
	for _, st := range stages {
		mw, err := datasets.Verify(filepath.Join(want, st))
		if err != nil {
			t.Fatalf("local %s: %v", st, err)
		}
		mg, err := datasets.Verify(filepath.Join(got, st))
		if err != nil {
			t.Errorf("temporal %s: %v", st, err)
			continue
		}
		// A report's input hash covers its inputs' report sections, which
		// hold timings.
		if (mw.InputHash != mg.InputHash && mw.Kind != "report") || mw.Rows != mg.Rows {
			t.Errorf("%s: input hash %.12s rows %d through Temporal, local %.12s rows %d", st, mg.InputHash, mg.Rows, mw.InputHash, mw.Rows)
		}
		switch mw.Kind {
		case evaluate.SolveResultsKind:
			compareSolveRows(t, st, filepath.Join(want, st), filepath.Join(got, st))
			continue
		case "report":
			continue
		}
		if !slices.EqualFunc(mw.Files, mg.Files, func(a, b datasets.FileEntry) bool { return a.Name == b.Name && a.SHA256 == b.SHA256 }) {
			t.Errorf("%s: files %v through Temporal, local %v", st, mg.Files, mw.Files)
		}
	}
}

func compareSolveRows(t *testing.T, st, want, got string) {
	t.Helper()
	rw, _, err := evaluate.ReadSolveResults(context.Background(), want)
	if err != nil {
		t.Fatal(err)
	}
	rg, _, err := evaluate.ReadSolveResults(context.Background(), got)
	if err != nil {
		t.Fatal(err)
	}
	if len(rw) != len(rg) {
		t.Fatalf("%s: %d rows through Temporal, %d local", st, len(rg), len(rw))
	}
	for i := range rw {
		a, b := rw[i], rg[i]
		a.Seconds, b.Seconds = 0, 0
		if fmt.Sprintf("%+v", a) != fmt.Sprintf("%+v", b) {
			t.Errorf("%s row %d: %+v through Temporal, local %+v", st, i, b, a)
		}
	}
}

func stageNames(t *testing.T, workdir string) []string {
	t.Helper()
	entries, err := os.ReadDir(workdir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(workdir, e.Name(), datasets.ManifestName)); err == nil {
			names = append(names, e.Name())
		}
	}
	return names
}

// TestTemporalDefaultPipeline runs the default pipeline locally, then
// through Temporal with one worker and with two, and compares the datasets;
// a second submission of a running workflow attaches to it.
func TestTemporalDefaultPipeline(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the default pipeline three times")
	}
	srv := temporaltest.Start(t)
	local := t.TempDir()
	if code, out, errs := lifezero(t, "run", "../../pipeline.yaml", "--workdir", local); code != 0 {
		t.Fatalf("local run: exit %d\n%s\n%s", code, out, errs)
	}
	stages := stageNames(t, local)
	if len(stages) < 10 {
		t.Fatalf("local run made %d datasets: %v", len(stages), stages)
	}
	for _, n := range []int{1, 2} {
		t.Run(fmt.Sprintf("%d workers", n), func(t *testing.T) {
			workers := make([]*worker, n)
			for i := range workers {
				workers[i] = startWorker(t, srv, fmt.Sprintf("w%d", i+1))
			}
			work := t.TempDir()
			code, out, errs := lifezero(t, "run", "../../pipeline.yaml", "--workdir", work, "--temporal", srv.HostPort)
			if code != 0 {
				t.Fatalf("run --temporal: exit %d\n%s\n%s", code, out, errs)
			}
			if !strings.Contains(out, "through Temporal") || strings.Count(out, " ran ") != len(stages) {
				t.Errorf("summary does not list %d stages ran:\n%s", len(stages), out)
			}
			compareManifests(t, local, work, stages)
			if n == 2 {
				for _, w := range workers {
					if !strings.Contains(w.logText(), "unit start") {
						t.Errorf("worker %s ran nothing", w.name)
					}
				}
			}
			// A rerun finds every stage cached, through Temporal too.
			code, out, _ = lifezero(t, "run", "../../pipeline.yaml", "--workdir", work, "--temporal", srv.HostPort)
			if code != 0 || strings.Count(out, " cached ") != len(stages) {
				t.Errorf("second run --temporal: exit %d, want every stage cached:\n%s", code, out)
			}
		})
	}
}

// TestTemporalAttach submits a run twice while its workflow waits for a
// worker: the second submission attaches to the first's workflow run.
func TestTemporalAttach(t *testing.T) {
	srv := temporaltest.Start(t)
	ctx := context.Background()
	c, err := cluster.Dial(ctx, cluster.Conn{HostPort: srv.HostPort})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	run, err := cluster.NewRun("../../pipeline.yaml", t.TempDir(), []string{"problems"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := cluster.WorkflowID("default", run)
	first, err := cluster.Submit(ctx, c, id, "attach-test", run)
	if err != nil {
		t.Fatal(err)
	}
	second, err := cluster.Submit(ctx, c, id, "attach-test", run)
	if err != nil {
		t.Fatal(err)
	}
	if first.Attached || !second.Attached || first.RunID() != second.RunID() {
		t.Fatalf("first (attached %v, run %s), second (attached %v, run %s): want the second attached to the first's run",
			first.Attached, first.RunID(), second.Attached, second.RunID())
	}
	other := run
	other.Only = []string{"games"}
	if cluster.WorkflowID("default", other) == id {
		t.Error("another --only gives the same workflow id")
	}
	startWorker(t, srv, "wa", "--task-queue", "attach-test")
	out, err := second.Wait(ctx)
	if err != nil || len(out.Stages) != 1 || out.Stages[0].Status != "ran" || out.Stages[0].Rows != 6 {
		t.Fatalf("attached wait: %+v, %v; want problems ran with 6 rows", out, err)
	}
}

// killPipeline is one sharded self-play stage whose shards play several
// files of games each, slowly enough to be killed in the middle.
const killPipeline = `name: kill
stages:
  sp:
    kind: selfplay
    shards: 2
    params: {preset: 2x16, board: 7, games: 12, simulations: 48, games_per_file: 1, workers: 1}
`

// TestTemporalWorkerKilled kills a worker with SIGKILL in the middle of a
// self-play shard: Temporal retries the shard on the other worker, which
// resumes the files the dead one finished, and the dataset equals a local
// run's: no game lost or played twice.
func TestTemporalWorkerKilled(t *testing.T) {
	srv := temporaltest.Start(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "pipeline.yaml")
	if err := os.WriteFile(file, []byte(killPipeline), 0o644); err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(dir, "local")
	if code, out, errs := lifezero(t, "run", file, "--workdir", local); code != 0 {
		t.Fatalf("local run: exit %d\n%s\n%s", code, out, errs)
	}
	w1 := startWorker(t, srv, "w1")
	w1.waitLine(t, time.Minute, "worker polling")
	work := filepath.Join(dir, "temporal")
	type result struct {
		code      int
		out, errs string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errs := lifezero(t, "run", file, "--workdir", work, "--temporal", srv.HostPort, "--heartbeat", "2s")
		done <- result{code, out, errs}
	}()
	// w1 alone takes the first shard; a second worker started then takes
	// the other. Kill w1 once it has finished a file of its shard.
	w1.waitLine(t, 2*time.Minute, "unit start", "shard")
	w2 := startWorker(t, srv, "w2")
	w1.waitLine(t, 2*time.Minute, "self-play chunk done")
	w1.kill9()
	t.Logf("killed w1 (SIGKILL) after its first file of games")
	var r result
	select {
	case r = <-done:
	case <-time.After(4 * time.Minute):
		t.Fatal("the run did not finish in 4 minutes after the kill")
	}
	if r.code != 0 {
		t.Fatalf("run --temporal: exit %d\n%s\n%s", r.code, r.out, r.errs)
	}
	log2 := w2.logText()
	if !strings.Contains(log2, "self-play resumes") {
		t.Errorf("w2 did not resume the killed shard's finished files:\n%s", log2)
	}
	compareManifests(t, local, work, []string{"sp"})
	m, err := datasets.Verify(filepath.Join(work, "sp"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Meta["games"] != "12" {
		t.Errorf("the merged dataset has %s games, want 12", m.Meta["games"])
	}
}

// TestTemporalServerRestart kills the Temporal server (SIGKILL) while a
// shard runs and starts it again on its database file: the workflow goes
// on, and its dataset equals a local run's.
func TestTemporalServerRestart(t *testing.T) {
	srv := temporaltest.Start(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "pipeline.yaml")
	if err := os.WriteFile(file, []byte(killPipeline), 0o644); err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(dir, "local")
	if code, out, errs := lifezero(t, "run", file, "--workdir", local); code != 0 {
		t.Fatalf("local run: exit %d\n%s\n%s", code, out, errs)
	}
	w := startWorker(t, srv, "w1")
	ctx := context.Background()
	c, err := cluster.Dial(ctx, cluster.Conn{HostPort: srv.HostPort})
	if err != nil {
		t.Fatal(err)
	}
	run, err := cluster.NewRun(file, filepath.Join(dir, "temporal"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := cluster.WorkflowID("kill", run)
	if _, err := cluster.Submit(ctx, c, id, "", run); err != nil {
		t.Fatal(err)
	}
	c.Close()
	w.waitLine(t, 2*time.Minute, "self-play chunk done")
	srv.Kill()
	t.Logf("killed the Temporal server (SIGKILL) in the middle of a shard")
	time.Sleep(2 * time.Second)
	if err := srv.Restart(t); err != nil {
		t.Fatal(err)
	}
	c, err = cluster.Dial(ctx, cluster.Conn{HostPort: srv.HostPort})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sub, err := cluster.Submit(ctx, c, id, "", run)
	if err != nil {
		t.Fatal(err)
	}
	if !sub.Attached {
		t.Errorf("after the restart the workflow %s is not running", id)
	}
	wctx, cancel := context.WithTimeout(ctx, 4*time.Minute)
	defer cancel()
	out, err := sub.Wait(wctx)
	if err != nil || len(out.Stages) != 1 || out.Stages[0].Status != "ran" {
		t.Fatalf("after the restart: %+v, %v", out, err)
	}
	compareManifests(t, local, run.Workdir, []string{"sp"})
}

// trainPipeline trains long enough to be killed after a checkpoint.
const trainPipeline = `name: train
stages:
  sp:
    kind: selfplay
    params: {preset: 2x16, board: 7, games: 8, simulations: 32, games_per_file: 4}
  net:
    kind: train
    inputs: [stage:sp]
    params: {steps: 300, batch_size: 32, checkpoint_every: 50}
`

// TestTemporalTrainingKilled kills the worker training the network once it
// has written a checkpoint: the retry, on another worker, resumes from the
// checkpoint and the network equals a local run's, byte for byte.
func TestTemporalTrainingKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a network twice")
	}
	srv := temporaltest.Start(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "pipeline.yaml")
	if err := os.WriteFile(file, []byte(trainPipeline), 0o644); err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(dir, "local")
	if code, out, errs := lifezero(t, "run", file, "--workdir", local); code != 0 {
		t.Fatalf("local run: exit %d\n%s\n%s", code, out, errs)
	}
	w1 := startWorker(t, srv, "w1")
	work := filepath.Join(dir, "temporal")
	done := make(chan error, 1)
	go func() {
		code, out, errs := lifezero(t, "run", file, "--workdir", work, "--temporal", srv.HostPort, "--heartbeat", "2s")
		if code != 0 {
			done <- fmt.Errorf("run --temporal: exit %d\n%s\n%s", code, out, errs)
		}
		close(done)
	}()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		// checkpoint.json is written after the weights it names.
		if _, err := os.Stat(filepath.Join(work, "net", train.CheckpointFile)); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no training checkpoint in 3 minutes")
		}
		time.Sleep(100 * time.Millisecond)
	}
	w1.kill9()
	t.Logf("killed w1 (SIGKILL) after a training checkpoint")
	w2 := startWorker(t, srv, "w2")
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(4 * time.Minute):
		t.Fatal("the run did not finish in 4 minutes after the kill")
	}
	if !strings.Contains(w2.logText(), "training resumes from checkpoint") {
		t.Errorf("w2 did not resume from the checkpoint:\n%s", w2.logText())
	}
	compareManifests(t, local, work, []string{"sp", "net"})
}
