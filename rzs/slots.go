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

// take waits for a slot; it reports false, holding none, when ctx ends
// first.
func (s *Slots) take(ctx context.Context) bool {
	select {
	case s.held <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

// give hands a held slot back.
func (s *Slots) give() { <-s.held }

// pass gives the held slot back and waits for one again, letting the
// searches that wait run first; it reports false, holding none, when ctx
// ends while it waits.
func (s *Slots) pass(ctx context.Context) bool {
	s.give()
	return s.take(ctx)
}
