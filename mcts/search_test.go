package mcts

import (
	"errors"
	"hash/fnv"
	"math"
	"testing"

	"lifezero/game"
)

// nim is the subtraction game: a pile, each move takes 1 or 2 (moves are
// game.Point(1) and game.Point(2)), and who takes the last wins. Its
// truth is known in closed form: the side to move loses exactly when the
// pile is a multiple of 3, and wins by taking pile mod 3.
type nim struct {
	pile   int
	toMove game.Color
}

func nimHooks(pile int) Hooks[nim] {
	return Hooks[nim]{
		Root: func() nim { return nim{pile, game.Black} },
		Play: func(st *nim, m game.Point) error {
			if int(m) < 1 || int(m) > 2 || int(m) > st.pile {
				return errors.New("illegal take")
			}
			st.pile -= int(m)
			st.toMove = st.toMove.Opponent()
			return nil
		},
		Judge: func(st *nim) (float64, bool) {
			if st.pile > 0 {
				return 0, false
			}
			if st.toMove.Opponent() == game.Black { // Black took the last
				return 1, true
			}
			return 0, true
		},
	}
}

// uniformNim knows nothing: equal priors, value 1/2. It counts its batches.
type uniformNim struct{ batches, leaves, largest int }

func (u *uniformNim) EvaluateBatch(leaves []*Leaf[nim]) error {
	u.batches++
	u.leaves += len(leaves)
	u.largest = max(u.largest, len(leaves))
	for _, lf := range leaves {
		lf.ToMove = lf.State.toMove
		lf.Moves, lf.Priors = nil, nil
		for take := 1; take <= min(2, lf.State.pile); take++ {
			lf.Moves = append(lf.Moves, game.Point(take))
		}
		for range lf.Moves {
			lf.Priors = append(lf.Priors, 1/float32(len(lf.Moves)))
		}
		lf.Value = 0.5
	}
	return nil
}

// run drives s to the end, batch leaves at a time.
func run[S any](t *testing.T, s *Search[S], ev Evaluator[S], batch int) {
	t.Helper()
	for rounds := 0; !s.Finished(); rounds++ {
		if rounds > 100000 {
			t.Fatal("search did not finish")
		}
		leaves, err := s.Collect(batch, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := Evaluate(ev, leaves); err != nil {
			t.Fatal(err)
		}
	}
}

// nimWins is the brute-force minimax: whether the side to move wins.
func nimWins(pile int) bool {
	for take := 1; take <= min(2, pile); take++ {
		if take == pile || !nimWins(pile-take) {
			return true
		}
	}
	return false
}

// The search, guided by game ends alone, finds the minimax move of the
// subtraction game, one leaf at a time and several under virtual loss: the
// most visited move is the winning take, and its value tends to a win; in
// a lost position every move's value tends to a loss.
func TestSearchFindsMinimax(t *testing.T) {
	for _, tc := range []struct{ pile, batch int }{
		{1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}, {6, 1}, {7, 1}, {8, 1},
		{4, 4}, {6, 4}, {8, 4},
	} {
		if nimWins(tc.pile) != (tc.pile%3 != 0) {
			t.Fatalf("pile %d: brute force and closed form disagree", tc.pile)
		}
		tr := NewTree(game.White)
		s := NewSearch(tr, game.Black, 3000, nimHooks(tc.pile))
		ev := &uniformNim{}
		run(t, s, ev, tc.batch)
		if ev.largest > tc.batch {
			t.Errorf("pile %d: a batch of %d leaves, want at most %d", tc.pile, ev.largest, tc.batch)
		}
		best := tr.MostVisited(0)
		bq := tr.Node(best).Q(0) // Black's value: Black plays the root's children
		if nimWins(tc.pile) {
			if got, want := int(tr.Move(best)), tc.pile%3; got != want || bq < 0.9 {
				t.Errorf("pile %d batch %d: most visited takes %d (value %.3f), want %d with value > 0.9",
					tc.pile, tc.batch, got, bq, want)
			}
			continue
		}
		for _, c := range tr.Children(0) {
			if q := tr.Node(c).Q(0); q > 0.2 {
				t.Errorf("pile %d batch %d: a lost position's take %d has value %.3f, want < 0.2",
					tc.pile, tc.batch, tr.Move(c), q)
			}
		}
	}
}

// hashGame is a random game tree: three moves everywhere, a node's
// terminal status and value, and its evaluation, fixed by a hash of its
// path, so that the test can recompute what every backup must have added.
type hashGame struct {
	path   []game.Point
	toMove game.Color
}

func pathHash(path []game.Point, salt byte) uint32 {
	h := fnv.New32a()
	h.Write([]byte{salt})
	for _, m := range path {
		h.Write([]byte{byte(m)})
	}
	return h.Sum32()
}

// hashValue is a value in [0,1] in steps of 1/8 (exact in float32).
func hashValue(path []game.Point, salt byte) float64 { return float64(pathHash(path, salt)%9) / 8 }

func hashHooks() Hooks[hashGame] {
	return Hooks[hashGame]{
		Root: func() hashGame { return hashGame{toMove: game.Black} },
		Play: func(st *hashGame, m game.Point) error {
			st.path = append(st.path[:len(st.path):len(st.path)], m)
			st.toMove = st.toMove.Opponent()
			return nil
		},
		Judge: func(st *hashGame) (float64, bool) {
			if len(st.path) == 0 {
				panic("judge asked at the root")
			}
			if len(st.path) >= 5 || pathHash(st.path, 't')%4 == 0 {
				return hashValue(st.path, 'v'), true
			}
			return 0, false
		},
	}
}

// skipTree is a *Tree whose selection passes over the children skip names,
// as a solver's tree passes over those it has proven or pruned.
type skipTree struct {
	*Tree
	skip func(m game.Point, child NodeID) bool
}

func (t skipTree) SelectChild(id NodeID) NodeID { return t.selectChild(id, t.skip) }

// skipMove is a skip rule passing over move m.
func skipMove(m game.Point) func(game.Point, NodeID) bool {
	return func(c game.Point, _ NodeID) bool { return c == m }
}

// skipping returns tr with selection passing over move m (tr itself for
// NoPoint).
func skipping(tr *Tree, m game.Point) SearchTree {
	if m == game.NoPoint {
		return tr
	}
	return skipTree{tr, skipMove(m)}
}

type hashEval struct{ batches int }

func (e *hashEval) EvaluateBatch(leaves []*Leaf[hashGame]) error {
	e.batches++
	for _, lf := range leaves {
		lf.ToMove = lf.State.toMove
		lf.Moves = []game.Point{1, 2, 3}
		lf.Priors = []float32{0.5, 0.3, 0.2}
		lf.Value = hashValue(lf.State.path, 'e')
	}
	return nil
}

// forPlayer turns a value for Black into one for p.
func forPlayer(v float64, p game.Color) float64 {
	if p == game.Black {
		return v
	}
	return 1 - v
}

// decided says whether the Decided hook of the accounting test proves an
// expanded node, and the value it gives.
func decided(path []game.Point) (float64, bool) {
	return hashValue(path, 'w'), pathHash(path, 'd')%5 == 0
}

// Every backup is accounted for: at each node, the visits and value sum
// are exactly its own evaluation (or its game end, once per visit) plus
// what its children passed up, recomputed from the hashes; the root has
// the simulations wanted, and no virtual loss is left, whatever the
// number of leaves in flight. Skipped moves are never visited; a node
// proven by Decided keeps its subtree's visits from before and adds its
// value at each later visit.
func TestSearchBackupAccounting(t *testing.T) {
	for _, tc := range []struct {
		batch, sims int
		skip        game.Point
		decide      bool
	}{{1, 300, game.NoPoint, false}, {3, 300, game.NoPoint, false}, {8, 300, game.NoPoint, false},
		{8, 500, 2, false}, {1, 50, 3, false}, {1, 400, game.NoPoint, true}, {6, 400, 3, true}} {
		tr := NewTree(game.White)
		h := hashHooks()
		if tc.decide {
			h.Decided = func(id NodeID, st *hashGame) (float64, bool) {
				if id == tr.Root() || !tr.Node(id).Expanded() {
					t.Fatalf("Decided asked at node %d (root or not expanded)", id)
				}
				return decided(st.path)
			}
		}
		s := NewSearch(skipping(tr, tc.skip), game.Black, tc.sims, h)
		ev := &hashEval{}
		run(t, s, ev, tc.batch)
		if got := tr.Node(0).Visits; int(got) != tc.sims || s.Done() != tc.sims {
			t.Fatalf("%+v: root %d visits, %d done, want %d", tc, got, s.Done(), tc.sims)
		}
		if tc.batch > 1 && ev.batches >= tc.sims {
			t.Errorf("%+v: %d batches for %d simulations: leaves were not batched", tc, ev.batches, tc.sims)
		}
		proven := 0
		var walk func(id NodeID, path []game.Point)
		walk = func(id NodeID, path []game.Point) {
			n := tr.Node(id)
			if n.VirtualLoss != 0 {
				t.Fatalf("%+v: node %v keeps virtual loss %d", tc, path, n.VirtualLoss)
			}
			if id != 0 && n.Move == tc.skip && n.Visits != 0 {
				t.Fatalf("%+v: skipped move %v visited %d times", tc, path, n.Visits)
			}
			// What the children passed up.
			var visits int32
			var sum float64
			for _, c := range tr.Children(id) {
				cp := append(path[:len(path):len(path)], tr.Move(c))
				walk(c, cp)
				cn := tr.Node(c)
				visits += cn.Visits
				sum += float64(cn.Visits) - float64(cn.ValueSum)
			}
			switch st := s.Status(id); {
			case st == Unreached:
				if n.Visits != 0 || n.Expanded() {
					t.Fatalf("%+v: unreached node %v has %d visits", tc, path, n.Visits)
				}
				return
			case st == Terminal && n.Expanded(): // proven by Decided
				v, ok := decided(path)
				k := n.Visits - 1 - visits
				if !tc.decide || !ok || k < 1 {
					t.Fatalf("%+v: node %v: expanded game end (decide %v, %d visits after)", tc, path, ok, k)
				}
				proven++
				visits += 1 + k
				sum += forPlayer(hashValue(path, 'e'), n.Player) + float64(k)*forPlayer(v, n.Player)
			case st == Terminal:
				visits = n.Visits
				sum = float64(visits) * forPlayer(hashValue(path, 'v'), n.Player)
			case st == Inner:
				if _, ok := decided(path); ok && tc.decide && id != 0 && visits > 0 {
					t.Fatalf("%+v: node %v should have been proven", tc, path)
				}
				visits++
				sum += forPlayer(hashValue(path, 'e'), n.Player)
			default:
				t.Fatalf("%+v: node %v still pending", tc, path)
			}
			if n.Visits != visits || math.Abs(float64(n.ValueSum)-sum) > 1e-3 {
				t.Fatalf("%+v: node %v: %d visits, value sum %v; want %d and %v", tc, path, n.Visits, n.ValueSum, visits, sum)
			}
		}
		walk(0, nil)
		if tc.decide && proven == 0 {
			t.Fatalf("%+v: no node proven by Decided: the case tests nothing", tc)
		}
	}
}

// Leaves of several searches evaluated in one batch give each search the
// tree it gets alone: batching across games changes nothing per game.
func TestSearchBatchAcrossSearches(t *testing.T) {
	solo := NewTree(game.White)
	run(t, NewSearch(solo, game.Black, 200, hashHooks()), Evaluator[hashGame](&hashEval{}), 2)
	trees := []*Tree{NewTree(game.White), NewTree(game.White), NewTree(game.White)}
	var searches []*Search[hashGame]
	for i, tr := range trees {
		searches = append(searches, NewSearch(tr, game.Black, 200+50*i, hashHooks()))
	}
	ev := &hashEval{}
	for busy := true; busy; {
		busy = false
		var leaves []*Leaf[hashGame]
		for _, s := range searches {
			if s.Finished() {
				continue
			}
			busy = true
			var err error
			if leaves, err = s.Collect(2, leaves); err != nil {
				t.Fatal(err)
			}
		}
		if err := Evaluate(ev, leaves); err != nil {
			t.Fatal(err)
		}
	}
	tr := trees[0]
	if tr.Len() != solo.Len() {
		t.Fatalf("batched with others: %d nodes, alone %d", tr.Len(), solo.Len())
	}
	for id := range NodeID(tr.Len()) {
		if *tr.Node(id) != *solo.Node(id) {
			t.Fatalf("node %d: batched with others %+v, alone %+v", id, *tr.Node(id), *solo.Node(id))
		}
	}
}

// A node whose every child is skipped stops the search with an error
// rather than a panic or a silent loop.
func TestSearchAllSkipped(t *testing.T) {
	all := func(game.Point, NodeID) bool { return true }
	s := NewSearch(skipTree{NewTree(game.White), all}, game.Black, 10, hashHooks())
	ev := &hashEval{}
	leaves, err := s.Collect(1, nil)
	if err != nil || len(leaves) != 1 {
		t.Fatalf("first descent: %d leaves, %v", len(leaves), err)
	}
	if err := Evaluate(ev, leaves); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Collect(1, nil); !errors.Is(err, ErrNoChild) {
		t.Fatalf("every child skipped: err %v, want ErrNoChild", err)
	}
}

// judgingEval is hashEval that finds the game ends itself, as a solver's
// evaluator proves leaves, instead of a Judge hook.
type judgingEval struct{ hashEval }

func (e *judgingEval) EvaluateBatch(leaves []*Leaf[hashGame]) error {
	if err := e.hashEval.EvaluateBatch(leaves); err != nil {
		return err
	}
	for _, lf := range leaves {
		path := lf.State.path
		if len(path) > 0 && (len(path) >= 5 || pathHash(path, 't')%4 == 0) {
			lf.Moves, lf.Priors = nil, nil
			lf.Value, lf.Terminal = hashValue(path, 'v'), true
		}
	}
	return nil
}

// Game ends found by the evaluator (Leaf.Terminal) make, one leaf at a
// time, the very tree that game ends found by Judge make; with leaves in
// flight the backups still add up.
func TestSearchTerminalLeaves(t *testing.T) {
	judged := NewTree(game.White)
	js := NewSearch(judged, game.Black, 300, hashHooks())
	run(t, js, Evaluator[hashGame](&hashEval{}), 1)
	h := hashHooks()
	h.Judge = nil
	evaluated := NewTree(game.White)
	es := NewSearch(evaluated, game.Black, 300, h)
	run(t, es, Evaluator[hashGame](&judgingEval{}), 1)
	if judged.Len() != evaluated.Len() {
		t.Fatalf("%d nodes with Judge, %d with terminal leaves", judged.Len(), evaluated.Len())
	}
	terminals := 0
	for id := range NodeID(judged.Len()) {
		if *judged.Node(id) != *evaluated.Node(id) || js.Status(id) != es.Status(id) {
			t.Fatalf("node %d: with Judge %+v status %d, with terminal leaves %+v status %d",
				id, *judged.Node(id), js.Status(id), *evaluated.Node(id), es.Status(id))
		}
		if es.Status(id) == Terminal {
			terminals++
		}
	}
	if terminals == 0 {
		t.Fatal("no game end reached: the test tests nothing")
	}
	batched := NewTree(game.White)
	bs := NewSearch(batched, game.Black, 300, h)
	run(t, bs, Evaluator[hashGame](&judgingEval{}), 5)
	if v := batched.Node(0).Visits; v != 300 || bs.Done() != 300 {
		t.Fatalf("batched terminal leaves: root %d visits, %d done, want 300", v, bs.Done())
	}
	var sum int32
	for _, c := range batched.Children(0) {
		sum += batched.Node(c).Visits
	}
	if sum != 299 {
		t.Fatalf("batched terminal leaves: children hold %d visits, want 299", sum)
	}
	if bs.Bytes() < int64(batched.Len()) {
		t.Fatalf("Bytes %d for %d nodes", bs.Bytes(), batched.Len())
	}
}
