package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lifezero/datasets"
)

// TestPatternsBuild builds a small pattern database from random kill-all
// positions, checks that a second run resumes (searches nothing saved
// before) and that lz solve preloads the database into a problem of the
// same rules, and refuses bad flags.
func TestPatternsBuild(t *testing.T) {
	out := filepath.Join(t.TempDir(), "db")
	measured := "../../samples/problems/killall7x7"
	args := []string{"patterns", "build", "--killall", "6", "--seed", "4", "--budget", "300", "--exclude", measured, "--out", out}
	code, stdout, stderr := lifezero(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "patterns: 6 random kill-all positions (seed 4)") || !strings.Contains(stdout, "saved ") {
		t.Errorf("output lacks the summary:\n%s", stdout)
	}
	saved, err := filepath.Glob(filepath.Join(out, "killall-4-*", datasets.ManifestName))
	if err != nil || len(saved) == 0 {
		t.Fatalf("no pattern tables saved in %s (%v)", out, err)
	}
	code, stdout, stderr = lifezero(t, args...)
	if code != 0 || !strings.Contains(stdout, "0 to search") {
		t.Errorf("rerun: exit %d, want nothing left to search:\n%s%s", code, stdout, stderr)
	}
	// A directory of links to databases saved elsewhere loads them too.
	links := t.TempDir()
	for _, m := range saved {
		table := filepath.Dir(m)
		if err := os.Symlink(table, filepath.Join(links, filepath.Base(table))); err != nil {
			t.Fatal(err)
		}
	}
	var preloaded [2]int
	for i, dir := range []string{out, links} {
		code, stdout, stderr = lifezero(t, "solve", "--json", "--budget", "50", "--rzt-load", dir, measured+"/01.json")
		if code != 0 {
			t.Fatalf("solve --rzt-load %s: exit %d: %s", dir, code, stderr)
		}
		var row struct {
			RZT struct{ Preloaded int } `json:"rzt"`
		}
		if err := json.Unmarshal([]byte(strings.SplitN(stdout, "\n", 2)[0]), &row); err != nil || row.RZT.Preloaded == 0 {
			t.Errorf("solve --rzt-load %s preloaded %d patterns (%v):\n%s", dir, row.RZT.Preloaded, err, stdout)
		}
		preloaded[i] = row.RZT.Preloaded
	}
	if preloaded[0] != preloaded[1] {
		t.Errorf("preloaded %d patterns from the databases, %d through links to them", preloaded[0], preloaded[1])
	}
	// Other moves are other positions, under their own names: the same
	// seed and directory resume nothing of the first build.
	code, stdout, stderr = lifezero(t, append(args, "--moves", "6-8")...)
	if code != 0 || !strings.Contains(stdout, "0 saved before") {
		t.Errorf("--moves 6-8: exit %d, want a build of its own:\n%s%s", code, stdout, stderr)
	}
	if short, _ := filepath.Glob(filepath.Join(out, "killall-4-m6-8-*", datasets.ManifestName)); len(short) == 0 {
		t.Errorf("--moves 6-8 saved no table under killall-4-m6-8-*")
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"patterns", "build", "--killall", "3"}, "--out DIR is required"},
		{[]string{"patterns", "build", "--out", out}, "--killall N"},
		{[]string{"patterns", "build", "--killall", "3", "--out", out, "--rzt", "none"}, "--rzt none"},
		{[]string{"patterns", "build", "--killall", "3", "--out", out, "--algo", "dfs"}, "--algo dfs"},
		{[]string{"patterns"}, "want a subcommand"},
		{[]string{"patterns", "build", "--killall", "3", "--out", out, "--moves", "9-3"}, "want 1 <= MIN <= MAX"},
		{[]string{"patterns", "build", "--killall", "3", "--out", out, "--moves", "9"}, "want MIN-MAX"},
	} {
		if code, _, stderr := lifezero(t, c.args...); code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}
