package game

import "testing"

// TestCopyToIsIndependent checks that a position copied with CopyTo and
// played on leaves the original, its superko history included, as it was,
// and that reusing the scratch gives the same result as a fresh Copy.
func TestCopyToIsIndependent(t *testing.T) {
	p, err := NewPosition(9)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []Point{p.Point(2, 2), p.Point(6, 6), p.Point(2, 6)} {
		if err := p.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	hash, hist := p.Hash(), append([]uint64(nil), p.History()...)
	var scratch Position
	for _, m := range []Point{p.Point(4, 4), p.Point(3, 3), Pass} {
		p.CopyTo(&scratch)
		if err := scratch.Play(m); err != nil {
			t.Fatal(err)
		}
		fresh := p.Copy()
		if err := fresh.Play(m); err != nil {
			t.Fatal(err)
		}
		if scratch.Hash() != fresh.Hash() || len(scratch.History()) != len(fresh.History()) {
			t.Errorf("move %v: CopyTo then Play differs from Copy then Play", m)
		}
		if p.Hash() != hash || len(p.History()) != len(hist) {
			t.Fatalf("move %v: the original changed", m)
		}
		for i, h := range p.History() {
			if h != hist[i] {
				t.Fatalf("move %v: the original's history changed at %d", m, i)
			}
		}
	}
	// Two scratches copied from one position must not share the history
	// storage behind it: the second's moves would overwrite the first's
	// (Play records the position before each move, so it takes two moves
	// to tell).
	p.history = append(make([]uint64, 0, len(p.history)+8), p.history...) // spare room to share
	var a, b Position
	p.CopyTo(&a)
	for _, m := range []Point{p.Point(4, 4), p.Point(5, 5)} {
		if err := a.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	histA := append([]uint64(nil), a.History()...)
	p.CopyTo(&b)
	for _, m := range []Point{p.Point(3, 3), p.Point(5, 3)} {
		if err := b.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	for i, h := range a.History() {
		if h != histA[i] {
			t.Fatalf("a second copy's moves changed the first copy's history at %d", i)
		}
	}
}

// A scratch position that CopyTo fills again and again (a search's
// descent from its root) plays without allocating once its superko history
// storage has grown to the line's length: what lets self-play descend
// without garbage.
func TestCopyToPlayReusesHistory(t *testing.T) {
	p, err := NewPosition(7)
	if err != nil {
		t.Fatal(err)
	}
	p.SetKoRule(Black, PositionalSuperko) // Play then also reads the history
	if err := p.Play(p.Point(3, 3)); err != nil {
		t.Fatal(err)
	}
	line := []Point{p.Point(2, 2), p.Point(4, 4), Pass, p.Point(2, 4), p.Point(4, 2)}
	var scratch Position
	descend := func() {
		p.CopyTo(&scratch)
		for _, m := range line {
			if err := scratch.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	descend() // grows the scratch's history storage
	if n := testing.AllocsPerRun(20, descend); n != 0 {
		t.Fatalf("%v allocations a descent into a reused scratch, want 0", n)
	}
	if got, want := len(scratch.History()), len(p.History())+len(line); got != want {
		t.Fatalf("history of %d positions after the line, want %d", got, want)
	}
}
