package game

import (
	"math/rand/v2"
	"testing"
)

// TestAliveAmongMatchesBenson checks AliveAmong, and BensonIfAlive, which
// asks it on boards larger than 9x9, against Benson on random
// positions of every size, for both colours: for each block as the seeds,
// and for random sets of points (empty points and the other colour's
// stones among them, which it ignores).
func TestAliveAmongMatchesBenson(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 29))
	var yes, no, stoppedEarly int
	for _, size := range []int{5, 7, 9, 13, 19} {
		for i, p := range randomPositions(t, rng, size, 80) {
			b := &p.Board
			for _, c := range []Color{Black, White} {
				u := p.Benson(c)
				check := func(seeds PointSet) {
					want := u.Alive.Intersects(&seeds)
					if got := b.AliveAmong(&seeds, c); got != want {
						t.Fatalf("%dx%d position %d, %v, seeds %s: AliveAmong %v, Benson alive %s\n%s",
							size, size, i, c, setString(b, seeds), got, setString(b, u.Alive), p.String())
					}
					if got, alive := b.BensonIfAlive(&seeds, c); alive != seeds.Intersect(u.Alive) || (want && got != u) {
						t.Fatalf("%dx%d position %d, %v, seeds %s: BensonIfAlive alive %s (Benson's %s), Benson alive %s",
							size, size, i, c, setString(b, seeds), setString(b, alive), setString(b, got.Alive), setString(b, u.Alive))
					}
					if want {
						yes++
					} else {
						no++
						if !b.twoVitalAmong(&seeds, c) {
							stoppedEarly++
						}
					}
				}
				var random PointSet
				for j := 0; j < b.cells; j++ {
					q := Point(j)
					if b.color[q] == c && b.head[q] == int16(q) {
						check(b.BlockSet(q))
					}
					if b.color[q] != Border && rng.IntN(8) == 0 {
						random.Add(q)
					}
				}
				check(random)
			}
		}
	}
	// Alive blocks, dead ones that have two vital regions and dead ones
	// without must all occur, or the comparison tested only part of it.
	if yes == 0 || no == stoppedEarly || stoppedEarly == 0 {
		t.Fatalf("alive %d, not alive %d (%d without two vital regions): want each kind", yes, no, stoppedEarly)
	}
	t.Logf("alive %d, not alive %d (%d without two vital regions)", yes, no, stoppedEarly)
}

// twoVitalAmong reports whether a block of colour c holding a point of
// seeds has two vital regions, from the reference's regions.
func (b *Board) twoVitalAmong(seeds *PointSet, c Color) bool {
	var index [MaxCells]int32
	for j := 0; j < b.cells; j++ {
		if q := Point(j); b.color[q] == c && b.head[q] == int16(q) {
			index[q] = int32(q) // a block's number is its head
		}
	}
	regions := bensonRegionsReference(b, c, &index)
	found := false
	seeds.ForEach(func(p Point) {
		if b.color[p] != c {
			return
		}
		h, libs := int(b.head[p]), b.Liberties(p)
		vital := 0
		for _, r := range regions {
			for _, k := range r.blocks {
				if k == h && r.empties.SubsetOf(&libs) {
					vital++
				}
			}
		}
		found = found || vital >= 2
	})
	return found
}
