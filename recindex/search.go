package recindex

import (
	"cmp"
	"context"
	"fmt"
	"math/bits"
	"slices"
	"sort"
	"sync"
)

// Options configures a search.
type Options struct {
	NoSymmetry bool // match the pattern as drawn, not under the 8 symmetries
	NoSwap     bool // do not match with the colours swapped
	Workers    int  // goroutines (0 or 1: the caller's)
}

// Hit is one appearance of the pattern: in game Game, the position after
// move Move matches the pattern at a placement and the position before it
// does not (the move, or a capture it made, completed the pattern).
type Hit struct {
	Game    int          `json:"game"` // index in the record index
	Move    int          `json:"move"` // 1-based
	X       int          `json:"x"`    // top-left corner of the matched rectangle, 0-based
	Y       int          `json:"y"`
	Sym     int          `json:"sym"`     // symmetry applied to the pattern (as game.Symmetry)
	Swapped bool         `json:"swapped"` // colours swapped: the pattern's X are white stones
	Next    Continuation `json:"next"`
}

// Continuation is the first move after a hit played inside the matched
// rectangle, in the pattern's own terms.
type Continuation struct {
	Move   int    `json:"move"`             // its 1-based move number; 0 when no later move lands inside
	X      int    `json:"x"`                // column in the pattern as drawn, 0-based
	Y      int    `json:"y"`                // row in the pattern as drawn, 0-based
	Player Player `json:"player,omitempty"` // who played it, in the pattern's colours
	Result int    `json:"result"`           // +1 that player won the game, -1 lost, 0 draw or unknown
}

// Player is a side in the pattern's colours: 'X' (the colour drawn X),
// 'O', or 0 for none.
type Player byte

func (p Player) String() string {
	if p == 0 {
		return ""
	}
	return string(rune(p))
}

// MarshalText writes "X" or "O".
func (p Player) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// Result is the answer to a search.
type Result struct {
	Variants      int        `json:"variants"` // distinct symmetric and colour-swapped forms searched
	Hits          []Hit      `json:"hits"`     // every hit, by game, move and place
	Games         int        `json:"games"`    // games with at least one hit
	Continuations []ContStat `json:"continuations"`
	Scanned       int        `json:"scanned"`  // index entries whose key was tested
	Verified      int        `json:"verified"` // entries checked point by point
}

// Search finds every appearance of p in the indexed games. Candidates come
// from the index's keys; each is verified exactly against the game's
// timelines, so the answer is exact.
func (x *Index) Search(ctx context.Context, p *Pattern, opts Options) (*Result, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("recindex: %w", err)
	}
	vs := variants(p, opts.NoSymmetry, opts.NoSwap)
	var work []combo
	for _, v := range vs {
		work = append(work, combos(v)...)
	}
	workers := max(1, min(opts.Workers, len(work)))
	parts := make([]searcher, workers)
	var wg sync.WaitGroup
	for w := range parts {
		parts[w] = searcher{x: x}
		wg.Add(1)
		go func(s *searcher, w int) {
			defer wg.Done()
			for i := w; i < len(work); i += workers {
				if ctx.Err() != nil {
					return
				}
				s.combo(&work[i])
			}
		}(&parts[w], w)
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res := &Result{Variants: len(vs)}
	for _, s := range parts {
		res.Hits = append(res.Hits, s.hits...)
		res.Scanned += s.scanned
		res.Verified += s.verified
	}
	slices.SortFunc(res.Hits, compareHits)
	res.Games = countGames(res.Hits)
	res.Continuations = continuationStats(res.Hits)
	return res, nil
}

func compareHits(a, b Hit) int {
	return cmp.Or(cmp.Compare(a.Game, b.Game), cmp.Compare(a.Move, b.Move),
		cmp.Compare(a.Y, b.Y), cmp.Compare(a.X, b.X), cmp.Compare(a.Sym, b.Sym), cmpBool(a.Swapped, b.Swapped))
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

func countGames(hits []Hit) int {
	n := 0
	for i, h := range hits {
		if i == 0 || h.Game != hits[i-1].Game {
			n++
		}
	}
	return n
}

// searcher collects one worker's hits.
type searcher struct {
	x                 *Index
	hits              []Hit
	scanned, verified int
}

// combo finds the keys that c allows by a skip scan of the sorted keys:
// from a key that fails, it jumps to the smallest key that could pass.
func (s *searcher) combo(c *combo) {
	keys := s.x.keys
	i, hi := 0, len(keys)
	for i < hi {
		k := keys[i]
		s.scanned++
		if k&c.keyMask == c.keyValue {
			s.verify(c, k, s.x.refs[i])
			i++
			continue
		}
		next, ok := nextAllowed(k, c.keyMask, c.keyValue)
		if !ok {
			return
		}
		i = lowerBound(keys, i+1, hi, next)
	}
}

// nextAllowed returns the smallest key above k whose bits under mask equal
// value.
func nextAllowed(k, mask, value uint64) (uint64, bool) {
	free := ^mask
	diff := (k ^ value) & mask
	if diff == 0 {
		y := (k | mask) + 1 // the next combination of the free bits
		if y == 0 {
			return 0, false
		}
		return y&free | value, true
	}
	d := 63 - bits.LeadingZeros64(diff)
	low := uint64(1)<<d<<1 - 1 // bits d and below
	if value&(1<<d) != 0 {
		// k has 0 where value needs 1: keep k above d, value from d down.
		return k&^low | value&low, true
	}
	// k has 1 where value needs 0: step the free bits above d.
	y := (k | mask | low) + 1
	if y == 0 {
		return 0, false
	}
	return y&free&^low | value, true
}

// lowerBound returns the first index in [i, hi) whose key is >= k,
// galloping from i.
func lowerBound(keys []uint64, i, hi int, k uint64) int {
	step := 1
	for i+step < hi && keys[i+step] < k {
		i += step
		step *= 2
	}
	return i + sort.Search(min(hi, i+step+1)-i, func(j int) bool { return keys[i+j] >= k })
}

// verify checks the event (key, ref) against c's variant point by point
// and records the hit. A hit whose move changed several of the variant's
// points is kept only for the first of them, so it is counted once.
func (s *searcher) verify(c *combo, key uint64, ref uint32) {
	s.verified++
	x, v := s.x, c.v
	g := x.gameOf(ref)
	n := int(ref-x.moveBase[g]) + 1
	size := int(x.sizes[g])
	pt := int(key & pointMask)
	a := v.pts[c.anchor]
	ox, oy := pt%size-a.x, pt/size-a.y
	if ox < 0 || oy < 0 || ox+v.w > size || oy+v.h > size {
		return
	}
	if v.fixed && (size != v.size || ox != v.x || oy != v.y) {
		return
	}
	for i, q := range v.pts {
		before, after := x.statesAt(g, (oy+q.y)*size+ox+q.x, n)
		if !maskHas(q.mask, after) || (i < c.anchor && !maskHas(q.mask, before)) {
			return
		}
	}
	s.hits = append(s.hits, Hit{
		Game: g, Move: n, X: ox, Y: oy, Sym: v.sym, Swapped: v.swapped,
		Next: x.continuation(g, ref, v, ox, oy),
	})
}

// continuation finds the first move after global move ref that lands in
// variant v placed at (ox, oy).
func (x *Index) continuation(g int, ref uint32, v *variant, ox, oy int) Continuation {
	size := int(x.sizes[g])
	for r := ref + 1; r < x.moveBase[g+1]; r++ {
		mv := x.moves[r]
		p := int(mv &^ moveWhite)
		if p == movePass {
			continue
		}
		mx, my := p%size-ox, p/size-oy
		if mx < 0 || my < 0 || mx >= v.w || my >= v.h {
			continue
		}
		orig := v.orig[my*v.w+mx]
		w := v.w
		if v.sym&4 != 0 {
			w = v.h
		}
		colour := int(mv >> 15)
		player := colour
		if v.swapped {
			player = 1 - colour
		}
		return Continuation{
			Move: int(r-x.moveBase[g]) + 1, X: orig % w, Y: orig / w,
			Player: Player("XO"[player]), Result: outcome(x.results[g], colour),
		}
	}
	return Continuation{}
}

// outcome is +1 when colour won a game of result code res, -1 when it
// lost, 0 otherwise.
func outcome(res uint8, colour int) int {
	switch {
	case res == resultBlack && colour == 0, res == resultWhite && colour == 1:
		return 1
	case res == resultBlack || res == resultWhite:
		return -1
	}
	return 0
}
