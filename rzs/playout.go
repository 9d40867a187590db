package rzs

import (
	"lifezero/game"
)

// Playouts is an evaluator whose value blends Inner's with the share of
// Monte-Carlo playouts from the position that the living side wins: the
// classic value of Monte-Carlo Go (Coulom 2006; Gelly et al. 2006), and
// the initialisation that Monte-Carlo proof-number search gave its
// life-and-death solver (Saito et al. 2007). A static estimate of eyes
// cannot tell a capturing race that is lost from one that is merely long;
// play to the end, even random play that captures what it can and never
// fills its own eyes, often can. Like every value it only orders the
// search; nothing a playout finds is taken as proof.
//
// The priors are Inner's. The playouts are deterministic (seeded by the
// position's stones and side to move), so a search stays reproducible
// and the members of a portfolio share nothing.
type Playouts struct {
	Inner Evaluator
	// N is the number of playouts per evaluation.
	N int
	// Weight is the playouts' share of the value, in [0, 1].
	Weight float32
}

// Playouts is no PriorRefiner: a features model's Learned wraps it (the
// config puts the ranker outside), so the coarse value is already this
// one, and claiming to refine an Inner that does not would make the search
// rebuild every chosen node's children for nothing.
var _ BatchEvaluator = Playouts{}

// Evaluate implements Evaluator.
func (p Playouts) Evaluate(pos *game.Position, pr *game.Problem, moves []game.Point) ([]float32, float32) {
	priors, value := p.Inner.Evaluate(pos, pr, moves)
	return priors, p.blend(pos, pr, value)
}

// EvaluateBatch implements BatchEvaluator: the batch goes whole to Inner
// (a network's forward pass), and the playouts follow position by
// position.
func (p Playouts) EvaluateBatch(reqs []EvalRequest) error {
	if err := evaluateAll(p.Inner, reqs); err != nil {
		return err
	}
	for i := range reqs {
		reqs[i].Value = p.blend(reqs[i].Pos, reqs[i].Problem, reqs[i].Value)
	}
	return nil
}

// blend is the value with the playouts' share of it.
func (p Playouts) blend(pos *game.Position, pr *game.Problem, value float32) float32 {
	if p.N <= 0 || p.Weight <= 0 {
		return value
	}
	return (1-p.Weight)*value + p.Weight*playoutValue(pos, pr, p.N)
}

// playoutValue is the share of n playouts from pos that the living side
// wins, a playout won counting 1 and a tie (the move limit) one half.
func playoutValue(pos *game.Position, pr *game.Problem, n int) float32 {
	pl := newPlayer(pos, pr)
	seed := pos.StoneHash() ^ uint64(pos.ToMove())*0x9e3779b97f4a7c15
	won := float32(0)
	for i := range n {
		pl.rng = splitmix(seed + uint64(i)*0xbf58476d1ce4e5b9)
		won += pl.play(pos)
	}
	return won / float32(n)
}

// player plays one playout at a time from a position, its scratch kept
// across the playouts of one evaluation.
type player struct {
	pr      *game.Problem
	living  game.Color
	killAll bool    // the living side's goal is any stone alive (live_any)
	noKo    [3]bool // by colour: may not take a ko (NoKoCapture)
	board   game.Board
	region  []game.Point         // the region's points
	empty   []game.Point         // the region's empty points, the candidates of a move
	at      [game.MaxCells]int16 // index of an empty point in empty
	start   []game.Point         // the crucial stones standing at the start
	crucial []game.Point         // those still standing in the playout
	rng     uint64
}

// newPlayer returns a player of playouts from pos.
func newPlayer(pos *game.Position, pr *game.Problem) *player {
	pl := &player{pr: pr, living: pr.Living()}
	pl.killAll = pr.Goal[pl.living] == game.GoalLiveAny
	for _, c := range [2]game.Color{game.Black, game.White} {
		pl.noKo[c] = pos.KoRule(c) == game.NoKoCapture
	}
	pl.region = pr.Region.Points()
	pr.Crucial.ForEach(func(p game.Point) {
		if pos.At(p) == pl.living {
			pl.start = append(pl.start, p)
		}
	})
	pl.crucial = make([]game.Point, 0, len(pl.start))
	return pl
}

// play runs one playout from pos and scores it for the living side: 1 when
// a crucial stone stands at its end (any living stone in the region when
// the living side's goal is live_any, as in kill-all), 0 when none does,
// one half when the move limit ends it first. It ends when both sides
// pass in a row, which they do only when no playable move is left, so a
// group without two eyes is usually captured by then.
func (pl *player) play(pos *game.Position) float32 {
	pl.board = pos.Board
	pl.crucial = append(pl.crucial[:0], pl.start...)
	pl.collectEmpty()
	b := &pl.board
	toMove := pos.ToMove()
	limit := 3*len(pl.region) + 20
	last := game.Pass
	passes := 0
	for range limit {
		m := pl.choose(toMove, last)
		if m == game.Pass {
			passes++
			if passes == 2 {
				return pl.score()
			}
			b.Play(toMove, game.Pass) // clears the ko point; a pass is always legal
		} else {
			passes = 0
			captured, err := b.Play(toMove, m)
			if err != nil {
				// choose returns legal moves only; end the playout as a
				// tie rather than trust a board it failed on.
				return 0.5
			}
			pl.taken(m)
			if captured > 0 {
				pl.collectEmpty()
				if toMove != pl.living && !pl.killAll && pl.crucialGone() {
					return 0
				}
			}
		}
		last = m
		toMove = toMove.Opponent()
	}
	return 0.5
}

// score is the living side's result at a playout's end.
func (pl *player) score() float32 {
	if !pl.killAll {
		if pl.crucialGone() {
			return 0
		}
		return 1
	}
	for _, p := range pl.region {
		if pl.board.At(p) == pl.living {
			return 1
		}
	}
	return 0
}

// crucialGone reports whether every crucial stone has been captured. A
// crucial point retaken by a new stone of the living side does not bring
// the crucial stone back, so a capture removes a point from the list.
func (pl *player) crucialGone() bool {
	kept := pl.crucial[:0]
	for _, p := range pl.crucial {
		if pl.board.At(p) == pl.living {
			kept = append(kept, p)
		}
	}
	pl.crucial = kept
	return len(pl.crucial) == 0
}

// choose is the playout policy for c: capture a block of the opponent's
// next to the last move that is in atari; else save a block of c's next to
// it that is in atari by extending where that leaves it out of atari; else
// a uniformly random playable move of the region (see playable); else
// pass.
func (pl *player) choose(c game.Color, last game.Point) game.Point {
	if last != game.Pass {
		if m := pl.tactical(c, last); m != game.Pass {
			return m
		}
	}
	n := len(pl.empty)
	if n == 0 {
		return game.Pass
	}
	start := int(pl.next() % uint64(n))
	for i := range n {
		m := pl.empty[(start+i)%n]
		if pl.playable(c, m) {
			return m
		}
	}
	return game.Pass
}

// collectEmpty lists the region's empty points afresh.
func (pl *player) collectEmpty() {
	pl.empty = pl.empty[:0]
	for _, p := range pl.region {
		if pl.board.At(p) == game.Empty {
			pl.at[p] = int16(len(pl.empty))
			pl.empty = append(pl.empty, p)
		}
	}
}

// taken removes the point just played from the empty points.
func (pl *player) taken(m game.Point) {
	i := pl.at[m]
	last := pl.empty[len(pl.empty)-1]
	pl.empty[i] = last
	pl.at[last] = i
	pl.empty = pl.empty[:len(pl.empty)-1]
}

// tactical is the capture or the escape next to the last move, or Pass.
func (pl *player) tactical(c game.Color, last game.Point) game.Point {
	b := &pl.board
	escape := game.Pass
	for _, q := range b.Neighbors(last) {
		col := b.At(q)
		if col != game.Black && col != game.White {
			continue
		}
		lib, atari := b.AtariLiberty(q)
		if !atari || !pl.pr.Region.Has(lib) {
			continue
		}
		if col != c && b.Legal(c, lib) && !pl.koBarred(c, lib) {
			return lib // a capture
		}
		if col == c && escape == game.Pass && b.Legal(c, lib) && !bigSelfAtari(b, c, lib) {
			escape = lib
		}
	}
	return escape
}

// playable reports whether c may play the empty point m in a playout: legal,
// no ko c's rule forbids, not one of c's own eyes, and no self-atari of a
// block of two stones or more (a lone stone may throw in).
func (pl *player) playable(c game.Color, m game.Point) bool {
	b := &pl.board
	if !b.Legal(c, m) || pl.koBarred(c, m) || b.OwnEye(c, m) {
		return false
	}
	return !bigSelfAtari(b, c, m)
}

// bigSelfAtari reports whether c's stone at m would join a block of c's
// left with one liberty, capturing nothing.
func bigSelfAtari(b *game.Board, c game.Color, m game.Point) bool {
	for _, q := range b.Neighbors(m) {
		if b.At(q) == c {
			return b.SelfAtari(c, m)
		}
	}
	return false
}

// koBarred reports whether m would be a ko capture c's rule forbids.
func (pl *player) koBarred(c game.Color, m game.Point) bool {
	return pl.noKo[c] && pl.board.KoCapture(c, m)
}

// next is the playout's random stream (xorshift64*).
func (pl *player) next() uint64 {
	pl.rng ^= pl.rng >> 12
	pl.rng ^= pl.rng << 25
	pl.rng ^= pl.rng >> 27
	return pl.rng * 0x2545f4914f6cdd1d
}

// splitmix turns a seed into a non-zero xorshift state.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	x ^= x >> 31
	if x == 0 {
		x = 1
	}
	return x
}
