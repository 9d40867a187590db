package rzs

import (
	"math"
	"slices"
	"testing"

	"lifezero/game"
)

// TestMixed checks Mixed's priors and value against its parts computed
// apart: the base's pass share is kept, the board moves' priors are the
// renormalised products, and the value is the chosen part's.
func TestMixed(t *testing.T) {
	pr := sharedProblem(t, "cho19-dev", "001")
	pos := pr.StartPosition()
	moves := append(pos.LegalMoves(nil, &pr.Region), game.Pass)
	base, other := LDB(), Heuristic{}
	bp, bv := base.Evaluate(pos, pr, moves)
	bp = slices.Clone(bp) // an evaluator may reuse its priors' storage
	op, ov := other.Evaluate(pos, pr, moves)
	op = slices.Clone(op)
	for _, c := range []struct {
		name          string
		priors, value bool
	}{{"neither", false, false}, {"priors", true, false}, {"value", false, true}, {"both", true, true}} {
		got, v := Mixed{Base: base, Other: other, Priors: c.priors, Value: c.value}.Evaluate(pos, pr, moves)
		wantV := bv
		if c.value {
			wantV = ov
		}
		if v != wantV {
			t.Errorf("%s: value %v, want %v", c.name, v, wantV)
		}
		var mass, sum float64
		for i, m := range moves {
			if m != game.Pass {
				mass += float64(bp[i])
				sum += float64(bp[i]) * float64(op[i])
			}
		}
		// Properties, apart from the formula: the board moves keep the
		// base's mass and the pass its prior.
		var gotMass float64
		for i, m := range moves {
			if m == game.Pass {
				if got[i] != bp[i] {
					t.Errorf("%s: pass prior %v, want the base's %v", c.name, got[i], bp[i])
				}
				continue
			}
			gotMass += float64(got[i])
		}
		if math.Abs(gotMass-mass) > 1e-4 {
			t.Errorf("%s: board moves' mass %v, want the base's %v", c.name, gotMass, mass)
		}
		for i, m := range moves {
			want := float64(bp[i])
			if c.priors && m != game.Pass {
				want = mass * float64(bp[i]) * float64(op[i]) / sum
			}
			if math.Abs(float64(got[i])-want) > 1e-6 {
				t.Fatalf("%s: prior of %v %v, want %v", c.name, m, got[i], want)
			}
		}
	}
}
