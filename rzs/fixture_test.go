package rzs

import (
	"fmt"
	"testing"

	"lifezero/game"
)

// fixture is a small problem written as rows of the board (row y = 0
// first): X and O are stones, . an empty point, @ a crucial White stone,
// all in the region; x, o, ',' and & are the same outside it. White lives
// (kill-all when no stone is crucial, else it must keep the crucial block)
// and may not take a ko, Black obeys positional superko, as in the problem
// files and randomProblem.
type fixture struct {
	toMove game.Color
	rows   []string
}

// problem builds the fixture's problem.
func (f fixture) problem(t *testing.T) *game.Problem {
	t.Helper()
	pr, err := f.build()
	if err != nil {
		t.Fatalf("fixture %q: %v", f.rows, err)
	}
	return pr
}

func (f fixture) build() (*game.Problem, error) {
	n := len(f.rows)
	pos, err := game.NewPosition(n)
	if err != nil {
		return nil, err
	}
	var region, crucial game.PointSet
	for y, row := range f.rows {
		if len(row) != n {
			return nil, fmt.Errorf("row %d has %d points, want %d", y, len(row), n)
		}
		for x := range n {
			p := pos.Point(x, y)
			c := row[x]
			switch c {
			case 'X', 'O', '.', '@':
				region.Add(p)
			case 'x', 'o', ',', '&':
			default:
				return nil, fmt.Errorf("row %d, column %d: unknown point %q", y, x, c)
			}
			switch c {
			case 'X', 'x':
				err = pos.Place(game.Black, p)
			case 'O', 'o':
				err = pos.Place(game.White, p)
			case '@', '&':
				err = pos.Place(game.White, p)
				crucial.Add(p)
			}
			if err != nil {
				return nil, fmt.Errorf("row %d, column %d: %w", y, x, err)
			}
		}
	}
	if err := pos.CheckNoDeadBlocks(); err != nil {
		return nil, err
	}
	pos.SetToMove(f.toMove)
	pos.SetKoRule(game.White, game.NoKoCapture)
	pos.SetKoRule(game.Black, game.PositionalSuperko)
	pr := &game.Problem{ID: "fixture", Start: pos, Answer: game.NoPoint, Region: region, Crucial: crucial}
	pr.Goal[game.White], pr.Goal[game.Black] = game.GoalLiveAny, game.GoalKillAll
	if !crucial.Empty() {
		pr.Goal[game.White], pr.Goal[game.Black] = game.GoalLive, game.GoalKill
	}
	return pr, nil
}
