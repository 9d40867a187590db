package game

import "fmt"

// KillAll returns the kill-all problem on an empty size x size board, with
// the rules of the papers' 7x7 kill-all set: White lives if any white
// stone becomes unconditionally alive (live_any) and Black, who moves
// first, must prevent it (kill_all); every point is in the region; Black
// may take kos, under positional superko (allow_ko), and White may not
// take one (disallow_ko, NoKoCapture). Self-play starts its kill-all games
// here, the random kill-all openings of package tsumego are played from
// it, and tests build their kill-all boards with it.
//
// Its ID is "killall<size>x<size>". Winner stays Empty: the empty board's
// result is not known (the papers' authors report that experts expect a
// White win), and Answer is NoPoint.
func KillAll(size int) (*Problem, error) {
	pos, err := NewPosition(size)
	if err != nil {
		return nil, fmt.Errorf("game: kill-all problem: %w", err)
	}
	pos.SetKoRule(Black, PositionalSuperko)
	pos.SetKoRule(White, NoKoCapture)
	pr := &Problem{
		ID:     fmt.Sprintf("killall%dx%d", size, size),
		Start:  pos,
		Region: pos.AllPoints(),
		Answer: NoPoint,
	}
	pr.Goal[Black], pr.Goal[White] = GoalKillAll, GoalLiveAny
	return pr, nil
}
