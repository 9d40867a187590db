package evaluate

import (
	"strings"
	"testing"

	"lifezero/match"
)

func TestWriteMatchSection(t *testing.T) {
	// 3 games: a win as Black, a loss as White, a win as White.
	games := []match.Result{
		{Game: 1, AColour: "B", Winner: "B", Moves: 80, Seconds: 2},
		{Game: 2, AColour: "W", Winner: "B", Moves: 60, Seconds: 1},
		{Game: 3, AColour: "W", Winner: "W", Moves: 100, Seconds: 3},
	}
	var scores []float64
	for i := range games {
		scores = append(scores, games[i].AResult())
	}
	sum := &match.Summary{Size: 9, Komi: 7.5, Games: games, Stats: match.Summarise(scores)}
	out := t.TempDir()
	if err := WriteMatchSection(out, "settings line", []MatchEntry{{Player: "bt", Opponent: "GNU Go level 1", Summary: sum}}); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSection(out)
	if err != nil {
		t.Fatal(err)
	}
	// Score 2/3: Elo 400 log10(2) = +120; Wilson 95% bounds 0.2077-0.9385, Elo -233 and +473.
	want := "| bt | GNU Go level 1 | 9x9 | 3 | 2 (1 / 1) | 0 | 0.667 | 0.208–0.939 | +120 | -233 to +473 | 80 | 2.0 |"
	if !strings.Contains(s.Markdown, want) || !strings.HasPrefix(s.Markdown, "settings line") {
		t.Errorf("section lacks\n%s\nin\n%s", want, s.Markdown)
	}
	if len(s.Images) != 1 {
		t.Errorf("images %v, want the score chart", s.Images)
	}
	if err := WriteMatchSection(out, "", nil); err == nil {
		t.Error("no matches: no error")
	}
}
