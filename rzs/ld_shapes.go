package rzs

import "lifezero/game"

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
