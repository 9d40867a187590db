package evaluate

import (
	"fmt"
	"strconv"
	"strings"
)

// OwlSectionTitle is the title of the owl baseline's report section.
const OwlSectionTitle = "GNU Go owl baseline"

// SolveStage is one solve stage's results, to set beside the baseline.
type SolveStage struct {
	Stage string
	Rows  []SolveRow
}

// WriteOwlSection writes the owl baseline's section into outDir: per
// problem set, how often owl and each solve stage get the file's winner
// right, the problems with owl's verdict beside each solve stage's result,
// and a bar chart of the right answers per set and method.
func WriteOwlSection(outDir string, cfg OwlConfig, rows []OwlRow, solves []SolveStage) error {
	if cfg.GNUGo == "" {
		cfg.GNUGo = DefaultGNUGo
	}
	var b strings.Builder
	fmt.Fprintf(&b, "GNU Go (`%s --mode gtp --level %d`): the problem's stones set up with `play`, then `owl_defend` on the "+
		"living side's crucial stones when it is to play (it lives if one defence succeeds), `owl_attack` otherwise (it lives if one attack fails); "+
		"with no crucial stones (7x7 kill-all) one stone of each of its blocks. A ko result counts only for a side allowed to win through ko. "+
		"Owl reads heuristically and proves nothing; the solve columns are proofs (`unknown`: not proven within the budget).\n\n",
		cfg.GNUGo, cfg.Level)
	chart := BarChart{Title: "right answers per problem set", YLabel: "problems"}
	groups := []BarGroup{{Name: fmt.Sprintf("owl (level %d)", cfg.Level)}}
	for _, s := range solves {
		groups = append(groups, BarGroup{Name: s.Stage})
	}
	for _, set := range groupBySet(rows, func(r *OwlRow) string { return r.Set }) {
		fmt.Fprintf(&b, "### %s\n\n", set.name)
		summary, right := owlSummary(set.rows, solves)
		b.WriteString(MarkdownTable([]string{"method", "problems", "answered", "right", "wrong", "first move = book"}, summary) + "\n")
		b.WriteString(MarkdownTable(owlHeader(solves), owlTable(set.rows, solves)) + "\n")
		chart.Categories = append(chart.Categories, set.name)
		for i := range groups {
			groups[i].Values = append(groups[i].Values, float64(right[i]))
		}
	}
	chart.Groups = groups
	if len(chart.Categories) > 0 {
		file, err := SaveBarChart(outDir, "owl-right", chart)
		if err != nil {
			return err
		}
		b.WriteString(Image("right answers: owl and the solver", file) + "\n")
	}
	return WriteSection(outDir, OwlSectionTitle, b.String())
}

// solveIndex finds a solve stage's row of a problem (set and id).
func solveIndex(s SolveStage) map[string]*SolveRow {
	m := make(map[string]*SolveRow, len(s.Rows))
	for i := range s.Rows {
		m[s.Rows[i].Set+"/"+s.Rows[i].ID] = &s.Rows[i]
	}
	return m
}

// owlSummary gives the summary rows of one set, owl first, and the right
// answers of each method in that order.
func owlSummary(rows []OwlRow, solves []SolveStage) ([][]string, []int) {
	var right, wrong, book int
	for i := range rows {
		a, known := rows[i].Agrees()
		switch {
		case known && a:
			right++
			if rows[i].Move != "" && rows[i].Move == rows[i].Answer {
				book++
			}
		case known:
			wrong++
		}
	}
	n := strconv.Itoa(len(rows))
	out := [][]string{{"GNU Go owl", n, n, strconv.Itoa(right), strconv.Itoa(wrong), strconv.Itoa(book)}}
	counts := []int{right}
	for _, s := range solves {
		idx := solveIndex(s)
		var answered, r, w, bk int
		for i := range rows {
			sr := idx[rows[i].Set+"/"+rows[i].ID]
			if sr == nil || !sr.Solved() {
				continue
			}
			answered++
			if a, known := sr.Agrees(); known && a {
				r++
				if sr.FirstMove != "" && sr.FirstMove == sr.Answer {
					bk++
				}
			} else if known {
				w++
			}
		}
		out = append(out, []string{s.Stage, n, strconv.Itoa(answered), strconv.Itoa(r), strconv.Itoa(w), strconv.Itoa(bk)})
		counts = append(counts, r)
	}
	return out, counts
}

func owlHeader(solves []SolveStage) []string {
	h := []string{"id", "to play", "file winner", "owl", "owl right", "owl move", "book move", "owl s"}
	for _, s := range solves {
		h = append(h, s.Stage+" (nodes)")
	}
	return h
}

func owlTable(rows []OwlRow, solves []SolveStage) [][]string {
	idx := make([]map[string]*SolveRow, len(solves))
	for i, s := range solves {
		idx[i] = solveIndex(s)
	}
	table := make([][]string, len(rows))
	for i := range rows {
		r := &rows[i]
		right := "-"
		if a, known := r.Agrees(); known {
			right = map[bool]string{true: "yes", false: "**no**"}[a]
		}
		winner := "-"
		if r.Winner != "" {
			winner = r.Winner
		}
		row := []string{r.ID, r.ToPlay, winner, r.Verdict, right, orDash(r.Move), orDash(r.Answer), strconv.FormatFloat(r.Seconds, 'f', 2, 64)}
		for _, m := range idx {
			cell := "-"
			if sr := m[r.Set+"/"+r.ID]; sr != nil {
				cell = sr.Result + " (" + strconv.FormatInt(sr.Nodes, 10) + ")"
				if a, known := sr.Agrees(); known && !a {
					cell = "**" + cell + "**"
				}
			}
			row = append(row, cell)
		}
		table[i] = row
	}
	return table
}
