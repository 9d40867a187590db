package game

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// dihedral lists the eight symmetries of the n x n square as coordinate
// maps written out independently of Symmetry.apply.
func dihedral(n int) []func(x, y int) (int, int) {
	m := n - 1
	return []func(x, y int) (int, int){
		func(x, y int) (int, int) { return x, y },
		func(x, y int) (int, int) { return m - x, y },
		func(x, y int) (int, int) { return x, m - y },
		func(x, y int) (int, int) { return m - x, m - y },
		func(x, y int) (int, int) { return y, x },
		func(x, y int) (int, int) { return m - y, x },
		func(x, y int) (int, int) { return y, m - x },
		func(x, y int) (int, int) { return m - y, m - x },
	}
}

func TestSymmetriesAreTheDihedralGroup(t *testing.T) {
	for _, n := range []int{5, 7, 9, 19} {
		b, _ := NewBoard(n)
		all := b.AllPoints()
		matched := make([]bool, 8)
		for s := Symmetry(0); s < NumSymmetries; s++ {
			inv := s.Inverse()
			var image PointSet
			all.ForEach(func(p Point) {
				q := b.Transform(s, p)
				if !b.OnBoard(q) {
					t.Fatalf("%dx%d: symmetry %d maps %s off the board", n, n, s, b.GTPString(p))
				}
				image.Add(q)
				if back := b.Transform(inv, q); back != p {
					t.Fatalf("%dx%d: symmetry %d then its inverse %d maps %s to %s", n, n, s, inv, b.GTPString(p), b.GTPString(back))
				}
			})
			if image != all {
				t.Fatalf("%dx%d: symmetry %d is not a bijection", n, n, s)
			}
			for k, f := range dihedral(n) {
				same := true
				all.ForEach(func(p Point) {
					x, y := b.XY(p)
					fx, fy := f(x, y)
					same = same && b.Transform(s, p) == b.Point(fx, fy)
				})
				if same {
					if matched[k] {
						t.Fatalf("%dx%d: two symmetries are the same map", n, n)
					}
					matched[k] = true
				}
			}
			for _, special := range []Point{Pass, NoPoint} {
				if b.Transform(s, special) != special {
					t.Errorf("symmetry %d moves %d", s, special)
				}
			}
		}
		if slices.Contains(matched, false) {
			t.Fatalf("%dx%d: the symmetries miss a map of the square: %v", n, n, matched)
		}
		if Identity.Inverse() != Identity {
			t.Fatal("Identity.Inverse() is not Identity")
		}
	}
}

func TestTransformedPosition(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	kos := 0
	for _, size := range []int{7, 9, 19} {
		for _, p := range randomPositions(t, rng, size, 40) {
			if p.Ko() != NoPoint {
				kos++
			}
			legal := p.LegalMoves(nil, nil)
			for s := Symmetry(0); s < NumSymmetries; s++ {
				q := p.Transformed(s)
				for i := 0; i < p.Cells(); i++ {
					pt := Point(i)
					if !p.OnBoard(pt) {
						continue
					}
					qt := q.Transform(s, pt)
					if q.At(qt) != p.At(pt) {
						t.Fatalf("symmetry %d: %s holds %v, the original %s holds %v",
							s, q.GTPString(qt), q.At(qt), p.GTPString(pt), p.At(pt))
					}
					if c := p.At(pt); (c == Black || c == White) && q.LibertyCount(qt) != p.LibertyCount(pt) {
						t.Fatalf("symmetry %d: liberties of %s differ", s, p.GTPString(pt))
					}
				}
				if q.ToMove() != p.ToMove() || q.Ko() != q.Transform(s, p.Ko()) {
					t.Fatalf("symmetry %d: side to move or ko point not carried over", s)
				}
				var want []Point
				for _, m := range legal {
					want = append(want, q.Transform(s, m))
				}
				slices.Sort(want)
				if got := q.LegalMoves(nil, nil); !slices.Equal(got, want) {
					t.Fatalf("symmetry %d: legal moves differ from the transformed originals\n%s", s, p)
				}
				back := q.Transformed(s.Inverse())
				if back.Hash() != p.Hash() || snapshot(&back.Board) != snapshot(&p.Board) {
					t.Fatalf("symmetry %d then its inverse does not give the position back", s)
				}
				checkLiberties(t, &q.Board)
			}
		}
	}
	if kos == 0 {
		t.Error("no random position had a ko point: the ko mapping went untested")
	}
}

func TestBensonCommutesWithSymmetry(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	alive := 0
	for _, size := range []int{7, 9, 19} {
		for _, p := range randomPositions(t, rng, size, 40) {
			for _, c := range []Color{Black, White} {
				u := p.Benson(c)
				if !u.Alive.Empty() {
					alive++
				}
				for s := Symmetry(1); s < NumSymmetries; s++ {
					q := p.Transformed(s)
					v := q.Benson(c)
					if v.Alive != q.TransformSet(s, &u.Alive) || v.Vital != q.TransformSet(s, &u.Vital) {
						t.Fatalf("Benson(%v) of the position under symmetry %d is not the transformed result\n%s", c, s, p)
					}
				}
			}
		}
	}
	if alive < 20 {
		t.Errorf("only %d random positions had unconditionally alive blocks: the check proves little", alive)
	}
}
