package rzs

import (
	"math/rand/v2"
	"sync"
	"testing"

	"lifezero/game"
)

// TestLockedTableShares checks what a portfolio relies on: searches on
// their own goroutines insert into one LockedTable at once, nothing is
// lost, every pattern is found by all, and a lookup at the clock of an
// earlier miss sees what was stored after it. Run it with -race to check
// the locking.
func TestLockedTableShares(t *testing.T) {
	pr := killAllProblem(t, 7)
	pool := randomGamePositions(rand.New(rand.NewPCG(5, 6)), pr, 8, 40)
	shared := NewLockedTable(NewTreeTable(pr, TableOptions{}))
	var none game.PointSet
	const members = 4
	var wg sync.WaitGroup
	for m := range members {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := m; i < len(pool); i += members {
				shared.Insert(pool[i], &none, pool[i].AllPoints())
				if _, ok, _ := shared.Lookup(pool[i], &none, 0); !ok {
					t.Errorf("member %d misses its own pattern %d", m, i)
				}
			}
		}()
	}
	wg.Wait()
	if got := shared.Len(); got != len(pool) || shared.Table.Len() != len(pool) {
		t.Fatalf("%d entries (table: %d) after %d inserts", got, shared.Table.Len(), len(pool))
	}
	for i, pos := range pool {
		if _, ok, _ := shared.Lookup(pos, &none, 0); !ok {
			t.Fatalf("pattern %d, stored by member %d, is lost", i, i%members)
		}
	}
	// A member's clock must not hide what another stores after it: look
	// a position up (a miss), store it as another member would, and look
	// again at the clock the miss returned.
	fresh := NewLockedTable(NewTreeTable(pr, TableOptions{}))
	probe := pool[len(pool)-1]
	_, ok, clock := fresh.Lookup(probe, &none, 0)
	fresh.Insert(probe, &none, probe.AllPoints())
	if _, hit, _ := fresh.Lookup(probe, &none, clock); ok || !hit {
		t.Errorf("before the insert: hit %v; after it, at the clock of the miss: hit %v; want false, true", ok, hit)
	}
	before := shared.Stats()
	_, ok, now := shared.Lookup(pool[0], &none, uint64(len(pool)))
	after := shared.Stats()
	if ok || now != uint64(len(pool)) || after.Lookups != before.Lookups+1 || after.NodeVisits != before.NodeVisits+1 || after.Compares != before.Compares {
		t.Errorf("lookup with nothing new: hit %v, clock %d, lookups +%d, visits +%d, compares +%d; want a miss at %d counted as one visit",
			ok, now, after.Lookups-before.Lookups, after.NodeVisits-before.NodeVisits, after.Compares-before.Compares, len(pool))
	}
}
