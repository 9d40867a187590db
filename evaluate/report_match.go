package evaluate

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"lifezero/match"
)

// MatchSectionTitle is the title of the matches' report section.
const MatchSectionTitle = "Playing strength: matches"

// MatchEntry is one finished match: a player against an opponent.
type MatchEntry struct {
	Player, Opponent string
	Summary          *match.Summary
}

// WriteMatchSection writes the matches' section into outDir: per match the
// score of the player with its 95% Wilson interval, the Elo difference
// against the opponent that the score implies (paper 004's playing-strength
// tables compare the feature players this way), wins by colour, game
// lengths and times, and a chart of the scores with their intervals.
func WriteMatchSection(outDir, settings string, entries []MatchEntry) error {
	if len(entries) == 0 {
		return fmt.Errorf("evaluate: match section: no matches")
	}
	var b strings.Builder
	if settings != "" {
		b.WriteString(settings + "\n\n")
	}
	b.WriteString("Score: wins plus half the draws, per game, for the player; 95% Wilson interval. " +
		"Elo: 400·log10(s/(1−s)) against the opponent at the score and at the interval's bounds.\n\n")
	chart := BarChart{Title: "score against the opponent (95% interval)", YLabel: "score (%)",
		Groups: []BarGroup{{Name: "low"}, {Name: "score"}, {Name: "high"}}}
	var rows [][]string
	for _, e := range entries {
		s := e.Summary
		st := s.Stats
		asB, asW := 0, 0
		var moves []int
		secs := 0.0
		for i := range s.Games {
			g := &s.Games[i]
			if g.AResult() == 1 {
				if g.AColour == "B" {
					asB++
				} else {
					asW++
				}
			}
			moves = append(moves, g.Moves)
			secs += g.Seconds
		}
		slices.Sort(moves)
		median := 0
		if len(moves) > 0 {
			median = moves[len(moves)/2]
		}
		perGame := 0.0
		if len(s.Games) > 0 {
			perGame = secs / float64(len(s.Games))
		}
		rows = append(rows, []string{e.Player, e.Opponent, fmt.Sprintf("%dx%d", s.Size, s.Size), strconv.Itoa(st.Games),
			fmt.Sprintf("%d (%d / %d)", st.Wins, asB, asW), strconv.Itoa(st.Draws), fmt.Sprintf("%.3f", st.Score),
			fmt.Sprintf("%.3f–%.3f", st.Low, st.High), match.FormatElo(float64(st.Elo)),
			match.FormatElo(float64(st.EloLow)) + " to " + match.FormatElo(float64(st.EloHigh)),
			strconv.Itoa(median), fmt.Sprintf("%.1f", perGame)})
		chart.Categories = append(chart.Categories, e.Player)
		for i, v := range []float64{st.Low, st.Score, st.High} {
			chart.Groups[i].Values = append(chart.Groups[i].Values, 100*v)
		}
	}
	b.WriteString(MarkdownTable([]string{"player", "opponent", "board", "games", "wins (as B / as W)", "draws", "score",
		"95% CI", "Elo", "Elo 95% CI", "median moves", "s/game"}, rows))
	file, err := SaveBarChart(outDir, "match-scores", chart)
	if err != nil {
		return err
	}
	b.WriteString("\n" + Image("scores against the opponent", file) + "\n")
	return WriteSection(outDir, MatchSectionTitle, b.String())
}
