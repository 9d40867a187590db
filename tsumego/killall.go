package tsumego

import (
	"context"
	"fmt"
	"math/rand/v2"

	"lifezero/game"
	"lifezero/mcts"
	"lifezero/rzs"
)

// KillAllConfig configures KillAllSamples.
type KillAllConfig struct {
	// Positions is how many random kill-all positions are proved.
	Positions int
	// Size is the board size (0: 7, the size of the papers' kill-all set).
	Size int
	// MinMoves and MaxMoves bound the moves played after Black's two
	// opening stones (0: 16 and 28). Fewer moves give open positions that
	// a short proof rarely settles: on 40 positions of seed 11 at 5,000
	// nodes, 16-28 moves gave 9 proofs and 25 labels where the mover must
	// act, against 1 proof in 24 positions of 8-24 moves at 3,000.
	MinMoves, MaxMoves int
	// Seed makes the positions reproducible.
	Seed uint64
	// Proof configures the proving searches and the labels.
	Proof ProofConfig
}

// defaults fills in the zero fields.
func (c *KillAllConfig) defaults() {
	if c.Size <= 0 {
		c.Size = 7
	}
	moveRange(&c.MinMoves, &c.MaxMoves, 16, 28)
	c.Proof.defaults()
}

// moveRange fills in a drawn position's range of moves: lo for a minimum
// not given, and hi (or the minimum, if larger) for a maximum below it.
func moveRange(minMoves, maxMoves *int, lo, hi int) {
	if *minMoves <= 0 {
		*minMoves = lo
	}
	if *maxMoves < *minMoves {
		*maxMoves = max(hi, *minMoves)
	}
}

// KillAllName is the From of KillAllSamples' samples: they come from no
// book problem, so cross-validation never measures them (see
// TrainConfig.Extra).
const KillAllName = "killall-random"

// KillAllSamples labels random kill-all positions by proof, as ProofSamples
// does book problems: whole-board fights (Black kills all, White lives
// anywhere, the rules of the papers' 7x7 set: Black may take kos, White may
// not), which the corner problems of a book do not show. Each position is
// Black's two opening stones and then MinMoves to MaxMoves moves sampled
// from the proving evaluator's own priors, so the stones stand where a
// search would put them; positions decided before the last move are
// drawn again. The positions are random, never a measured problem's (the
// caller may still drop any that a measured position contains).
func KillAllSamples(ctx context.Context, cfg KillAllConfig, progress func(done int)) ([]Problem, ProofStats, error) {
	cfg.defaults()
	problems, err := KillAllPositions(ctx, cfg)
	if err != nil {
		return nil, ProofStats{}, err
	}
	return proveEach(ctx, len(problems), cfg.Proof.Workers, progress, func(i int) proved {
		var r proved
		r.add(ctx, problems[i].ID, KillAllName, problems[i], cfg.Proof)
		r.samples = shallowest(r.samples, cfg.Proof.PerProblem)
		return r
	})
}

// KillAllPositions draws the cfg.Positions random kill-all positions that
// KillAllSamples proves (cfg.Proof.Evaluator draws the moves; nothing is
// proved here), each a problem of the papers' 7x7 rules with the whole
// board as region, named KillAllName/i. The i-th position depends only on
// cfg's seed, sizes and evaluator and on i.
func KillAllPositions(ctx context.Context, cfg KillAllConfig) ([]*game.Problem, error) {
	cfg.defaults()
	problems := make([]*game.Problem, cfg.Positions)
	for i := range problems {
		pr, err := randomKillAll(ctx, cfg, uint64(i))
		if err != nil {
			return nil, err
		}
		problems[i] = pr
	}
	return problems, nil
}

// randomKillAll draws the i-th random position of cfg. A draw decided
// before its last move is drawn again, at most maxDraws times: a config
// whose games are nearly always decided early is an error, not a hang.
func randomKillAll(ctx context.Context, cfg KillAllConfig, i uint64) (*game.Problem, error) {
	const maxDraws = 1000
	rng := rand.New(rand.NewPCG(cfg.Seed, i))
	for range maxDraws {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pr, ok, err := drawKillAll(cfg, rng)
		if err != nil {
			return nil, err
		}
		if ok {
			pr.ID = fmt.Sprintf("%s/%d", KillAllName, i)
			pr.Source = pr.ID
			return pr, nil
		}
	}
	return nil, fmt.Errorf("tsumego: kill-all position %d: every one of %d draws of %d-%d moves on %dx%d was decided before its last move",
		i, maxDraws, cfg.MinMoves, cfg.MaxMoves, cfg.Size, cfg.Size)
}

// drawKillAll plays one random kill-all opening; ok is false when the game
// was decided (or ran out of moves) before its last move.
func drawKillAll(cfg KillAllConfig, rng *rand.Rand) (*game.Problem, bool, error) {
	pr, err := game.KillAll(cfg.Size)
	if err != nil {
		return nil, false, err
	}
	b := &pr.Start.Board
	pos := pr.StartPosition()
	// Black's two opening stones, off the edge as in the papers' set, with
	// White's pass between them.
	for _, m := range []game.Point{inner(b, rng), game.Pass, inner(b, rng)} {
		if err := pos.Play(m); err != nil {
			return nil, false, nil // the same point twice: draw again
		}
	}
	n := cfg.MinMoves + rng.IntN(cfg.MaxMoves-cfg.MinMoves+1)
	var standing game.PointSet
	undecided := func(pos *game.Position) (*game.Problem, bool) {
		return pr, pr.Judge(pos, &standing).Outcome == game.Undecided
	}
	if ok, err := playDrawn(pos, n, cfg.Proof.Evaluator, rng, undecided); !ok || err != nil {
		return nil, false, err
	}
	pos.ClearHistory() // and its passes: a fresh start
	pr.Start = pos
	return pr, true, nil
}

// playDrawn plays n moves on pos, each drawn from eval's priors over the
// legal moves of the problem that at sets up on the position reached, and
// reports whether every position on the way and the last one were
// undecided (at's ok) with a legal move to play.
func playDrawn(pos *game.Position, n int, eval rzs.Evaluator, rng *rand.Rand, at func(*game.Position) (*game.Problem, bool)) (bool, error) {
	var moves []game.Point
	for range n {
		pr, ok := at(pos)
		if !ok {
			return false, nil
		}
		moves = pos.LegalMoves(moves[:0], &pr.Region)
		if len(moves) == 0 {
			return false, nil
		}
		priors, _ := eval.Evaluate(pos, pr, moves)
		if err := pos.Play(moves[sample(priors, rng)]); err != nil {
			return false, fmt.Errorf("tsumego: a generated legal move: %w", err)
		}
	}
	_, ok := at(pos)
	return ok, nil
}

// inner draws a point off the board's edge.
func inner(b *game.Board, rng *rand.Rand) game.Point {
	n := b.Size() - 2
	return b.Point(1+rng.IntN(n), 1+rng.IntN(n))
}

// sample draws an index with probability proportional to w (uniformly
// when w has no mass).
func sample(w []float32, rng *rand.Rand) int {
	if i := mcts.DrawWeighted(rng, w); i >= 0 {
		return i
	}
	return rng.IntN(len(w))
}
