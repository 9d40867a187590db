package pipelines

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lifezero/internal/dirlock"
)

// sourceFolder fills dir with files that are no dataset, as a copy of
// ../shared/data/problems would be.
func sourceFolder(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"01.json", "02.json"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(`{"id": "`+name+`"}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func checkSourceFolder(t *testing.T, dir string) {
	t.Helper()
	for _, name := range []string{"01.json", "02.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("source data lost: %v", err)
		}
	}
}

// TestForceKeepsForeignFolder: "run --workdir DIR --force STAGE" where
// DIR/STAGE is a folder of source data (no manifest) refuses, naming the
// folder, instead of deleting it.
func TestForceKeepsForeignFolder(t *testing.T) {
	dir := t.TempDir()
	path := writePipeline(t, dir, chainPipeline)
	p := load(t, newWorld(), path)
	p.Workdir = filepath.Join(dir, "problems") // --workdir a data folder
	data := filepath.Join(p.Workdir, "a")
	sourceFolder(t, data)
	for _, opts := range []RunOptions{{Only: []string{"a"}, Force: []string{"a"}}, {Only: []string{"a"}}} {
		res, err := (&Runner{}).Run(context.Background(), p, opts)
		if err == nil || !strings.Contains(err.Error(), "stage output folder "+data+` holds "01.json"`) ||
			!strings.Contains(err.Error(), "refusing to delete or write into it") {
			t.Errorf("%+v: error %v, want a refusal naming %s", opts, err, data)
		}
		if len(res) != 1 || res[0].Status != StatusFailed {
			t.Errorf("%+v: results %+v", opts, res)
		}
		checkSourceFolder(t, data)
	}
}

// TestStaleMarkerKeepsForeignFolder: a leftover _state/<stage>.json with
// another hash (written before the runner recorded which directories it
// made) does not make a folder of source data the runner's to delete.
func TestStaleMarkerKeepsForeignFolder(t *testing.T) {
	dir := t.TempDir()
	path := writePipeline(t, dir, chainPipeline)
	p := load(t, newWorld(), path)
	data := filepath.Join(p.Workdir, "a")
	sourceFolder(t, data)
	state := filepath.Join(p.Workdir, StateDir)
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	legacy := `{"stage": "a", "kind": "emit", "input_hash": "other", "started": "2026-01-01T00:00:00Z"}`
	if err := os.WriteFile(filepath.Join(state, "a.json"), []byte(legacy), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := (&Runner{}).Run(context.Background(), p, RunOptions{Only: []string{"a"}})
	if err == nil || !strings.Contains(err.Error(), data) {
		t.Errorf("error %v, want a refusal naming %s", err, data)
	}
	checkSourceFolder(t, data)
}

// TestStageNamedLikeItsInput: with "workdir: ." a stage named like its
// input folder would write over that folder; it is refused, forced or not.
func TestStageNamedLikeItsInput(t *testing.T) {
	dir := t.TempDir()
	path := writePipeline(t, dir, "name: p\nworkdir: .\nstages:\n  problems:\n    kind: emit\n    inputs: [problems]\n")
	sourceFolder(t, filepath.Join(dir, "problems"))
	w := newWorld()
	for _, force := range [][]string{nil, {"problems"}} {
		_, err := (&Runner{}).Run(context.Background(), load(t, w, path), RunOptions{Force: force})
		if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "problems")) {
			t.Errorf("force %v: error %v", force, err)
		}
		checkSourceFolder(t, filepath.Join(dir, "problems"))
	}
	if w.count("problems") != 0 {
		t.Errorf("the stage ran %d times in a folder that is not its own", w.count("problems"))
	}
}

// TestOwnedFoldersAreCleared: the folders that are lifezero's are still
// cleared: an empty one, one with only temp files of a killed write, a
// dataset (forced), and partial work the runner made.
func TestOwnedFoldersAreCleared(t *testing.T) {
	dir := t.TempDir()
	path := writePipeline(t, dir, chainPipeline)
	w := newWorld()
	p := load(t, w, path)
	a := filepath.Join(p.Workdir, "a")
	if err := os.MkdirAll(a, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(a, ".part-00000.arrow.tmp-123"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkStatuses(t, run(t, p, RunOptions{Only: []string{"a"}, Force: []string{"a"}}), map[string]Status{"a": StatusRan})
	if _, err := os.Stat(filepath.Join(a, ".part-00000.arrow.tmp-123")); !os.IsNotExist(err) {
		t.Errorf("temp file kept under --force: %v", err)
	}
	// A dataset with a file a user dropped in: the manifest makes it ours.
	if err := os.WriteFile(filepath.Join(a, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkStatuses(t, run(t, load(t, w, path), RunOptions{Only: []string{"a"}, Force: []string{"a"}}), map[string]Status{"a": StatusRan})
	if w.count("a") != 2 {
		t.Errorf("a ran %d times, want 2", w.count("a"))
	}
}

// TestReadOnlyOutDirFailsEarly: a stage whose output folder cannot be
// written fails before it runs, naming the folder.
func TestReadOnlyOutDirFailsEarly(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into read-only folders")
	}
	dir := t.TempDir()
	path := writePipeline(t, dir, chainPipeline)
	w := newWorld()
	p := load(t, w, path)
	a := filepath.Join(p.Workdir, "a")
	if err := os.MkdirAll(a, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(a, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(a, 0o755)
	_, err := (&Runner{}).Run(context.Background(), p, RunOptions{Only: []string{"a"}})
	if err == nil || !strings.Contains(err.Error(), "stage output folder "+a+" is not writable") {
		t.Errorf("error %v", err)
	}
	if w.count("a") != 0 {
		t.Error("the stage ran")
	}
}

// TestSecondRunRefused: while one process runs a pipeline, a second run on
// the same workdir is refused, naming the first one's pid; once the first
// is killed (-9), nothing stale is left and a run goes through.
func TestSecondRunRefused(t *testing.T) {
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
	defer cmd.Process.Kill()
	partial := filepath.Join(dir, "runs", "chain", "b", "partial.txt")
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		// Wait for the content, not the file: os.WriteFile creates it
		// empty before it writes.
		if b, _ := os.ReadFile(partial); string(b) == "attempt\n" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("helper never reached stage b")
		}
	}
	w := newWorld()
	res, err := (&Runner{}).Run(context.Background(), load(t, w, path), RunOptions{Force: []string{"b"}})
	want := fmt.Sprintf("work directory %s is in use by another lifezero process (pid %d", filepath.Join(dir, "runs", "chain"), cmd.Process.Pid)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("second run: error %v, want %q", err, want)
	}
	if len(res) != 0 || w.count("b") != 0 {
		t.Errorf("the second run ran stages: %+v", res)
	}
	if b, _ := os.ReadFile(partial); string(b) != "attempt\n" {
		t.Errorf("partial.txt = %q: the second run touched the first one's work", b)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	checkStatuses(t, run(t, load(t, w, path), RunOptions{}), map[string]Status{"b": StatusRan, "c": StatusRan})
	if _, err := os.Stat(filepath.Join(dir, "runs", "chain", dirlock.FileName)); err != nil {
		t.Errorf("lock file: %v", err)
	}
}
