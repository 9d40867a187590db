package movecands

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"lifezero/datasets"
	"lifezero/featmodel"
	"lifezero/features"
)

func TestDataScanAndLoad(t *testing.T) {
	dir := writeGamesDataset(t, syntheticGames(t, 5))
	out := filepath.Join(t.TempDir(), "cands")
	if _, err := Build(context.Background(), []string{dir}, out, Options{Features: defaultExtractor(t), PositionsPerGame: 4, RowsPerFile: 6}); err != nil {
		t.Fatal(err)
	}
	rows, _ := readRows(t, out)
	d, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	if d.Positions() != int64(len(rows)) || d.Positions() != 20 {
		t.Fatalf("%d positions, %d rows", d.Positions(), len(rows))
	}
	var scanned []featmodel.Sample
	if err := d.Scan(context.Background(), func(s *featmodel.Sample) error { scanned = append(scanned, *s); return nil }); err != nil {
		t.Fatal(err)
	}
	loaded, err := d.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(scanned, []featmodel.Sample(loaded)) || len(loaded) != len(rows) {
		t.Fatal("Scan and Load disagree")
	}
	for i, s := range loaded {
		r := rows[i]
		if s.Played != int(r.Played) || s.MoveNumber != int(r.MoveNumber) || len(s.Candidates) != len(r.Features) {
			t.Fatalf("sample %d: played %d move %d, %d candidates; row %+v", i, s.Played, s.MoveNumber, len(s.Candidates), r)
		}
		for c := range s.Candidates {
			if !reflect.DeepEqual([]int32(s.Candidates[c]), r.Features[c]) {
				t.Fatalf("sample %d candidate %d: %v, row %v", i, c, s.Candidates[c], r.Features[c])
			}
		}
		if _, err := s.Validate(d.NumFeatures()); err != nil {
			t.Fatalf("sample %d: %v", i, err)
		}
	}
	// Scanning twice gives the same samples (trainers scan every epoch).
	n := 0
	if err := d.Scan(context.Background(), func(s *featmodel.Sample) error {
		if !reflect.DeepEqual(*s, loaded[n]) {
			t.Fatalf("second scan, sample %d differs", n)
		}
		n++
		return nil
	}); err != nil || n != len(loaded) {
		t.Fatalf("second scan: %v after %d samples", err, n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := d.Scan(ctx, func(*featmodel.Sample) error { return nil }); err == nil {
		t.Error("a cancelled scan returned no error")
	}
}

func TestOpenChecksFeatureSets(t *testing.T) {
	dir := writeGamesDataset(t, syntheticGames(t, 3))
	noLibs, err := features.New(features.Config{})
	if err != nil {
		t.Fatal(err)
	}
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	for _, c := range []struct {
		out string
		e   *features.Extractor
	}{{a, defaultExtractor(t)}, {b, noLibs}} {
		if _, err := Build(context.Background(), []string{dir}, c.out, Options{Features: c.e, PositionsPerGame: 1}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Open(a, b); err == nil || !strings.Contains(err.Error(), "different feature sets") {
		t.Errorf("datasets of two feature sets: %v", err)
	}
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), `"games" dataset`) {
		t.Errorf("a games dataset: %v", err)
	}
	if _, err := Open(); err == nil {
		t.Error("no datasets: no error")
	}
}

// ScanShuffled visits the positions of every file of every dataset once,
// whole files at a time in an order drawn from rng: the same seed gives the
// same order, and the order differs from Scan's.
func TestDataScanShuffled(t *testing.T) {
	ctx := context.Background()
	games := writeGamesDataset(t, syntheticGames(t, 5))
	var dirs []string
	for seed := range uint64(2) {
		out := filepath.Join(t.TempDir(), "cands")
		opt := Options{Features: defaultExtractor(t), PositionsPerGame: 4, RowsPerFile: 3, Seed: seed}
		if _, err := Build(ctx, []string{games}, out, opt); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, out)
	}
	d, err := Open(dirs...)
	if err != nil {
		t.Fatal(err)
	}
	// The files in Scan's order, each as its samples' keys.
	var files [][]string
	for i, m := range d.Manifests() {
		for j := range m.Files {
			var keys []string
			err := datasets.ForEachMoveCandsFile(ctx, dirs[i], m, j, func(r *datasets.MoveCands) error {
				keys = append(keys, sampleKey(SampleOf(r)))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, keys)
		}
	}
	if len(files) != 14 {
		t.Fatalf("%d files, want 14 (2 datasets of 20 positions, 3 per file)", len(files))
	}
	var scanned []string
	if err := d.Scan(ctx, func(s *featmodel.Sample) error { scanned = append(scanned, sampleKey(*s)); return nil }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(scanned, slices.Concat(files...)) {
		t.Fatal("Scan does not visit the files in order")
	}
	shuffled := func(seed uint64) []string {
		var keys []string
		err := d.ScanShuffled(ctx, rand.New(rand.NewPCG(seed, 0)), func(s *featmodel.Sample) error {
			keys = append(keys, sampleKey(*s))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return keys
	}
	first := shuffled(1)
	if !reflect.DeepEqual(first, shuffled(1)) {
		t.Error("the same seed gave two orders")
	}
	if reflect.DeepEqual(first, scanned) {
		t.Error("ScanShuffled visited the files in Scan's order")
	}
	// first must be the files, whole, each once.
	rest, used := first, make([]bool, len(files))
	for len(rest) > 0 {
		found := false
		for i, f := range files {
			if !used[i] && len(rest) >= len(f) && slices.Equal(rest[:len(f)], f) {
				used[i], rest, found = true, rest[len(f):], true
				break
			}
		}
		if !found {
			t.Fatalf("ScanShuffled: %d samples left that do not start an unvisited file", len(rest))
		}
	}
	if slices.Contains(used, false) {
		t.Error("ScanShuffled skipped a file")
	}
}

// sampleKey identifies a sample by its move number, played index and
// candidates' features.
func sampleKey(s featmodel.Sample) string { return fmt.Sprint(s.MoveNumber, s.Played, s.Candidates) }
