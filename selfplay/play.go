package selfplay

import (
	"context"
	"fmt"
	"math/rand/v2"

	"lifezero/game"
	"lifezero/nn"
)

// Game is one finished self-play game.
type Game struct {
	Index   int
	Start   Start
	Moves   []game.Point // from the start position, passes included
	Outcome Outcome
	samples []sample
}

// sample is a searched position of a game; its targets come when the game
// ends.
type sample struct {
	planes, policy []float32
	move           int // move number
	toMove         game.Color
}

// gameParams are the settings one game's searches use.
type gameParams struct {
	sims, dw, maxMove int
	alpha, eps        float64
}

// gameState is a game being played.
type gameState struct {
	g        *Game
	pos      *game.Position
	standing game.PointSet
	crucial  game.Problem // the problem with Crucial = standing, for Encode
	params   gameParams
	rng      *rand.Rand
	search   *search
	over     bool
}

// player plays chunks of games in lockstep with batched evaluation.
type player struct {
	opts *Options
	cfg  nn.Config
}

// newGame sets up game number index: its start (the starts in turn), its
// random source (from the seed and the index alone, so a game does not
// depend on which chunk or worker plays it) and its move cap.
func (p *player) newGame(index int) *gameState {
	start := p.opts.Starts[index%len(p.opts.Starts)]
	pr := start.Problem
	pos := pr.StartPosition()
	moveCap := p.opts.MaxMoves
	if moveCap <= 0 {
		moveCap = 2 * pr.Region.Len()
	}
	gs := &gameState{
		g:        &Game{Index: index, Start: start},
		pos:      pos,
		standing: pr.Crucial,
		crucial:  *pr,
		rng:      rand.New(rand.NewPCG(p.opts.Seed, uint64(index))),
		params: gameParams{sims: p.opts.Simulations, dw: p.opts.DW, maxMove: pos.MoveNumber() + moveCap,
			alpha: p.opts.DirichletAlpha, eps: p.opts.DirichletWeight},
	}
	gs.g.Outcome.Living = pr.Living()
	return gs
}

// playChunk plays the games with the given indices to their ends.
func (p *player) playChunk(ctx context.Context, indices []int, onGame func(*Game)) ([]*Game, error) {
	states := make([]*gameState, len(indices))
	for i, idx := range indices {
		states[i] = p.newGame(idx)
	}
	in := p.cfg.InputSize()
	planes := make([]float32, len(states)*p.opts.LeavesPerGame*in)
	var leaves []*leaf
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		leaves = leaves[:0]
		active := 0
		for _, gs := range states {
			if !gs.over && gs.search == nil {
				if err := p.advance(gs); err != nil {
					return nil, err
				}
				if gs.over && onGame != nil {
					onGame(gs.g)
				}
			}
			if gs.over {
				continue
			}
			active++
			var err error
			if leaves, err = p.collect(gs.search, leaves); err != nil {
				return nil, fmt.Errorf("selfplay: game %d: %w", gs.g.Index, err)
			}
		}
		if active == 0 {
			break
		}
		if err := p.evaluate(leaves, planes); err != nil {
			return nil, err
		}
		for _, gs := range states {
			if gs.search != nil && gs.search.finished() {
				if err := p.playSearched(gs); err != nil {
					return nil, err
				}
			}
		}
	}
	games := make([]*Game, len(states))
	for i, gs := range states {
		games[i] = gs.g
	}
	return games, nil
}

// collect runs simulations of s until it has queued LeavesPerGame leaves or
// wants no more; game ends met on the way are backed up at once.
func (p *player) collect(s *search, leaves []*leaf) ([]*leaf, error) {
	queued := 0
	for tries := 0; queued < p.opts.LeavesPerGame && s.wantsMore() && tries < 4*p.opts.LeavesPerGame+s.sims; tries++ {
		lf, collided, err := s.simulate()
		if err != nil {
			return leaves, err
		}
		if collided {
			break // the rest of the tree waits for the queued leaves
		}
		if lf != nil {
			leaves = append(leaves, lf)
			queued++
		}
	}
	return leaves, nil
}

// evaluate runs the network on the leaves in one batch and applies the
// results.
func (p *player) evaluate(leaves []*leaf, planes []float32) error {
	if len(leaves) == 0 {
		return nil
	}
	in := p.cfg.InputSize()
	for i, lf := range leaves {
		pr := *lf.s.start.Problem
		pr.Crucial = lf.standing
		if err := p.cfg.Encode(lf.pos, &pr, planes[i*in:(i+1)*in]); err != nil {
			return fmt.Errorf("selfplay: %w", err)
		}
	}
	policy, value, dwin, err := p.opts.Net.Forward(planes[:len(leaves)*in], len(leaves))
	if err != nil {
		return fmt.Errorf("selfplay: evaluate %d leaves: %w", len(leaves), err)
	}
	for i, lf := range leaves {
		lf.s.apply(lf, policy[i], value[i], dwin[i])
	}
	return nil
}

// advance moves a game on to its next searched move: it ends the game if it
// is over and plays forced moves (a single legal move) without a search.
func (p *player) advance(gs *gameState) error {
	start := gs.g.Start
	for {
		if o, over := p.ended(gs); over {
			gs.g.Outcome = o
			gs.over = true
			return nil
		}
		moves := start.legalMoves(gs.pos, nil)
		if len(moves) > 1 {
			gs.search = newSearch(start, gs.pos.Copy(), gs.standing, &gs.params, gs.rng)
			return nil
		}
		if err := p.play(gs, moves[0]); err != nil {
			return err
		}
	}
}

// ended reports whether the game is over at its current position.
func (p *player) ended(gs *gameState) (Outcome, bool) {
	pr := gs.g.Start.Problem
	o := Outcome{Living: pr.Living(), EndMove: gs.pos.MoveNumber()}
	if o.Result = pr.Judge(gs.pos, &gs.standing).Outcome; o.Result != game.Undecided {
		return o, true
	}
	return o, gs.pos.MoveNumber() >= gs.params.maxMove
}

// playSearched plays the move the finished search chose and records the
// position as a sample.
func (p *player) playSearched(gs *gameState) error {
	start := gs.g.Start
	sampleMove := gs.pos.MoveNumber()-start.Problem.Start.MoveNumber() < p.opts.TempMoves
	move, policy := gs.search.choose(sampleMove, p.cfg.PolicySize())
	gs.search = nil
	planes := make([]float32, p.cfg.InputSize())
	gs.crucial.Crucial = gs.standing
	if err := p.cfg.Encode(gs.pos, &gs.crucial, planes); err != nil {
		return fmt.Errorf("selfplay: %w", err)
	}
	gs.g.samples = append(gs.g.samples, sample{planes: planes, policy: policy, move: gs.pos.MoveNumber(), toMove: gs.pos.ToMove()})
	return p.play(gs, move)
}

// play plays a move of the game.
func (p *player) play(gs *gameState, m game.Point) error {
	if err := gs.pos.Play(m); err != nil {
		return fmt.Errorf("selfplay: game %d: %w", gs.g.Index, err)
	}
	gs.g.Moves = append(gs.g.Moves, m)
	pr := gs.g.Start.Problem
	if pr.Goal[pr.Living()] == game.GoalLive {
		gs.standing = pr.Standing(gs.pos, &gs.standing)
	}
	return nil
}
