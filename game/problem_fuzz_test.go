package game

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoadProblem feeds problem loading (JSON, or with asSGF an SGF problem
// file) arbitrary bytes, seeded from the real problem files: no input may
// panic, and whatever loads must be a problem the solver can work on.
func FuzzLoadProblem(f *testing.F) {
	var paths []string
	for _, dir := range []string{filepath.Join("..", "samples", "problems"), filepath.Join("..", "..", "shared", "data", "problems")} {
		p, _ := filepath.Glob(filepath.Join(dir, "*", "*.json"))
		s, _ := filepath.Glob(filepath.Join(dir, "*", "*.sgf"))
		paths = append(append(paths, p...), s...)
	}
	if len(paths) == 0 {
		f.Fatal("no problem files under ../samples/problems to seed the fuzzer")
	}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, filepath.Ext(path) == ".sgf")
	}
	f.Add([]byte(`{"id":"x","sgf":"(;SZ[7];B[dc])","goal":{"B":"kill_all","W":"live_any"},"ftl_d":"9"}`), false)
	f.Fuzz(func(t *testing.T, data []byte, asSGF bool) {
		var pr *Problem
		var err error
		if asSGF {
			pr, err = problemFromSGF(string(data), true)
		} else {
			pr, err = problemFromJSON(data)
		}
		if err != nil {
			return
		}
		living := pr.Living()
		if !pr.Goal[living].Living() || pr.Goal[living.Opponent()].Living() {
			t.Fatalf("goals %v: want exactly one living side", pr.Goal)
		}
		size := pr.Start.Size()
		if pr.FTLD < 0 || pr.FTLD > 2*size*size {
			t.Fatalf("ftl_d %d out of range on %dx%d", pr.FTLD, size, size)
		}
		empty := false
		pr.Region.ForEach(func(p Point) { empty = empty || pr.Start.At(p) == Empty })
		if !empty {
			t.Fatal("region without an empty point")
		}
		pr.Crucial.ForEach(func(p Point) {
			if pr.Start.At(p) != living {
				t.Fatalf("crucial stone %s is not %v", pr.Start.PointString(p), living)
			}
		})
		_ = pr.Render()
		_ = pr.StartPosition().LegalMoves(nil, &pr.Region)
	})
}
