package rzs

import (
	"time"

	"lifezero/game"
)

// This file holds the relevance-zone pattern table (RZT) of paper 000: the
// entries, the matching rule, and what the linear table (LR) and the radix
// tree table (TR, rzt_tree.go) share: statistics, the rebuild schedule,
// timestamps, symmetric lookups (rzt_sym.go) and the export and import of
// the entries (rzt_store.go; package rztstore keeps them on disk).
//
// Timestamps (Section III-C-2): entry i (1-based, in insertion order) has
// stamp i, the table's clock is its number of entries, and a search node
// remembers the clock of its last failed lookup. A later lookup of the same
// node (same position, same standing crucial stones) need only compare the
// entries with a larger stamp: every older one failed to match already. The
// NT variants ignore the caller's clock and compare everything.

// A table is not safe for concurrent use: one search owns it.

// TableOptions configure a pattern table.
type TableOptions struct {
	// NoTimestamps turns the timestamp skip off (the paper's NT variants).
	NoTimestamps bool
	// Symmetric also matches the position under every board symmetry that
	// maps the problem (region and crucial stones) onto itself, mapping the
	// stored zone back to the position's orientation. Entries are stored as
	// inserted; a lookup tries the position as it is first and then its
	// images, so a symmetric hit is exactly a hit that the plain table
	// would have missed.
	Symmetric bool
}

// patternEntry is a proven zone pattern: with toMove to play and ko as the
// ko point, every position that holds black's stones and white's stones on
// zone (the other zone points empty) and still has the crucial stones
// standing is a win for the living side.
type patternEntry struct {
	zone, black, white, crucial game.PointSet
	ko                          game.Point
	toMove                      game.Color
	stamp                       uint64 // insertion index, from 1
}

// query is a position reduced to what matching reads.
type query struct {
	black, white, standing game.PointSet
	ko                     game.Point
	toMove                 game.Color
}

// colorAt returns Black, White or Empty for a board point.
func (q *query) colorAt(p game.Point) game.Color {
	switch {
	case q.black.Has(p):
		return game.Black
	case q.white.Has(p):
		return game.White
	}
	return game.Empty
}

// matches reports whether e matches q, looking at the first words words of
// the bitsets (the rest are zero on this board).
func (e *patternEntry) matches(q *query, words int) bool {
	if e.toMove != q.toMove || e.ko != q.ko {
		return false
	}
	for i := 0; i < words; i++ {
		z := e.zone[i]
		if q.black[i]&z != e.black[i] || q.white[i]&z != e.white[i] || e.crucial[i]&^q.standing[i] != 0 {
			return false
		}
	}
	return true
}

// contentAt returns the colour the entry holds at a zone point.
func (e *patternEntry) contentAt(p game.Point) game.Color {
	switch {
	case e.black.Has(p):
		return game.Black
	case e.white.Has(p):
		return game.White
	}
	return game.Empty
}

// patternIndex finds entries: a list scanned newest first, or the radix
// tree over the ordered crucial intersections.
type patternIndex interface {
	// add indexes the entry just appended to the store.
	add(i int32)
	// find returns the index of an entry with a stamp above since that
	// matches q, or -1. It counts its node visits and comparisons in the
	// store.
	find(q *query, since uint64) int32
	// rebuild runs at the store's schedule points (the tree reorders its
	// levels); it reports whether anything changed.
	rebuild() bool
	// size is the index size n of the cost analysis: tree nodes, or
	// entries for the list.
	size() int
	// listFree reports whether the traversal cost without the leaf lists
	// is the node visits (tree) rather than the comparisons (list).
	listFree() bool
}

// patternStore is what both tables share.
type patternStore struct {
	kind    string
	opts    TableOptions
	problem problemKey
	board   game.PointSet // the board's points
	words   int           // bitset words used on this board
	entries []patternEntry
	idx     patternIndex
	sym     symmetries
	// nextPhase is the table size of the next rebuild: every 100 entries
	// up to 1,000, then each time the table has grown by 10%.
	nextPhase int
	preloaded int // entries loaded from a pattern database (the oldest)
	c         counters
	phase     phaseCounters
	growth    []GrowthSample
}

func newStore(pr *game.Problem, kind string, opts TableOptions) patternStore {
	s := patternStore{kind: kind, opts: opts, problem: newProblemKey(pr), nextPhase: firstRebuild}
	s.words = (pr.Start.Cells() + 63) / 64
	s.board = pr.Start.AllPoints()
	s.sym = newSymmetries(pr, opts.Symmetric)
	if opts.NoTimestamps {
		s.kind += "-NT"
	} else {
		s.kind += "-TS"
	}
	if opts.Symmetric {
		s.kind += "+SYM"
	}
	return s
}

// Rebuild schedule of Section III-B-3.
const (
	firstRebuild  = 100
	rebuildStep   = 100
	rebuildLinear = 1000 // up to here every rebuildStep entries
)

// nextRebuildAfter returns the table size of the rebuild after one at n.
func nextRebuildAfter(n int) int {
	if n < rebuildLinear {
		return (n/rebuildStep + 1) * rebuildStep
	}
	return (n*11 + 9) / 10 // ceil(1.1 n)
}

// Len returns the number of entries.
func (s *patternStore) Len() int { return len(s.entries) }

// Options returns the settings the table was made with.
func (s *patternStore) Options() TableOptions { return s.opts }

// Lookup implements PatternTable: the first entry found that matches pos
// (newest first in the list; in tree order in the tree), under the
// identity and then, with Symmetric, under the problem's other symmetries.
func (s *patternStore) Lookup(pos *game.Position, standing *game.PointSet, since uint64) (game.PointSet, bool, uint64) {
	start := time.Now()
	if pos.Size() != s.problem.size {
		s.c.Rejected++
		return game.PointSet{}, false, uint64(len(s.entries))
	}
	if now := uint64(len(s.entries)); since >= now && !s.opts.NoTimestamps {
		// Nothing new since the caller's last lookup: the index would stop
		// at its root (the list at its head), so skip reading the position.
		s.c.NodeVisits++
		s.count(false, false, 1, 0, time.Since(start))
		return game.PointSet{}, false, now
	}
	q := queryOf(pos, standing)
	return s.lookup(&q, since, start)
}

// lookup is Lookup on a query; start is when the lookup began.
func (s *patternStore) lookup(q *query, since uint64, start time.Time) (game.PointSet, bool, uint64) {
	now := uint64(len(s.entries))
	if s.opts.NoTimestamps {
		since = 0
	}
	visits, compares := s.c.NodeVisits, s.c.Compares
	found, sym := s.idx.find(q, since), game.Identity
	for _, g := range s.sym.others {
		if found >= 0 || since >= now {
			break // a hit, or no entry the caller has not compared under every symmetry
		}
		tq := s.sym.transformQuery(q, g.Inverse())
		if found = s.idx.find(&tq, since); found >= 0 {
			sym = g
		}
	}
	s.count(found >= 0, sym != game.Identity, s.c.NodeVisits-visits, s.c.Compares-compares, time.Since(start))
	if found < 0 {
		return game.PointSet{}, false, now
	}
	zone := s.entries[found].zone
	if sym != game.Identity {
		zone = s.sym.transformSet(sym, &zone)
	}
	return zone, true, now
}

// Insert implements PatternTable: it stores pos's contents on zone, the
// side to move, the ko point and the standing crucial stones inside the
// zone. A position of another board size is refused (counted in Rejected).
func (s *patternStore) Insert(pos *game.Position, standing *game.PointSet, zone game.PointSet) {
	if pos.Size() != s.problem.size {
		s.c.Rejected++
		return
	}
	q := queryOf(pos, standing)
	s.insert(&q, zone)
}

// insert is Insert of a query.
func (s *patternStore) insert(q *query, zone game.PointSet) {
	zone = zone.Intersect(s.board) // points off the board can hold nothing
	s.entries = append(s.entries, patternEntry{
		zone: zone, black: q.black.Intersect(zone), white: q.white.Intersect(zone),
		crucial: q.standing.Intersect(zone), ko: q.ko, toMove: q.toMove,
		stamp: uint64(len(s.entries) + 1),
	})
	s.idx.add(int32(len(s.entries) - 1))
	if len(s.entries) >= s.nextPhase {
		s.endPhase()
	}
}

// endPhase rebuilds the index at a schedule point and samples the growth
// statistics of the phase that ends.
func (s *patternStore) endPhase() {
	start := time.Now()
	if s.idx.rebuild() {
		s.c.Rebuilds++
	}
	s.c.RebuildNanos += time.Since(start).Nanoseconds()
	s.growth = append(s.growth, s.sample())
	s.phase = phaseCounters{}
	s.nextPhase = nextRebuildAfter(len(s.entries))
}

// queryOf reads the stones of pos.
func queryOf(pos *game.Position, standing *game.PointSet) query {
	q := query{standing: *standing, ko: pos.Ko(), toMove: pos.ToMove()}
	for i := 0; i < pos.Cells(); i++ {
		switch pos.At(game.Point(i)) {
		case game.Black:
			q.black.Add(game.Point(i))
		case game.White:
			q.white.Add(game.Point(i))
		}
	}
	return q
}

// LinearTable is the paper's LR baseline: the entries in one list, compared
// newest first; with timestamps the scan stops at the first entry the
// caller has already compared.
type LinearTable struct {
	patternStore
}

// NewLinearTable returns an empty linear table for a problem.
func NewLinearTable(pr *game.Problem, opts TableOptions) *LinearTable {
	t := &LinearTable{newStore(pr, "LR", opts)}
	t.idx = &linearIndex{s: &t.patternStore}
	return t
}

type linearIndex struct {
	s *patternStore
}

func (l *linearIndex) add(int32)      {}
func (l *linearIndex) rebuild() bool  { return false }
func (l *linearIndex) size() int      { return len(l.s.entries) }
func (l *linearIndex) listFree() bool { return false }

func (l *linearIndex) find(q *query, since uint64) int32 {
	s := l.s
	s.c.NodeVisits++ // the list head, as a tree of one leaf
	for i := len(s.entries) - 1; i >= 0; i-- {
		e := &s.entries[i]
		if e.stamp <= since {
			break
		}
		s.c.Compares++
		if e.matches(q, s.words) {
			return int32(i)
		}
	}
	return -1
}
