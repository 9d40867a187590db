package rzs

import (
	"encoding/binary"
	"math"
	mbits "math/bits"

	"lifezero/game"
	"lifezero/mcts"
)

// noneUnvisited is memNode.nextKid when every unvisited child is skipped.
const noneUnvisited = math.MaxUint16

// childSet is a set of a node's children by index: every board point
// and the pass.
type childSet [(game.MaxCells + 1 + 63) / 64]uint64

func (s *childSet) add(i int)      { s[i>>6] |= 1 << uint(i&63) }
func (s *childSet) has(i int) bool { return s[i>>6]&(1<<uint(i&63)) != 0 }

// selectChild returns the index, move and record (0 if unvisited) of the
// child of id with the highest PUCT score, as mcts.Tree.SelectChild computes it
// (the first in child order on ties), passing over the children that
// skip.skip names. ok is false when every child is skipped.
//
// It scores the visited children one by one and the unvisited ones as one:
// they all score fpu + cexp·prior, so the best of them is the one of
// highest prior (bestUnvisited), found without reading a hundred children
// on every descent. The choice is exactly the full scan's.
func (t *memTree) selectChild(id int32, skip skipper) (idx int, move game.Point, rec int32, ok bool) {
	c, has := t.kidsOf(id)
	if !has {
		return 0, game.NoPoint, 0, false
	}
	parent := t.node(id)
	cexp, fpu, fewest := t.selectionTerms(id, &c, skip)
	best, bestScore := -1, math.Inf(-1)
	var bestRec int32
	var seen childSet // the visited children
	k := 0            // visited children met so far: the index into t.left
	for r := parent.firstRec; r != 0; {
		rn := t.node(r)
		i := int(rn.childIdx)
		seen.add(i)
		k++
		if !skip.skip(rn.move, r) {
			visits, q := t.stats(rn, r, fpu)
			score := q + cexp*float64(c.priorOf(i))/float64(1+visits)
			if fewest > 0 && t.left[k-1] > 0 {
				score += t.proofBonus * float64(fewest) / float64(t.left[k-1])
			}
			// The records are in child order, so > keeps the first.
			if score > bestScore {
				best, bestScore, bestRec = i, score, r
			}
		}
		r = rn.nextSib
	}
	if u := t.bestUnvisited(id, &c, skip, &seen, fpu, cexp); u >= 0 {
		score := unvisitedScore(fpu, cexp, c.priorOf(u))
		if score > bestScore || (score == bestScore && u < best) {
			best, bestScore, bestRec = u, score, 0
		}
	}
	if best < 0 {
		return 0, game.NoPoint, 0, false
	}
	if bestRec != 0 {
		return best, t.node(bestRec).move, bestRec, true
	}
	return best, t.moveAt(&c, best), 0, true
}

// selectionTerms returns what every child's score at node id shares: the
// exploration factor, the first-play urgency of its unvisited children,
// and the proof bonus's fewest killer moves left at a visited child (0:
// none), with t.left filled for the visited children in child order.
func (t *memTree) selectionTerms(id int32, c *children, skip skipper) (cexp, fpu float64, fewest int) {
	parent := t.node(id)
	pv := parent.visits
	cexp = mcts.Exploration(pv) * math.Sqrt(float64(pv)+1)
	fpu = 1 - parent.q(0.5)
	if t.fpuReduction > 0 {
		fpu -= t.fpuReduction * math.Sqrt(t.visitedPrior(id, c))
	}
	if skip.or && t.proofBonus > 0 {
		fewest = t.movesLeft(id, skip)
	}
	return cexp, fpu, fewest
}

// unvisitedScore is the PUCT score of a child with no visits, written as
// mcts.Tree scores it (the visits' 1+0 included), so that both round alike.
func unvisitedScore(fpu, cexp float64, prior float32) float64 {
	return fpu + cexp*float64(prior)/float64(1)
}

// bestUnvisited returns the unvisited child of id (not in seen) that skip
// does not name with the highest unvisitedScore, the first in child order
// on ties, or -1 for none.
//
// The score rises with the prior, so that child is the one of highest
// prior, the first on ties, which the node caches in nextKid. The cache
// stays right while the child stays unvisited and unskipped, because the
// set of such children only shrinks while the children block lives: the
// block and its priors are written only by expand, which clears the cache
// (refine and a reclaimed node expanded anew go through it); a child gets a
// record only when selected, and records are freed only with the block;
// and an AND node's must-play region only shrinks (andState.refute). The
// one way it grows, a proven node's state released (proven), never meets a
// selection: the search does not descend into a proven node. When the
// cached child leaves the set the scan runs again, about once per child
// visited rather than once per descent.
//
// One case departs from "the highest prior": two priors so close, or so
// small beside fpu, that their scores round to the same float64, where the
// full scan keeps the first in child order. Below the bound where that can
// happen (cexp·prior within 2⁻²⁶ of the score's size, against float32
// priors that differ by at least 2⁻²⁴ of themselves), the scores are
// compared as computed.
func (t *memTree) bestUnvisited(id int32, c *children, skip skipper, seen *childSet, fpu, cexp float64) int {
	n := t.node(id)
	if n.nextKid == noneUnvisited {
		return -1
	}
	u := int(n.nextKid) - 1
	if u < 0 || seen.has(u) || (skip.prunes() && skip.skip(t.moveAt(c, u), 0)) {
		u = t.scanUnvisited(c, skip, seen, func(i int) float64 { return float64(c.priorOf(i)) })
		if u < 0 {
			n.nextKid = noneUnvisited
			return -1
		}
		n.nextKid = uint16(u + 1)
	}
	if term := cexp * float64(c.priorOf(u)); term <= 0x1p-26*(math.Abs(fpu)+term) {
		return t.scanUnvisited(c, skip, seen, func(i int) float64 { return unvisitedScore(fpu, cexp, c.priorOf(i)) })
	}
	return u
}

// scanUnvisited returns the unvisited, unskipped child of highest key, the
// first in child order on ties, or -1 for none.
func (t *memTree) scanUnvisited(c *children, skip skipper, seen *childSet, key func(i int) float64) int {
	t.scratch = t.moves(c, t.scratch[:0])
	best, bestKey := -1, math.Inf(-1)
	for i, m := range t.scratch {
		if seen.has(i) || skip.skip(m, 0) {
			continue
		}
		if k := key(i); k > bestKey {
			best, bestKey = i, k
		}
	}
	return best
}

// moveAt returns the move of child i: the i-th region point of the
// children bitset in rank order, or the pass after them.
func (t *memTree) moveAt(c *children, i int) game.Point {
	for w := 0; w*8 < len(c.words); w++ {
		bits := binary.LittleEndian.Uint64(c.words[8*w:])
		if k := mbits.OnesCount64(bits); i >= k {
			i -= k
			continue
		}
		for ; i > 0; i-- {
			bits &= bits - 1
		}
		return t.rankPoint[w*64+mbits.TrailingZeros64(bits)]
	}
	return game.Pass // i is the pass, after every board move
}
