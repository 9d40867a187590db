package rzs

import (
	"math/rand/v2"

	"lifezero/game"
)

// randomProblem builds a small life-and-death position: a 6x6 or 7x7 board
// filled at random with legal stones, and a connected region of 8 to 16
// points, holding at most maxEmpty empty points, where moves may be played.
// Half are kill-all (White lives with any stone), half "live" with one
// random White block of the region as the crucial stones. Ko rules follow
// the problem files: the living side may not take a ko, the killer obeys
// positional superko.
func randomProblem(rng *rand.Rand, maxEmpty int) *game.Problem {
	return randomProblemOf(rng, maxEmpty, 0.3, 0.35)
}

// randomProblemOf is randomProblem with the shares of empty points and of
// Black stones given (the rest White).
func randomProblemOf(rng *rand.Rand, maxEmpty int, empty, black float64) *game.Problem {
	for {
		size := 6 + rng.IntN(2)
		pos, ok := buildPosition(size, randomCells(rng, size, empty, black))
		if !ok {
			continue
		}
		region := randomRegion(rng, pos, 8+rng.IntN(9))
		empty := 0
		region.ForEach(func(p game.Point) {
			if pos.At(p) == game.Empty {
				empty++
			}
		})
		if empty == 0 || empty > maxEmpty {
			continue
		}
		pos.SetToMove(game.Black)
		if rng.IntN(2) == 0 {
			pos.SetToMove(game.White)
		}
		pr := &game.Problem{ID: "random", Start: pos, Answer: game.NoPoint, Region: region}
		pr.Goal[game.White], pr.Goal[game.Black] = game.GoalLiveAny, game.GoalKillAll
		if rng.IntN(2) == 0 {
			whites := stonesOf(pos, game.White).Intersect(region)
			if whites.Empty() {
				continue
			}
			pts := whites.Points()
			pr.Crucial = pos.BlockSet(pts[rng.IntN(len(pts))])
			pr.Goal[game.White], pr.Goal[game.Black] = game.GoalLive, game.GoalKill
		}
		pos.SetKoRule(game.White, game.NoKoCapture)
		pos.SetKoRule(game.Black, game.PositionalSuperko)
		if pr.Judge(pos, &pr.Crucial).Outcome != game.Undecided {
			continue // only positions that need a search
		}
		return pr
	}
}

// randomRegion grows a connected set of n points from a random point.
func randomRegion(rng *rand.Rand, pos *game.Position, n int) game.PointSet {
	all := pos.AllPoints()
	pts := all.Points()
	var region game.PointSet
	frontier := []game.Point{pts[rng.IntN(len(pts))]}
	for len(frontier) > 0 && region.Len() < n {
		i := rng.IntN(len(frontier))
		p := frontier[i]
		frontier = append(frontier[:i], frontier[i+1:]...)
		if region.Has(p) {
			continue
		}
		region.Add(p)
		for _, q := range pos.Neighbors(p) {
			if all.Has(q) && !region.Has(q) {
				frontier = append(frontier, q)
			}
		}
	}
	return region
}

// buildPosition places the stones of cells (row-major) and reports false if
// some block would have no liberty.
func buildPosition(size int, cells []game.Color) (*game.Position, bool) {
	pos, err := game.NewPosition(size)
	if err != nil {
		panic(err)
	}
	for i, c := range cells {
		if c == game.Black || c == game.White {
			if err := pos.Place(c, pos.Point(i%size, i/size)); err != nil {
				return nil, false
			}
		}
	}
	return pos, pos.CheckNoDeadBlocks() == nil
}

// samePatternPosition returns a random position that equals pos inside zone
// and is random outside it (blocks left without liberties outside the zone
// are emptied), with pos's side to move and ko rules. ok is false when no
// legal completion was found.
func samePatternPosition(rng *rand.Rand, pos *game.Position, zone *game.PointSet, emptyShare float64) (*game.Position, bool) {
	size := pos.Size()
	cells := make([]game.Color, size*size)
	for i := range cells {
		p := pos.Point(i%size, i/size)
		switch {
		case zone.Has(p):
			cells[i] = pos.At(p)
		case rng.Float64() < emptyShare:
			cells[i] = game.Empty
		case rng.IntN(2) == 0:
			cells[i] = game.Black
		default:
			cells[i] = game.White
		}
	}
	for tries := 0; tries < 50; tries++ {
		next, dead := placeAll(size, cells)
		if dead < 0 {
			next.SetToMove(pos.ToMove())
			next.SetKoRule(game.Black, pos.KoRule(game.Black))
			next.SetKoRule(game.White, pos.KoRule(game.White))
			return next, true
		}
		p := next.Point(dead%size, dead/size)
		if zone.Has(p) {
			return nil, false // a zone block without liberties: the zone is broken
		}
		next.BlockStones(p, func(q game.Point) {
			x, y := next.XY(q)
			cells[y*size+x] = game.Empty
		})
	}
	return nil, false
}

// placeAll places cells and returns the index of a stone of a block without
// liberties, or -1.
func placeAll(size int, cells []game.Color) (*game.Position, int) {
	pos, _ := game.NewPosition(size)
	for i, c := range cells {
		if c != game.Empty {
			_ = pos.Place(c, pos.Point(i%size, i/size))
		}
	}
	for i, c := range cells {
		if c != game.Empty && pos.LibertyCount(pos.Point(i%size, i/size)) == 0 {
			return pos, i
		}
	}
	return pos, -1
}

// randomCells is a random size x size board: each point empty with
// probability empty, black with probability black, otherwise white.
func randomCells(rng *rand.Rand, size int, empty, black float64) []game.Color {
	cells := make([]game.Color, size*size)
	for i := range cells {
		switch r := rng.Float64(); {
		case r < empty:
		case r < empty+black:
			cells[i] = game.Black
		default:
			cells[i] = game.White
		}
	}
	return cells
}
