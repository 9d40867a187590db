package evaluate

import (
	"context"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"lifezero/datasets"
)

func TestLengthHistogram(t *testing.T) {
	c := lengthHistogram([]int{0, 49, 50, 120, 149, 600})
	wantCats := []string{"0-49", "50-99", "100-149", "150-199", "200-249", "250-299", "300-349", "350-399", "400-449", "450+"}
	if !reflect.DeepEqual(c.Categories, wantCats) {
		t.Errorf("categories %v", c.Categories)
	}
	if want := []float64{2, 1, 2, 0, 0, 0, 0, 0, 0, 1}; !reflect.DeepEqual(c.Groups[0].Values, want) {
		t.Errorf("counts %v, want %v", c.Groups[0].Values, want)
	}
	c = lengthHistogram([]int{10, 60})
	if !reflect.DeepEqual(c.Categories, []string{"0-49", "50-99"}) || !reflect.DeepEqual(c.Groups[0].Values, []float64{1, 1}) {
		t.Errorf("short games: %v %v", c.Categories, c.Groups[0].Values)
	}
}

func TestGamesSection(t *testing.T) {
	out := filepath.Join(t.TempDir(), "games")
	// The bundled samples: 150 games of each of two months.
	m, err := datasets.ImportRecords(context.Background(), datasets.ImportOptions{
		Inputs: []string{"../samples/games/tom9d-2010-01-first150.sgf"}, OutDir: out, MaxGames: 40})
	if err != nil {
		t.Fatal(err)
	}
	if m.Rows != 40 {
		t.Fatalf("imported %d games, want 40", m.Rows)
	}
	if err := WriteGamesSection(context.Background(), out); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSection(out)
	if err != nil {
		t.Fatal(err)
	}
	games, _, err := datasets.ReadGames(context.Background(), out)
	if err != nil {
		t.Fatal(err)
	}
	longest := 0
	for _, g := range games {
		longest = max(longest, int(g.NumMoves))
	}
	for _, want := range []string{"| games written | 40 |", "| input files | 1 |", "40 games dated 2010-01-", "board sizes: 19x19: 40.",
		"longest " + strconv.Itoa(longest) + ")", "![game lengths](game-lengths.png)"} {
		if !strings.Contains(s.Markdown, want) {
			t.Errorf("section lacks %q:\n%s", want, s.Markdown)
		}
	}
	if !reflect.DeepEqual(s.Images, []string{"game-lengths.png"}) {
		t.Errorf("images %v", s.Images)
	}
	decodePNG(t, filepath.Join(out, ReportDir, "game-lengths.png"))
}
