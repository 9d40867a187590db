package rzs

import (
	"context"
	"errors"
	"fmt"
	"time"
	"unsafe"

	"lifezero/game"
	"lifezero/mcts"
)

// EvalRequest is one position of a batch evaluation: the evaluator sets
// Priors (one per move) and Value as Evaluator.Evaluate returns them.
type EvalRequest struct {
	Pos     *game.Position
	Problem *game.Problem // the problem as it stands at Pos
	Moves   []game.Point
	Priors  []float32
	Value   float32
}

// BatchEvaluator is an Evaluator that evaluates several positions in one
// call, as a network does a batch. The sequential MCTS form hands it the
// leaves of a step (Options.Batch); other evaluators are asked one leaf at
// a time.
type BatchEvaluator interface {
	Evaluator
	EvaluateBatch(reqs []EvalRequest) error
}

// leafPath is a descent's state in mcts.Search: the path from the root with
// each step's position and standing crucial stones, which the proof rules
// read when the leaf is settled, and the leaf's work. Each leaf in flight
// has its own (taken from mcSolver.freePaths, given back when the leaf is
// settled), so that a batch's or a worker's leaves keep their positions
// until then. Positions live in frames: a frame is a
// plain copy of its parent's, so it shares the superko history's spare
// capacity and each move appends its hash in place, like a stack; frames[0]
// is a copy of the start with room reserved for the deepest line, so a
// descent allocates nothing.
type leafPath struct {
	frames []game.Position
	path   []pathStep
	w      leafWork
}

// runSearch is the sequential MCTS form: mcts.Search descends memTree
// (selection, the skipped proven children, the backup) and the solver
// settles the leaves it returns (EvaluateBatch), up to Options.Batch at a
// time, checking the budget, the deadline and the memory bound between
// steps. It returns whether the search stopped early and, for the memory
// bound, why.
func (s *mcSolver) runSearch(ctx context.Context, deadline time.Time) (aborted bool, reason string) {
	batch := max(s.opts.Batch, 1)
	if batch > 1 {
		// Leaves in flight steer the other descents of a step away.
		s.tree.virtual = make(map[int32]int32)
		defer func() { s.tree.virtual = nil }()
	}
	hold := turn{slots: s.opts.Slots}
	if !hold.start(ctx) {
		return true, ""
	}
	defer hold.end()
	tick := -1 // the context and the deadline are checked every 256 nodes
	for s.status(rootNode) == Unknown && s.nodes < s.opts.Budget {
		if t := s.nodes / 256; t != tick {
			// A step settles up to batch nodes: a count may skip 256·k.
			tick = t
			if tick > 0 && !hold.pass(ctx) {
				return true, ""
			}
			if ctx.Err() != nil || (!deadline.IsZero() && time.Now().After(deadline)) {
				return true, ""
			}
		}
		if s.mem.due(s.nodes) {
			if r := s.checkMemory(); r != "" {
				return true, r
			}
		}
		if !s.step(batch) {
			break // nothing left to search (only over-deep lines remain)
		}
	}
	return false, ""
}

// step runs up to 2·batch−1 descents, queueing up to batch leaves (fewer
// when a descent meets a queued leaf, or the budget would be passed), and
// settles the leaves. It reports false when the root has no selectable
// child left and no leaf was queued.
func (s *mcSolver) step(batch int) bool {
	s.batch = s.batch[:0]
	stuck := false
	for tries := 0; tries < 2*batch-1 && len(s.batch) < batch && s.nodes+len(s.batch) < s.opts.Budget && s.status(rootNode) == Unknown; tries++ {
		lf, collided, err := s.simulate()
		if errors.Is(err, mcts.ErrNoChild) {
			// Every child of the root is proven or pruned (an inner node
			// cannot be stuck after propagation); a queued leaf may open
			// the root again.
			stuck = len(s.batch) == 0
			break
		}
		if err != nil {
			// Children are legal moves of their parent's position.
			panic("rzs: " + err.Error())
		}
		if collided {
			break
		}
		if lf != nil {
			s.batch = append(s.batch, lf)
		}
	}
	if err := mcts.Evaluate(s, s.batch); err != nil {
		panic("rzs: " + err.Error()) // EvaluateBatch fails only through a BatchEvaluator, which it reports
	}
	s.batch = s.batch[:0]
	return !stuck
}

// simulate runs one descent of the search; a descent that returns no leaf
// gives its path back.
func (s *mcSolver) simulate() (*mcts.Leaf[*leafPath], bool, error) {
	lf, collided, err := s.search.Simulate()
	if lf == nil {
		s.freePaths = append(s.freePaths, s.descending)
	}
	return lf, collided, err
}

// searchHooks returns the MCTS form's hooks.
func (s *mcSolver) searchHooks() mcts.Hooks[*leafPath] {
	h := mcts.Hooks[*leafPath]{Root: s.rootPath, Play: s.playPath, Judge: s.tooDeep}
	if s.opts.Table != nil {
		h.Decided = s.decidedByTable
	}
	return h
}

// rootPath starts a descent in a free path.
func (s *mcSolver) rootPath() *leafPath {
	var p *leafPath
	if k := len(s.freePaths); k > 0 {
		p, s.freePaths = s.freePaths[k-1], s.freePaths[:k-1]
	} else {
		p = &leafPath{frames: make([]game.Position, s.opts.MaxDepth+2)}
		s.paths = append(s.paths, p)
	}
	s.descending = p
	s.pr.Start.CopyTo(&p.frames[0])
	p.frames[0].Reserve(len(p.frames))
	p.path = append(p.path[:0], pathStep{rootNode, &p.frames[0], s.pr.Crucial})
	return p
}

// playPath steps into the child the tree selected last.
func (s *mcSolver) playPath(st **leafPath, m game.Point) error {
	p := *st
	cur := &p.path[len(p.path)-1]
	next := &p.frames[len(p.path)]
	*next = *cur.pos
	if err := next.Play(m); err != nil {
		return fmt.Errorf("child move illegal: %w", err)
	}
	p.path = append(p.path, pathStep{s.tree.selected, next, s.pr.Standing(next, &cur.standing)})
	return nil
}

// tooDeep ends a line longer than MaxDepth: it stays unproven, a draw for
// the values.
func (s *mcSolver) tooDeep(st **leafPath) (float64, bool) {
	return 0.5, len((*st).path) > s.opts.MaxDepth
}

// decidedByTable asks the pattern table about an expanded, unproven node
// on the way down and propagates a proof it gives.
func (s *mcSolver) decidedByTable(_ mcts.NodeID, st **leafPath) (float64, bool) {
	p := *st
	cur := &p.path[len(p.path)-1]
	if s.status(cur.id) != Unknown || !s.lookupTable(cur.id, cur.pos, &cur.standing) {
		return 0, false
	}
	s.propagate(p.path)
	return s.provenValue(cur.id), true
}

// EvaluateBatch implements mcts.Evaluator: it judges every leaf and asks
// the transposition table, evaluates the undecided ones in one call of a
// BatchEvaluator (else one at a time), and then settles each leaf in turn
// (settle: proofs, children, table stores, propagation), leaving the
// backup to the search. A proven leaf becomes a game end with its exact
// value; the search gets no moves, since settle has created the children.
func (s *mcSolver) EvaluateBatch(leaves []*mcts.Leaf[*leafPath]) error {
	s.reqs, s.reqWork = s.reqs[:0], s.reqWork[:0]
	for _, lf := range leaves {
		p := lf.State
		leaf := &p.path[len(p.path)-1]
		w := &p.w
		w.reset()
		w.judge(s.pr, leaf.pos, &leaf.standing, s.opts.Safety)
		if w.j.Outcome != game.Undecided {
			continue
		}
		w.ttSt, w.ttZone, w.ttOK = s.tt.lookup(ttKey(leaf.pos, &leaf.standing))
		w.looked = true
		if w.ttOK {
			continue
		}
		w.legal(s.pr, leaf.pos, &leaf.standing)
		w.moved = true
		if len(w.moves) > 0 {
			s.reqs = append(s.reqs, EvalRequest{Pos: leaf.pos, Problem: &w.view, Moves: w.moves})
			s.reqWork = append(s.reqWork, w)
		}
	}
	if err := s.evaluate(s.reqs); err != nil {
		return err
	}
	for i := range s.reqs {
		s.reqWork[i].priors, s.reqWork[i].value = s.reqs[i].Priors, s.reqs[i].Value
		s.reqs[i] = EvalRequest{}
	}
	for _, lf := range leaves {
		s.settleLeaf(lf)
	}
	return nil
}

// settleLeaf settles a leaf whose work is done and gives its path back.
func (s *mcSolver) settleLeaf(lf *mcts.Leaf[*leafPath]) {
	p := lf.State
	lf.ToMove = p.path[len(p.path)-1].pos.ToMove()
	lf.Value, lf.Terminal = s.settle(p.path, &p.w)
	s.freePaths = append(s.freePaths, p)
}

// evaluate fills in the requests' priors and values.
func (s *mcSolver) evaluate(reqs []EvalRequest) error {
	if err := evaluateAll(s.leafEval, reqs); err != nil {
		return fmt.Errorf("rzs: batch evaluation of %d leaves: %w", len(reqs), err)
	}
	return nil
}

// forget tells the search that a record was freed or unexpanded by the
// memory bound.
func (s *mcSolver) forget(id int32) {
	if s.search != nil {
		s.search.Forget(mcts.NodeID(id))
	}
}

// searchBytes is the memory of the MCTS form's search beside the
// tree: the search's per-node state and the leaves' frames.
func (s *mcSolver) searchBytes() int64 {
	var b int64
	if s.search != nil {
		b += s.search.Bytes()
	}
	for _, p := range s.paths {
		b += int64(len(p.frames)) * int64(unsafe.Sizeof(game.Position{}))
	}
	return b
}
