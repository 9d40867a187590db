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
// whatever the path that reached the position; the solvers keep out the
// proofs that rest on their path's superko history.
//
// An entry is 8 bytes: the status and a reference to its zone in a
// zoneArena, which the MCTS solver shares with its nodes (a node and its
// table entry hold the same zone once).
type TT struct {
	entries map[uint64]ttRef
	zones   *zoneArena
	shared  bool // zones belong to the MCTS solver's nodes too
	max     int
	hits    int
}

// ttRef is a stored entry: status and zone reference (0: empty zone).
type ttRef struct {
	status Status
	zone   int32
}

// NewTT returns a table that holds at most max entries (0 = unbounded).
func NewTT(max int) *TT {
	return &TT{entries: make(map[uint64]ttRef), zones: newZoneArena(), max: max}
}

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
	st, z, ok := t.lookup(key)
	if !ok {
		return ttEntry{}, false
	}
	return ttEntry{st, t.zones.get(z)}, true
}

// lookup returns the status and zone reference of a position, if stored.
func (t *TT) lookup(key uint64) (Status, int32, bool) {
	if t == nil {
		return Unknown, 0, false
	}
	e, ok := t.entries[key]
	if ok {
		t.hits++
	}
	return e.status, e.zone, ok
}

// Store records a proven position.
func (t *TT) Store(key uint64, e ttEntry) {
	if t == nil || e.status == Unknown || (t.max > 0 && len(t.entries) >= t.max) {
		return
	}
	z := int32(0)
	if e.status == Win {
		z = t.zones.add(e.zone)
	}
	t.entries[key] = ttRef{e.status, z}
}

// store records a proven position whose zone is already in the table's
// zone arena.
func (t *TT) store(key uint64, st Status, zone int32) {
	if t == nil || st == Unknown || (t.max > 0 && len(t.entries) >= t.max) {
		return
	}
	if st != Win {
		zone = 0
	}
	t.entries[key] = ttRef{st, zone}
}

// Len returns the number of entries.
func (t *TT) Len() int {
	if t == nil {
		return 0
	}
	return len(t.entries)
}

// ttEntryBytes estimates a map entry's memory: 8-byte key, 8-byte value,
// a control byte, the 7/8 load factor and on average half a table of
// growth headroom.
const ttEntryBytes = 32

// bytes estimates the table's memory (not its zones).
func (t *TT) bytes() int64 {
	if t == nil {
		return 0
	}
	return int64(len(t.entries)) * ttEntryBytes
}

// clear drops every entry (to free memory; sound, the entries only save
// work), and the zones with them unless they are shared.
func (t *TT) clear() {
	if t != nil {
		t.entries = make(map[uint64]ttRef)
		if !t.shared {
			t.zones = newZoneArena()
		}
	}
}
