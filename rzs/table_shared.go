package rzs

import (
	"sync"
	"sync/atomic"

	"lifezero/game"
)

// LockedTable lets the searches of a portfolio share one pattern table, so
// that a win one member proves and stores proves the same pattern in every
// other member's tree. Every lookup that reads the index and every insert
// hold its lock. A lookup with nothing new since the caller's last one
// (the table's own first test, and most lookups) is answered from an
// atomic count of the entries without the lock: otherwise the members
// would queue at every node of every descent.
//
// Sharing is sound for the same reason the table is: an entry is a proven
// win whose zone holds it in every position that agrees with it on the
// zone (Lemma 1 of paper 000), whichever search proved it and however
// that search was ordered or judged (safety's wins are proofs too).
type LockedTable[T SizedTable] struct {
	// Table is the shared table. Read it directly only when no search
	// is running.
	Table        T
	noTimestamps bool
	mu           sync.Mutex
	entries      atomic.Uint64 // Table.Len(), stored after each insert
	skipped      atomic.Int64  // lookups answered without the lock
}

// SizedTable is a pattern table that counts its entries, as the tables'
// clocks do (a lookup at a clock of Len() or more has nothing new to
// see, unless the table has no timestamps), and its lookups:
// TreeTable and LinearTable.
type SizedTable interface {
	PatternTable
	Len() int
	Stats() TableStats
	Options() TableOptions
}

// NewLockedTable wraps t for sharing.
func NewLockedTable[T SizedTable](t T) *LockedTable[T] {
	l := &LockedTable[T]{Table: t, noTimestamps: t.Options().NoTimestamps}
	l.entries.Store(uint64(t.Len()))
	return l
}

// Lookup implements PatternTable.
func (l *LockedTable[T]) Lookup(pos *game.Position, standing *game.PointSet, since uint64) (game.PointSet, bool, uint64) {
	if now := l.entries.Load(); since >= now && !l.noTimestamps {
		l.skipped.Add(1)
		return game.PointSet{}, false, now
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.Table.Lookup(pos, standing, since)
}

// Insert implements PatternTable.
func (l *LockedTable[T]) Insert(pos *game.Position, standing *game.PointSet, zone game.PointSet) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.Table.Insert(pos, standing, zone)
	l.entries.Store(uint64(l.Table.Len()))
}

// Options implements SizedTable.
func (l *LockedTable[T]) Options() TableOptions { return l.Table.Options() }

// Len is the number of entries.
func (l *LockedTable[T]) Len() int { return int(l.entries.Load()) }

// Stats is the table's statistics with the lookups answered without the
// lock counted as the table counts its own such lookups: one index node
// visited, no comparison.
func (l *LockedTable[T]) Stats() TableStats {
	l.mu.Lock()
	defer l.mu.Unlock()
	st := l.Table.Stats()
	n := l.skipped.Load()
	st.Lookups += n
	st.NodeVisits += n
	st.Cost += n
	return st
}
