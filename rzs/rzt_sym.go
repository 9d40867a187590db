package rzs

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/bits"
	"strings"

	"lifezero/game"
)

// Symmetric lookups (paper 002's symmetric pattern-database lookups, on
// zone patterns). A board symmetry g that maps the problem's region onto
// itself and its crucial stones onto themselves maps the problem onto
// itself (goals and ko rules are per colour, so they are untouched). If
// position P is won with zone Z, g(P) is then won with zone g(Z) under the
// same problem; so a stored entry E matches position Q under g when Q's
// preimage g⁻¹(Q) matches E, and the zone to return is g(E's zone). The
// table stores entries as inserted and transforms the position at lookup.

// ProblemSymmetries returns the board symmetries that map the problem's
// region and crucial stones onto themselves, the identity first: all eight
// for a kill-all problem on the whole board, usually only the identity for
// a 19x19 problem.
func ProblemSymmetries(pr *game.Problem) []game.Symmetry {
	syms := []game.Symmetry{game.Identity}
	b := &pr.Start.Board
	for g := game.Symmetry(1); g < game.NumSymmetries; g++ {
		if b.TransformSet(g, &pr.Region) == pr.Region && b.TransformSet(g, &pr.Crucial) == pr.Crucial {
			syms = append(syms, g)
		}
	}
	return syms
}

// symmetries holds the problem's symmetries other than the identity (none
// unless symmetric lookups are on) and their point maps.
type symmetries struct {
	others []game.Symmetry
	perm   [game.NumSymmetries][]game.Point // padded point -> image (NoPoint off the board)
}

func newSymmetries(pr *game.Problem, enabled bool) symmetries {
	var y symmetries
	if !enabled {
		return y
	}
	b := &pr.Start.Board
	for _, g := range ProblemSymmetries(pr) {
		perm := make([]game.Point, b.Cells())
		for i := range perm {
			perm[i] = game.NoPoint
			if b.OnBoard(game.Point(i)) {
				perm[i] = b.Transform(g, game.Point(i))
			}
		}
		y.perm[g] = perm
		if g != game.Identity {
			y.others = append(y.others, g)
		}
	}
	return y
}

// transformSet returns g(set). (A loop over the words rather than
// ForEach: the closure would move out to the heap on every call.)
func (y *symmetries) transformSet(g game.Symmetry, set *game.PointSet) game.PointSet {
	var out game.PointSet
	perm := y.perm[g]
	for i, w := range set {
		for w != 0 {
			out.Add(perm[i*64+bits.TrailingZeros64(w)])
			w &= w - 1
		}
	}
	return out
}

// transformQuery returns g(q): stones, standing crucial stones and ko point
// moved by g.
func (y *symmetries) transformQuery(q *query, g game.Symmetry) query {
	t := query{toMove: q.toMove, ko: q.ko,
		black: y.transformSet(g, &q.black), white: y.transformSet(g, &q.white),
		standing: y.transformSet(g, &q.standing)}
	if q.ko >= 0 {
		t.ko = y.perm[g][q.ko]
	}
	return t
}

// problemKey identifies the rules a pattern is valid under.
type problemKey struct {
	id          string
	size        int
	fingerprint string
	board       *game.Board // an empty board of the size, for coordinates
}

func newProblemKey(pr *game.Problem) problemKey {
	b, err := game.NewBoard(pr.Start.Size())
	if err != nil {
		// A problem's start position has a valid size.
		panic("rzs: problem with an invalid board: " + err.Error())
	}
	return problemKey{id: pr.ID, size: pr.Start.Size(), fingerprint: ProblemFingerprint(pr), board: b}
}

// ProblemFingerprint returns a hash of everything a zone pattern's win
// depends on besides the pattern: board size, goals and ko rules of both
// colours, the region where moves may be played and the crucial stones.
// Patterns are only valid in problems with the same fingerprint.
func ProblemFingerprint(pr *game.Problem) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "rz-patterns\nsize %d\n", pr.Start.Size())
	for _, c := range []game.Color{game.Black, game.White} {
		fmt.Fprintf(&sb, "%v goal %v ko %v\n", c, pr.Goal[c], pr.Start.KoRule(c))
	}
	b := &pr.Start.Board
	for _, set := range []struct {
		name string
		pts  *game.PointSet
	}{{"region", &pr.Region}, {"crucial", &pr.Crucial}} {
		sb.WriteString(set.name)
		set.pts.ForEach(func(p game.Point) { fmt.Fprintf(&sb, " %d", rowMajor(b, p)) })
		sb.WriteByte('\n')
	}
	sum := sha256.Sum256([]byte(sb.String()))
	return hex.EncodeToString(sum[:16])
}

// rowMajor returns y*size+x for an on-board point: the board-independent
// index the pattern database stores.
func rowMajor(b *game.Board, p game.Point) int {
	x, y := b.XY(p)
	return y*b.Size() + x
}

// pointName returns the GTP name of a point.
func (k *problemKey) pointName(p game.Point) string { return k.board.GTPString(p) }
