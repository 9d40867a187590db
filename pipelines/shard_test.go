package pipelines

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"lifezero/datasets"
)

// shardWorld is a shardable kind "count": it writes the lines "STAGE n" for
// n in [0, rows); shard i of n writes the lines with n%shards == i, and the
// merge interleaves them back, so a sharded run must equal an unsharded one
// line for line.
type shardWorld struct {
	mu     sync.Mutex
	runs   map[string]int // "stage/i-of-n" or "stage" -> runs
	merges int
	failAt string // a unit that fails once
}

type countParams struct {
	Rows  int `yaml:"rows"`
	Shard int `yaml:"-" json:"-"`
	Of    int `yaml:"-" json:"-"`
}

func (w *shardWorld) registry(t *testing.T) *Registry {
	t.Helper()
	count := Kind{
		Name: "count", Version: 1, Params: countParams{Rows: 7},
		Run: func(ctx context.Context, env *Env) error {
			p, err := ParamsAs[countParams](env)
			if err != nil {
				return err
			}
			unit := env.Stage
			if p.Of > 1 {
				unit = fmt.Sprintf("%s/%d-of-%d", env.Stage, p.Shard, p.Of)
			}
			w.mu.Lock()
			w.runs[unit]++
			fail := w.failAt == unit
			if fail {
				w.failAt = ""
			}
			w.mu.Unlock()
			if fail {
				return errors.New("asked to fail")
			}
			var b strings.Builder
			for n := 0; n < p.Rows; n++ {
				if p.Of <= 1 || n%p.Of == p.Shard {
					fmt.Fprintf(&b, "%s %d\n", env.Stage, n)
				}
			}
			return writeLines(env, b.String())
		},
		Shard: &Sharding{
			Params: func(params any, i, n int) (any, error) {
				p := params.(countParams)
				p.Shard, p.Of = i, n
				return p, nil
			},
			Merge: func(ctx context.Context, env *Env, shards []string) error {
				w.mu.Lock()
				w.merges++
				w.mu.Unlock()
				parts := make([][]string, len(shards))
				for i, dir := range shards {
					data, err := os.ReadFile(filepath.Join(dir, "data.txt"))
					if err != nil {
						return err
					}
					parts[i] = strings.SplitAfter(string(data), "\n")
					parts[i] = parts[i][:len(parts[i])-1]
				}
				var b strings.Builder
				for k := 0; ; k++ {
					i := k % len(parts)
					if k/len(parts) >= len(parts[i]) {
						break
					}
					b.WriteString(parts[i][k/len(parts)])
				}
				return writeLines(env, b.String())
			},
		},
	}
	plain := Kind{Name: "plain", Params: countParams{Rows: 7}, Run: count.Run}
	reg, err := NewRegistry(count, plain)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func writeLines(env *Env, s string) error {
	if err := os.WriteFile(filepath.Join(env.OutDir, "data.txt"), []byte(s), 0o644); err != nil {
		return err
	}
	fe, err := env.FileEntry("data.txt", int64(strings.Count(s, "\n")))
	if err != nil {
		return err
	}
	return env.WriteManifest(&datasets.Manifest{Kind: "lines", SchemaVersion: 1, Files: []datasets.FileEntry{fe}})
}

func shardPipeline(shards int) string {
	return fmt.Sprintf("name: sh\nstages:\n  c:\n    kind: count\n    shards: %d\n    params: {rows: 10}\n", shards)
}

func TestShardsMergeToTheUnshardedOutput(t *testing.T) {
	for _, shards := range []int{1, 2, 3, 4} {
		t.Run(fmt.Sprint(shards), func(t *testing.T) {
			dir := t.TempDir()
			w := &shardWorld{runs: map[string]int{}}
			p, err := Load(writePipeline(t, dir, shardPipeline(shards)), w.registry(t))
			if err != nil {
				t.Fatal(err)
			}
			res, err := (&Runner{}).Run(context.Background(), p, RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if res[0].Status != StatusRan || res[0].Rows != 10 {
				t.Fatalf("result %+v, want ran with 10 rows", res[0])
			}
			data, err := os.ReadFile(filepath.Join(p.OutDir("c"), "data.txt"))
			if err != nil {
				t.Fatal(err)
			}
			var want strings.Builder
			for n := range 10 {
				fmt.Fprintf(&want, "c %d\n", n)
			}
			if string(data) != want.String() {
				t.Errorf("merged output\n%s\nwant\n%s", data, want.String())
			}
			if _, err := os.Stat(filepath.Join(p.Workdir, ShardsDir, "c")); !os.IsNotExist(err) {
				t.Errorf("shard datasets left after the merge: %v", err)
			}
			res, err = (&Runner{}).Run(context.Background(), p, RunOptions{})
			if err != nil || res[0].Status != StatusCached {
				t.Errorf("second run: %+v, %v; want cached", res, err)
			}
		})
	}
}

func TestShardsChangeTheHashAndResume(t *testing.T) {
	dir := t.TempDir()
	w := &shardWorld{runs: map[string]int{}, failAt: "c/2-of-3"}
	reg := w.registry(t)
	p, err := Load(writePipeline(t, dir, shardPipeline(3)), reg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (&Runner{}).Run(context.Background(), p, RunOptions{}); err == nil || !strings.Contains(err.Error(), "shard 3 of 3") {
		t.Fatalf("run with a failing shard: %v, want an error naming shard 3 of 3", err)
	}
	if _, err := (&Runner{}).Run(context.Background(), p, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	for unit, want := range map[string]int{"c/0-of-3": 1, "c/1-of-3": 1, "c/2-of-3": 2} {
		if got := w.runs[unit]; got != want {
			t.Errorf("%s ran %d times, want %d (the rerun resumes at the failed shard)", unit, got, want)
		}
	}
	// Another shard count is another config: the stage reruns.
	p2, err := Load(writePipeline(t, dir, shardPipeline(2)), reg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&Runner{}).Run(context.Background(), p2, RunOptions{})
	if err != nil || res[0].Status != StatusRan {
		t.Errorf("2 shards after 3: %+v, %v; want ran", res, err)
	}
}

// TestDistributedUnits runs a sharded stage as a distributed runner does:
// the shards as separate units in any order, then the stage, which only
// merges.
func TestDistributedUnits(t *testing.T) {
	dir := t.TempDir()
	w := &shardWorld{runs: map[string]int{}}
	yml := shardPipeline(3) + "  d:\n    kind: plain\n    inputs: [stage:c]\n"
	p, err := Load(writePipeline(t, dir, yml), w.registry(t))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := p.Schedule(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan) != 2 || plan[0].Shards != 3 || plan[1].Shards != 1 || len(plan[1].Deps) != 1 || plan[1].Deps[0] != "c" {
		t.Fatalf("plan %+v", plan)
	}
	ctx := context.Background()
	r := &Runner{}
	if _, err := r.RunStage(ctx, p, "d", false); err == nil || !strings.Contains(err.Error(), `input stage "c" has no finished output`) {
		t.Errorf("d before c: %v, want an error naming the missing input", err)
	}
	for _, i := range []int{2, 0, 1, 0} {
		if _, err := r.RunShard(ctx, p, "c", i, false); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.RunShard(ctx, p, "c", 3, false); err == nil {
		t.Error("shard 4 of 3 ran")
	}
	if cached, _, err := r.StageCached(ctx, p, "c"); err != nil || cached {
		t.Errorf("c cached before its merge: %v %v", cached, err)
	}
	if _, err := r.RunStage(ctx, p, "c", false); err != nil {
		t.Fatal(err)
	}
	if w.runs["c/0-of-3"] != 1 || w.merges != 1 {
		t.Errorf("runs %v, merges %d: want each shard once (the repeat cached) and one merge", w.runs, w.merges)
	}
	if cached, res, err := r.StageCached(ctx, p, "c"); err != nil || !cached || res.Rows != 10 {
		t.Errorf("c after its merge: cached %v, %+v, %v", cached, res, err)
	}
	if _, err := r.RunStage(ctx, p, "d", false); err != nil {
		t.Fatal(err)
	}
	// The same stages run locally are cached.
	results, err := r.Run(ctx, p, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkStatuses(t, statuses(results), map[string]Status{"c": StatusCached, "d": StatusCached})
}

func TestShardsKeyErrors(t *testing.T) {
	for _, tc := range []struct{ yml, want string }{
		{"name: x\nstages:\n  a:\n    kind: plain\n    shards: 2\n", `pipeline.yaml:5: stage "a": shards: kind plain cannot be split`},
		{"name: x\nstages:\n  a:\n    kind: count\n    shards: 0\n", `pipeline.yaml:5: stage "a": shards must be a whole number from 1 to 4096, got "0"`},
		{"name: x\nstages:\n  a:\n    kind: count\n    shards: two\n", `pipeline.yaml:5: stage "a": shards must be a whole number`},
	} {
		w := &shardWorld{runs: map[string]int{}}
		_, err := Load(writePipeline(t, t.TempDir(), tc.yml), w.registry(t))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want it to contain %q", tc.yml, err, tc.want)
		}
	}
}

// TestRunStageWaitsForTheUnitLock: a unit whose lock is held (a worker
// still cancelling a given-up attempt) waits for it, or for its context.
func TestRunStageWaitsForTheUnitLock(t *testing.T) {
	dir := t.TempDir()
	w := &shardWorld{runs: map[string]int{}}
	p, err := Load(writePipeline(t, dir, "name: l\nstages:\n  c: {kind: count}\n"), w.registry(t))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	held, err := p.LockStage(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if _, err := (&Runner{}).RunStage(cctx, p, "c", false); !errors.Is(err, context.DeadlineExceeded) || w.runs["c"] != 0 {
		t.Errorf("with the lock held and a short context: %v, %d runs; want the context's error and no run", err, w.runs["c"])
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		held.Release()
	}()
	if _, err := (&Runner{}).RunStage(ctx, p, "c", false); err != nil || w.runs["c"] != 1 {
		t.Errorf("after the holder let go: %v, %d runs; want one run", err, w.runs["c"])
	}
}
