package features

import (
	"bytes"
	"context"
	"iter"
	"slices"
	"strings"
	"testing"

	"lifezero/game"
)

// bruteShape draws the size-d neighbourhood of m for the side c (see
// minDrawing): two moves have the same shape of size d exactly when their
// drawings are equal. It shares no code with the hashed walk.
func bruteShape(pos *game.Position, m game.Point, c game.Color, d int) string {
	n := pos.Size()
	x, y := pos.XY(m)
	return minDrawing(d, func(dx, dy int) byte {
		qx, qy := x+dx, y+dy
		switch {
		case qx < 0 || qy < 0 || qx >= n || qy >= n:
			return '#'
		case pos.At(pos.Point(qx, qy)) == game.Empty:
			return '.'
		case pos.At(pos.Point(qx, qy)) == c:
			return 'X'
		}
		return 'O'
	})
}

// minDrawing draws the points at distance 1..d (dx+dy+max(dx,dy)) of a
// neighbourhood, read through at, in a plain raster order (by dy, then dx),
// once per symmetry, and returns the smallest drawing.
func minDrawing(d int, at func(dx, dy int) byte) string {
	best := ""
	for s := range 8 {
		var sb strings.Builder
		for dy := -d; dy <= d; dy++ {
			for dx := -d; dx <= d; dx++ {
				ax, ay := max(dx, -dx), max(dy, -dy)
				if dist := ax + ay + max(ax, ay); dist == 0 || dist > d {
					continue
				}
				sb.WriteByte(at(testSymmetry(s, dx, dy)))
			}
		}
		if str := sb.String(); best == "" || str < best {
			best = str
		}
	}
	return best
}

// testSymmetry applies symmetry s to an offset the way the package
// documents it (bit 0 flips x, bit 1 flips y, bit 2 transposes), written
// out here so that the brute force does not lean on the package's tables.
func testSymmetry(s, dx, dy int) (int, int) {
	if s&1 != 0 {
		dx = -dx
	}
	if s&2 != 0 {
		dy = -dy
	}
	if s&4 != 0 {
		dx, dy = dy, dx
	}
	return dx, dy
}

func playedMoves(recs []record) iter.Seq2[Sample, error] {
	return func(yield func(Sample, error) bool) {
		for _, r := range recs {
			if !yield(Sample{Pos: r.pos, Move: r.move}, nil) {
				return
			}
		}
	}
}

// TestShapesAgainstBruteForce learns a shape vocabulary from the played
// moves of real games and checks it against brute-force drawings:
//   - the counts are those of the drawings (so the hash neither merges two
//     shapes nor splits one shape's symmetric images);
//   - every move's shape feature is the largest size whose drawing, with
//     those of all smaller sizes, was counted often enough.
func TestShapesAgainstBruteForce(t *testing.T) {
	recs := gameRecords(t, "2005-01.sgf", 3000)
	if testing.Short() {
		recs = recs[:1000]
	}
	const minCount = 3
	vocab, err := LearnShapes(context.Background(), playedMoves(recs), minCount)
	if err != nil {
		t.Fatal(err)
	}
	type key struct {
		size    int
		drawing string
	}
	counts := map[key]int64{}
	for _, r := range recs {
		if r.move == game.Pass {
			continue
		}
		for d := ShapeMinSize; d <= ShapeMaxSize; d++ {
			counts[key{d, bruteShape(r.pos, r.move, r.pos.ToMove(), d)}]++
		}
	}
	var want int
	for _, c := range counts {
		if c >= minCount {
			want++
		}
	}
	if len(vocab) != want {
		t.Fatalf("learned %d shapes, brute force counts %d seen at least %d times", len(vocab), want, minCount)
	}
	if len(vocab) < 100 || vocab[len(vocab)-1].Size < 10 {
		t.Fatalf("only %d shapes, the largest of size %d: too few to test", len(vocab), vocab[len(vocab)-1].Size)
	}
	e, err := New(Config{Pattern3Liberties: true, Shapes: vocab})
	if err != nil {
		t.Fatal(err)
	}
	inVocab := map[key]bool{}
	for _, v := range vocab {
		// The stored pattern is in slot order; redraw it from a board to
		// compare with the brute force.
		k := key{v.Size, drawnPattern(t, v)}
		if counts[k] != v.Count {
			t.Fatalf("shape size %d %q: count %d, brute force %d", v.Size, v.Pattern, v.Count, counts[k])
		}
		inVocab[k] = true
	}
	var out Moves
	matched := 0
	for ri, r := range recs {
		if ri%5 != 0 {
			continue
		}
		e.Extract(r.pos, r.history, &out)
		for i := range out.Len() {
			m := out.Move(i)
			if m == game.Pass {
				continue
			}
			wantSize := 0
			for d := ShapeMinSize; d <= ShapeMaxSize && inVocab[key{d, bruteShape(r.pos, m, r.pos.ToMove(), d)}]; d++ {
				wantSize = d
			}
			gotSize := 0
			for _, f := range out.Features(i) {
				if f >= e.shapeBase() {
					gotSize = vocab[f-e.shapeBase()].Size
					if got, want := drawnPattern(t, vocab[f-e.shapeBase()]), bruteShape(r.pos, m, r.pos.ToMove(), gotSize); got != want {
						t.Fatalf("record %d, %s: shape feature draws %q, the move's shape is %q", ri, r.pos.GTPString(m), got, want)
					}
				}
			}
			if gotSize != wantSize {
				t.Fatalf("record %d, %s: shape of size %d, brute force %d", ri, r.pos.GTPString(m), gotSize, wantSize)
			}
			if gotSize > 0 {
				matched++
			}
		}
	}
	if matched < 100 {
		t.Errorf("only %d candidate moves matched a shape", matched)
	}
}

// drawnPattern returns the brute-force drawing (minDrawing) of a
// vocabulary pattern, read from its slots.
func drawnPattern(t *testing.T, v ShapeCount) string {
	t.Helper()
	slots := ShapeSlots()
	cells := map[[2]int]byte{}
	for i := range v.Pattern {
		cells[slots[i]] = v.Pattern[i]
	}
	return minDrawing(v.Size, func(dx, dy int) byte {
		c, ok := cells[[2]int{dx, dy}]
		if !ok {
			t.Fatalf("pattern of size %d has no point at (%d, %d)", v.Size, dx, dy)
		}
		return c
	})
}

// TestShapeVocabularyChecks: New refuses vocabularies that are not
// canonical patterns of their size, and a feature set with shapes survives
// a save and load.
func TestShapeVocabularyChecks(t *testing.T) {
	recs := gameRecords(t, "2005-01.sgf", 400)
	vocab, err := LearnShapes(context.Background(), playedMoves(recs), 2)
	if err != nil || len(vocab) == 0 {
		t.Fatalf("LearnShapes: %d shapes, %v", len(vocab), err)
	}
	good := vocab[0]
	for _, tc := range []struct {
		name string
		v    []ShapeCount
		want string
	}{
		{"size too small", []ShapeCount{{Size: 4, Pattern: good.Pattern}}, "outside"},
		{"size too large", []ShapeCount{{Size: 15, Pattern: good.Pattern}}, "outside"},
		{"wrong length", []ShapeCount{{Size: good.Size + 1, Pattern: good.Pattern}}, "points"},
		{"bad character", []ShapeCount{{Size: good.Size, Pattern: "Z" + good.Pattern[1:]}}, "character"},
		{"repeat", []ShapeCount{good, good}, "repeats"},
	} {
		if _, err := New(Config{Shapes: tc.v}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error with %q", tc.name, err, tc.want)
		}
	}
	// Some image of a pattern with stones is not canonical.
	tab, err := newShapeTable(nil)
	if err != nil {
		t.Fatal(err)
	}
	noncanon := 0
	for _, v := range vocab[:min(len(vocab), 200)] {
		for s := 1; s < game.NumSymmetries; s++ {
			img := make([]byte, len(v.Pattern))
			for i := range img {
				img[tab.perm[s][i]] = v.Pattern[i]
			}
			if string(img) == v.Pattern {
				continue
			}
			if _, err := newShapeTable([]ShapeCount{{Size: v.Size, Pattern: string(img)}}); err != nil {
				if !strings.Contains(err.Error(), "canonical") {
					t.Fatalf("image %d of %q: %v", s, v.Pattern, err)
				}
				noncanon++
			}
		}
	}
	if noncanon == 0 {
		t.Error("no symmetric image of any pattern was refused as not canonical")
	}
	e, err := New(Config{Pattern3Liberties: true, Shapes: vocab})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := e.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := ReadJSON(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Names(), e.Names()) || !slices.Equal(back.Config().Shapes, vocab) {
		t.Error("the feature set changed in a save and load")
	}
	id := e.shapeBase()
	if d := e.Describe(id); strings.Count(d, "*") != 1 || len(strings.Join(strings.Fields(d), ""))-1 != len(vocab[0].Pattern) {
		t.Errorf("shape 0 is drawn\n%s\nwant its %d points around one *", d, len(vocab[0].Pattern))
	}
	if !strings.HasPrefix(e.Name(id), "shape:") {
		t.Errorf("shape 0 is named %q", e.Name(id))
	}
}
