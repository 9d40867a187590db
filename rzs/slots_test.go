package rzs

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestSlots: searches taking turns never hold more slots than there are,
// every one of them gets its turns, a search waiting for a slot stops
// waiting when its context ends, a turn that holds no slot gives none
// back, and a search without slots is never stopped.
func TestSlots(t *testing.T) {
	for _, c := range []struct{ slots, searches int }{{1, 3}, {2, 5}, {3, 3}, {2, 1}} {
		slots := NewSlots(c.slots)
		var running, most atomic.Int32
		var wg sync.WaitGroup
		for range c.searches {
			wg.Add(1)
			go func() {
				defer wg.Done()
				hold := turn{slots: slots}
				if !hold.start(context.Background()) {
					t.Error("start failed with a live context")
					return
				}
				for range 200 {
					n := running.Add(1)
					for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
					}
					running.Add(-1)
					if !hold.pass(context.Background()) {
						t.Error("pass failed with a live context")
						return
					}
				}
				hold.end()
			}()
		}
		wg.Wait()
		if want := int32(min(c.slots, c.searches)); most.Load() > want || most.Load() < 1 {
			t.Errorf("%d slots, %d searches: at most %d ran at once, want 1 to %d", c.slots, c.searches, most.Load(), want)
		}
	}

	slots := NewSlots(1)
	first, second := turn{slots: slots}, turn{slots: slots}
	if !first.start(context.Background()) {
		t.Fatal("start failed with a live context")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if second.start(ctx) {
		t.Fatal("a second start on one slot succeeded")
	}
	second.end() // holds none: must not give back the first's slot
	if len(slots.held) != 1 {
		t.Fatal("ending a turn that holds no slot gave one back")
	}
	first.end()
	if !second.start(context.Background()) {
		t.Fatal("start failed after the slot was given back")
	}
	if nobody := (turn{}); !nobody.start(ctx) || !nobody.pass(ctx) {
		t.Fatal("a turn without slots was stopped")
	}
}
