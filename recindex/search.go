package recindex

import (
	"cmp"
	"context"
	"fmt"
	"math/bits"
	"slices"
	"sync"
)

// Options configures a search.
type Options struct {
	NoSymmetry bool // match the pattern as drawn, not under the 8 symmetries
	NoSwap     bool // do not match with the colours swapped
	Workers    int  // goroutines (0 or 1: the caller's)
	// Limit keeps only the first Limit hits (by game, move and place) in
	// Result.Hits; 0 keeps every hit. Counts and statistics cover all.
	Limit int
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

// hitKey orders hits by game, move, row, column, symmetry and swap.
func hitKey(h *Hit) uint64 {
	k := uint64(h.Game)<<39 | uint64(h.Move)<<19 | uint64(h.Y)<<14 | uint64(h.X)<<9 | uint64(h.Sym)<<1
	if h.Swapped {
		k |= 1
	}
	return k
}

// sortHits sorts hits by hitKey.
func sortHits(hits []Hit) {
	keyed := make([]struct {
		key uint64
		i   int
	}, len(hits))
	for i := range hits {
		keyed[i].key, keyed[i].i = hitKey(&hits[i]), i
	}
	slices.SortFunc(keyed, func(a, b struct {
		key uint64
		i   int
	}) int {
		return cmp.Compare(a.key, b.key)
	})
	sorted := make([]Hit, len(hits))
	for i, k := range keyed {
		sorted[i] = hits[k.i]
	}
	copy(hits, sorted)
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
	NumHits       int        `json:"num_hits"` // hits found
	Hits          []Hit      `json:"hits"`     // the hits (the first Options.Limit), by game, move and place
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
		parts[w] = searcher{x: x, work: work, out: newCollector(x.Games(), opts.Limit)}
		wg.Add(1)
		go func(s *searcher, w int) {
			defer wg.Done()
			for i := w; i < len(work); i += workers {
				if ctx.Err() != nil {
					return
				}
				s.combo(ctx, i)
			}
			s.flush(ctx)
		}(&parts[w], w)
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res := &Result{Variants: len(vs)}
	cs := make([]*collector, len(parts))
	for i, s := range parts {
		cs[i] = s.out
		res.Scanned += s.scanned
		res.Verified += s.verified
	}
	merge(cs, opts.Limit, res)
	return res, nil
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

// searcher collects one worker's hits.
type searcher struct {
	x    *Index
	work []combo
	out  *collector
	// cands are the candidates found and not yet verified, each
	// ref<<32 | combo<<pointBits | point: sorted, they are verified in game
	// and move order, so that a game's timelines and moves are read while
	// they are in the cache (in key order every candidate was a cache miss
	// or several).
	cands, scratch    []uint64
	scanned, verified int
}

// candBatch is the number of candidates gathered before they are verified.
const candBatch = 1 << 18

// combo finds the keys that work[ci] allows by a skip scan of the sorted
// keys: from a key that fails, it jumps to the smallest key that could pass.
func (s *searcher) combo(ctx context.Context, ci int) {
	c := &s.work[ci]
	keys := s.x.keys
	i, hi := 0, len(keys)
	for i < hi {
		k := keys[i]
		s.scanned++
		if k&c.keyMask == c.keyValue {
			if s.x.exts[i]&c.extMask == c.extValue {
				s.cands = append(s.cands, uint64(s.x.refs[i])<<32|uint64(ci)<<pointBits|k&pointMask)
				if len(s.cands) == candBatch {
					s.flush(ctx)
				}
			}
			i++
			continue
		}
		next, ok := nextAllowed(k, c.keyMask, c.keyValue)
		if !ok {
			return
		}
		i = s.x.seek(i+1, hi, next)
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
	// The answer is in (i, min(hi, i+step)]: a binary search, no closure.
	lo, up := i, min(hi, i+step+1)
	for lo < up {
		mid := int(uint(lo+up) >> 1)
		if keys[mid] < k {
			lo = mid + 1
		} else {
			up = mid
		}
	}
	return lo
}

// flush verifies the gathered candidates in game and move order.
func (s *searcher) flush(ctx context.Context) {
	if ctx.Err() != nil {
		return
	}
	s.cands, s.scratch = sortByRef(s.cands, s.scratch)
	x, g := s.x, 0
	for _, c := range s.cands {
		ref := uint32(c >> 32)
		if ref >= x.moveBase[g+1] {
			if ref < x.moveBase[g+2] {
				g++
			} else {
				g = x.gameOf(ref)
			}
		}
		s.verify(&s.work[int(uint32(c)>>pointBits)], g, int(c&pointMask), ref)
	}
	s.cands = s.cands[:0]
}

// sortByRef orders candidates by their ref (bits 32 and up) with a
// least-significant-digit radix sort, a byte a pass, as many passes as the
// largest ref needs (three for up to 16.7M moves): the verification order
// needs refs ascending only, and a comparison sort was a third of a
// search's time. It returns the sorted slice and the other buffer.
func sortByRef(a, tmp []uint64) (sorted, spare []uint64) {
	var top uint64
	for _, c := range a {
		top = max(top, c>>32)
	}
	if cap(tmp) < len(a) {
		tmp = make([]uint64, len(a))
	}
	tmp = tmp[:len(a)]
	for shift := uint(32); shift < 64 && top>>(shift-32) != 0; shift += 8 {
		var start [257]int
		for _, c := range a {
			start[(c>>shift)&0xff+1]++
		}
		for i := 1; i < len(start); i++ {
			start[i] += start[i-1]
		}
		for _, c := range a {
			b := (c >> shift) & 0xff
			tmp[start[b]] = c
			start[b]++
		}
		a, tmp = tmp, a
	}
	return a, tmp[:0]
}

// verify checks the event ref (move ref of game g, at point pt) against
// c's variant point by point and records the hit. A hit whose move changed
// several of the variant's points is kept only for the first of them, so
// it is counted once.
func (s *searcher) verify(c *combo, g, pt int, ref uint32) {
	s.verified++
	x, v := s.x, c.v
	n := int(ref-x.moveBase[g]) + 1
	size := int(x.sizes[g])
	a := v.pts[c.anchor]
	ox, oy := pt%size-a.x, pt/size-a.y
	if ox < 0 || oy < 0 || ox+v.w > size || oy+v.h > size {
		return
	}
	if v.fixed && (size != v.size || ox != v.x || oy != v.y) {
		return
	}
	if !x.verifyPoints(c, g, n, ox, oy, size, x.moves[ref]&moveCaptures != 0) {
		return
	}
	s.out.add(Hit{
		Game: g, Move: n, X: ox, Y: oy, Sym: v.sym, Swapped: v.swapped,
		Next: x.continuation(g, ref, v, ox, oy),
	})
}

// verifyPoints checks the variant's points placed at (ox, oy) after move n
// of game g. Without captures, the anchor is the only point the move
// changed, and the key match proved every point outside c.check: the
// move's snapshot tests those it holds, the timelines the others; with
// captures, every point is checked, and a hit that an earlier point of
// the variant also made appear is left to that point's combo.
func (x *Index) verifyPoints(c *combo, g, n, ox, oy, size int, captures bool) bool {
	v := c.v
	if !captures {
		// Most small patterns' keys prove every point: their snapshot is
		// not read (a cache miss a hit).
		if ref := x.moveBase[g] + uint32(n-1); c.snapUsed && !c.snap.passes(x.snaps[ref*snapWords:ref*snapWords+snapWords]) {
			return false
		}
		for _, i := range c.far {
			q := v.pts[i]
			if _, after := x.statesAt(g, (oy+q.y)*size+ox+q.x, n); !maskHas(q.mask, after) {
				return false
			}
		}
		return true
	}
	for i, q := range v.pts {
		before, after := x.statesAt(g, (oy+q.y)*size+ox+q.x, n)
		if !maskHas(q.mask, after) || (i < c.anchor && !maskHas(q.mask, before)) {
			return false
		}
	}
	return true
}

// continuation finds the first move after global move ref that lands in
// variant v placed at (ox, oy), scanning the game's later moves against a
// bitmap of the rectangle's points (no division per move; the moves are
// contiguous, so the scan reads a few cache lines).
func (x *Index) continuation(g int, ref uint32, v *variant, ox, oy int) Continuation {
	size := int(x.sizes[g])
	// The rectangle's rows as bit ranges, a shift or two a row: setting
	// its points one by one was a third of a many-hit search (a chain of
	// read-modify-writes on the same word).
	var rect [1 << pointBits / 64]uint64
	rowMask := uint64(1)<<v.w - 1
	for my := 0; my < v.h; my++ {
		row := (oy+my)*size + ox
		w, b := row>>6, row&63
		rect[w] |= rowMask << b
		if b+v.w > 64 {
			rect[w+1] |= rowMask >> (64 - b)
		}
	}
	moves := x.moves[ref+1 : x.moveBase[g+1]]
	for i, m := range moves {
		p := int(m & movePoint)
		if p < 1<<pointBits && rect[p>>6]&(1<<(p&63)) != 0 {
			// Its row by comparisons: no division.
			my, row := 0, oy*size+ox
			for p >= row+size {
				my, row = my+1, row+size
			}
			return x.continuationAt(g, ref+1+uint32(i), v, p-row, my)
		}
	}
	return Continuation{}
}

// continuationAt describes global move r of game g, at (mx, my) of
// variant v's rectangle, in the pattern's terms.
func (x *Index) continuationAt(g int, r uint32, v *variant, mx, my int) Continuation {
	orig := v.orig[my*v.w+mx]
	colour := int(x.moves[r] >> 15)
	player := colour
	if v.swapped {
		player = 1 - colour
	}
	return Continuation{
		Move: int(r-x.moveBase[g]) + 1, X: orig[0], Y: orig[1],
		Player: Player("XO"[player]), Result: outcome(x.results[g], colour),
	}
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
