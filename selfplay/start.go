package selfplay

import (
	"fmt"

	"lifezero/game"
)

// Start is where self-play games begin.
type Start struct {
	Problem *game.Problem
	// HandicapStones is the number of stones the killer places one after
	// another at the start of the game, the living side passing in between
	// (7x7 kill-all: 2, written B, W pass, B as in the problem files). The
	// living side's passes in the opening are forced and give no sample.
	HandicapStones int
}

// KillAll returns the kill-all start on an empty size x size board
// (game.KillAll: White lives if any white stone becomes unconditionally
// alive, Black must prevent it, Black may take kos and White may not):
// Black places two stones, then the game goes on.
func KillAll(size int) (Start, error) {
	pr, err := game.KillAll(size)
	if err != nil {
		return Start{}, fmt.Errorf("selfplay: kill-all start: %w", err)
	}
	return Start{Problem: pr, HandicapStones: 2}, nil
}

// ProblemStarts returns one start per problem (no handicap opening). All
// problems must have the same board size.
func ProblemStarts(problems []*game.Problem) ([]Start, error) {
	if len(problems) == 0 {
		return nil, fmt.Errorf("selfplay: no problems to start from")
	}
	size := problems[0].Start.Size()
	out := make([]Start, len(problems))
	for i, pr := range problems {
		if pr.Start.Size() != size {
			return nil, fmt.Errorf("selfplay: problem %s is %dx%d, problem %s is %dx%d: one board size per run",
				pr.ID, pr.Start.Size(), pr.Start.Size(), problems[0].ID, size, size)
		}
		out[i] = Start{Problem: pr}
	}
	return out, nil
}

// inOpening reports whether pos is in the handicap opening.
func (s Start) inOpening(pos *game.Position) bool {
	return s.HandicapStones >= 2 && pos.MoveNumber()-s.Problem.Start.MoveNumber() < 2*s.HandicapStones-1
}

// forcedPass reports whether the side to move at pos must pass: the living
// side during the handicap opening.
func (s Start) forcedPass(pos *game.Position) bool {
	return pos.ToMove() == s.Problem.Living() && s.inOpening(pos)
}

// legalMoves returns the moves the side to move may choose from at pos:
// the legal points of the problem's region, and pass for the killer except
// in the opening, where it places its stones (a pass there would follow the
// living side's pass and end the game). The living side passes only when
// forced or when it has no legal point.
func (s Start) legalMoves(pos *game.Position, dst []game.Point) []game.Point {
	dst = dst[:0]
	if s.forcedPass(pos) {
		return append(dst, game.Pass)
	}
	dst = pos.LegalMoves(dst, &s.Problem.Region)
	if (pos.ToMove() != s.Problem.Living() && !s.inOpening(pos)) || len(dst) == 0 {
		dst = append(dst, game.Pass)
	}
	return dst
}
