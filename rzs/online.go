package rzs

import "lifezero/game"

// ProofLearner is a MoveRanker that learns during a search from the
// search's verdicts, so that its later priors follow what the search has
// proven about the problem's own shapes (Options.Online); one that
// several searches share (Options.Learner) learns from all of them.
type ProofLearner interface {
	MoveRanker
	// Learn records that in pos, winner won for the side to move where
	// the moves of others, visited too, did not. It must not keep pos or
	// others, which the solver reuses. Within one search the calls come
	// one at a time (under the tree's lock), while Rank may run beside
	// them on other threads; a learner that several searches share
	// (Options.Learner) has their calls at once.
	Learn(pos *game.Position, winner game.Point, others []game.Point)
}

// LearnerSource is a MoveRanker that can make a ProofLearner from itself:
// a fresh one for each search, unless the searches are given one to share.
type LearnerSource interface {
	NewLearner() ProofLearner
}

// withLearner returns o with, when o.Online and o's evaluator is a Learned
// whose ranker is a LearnerSource, that ranker replaced by o.Learner or
// else a fresh learner for this search, and the learner (nil otherwise).
func withLearner(o Options) (Options, ProofLearner) {
	if !o.Online {
		return o, nil
	}
	l, ok := o.Evaluator.(Learned)
	if !ok {
		return o, nil
	}
	src, ok := l.Ranker.(LearnerSource)
	if !ok {
		return o, nil
	}
	learner := o.Learner
	if learner == nil {
		learner = src.NewLearner()
	}
	l.Ranker = learner
	o.Evaluator = l
	return o, learner
}

// learn hands the learner the verdict of a parent that child's proof has
// just proven for its side to move: at the living side's node proven won
// (at the killer's proven lost for the living side), child's move won, and
// the node's other visited children, refuted or not proven, did not. Not
// proven is no proof that a move fails, but an ordering is all the learner
// makes of it: the move that gave the quicker proof should come first in
// positions like this one. A node proven the other way (every move
// refuted) compares nothing, and neither does one where no other move was
// visited: the learner is only told where the search had to look further.
func (s *mcSolver) learn(parent *pathStep, child *pathStep, st Status) {
	if s.isOR(parent.id) != (st == Win) {
		return
	}
	lost := s.lost[:0]
	s.tree.visited(parent.id, func(r int32) {
		if r != child.id && s.status(r) != st {
			lost = append(lost, s.tree.node(r).move)
		}
	})
	s.lost = lost
	if len(lost) > 0 {
		s.learner.Learn(parent.pos, s.tree.node(child.id).move, lost)
	}
}
