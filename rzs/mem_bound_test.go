package rzs

import (
	"context"
	"strings"
	"testing"

	"lifezero/game"
	"lifezero/internal/testdata"
)

func sharedProblem(t *testing.T, set, id string) *game.Problem {
	t.Helper()
	pr, err := game.LoadProblem(testdata.Path(t, "problems", set, id+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

// TestMemoryBoundStops: a 19x19 problem that would need far more than the
// bound stops unproven with the reason, holding no more than the bound
// plus 10% by its own count (the command's peak resident size is checked
// in docs/results/rzs.md).
func TestMemoryBoundStops(t *testing.T) {
	pr := sharedProblem(t, "cho19-dev", "003")
	const bound = 24 << 20
	res := Solve(context.Background(), pr, Options{Budget: 1_000_000, MaxMemory: bound, MemorySolverOnly: true})
	if res.Status != Unknown || !res.Aborted || res.Reason != "memory bound 24MiB reached" {
		t.Fatalf("got %v aborted=%v reason %q after %d nodes, want unknown stopped by the bound", res.Status, res.Aborted, res.Reason, res.Nodes)
	}
	if res.Nodes >= 1_000_000 || res.Nodes < 20_000 {
		t.Errorf("stopped after %d nodes: the bound should stop it well within the budget and not at once", res.Nodes)
	}
	if res.MemoryBytes > bound*11/10 {
		t.Errorf("solver held %d bytes, over the bound %d + 10%%", res.MemoryBytes, bound)
	}
	t.Logf("stopped after %d nodes holding %d bytes (%d per node): %s", res.Nodes, res.MemoryBytes, res.MemoryBytes/int64(res.Nodes), res.Reason)
}

// TestMemoryBoundWithRuntime: by default the Go runtime's memory counts
// towards the bound as well; the two together stay within it plus 10%.
func TestMemoryBoundWithRuntime(t *testing.T) {
	pr := sharedProblem(t, "cho19-dev", "003")
	const bound = 48 << 20
	res := Solve(context.Background(), pr, Options{Budget: 1_000_000, MaxMemory: bound})
	total := res.MemoryBytes + goRuntimeBytes()
	if res.Status != Unknown || res.Reason != "memory bound 48MiB reached" {
		t.Fatalf("got %v reason %q after %d nodes, want unknown stopped by the bound", res.Status, res.Reason, res.Nodes)
	}
	if total > bound*11/10 {
		t.Errorf("solver %d + Go runtime %d bytes: over the bound %d + 10%%", res.MemoryBytes, total-res.MemoryBytes, bound)
	}
	t.Logf("stopped after %d nodes: solver %d + Go runtime %d bytes", res.Nodes, res.MemoryBytes, total-res.MemoryBytes)
}

// TestMemoryBoundReclaims: a bound that the search reaches several times
// makes it reclaim proven subtrees and the table; the proof it still
// finds is the right one, and a bound it never reaches changes nothing.
func TestMemoryBoundReclaims(t *testing.T) {
	pr := sharedProblem(t, "killall7x7", "01")
	free := Solve(context.Background(), pr, Options{Budget: 100_000})
	if free.Status != Win {
		t.Fatalf("unbounded solve: %v, want win", free.Status)
	}
	roomy := Solve(context.Background(), pr, Options{Budget: 100_000, MaxMemory: 1 << 30})
	if roomy.Status != free.Status || roomy.Nodes != free.Nodes || roomy.FirstMove != free.FirstMove || roomy.Reason != "" {
		t.Fatalf("a bound never reached changed the search: %v %d %v %q, want %v %d %v", roomy.Status, roomy.Nodes, roomy.FirstMove, roomy.Reason, free.Status, free.Nodes, free.FirstMove)
	}
	opts := Options{Budget: 100_000, MaxMemory: 5 << 20, MemorySolverOnly: true}
	opts.defaults(pr)
	s := newMCTSSolver(pr, opts)
	res := s.run(context.Background())
	if s.mem.reclaims == 0 {
		t.Fatalf("no reclaim under a %d-byte bound (held %d)", opts.MaxMemory, res.MemoryBytes)
	}
	switch {
	case res.Status == Win:
		if res.FirstMove != free.FirstMove {
			t.Logf("proven with another first move %v (unbounded: %v)", res.FirstMove, free.FirstMove)
		}
		replay := pr.StartPosition()
		if err := replay.Play(res.FirstMove); err != nil {
			t.Fatalf("first move %v illegal: %v", res.FirstMove, err)
		}
	case res.Status == Loss:
		t.Fatalf("bounded solve proved a loss; the living side wins")
	case !strings.HasPrefix(res.Reason, "memory bound"):
		t.Fatalf("unknown without the bound's reason: %q", res.Reason)
	}
	if res.MemoryBytes > opts.MaxMemory*11/10 {
		t.Errorf("held %d bytes, over the bound %d + 10%%", res.MemoryBytes, opts.MaxMemory)
	}
	t.Logf("%v after %d nodes (unbounded %d), %d reclaims freed %d bytes; held %d", res.Status, res.Nodes, free.Nodes, s.mem.reclaims, s.mem.reclaimed, res.MemoryBytes)
}

func TestParseMemorySize(t *testing.T) {
	for in, want := range map[string]int64{"500MB": 500e6, "4GiB": 4 << 30, "2G": 2 << 30, "1.5GiB": 3 << 29, "64MiB": 64 << 20, "1048576": 1 << 20} {
		got, err := ParseMemorySize(in)
		if err != nil || got != want {
			t.Errorf("ParseMemorySize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "abc", "-1GB", "10KB", "0"} {
		if _, err := ParseMemorySize(in); err == nil {
			t.Errorf("ParseMemorySize(%q): no error", in)
		}
	}
	if s := FormatMemorySize(500e6); s != "500MB" {
		t.Errorf("FormatMemorySize(500e6) = %q", s)
	}
}
