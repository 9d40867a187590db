package evaluate

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"lifezero/datasets"
	"lifezero/movecands"
	"lifezero/movepred"
)

// Report sections of the feature-knowledge stages: the movecands data, the
// training of a feature model and the move-prediction results (paper 004:
// accuracy per game phase, Figs 4.2/4.3; feature frequencies, Sec. 4.4).

// phaseCap merges the game phases from this move number on into one bucket
// in the per-phase chart and table (paper 004 shows moves 0 to 300).
const phaseCap = 300

// topFeatures is the length of the feature-frequency tables.
const topFeatures = 15

// MovePredReport says what a move-prediction section reports on.
type MovePredReport struct {
	// Data describes the positions in one line ("3,000 positions of 150
	// games dated 2010-01").
	Data string
	// FeatureName names a feature id in the frequency tables; nil prints ids.
	FeatureName func(id int32) string
}

// WriteMovePredSection writes the report section of a move-prediction
// evaluation into outDir: the accuracy table, the top-1 rate per game phase
// (a bar chart and a table) and, when the results hold them, the feature
// frequencies: the features most often in the played moves, with how often
// they are in all legal moves and in each player's first choice, and for each
// player the features whose frequency in its choices differs most from that
// in the played moves.
func WriteMovePredSection(outDir string, results []movepred.Result, rep MovePredReport) error {
	if len(results) == 0 {
		return fmt.Errorf("evaluate: move prediction section: no results")
	}
	var b strings.Builder
	if rep.Data != "" {
		b.WriteString(rep.Data + "\n\n")
	}
	b.WriteString(MovePredTable(results))
	labels, phases := mergedPhases(results)
	if len(labels) > 0 {
		chart := BarChart{Title: "move prediction per game phase", YLabel: "top-1 accuracy (%)", Categories: labels}
		for i, r := range results {
			g := BarGroup{Name: r.Player}
			for _, p := range phases[i] {
				g.Values = append(g.Values, 100*p.Top1)
			}
			chart.Groups = append(chart.Groups, g)
		}
		file, err := SaveBarChart(outDir, "movepred-phases", chart)
		if err != nil {
			return err
		}
		b.WriteString("\nTop-1 accuracy per game phase (moves played before the position, as in paper 004 Figs 4.2 and 4.3):\n\n")
		b.WriteString(Image("top-1 accuracy per game phase", file) + "\n\n")
		header := []string{"phase", "positions"}
		for _, r := range results {
			header = append(header, r.Player+" top-1")
		}
		var rows [][]string
		for j, l := range labels {
			row := []string{l, fmt.Sprint(phases[0][j].Positions)}
			for i := range results {
				row = append(row, pct(phases[i][j].Top1))
			}
			rows = append(rows, row)
		}
		b.WriteString(MarkdownTable(header, rows))
	}
	b.WriteString(frequencyMarkdown(results, rep.FeatureName))
	return WriteSection(outDir, "Move prediction", b.String())
}

// MovePredTable renders the accuracy of each player as a Markdown table.
func MovePredTable(results []movepred.Result) string {
	var rows [][]string
	for _, r := range results {
		top10 := "-"
		if len(r.TopK) >= 10 {
			top10 = pct(r.TopK[9])
		}
		rows = append(rows, []string{r.Player, fmt.Sprint(r.Positions), pct(r.Top1), pct(r.Top5), top10,
			fmt.Sprintf("%.1f", r.MeanRank), fmt.Sprintf("%.3f", r.MeanLogLikelihood)})
	}
	return MarkdownTable([]string{"player", "positions", "top-1", "top-5", "top-10", "mean rank", "mean log-likelihood"}, rows)
}

func pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

// mergedPhases returns the phase labels and, per result, its phases with
// those from phaseCap on merged into one (positions-weighted). Results of
// the same positions share their phases; labels follow the first result.
func mergedPhases(results []movepred.Result) ([]string, [][]movepred.Phase) {
	var labels []string
	out := make([][]movepred.Phase, len(results))
	for i, r := range results {
		var tail movepred.Phase
		for _, p := range r.Phases {
			if p.Positions == 0 {
				continue
			}
			if p.From < phaseCap {
				out[i] = append(out[i], p)
				if i == 0 {
					labels = append(labels, fmt.Sprintf("%d-%d", p.From, p.To))
				}
				continue
			}
			w := float64(tail.Positions) + float64(p.Positions)
			tail.Top1 = (tail.Top1*float64(tail.Positions) + p.Top1*float64(p.Positions)) / w
			tail.Top5 = (tail.Top5*float64(tail.Positions) + p.Top5*float64(p.Positions)) / w
			tail.MeanLogLikelihood = (tail.MeanLogLikelihood*float64(tail.Positions) + p.MeanLogLikelihood*float64(p.Positions)) / w
			tail.From, tail.Positions = phaseCap, tail.Positions+p.Positions
		}
		if tail.Positions > 0 {
			out[i] = append(out[i], tail)
			if i == 0 {
				labels = append(labels, fmt.Sprintf("%d+", phaseCap))
			}
		}
	}
	for i := range out {
		if len(out[i]) != len(labels) { // results over other positions: no common chart
			return nil, nil
		}
	}
	return labels, out
}

// frequencyMarkdown renders the feature-frequency tables of the results that
// hold frequencies.
func frequencyMarkdown(results []movepred.Result, name func(int32) string) string {
	var with []movepred.Result
	for _, r := range results {
		if len(r.Features) > 0 {
			with = append(with, r)
		}
	}
	if len(with) == 0 {
		return ""
	}
	if name == nil {
		name = func(id int32) string { return fmt.Sprint(id) }
	}
	var b strings.Builder
	b.WriteString("\nFeature frequencies (paper 004 Sec. 4.4): the features most often active in the played moves, " +
		"with the fraction of all legal moves that have them and of each player's first choices " +
		"(features that all the moves of a position share, such as the game phase, are left out).\n\n")
	byID := make([]map[int32]movepred.FeatureFrequency, len(with))
	for i, r := range with {
		byID[i] = make(map[int32]movepred.FeatureFrequency, len(r.Features))
		for _, f := range r.Features {
			byID[i][f.Feature] = f
		}
	}
	top := slices.Clone(with[0].Features)
	slices.SortStableFunc(top, func(a, b movepred.FeatureFrequency) int {
		return cmpDesc(a.Played, b.Played, a.Feature, b.Feature)
	})
	header := []string{"feature", "legal moves", "played"}
	for _, r := range with {
		header = append(header, r.Player)
	}
	var rows [][]string
	for _, f := range top {
		if len(rows) == topFeatures {
			break
		}
		if sharedByAllMoves(f.Feature, byID) {
			continue
		}
		row := []string{name(f.Feature), pct(f.Legal), pct(f.Played)}
		for i := range with {
			row = append(row, pct(byID[i][f.Feature].Predicted))
		}
		rows = append(rows, row)
	}
	b.WriteString(MarkdownTable(header, rows))
	for _, r := range with {
		if r.Player == "random" {
			continue
		}
		fmt.Fprintf(&b, "\nLargest differences between %s's first choices and the played moves:\n\n", r.Player)
		var rows [][]string
		for _, f := range r.LargestDifferences(len(r.Features)) {
			if len(rows) == 10 {
				break
			}
			if sharedByAllMoves(f.Feature, byID) {
				continue
			}
			rows = append(rows, []string{name(f.Feature), pct(f.Played), pct(f.Predicted), fmt.Sprintf("%+.1f", 100*(f.Predicted-f.Played))})
		}
		b.WriteString(MarkdownTable([]string{"feature", "played", r.Player, "difference (points)"}, rows))
	}
	return b.String()
}

// sharedByAllMoves reports whether every player picks feature id exactly as
// often as it is played: a feature that all the moves of a position share
// (the game phase), which says nothing about the choice of a move.
func sharedByAllMoves(id int32, byID []map[int32]movepred.FeatureFrequency) bool {
	for _, m := range byID {
		if f := m[id]; math.Abs(f.Predicted-f.Played) > 1e-9 {
			return false
		}
	}
	return true
}

// cmpDesc orders by x descending, then by id ascending.
func cmpDesc(x, y float64, a, b int32) int {
	switch {
	case x > y:
		return -1
	case x < y:
		return 1
	}
	return int(a) - int(b)
}

// FeatureTrainReport is what a feature-model training reports.
type FeatureTrainReport struct {
	Model     string    // bt, lfr or fbt
	Samples   int       // training positions
	Features  int       // feature ids
	Settings  string    // the training settings, one line
	Seconds   float64   // training time
	PeakBytes uint64    // memory obtained from the OS by the process (0: unknown)
	Loss      []float64 // mean training loss per epoch
}

// LossName says what a model's training loss is.
func LossName(model string) string {
	if model == "lfr" {
		return "mean pairwise logistic loss"
	}
	return "mean negative log-likelihood"
}

// LossCurve is the line plot of a training loss per epoch.
func LossCurve(model string, loss []float64) LinePlot {
	s := Series{Name: model}
	for i, l := range loss {
		s.X = append(s.X, float64(i+1))
		s.Y = append(s.Y, l)
	}
	return LinePlot{Title: model + " training loss", XLabel: "epoch", YLabel: LossName(model), Series: []Series{s}}
}

// WriteFeatureTrainSection writes the report section of a feature-model
// training into outDir: what was trained, how long it took and the loss
// curve.
func WriteFeatureTrainSection(outDir string, r FeatureTrainReport) error {
	var b strings.Builder
	rows := [][]string{
		{"model", r.Model},
		{"training positions", fmt.Sprint(r.Samples)},
		{"feature ids", fmt.Sprint(r.Features)},
		{"epochs", fmt.Sprint(len(r.Loss))},
		{"settings", r.Settings},
		{"training time", fmt.Sprintf("%.1f s", r.Seconds)},
	}
	if r.PeakBytes > 0 {
		rows = append(rows, []string{"peak memory (process)", fmt.Sprintf("%.0f MB", float64(r.PeakBytes)/(1<<20))})
	}
	if n := len(r.Loss); n > 0 {
		rows = append(rows, []string{"final loss (" + LossName(r.Model) + ")", fmt.Sprintf("%.4f", r.Loss[n-1])})
	}
	b.WriteString(MarkdownTable([]string{"training", ""}, rows))
	if len(r.Loss) > 0 {
		file, err := SaveLinePlot(outDir, "loss-"+r.Model, LossCurve(r.Model, r.Loss))
		if err != nil {
			return err
		}
		b.WriteString("\n" + Image(r.Model+" training loss", file) + "\n")
	}
	return WriteSection(outDir, "Feature model: "+r.Model, b.String())
}

// SaveLinePlotAs draws p into the PNG file at path (atomically), for plots
// that belong beside a file rather than in a report section.
func SaveLinePlotAs(path string, p LinePlot) error {
	tmp, err := os.MkdirTemp(filepath.Dir(path), ".plot-*")
	if err != nil {
		return fmt.Errorf("evaluate: plot %s: %w", path, err)
	}
	defer os.RemoveAll(tmp)
	file, err := SaveLinePlot(tmp, "plot", p)
	if err != nil {
		return err
	}
	if err := os.Rename(filepath.Join(tmp, ReportDir, file), path); err != nil {
		return fmt.Errorf("evaluate: plot %s: %w", path, err)
	}
	return nil
}

// WriteMoveCandsSection writes the report section of a movecands dataset:
// which games it took, what it skipped and why, and its size.
func WriteMoveCandsSection(outDir string, s movecands.Summary) error {
	rows := [][]string{{"games read", fmt.Sprint(s.GamesRead)}}
	for _, r := range movecands.Reasons(s.OutOfRange) {
		rows = append(rows, []string{"outside " + dateRangeText(s.Dates) + ": " + strings.ReplaceAll(r, "_", " "), fmt.Sprint(s.OutOfRange[r])})
	}
	rows = append(rows, []string{"distinct games in range", fmt.Sprint(s.InRange)}, []string{"games sampled", fmt.Sprint(s.Sampled)})
	for _, r := range movecands.Reasons(s.Skipped) {
		rows = append(rows, []string{"skipped: " + strings.ReplaceAll(r, "_", " "), fmt.Sprint(s.Skipped[r])})
	}
	perGame := "all"
	if s.PositionsPerGame > 0 {
		perGame = fmt.Sprint(s.PositionsPerGame)
	}
	mean := 0.0
	if s.Positions > 0 {
		mean = float64(s.Candidates) / float64(s.Positions)
	}
	rows = append(rows,
		[]string{"games used", fmt.Sprint(s.Used)},
		[]string{"positions per game", perGame},
		[]string{"positions", fmt.Sprint(s.Positions)},
		[]string{"candidate moves per position", fmt.Sprintf("%.1f", mean)},
		[]string{"feature ids", fmt.Sprint(s.NumFeatures)},
		[]string{"learned diamonds", fmt.Sprint(s.Diamonds)},
		[]string{"learned shapes", fmt.Sprint(s.Shapes)},
		[]string{"seed", fmt.Sprint(s.Seed)},
	)
	return WriteSection(outDir, "Move candidates "+dateRangeText(s.Dates), MarkdownTable([]string{"", "count"}, rows))
}

func dateRangeText(r datasets.DateRange) string {
	switch {
	case r.From == "" && r.To == "":
		return "(all dates)"
	case r.From == r.To:
		return r.From
	}
	return strings.TrimSpace(r.From + ".." + r.To)
}
