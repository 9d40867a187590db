package rzs

import "lifezero/game"

// Status is the proof status of a node from the living side's view.
type Status uint8

// Proof statuses.
const (
	Unknown Status = iota
	Win            // the living side achieves its goal
	Loss           // the living side fails
)

// String names the status.
func (s Status) String() string {
	switch s {
	case Win:
		return "win"
	case Loss:
		return "loss"
	}
	return "unknown"
}

// ttEntry is a proven position: its status and, for a win, its zone.
type ttEntry struct {
	status Status
	zone   game.PointSet
}

// TT is a transposition table of proven positions keyed by the whole-board
// hash (stones, side to move, ko point, passes) mixed with the crucial
// stones still standing. As in the reference solver, an entry is reused
// whatever the path that reached the position; positions whose proof
// depends on the superko history are therefore trusted as if it did not
// (the graph-history-interaction caveat, noted in the README).
type TT struct {
	entries map[uint64]ttEntry
	max     int
	hits    int
}

// NewTT returns a table that holds at most max entries (0 = unbounded).
func NewTT(max int) *TT { return &TT{entries: make(map[uint64]ttEntry), max: max} }

// ttKey combines the position hash with the standing crucial stones.
func ttKey(pos *game.Position, standing *game.PointSet) uint64 {
	h := pos.Hash()
	for i, w := range standing {
		h ^= (w + uint64(i)*0x9e3779b97f4a7c15) * 0xbf58476d1ce4e5b9
		h = h<<13 | h>>51
	}
	return h
}

// Lookup returns the proven entry of a position, if any.
func (t *TT) Lookup(key uint64) (ttEntry, bool) {
	if t == nil {
		return ttEntry{}, false
	}
	e, ok := t.entries[key]
	if ok {
		t.hits++
	}
	return e, ok
}

// Store records a proven position.
func (t *TT) Store(key uint64, e ttEntry) {
	if t == nil || e.status == Unknown || (t.max > 0 && len(t.entries) >= t.max) {
		return
	}
	t.entries[key] = e
}

// Len returns the number of entries.
func (t *TT) Len() int {
	if t == nil {
		return 0
	}
	return len(t.entries)
}
