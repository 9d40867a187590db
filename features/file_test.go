package features

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lifezero/game"
)

func TestSaveLoadRoundTrip(t *testing.T) {
	recs := randomRecords(t, 21, 9)
	vocab, err := LearnDiamonds(context.Background(), allMoves(recs), 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(vocab) == 0 {
		t.Fatal("no diamond seen 3 times")
	}
	e, err := New(Config{Pattern3Liberties: true, Diamonds: vocab})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "features.json")
	if err := e.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Names(), e.Names()) {
		t.Fatal("loaded feature set has other names")
	}
	if !slices.Equal(got.Config().Diamonds, vocab) || !got.Config().Pattern3Liberties {
		t.Fatal("loaded configuration differs")
	}
	var a, b Moves
	diamonds := 0
	for _, r := range recs {
		e.Extract(r.pos, r.history, &a)
		got.Extract(r.pos, r.history, &b)
		for i := range a.Len() {
			if !slices.Equal(a.Features(i), b.Features(i)) {
				t.Fatalf("move %s: %v vs %v after loading", r.pos.GTPString(a.Move(i)), a.Features(i), b.Features(i))
			}
			for _, id := range a.Features(i) {
				if id >= e.diamondBase() {
					diamonds++
				}
			}
		}
	}
	if diamonds == 0 {
		t.Error("no diamond feature fired on the positions the vocabulary came from")
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("save left %d files in its directory, want 1", len(entries))
	}
}

func TestReadJSONErrors(t *testing.T) {
	e := testExtractor(t, false)
	var buf bytes.Buffer
	if err := e.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	for _, tc := range []struct{ name, text, want string }{
		{"not json", "{", "reading feature set"},
		{"other format", strings.Replace(good, fileFormat, "other", 1), "format"},
		{"newer version", strings.Replace(good, `"version": 1`, `"version": 2`, 1), "version 2"},
		{"id layout changed", strings.Replace(good, `"num_features": 1247`, `"num_features": 1250`, 1), "id layout changed"},
		{"non-canonical diamond", strings.Replace(good, `"diamonds": []`, `"diamonds": [{"code": 64, "count": 1}]`, 1), "not a canonical"},
		{"unknown field", strings.Replace(good, `"version"`, `"colour": 1, "version"`, 1), "unknown field"},
	} {
		_, err := ReadJSON(strings.NewReader(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
	if _, err := ReadJSON(strings.NewReader(good)); err != nil {
		t.Errorf("the good file: %v", err)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("loading a missing file succeeded")
	}
}

func TestNewRejectsBadVocabulary(t *testing.T) {
	c := newDiamondCanon()
	k := c.canonical(0x123456)
	if _, err := New(Config{Diamonds: []DiamondCount{{Code: k}, {Code: k}}}); err == nil {
		t.Error("a repeated diamond was accepted")
	}
	if _, err := New(Config{Diamonds: []DiamondCount{{Code: 1 << diamondBits}}}); err == nil {
		t.Error("a code beyond 24 bits was accepted")
	}
}

func TestLearnDiamonds(t *testing.T) {
	pos := diagram(t, game.Black,
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . X O . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .")
	e5 := vertex(t, &pos.Board, "E5")
	// The same shape three times: as is, mirrored, and colour-swapped with
	// White to move; then a different one once.
	mirrored := pos.Transformed(1)
	swapped := diagram(t, game.White,
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . O X . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .")
	samples := []Sample{
		{pos, e5},
		{mirrored, pos.Transform(1, e5)},
		{swapped, e5},
		{pos, vertex(t, &pos.Board, "A1")},
		{pos, game.Pass},
	}
	seq := func(yield func(Sample, error) bool) {
		for _, s := range samples {
			if !yield(s, nil) {
				return
			}
		}
	}
	vocab, err := LearnDiamonds(context.Background(), seq, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(vocab) != 2 || vocab[0].Count != 3 || vocab[1].Count != 1 {
		t.Fatalf("vocabulary %v, want two diamonds seen 3 and 1 times", vocab)
	}
	if d := describeDiamond(vocab[0].Code); strings.Count(d, "X") != 1 || strings.Count(d, "O") != 1 || strings.Count(d, ".") != 10 {
		t.Errorf("the frequent diamond is\n%s\nwant one own stone, one opponent stone and ten empty points", d)
	}
	vocab, err = LearnDiamonds(context.Background(), seq, 2)
	if err != nil || len(vocab) != 1 {
		t.Errorf("minCount 2: %v, %v; want the one frequent diamond", vocab, err)
	}
	if _, err := LearnDiamonds(context.Background(), seq, 0); err == nil {
		t.Error("minCount 0 was accepted")
	}
	boom := errors.New("boom")
	failing := func(yield func(Sample, error) bool) { yield(Sample{}, boom) }
	if _, err := LearnDiamonds(context.Background(), failing, 1); !errors.Is(err, boom) {
		t.Errorf("iterator error: got %v", err)
	}
	occupied := func(yield func(Sample, error) bool) {
		yield(Sample{Pos: pos, Move: vertex(t, &pos.Board, "D6")}, nil)
	}
	if _, err := LearnDiamonds(context.Background(), occupied, 1); err == nil {
		t.Error("a move on a stone was accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	many := func(yield func(Sample, error) bool) {
		for {
			if !yield(Sample{Pos: pos, Move: e5}, nil) {
				return
			}
		}
	}
	if _, err := LearnDiamonds(ctx, many, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled learning: got %v", err)
	}
}
