package rzs

import (
	"lifezero/game"
)

// PatternTable is a store of proven zone patterns (the RZ pattern table of
// paper 000 implements it). The solver asks it at every unproven node it
// reaches and gives it every win it proves; a hit proves the node with the
// stored zone, which Lemma 1 makes sound: every position with the same
// stones and empty points on the zone, the same side to move and the same
// ko state is won.
type PatternTable interface {
	// Lookup returns the zone of a stored pattern that matches pos: same
	// side to move and ko point, same contents on every point of the zone,
	// and every crucial stone that the pattern's win relied on (the
	// crucial points inside its zone) still standing in standing. Only
	// entries added after since need be checked, because the caller has
	// already looked this position up at that time; now is the table's
	// clock to remember for the next lookup.
	Lookup(pos *game.Position, standing *game.PointSet, since uint64) (zone game.PointSet, ok bool, now uint64)
	// Insert stores a proven win and its zone.
	Insert(pos *game.Position, standing *game.PointSet, zone game.PointSet)
}

// lookupTable consults the pattern table for an expanded, unproven node and
// proves it on a hit. It reports whether the node was proven.
func (s *mcSolver) lookupTable(id int32, pos *game.Position, standing *game.PointSet) bool {
	// The table's clocks are kept by node record, in an arena as long as
	// the tree's.
	for int(s.tableTime.n) <= int(id) {
		s.tableTime.alloc()
	}
	tt := s.tableTime.at(id)
	zone, ok, now := s.opts.Table.Lookup(pos, standing, *tt)
	*tt = now
	if !ok {
		return false
	}
	s.prove(id, Win, s.newZone(zone))
	s.tableHits++
	return true
}
