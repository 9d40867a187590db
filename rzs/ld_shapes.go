package rzs

import (
	"slices"

	"lifezero/game"
)

// The eye shapes of a small eye space enclosed by the living side: how many
// eyes it makes, as a Go player counts them. Three to six points enclosed
// are worth two eyes, except the killable shapes (nakade): the straight and
// bent three, the pyramid four, the bulky and crossed five and the rabbity
// six make two eyes if the living side plays their vital point first and
// one if the killer does, and the square four makes one whoever plays.
// These are the centre's shapes; on the edge and in the corner a few more
// die (a bent four in the corner), which the count does not know: like
// every part of an evaluator, it only orders the search.

// shapeEyes is what a part of the eye space is worth: base eyes, and
// whether one more is the living side's if it moves first (a killable
// shape).
type shapeEyes struct {
	base    float64
	toMove  bool
	counted bool // the part is enclosed and small enough to be read by shape
}

// maxShape is the largest enclosed part read by its shape; larger ones
// make two eyes.
const maxShape = 6

// enclosedShape reads the part pts of the eye space (labelled id in part):
// counted only when every neighbour of every point is in the part, the
// edge, or a living stone, and the part has three to maxShape points.
func enclosedShape(pos *game.Position, pts []game.Point, part *[game.MaxCells]int16, id int16, living game.Color) shapeEyes {
	n := len(pts)
	if n < 3 || n > maxShape {
		return shapeEyes{}
	}
	in := func(q game.Point) bool { return q >= 0 && int(q) < pos.Cells() && part[q] == id }
	maxDeg, square := 0, false
	stride := game.Point(pos.Stride())
	for _, p := range pts {
		deg := 0
		for _, q := range pos.Neighbors(p) {
			switch {
			case in(q):
				deg++
			case pos.At(q) != game.Border && pos.At(q) != living:
				return shapeEyes{} // open: an empty point outside or a killer stone
			}
		}
		maxDeg = max(maxDeg, deg)
		// Border cells pad every row, so p+1 in the part is p's neighbour
		// on its right.
		if in(p+1) && in(p+stride) && in(p+stride+1) {
			square = true
		}
	}
	killable := false
	switch n {
	case 3:
		killable = true // straight or bent three
	case 4:
		if square {
			return shapeEyes{base: 1, counted: true} // square four
		}
		killable = maxDeg == 3 // pyramid four
	case 5:
		killable = maxDeg == 4 || square // crossed five, bulky five
	case 6:
		killable = maxDeg == 4 && square // rabbity six
	}
	if killable {
		return shapeEyes{base: 1, toMove: true, counted: true}
	}
	return shapeEyes{base: 2, counted: true}
}

// maxNakade is the largest enclosed region holding killer stones that
// nakadeRegions reads.
const maxNakade = 7

// nakadeRegions counts the enclosed regions that hold killer stones: a
// connected set of empty points and killer stones, with at most maxNakade
// points and at least one empty, bounded only by living stones (one of them
// of the group) and the edge. The killer's stones there cannot escape, so
// the living side captures them in the end and the region is worth at
// least one eye, where the eye space alone counts none of it (its empty
// points next to a killer stone are nearer the killer). Such a region is
// the whole point of a nakade: it kills a group whose only eye space it is,
// and not a group with a second eye elsewhere, which the count now tells
// apart. A throw-in (one killer stone and one empty point) is worth the
// eye its capture leaves, nothing if that eye is false. Like the shapes,
// it only orders the search.
func (ld *ldScratch) nakadeRegions(pos *game.Position, living game.Color) {
	killer := living.Opponent()
	var seen game.PointSet
	var stack [game.MaxCells]game.Point
	var pts [maxNakade + 1]game.Point
	for i := 0; i < pos.Cells(); i++ {
		start := game.Point(i)
		if pos.At(start) != killer || seen.Has(start) {
			continue
		}
		seen.Add(start)
		stack[0] = start
		size, empties, touches := 0, 0, false
		for n := 1; n > 0; {
			n--
			p := stack[n]
			if size < len(pts) {
				pts[size] = p
			}
			size++
			if pos.At(p) == game.Empty {
				empties++
			}
			for _, q := range pos.Neighbors(p) {
				switch c := pos.At(q); {
				case c == game.Empty || c == killer:
					if !seen.Has(q) {
						seen.Add(q)
						stack[n] = q
						n++
					}
				case c == living:
					touches = touches || ld.group.Has(q)
				}
			}
		}
		if size > maxNakade || empties == 0 || !touches {
			continue
		}
		ld.eyes += ld.nakadeEyes(pos, pts[:size], empties, living)
	}
}

// nakadeEyes is what the enclosed region pts (empties of them empty)
// adds to the eye count: one eye, less the eyes its parts of the eye space
// already count, never below nothing.
func (ld *ldScratch) nakadeEyes(pos *game.Position, pts []game.Point, empties int, living game.Color) float64 {
	want := 1.0
	if len(pts) == 2 && empties == 1 {
		for _, p := range pts {
			if pos.At(p) != game.Empty && falseEye(pos, p, living) {
				want = 0
			}
		}
	}
	var ids [maxNakade]int16
	nids, counted := 0, 0.0
	for _, p := range pts {
		k := ld.part[p]
		if k < 0 || slices.Contains(ids[:nids], k) {
			continue
		}
		ids[nids] = k
		nids++
		counted += partEyes(pos, &eyePart{size: int(ld.partSize[k])}, ld.vital[k], living)
	}
	return max(0, want-counted)
}
