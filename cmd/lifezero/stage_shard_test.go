package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"lifezero/datasets"
	"lifezero/evaluate"
	"lifezero/selfplay"
	"lifezero/sgf"
)

// TestSolveShards: a solve stage split in shards gives the rows of the
// unsplit stage (problems are solved one by one), in the same order; only
// the seconds may differ.
func TestSolveShards(t *testing.T) {
	abs, err := filepath.Abs("../../samples/problems")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var rows [][]evaluate.SolveRow
	for _, shards := range []int{1, 2, 3} {
		file := filepath.Join(dir, fmt.Sprintf("s%d.yaml", shards))
		yml := fmt.Sprintf("name: s%d\nstages:\n  solve:\n    kind: solve\n    shards: %d\n    inputs: [%s/killall7x7, %s/cho19-dev/001.json]\n    params: {budget: 1500}\n",
			shards, shards, abs, abs)
		if err := os.WriteFile(file, []byte(yml), 0o644); err != nil {
			t.Fatal(err)
		}
		work := filepath.Join(dir, fmt.Sprint(shards))
		if code, out, errs := lifezero(t, "run", file, "--workdir", work); code != 0 {
			t.Fatalf("%d shards: exit %d\n%s\n%s", shards, code, out, errs)
		}
		r, _, err := evaluate.ReadSolveResults(context.Background(), filepath.Join(work, "solve"))
		if err != nil {
			t.Fatal(err)
		}
		for i := range r {
			r[i].Seconds = 0
		}
		rows = append(rows, r)
	}
	if len(rows[0]) != 4 {
		t.Fatalf("unsplit: %d rows, want 4 (3 kill-all problems and one 19x19)", len(rows[0]))
	}
	for s := 1; s < len(rows); s++ {
		if fmt.Sprintf("%+v", rows[s]) != fmt.Sprintf("%+v", rows[0]) {
			t.Errorf("%d shards:\n%+v\nunsplit:\n%+v", s+1, rows[s], rows[0])
		}
	}
}

// TestSelfplayShards: a self-play stage in shards plays all its games once,
// each shard its own, and merges them into one dataset whose summary counts
// every game; the same file run again gives the same bytes.
func TestSelfplayShards(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "pipeline.yaml")
	yml := "name: sp\nstages:\n  sp:\n    kind: selfplay\n    shards: 3\n    params: {games: 7, simulations: 8, games_per_file: 2, workers: 1}\n"
	if err := os.WriteFile(file, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	var ms []*datasets.Manifest
	for _, w := range []string{"a", "b"} {
		work := filepath.Join(dir, w)
		if code, out, errs := lifezero(t, "run", file, "--workdir", work); code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, out, errs)
		}
		m, err := datasets.Verify(filepath.Join(work, "sp"))
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	m := ms[0]
	if m.Meta["games"] != "7" || len(m.Files) != 4 { // shards of 3, 2, 2 games at 2 per file: 2+1+1 files
		t.Errorf("merged: %s games in %d files, want 7 in 4", m.Meta["games"], len(m.Files))
	}
	s, _, err := selfplay.ReadSamples(context.Background(), filepath.Join(dir, "a", "sp"))
	if err != nil {
		t.Fatal(err)
	}
	if int64(s.N) != m.Rows || m.Rows == 0 {
		t.Errorf("samples read %d, manifest rows %d", s.N, m.Rows)
	}
	games, err := os.ReadFile(filepath.Join(dir, "a", "sp", selfplay.GamesFileName))
	if err != nil {
		t.Fatal(err)
	}
	coll, err := sgf.ParseString(string(games))
	if err != nil || len(coll) != 7 {
		t.Errorf("%s holds %d games (%v), want 7", selfplay.GamesFileName, len(coll), err)
	}
	for i := range m.Files {
		if m.Files[i].SHA256 != ms[1].Files[i].SHA256 {
			t.Errorf("file %s differs between two runs", m.Files[i].Name)
		}
	}
}
