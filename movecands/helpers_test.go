package movecands

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"lifezero/datasets"
	"lifezero/features"
	"lifezero/game"
	"lifezero/internal/testdata"
)

// randomGame plays n random legal moves (no passes) on a size x size board
// and returns them as a games row's moves string.
func randomGame(t testing.TB, rng *rand.Rand, size, n int) (string, int) {
	t.Helper()
	pos, err := game.NewPosition(size)
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	var legal []game.Point
	for range n {
		legal = pos.LegalMoves(legal[:0], nil)
		if len(legal) == 0 {
			break
		}
		m := legal[rng.IntN(len(legal))]
		parts = append(parts, fmt.Sprintf("%s[%s]", colorLetter(pos.ToMove()), pos.PointString(m)))
		if err := pos.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return strings.Join(parts, ";"), len(parts)
}

func colorLetter(c game.Color) string {
	if c == game.Black {
		return "B"
	}
	return "W"
}

// gameRow returns a games row with the given id, date and moves.
func gameRow(id, date string, size int, moves string, n int) datasets.Game {
	return datasets.Game{GameID: id, Source: "test.sgf#" + id, Date: date, BoardSize: int32(size), Moves: moves, NumMoves: int32(n)}
}

// writeGamesDataset writes games as a games dataset in a new temp dir.
func writeGamesDataset(t testing.TB, games []datasets.Game) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "games")
	if _, err := datasets.WriteGames(dir, games, datasets.Manifest{Stage: "test", InputHash: "test"}, datasets.WriterOptions{}); err != nil {
		t.Fatal(err)
	}
	return dir
}

func defaultExtractor(t testing.TB) *features.Extractor {
	t.Helper()
	e, err := features.New(features.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// readRows reads every row of the movecands dataset in dir.
func readRows(t testing.TB, dir string) ([]*datasets.MoveCands, *datasets.Manifest) {
	t.Helper()
	var rows []*datasets.MoveCands
	m, err := datasets.ForEachMoveCands(context.Background(), dir, func(r *datasets.MoveCands) error {
		rows = append(rows, r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return rows, m
}

// sharedData returns <repo root>/../shared/data/<rel>, skipping the test if
// it is missing. The repo root is the nearest parent holding go.mod.
func sharedData(tb testing.TB, rel string) string { return testdata.Path(tb, rel) }
