package rzs

import (
	"math"

	"lifezero/game"
)

// leafWork is the part of a leaf's expansion that reads only its position
// and the transposition table: the judgement, the table's answer, the legal
// moves and the evaluator's priors and value. The parallel solver computes
// it outside its lock, the sequential one for a batch of leaves at once (see
// EvaluateBatch); expandWith and settle compute what is not there yet.
type leafWork struct {
	judged bool
	j      game.Judgement
	looked bool // the transposition table was asked: ttOK, ttStatus, ttZone
	ttOK   bool
	ttSt   Status
	ttZone int32
	moved  bool // moves, barred, priors and value are set
	moves  []game.Point
	barred int
	priors []float32
	value  float32
	view   game.Problem // the problem as it stands at the leaf, for the evaluator
}

// reset readies w for another leaf, keeping the moves' storage: the moves
// are copied into the tree at expansion, so one slice serves every leaf.
func (w *leafWork) reset() { *w = leafWork{moves: w.moves[:0]} }

// judge fills in the judgement.
func (w *leafWork) judge(pr *game.Problem, pos *game.Position, standing *game.PointSet, safety bool) {
	w.j, w.judged = judge(pr, pos, standing, safety), true
}

// generate fills in the moves and the evaluation of pos, whose standing
// crucial stones are standing. The killer may always pass; the living side
// never needs to, since a pass lets the killer end the game by passing
// too.
func (w *leafWork) generate(pr *game.Problem, eval Evaluator, pos *game.Position, standing *game.PointSet) {
	w.legal(pr, pos, standing)
	if len(w.moves) > 0 {
		w.priors, w.value = eval.Evaluate(pos, &w.view, w.moves)
	}
	w.moved = true
}

// legal fills in the moves and the evaluator's view, for generate or a
// batch evaluation.
func (w *leafWork) legal(pr *game.Problem, pos *game.Position, standing *game.PointSet) {
	w.moves, w.barred = pos.LegalMovesSuperko(w.moves[:0], &pr.Region)
	if pos.ToMove() != pr.Living() {
		w.moves = append(w.moves, game.Pass)
	}
	if len(w.moves) > 0 {
		pr.StandingView(&w.view, standing)
	}
}

// expandWith settles the last node of path with what w already holds and
// backs its value up.
func (s *mcSolver) expandWith(path []pathStep, w *leafWork) {
	v, _ := s.settle(path, w)
	s.tree.backup(path[len(path)-1].id, v, s.living)
}

// settle judges the last node of path, proves it when the goal is decided
// or the transposition table knows it, and otherwise creates its children
// with the evaluator's priors (the pattern table may prove it then). It
// stores a proof in the tables and propagates it, and returns the value to
// back up (the exact one of a proven node) and whether the node is proven.
// It counts the node.
func (s *mcSolver) settle(path []pathStep, w *leafWork) (value float64, proven bool) {
	leaf := &path[len(path)-1]
	id, pos := leaf.id, leaf.pos
	standing := &leaf.standing
	s.nodes++
	key := ttKey(pos, standing)
	if !w.judged {
		w.judge(s.pr, pos, standing, s.opts.Safety)
	}
	j := w.j
	switch {
	case j.Outcome == game.LivingWins:
		s.prove(id, Win, s.newZone(j.Zone))
	case j.Outcome == game.LivingFails:
		s.prove(id, Loss, 0)
	default:
		if !w.looked {
			w.ttSt, w.ttZone, w.ttOK = s.tt.lookup(key)
			w.looked = true
		}
		if w.ttOK {
			s.prove(id, w.ttSt, w.ttZone)
		}
	}
	if s.status(id) == Unknown {
		value := s.createChildren(id, pos, standing, w)
		if s.status(id) == Unknown && s.opts.Table != nil && id != rootNode {
			s.lookupTable(id, pos, standing)
		}
		if s.status(id) == Unknown {
			return s.discounted(value, len(path)-1), false
		}
	} else if !s.historyDep(id) {
		s.tt.store(key, s.status(id), s.tree.node(id).zone)
		if j.Outcome == game.LivingWins && s.opts.Table != nil {
			s.opts.Table.Insert(pos, standing, j.Zone)
		}
	}
	s.propagate(path)
	return s.provenValue(id), true
}

// discounted is an unproven leaf's value at depth plies from the root,
// lowered by Options.DepthDiscount per ply.
func (s *mcSolver) discounted(value float32, depth int) float64 {
	if s.opts.DepthDiscount == 1 {
		return float64(value)
	}
	return float64(value) * math.Pow(s.opts.DepthDiscount, float64(depth))
}

// createChildren expands an undecided node and returns the evaluator's value.
func (s *mcSolver) createChildren(id int32, pos *game.Position, standing *game.PointSet, w *leafWork) float32 {
	if !w.moved {
		w.generate(s.pr, s.leafEval, pos, standing)
	}
	n := s.tree.node(id)
	if w.barred > 0 {
		// Whatever this node proves may hold only for positions reached
		// with the same history: Lemma 1's zone patterns and whole-board
		// table entries must not carry it to other paths.
		n.flags |= flagHistoryDep
	}
	n.flags |= flagExpanded
	if len(w.moves) == 0 {
		n.status = Loss // the living side has no move left
		return 0
	}
	s.tree.expand(id, pos.ToMove(), w.moves, w.priors)
	if s.refiner != nil {
		n.flags |= flagCoarse
	}
	return w.value
}

// newZone stores a won node's zone (all points without zones).
func (s *mcSolver) newZone(z game.PointSet) int32 {
	if s.opts.NoRZ {
		return s.allZone
	}
	return s.zones.add(z)
}

// prove sets a node's status and, for a win, its zone reference.
func (s *mcSolver) prove(id int32, st Status, zone int32) {
	n := s.tree.node(id)
	n.status = st
	if st == Win {
		if s.opts.NoRZ {
			zone = s.allZone
		}
		n.zone = zone
	}
	s.proven(id)
}

// proven releases what an unproven node kept for its proof: its AND state.
func (s *mcSolver) proven(id int32) {
	n := s.tree.node(id)
	if n.aux != 0 {
		s.and.release(n.aux)
		n.aux = 0
	}
}

func (s *mcSolver) zoneOf(id int32) game.PointSet {
	return s.zones.get(s.tree.node(id).zone)
}

// backupProven backs up the exact value of a proven node.
func (s *mcSolver) backupProven(id int32) {
	s.tree.backup(id, s.provenValue(id), s.living)
}

// provenValue is the value of a proven node for the living side.
func (s *mcSolver) provenValue(id int32) float64 {
	if s.status(id) == Win {
		return 1
	}
	return 0
}

// propagate carries a proof from the end of path towards the root for as
// long as parents become proven.
func (s *mcSolver) propagate(path []pathStep) {
	for i := len(path) - 1; i > 0; i-- {
		child, parent := &path[i], &path[i-1]
		if s.status(child.id) == Unknown || s.status(parent.id) != Unknown {
			return
		}
		st := s.update(parent, child)
		if st == Unknown {
			return
		}
		s.tree.node(parent.id).status = st
		s.proven(parent.id)
		if s.learner != nil {
			s.learn(parent, child, st)
		}
		if s.historyDep(parent.id) {
			continue // the proof holds for this path's history only
		}
		standing := &parent.standing
		s.tt.store(ttKey(parent.pos, standing), st, s.tree.node(parent.id).zone)
		if st == Win && s.opts.Table != nil && !s.opts.NoRZ {
			s.opts.Table.Insert(parent.pos, standing, s.zoneOf(parent.id))
		}
	}
}

// update applies a newly proven child to its parent through the proof
// rule (nodeProof.apply) and returns the parent's new status. The parent's
// state lives in the tree: an OR node's refuted moves are its lost visited
// children, an AND node's must-play state is in the andState arena from its
// first refuted move on, and flagKidDep says whether a refuted move so far
// rests on the history.
func (s *mcSolver) update(parent, child *pathStep) Status {
	cn := s.tree.node(child.id)
	c := provenChild{move: cn.move, status: cn.status, dep: cn.flags&flagHistoryDep != 0, next: child.pos}
	var cz game.PointSet
	if c.status == Win {
		cz = s.zoneOf(child.id)
		c.zone = &cz
	}
	pn := s.tree.node(parent.id)
	p := nodeProof{or: s.isOR(parent.id), pos: parent.pos, dep: pn.flags&flagKidDep != 0}
	if p.or && c.status == Loss {
		n, _ := s.tree.kidsOf(parent.id)
		p.open = n.n + 1 // the child is lost already: counted below
		s.tree.visited(parent.id, func(r int32) {
			if s.status(r) == Loss {
				p.open--
			}
		})
	} else if c.status == Win {
		if pn.aux == 0 {
			a := s.and.alloc()
			*s.and.at(a) = newAndState(s.tree.childMoves(parent.id))
			pn = s.tree.node(parent.id)
			pn.aux = a
		}
		p.and = s.and.at(pn.aux)
	}
	st, z, dep := p.apply(&s.rules, c)
	if p.dep {
		pn.flags |= flagKidDep
	}
	if st == Unknown {
		return Unknown
	}
	if dep {
		pn.flags |= flagHistoryDep
	}
	if st == Win {
		pn.zone = s.newZone(z)
	}
	return st
}

// refine gives node id, the last of the current descent, its refined
// priors (PriorRefiner) before the search first chooses among its
// children. No child has a record yet (records come with selection), so
// the children block is simply written again.
func (s *mcSolver) refine(id int32) {
	t := s.tree
	n := t.node(id)
	n.flags &^= flagCoarse
	c, ok := t.kidsOf(id)
	p := s.descending
	if !ok || p == nil || p.path[len(p.path)-1].id != id || n.firstRec != 0 {
		// Not reached: refine runs at the descent's last node, which
		// expansion left with children and no records. The coarse
		// priors still order the search soundly.
		return
	}
	moves := t.moves(&c, s.refiningMoves[:0])
	s.refiningMoves = moves
	s.refining = s.refining[:0]
	for i := range moves {
		s.refining = append(s.refining, c.priorOf(i))
	}
	s.refiner.Refine(p.path[len(p.path)-1].pos, moves, s.refining)
	player := c.player
	s.freeKids(id)
	t.expand(id, player, moves, s.refining)
}
