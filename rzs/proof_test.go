package rzs

import (
	"testing"

	"lifezero/game"
)

// TestNodeProofApply checks the proof rule against paper 001's internal
// node rules on the empty 7x7 kill-all board (Black, the killer, to move):
// an OR node is won by one won child and lost when every move is refuted,
// with the history dependence of the children its proof uses only; an AND
// node is lost by one lost child, prunes its must-play region with a null
// move's zone, removes a refuted move inside the zone, passes over a won
// child outside the region, and is won when the region is empty.
func TestNodeProofApply(t *testing.T) {
	pr, err := game.KillAll(7)
	if err != nil {
		t.Fatal(err)
	}
	rules := newProofRules(pr, false)
	start := pr.StartPosition()
	at := func(x, y int) game.Point { return start.Point(x, y) }
	a, b, c, far := at(3, 3), at(3, 4), at(4, 3), at(0, 0)
	play := func(pos *game.Position, m game.Point) *game.Position {
		next := pos.Copy()
		if err := next.Play(m); err != nil {
			t.Fatal(err)
		}
		return next
	}
	zoneOf := func(pts ...game.Point) *game.PointSet {
		var z game.PointSet
		for _, p := range pts {
			z.Add(p)
		}
		return &z
	}
	type step struct {
		move    game.Point
		status  Status
		zone    *game.PointSet
		dep     bool
		want    Status
		wantDep bool
		outside bool // the move is outside the must-play region
	}
	afterA := play(start, a) // White, the living side, to move: an OR node
	for _, tc := range []struct {
		name  string
		or    bool
		pos   *game.Position
		moves []game.Point // the node's moves (an AND node's pass besides)
		steps []step
	}{
		{"or won by one child; its lost sibling's history is not part of the proof", true, afterA, []game.Point{b, c, far}, []step{
			{b, Loss, nil, true, Unknown, false, false},
			{c, Win, zoneOf(c, a), false, Win, false, false},
		}},
		{"or lost when every move is refuted, with every refutation's history", true, afterA, []game.Point{b, c, far}, []step{
			{b, Loss, nil, false, Unknown, false, false},
			{far, Loss, nil, true, Unknown, false, false},
			{c, Loss, nil, false, Loss, true, false},
		}},
		{"and lost by one child; its won sibling's history is not part of the proof", false, start, []game.Point{a, b, far}, []step{
			{a, Win, zoneOf(a, b), true, Unknown, false, false},
			{b, Loss, nil, false, Loss, false, false},
		}},
		{"and: a null pass prunes the region to its zone, a won move outside it is passed over", false, start, []game.Point{a, b, far}, []step{
			{game.Pass, Win, zoneOf(a, b), false, Unknown, false, false},
			{far, Win, zoneOf(far), true, Unknown, false, true},  // outside M: no effect, not even on the history
			{a, Win, zoneOf(a, b), false, Unknown, false, false}, // not null: only a leaves M
			{b, Win, zoneOf(a, b), false, Win, false, false},
		}},
		{"and: a null move empties the region at once, with its history", false, start, []game.Point{a, far}, []step{
			{game.Pass, Win, zoneOf(a), false, Unknown, false, false},
			{far, Win, zoneOf(a, b), true, Unknown, false, true}, // outside M now
			{a, Win, zoneOf(a), true, Win, true, false},          // a is in its zone: removed, M empty
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := nodeProof{or: tc.or, pos: tc.pos, open: len(tc.moves)}
			var ns andState
			if !tc.or {
				ns = newAndState(*zoneOf(tc.moves...))
				p.and = &ns
			}
			var union game.PointSet
			for i, s := range tc.steps {
				next := play(tc.pos, s.move)
				st, z, dep := p.apply(&rules, provenChild{move: s.move, status: s.status, zone: s.zone, dep: s.dep, next: next})
				if st != s.want || (st != Unknown && dep != s.wantDep) {
					t.Fatalf("step %d (%v %v): got %v dep %v, want %v dep %v", i, s.move, s.status, st, dep, s.want, s.wantDep)
				}
				// The won zone holds the zones of the children the proof uses:
				// the winning one at an OR node, the refuted ones in M at an AND.
				if s.status == Win && (st == Win || !tc.or) && !s.outside {
					union = union.Union(*s.zone)
				}
				if st == Win && (z.Intersect(union) != union) {
					t.Fatalf("step %d: zone %v does not hold the used children's zones %v", i, z.Points(), union.Points())
				}
			}
		})
	}
}
