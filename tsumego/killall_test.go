package tsumego

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lifezero/game"
	"lifezero/rzs"
)

// TestKillAllSamples checks the random kill-all positions and their labels
// against the solver run afresh: each position is reproducible from its
// seed, undecided and legal; each label is a legal board move of the side
// to move, which the proof says wins, and a new search from the position
// after it never proves the mover's loss.
func TestKillAllSamples(t *testing.T) {
	if testing.Short() {
		t.Skip("proves random positions")
	}
	cfg := KillAllConfig{Positions: 24, Seed: 7, Proof: ProofConfig{Budget: 3000, Workers: 2}}
	samples, st, err := KillAllSamples(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", st)
	if st.Solves != cfg.Positions || st.Samples != len(samples) {
		t.Fatalf("stats %+v for %d positions and %d samples", st, cfg.Positions, len(samples))
	}
	if st.Proven == 0 || len(samples) == 0 {
		t.Fatalf("no position proven or no label kept (%+v): the test proves nothing", st)
	}
	cfg.defaults()
	for i := range 3 {
		a, err := randomKillAll(context.Background(), cfg, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := randomKillAll(context.Background(), cfg, uint64(i))
		if a.Start.Hash() != b.Start.Hash() || a.Start.ToMove() != b.Start.ToMove() {
			t.Errorf("position %d differs between two draws from one seed", i)
		}
		var none game.PointSet
		if a.Judge(a.Start, &none).Outcome != game.Undecided {
			t.Errorf("position %d is already decided", i)
		}
	}
	checkSamplesRoundTrip(t, samples)
	decided := 0
	for _, s := range samples {
		if s.From != KillAllName || s.Depth > cfg.Proof.MaxDepth {
			t.Errorf("%s: From %q, depth %d", s.Name, s.From, s.Depth)
		}
		pos := s.Position.Copy()
		mover := pos.ToMove()
		if s.Answer == game.Pass || !pos.IsLegal(s.Answer) {
			t.Fatalf("%s: label %v is not a legal board move", s.Name, s.Answer)
		}
		if err := pos.Play(s.Answer); err != nil {
			t.Fatal(err)
		}
		pr, err := game.KillAll(pos.Board.Size())
		if err != nil {
			t.Fatal(err)
		}
		pr.Start = pos
		res := rzs.Solve(context.Background(), pr, rzs.Options{Budget: 20000, Evaluator: rzs.LD{}})
		if res.Status == rzs.Unknown {
			continue
		}
		decided++
		if (res.Status == rzs.Win) != (mover == game.White) {
			t.Errorf("%s: the label %v loses for %v (a search with another evaluator proved it)", s.Name, s.Answer, mover)
		}
	}
	if decided == 0 {
		t.Errorf("none of the %d labels' positions was decided by the second search: nothing was checked", len(samples))
	}
}

func TestRandomKillAllGivesUp(t *testing.T) {
	// 200 moves on 7x7 are always decided (or run out of moves) first.
	cfg := KillAllConfig{Positions: 1, MinMoves: 200, MaxMoves: 200}
	cfg.defaults()
	_, err := randomKillAll(context.Background(), cfg, 0)
	if err == nil || !strings.Contains(err.Error(), "decided before its last move") {
		t.Fatalf("error %v, want one saying every draw was decided", err)
	}
}

// checkSamplesRoundTrip writes samples with SaveSamples and reads them back.
func checkSamplesRoundTrip(t *testing.T, samples []Problem) {
	t.Helper()
	path := filepath.Join(t.TempDir(), SamplesFile)
	if err := SaveSamples(path, samples); err != nil {
		t.Fatal(err)
	}
	back, err := LoadSamples(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(samples) {
		t.Fatalf("%d samples written, %d read", len(samples), len(back))
	}
	for i, s := range samples {
		b := back[i]
		if b.Name != s.Name || b.From != s.From || b.Depth != s.Depth || b.Answer != s.Answer ||
			b.Position.ToMove() != s.Position.ToMove() || b.Position.Board.StoneHash() != s.Position.Board.StoneHash() {
			t.Errorf("sample %d: wrote %s from %s depth %d answer %v, read %s from %s depth %d answer %v",
				i, s.Name, s.From, s.Depth, s.Answer, b.Name, b.From, b.Depth, b.Answer)
		}
	}
}

func TestLoadSamplesErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ name, text, want string }{
		{"nofrom.sgf", "(;SZ[7]AB[cc]PL[W]XD[0];W[dd])", "game 1: no XF"},
		{"badmove.sgf", "(;SZ[7]AB[cc]PL[W]XF[x]XD[0];W[cc])", "game 1: the first move"},
		{"baddepth.sgf", "(;SZ[7]AB[cc]PL[W]XF[x]XD[0];W[dd])(;SZ[7]AB[cc]PL[W]XF[x]XD[-1];W[dd])", "game 2: XD[-1]"},
	} {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadSamples(path)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: error %v, want one naming the file and %q", c.name, err, c.want)
		}
	}
}
