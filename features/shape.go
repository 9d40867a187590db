package features

import (
	"cmp"
	"context"
	"fmt"
	"iter"
	"math/rand/v2"
	"slices"
	"strings"

	"lifezero/game"
)

// Shape patterns are the large nested patterns of Stern, Herbrich and
// Graepel (2006) and Coulom (2007): the pattern of size d holds every point
// at distance dx+dy+max(dx,dy) <= d of the move (Coulom's circular
// distance, the one of the dist_* features), so size 3 is the 3x3 square and
// size 4 the 12-point diamond, which have groups of their own. Shapes start
// at size 5 (20 points) and end at size 14 (140 points, the size of Stern's
// largest pattern). Each point is empty, own, opponent or off the board, so
// large shapes near an edge or a corner also fix where on the board the
// move is: that is how they learn josekis and opening moves.
//
// A move's shape feature is the largest size whose pattern is in the
// vocabulary, the sizes below it being in it too (counting played moves
// makes a vocabulary nested: a pattern is seen at least as often as any
// larger pattern around it). Only that one feature is active: the group is
// exclusive, as Coulom's Bradley-Terry teams need.
const (
	ShapeMinSize = 5
	ShapeMaxSize = 14
)

// shapeSizeBits places the size above a 59-bit hash in a shape key.
const shapeSizeBits = 59

// ShapeCount is one entry of a shape vocabulary: the pattern of one size in
// its canonical orientation, drawn as one character per point in slot order
// (ShapeSlots: X own, O opponent, . empty, # off the board), and how often
// it was seen when the vocabulary was learned.
type ShapeCount struct {
	Size    int    `json:"size"`
	Pattern string `json:"pattern"`
	Count   int64  `json:"count"`
}

// shapeTable holds the slot layout, the Zobrist keys and the vocabulary
// index of the shape patterns.
type shapeTable struct {
	end    [ShapeMaxSize + 1]int       // slots of the pattern of size d: 0..end[d]-1
	perm   [game.NumSymmetries][]int   // where symmetry s sends slot i
	keys   [][4]uint64                 // Zobrist key of each slot and state
	delta  [][game.NumSymmetries]int16 // shapeGrid index offset of each slot under each symmetry
	ids    map[uint64]int32            // shape key -> dense id
	hashes []uint64                    // canonical hash of each id, for names
}

// ShapeSlots returns the offsets (dx, dy) of the shape slots in their
// order: by distance dx+dy+max(dx,dy), then by dy, then by dx. A pattern of
// size d is the first n of them, n being the number at distance <= d.
func ShapeSlots() [][2]int {
	var offs [][2]int
	r := ShapeMaxSize / 2
	for dy := -r; dy <= r; dy++ {
		for dx := -r; dx <= r; dx++ {
			if d := shapeDistance(dx, dy); d >= 1 && d <= ShapeMaxSize {
				offs = append(offs, [2]int{dx, dy})
			}
		}
	}
	slices.SortStableFunc(offs, func(a, b [2]int) int {
		return cmp.Compare(shapeDistance(a[0], a[1]), shapeDistance(b[0], b[1]))
	})
	return offs
}

func shapeDistance(dx, dy int) int {
	dx, dy = abs(dx), abs(dy)
	return dx + dy + max(dx, dy)
}

// shapeKeySeed fixes the Zobrist keys. Saved vocabularies are patterns,
// checked and hashed when loaded, but feature names carry the hash, so the
// keys must be the same in every run.
const shapeKeySeed = 0x73686170 // "shap"

func newShapeTable(vocab []ShapeCount) (*shapeTable, error) {
	t := &shapeTable{}
	base := ShapeSlots()
	for s := game.Symmetry(0); s < game.NumSymmetries; s++ {
		t.perm[s] = slotPermutation(s, base)
	}
	for i, o := range base {
		d := shapeDistance(o[0], o[1])
		t.end[d] = i + 1
	}
	for d := 1; d <= ShapeMaxSize; d++ {
		t.end[d] = max(t.end[d], t.end[d-1])
	}
	t.delta = make([][game.NumSymmetries]int16, len(base))
	for i, o := range base {
		for s := range t.delta[i] {
			so := symOffset(game.Symmetry(s), o)
			t.delta[i][s] = int16(so[1]*shapeStride + so[0])
		}
	}
	rng := rand.New(rand.NewPCG(shapeKeySeed, 0))
	t.keys = make([][4]uint64, len(base))
	for i := range t.keys {
		// Empty keeps the zero key: the size bits of a shape key tell
		// apart the all-empty patterns, which all hash to 0.
		for st := 1; st < 4; st++ {
			t.keys[i][st] = rng.Uint64()
		}
	}
	t.ids = make(map[uint64]int32, len(vocab))
	for i, v := range vocab {
		key, err := t.vocabKey(v)
		if err != nil {
			return nil, fmt.Errorf("shape %d: %w", i, err)
		}
		if _, dup := t.ids[key]; dup {
			return nil, fmt.Errorf("shape %d: size %d pattern %q repeats", i, v.Size, v.Pattern)
		}
		t.ids[key] = int32(i)
		t.hashes = append(t.hashes, key&(1<<shapeSizeBits-1))
	}
	return t, nil
}

// vocabKey checks that a vocabulary entry is a canonical pattern of its size
// and returns its key.
func (t *shapeTable) vocabKey(v ShapeCount) (uint64, error) {
	if v.Size < ShapeMinSize || v.Size > ShapeMaxSize {
		return 0, fmt.Errorf("size %d is outside %d..%d", v.Size, ShapeMinSize, ShapeMaxSize)
	}
	n := t.end[v.Size]
	if len(v.Pattern) != n {
		return 0, fmt.Errorf("size %d pattern %q has %d points, want %d", v.Size, v.Pattern, len(v.Pattern), n)
	}
	states := make([]uint8, n)
	for i := range n {
		st := strings.IndexByte(stateChars, v.Pattern[i])
		if st < 0 {
			return 0, fmt.Errorf("size %d pattern %q: character %q is not one of %q", v.Size, v.Pattern, v.Pattern[i], stateChars)
		}
		states[i] = uint8(st)
	}
	var h [game.NumSymmetries]uint64
	for s := range h {
		for i, st := range states {
			h[s] ^= t.keys[t.perm[s][i]][st]
		}
	}
	if slices.Min(h[:]) != h[0] {
		return 0, fmt.Errorf("size %d pattern %q is not in its canonical orientation", v.Size, v.Pattern)
	}
	return shapeKey(v.Size, h[0]), nil
}

func shapeKey(size int, h uint64) uint64 {
	return uint64(size)<<shapeSizeBits | h&(1<<shapeSizeBits-1)
}

// shapeMargin pads a shape grid: no slot is further than this from the
// move along either axis, so walks need no bounds checks.
const (
	shapeMargin = ShapeMaxSize / 2
	shapeStride = game.MaxSize + 2*shapeMargin
)

// shapeGrid is a board drawn for shape walks: the state of every point
// relative to one side, off-board points included, at (y+margin)*stride +
// x+margin.
type shapeGrid [shapeStride * shapeStride]uint8

// fill draws board b for side c.
func (sg *shapeGrid) fill(b *game.Board, c game.Color) {
	n := b.Size()
	for i := range sg {
		sg[i] = stateOff
	}
	for y := range n {
		row := sg[(y+shapeMargin)*shapeStride+shapeMargin:]
		for x := range n {
			row[x] = pointState(b, b.Point(x, y), c)
		}
	}
}

// at returns the grid index of point m.
func (sg *shapeGrid) at(g *geometry, m game.Point) int {
	return (int(g.y[m])+shapeMargin)*shapeStride + int(g.x[m]) + shapeMargin
}

// walk hashes the shapes around grid index at, size after size, under all
// eight symmetries. For each size from ShapeMinSize on it calls visit with
// the canonical key and the symmetry that gives it, and stops when visit
// returns false.
func (t *shapeTable) walk(sg *shapeGrid, at int, visit func(size int, key uint64, sym int) bool) {
	var h [game.NumSymmetries]uint64
	slot := 0
	for size := 1; size <= ShapeMaxSize; size++ {
		for ; slot < t.end[size]; slot++ {
			keys, deltas := &t.keys[slot], &t.delta[slot]
			for s := range h {
				h[s] ^= keys[sg[at+int(deltas[s])]]
			}
		}
		if size < ShapeMinSize {
			continue
		}
		best := 0
		for s := 1; s < len(h); s++ {
			if h[s] < h[best] {
				best = s
			}
		}
		if !visit(size, shapeKey(size, h[best]), best) {
			return
		}
	}
}

// id returns the dense id of the largest shape around grid index at in
// the vocabulary, or -1.
func (t *shapeTable) id(sg *shapeGrid, at int) int32 {
	id := int32(-1)
	t.walk(sg, at, func(_ int, key uint64, _ int) bool {
		k, ok := t.ids[key]
		if ok {
			id = k
		}
		return ok
	})
	return id
}

// pattern draws the shape of the given size around grid index at in
// orientation sym.
func (t *shapeTable) pattern(sg *shapeGrid, at, size, sym int) string {
	out := make([]byte, t.end[size])
	for i := range out {
		out[i] = stateChars[sg[at+int(t.delta[i][sym])]]
	}
	return string(out)
}

// describeShape draws a shape pattern on a grid: X own, O opponent, . empty,
// # off board, * the move.
func describeShape(v ShapeCount) string {
	r := ShapeMaxSize / 2
	grid := make([][]byte, 2*r+1)
	for y := range grid {
		grid[y] = []byte(strings.Repeat(" ", 2*r+1))
	}
	grid[r][r] = '*'
	for i, o := range ShapeSlots()[:len(v.Pattern)] {
		grid[r+o[1]][r+o[0]] = v.Pattern[i]
	}
	var sb strings.Builder
	for _, row := range grid {
		if line := strings.TrimRight(string(row), " "); line != "" {
			sb.WriteString(line + "\n")
		}
	}
	return sb.String()
}

// LearnShapes counts the canonical shapes of every size of the samples'
// moves and returns those seen at least minCount times, by size and then
// most frequent first: the vocabulary for Config.Shapes. As for
// LearnDiamonds, Move == game.NoPoint counts every legal move and a pass
// counts nothing. The samples are iterated twice: once to count, once to
// draw the patterns that are kept.
//
// The counting sorts one key per sample and size (8 bytes each, ten sizes:
// 80 bytes per sample) instead of filling a map, which would hold every
// pattern seen once (most large ones) at several times that.
func LearnShapes(ctx context.Context, samples iter.Seq2[Sample, error], minCount int64) ([]ShapeCount, error) {
	if minCount < 1 {
		return nil, fmt.Errorf("features: LearnShapes: minCount %d must be at least 1", minCount)
	}
	t, err := newShapeTable(nil)
	if err != nil {
		return nil, fmt.Errorf("features: LearnShapes: %w", err)
	}
	var keys []uint64
	var sg shapeGrid
	err = forEachSample(ctx, samples, "LearnShapes", func(g *geometry, pos *game.Position, moves []game.Point) {
		sg.fill(&pos.Board, pos.ToMove())
		for _, m := range moves {
			t.walk(&sg, sg.at(g, m), func(_ int, key uint64, _ int) bool {
				keys = append(keys, key)
				return true
			})
		}
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(keys)
	kept := make(map[uint64]*ShapeCount)
	for i := 0; i < len(keys); {
		j := i
		for j < len(keys) && keys[j] == keys[i] {
			j++
		}
		if int64(j-i) >= minCount {
			kept[keys[i]] = &ShapeCount{Size: int(keys[i] >> shapeSizeBits), Count: int64(j - i)}
		}
		i = j
	}
	keys = nil
	missing := len(kept)
	err = forEachSample(ctx, samples, "LearnShapes", func(g *geometry, pos *game.Position, moves []game.Point) {
		if missing == 0 {
			return
		}
		sg.fill(&pos.Board, pos.ToMove())
		for _, m := range moves {
			at := sg.at(g, m)
			t.walk(&sg, at, func(size int, key uint64, sym int) bool {
				v := kept[key]
				if v != nil && v.Pattern == "" {
					v.Pattern = t.pattern(&sg, at, size, sym)
					missing--
				}
				return v != nil
			})
		}
	})
	if err != nil {
		return nil, err
	}
	if missing > 0 {
		return nil, fmt.Errorf("features: LearnShapes: %d kept shapes were not seen again on the second pass over the samples: the samples must be the same both times", missing)
	}
	vocab := make([]ShapeCount, 0, len(kept))
	for _, v := range kept {
		vocab = append(vocab, *v)
	}
	slices.SortFunc(vocab, func(a, b ShapeCount) int {
		return cmp.Or(cmp.Compare(a.Size, b.Size), cmp.Compare(b.Count, a.Count), strings.Compare(a.Pattern, b.Pattern))
	})
	return vocab, nil
}
