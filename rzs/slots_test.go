package rzs

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestSlots: searches taking turns never hold more slots than there are,
// every one of them gets its turns, and a search waiting for a slot stops
// waiting when its context ends.
func TestSlots(t *testing.T) {
	for _, c := range []struct{ slots, searches int }{{1, 3}, {2, 5}, {3, 3}, {2, 1}} {
		slots := NewSlots(c.slots)
		var running, most atomic.Int32
		var wg sync.WaitGroup
		for range c.searches {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if !slots.take(context.Background()) {
					t.Error("take failed with a live context")
					return
				}
				for range 200 {
					n := running.Add(1)
					for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
					}
					running.Add(-1)
					if !slots.pass(context.Background()) {
						t.Error("pass failed with a live context")
						return
					}
				}
				slots.give()
			}()
		}
		wg.Wait()
		if want := int32(min(c.slots, c.searches)); most.Load() > want || most.Load() < 1 {
			t.Errorf("%d slots, %d searches: at most %d ran at once, want 1 to %d", c.slots, c.searches, most.Load(), want)
		}
	}

	slots := NewSlots(1)
	if !slots.take(context.Background()) {
		t.Fatal("take failed with a live context")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if slots.take(ctx) {
		t.Fatal("a second take of one slot succeeded")
	}
	slots.give()
	if !slots.take(context.Background()) {
		t.Fatal("take failed after the slot was given back")
	}
}
