package features

import (
	"context"
	"fmt"
	"iter"

	"lifezero/game"
)

// Sample is one position of training data for LearnDiamonds and
// LearnShapes: the pattern around Move is counted, for the side to move.
// Move == game.NoPoint counts the patterns of every legal move instead; a
// pass counts nothing.
type Sample struct {
	Pos  *game.Position
	Move game.Point
}

// forEachSample calls count with every sample's position and the moves it
// asks to count (see Sample; never empty), checking the samples and ctx on
// the way; learner names the caller in errors.
func forEachSample(ctx context.Context, samples iter.Seq2[Sample, error], learner string, count func(g *geometry, pos *game.Position, moves []game.Point)) error {
	geos := make(map[int]*geometry)
	var legal []game.Point
	n := 0
	for s, err := range samples {
		if err != nil {
			return fmt.Errorf("features: %s: sample %d: %w", learner, n, err)
		}
		n++
		if n%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("features: %s: stopped after %d samples: %w", learner, n, err)
			}
		}
		if s.Pos == nil {
			return fmt.Errorf("features: %s: sample %d has no position", learner, n-1)
		}
		size := s.Pos.Size()
		g := geos[size]
		if g == nil {
			g = newGeometry(size)
			geos[size] = g
		}
		moves := []game.Point{s.Move}
		switch {
		case s.Move == game.NoPoint:
			legal = s.Pos.LegalMoves(legal[:0], nil)
			moves = legal
		case s.Move == game.Pass:
			continue
		case !s.Pos.OnBoard(s.Move) || s.Pos.At(s.Move) != game.Empty:
			return fmt.Errorf("features: %s: sample %d: move %s is not an empty point", learner, n-1, s.Pos.PointString(s.Move))
		}
		if len(moves) > 0 {
			count(g, s.Pos, moves)
		}
	}
	return nil
}
