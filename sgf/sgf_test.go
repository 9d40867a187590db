package sgf

import (
	"slices"
	"testing"
)

func TestNodeAccessors(t *testing.T) {
	c, err := ParseString(`(;AB[aa][bb]C[hi]AB[cc]KM[6.5];B[pd];W[dp](;B[qq])(;B[dd]))`)
	if err != nil {
		t.Fatal(err)
	}
	root := c[0]
	if v, ok := root.Get("KM"); !ok || v != "6.5" {
		t.Errorf(`Get("KM") = %q, %v`, v, ok)
	}
	if v, ok := root.Get("AB"); !ok || v != "aa" {
		t.Errorf(`Get("AB") = %q, %v`, v, ok)
	}
	if _, ok := root.Get("PW"); ok {
		t.Error(`Get("PW") found a missing property`)
	}
	if got := root.GetAll("AB"); !slices.Equal(got, []string{"aa", "bb", "cc"}) {
		t.Errorf(`GetAll("AB") = %q`, got)
	}
	var moves []string
	for _, n := range root.MainLine()[1:] {
		v, _ := n.Get("B")
		if v == "" {
			v, _ = n.Get("W")
		}
		moves = append(moves, v)
	}
	if !slices.Equal(moves, []string{"pd", "dp", "qq"}) {
		t.Errorf("main line moves = %q", moves)
	}
}

func TestNodeEdits(t *testing.T) {
	c, err := ParseString(`(;AB[aa]C[x]AB[bb]AW[cc];B[dd])`)
	if err != nil {
		t.Fatal(err)
	}
	root, child := c[0], c[0].Children[0]
	// Edits of the root must not reach its neighbours in the parser's slabs.
	childBefore := slices.Clone(child.Properties[0].Values)

	root.Add("AW", "ee", "ff")
	root.Set("AB", "gg")
	root.Set("PL", "W")
	root.Add("KO")
	if !root.Remove("C") || root.Remove("XX") {
		t.Error("Remove reported wrongly")
	}
	want := node(prop("AB", "gg"), prop("AW", "cc", "ee", "ff"), prop("PL", "W"), prop("KO", ""))
	if d := diffProperties(root.Properties, want.Properties); d != "" {
		t.Errorf("after edits: %s", d)
	}
	if !slices.Equal(child.Properties[0].Values, childBefore) {
		t.Errorf("editing the root changed its child: %q", child.Properties[0].Values)
	}

	values := []string{"aa"}
	root.Set("TR", values...)
	values[0] = "zz"
	if v, _ := root.Get("TR"); v != "aa" {
		t.Errorf("Set kept the caller's slice: TR = %q", v)
	}
	roundTrip(t, "edited", c)
}
