package rzs

import (
	"context"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"testing"

	"lifezero/game"
)

// TestMemProfile writes a heap profile of a solve while the solver is still
// alive: LZ_MEMPROFILE=FILE LZ_MEMPROBLEM=problem.json LZ_MEMBUDGET=N go test
// -run TestMemProfile ./rzs/. Without LZ_MEMPROFILE it is skipped.
func TestMemProfile(t *testing.T) {
	out := os.Getenv("LZ_MEMPROFILE")
	if out == "" {
		t.Skip("set LZ_MEMPROFILE, LZ_MEMPROBLEM and LZ_MEMBUDGET to profile a solve")
	}
	pr, err := game.LoadProblem(os.Getenv("LZ_MEMPROBLEM"))
	if err != nil {
		t.Fatal(err)
	}
	budget, _ := strconv.Atoi(os.Getenv("LZ_MEMBUDGET"))
	runtime.MemProfileRate = 64 << 10
	opts := Options{Budget: budget}
	opts.defaults(pr)
	s := newMCTSSolver(pr, opts)
	res := s.run(context.Background())
	runtime.GC()
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("%s: %v after %d nodes; live heap %d bytes (%.0f per node)", pr.ID, res.Status, res.Nodes, ms.HeapAlloc, float64(ms.HeapAlloc)/float64(res.Nodes))
	t.Logf("solver's count: %d bytes held (%.0f per node): node records %d (%d live), children blocks %d (%d in use), zones %d (%d), AND states %d (%d), TT %d entries ~%d bytes",
		s.memoryBytes(), float64(s.memoryBytes())/float64(res.Nodes), s.tree.nodes.bytes(), s.tree.nodes.live(), s.tree.data.bytes(), s.tree.data.inUse,
		s.zones.a.bytes(), s.zones.a.live(), s.and.bytes(), s.and.live(), s.tt.Len(), s.tt.bytes())
	runtime.KeepAlive(s)
}
