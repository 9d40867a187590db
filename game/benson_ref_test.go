package game

import (
	"math/rand/v2"
	"testing"
)

// TestBensonMatchesReference compares Board.Benson with the reference form
// (sets of liberties per block, slices of regions) on random positions of
// every size from openings to filled-in ends, for both colours.
func TestBensonMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 13))
	alive := 0
	for _, size := range []int{5, 7, 9, 13, 19} {
		for i, p := range randomPositions(t, rng, size, 60) {
			for _, c := range []Color{Black, White} {
				got, want := p.Benson(c), bensonReference(&p.Board, c)
				if got != want {
					t.Fatalf("%dx%d position %d, %v: alive %s vital %s, reference alive %s vital %s\n%s", size, size, i, c,
						setString(&p.Board, got.Alive), setString(&p.Board, got.Vital),
						setString(&p.Board, want.Alive), setString(&p.Board, want.Vital), p.String())
				}
				alive += got.Alive.Len()
			}
		}
	}
	if alive == 0 {
		t.Fatal("no position had an alive block: the comparison tested nothing")
	}
}

// TestBensonJudgeAllocateNothing checks the game package's promise that
// Benson, SmallestZone and Judge allocate nothing: the solvers call them at
// every node.
func TestBensonJudgeAllocateNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	p := randomPositions(t, rng, 19, 1)[0]
	pr := &Problem{Start: p, Region: p.AllPoints()}
	pr.Goal[Black], pr.Goal[White] = GoalLiveAny, GoalKillAll
	var standing PointSet
	// A live goal with the white stones as crucial asks BensonIfAlive.
	live := *pr
	live.Goal[Black], live.Goal[White] = GoalKill, GoalLive
	var whites PointSet
	for i := 0; i < p.Cells(); i++ {
		if p.At(Point(i)) == White {
			whites.Add(Point(i))
		}
	}
	if n := testing.AllocsPerRun(20, func() {
		u := p.Benson(White)
		u.SmallestZone(&p.Board, &u.Alive)
		pr.Judge(p, &standing)
		live.Judge(p, &whites)
	}); n != 0 {
		t.Errorf("Benson, SmallestZone and Judge allocate %.1f times per call, want 0", n)
	}
}

// refRegion is a maximal connected set of points not of the colour under
// test.
type refRegion struct {
	points  PointSet
	empties PointSet
	blocks  []int // indices of the adjacent blocks of the colour
}

// bensonReference is the straightforward form of Board.Benson that the
// allocation-free one replaced, kept as its reference: it runs Benson's algorithm for colour c: it finds the blocks that
// cannot be captured even if c always passes, and their vital regions.
//
// A region (a connected set of points not of colour c) is vital to an
// adjacent block when every empty point of the region is a liberty of that
// block. The algorithm repeatedly drops blocks with fewer than two vital
// regions and regions that touch a dropped block; what remains is alive.
func bensonReference(b *Board, c Color) UCA {
	var heads []Point
	var libs []PointSet
	// index maps a block's head to its place in heads (an array, not a
	// map: Benson runs at every node of a solve).
	var index [MaxCells]int32
	for i := 0; i < b.cells; i++ {
		p := Point(i)
		if b.color[p] == c && b.head[p] == int16(p) {
			index[p] = int32(len(heads))
			heads = append(heads, p)
			libs = append(libs, b.Liberties(p))
		}
	}
	if len(heads) == 0 {
		return UCA{}
	}
	regions := bensonRegionsReference(b, c, &index)
	// vital[r] lists the blocks region r is vital to.
	vital := make([][]int, len(regions))
	for r := range regions {
		for _, k := range regions[r].blocks {
			if regions[r].empties.SubsetOf(&libs[k]) {
				vital[r] = append(vital[r], k)
			}
		}
	}
	blockAlive := make([]bool, len(heads))
	regionAlive := make([]bool, len(regions))
	for i := range blockAlive {
		blockAlive[i] = true
	}
	for r := range regionAlive {
		regionAlive[r] = len(regions[r].blocks) > 0
	}
	for changed := true; changed; {
		changed = false
		count := make([]int, len(heads))
		for r := range regions {
			if regionAlive[r] {
				for _, k := range vital[r] {
					count[k]++
				}
			}
		}
		for k := range heads {
			if blockAlive[k] && count[k] < 2 {
				blockAlive[k] = false
				changed = true
			}
		}
		for r := range regions {
			if !regionAlive[r] {
				continue
			}
			for _, k := range regions[r].blocks {
				if !blockAlive[k] {
					regionAlive[r] = false
					changed = true
					break
				}
			}
		}
	}
	var u UCA
	for k, h := range heads {
		if blockAlive[k] {
			b.BlockStones(h, u.Alive.Add)
		}
	}
	for r := range regions {
		if regionAlive[r] && len(vital[r]) > 0 {
			u.Vital = u.Vital.Union(regions[r].points)
		}
	}
	return u
}

// bensonRegionsReference flood-fills the points not of colour c into regions and
// records, for each, its empty points and adjacent blocks of colour c.
func bensonRegionsReference(b *Board, c Color, index *[MaxCells]int32) []refRegion {
	var seen PointSet
	var regions []refRegion
	stack := make([]Point, 0, 64)
	for i := 0; i < b.cells; i++ {
		start := Point(i)
		if col := b.color[start]; col == c || col == Border || seen.Has(start) {
			continue
		}
		var r refRegion
		var adj PointSet // heads of adjacent blocks, to list each once
		seen.Add(start)
		stack = append(stack[:0], start)
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			r.points.Add(p)
			if b.color[p] == Empty {
				r.empties.Add(p)
			}
			for _, q := range b.Neighbors(p) {
				switch col := b.color[q]; {
				case col == c:
					h := Point(b.head[q])
					if !adj.Has(h) {
						adj.Add(h)
						r.blocks = append(r.blocks, int(index[h]))
					}
				case col != Border && !seen.Has(q):
					seen.Add(q)
					stack = append(stack, q)
				}
			}
		}
		regions = append(regions, r)
	}
	return regions
}
