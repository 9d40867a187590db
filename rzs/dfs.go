package rzs

import (
	"context"
	"sort"
	"time"

	"lifezero/game"
)

// SolveDFS runs AchieveGoal, the depth-first form of RZS (paper 001,
// Algorithm 1), with the same zones, dilation and transposition table as
// the MCTS form. Moves are tried in the evaluator's prior order. A line
// deeper than MaxDepth, or a search past the budget, stays unproven: the
// depth-first form never turns "not yet searched" into a loss.
func SolveDFS(ctx context.Context, pr *game.Problem, opts Options) Result {
	opts.defaults(pr)
	d := newDFSSolver(ctx, pr, opts)
	start := time.Now()
	root := pr.StartPosition()
	st, zone, first, err := d.search(root, pr.Crucial, 0)
	res := Result{Status: st, Nodes: d.nodes, Seconds: time.Since(start).Seconds(), TTHits: d.tt.hitCount(),
		FirstMove: game.NoPoint, Aborted: err != nil && err != errBudget}
	if err != nil {
		res.Status = Unknown
		return res
	}
	if st == Win {
		res.Zone = zone
	}
	if st != Unknown {
		if (st == Win) == (root.ToMove() == d.living) {
			res.FirstMove = first
		} else {
			res.FirstMove = game.Pass
		}
	}
	return res
}

// newDFSSolver returns a depth-first solver of pr; opts has its defaults.
func newDFSSolver(ctx context.Context, pr *game.Problem, opts Options) *dfsSolver {
	d := &dfsSolver{pr: pr, opts: opts, living: pr.Living(), all: pr.Start.AllPoints(), ctx: ctx,
		rules: newProofRules(pr, opts.NoRZ)}
	if !opts.NoTT {
		d.tt = NewTT(0)
	}
	if opts.Timeout > 0 {
		d.deadline = time.Now().Add(opts.Timeout)
	}
	return d
}

type dfsSolver struct {
	// dep is set by every search: whether its result rests on the path's
	// superko history (a move barred by positional superko alone, here or
	// in a proof below it). Such results stay out of the transposition
	// table, as in the MCTS form (historyDep).
	dep      bool
	pr       *game.Problem
	opts     Options
	living   game.Color
	all      game.PointSet
	rules    proofRules
	tt       *TT
	nodes    int
	ctx      context.Context
	deadline time.Time
	view     game.Problem // the evaluator's problem view (see orderedMoves)
}

// search returns the status of pos, its zone when won, and the move that
// decides it at the root of this call (the winning or refuting move).
func (d *dfsSolver) search(pos *game.Position, standing game.PointSet, depth int) (Status, game.PointSet, game.Point, error) {
	d.dep = false
	if d.nodes >= d.opts.Budget {
		return Unknown, game.PointSet{}, game.NoPoint, errBudget
	}
	d.nodes++
	if d.nodes%1024 == 0 {
		d.checkMemory()
		if err := d.ctx.Err(); err != nil {
			return Unknown, game.PointSet{}, game.NoPoint, err
		}
		if !d.deadline.IsZero() && time.Now().After(d.deadline) {
			return Unknown, game.PointSet{}, game.NoPoint, context.DeadlineExceeded
		}
	}
	j := judge(d.pr, pos, &standing, d.opts.Safety)
	switch j.Outcome {
	case game.LivingWins:
		if d.opts.NoRZ {
			return Win, d.all, game.NoPoint, nil
		}
		return Win, j.Zone, game.NoPoint, nil
	case game.LivingFails:
		return Loss, game.PointSet{}, game.NoPoint, nil
	}
	key := ttKey(pos, &standing)
	if e, ok := d.tt.Lookup(key); ok {
		return e.status, e.zone, game.NoPoint, nil
	}
	if depth >= d.opts.MaxDepth {
		return Unknown, game.PointSet{}, game.NoPoint, nil
	}
	moves, barred := d.orderedMoves(pos, &standing)
	var st Status
	var zone game.PointSet
	var best game.Point
	var dep bool
	var err error
	if pos.ToMove() == d.living {
		st, zone, best, dep, err = d.orNode(pos, standing, moves, depth)
	} else {
		st, zone, best, dep, err = d.andNode(pos, standing, moves, depth)
	}
	d.dep = dep || barred > 0
	if err == nil && st != Unknown && !d.dep {
		d.tt.Store(key, ttEntry{st, zone})
	}
	return st, zone, best, err
}

// checkMemory keeps the transposition table, all the depth-first form
// holds, under the memory bound: it is cleared when it nears it.
func (d *dfsSolver) checkMemory() {
	if d.opts.MaxMemory > 0 && d.tt.bytes()+d.tt.zones.a.bytes() > int64(memHigh*float64(d.opts.MaxMemory)) {
		d.tt.clear()
	}
}

// orderedMoves returns the moves of pos, whose standing crucial stones are
// standing, in prior order and the number of moves barred by positional
// superko alone.
func (d *dfsSolver) orderedMoves(pos *game.Position, standing *game.PointSet) ([]game.Point, int) {
	moves, barred := pos.LegalMovesSuperko(nil, &d.pr.Region)
	if pos.ToMove() != d.living {
		moves = append(moves, game.Pass)
	}
	if len(moves) == 0 {
		return nil, barred
	}
	d.pr.StandingView(&d.view, standing)
	priors, _ := d.opts.Evaluator.Evaluate(pos, &d.view, moves)
	idx := make([]int, len(moves))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return priors[idx[a]] > priors[idx[b]] })
	out := make([]game.Point, len(moves))
	for i, k := range idx {
		out[i] = moves[k]
	}
	return out, barred
}

func (d *dfsSolver) child(pos *game.Position, standing *game.PointSet, m game.Point) (*game.Position, game.PointSet) {
	next := pos.Copy()
	if err := next.Play(m); err != nil {
		panic("rzs: legal move rejected: " + err.Error()) // moves come from LegalMoves
	}
	return next, d.pr.Standing(next, standing)
}

// orNode: the living side needs one winning move. dep says whether the
// result rests on a child result that depends on the history.
func (d *dfsSolver) orNode(pos *game.Position, standing game.PointSet, moves []game.Point, depth int) (Status, game.PointSet, game.Point, bool, error) {
	if len(moves) == 0 {
		return Loss, game.PointSet{}, game.NoPoint, false, nil // the living side has no move left
	}
	p := nodeProof{or: true, pos: pos, open: len(moves)}
	for _, m := range moves {
		st, z, next, err := d.try(pos, &standing, m, depth)
		if err != nil {
			return Unknown, game.PointSet{}, game.NoPoint, false, err
		}
		if st == Unknown {
			continue
		}
		if st, z, dep := p.apply(&d.rules, provenChild{move: m, status: st, zone: &z, dep: d.dep, next: next}); st != Unknown {
			return st, z, decided(st, Win, m), dep, nil
		}
	}
	return Unknown, game.PointSet{}, game.NoPoint, false, nil
}

// andNode: the killer's must-play region shrinks with every refuted move;
// the node is won when no unrefuted move is left in it.
func (d *dfsSolver) andNode(pos *game.Position, standing game.PointSet, moves []game.Point, depth int) (Status, game.PointSet, game.Point, bool, error) {
	var points game.PointSet
	for _, m := range moves {
		if m != game.Pass {
			points.Add(m)
		}
	}
	ns := newAndState(points)
	p := nodeProof{pos: pos, and: &ns}
	for _, m := range moves {
		if !ns.has(m) {
			continue
		}
		st, z, next, err := d.try(pos, &standing, m, depth)
		if err != nil {
			return Unknown, game.PointSet{}, game.NoPoint, false, err
		}
		if st == Unknown {
			continue // stays in the must-play region unless a null move prunes it
		}
		if st, z, dep := p.apply(&d.rules, provenChild{move: m, status: st, zone: &z, dep: d.dep, next: next}); st != Unknown {
			return st, z, decided(st, Loss, m), dep, nil
		}
	}
	return Unknown, game.PointSet{}, game.NoPoint, false, nil
}

// try searches the child of pos by m and returns its status, zone and
// position (d.dep is the child's dependence on the history).
func (d *dfsSolver) try(pos *game.Position, standing *game.PointSet, m game.Point, depth int) (Status, game.PointSet, *game.Position, error) {
	next, nextStanding := d.child(pos, standing, m)
	st, z, _, err := d.search(next, nextStanding, depth+1)
	return st, z, next, err
}

// decided is the move that decides a node proven st: m when st is the
// status its mover wants (a win at an OR node, a loss at an AND node),
// NoPoint otherwise.
func decided(st, want Status, m game.Point) game.Point {
	if st == want {
		return m
	}
	return game.NoPoint
}
