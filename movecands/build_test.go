package movecands

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"lifezero/datasets"
	"lifezero/features"
	"lifezero/game"
)

// TestBuildKnownGame builds the dataset of a tiny 9x9 game and checks every
// row against an independent replay: the candidates are the legal moves and
// the pass, the played move is among them with the features package's ids.
func TestBuildKnownGame(t *testing.T) {
	// Black captures the corner stone at move 3 and passes at move 5.
	moves := "B[ba];W[aa];B[ab];W[ee];B[];W[ff];B[gg]"
	dir := writeGamesDataset(t, []datasets.Game{gameRow("g1", "2009-05-01", 9, moves, 7)})
	e := defaultExtractor(t)
	out := filepath.Join(t.TempDir(), "cands")
	m, err := Build(context.Background(), []string{dir}, out, Options{Features: e})
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := readRows(t, out)
	if len(rows) != 7 || m.Rows != 7 {
		t.Fatalf("%d rows (manifest %d), want one per move: 7", len(rows), m.Rows)
	}
	pos, _ := game.NewPosition(9)
	var played []game.Point
	var mv features.Moves
	for i, part := range strings.Split(moves, ";") {
		r := rows[i]
		p, err := pos.ParsePoint(part[2 : len(part)-1])
		if err != nil {
			t.Fatal(err)
		}
		e.Extract(pos, features.HistoryOf(played), &mv)
		if r.GameID != "g1" || r.Date != "2009-05-01" || r.MoveNumber != int32(i) || r.BoardSize != 9 {
			t.Errorf("row %d: %s %s move %d size %d", i, r.GameID, r.Date, r.MoveNumber, r.BoardSize)
		}
		if wantColor := datasets.ToMoveBlack + int8(i%2); r.ToMove != wantColor {
			t.Errorf("row %d: to_move %d, want %d", i, r.ToMove, wantColor)
		}
		if len(r.Moves) != mv.Len() || r.Moves[len(r.Moves)-1] != datasets.PassMove {
			t.Fatalf("row %d: %d candidates ending with %d, want %d ending with the pass", i, len(r.Moves), r.Moves[len(r.Moves)-1], mv.Len())
		}
		for c, q := range mv.Points() {
			want := datasets.PassMove
			if q != game.Pass {
				x, y := pos.XY(q)
				want = int16(x + 9*y)
			}
			if r.Moves[c] != want || !slices.Equal(r.Features[c], mv.Features(c)) {
				t.Fatalf("row %d, candidate %d: move %d features %v, want %d %v", i, c, r.Moves[c], r.Features[c], want, mv.Features(c))
			}
		}
		code := datasets.PassMove
		if p != game.Pass {
			x, y := pos.XY(p)
			code = int16(x + 9*y)
		}
		if r.Moves[r.Played] != code {
			t.Errorf("row %d: played candidate is %d, want %s (%d)", i, r.Moves[r.Played], part, code)
		}
		if !slices.Equal(r.Features[r.Played], mv.Features(mv.Index(p))) {
			t.Errorf("row %d: played move's features differ", i)
		}
		played = append(played, p)
		if err := pos.Play(p); err != nil {
			t.Fatal(err)
		}
	}
	// Hand-checked facts: 81 points and the pass on the empty board; move 3
	// (B ab) kills one stone; move 5 is the pass.
	if len(rows[0].Moves) != 82 || rows[0].Moves[rows[0].Played] != 1 {
		t.Errorf("first position: %d candidates, played %d; want 82 and ba = 1", len(rows[0].Moves), rows[0].Moves[rows[0].Played])
	}
	kill1, _ := e.ID("kill:1")
	if !slices.Contains(rows[2].Features[rows[2].Played], kill1) || rows[2].Moves[rows[2].Played] != 9 {
		t.Errorf("move 3 (ab = 9) should kill one stone: played %d with %v", rows[2].Moves[rows[2].Played], names(e, rows[2].Features[rows[2].Played]))
	}
	if rows[4].Moves[rows[4].Played] != datasets.PassMove {
		t.Errorf("move 5 was a pass, the row says %d", rows[4].Moves[rows[4].Played])
	}
	set, err := FeatureSet(m)
	if err != nil || set.NumFeatures() != e.NumFeatures() {
		t.Errorf("feature set in the manifest: %v", err)
	}
}

func names(e *features.Extractor, ids []int32) []string {
	var out []string
	for _, id := range ids {
		out = append(out, e.Name(id))
	}
	return out
}

// syntheticGames returns n random 9x9 games, dated over 2009 and 2010.
func syntheticGames(t *testing.T, n int) []datasets.Game {
	rng := rand.New(rand.NewPCG(7, 7))
	var games []datasets.Game
	for i := range n {
		moves, k := randomGame(t, rng, 9, 20+rng.IntN(30))
		games = append(games, gameRow(fmt.Sprintf("g%02d", i), fmt.Sprintf("%d-%02d-10", 2009+i%2, 1+i%12), 9, moves, k))
	}
	return games
}

func TestBuildSampling(t *testing.T) {
	games := syntheticGames(t, 20)
	dir := writeGamesDataset(t, games)
	e := defaultExtractor(t)
	build := func(seed uint64, workers int) ([]*datasets.MoveCands, Summary) {
		out := filepath.Join(t.TempDir(), "cands")
		m, err := Build(context.Background(), []string{dir}, out, Options{
			Features: e, Dates: datasets.DateRange{From: "2009", To: "2009"}, MaxGames: 4, PositionsPerGame: 5,
			Seed: seed, Workers: workers, RowsPerFile: 7,
		})
		if err != nil {
			t.Fatal(err)
		}
		rows, _ := readRows(t, out)
		s, err := SummaryOf(m)
		if err != nil {
			t.Fatal(err)
		}
		return rows, s
	}
	rows, s := build(1, 1)
	if s.GamesRead != 20 || s.InRange != 10 || s.OutOfRange[datasets.SkipAfterTo] != 10 || s.Sampled != 4 || s.Used != 4 ||
		s.Positions != 20 || int(s.Positions) != len(rows) || s.PositionsPerGame != 5 || s.Seed != 1 || s.Dates.From != "2009" {
		t.Errorf("summary %+v", s)
	}
	perGame := map[string]int{}
	cands := int64(0)
	for _, r := range rows {
		if !strings.HasPrefix(r.Date, "2009-") {
			t.Errorf("row of game %s dated %s, outside 2009", r.GameID, r.Date)
		}
		perGame[r.GameID]++
		cands += int64(len(r.Moves))
	}
	if len(perGame) != 4 || cands != s.Candidates {
		t.Errorf("positions per game %v (candidates %d, summary %d)", perGame, cands, s.Candidates)
	}
	for id, n := range perGame {
		if n != 5 {
			t.Errorf("game %s: %d positions, want 5", id, n)
		}
	}
	// Same seed: the same data whatever the number of workers.
	if again, _ := build(1, 3); !reflect.DeepEqual(again, rows) {
		t.Error("3 workers built other data than 1 worker with the same seed")
	}
	if other, _ := build(2, 1); reflect.DeepEqual(other, rows) {
		t.Error("seeds 1 and 2 built the same data")
	}
}

func TestBuildCountsSkippedGames(t *testing.T) {
	games := syntheticGames(t, 4)
	hcap := games[0]
	hcap.GameID, hcap.Handicap = "handicap", 2
	bad := games[1]
	bad.GameID, bad.Moves = "bad", "B[aa];B[bb]"
	bad.NumMoves = 2
	undated := games[2]
	undated.GameID, undated.Date = "undated", ""
	games = append(games, hcap, bad, games[3], undated) // games[3] twice: a duplicate id
	dir := writeGamesDataset(t, games)
	var skipped []string
	out := filepath.Join(t.TempDir(), "cands")
	m, err := Build(context.Background(), []string{dir}, out, Options{
		Features: defaultExtractor(t), Dates: datasets.DateRange{From: "2009"}, PositionsPerGame: 2,
		OnSkip: func(s SkippedGame) { skipped = append(skipped, s.GameID+":"+s.Err.Reason) },
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := SummaryOf(m)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{SkipHandicap: 1, SkipOutOfTurn: 1, SkipDuplicate: 1}
	if !reflect.DeepEqual(s.Skipped, want) || s.OutOfRange[datasets.SkipNoDate] != 1 || s.Used != 4 || s.Sampled != 6 || s.SkippedTotal() != 3 {
		t.Errorf("summary %+v, want skipped %v, 1 undated, 4 used of 6 sampled", s, want)
	}
	if !reflect.DeepEqual(skipped, []string{"handicap:handicap", "bad:out_of_turn"}) {
		t.Errorf("OnSkip saw %v", skipped)
	}
}

func TestBuildLearnsPatterns(t *testing.T) {
	dir := writeGamesDataset(t, syntheticGames(t, 6))
	out := filepath.Join(t.TempDir(), "cands")
	e := defaultExtractor(t)
	m, err := Build(context.Background(), []string{dir}, out, Options{Features: e, LearnDiamonds: 2, LearnShapes: 2, PositionsPerGame: 3})
	if err != nil {
		t.Fatal(err)
	}
	set, err := FeatureSet(m)
	if err != nil {
		t.Fatal(err)
	}
	nd, ns := len(set.Config().Diamonds), len(set.Config().Shapes)
	if nd == 0 || ns == 0 || set.NumFeatures() != e.NumFeatures()+nd+ns {
		t.Fatalf("learned %d diamonds and %d shapes, %d features (%d without)", nd, ns, set.NumFeatures(), e.NumFeatures())
	}
	if s, err := SummaryOf(m); err != nil || s.Diamonds != nd || s.Shapes != ns {
		t.Errorf("summary %+v, %v: want %d diamonds and %d shapes", s, err, nd, ns)
	}
	rows, _ := readRows(t, out)
	firstDiamond, firstShape := int32(e.NumFeatures()), int32(e.NumFeatures()+nd)
	withDiamond, withShape := 0, 0
	for _, r := range rows {
		for _, id := range r.Features[r.Played] {
			switch {
			case id >= firstShape:
				withShape++
			case id >= firstDiamond:
				withDiamond++
			}
		}
	}
	if withDiamond == 0 || withShape == 0 {
		t.Errorf("played moves with a learned diamond: %d, with a learned shape: %d; want some of each", withDiamond, withShape)
	}
	for _, o := range []Options{{Features: set, LearnDiamonds: 2}, {Features: set, LearnShapes: 2}, {Features: e, LearnShapes: -1}} {
		if _, err := Build(context.Background(), []string{dir}, filepath.Join(t.TempDir(), "x"), o); err == nil {
			t.Errorf("diamonds %d, shapes %d on a set with %d and %d: no error", o.LearnDiamonds, o.LearnShapes,
				len(o.Features.Config().Diamonds), len(o.Features.Config().Shapes))
		}
	}
}

// TestBuildTom9dSplit builds training data from 2009 and validation data
// from 2010 games of tom9d (two months of it), the second with the first's
// feature set, and checks the split.
func TestBuildTom9dSplit(t *testing.T) {
	tom := sharedData(t, "games/tom9d")
	games := filepath.Join(t.TempDir(), "games")
	_, err := datasets.ImportRecords(context.Background(), datasets.ImportOptions{
		Inputs: []string{filepath.Join(tom, "2009-12.sgf"), filepath.Join(tom, "2010-01.sgf")}, OutDir: games})
	if err != nil {
		t.Fatal(err)
	}
	build := func(r datasets.DateRange, e *features.Extractor, learn int64) (string, Summary) {
		out := filepath.Join(t.TempDir(), "cands")
		m, err := Build(context.Background(), []string{games}, out, Options{
			Features: e, LearnDiamonds: learn, Dates: r, MaxGames: 12, PositionsPerGame: 3, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		s, err := SummaryOf(m)
		if err != nil {
			t.Fatal(err)
		}
		return out, s
	}
	trainDir, trainSum := build(datasets.DateRange{From: "2003", To: "2009"}, defaultExtractor(t), 3)
	train, err := Open(trainDir)
	if err != nil {
		t.Fatal(err)
	}
	validDir, validSum := build(datasets.DateRange{From: "2010", To: "2010"}, train.Features(), 0)
	if trainSum.InRange+validSum.InRange != trainSum.GamesRead || trainSum.OutOfRange[datasets.SkipAfterTo] != validSum.InRange {
		t.Errorf("the date ranges do not split the %d games: %+v, %+v", trainSum.GamesRead, trainSum, validSum)
	}
	ids := map[string]string{}
	for _, c := range []struct{ dir, year string }{{trainDir, "2009-"}, {validDir, "2010-"}} {
		rows, _ := readRows(t, c.dir)
		if len(rows) != 36 {
			t.Errorf("%s: %d positions, want 12 games x 3", c.year, len(rows))
		}
		for _, r := range rows {
			if !strings.HasPrefix(r.Date, c.year) {
				t.Fatalf("%s data holds game %s dated %s", c.year, r.GameID, r.Date)
			}
			if y, ok := ids[r.GameID]; ok && y != c.year {
				t.Fatalf("game %s is in both parts", r.GameID)
			}
			ids[r.GameID] = c.year
			if r.BoardSize != 19 || len(r.Moves) < 2 {
				t.Fatalf("game %s: board %d, %d candidates", r.GameID, r.BoardSize, len(r.Moves))
			}
		}
	}
	both, err := Open(trainDir, validDir)
	if err != nil {
		t.Fatalf("the validation data should share the training feature set: %v", err)
	}
	if both.Positions() != 72 || both.NumFeatures() != train.NumFeatures() {
		t.Errorf("%d positions, %d features", both.Positions(), both.NumFeatures())
	}
}
