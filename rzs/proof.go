package rzs

import "lifezero/game"

// This file holds the AND/OR proof rule of paper 001 (the internal OR and
// AND nodes of its RZS section, Algorithm 1 of its appendix) once, for all
// three forms of the search: the MCTS form (mcSolver.update), the
// depth-first AchieveGoal (dfsSolver) and df-pn (pnNode). Each form keeps
// the node's state where it keeps its nodes and applies its proven
// children through nodeProof.apply.
//
// Where the forms used to disagree, the rule settles it:
//
//   - History dependence (a proof resting on a move barred by positional
//     superko): a node's proof rests only on the children its proof uses:
//     the winning child of a won OR node, the refuting child of a lost AND
//     node, every refuted move of a lost OR node and every refuted defence
//     of a won AND node. The MCTS form used to mark a node with every
//     applied child's dependence, so a won OR node whose earlier lost
//     child rested on the history was kept out of the transposition and
//     pattern tables; the depth-first forms were exact. The exact rule is
//     as sound (a proof never reads the children it does not use) and keeps
//     more proofs.
//   - The must-play rule applies to a won child whose move is in the
//     must-play region M (paper 001, "Internal AND-Nodes": "a child n' via
//     a legal move m in M"). df-pn used to count every won child, also one
//     outside M (found in its table when the node was created), so that
//     child's zone joined the union and its dependence the proof: sound
//     (a larger zone), but not the paper's zone and not the other forms'.
//     A won child outside M is now passed over: some refuted null move's
//     zone already answers it.

// proofRules is what the proof rule needs of the problem.
type proofRules struct {
	region *game.PointSet // the problem's region (DilateAND)
	living game.Color
	noRZ   bool          // no zones: a win's zone is all, and no move is null
	all    game.PointSet // every point of the board
}

func newProofRules(pr *game.Problem, noRZ bool) proofRules {
	return proofRules{region: &pr.Region, living: pr.Living(), noRZ: noRZ, all: pr.Start.AllPoints()}
}

// provenChild is a proven child as the rule reads it.
type provenChild struct {
	move   game.Point
	status Status         // Win or Loss
	zone   *game.PointSet // its zone when won
	dep    bool           // its proof rests on the path's superko history
	next   *game.Position // its position
}

// nodeProof is the proof state of one unproven node: an OR node (the
// living side to move) counts its moves not yet refuted, an AND node (the
// killer to move) keeps its must-play region and the union of its refuted
// moves' zones in an andState. It is a plain value that points at the
// form's storage, so applying a proof allocates nothing.
type nodeProof struct {
	or  bool
	pos *game.Position // the node's position
	// open counts an OR node's moves not yet refuted, the child being
	// applied included.
	open int
	// dep says whether the node's refuted moves so far (the lost children
	// of an OR node, the won ones of an AND node) rest on the history.
	dep bool
	and *andState // an AND node's state; read only for a won child
}

// apply applies a proven child to the node and returns the node's status
// after it (Unknown while unproven), its zone when won, and whether its
// proof rests on the path's history. The node's own superko bans are the
// caller's to add.
func (p *nodeProof) apply(r *proofRules, c provenChild) (Status, game.PointSet, bool) {
	if p.or {
		if c.status == Win {
			if r.noRZ {
				return Win, r.all, c.dep
			}
			return Win, DilateOR(p.pos, c.next, c.move, *c.zone), c.dep
		}
		p.dep = p.dep || c.dep // every refuted move is part of the loss
		p.open--
		if p.open > 0 {
			return Unknown, game.PointSet{}, false
		}
		return Loss, game.PointSet{}, p.dep
	}
	if c.status == Loss {
		return Loss, game.PointSet{}, c.dep
	}
	a := p.and
	if !a.has(c.move) {
		return Unknown, game.PointSet{}, false // pruned already (see the file comment)
	}
	p.dep = p.dep || c.dep // every refuted defence, null moves included, is part of the win
	a.refute(c.move, *c.zone, !r.noRZ && nullReply(p.pos, c.next, c.zone))
	if !a.mustPlay.Empty() || a.mustPass {
		return Unknown, game.PointSet{}, false
	}
	if r.noRZ {
		return Win, r.all, p.dep
	}
	return Win, DilateAND(p.pos, a.union, r.region, r.living), p.dep
}

// andState is the proof bookkeeping of an AND node (the killer to move)
// once one of its children is proven: until then every child is in the
// must-play region and the union of proven zones is empty, so most AND
// nodes never need one.
type andState struct {
	// mustPlay is the AND node's must-play region M less its refuted moves
	// (points; mustPass says whether the pass is still in it): the node is
	// won when it is empty.
	mustPlay game.PointSet
	mustPass bool
	union    game.PointSet // union of the refuted moves' zones
}

// inMustPlay reports whether m is in an AND node's must-play region; a node
// without a state (no child proven yet) has all its moves in it.
func inMustPlay(ns *andState, m game.Point) bool { return ns == nil || ns.has(m) }

// newAndState returns the state of an AND node before any proof: every
// move (the points of moves, and the pass) is in the must-play region.
func newAndState(moves game.PointSet) andState { return andState{mustPlay: moves, mustPass: true} }

// has reports whether m is in the must-play region and unrefuted.
func (a *andState) has(m game.Point) bool {
	if m == game.Pass {
		return a.mustPass
	}
	return a.mustPlay.Has(m)
}

// refute counts a refuted killer move with its zone (paper 001, Algorithm
// 1): a null move shrinks the must-play region to the zone (which does not
// hold the move: see nullReply), another move leaves it. The zone joins
// the union the node's own zone is dilated from.
func (a *andState) refute(move game.Point, zone game.PointSet, null bool) {
	switch {
	case null:
		a.mustPlay = a.mustPlay.Intersect(zone)
		a.mustPass = false
	case move == game.Pass:
		a.mustPass = false
	default:
		a.mustPlay.Remove(move)
	}
	a.union = a.union.Union(zone)
}
