package rzs

import (
	"errors"

	"lifezero/game"
)

// ErrReferenceBudget is returned when the reference solver runs past its
// node limit.
var ErrReferenceBudget = errors.New("rzs: reference solver node limit reached")

// Reference is an exhaustive AND/OR solver without zones: every move of
// both sides is searched, proven positions are memoised by hash. It is the
// independent truth the soundness tests hold RZS against, so it is kept as
// plain as possible. A result whose search met a move forbidden only by
// positional superko depends on the path and is not memoised, so the
// memo never carries a history-dependent result to another path.
type Reference struct {
	pr       *game.Problem
	living   game.Color
	memo     map[uint64]Status
	nodes    int
	maxNodes int
}

// NewReference returns a reference solver for a problem's goals, region
// and ko rules, searching at most maxNodes positions per call.
func NewReference(pr *game.Problem, maxNodes int) *Reference {
	return &Reference{pr: pr, living: pr.Living(), memo: map[uint64]Status{}, maxNodes: maxNodes}
}

// Solve returns the exact status of pos with the given crucial stones still
// standing.
func (r *Reference) Solve(pos *game.Position, standing game.PointSet) (Status, error) {
	r.nodes = 0
	st, _, err := r.solve(pos, standing)
	return st, err
}

func (r *Reference) solve(pos *game.Position, standing game.PointSet) (Status, bool, error) {
	r.nodes++
	if r.nodes > r.maxNodes {
		return Unknown, false, ErrReferenceBudget
	}
	switch r.pr.Judge(pos, &standing).Outcome {
	case game.LivingWins:
		return Win, false, nil
	case game.LivingFails:
		return Loss, false, nil
	}
	key := ttKey(pos, &standing)
	if st, ok := r.memo[key]; ok {
		return st, false, nil
	}
	mover := pos.ToMove()
	or := mover == r.living
	moves, barred := pos.LegalMovesSuperko(nil, &r.pr.Region)
	historyDependent := barred > 0 // some move is forbidden by superko alone
	if !or {
		moves = append(moves, game.Pass)
	}
	result := Loss
	if !or {
		result = Win
	}
	for _, m := range moves {
		next := pos.Copy()
		if err := next.Play(m); err != nil {
			return Unknown, false, err
		}
		st, dep, err := r.solve(next, r.pr.Standing(next, &standing))
		if err != nil {
			return Unknown, false, err
		}
		historyDependent = historyDependent || dep
		if or && st == Win {
			result = Win
			break
		}
		if !or && st == Loss {
			result = Loss
			break
		}
	}
	if !historyDependent {
		r.memo[key] = result
	}
	return result, historyDependent, nil
}
