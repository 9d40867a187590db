package selfplay

import (
	"context"
	"fmt"
	"math/rand/v2"

	"lifezero/game"
	"lifezero/mcts"
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
	moves    []game.Point // advance's legal moves, kept for the next move
	// carry is the finished search of an earlier move and carryID the
	// node of its tree at the current position, while ReuseTree is on and
	// the moves played since lead to an evaluated node; else nil.
	carry   *search
	carryID mcts.NodeID
	// spare is a search no longer used, recycled by the next search.
	spare *search
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
	bt := p.newBatcher(len(states))
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
		if err := p.evaluate(leaves, bt); err != nil {
			return nil, err
		}
		for _, gs := range states {
			if gs.search != nil && gs.search.core.Finished() {
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
// wants no more; game ends met on the way are backed up at once. It
// gathers the leaves one Collect each, a slot (scratch position) per leaf:
// the same descents as one Collect of them all, which stops where a
// Collect of one returns none (a collision, or no simulation wanted).
func (p *player) collect(s *search, leaves []*leaf) ([]*leaf, error) {
	for len(s.slots) < p.opts.LeavesPerGame {
		s.slots = append(s.slots, new(game.Position))
	}
	for s.slot = 0; s.slot < p.opts.LeavesPerGame; s.slot++ {
		n := len(leaves)
		var err error
		if leaves, err = s.core.Collect(1, leaves); err != nil || len(leaves) == n {
			return leaves, err
		}
	}
	return leaves, nil
}

// batcher evaluates the leaves of one chunk, as the chunk's
// mcts.Evaluator: it encodes them, answers what the cache knows, sends
// each other distinct position to the network once, in one batch, and
// fills the leaves in their order.
type batcher struct {
	cfg    nn.Config
	net    Net
	cache  *evalCache // nil: no cache
	planes []float32
	row    []int             // per leaf: its batch row, or -1 (cache hit)
	hit    []cachedEval      // per leaf, when row is -1
	keys   [][2]uint64       // per batch row
	index  map[[2]uint64]int // batch row of a key
	moves  []game.Point      // the leaves' legal moves, one after another
	priors []float32         // and their priors
	// Evaluated counts positions sent to the network, Hits the leaves
	// answered by the cache or by another leaf of the same batch.
	evaluated, hits int
}

func (p *player) newBatcher(games int) *batcher {
	return &batcher{cfg: p.cfg, net: p.opts.Net, cache: newEvalCache(p.opts.CacheEntries),
		planes: make([]float32, games*p.opts.LeavesPerGame*p.cfg.InputSize()),
		index:  make(map[[2]uint64]int)}
}

// evaluate runs the network on the leaves and applies the results.
func (p *player) evaluate(leaves []*leaf, bt *batcher) error {
	return mcts.Evaluate(bt, leaves)
}

// EvaluateBatch implements mcts.Evaluator.
func (bt *batcher) EvaluateBatch(leaves []*leaf) error {
	in := bt.cfg.InputSize()
	bt.row, bt.hit, bt.keys = bt.row[:0], bt.hit[:0], bt.keys[:0]
	clear(bt.index)
	n := 0
	for _, lf := range leaves {
		if need := (n + 1) * in; need > len(bt.planes) {
			bt.planes = append(bt.planes, make([]float32, need-len(bt.planes))...)
		}
		x := bt.planes[n*in : (n+1)*in]
		if err := encode(bt.cfg, &lf.State, x); err != nil {
			return err
		}
		if bt.cache != nil {
			k := bt.cache.key(x)
			if e, ok := bt.cache.get(k); ok {
				bt.row, bt.hit = append(bt.row, -1), append(bt.hit, e)
				bt.hits++
				continue
			}
			if j, ok := bt.index[k]; ok {
				bt.row, bt.hit = append(bt.row, j), append(bt.hit, cachedEval{})
				bt.hits++
				continue
			}
			bt.index[k] = n
			bt.keys = append(bt.keys, k)
		}
		bt.row, bt.hit = append(bt.row, n), append(bt.hit, cachedEval{})
		n++
	}
	var (
		policy [][]float32
		value  []float32
		dwin   [][]float32
	)
	if n > 0 {
		var err error
		if policy, value, dwin, err = bt.net.Forward(bt.planes[:n*in], n); err != nil {
			return fmt.Errorf("selfplay: evaluate %d leaves: %w", n, err)
		}
		bt.evaluated += n
	}
	bt.moves, bt.priors = bt.moves[:0], bt.priors[:0]
	for i, lf := range leaves {
		if j := bt.row[i]; j >= 0 {
			bt.fill(lf, policy[j], value[j], dwin[j])
			continue
		}
		e := bt.hit[i]
		bt.fill(lf, e.policy, e.value, e.dwin)
	}
	if bt.cache != nil { // after the fills: a put may empty the cache, and its hits with it
		for j, k := range bt.keys {
			bt.cache.put(k, policy[j], value[j], dwin[j])
		}
	}
	return nil
}

// encode writes the network's input planes for a descent's position: the
// problem seen with its standing crucial stones as Crucial.
func encode(cfg nn.Config, st *state, x []float32) error {
	var pr game.Problem
	st.s.start.Problem.StandingView(&pr, &st.standing)
	if err := cfg.Encode(st.pos, &pr, x); err != nil {
		return fmt.Errorf("selfplay: %w", err)
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
			gs.carry, gs.spare = nil, nil
			return nil
		}
		gs.moves = start.legalMoves(gs.pos, gs.moves)
		if len(gs.moves) > 1 {
			gs.search = newSearch(start, gs.pos.Copy(), gs.standing, &gs.params, gs.rng, gs.spare)
			gs.spare = nil
			if gs.carry != nil {
				gs.search.adopt(gs.carry, gs.carryID)
				gs.spare, gs.carry = gs.carry, nil
			}
			return nil
		}
		if err := p.play(gs, gs.moves[0]); err != nil {
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
	if p.opts.ReuseTree {
		gs.carry, gs.carryID = gs.search, 0
	} else {
		gs.spare = gs.search
	}
	gs.search = nil
	planes := make([]float32, p.cfg.InputSize())
	gs.g.Start.Problem.StandingView(&gs.crucial, &gs.standing)
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
	if gs.carry != nil {
		gs.carryID = gs.carry.tree.Child(gs.carryID, m)
		if gs.carryID == mcts.None || gs.carry.core.Status(gs.carryID) != mcts.Inner {
			gs.spare, gs.carry = gs.carry, nil
		}
	}
	pr := gs.g.Start.Problem
	if pr.Goal[pr.Living()] == game.GoalLive {
		gs.standing = pr.Standing(gs.pos, &gs.standing)
	}
	return nil
}
