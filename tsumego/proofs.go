package tsumego

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"

	"lifezero/game"
	"lifezero/rzs"
)

// ProofConfig configures ProofSamples.
type ProofConfig struct {
	// Budget is the solver's node budget per problem and side (0: 5,000).
	Budget int
	// MaxDepth is the deepest proof node a sample is taken from, in moves
	// from the problem's position (0: 8). Deep proof nodes are mostly the
	// filling moves that reach Benson life, which the solver's searches
	// rarely need help with.
	MaxDepth int
	// PerProblem caps the samples taken from one problem's proofs (0: 12),
	// shallowest first, so that a few long proofs do not outweigh the book.
	PerProblem int
	// Evaluator orders the proving searches (nil: TrainingEvaluator()). It is called
	// from Workers goroutines at once.
	Evaluator rzs.Evaluator
	// Workers is how many problems are proved at once (0: 1).
	Workers int
	// CriticalBudget is the node budget of the check that keeps a label
	// only where the side to move must act (0: Budget; see critical).
	CriticalBudget int
}

// TrainingEvaluator is the evaluator that orders the proving searches of
// training: ldb without the eye shapes (rzs.LD.Shapes), as every model
// measured in docs/results/tsumego.md was trained. The shapes change the
// value and so which proofs a search of a fixed budget finds; keeping the
// training's evaluator keeps a model retrained from the same data the
// model measured.
func TrainingEvaluator() rzs.Evaluator { return rzs.LDBNoShapes() }

func (c *ProofConfig) defaults() {
	if c.Budget <= 0 {
		c.Budget = 5000
	}
	if c.MaxDepth <= 0 {
		c.MaxDepth = 8
	}
	if c.PerProblem <= 0 {
		c.PerProblem = 12
	}
	if c.Evaluator == nil {
		c.Evaluator = TrainingEvaluator()
	}
	c.Workers = max(c.Workers, 1)
	if c.CriticalBudget <= 0 {
		c.CriticalBudget = c.Budget
	}
}

// ProofStats counts what ProofSamples did.
type ProofStats struct {
	Problems int // book problems tried
	Solves   int // searches run (two per problem: either side living)
	Proven   int // searches that proved their root
	Labels   int // winning moves found in the proofs (before the check that the mover must act)
	Samples  int // samples taken from the proofs
}

// ProofSamples labels positions by proof, the solver's own knowledge: each
// book problem is set as two solver problems, one per living side (the
// book does not say whether the side to play lives or kills), with the
// living side's stones as the crucial stones and the problem's Area, stones
// included, as the region. Every search that proves its root yields a
// sample at each proof node where the side to move is the proven winner:
// that node's position with the proof's winning move as the answer. The
// samples carry From, the book problem's name, so that cross-validation
// keeps them out of the fold that measures their problem.
//
// The labels are exact for these positions under the solver's rules (its
// proofs are sound), whatever the book says; a position may have other
// winning moves, so a sample says "this move wins", not "only this one".
func ProofSamples(ctx context.Context, problems []Problem, cfg ProofConfig, progress func(done int)) ([]Problem, ProofStats, error) {
	cfg.defaults()
	return proveEach(ctx, len(problems), cfg.Workers, progress, func(i int) proved {
		return prove(ctx, problems[i], problems[i].Name, cfg)
	})
}

// proveEach runs prove(i) for i in [0, n) on workers goroutines and sums
// what they gave, in i's order (so the samples do not depend on timing).
func proveEach(ctx context.Context, n, workers int, progress func(done int), prove func(i int) proved) ([]Problem, ProofStats, error) {
	results := make([]proved, n)
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = prove(i)
				mu.Lock()
				done++
				if progress != nil {
					progress(done)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := range n {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, ProofStats{}, err
	}
	var out []Problem
	st := ProofStats{Problems: n}
	for _, r := range results {
		st.Solves += r.solves
		st.Proven += r.proven
		st.Labels += r.labels
		st.Samples += len(r.samples)
		out = append(out, r.samples...)
	}
	return out, st, nil
}

// proved is what the searches on one book problem gave.
type proved struct {
	solves, proven, labels int
	samples                []Problem
}

// prove runs the searches of one problem (one per living side) and takes
// the samples of their proofs, named after p and taken From from (the
// book problem p is, or was drawn from).
func prove(ctx context.Context, p Problem, from string, cfg ProofConfig) proved {
	var r proved
	for _, living := range []game.Color{game.Black, game.White} {
		if pr, ok := proofProblem(p, living); ok {
			r.add(ctx, p.Name, from, pr, cfg)
		}
	}
	r.samples = shallowest(r.samples, cfg.PerProblem)
	return r
}

// add proves pr and adds the samples of its proof, where the mover must
// act, named after name and taken From from (see Problem.From).
func (r *proved) add(ctx context.Context, name, from string, pr *game.Problem, cfg ProofConfig) {
	r.solves++
	res := rzs.Solve(ctx, pr, rzs.Options{Budget: cfg.Budget, Evaluator: cfg.Evaluator})
	if res.Status == rzs.Unknown || res.Tree == nil {
		return
	}
	r.proven++
	labels := proofLabels(name, from, pr, res.Tree, cfg.MaxDepth)
	r.labels += len(labels)
	for _, l := range labels {
		if critical(ctx, pr, l.Position, cfg) {
			r.samples = append(r.samples, l)
		}
	}
}

// proofProblem sets a book problem as a solver problem in which living
// must make one of its stones unconditionally alive. The killer may take
// kos; the living side may not (a proof then never rests on a ko). It
// reports false when living has no stone.
func proofProblem(p Problem, living game.Color) (*game.Problem, bool) {
	start := p.Position.Copy()
	start.SetKoRule(living, game.NoKoCapture)
	start.SetKoRule(living.Opponent(), game.PositionalSuperko)
	pr := &game.Problem{ID: p.Name, Source: p.Name, Start: start, Answer: game.NoPoint}
	pr.Goal[living], pr.Goal[living.Opponent()] = game.GoalLive, game.GoalKill
	b := &start.Board
	size := b.Size()
	for y := range size {
		for x := range size {
			pt := b.Point(x, y)
			if b.At(pt) == living {
				pr.Crucial.Add(pt)
			}
			if nearStone(b, x, y) {
				pr.Region.Add(pt)
			}
		}
	}
	return pr, !pr.Crucial.Empty()
}

// proofLabels walks a proof tree from the problem's start and returns a
// sample at every node, at most maxDepth moves deep, where the side to move
// is the proven winner and wins by a board move, named after name and
// taken From from.
func proofLabels(name, from string, pr *game.Problem, tree *rzs.ProofTree, maxDepth int) []Problem {
	var out []Problem
	living := pr.Living()
	var walk func(t *rzs.ProofTree, pos *game.Position, depth int)
	walk = func(t *rzs.ProofTree, pos *game.Position, depth int) {
		if t.Status == rzs.Unknown || depth > maxDepth {
			return
		}
		moverWins := (t.Status == rzs.Win) == (pos.ToMove() == living)
		for _, c := range t.Children {
			if c.Status != t.Status {
				continue // an unproven or refuted side line kept in the tree
			}
			if moverWins && c.Move != game.Pass {
				out = append(out, Problem{Name: fmt.Sprintf("%s/%v-lives/%d", name, living, len(out)),
					Position: pos.Copy(), Answer: c.Move, From: from, Depth: depth})
			}
			next := pos.Copy()
			if err := next.Play(c.Move); err != nil {
				continue // cannot happen: the tree's moves were played legally
			}
			walk(c, next, depth+1)
		}
	}
	walk(tree, pr.StartPosition(), 0)
	return out
}

// critical reports whether the side to move in pos, a position of pr's
// proof where it wins, may need to act there: unless the opponent, given a
// free move instead (a null move), is proven within cfg.CriticalBudget
// nodes to lose all the same. Where the mover wins anyway (a group already
// alive, a problem set for the wrong side), any move wins and the proof's
// move is only the first one the search tried; such labels would teach the
// search its own guesses, so they are dropped. An unproven check keeps the
// label: proving the null move's loss can cost far more than the proof did.
// (The null move is not a pass: under the solver's rules a pass answered by
// a pass ends the game as a failure of the living side.)
func critical(ctx context.Context, pr *game.Problem, pos *game.Position, cfg ProofConfig) bool {
	mover := pos.ToMove()
	after := pos.Copy()
	after.SetToMove(mover.Opponent())
	after.ResetPasses()
	q := *pr
	q.Start = after
	res := rzs.Solve(ctx, &q, rzs.Options{Budget: cfg.CriticalBudget, Evaluator: cfg.Evaluator})
	if res.Status == rzs.Unknown {
		return true
	}
	moverWins := (res.Status == rzs.Win) == (mover == pr.Living())
	return !moverWins
}

// shallowest keeps at most n samples, the shallowest first (a stable
// sort, so equal depths keep the proofs' order).
func shallowest(s []Problem, n int) []Problem {
	if len(s) <= n {
		return s
	}
	slices.SortStableFunc(s, func(a, b Problem) int { return cmp.Compare(a.Depth, b.Depth) })
	return s[:n]
}
