package pipelines

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lifezero/datasets"
)

// helperEnv makes the test binary act as a pipeline run that a test kills.
const helperEnv = "LIFEZERO_PIPELINES_HELPER"

const chainPipeline = `name: chain
stages:
  a:
    kind: emit
    inputs: [in.txt]
    params: {rows: 3, tag: A}
  b:
    kind: emit
    inputs: [stage:a]
  c:
    kind: emit
    inputs: [stage:b]
  side:
    kind: emit
    params: {tag: S}
`

func load(t *testing.T, w *world, path string) *Pipeline {
	t.Helper()
	p, err := Load(path, w.registry(t))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func run(t *testing.T, p *Pipeline, opts RunOptions) map[string]Status {
	t.Helper()
	res, err := (&Runner{}).Run(context.Background(), p, opts)
	if err != nil {
		t.Fatal(err)
	}
	return statuses(res)
}

func checkStatuses(t *testing.T, got map[string]Status, want map[string]Status) {
	t.Helper()
	for name, w := range want {
		if got[name] != w {
			t.Errorf("stage %s: %s, want %s (all: %v)", name, got[name], w, got)
		}
	}
}

func TestRunAndCache(t *testing.T) {
	dir := t.TempDir()
	path := writePipeline(t, dir, chainPipeline)
	w := newWorld()
	checkStatuses(t, run(t, load(t, w, path), RunOptions{}),
		map[string]Status{"a": StatusRan, "b": StatusRan, "c": StatusRan, "side": StatusRan})

	data, err := os.ReadFile(filepath.Join(dir, "runs", "chain", "c", "data.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := "input line\na A 0\na A 1\na A 2\nb x 0\nb x 1\nc x 0\nc x 1\n"
	if string(data) != want {
		t.Errorf("c output\n%s\nwant\n%s", data, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "runs", "chain", StateDir, "c.json")); !os.IsNotExist(err) {
		t.Errorf("run marker left behind after success: %v", err)
	}

	// Second run: everything cached, nothing runs.
	checkStatuses(t, run(t, load(t, w, path), RunOptions{}),
		map[string]Status{"a": StatusCached, "b": StatusCached, "c": StatusCached, "side": StatusCached})
	for _, s := range []string{"a", "b", "c", "side"} {
		if n := w.count(s); n != 1 {
			t.Errorf("stage %s ran %d times, want 1", s, n)
		}
	}

	// A param change reruns the stage and its dependents only.
	writePipeline(t, dir, strings.Replace(chainPipeline, "rows: 3", "rows: 4", 1))
	checkStatuses(t, run(t, load(t, w, path), RunOptions{}),
		map[string]Status{"a": StatusRan, "b": StatusRan, "c": StatusRan, "side": StatusCached})

	// The same params written differently (defaults spelled out) hash alike.
	writePipeline(t, dir, strings.Replace(chainPipeline, "params: {tag: S}", "params: {tag: S, rows: 2, fail: false}", 1))
	checkStatuses(t, run(t, load(t, w, path), RunOptions{}), map[string]Status{"side": StatusCached})

	// Changing a path input's content reruns its reader.
	writePipeline(t, dir, chainPipeline) // rows back to 3: a reruns anyway
	run(t, load(t, w, path), RunOptions{})
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte("other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkStatuses(t, run(t, load(t, w, path), RunOptions{}),
		map[string]Status{"a": StatusRan, "b": StatusRan, "side": StatusCached})
}

func TestCorruptCacheReruns(t *testing.T) {
	dir := t.TempDir()
	path := writePipeline(t, dir, chainPipeline)
	w := newWorld()
	run(t, load(t, w, path), RunOptions{})
	if err := os.WriteFile(filepath.Join(dir, "runs", "chain", "b", "data.txt"), []byte("tampered\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkStatuses(t, run(t, load(t, w, path), RunOptions{}),
		map[string]Status{"a": StatusCached, "b": StatusRan, "c": StatusCached})
}

func TestOnlyAndForce(t *testing.T) {
	dir := t.TempDir()
	path := writePipeline(t, dir, chainPipeline)
	w := newWorld()
	got := run(t, load(t, w, path), RunOptions{Only: []string{"b"}})
	if len(got) != 2 || got["a"] != StatusRan || got["b"] != StatusRan {
		t.Errorf("--only b: %v, want a and b ran", got)
	}
	got = run(t, load(t, w, path), RunOptions{Only: []string{"c"}, Force: []string{"a"}})
	checkStatuses(t, got, map[string]Status{"a": StatusRan, "b": StatusCached, "c": StatusRan})
	if w.count("a") != 2 {
		t.Errorf("a ran %d times, want 2", w.count("a"))
	}
	if _, err := (&Runner{}).Run(context.Background(), load(t, w, path), RunOptions{Force: []string{"zz"}}); err == nil {
		t.Error("--force of an unknown stage: no error")
	}
}

func TestResumeAfterFailure(t *testing.T) {
	dir := t.TempDir()
	failing := strings.Replace(chainPipeline, "    inputs: [stage:a]\n", "    inputs: [stage:a]\n    params: {fail: true}\n", 1)
	path := writePipeline(t, dir, failing)
	w := newWorld()
	res, err := (&Runner{}).Run(context.Background(), load(t, w, path), RunOptions{})
	if err == nil || !strings.Contains(err.Error(), `stage "b" (kind emit): asked to fail`) {
		t.Fatalf("error %v", err)
	}
	checkStatuses(t, statuses(res), map[string]Status{"a": StatusRan, "b": StatusFailed, "c": StatusNotRun, "side": StatusNotRun})

	var buf bytes.Buffer
	if err := WriteSummary(&buf, res); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"STAGE", "a ", "ran", "failed", "not run"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, buf.String())
		}
	}

	writePipeline(t, dir, chainPipeline)
	checkStatuses(t, run(t, load(t, w, path), RunOptions{}),
		map[string]Status{"a": StatusCached, "b": StatusRan, "c": StatusRan})
	if w.count("a") != 1 {
		t.Errorf("a ran %d times, want 1", w.count("a"))
	}
	// b's partial work of the failed attempt was from another config
	// (fail: true), so it was discarded: one attempt recorded.
	if b, _ := os.ReadFile(filepath.Join(dir, "runs", "chain", "b", "partial.txt")); string(b) != "attempt\n" {
		t.Errorf("partial.txt = %q, want one attempt", b)
	}
}

func TestCancelAndResume(t *testing.T) {
	dir := t.TempDir()
	path := writePipeline(t, dir, chainPipeline)
	w := newWorld()
	started := make(chan struct{})
	w.block["b"] = started
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
	}()
	res, err := (&Runner{}).Run(ctx, load(t, w, path), RunOptions{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	checkStatuses(t, statuses(res), map[string]Status{"a": StatusRan, "b": StatusCancelled, "c": StatusNotRun})
	if _, err := datasets.ReadManifest(filepath.Join(dir, "runs", "chain", "b")); !errors.Is(err, datasets.ErrNoDataset) {
		t.Errorf("cancelled stage has a manifest: %v", err)
	}

	delete(w.block, "b")
	checkStatuses(t, run(t, load(t, w, path), RunOptions{}),
		map[string]Status{"a": StatusCached, "b": StatusRan, "c": StatusRan, "side": StatusRan})
	// Same config: the partial work of the cancelled attempt was kept.
	if b, _ := os.ReadFile(filepath.Join(dir, "runs", "chain", "b", "partial.txt")); string(b) != "attempt\nattempt\n" {
		t.Errorf("partial.txt = %q, want two attempts", b)
	}
}

// TestHelperProcess is the killed pipeline run of TestKillAndResume.
func TestHelperProcess(t *testing.T) {
	path := os.Getenv(helperEnv)
	if path == "" {
		t.Skip("helper process for TestKillAndResume")
	}
	w := newWorld()
	w.block["b"] = make(chan struct{})
	(&Runner{}).Run(context.Background(), load(t, w, path), RunOptions{})
	t.Fatal("the helper run should have blocked until killed")
}

func TestKillAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a subprocess")
	}
	dir := t.TempDir()
	path := writePipeline(t, dir, chainPipeline)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), helperEnv+"="+path)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	partial := filepath.Join(dir, "runs", "chain", "b", "partial.txt")
	deadline := time.Now().Add(60 * time.Second)
	for {
		// Wait for the content, not the file: os.WriteFile creates it
		// empty before it writes.
		if b, _ := os.ReadFile(partial); string(b) == "attempt\n" {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("helper never reached stage b")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL: no cleanup at all
		t.Fatal(err)
	}
	cmd.Wait()

	w := newWorld()
	checkStatuses(t, run(t, load(t, w, path), RunOptions{}),
		map[string]Status{"a": StatusCached, "b": StatusRan, "c": StatusRan})
	if w.count("a") != 0 {
		t.Errorf("a reran after the kill")
	}
	if b, _ := os.ReadFile(partial); string(b) != "attempt\nattempt\n" {
		t.Errorf("partial.txt = %q, want the killed attempt kept", b)
	}
}

func TestMissingPathInput(t *testing.T) {
	dir := t.TempDir()
	path := writePipeline(t, dir, strings.Replace(chainPipeline, "[in.txt]", "[nothere.txt]", 1))
	_, err := (&Runner{}).Run(context.Background(), load(t, newWorld(), path), RunOptions{})
	if err == nil || !strings.Contains(err.Error(), `pipeline.yaml:5: stage "a": input "nothere.txt"`) {
		t.Errorf("error %v", err)
	}
}

func TestPanicIsAFailure(t *testing.T) {
	dir := t.TempDir()
	reg, err := NewRegistry(Kind{Name: "boom", Run: func(context.Context, *Env) error { panic("kaboom") }})
	if err != nil {
		t.Fatal(err)
	}
	path := writePipeline(t, dir, "name: p\nstages:\n  s:\n    kind: boom\n")
	p, err := Load(path, reg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&Runner{}).Run(context.Background(), p, RunOptions{})
	if err == nil || !strings.Contains(err.Error(), "kaboom") || res[0].Status != StatusFailed {
		t.Errorf("err %v, results %+v", err, res)
	}
}

func TestStageWithoutManifestFails(t *testing.T) {
	dir := t.TempDir()
	reg, err := NewRegistry(Kind{Name: "lazy", Run: func(context.Context, *Env) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	path := writePipeline(t, dir, "name: p\nstages:\n  s:\n    kind: lazy\n")
	p, err := Load(path, reg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (&Runner{}).Run(context.Background(), p, RunOptions{}); err == nil || !strings.Contains(err.Error(), "without a valid output dataset") {
		t.Errorf("err %v", err)
	}
}
