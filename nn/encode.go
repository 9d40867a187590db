package nn

import (
	"fmt"

	"lifezero/game"
)

// Input planes, in order. Each plane is N×N floats, row-major (index
// y*N+x, row 0 at the top as in game.Board.Point), 1 where the feature
// holds and 0 elsewhere.
const (
	// PlaneOwn marks the stones of the side to move.
	PlaneOwn = iota
	// PlaneOpponent marks the stones of the other side.
	PlaneOpponent
	// PlaneEmpty marks the empty points.
	PlaneEmpty
	// PlaneBlackToMove is all ones when Black is to move, all zeros when
	// White is: it lets the net tell the colours apart.
	PlaneBlackToMove
	// PlaneRegion marks the problem's allowed region (every point for a
	// plain game).
	PlaneRegion
	// PlaneCrucial marks the problem's crucial points that hold a stone of
	// the living side.
	PlaneCrucial
	// PlaneLiving marks the living side's stones (the reference 19x19 nets'
	// to-live plane); zero for a plain game.
	PlaneLiving
	// PlaneKilling marks the killing side's stones (the to-kill plane); zero
	// for a plain game.
	PlaneKilling
	// PlaneKo marks the simple-ko point the side to move may not play.
	PlaneKo
	// NumFixedPlanes is the number of planes before the optional one-hot
	// move-number planes: plane NumFixedPlanes+k is all ones when the move
	// number is k (the last plane also covers every larger move number).
	NumFixedPlanes
)

// Encode writes the input planes of pos into dst, which must hold
// c.InputSize() floats. pr is the life-and-death problem's view at pos, or
// nil for a plain game (the region is then the whole board and the crucial,
// living and killing planes are zero). The view is the one
// game.Problem.StandingView builds: the problem with Crucial holding the
// crucial stones still standing at pos, so that a crucial stone captured
// and replayed by a living stone is not crucial any more. Self-play and
// the solver's network evaluator (package neteval, which the solver hands
// that view) both encode through it, so the network sees the same input
// for the same position in training and in solving. The crucial plane
// marks the points of pr.Crucial that hold a living stone.
func (c Config) Encode(pos *game.Position, pr *game.Problem, dst []float32) error {
	if pos.Size() != c.Board {
		return fmt.Errorf("nn: encode: position is %dx%d, network is %dx%d", pos.Size(), pos.Size(), c.Board, c.Board)
	}
	if len(dst) != c.InputSize() {
		return fmt.Errorf("nn: encode: dst holds %d floats, want %d", len(dst), c.InputSize())
	}
	clear(dst)
	n := c.Points()
	plane := func(k int) []float32 { return dst[k*n : (k+1)*n] }
	own := pos.ToMove()
	opp := own.Opponent()
	living, killing := game.Empty, game.Empty
	if pr != nil {
		living = pr.Living()
		killing = living.Opponent()
	}
	if own == game.Black {
		fill(plane(PlaneBlackToMove), 1)
	}
	for y := 0; y < c.Board; y++ {
		for x := 0; x < c.Board; x++ {
			p := pos.Point(x, y)
			i := y*c.Board + x
			col := pos.At(p)
			switch col {
			case own:
				dst[PlaneOwn*n+i] = 1
			case opp:
				dst[PlaneOpponent*n+i] = 1
			case game.Empty:
				dst[PlaneEmpty*n+i] = 1
			}
			if pr == nil || pr.Region.Has(p) {
				dst[PlaneRegion*n+i] = 1
			}
			if pr == nil {
				continue
			}
			if col == living {
				dst[PlaneLiving*n+i] = 1
				if pr.Crucial.Has(p) {
					dst[PlaneCrucial*n+i] = 1
				}
			} else if col == killing {
				dst[PlaneKilling*n+i] = 1
			}
		}
	}
	if ko := pos.Ko(); ko != game.NoPoint && pos.OnBoard(ko) {
		x, y := pos.XY(ko)
		dst[PlaneKo*n+y*c.Board+x] = 1
	}
	if c.MoveNumberPlanes > 0 {
		k := min(pos.MoveNumber(), c.MoveNumberPlanes-1)
		fill(plane(NumFixedPlanes+k), 1)
	}
	return nil
}

// MoveIndex returns the policy index of move m on board b: y*N+x for a
// point, N² for a pass, or -1 for anything else.
func MoveIndex(b *game.Board, m game.Point) int {
	if m == game.Pass {
		return b.Size() * b.Size()
	}
	if !b.OnBoard(m) {
		return -1
	}
	x, y := b.XY(m)
	return y*b.Size() + x
}

// IndexMove is the inverse of MoveIndex: the move of policy index i, or
// game.NoPoint when i is out of range.
func IndexMove(b *game.Board, i int) game.Point {
	n := b.Size()
	switch {
	case i == n*n:
		return game.Pass
	case i < 0 || i > n*n:
		return game.NoPoint
	}
	return b.Point(i%n, i/n)
}

func fill(s []float32, v float32) {
	for i := range s {
		s[i] = v
	}
}
