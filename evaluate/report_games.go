package evaluate

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"lifezero/datasets"
)

// The game-length histogram has bins of gameLengthBin moves, at most
// maxLengthBins of them (the last one open-ended).
const (
	gameLengthBin = 50
	maxLengthBins = 10
)

// WriteGamesSection writes the report section of the games dataset in dir:
// the import summary its manifest holds (if any), what the games are (board
// sizes, dates, lengths) and a histogram of game lengths.
func WriteGamesSection(ctx context.Context, dir string) error {
	var (
		n, moves    int
		lengths     []int
		sizes       = map[int32]int{}
		first, last string
	)
	m, err := datasets.ForEachGame(ctx, dir, func(g datasets.Game) error {
		n++
		moves += int(g.NumMoves)
		lengths = append(lengths, int(g.NumMoves))
		sizes[g.BoardSize]++
		if d := g.Date; len(d) >= 10 {
			if first == "" || d[:10] < first {
				first = d[:10]
			}
			if d[:10] > last {
				last = d[:10]
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("evaluate: games section: %w", err)
	}
	var b strings.Builder
	if s, err := datasets.ImportSummaryOf(m); err == nil {
		rows := [][]string{
			{"input files", fmt.Sprint(s.Files)},
			{"game trees read", fmt.Sprint(s.Read)},
			{"games written", fmt.Sprint(s.Written)},
			{"duplicate game ids", fmt.Sprint(s.Duplicates)},
		}
		reasons := make([]string, 0, len(s.Skipped))
		for r := range s.Skipped {
			reasons = append(reasons, r)
		}
		sort.Strings(reasons)
		for _, r := range reasons {
			rows = append(rows, []string{"skipped: " + strings.ReplaceAll(r, "_", " "), fmt.Sprint(s.Skipped[r])})
		}
		b.WriteString(MarkdownTable([]string{"import", "count"}, rows) + "\n")
	}
	fmt.Fprintf(&b, "%d games", n)
	if first != "" {
		fmt.Fprintf(&b, " dated %s to %s", first, last)
	}
	if n > 0 {
		sort.Ints(lengths)
		fmt.Fprintf(&b, "; %.1f moves on average (median %d, longest %d)", float64(moves)/float64(n), lengths[n/2], lengths[n-1])
	}
	fmt.Fprintf(&b, "; board sizes: %s.\n", sizeCounts(sizes))
	if n > 0 {
		file, err := SaveBarChart(dir, "game-lengths", lengthHistogram(lengths))
		if err != nil {
			return err
		}
		b.WriteString("\n" + Image("game lengths", file) + "\n")
	}
	return WriteSection(dir, "Game records", b.String())
}

func sizeCounts(sizes map[int32]int) string {
	keys := make([]int, 0, len(sizes))
	for k := range sizes {
		keys = append(keys, int(k))
	}
	sort.Ints(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%dx%d: %d", k, k, sizes[int32(k)])
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// lengthHistogram bins sorted game lengths by gameLengthBin moves, from 0
// to the longest game.
func lengthHistogram(sorted []int) BarChart {
	bins := min(sorted[len(sorted)-1]/gameLengthBin+1, maxLengthBins)
	counts := make([]float64, bins)
	cats := make([]string, bins)
	for i := range cats {
		cats[i] = fmt.Sprintf("%d-%d", i*gameLengthBin, (i+1)*gameLengthBin-1)
	}
	if sorted[len(sorted)-1] >= maxLengthBins*gameLengthBin {
		cats[bins-1] = fmt.Sprintf("%d+", (bins-1)*gameLengthBin)
	}
	for _, l := range sorted {
		counts[min(l/gameLengthBin, bins-1)]++
	}
	return BarChart{Title: "game lengths", YLabel: "games", Categories: cats,
		Groups: []BarGroup{{Name: "moves", Values: counts}}}
}
