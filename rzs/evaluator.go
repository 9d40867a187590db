package rzs

import (
	"math"

	"lifezero/game"
)

// Evaluator guides the search: prior probabilities for the candidate moves
// of a position and the probability that the living side wins from it. The
// solver never takes a value as proof; values only order the search. The
// network and the feature models plug in through this interface.
//
// Every form of the solver passes pr as the problem's view at pos
// (game.Problem.StandingView): Crucial holds the crucial stones still
// standing there, as self-play gives the network, so an evaluator reads
// the standing stones from pr.Crucial. The view is the solver's scratch:
// an evaluator must not keep it.
type Evaluator interface {
	Evaluate(pos *game.Position, pr *game.Problem, moves []game.Point) (priors []float32, value float32)
}

// A PriorRefiner is an evaluator whose priors are a cheap evaluator's
// (Coarse), reweighted by a costlier step (Refine): Learned, whose feature
// ranker was two fifths of a solve's time. The sequential MCTS form
// evaluates a leaf with Coarse alone and refines the priors only when it
// first chooses among the node's children. Most leaves are never chosen
// from again (a proof, a refutation or a search that went elsewhere), and
// their refined priors were never read; the search is node for node the one
// Evaluate would give, since nothing reads a node's priors before that.
// (Under a memory bound that reclaims, it is not: coarse children blocks are
// smaller, so the bound is reached at another node.)
type PriorRefiner interface {
	Evaluator
	// Coarse is the evaluator of the value and the priors before Refine.
	Coarse() Evaluator
	// Refine reweights priors (Coarse's, for moves of pos) in place, as
	// Evaluate does after Coarse.
	Refine(pos *game.Position, moves []game.Point, priors []float32)
}

// Uniform gives every move the same prior and every position value 0.5.
type Uniform struct{}

// Evaluate implements Evaluator.
func (Uniform) Evaluate(_ *game.Position, _ *game.Problem, moves []game.Point) ([]float32, float32) {
	priors := make([]float32, len(moves))
	for i := range priors {
		priors[i] = 1 / float32(len(moves))
	}
	return priors, 0.5
}

// Heuristic is a cheap Go evaluator: moves on the liberties of weak blocks
// (either colour), next to the living side's stones and close to the crucial
// stones get more prior; the value grows with the liberties and eye space of
// the living side's blocks near the crucial stones.
type Heuristic struct{}

// Evaluate implements Evaluator.
func (Heuristic) Evaluate(pos *game.Position, pr *game.Problem, moves []game.Point) ([]float32, float32) {
	living := pr.Living()
	targets := pr.Crucial
	if targets.Empty() {
		targets = stonesOf(pos, living)
	}
	focus := focusStones(pos, &targets)
	var dist [game.MaxCells]uint8
	distanceMap(pos, &focus, &dist, far)
	var weakLibs [game.MaxCells]int8
	weakLiberties(pos, &weakLibs)
	priors := make([]float32, len(moves))
	sum := float32(0)
	for i, m := range moves {
		w := float32(passWeight)
		if m != game.Pass {
			w = heuristicWeight(pos, m, living, &dist, &weakLibs)
		}
		priors[i] = w
		sum += w
	}
	for i := range priors {
		priors[i] /= sum
	}
	return priors, livingValue(pos, living, &targets)
}

// passWeight is the Heuristic's unnormalised prior of a pass.
const passWeight = 0.02

// heuristicWeight is the Heuristic's unnormalised prior of move m, given the
// distance map to the fight and the weak-liberty counts. Life and death is
// fought next to the group: the prior falls off exponentially with the
// distance to it, so the far empty parts of a large region get little
// attention; liberties of weak blocks and eye-like points weigh more.
func heuristicWeight(pos *game.Position, m game.Point, living game.Color, dist *[game.MaxCells]uint8, weakLibs *[game.MaxCells]int8) float32 {
	w := nearness[min(max(int(dist[m])-1, 0), len(nearness)-1)]
	w *= 1 + 2*float32(weakLibs[m])
	if eyeish(pos, m, living) {
		w *= 2
	}
	return w
}

// focusStones returns the blocks holding the targets together with the
// opponent blocks touching them: the stones the fight is about.
func focusStones(pos *game.Position, targets *game.PointSet) game.PointSet {
	var focus game.PointSet
	targets.ForEach(func(p game.Point) {
		if c := pos.At(p); c == game.Black || c == game.White {
			focus = focus.Union(pos.BlockSet(p))
		}
	})
	group := focus
	group.ForEach(func(p game.Point) {
		for _, q := range pos.Neighbors(p) {
			if c := pos.At(q); (c == game.Black || c == game.White) && c != pos.At(p) && !focus.Has(q) {
				focus = focus.Union(pos.BlockSet(q))
			}
		}
	})
	if focus.Empty() {
		return *targets
	}
	return focus
}

// weakLiberties counts into out, for each point, the blocks with at most
// two liberties that have it as a liberty. The evaluators' point maps are
// fixed arrays on the stack: they run at every node.
func weakLiberties(pos *game.Position, out *[game.MaxCells]int8) {
	clear(out[:pos.Cells()])
	var seen game.PointSet
	for i := 0; i < pos.Cells(); i++ {
		p := game.Point(i)
		if c := pos.At(p); (c != game.Black && c != game.White) || seen.Has(pos.BlockHead(p)) {
			continue
		}
		seen.Add(pos.BlockHead(p))
		libs := pos.Liberties(p)
		if libs.Len() <= 2 {
			libs.ForEach(func(l game.Point) { out[l]++ })
		}
	}
}

func stonesOf(pos *game.Position, c game.Color) game.PointSet {
	var s game.PointSet
	for i := 0; i < pos.Cells(); i++ {
		if pos.At(game.Point(i)) == c {
			s.Add(game.Point(i))
		}
	}
	return s
}

// nearness[d] is exp(-0.9 d), the prior's fall-off with distance.
var nearness = func() (t [40]float32) {
	for d := range t {
		t[d] = float32(math.Exp(-0.9 * float64(d)))
	}
	return t
}()

// far is distanceMap's distance for points out of reach.
const far = 100

// distanceMap sets dist, for every point, to the Manhattan distance to the
// nearest point of set (a breadth-first search from all of set at once),
// or far where that is more than limit (limit far: no bound) or set is
// empty. A reader that needs only short distances bounds the search.
func distanceMap(pos *game.Position, set *game.PointSet, dist *[game.MaxCells]uint8, limit uint8) {
	for i := 0; i < pos.Cells(); i++ {
		dist[i] = far
	}
	var queue [game.MaxCells]game.Point // each point joins once
	head, tail := 0, 0
	set.ForEach(func(p game.Point) {
		dist[p] = 0
		queue[tail] = p
		tail++
	})
	for head < tail {
		p := queue[head]
		head++
		if dist[p] >= limit {
			continue
		}
		for _, q := range pos.Neighbors(p) {
			if pos.At(q) != game.Border && dist[q] == far {
				dist[q] = dist[p] + 1
				queue[tail] = q
				tail++
			}
		}
	}
}

// eyeish reports whether every on-board neighbour of p holds a stone of c:
// the vital points of eye shape for both sides.
func eyeish(pos *game.Position, p game.Point, c game.Color) bool {
	for _, q := range pos.Neighbors(p) {
		if col := pos.At(q); col != c && col != game.Border {
			return false
		}
	}
	return true
}

// livingValue is a logistic guess from the liberties of the living side's
// blocks that hold the targets and the eye-like points next to them.
func livingValue(pos *game.Position, living game.Color, targets *game.PointSet) float32 {
	best := 0
	var group game.PointSet
	targets.ForEach(func(p game.Point) {
		if pos.At(p) == living {
			best = max(best, pos.LibertyCount(p))
			group = group.Union(pos.BlockSet(p))
		}
	})
	if best == 0 {
		return 0.2
	}
	eyes := 0
	var seen game.PointSet
	group.ForEach(func(p game.Point) {
		for _, q := range pos.Neighbors(p) {
			if pos.At(q) == game.Empty && !seen.Has(q) {
				seen.Add(q)
				if eyeish(pos, q, living) {
					eyes++
				}
			}
		}
	})
	x := 0.35*float64(best-4) + 0.9*float64(min(eyes, 3)-1)
	return float32(1 / (1 + math.Exp(-x)))
}
