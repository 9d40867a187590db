package tsumego

import (
	"context"
	"fmt"
	"math/rand/v2"

	"lifezero/game"
)

// VariationConfig configures VariationSamples.
type VariationConfig struct {
	// Positions is how many variations are drawn and proved, spread evenly
	// over the book's problems.
	Positions int
	// MinMoves and MaxMoves bound the moves played from the book's
	// position (0: 1 and 3). The book's first move and its refutations lie
	// within the first few; deeper draws mostly leave a position one side
	// has already won, whose labels the critical check drops.
	MinMoves, MaxMoves int
	// Seed makes the variations reproducible.
	Seed uint64
	// Proof configures the proving searches and the labels.
	Proof ProofConfig
}

func (c *VariationConfig) defaults() {
	moveRange(&c.MinMoves, &c.MaxMoves, 1, 3)
	c.Proof.defaults()
}

// VariationSamples labels by proof positions near the book's problems: the
// corner analogue of KillAllSamples. Each variation is a book problem's
// position after MinMoves to MaxMoves moves of either side in turn, drawn
// from the proving evaluator's own priors over the problem's area, so the
// stones stand where a search would put them: a wrong first move and the
// killer's reply, a tesuji of the killer that the book's answer meets. It
// is then proved as ProofSamples proves a book problem (either side
// living). The book problem's own proofs reach such positions only along
// the lines they search; the variations add the positions beside them.
//
// Every sample carries From, the book problem it was drawn from, so that
// cross-validation keeps it out of the fold that measures that problem;
// the caller drops, as with every proof sample, any that overlaps a
// measured position.
func VariationSamples(ctx context.Context, problems []Problem, cfg VariationConfig, progress func(done int)) ([]Problem, ProofStats, error) {
	cfg.defaults()
	if len(problems) == 0 || cfg.Positions <= 0 {
		return nil, ProofStats{}, nil
	}
	return proveEach(ctx, cfg.Positions, cfg.Proof.Workers, progress, func(i int) proved {
		book := problems[i%len(problems)]
		v, ok := drawVariation(book, cfg, rand.New(rand.NewPCG(cfg.Seed, uint64(i))))
		if !ok {
			return proved{}
		}
		v.Name = fmt.Sprintf("%s/variation-%d", book.Name, i)
		return prove(ctx, v, book.Name, cfg.Proof)
	})
}

// drawVariation plays the random moves of one variation of book. ok is
// false when no variation was found: every draw (at most maxDraws) reached
// a position decided for either living side, or one with no legal move.
func drawVariation(book Problem, cfg VariationConfig, rng *rand.Rand) (Problem, bool) {
	const maxDraws = 20
	for range maxDraws {
		if pos, ok := playVariation(book.Position, cfg, rng); ok {
			return Problem{Position: pos, Answer: game.NoPoint}, true
		}
	}
	return Problem{}, false
}

// playVariation plays one draw of MinMoves to MaxMoves moves from start.
// The judges and the area follow the stones: at each move the problem is
// the position reached with either side living (undecidedProblem).
func playVariation(start *game.Position, cfg VariationConfig, rng *rand.Rand) (*game.Position, bool) {
	pos := start.Copy()
	n := cfg.MinMoves + rng.IntN(cfg.MaxMoves-cfg.MinMoves+1)
	if ok, err := playDrawn(pos, n, cfg.Proof.Evaluator, rng, undecidedProblem); !ok || err != nil {
		return nil, false // an error cannot happen: the moves are generated legal
	}
	pos.ClearHistory()
	return pos, true
}

// undecidedProblem returns pos set as the problem of its side to move
// living, when neither side's problem is already decided there (a
// living side without stones counts as decided).
func undecidedProblem(pos *game.Position) (*game.Problem, bool) {
	p := Problem{Position: pos}
	var mover *game.Problem
	for _, living := range []game.Color{game.Black, game.White} {
		pr, ok := proofProblem(p, living)
		if !ok || pr.Judge(pr.Start, &pr.Crucial).Outcome != game.Undecided {
			return nil, false
		}
		if living == pos.ToMove() {
			mover = pr
		}
	}
	return mover, true
}
