package rzs

import (
	"math"

	"lifezero/game"
)

// probeMoves plays each of the living side's moves next to its group. A
// move after which a crucial stone is unconditionally alive (a win in one)
// takes 90% of the prior mass; with LD.Benson, a move that adds regions
// vital to a crucial block has its prior multiplied by 1 + 1.5 per region
// gained, and with LD.Distance by 1 + DistPrior per point of distance to
// unconditional life it gains. The judge runs only after moves that leave
// a crucial block two vital regions, which Benson's algorithm needs for it
// to live.
func (ld *ldScratch) probeMoves(pos *game.Position, pr *game.Problem, moves []game.Point, priors []float32) {
	living := pr.Living()
	before, beforeDist := ld.regions(pos, living)
	var wins game.PointSet // the winning moves (never the pass)
	nWins := 0
	for i, m := range moves {
		standing, ok := ld.playNear(pos, pr, m)
		if !ok {
			continue
		}
		next := &ld.next
		after, dist := ld.regionsAfter(pos, m, &standing, living)
		if after >= 2 && pr.Judge(next, &standing).Outcome == game.LivingWins {
			wins.Add(m)
			nWins++
		}
		if ld.cfg.Benson && after > before {
			priors[i] *= 1 + 1.5*float32(after-before)
		}
		if ld.cfg.Distance && dist < beforeDist {
			priors[i] *= 1 + ld.cfg.distPrior()*float32(beforeDist-dist)
		}
	}
	normalize(priors)
	if nWins == 0 {
		return
	}
	for i := range priors {
		priors[i] *= 0.1
	}
	for i, m := range moves {
		if m != game.Pass && wins.Has(m) {
			priors[i] += 0.9 / float32(nWins)
		}
	}
}

// probeKiller plays each of the killer's moves next to the living group and
// multiplies the prior of those that push the targets further from
// unconditional life by 1 + DistPrior per point of distance.
func (ld *ldScratch) probeKiller(pos *game.Position, pr *game.Problem, moves []game.Point, priors []float32) {
	living := pr.Living()
	_, before := ld.regions(pos, living)
	for i, m := range moves {
		standing, ok := ld.playNear(pos, pr, m)
		if !ok {
			continue
		}
		if _, d := ld.regionsAfter(pos, m, &standing, living); d > before {
			priors[i] *= 1 + ld.cfg.distPrior()*float32(d-before)
		}
	}
	normalize(priors)
}

// playNear plays m, a move of pos's side to move, on the scratch position
// ld.next when it lies next to the living group (at most one point from
// it), and returns the crucial stones standing after it; ok is false for a
// move not probed. ld.next gets the board alone, without pos's superko
// history: the moves come from pos's legal-move generation, and Judge and
// the region readings look only at the board (and, after a stone, at no
// pending passes), so a probe allocates nothing.
func (ld *ldScratch) playNear(pos *game.Position, pr *game.Problem, m game.Point) (standing game.PointSet, ok bool) {
	if m == game.Pass || ld.distOwn[m] > 1 {
		return standing, false
	}
	next := &ld.next
	next.SetToMove(pos.ToMove().Opponent())
	next.Board = pos.Board
	if _, err := next.Board.Play(pos.ToMove(), m); err != nil {
		return standing, false
	}
	return pr.Standing(next, &ld.targets), true
}

// normalize scales priors to sum to one.
func normalize(priors []float32) {
	var sum float32
	for _, p := range priors {
		sum += p
	}
	for i := range priors {
		priors[i] /= sum
	}
}

// targetRegions reads the regions of the targets' blocks (stones of colour
// c): the most regions vital to one block (at most 3), and the least
// distance to unconditional life of one block. The distance estimates how
// far a block is from Benson's life: the empty points of its two cheapest
// regions that are not yet its liberties (each must be filled, or taken by
// the opponent, before the region is vital), a missing region counting as
// maxRegionCost; 0 means two vital regions.
func targetRegions(pos *game.Position, targets *game.PointSet, c game.Color) (vital, distance int) {
	distance = 2 * maxRegionCost
	var done game.PointSet
	targets.ForEach(func(p game.Point) {
		if pos.At(p) != c || done.Has(p) {
			return
		}
		done = done.Union(pos.BlockSet(p))
		v, d := blockRegions(pos, p, c, nil)
		vital, distance = max(vital, v), min(distance, d)
	})
	return min(vital, 3), distance
}

// bensonValue is ld.value with the regions vital to the crucial blocks
// counted: each of the two a block needs for unconditional life is worth
// as much as an eye.
func (ld *ldScratch) bensonValue(pos *game.Position, living game.Color) float32 {
	v := float64(ld.value(pos, living))
	if v <= 0.05 {
		return float32(v)
	}
	vital, dist := ld.regions(pos, living)
	x := math.Log(v/(1-v)) + 1.2*float64(min(vital, 2)-1)
	if ld.cfg.Distance {
		x -= ld.cfg.distValue() * float64(dist-maxRegionCost)
	}
	return float32(1 / (1 + math.Exp(-x)))
}

// maxRegionCost caps a region's cost in targetRegions' distance.
const maxRegionCost = 6

// blockRegions reads the regions next to the block at p (connected parts
// of the points not of colour c) and returns how many are vital to it and
// its distance to unconditional life, the cost of its two cheapest regions
// (see targetRegions). A flood stops once its region costs
// maxRegionCost: such a region is neither vital nor cheaper than a missing
// one, so when another liberty of it starts a second flood the answer is
// the same, and the large open areas of 19x19 problems are not walked.
// When read is not nil, every point whose contents the reading looks at
// joins it (see regionsAfter).
func blockRegions(pos *game.Position, p game.Point, c game.Color, read *game.PointSet) (vital, distance int) {
	libs := pos.Liberties(p)
	if read != nil {
		pos.BlockStones(p, func(q game.Point) { addWithNeighbours(pos, read, q) })
	}
	// stopped holds the points reached by floods that stopped early: a
	// later flood that meets one is in the same region, so costs as much.
	var seen, stopped game.PointSet
	var stack [game.MaxCells]game.Point
	c1, c2 := maxRegionCost, maxRegionCost
	libs.ForEach(func(l game.Point) {
		if seen.Has(l) {
			return
		}
		before := seen
		cost := 0
		seen.Add(l)
		stack[0] = l
		for n := 1; n > 0 && cost < maxRegionCost; {
			n--
			q := stack[n]
			if read != nil {
				addWithNeighbours(pos, read, q)
			}
			if pos.At(q) == game.Empty && !libs.Has(q) {
				cost++
			}
			for _, nb := range pos.Neighbors(q) {
				if stopped.Has(nb) {
					cost = maxRegionCost
				}
				if col := pos.At(nb); col != c && col != game.Border && !seen.Has(nb) {
					seen.Add(nb)
					stack[n] = nb
					n++
				}
			}
		}
		if cost >= maxRegionCost {
			stopped = stopped.Union(seen.Minus(before))
		}
		if cost == 0 {
			vital++
		}
		switch {
		case cost < c1:
			c1, c2 = cost, c1
		case cost < c2:
			c2 = cost
		}
	})
	return vital, c1 + c2
}

// addWithNeighbours adds q and its neighbours to set.
func addWithNeighbours(pos *game.Position, set *game.PointSet, q game.Point) {
	set.Add(q)
	for _, nb := range pos.Neighbors(q) {
		set.Add(nb)
	}
}

// blockReading is the reading of one target block of the evaluated
// position: blockRegions' answer and the points it looked at.
type blockReading struct {
	head        game.Point
	vital, dist int
	read        game.PointSet
}

// maxReadBlocks bounds the target blocks whose readings ld keeps; a
// position with more has every probe read afresh.
const maxReadBlocks = 16

// regions returns targetRegions of the evaluated position pos for ld's
// targets, reading it once per evaluation with each block's reading kept
// for regionsAfter.
func (ld *ldScratch) regions(pos *game.Position, living game.Color) (vital, distance int) {
	if ld.regionsRead {
		return ld.regVital, ld.regDist
	}
	ld.regionsRead = true
	distance = 2 * maxRegionCost
	var done game.PointSet
	ld.targets.ForEach(func(p game.Point) {
		if pos.At(p) != living || done.Has(p) {
			return
		}
		pos.BlockStones(p, done.Add)
		var v, d int
		if ld.nBlocks >= 0 && ld.nBlocks < maxReadBlocks {
			b := &ld.blocks[ld.nBlocks]
			ld.nBlocks++
			b.head, b.read = p, game.PointSet{}
			v, d = blockRegions(pos, p, living, &b.read)
			b.vital, b.dist = v, d
		} else {
			ld.nBlocks = -1 // too many to keep: regionsAfter reads afresh
			v, d = blockRegions(pos, p, living, nil)
		}
		vital, distance = max(vital, v), min(distance, d)
	})
	ld.regVital, ld.regDist = min(vital, 3), distance
	return ld.regVital, ld.regDist
}

// regionsAfter returns targetRegions(&ld.next, standing, living), where
// ld.next is pos after move m (see playNear) and standing its standing
// targets. A move that captures nothing and is not itself a target
// changes only the point m, so every block whose reading did not look at
// m reads as it did in pos: its kept reading stands, and only the blocks
// next to m (merged by m or losing a liberty) and those whose regions m
// enters are read again. The answer is the same as reading afresh: a
// block read twice (two blocks m merged) gives the same answer twice, and
// targetRegions keeps only the largest and the smallest.
func (ld *ldScratch) regionsAfter(pos *game.Position, m game.Point, standing *game.PointSet, living game.Color) (vital, distance int) {
	next := &ld.next
	ld.regions(pos, living)
	if ld.nBlocks < 0 || ld.targets.Has(m) ||
		next.Captured(game.Black) != pos.Captured(game.Black) || next.Captured(game.White) != pos.Captured(game.White) {
		return targetRegions(next, standing, living)
	}
	distance = 2 * maxRegionCost
	for i := 0; i < ld.nBlocks; i++ {
		b := &ld.blocks[i]
		v, d := b.vital, b.dist
		if b.read.Has(m) {
			v, d = blockRegions(next, b.head, living, nil)
		}
		vital, distance = max(vital, v), min(distance, d)
	}
	return min(vital, 3), distance
}
