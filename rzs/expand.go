package rzs

import (
	"lifezero/game"
	"lifezero/mcts"
)

// expand judges the last node of path, proves it when the goal is decided
// or the transposition table knows it, and otherwise creates its children
// with the evaluator's priors. It then propagates proofs and backs up the
// value.
func (s *mcSolver) expand(path []pathStep) {
	leaf := path[len(path)-1]
	id, pos := leaf.id, leaf.pos
	standing := s.pr.Crucial
	if len(path) > 1 {
		parent := path[len(path)-2]
		standing = s.pr.Standing(pos, &s.state[parent.id].standing)
		ch := changedPoints(parent.pos, pos)
		s.change[id] = &ch
	}
	s.nodes++
	key := ttKey(pos, &standing)
	j := s.pr.Judge(pos, &standing)
	switch {
	case j.Outcome == game.LivingWins:
		s.prove(id, Win, j.Zone)
	case j.Outcome == game.LivingFails:
		s.prove(id, Loss, game.PointSet{})
	default:
		if e, ok := s.tt.Lookup(key); ok {
			s.prove(id, e.status, e.zone)
		}
	}
	if s.status[id] == Unknown {
		value := s.createChildren(id, pos, standing)
		if s.status[id] == Unknown && s.opts.Table != nil && id != 0 {
			s.lookupTable(int32(id), pos)
		}
		if s.status[id] == Unknown {
			s.tree.Backup(id, float64(value), s.living, false)
			return
		}
	} else if !s.historyDep[id] {
		s.tt.Store(key, ttEntry{s.status[id], s.zoneOf(id)})
		if j.Outcome == game.LivingWins && s.opts.Table != nil {
			s.opts.Table.Insert(pos, &standing, j.Zone)
		}
	}
	s.propagate(path)
	s.backupProven(id)
}

// createChildren expands an undecided node and returns the evaluator's value.
func (s *mcSolver) createChildren(id mcts.NodeID, pos *game.Position, standing game.PointSet) float32 {
	toMove := pos.ToMove()
	moves, barred := pos.LegalMovesSuperko(nil, &s.pr.Region)
	if barred > 0 {
		// Whatever this node proves may hold only for positions reached
		// with the same history: Lemma 1's zone patterns and whole-board
		// table entries must not carry it to other paths.
		s.historyDep[id] = true
	}
	or := toMove == s.living
	if !or {
		// The killer may always pass; the living side never needs to, since
		// a pass lets the killer end the game by passing too.
		moves = append(moves, game.Pass)
	}
	ns := &nodeState{standing: standing, mustPass: true}
	s.state[id] = ns
	if len(moves) == 0 {
		s.status[id] = Loss // the living side has no move left
		return 0
	}
	for _, m := range moves {
		if m != game.Pass {
			ns.mustPlay.Add(m)
		}
	}
	priors, value := s.opts.Evaluator.Evaluate(pos, s.pr, moves)
	s.tree.Expand(id, toMove, moves, priors)
	for len(s.status) < s.tree.Len() {
		s.status = append(s.status, Unknown)
	}
	return value
}

func (s *mcSolver) prove(id mcts.NodeID, st Status, zone game.PointSet) {
	s.status[id] = st
	if st == Win {
		if s.opts.NoRZ {
			zone = s.all
		}
		s.zone[id] = &zone
	}
}

func (s *mcSolver) zoneOf(id mcts.NodeID) game.PointSet {
	if z := s.zone[id]; z != nil {
		return *z
	}
	return game.PointSet{}
}

// backupProven backs up the exact value of a proven node.
func (s *mcSolver) backupProven(id mcts.NodeID) {
	v := 0.0
	if s.status[id] == Win {
		v = 1
	}
	s.tree.Backup(id, v, s.living, false)
}

// propagate carries a proof from the end of path towards the root for as
// long as parents become proven.
func (s *mcSolver) propagate(path []pathStep) {
	for i := len(path) - 1; i > 0; i-- {
		child, parent := path[i], path[i-1]
		if s.status[child.id] == Unknown || s.status[parent.id] != Unknown {
			return
		}
		st := s.update(parent, child)
		if st == Unknown {
			return
		}
		s.status[parent.id] = st
		if s.historyDep[parent.id] {
			continue // the proof holds for this path's history only
		}
		standing := &s.state[parent.id].standing
		s.tt.Store(ttKey(parent.pos, standing), ttEntry{st, s.zoneOf(parent.id)})
		if st == Win && s.opts.Table != nil && !s.opts.NoRZ {
			s.opts.Table.Insert(parent.pos, standing, s.zoneOf(parent.id))
		}
	}
}

// update applies a newly proven child to its parent and returns the
// parent's new status.
func (s *mcSolver) update(parent, child pathStep) Status {
	cst := s.status[child.id]
	// Every child proof applied here becomes part of the parent's proof
	// (the winning or refuting child, each refuted defence and the null
	// moves whose zones prune their siblings), and with it any dependence
	// on the path's history.
	if s.historyDep[child.id] {
		s.historyDep[parent.id] = true
	}
	move := s.tree.Node(child.id).Move
	if s.isOR(parent.id) {
		if cst == Win {
			z := s.all
			if !s.opts.NoRZ {
				z = DilateOR(parent.pos, child.pos, move, *s.zone[child.id])
			}
			s.zone[parent.id] = &z
			return Win
		}
		for _, c := range s.tree.Children(parent.id) {
			if s.status[c] != Loss {
				return Unknown
			}
		}
		return Loss
	}
	if cst == Loss {
		return Loss
	}
	ns := s.state[parent.id]
	cz := s.zone[child.id]
	if !s.opts.NoRZ && isNullMove(s.change[child.id], cz) {
		ns.mustPlay = ns.mustPlay.Intersect(*cz)
		ns.mustPass = false
	} else if move == game.Pass {
		ns.mustPass = false
	} else {
		ns.mustPlay.Remove(move)
	}
	ns.union = ns.union.Union(*cz)
	for _, c := range s.tree.Children(parent.id) {
		if s.inMustPlay(ns, s.tree.Node(c).Move) && s.status[c] != Win {
			return Unknown
		}
	}
	z := s.all
	if !s.opts.NoRZ {
		z = DilateAND(parent.pos, ns.union, &s.pr.Region, s.living)
	}
	s.zone[parent.id] = &z
	return Win
}
