package mcts

import (
	"math"
	"slices"
	"testing"

	"lifezero/game"
)

// lazyTree is a second SearchTree, written for this test the way the
// solver's memory-bounded tree works: an expansion stores only the moves
// and priors, a child gets a record (an id) the first time it is selected,
// and the root is id 1. Search must drive it to the very search *Tree
// gives.
type lazyTree struct {
	recs  []lazyRec // index 0 unused
	freed []NodeID  // records freed by unexpand, handed out again first
	// skip, if not nil, passes over children in selection, as the
	// solver's tree does, given the child's record or None when it has
	// none yet.
	skip func(m game.Point, rec NodeID) bool
}

type lazyRec struct {
	move            game.Point
	player          game.Color
	parent          NodeID
	visits, virtual int32
	valueSum        float32
	expanded        bool
	kidPlayer       game.Color
	moves           []game.Point
	priors          []float32
	kids            []NodeID // per child, its record or None
}

func newLazyTree(lastMover game.Color) *lazyTree {
	return &lazyTree{recs: []lazyRec{{}, {move: game.NoPoint, player: lastMover, parent: None}}}
}

func (t *lazyTree) Root() NodeID              { return 1 }
func (t *lazyTree) Len() int                  { return len(t.recs) }
func (t *lazyTree) Move(id NodeID) game.Point { return t.recs[id].move }
func (t *lazyTree) Visits(id NodeID) int32    { return t.recs[id].visits }

func (t *lazyTree) SelectChild(id NodeID) NodeID {
	p := &t.recs[id]
	if !p.expanded {
		return None
	}
	pv := p.visits + p.virtual
	c := Exploration(pv) * math.Sqrt(float64(pv)+1)
	fpu := 1 - 0.5
	if pv > 0 {
		fpu = 1 - float64(p.valueSum)/float64(pv)
	}
	best, bestScore := -1, math.Inf(-1)
	for i, m := range p.moves {
		rec := p.kids[i]
		if t.skip != nil && t.skip(m, rec) {
			continue
		}
		q, n := fpu, int32(0)
		if rec != None {
			r := &t.recs[rec]
			if n = r.visits + r.virtual; n > 0 {
				q = float64(r.valueSum) / float64(n)
			}
		}
		if s := q + c*float64(p.priors[i])/float64(1+n); s > bestScore {
			best, bestScore = i, s
		}
	}
	if best < 0 {
		return None
	}
	if p.kids[best] == None {
		rec := lazyRec{move: p.moves[best], player: p.kidPlayer, parent: id}
		if k := len(t.freed); k > 0 {
			p.kids[best], t.freed = t.freed[k-1], t.freed[:k-1]
			t.recs[p.kids[best]] = rec
		} else {
			p.kids[best] = NodeID(len(t.recs))
			t.recs = append(t.recs, rec)
		}
	}
	return t.recs[id].kids[best]
}

func (t *lazyTree) Expand(id NodeID, player game.Color, moves []game.Point, priors []float32) {
	r := &t.recs[id]
	if r.expanded || len(moves) == 0 {
		return
	}
	r.expanded, r.kidPlayer = true, player
	r.moves, r.priors = append([]game.Point(nil), moves...), append([]float32(nil), priors...)
	r.kids = make([]NodeID, len(moves))
	for i := range r.kids {
		r.kids[i] = None
	}
}

func (t *lazyTree) AddVirtualLoss(id NodeID) {
	for ; id != None; id = t.recs[id].parent {
		t.recs[id].virtual++
	}
}

func (t *lazyTree) Backup(id NodeID, value float64, forPlayer game.Color, withVirtual bool) {
	for ; id != None; id = t.recs[id].parent {
		r := &t.recs[id]
		r.visits++
		if withVirtual && r.virtual > 0 {
			r.virtual--
		}
		if r.player == forPlayer {
			r.valueSum += float32(value)
		} else {
			r.valueSum += float32(1 - value)
		}
	}
}

// The same search over *Tree and over a tree that creates ids on
// selection, with its root at another id, gives every line the same visits
// and values, with leaves one at a time or several in flight, and with a
// skipped move (which the lazy tree's selection passes over with no id).
func TestSearchOverLazyTree(t *testing.T) {
	for _, tc := range []struct {
		batch int
		skip  game.Point
	}{{1, game.NoPoint}, {4, game.NoPoint}, {3, 1}} {
		arena, lazy := NewTree(game.White), newLazyTree(game.White)
		if tc.skip != game.NoPoint {
			lazy.skip = skipMove(tc.skip)
		}
		run(t, NewSearch(skipping(arena, tc.skip), game.Black, 400, hashHooks()), Evaluator[hashGame](&hashEval{}), tc.batch)
		ls := NewSearch(lazy, game.Black, 400, hashHooks())
		run(t, ls, Evaluator[hashGame](&hashEval{}), tc.batch)
		records := 0
		var walk func(a, l NodeID)
		walk = func(a, l NodeID) {
			records++
			an, lr := arena.Node(a), &lazy.recs[l]
			if an.Visits != lr.visits || an.ValueSum != lr.valueSum || lr.virtual != 0 {
				t.Fatalf("%+v: node %d/%d: visits %d/%d, value sum %v/%v, lazy virtual %d",
					tc, a, l, an.Visits, lr.visits, an.ValueSum, lr.valueSum, lr.virtual)
			}
			for i, c := range arena.Children(a) {
				lc := None
				if lr.expanded {
					lc = lr.kids[i]
				}
				if arena.Node(c).Visits == 0 {
					if lc != None {
						t.Fatalf("%+v: an unvisited child of %d has a lazy record", tc, a)
					}
					continue
				}
				if lc == None {
					t.Fatalf("%+v: visited child %d has no lazy record", tc, c)
				}
				walk(c, lc)
			}
		}
		walk(0, lazy.Root())
		if records != lazy.Len()-1 {
			t.Fatalf("%+v: %d visited nodes, %d lazy records", tc, records, lazy.Len()-1)
		}
		if ls.Status(lazy.Root()) != Inner {
			t.Fatalf("%+v: lazy root status %d", tc, ls.Status(lazy.Root()))
		}
	}
}

// unexpand frees the records below id and makes id unexpanded again, as
// the solver's memory bound drops a subtree, and returns the freed ids.
func (t *lazyTree) unexpand(id NodeID) []NodeID {
	var out []NodeID
	var free func(id NodeID)
	free = func(id NodeID) {
		for _, k := range t.recs[id].kids {
			if k != None {
				free(k)
				out = append(out, k)
			}
		}
		r := &t.recs[id]
		r.expanded, r.moves, r.priors, r.kids = false, nil, nil, nil
	}
	free(id)
	t.freed = append(t.freed, out...)
	return out
}

// path returns the moves from the root to id.
func (t *lazyTree) path(id NodeID) []game.Point {
	var p []game.Point
	for ; t.recs[id].parent != None; id = t.recs[id].parent {
		p = append([]game.Point{t.recs[id].move}, p...)
	}
	return p
}

// A tree that frees a subtree mid-search and hands its ids out again
// tells the search through Forget: the search then goes on to the end,
// re-evaluates the unexpanded node, and every record's state fits its new
// node (Inner exactly when expanded, Terminal only where the game ends).
// Without Forget the reused ids keep the freed nodes' states, which the
// check catches.
func TestSearchForget(t *testing.T) {
	for _, forget := range []bool{true, false} {
		lazy := newLazyTree(game.White)
		// Game ends only at depth 4, so the search keeps coming back to
		// the busy lines.
		h := hashHooks()
		h.Judge = func(st *hashGame) (float64, bool) { return hashValue(st.path, 'v'), len(st.path) >= 4 }
		s := NewSearch(lazy, game.Black, 300, h)
		ev := &hashEval{}
		run(t, s, Evaluator[hashGame](ev), 4)
		// Drop the subtree of the most visited expanded node below the root.
		var big NodeID = None
		for k := NodeID(2); int(k) < lazy.Len(); k++ {
			if lazy.recs[k].expanded && (big == None || lazy.recs[k].visits > lazy.recs[big].visits) {
				big = k
			}
		}
		if big == None {
			t.Fatal("no expanded node below the root")
		}
		freed := lazy.unexpand(big)
		if len(freed) == 0 {
			t.Fatal("nothing freed")
		}
		if forget {
			s.Forget(big)
			for _, id := range freed {
				s.Forget(id)
			}
		}
		runErr := simulateMore(s, ev, 600, 4)
		bad := runErr != nil || s.Done() != 600
		for id := NodeID(2); int(id) < lazy.Len(); id++ {
			if slices.Contains(lazy.freed, id) {
				continue // freed and not handed out again
			}
			r, st := &lazy.recs[id], s.Status(id)
			path := lazy.path(id)
			ends := len(path) >= 4
			if (st == Inner) != r.expanded || (st == Terminal) != ends || st == Pending {
				bad = true
				if forget {
					t.Fatalf("record %d %v: status %d, expanded %v, game end %v", id, path, st, r.expanded, ends)
				}
			}
		}
		if forget && (runErr != nil || lazy.recs[lazy.Root()].visits != 600 || !lazy.recs[big].expanded) {
			t.Fatalf("with Forget: err %v, root %d visits, dropped node expanded again %v",
				runErr, lazy.recs[lazy.Root()].visits, lazy.recs[big].expanded)
		}
		if !forget && !bad {
			t.Fatal("without Forget the reused ids kept no stale state: the test tests nothing")
		}
	}
}

// simulateMore searches on until done simulations are backed up, past the
// simulations s wanted, up to batch leaves in flight: the solver's way,
// descending by Simulate, which no simulation count stops. It gives up
// after 10000 rounds (a search whose stale states collide for ever).
func simulateMore(s *Search[hashGame], ev Evaluator[hashGame], done, batch int) error {
	for rounds := 0; s.Done() < done && rounds < 10000; rounds++ {
		var leaves []*Leaf[hashGame]
		for len(leaves) < batch && s.Done()+len(leaves) < done {
			lf, collided, err := s.Simulate()
			if err != nil {
				return err
			}
			if collided {
				break
			}
			if lf != nil {
				leaves = append(leaves, lf)
			}
		}
		if err := Evaluate(ev, leaves); err != nil {
			return err
		}
	}
	return nil
}
