package rzs

import "context"

// Slots lets more sequential searches than cores take turns on them: a
// search runs only while it holds one of the n slots and hands it on every
// 256 nodes. A portfolio with more members than threads shares one, so it
// never runs more searches at once than it has threads, whatever the
// machine's cores (the papers' protocol counts threads), and each member
// gets an even share of them. The handing on is fair: a slot given back
// goes to the search that has waited longest, because a buffered channel
// that is full passes a freed place to its first blocked sender (the
// runtime queues senders in order).
type Slots struct{ held chan struct{} }

// NewSlots returns n slots (at least 1).
func NewSlots(n int) *Slots { return &Slots{held: make(chan struct{}, max(n, 1))} }

// turn is one search's hold on its Slots, nil for a search that takes no
// turns (then every method lets it run). held says whether it holds a
// slot, so that end gives back only one it holds.
type turn struct {
	slots *Slots
	held  bool
}

// start waits for a slot; it reports false when ctx ends first.
func (t *turn) start(ctx context.Context) bool {
	if t.slots == nil {
		return true
	}
	select {
	case t.slots.held <- struct{}{}:
		t.held = true
	case <-ctx.Done():
	}
	return t.held
}

// pass gives the slot back and waits for one again, letting the searches
// that wait run first; it reports false, holding none, when ctx ends while
// it waits.
func (t *turn) pass(ctx context.Context) bool {
	t.end()
	return t.start(ctx)
}

// end gives back the slot, if held.
func (t *turn) end() {
	if t.held {
		<-t.slots.held
		t.held = false
	}
}
