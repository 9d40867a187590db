package evaluate

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// RZTSectionTitle is the title of the pattern-table section.
const RZTSectionTitle = "RZ pattern table (paper 000)"

// rztPaperCols are paper 000's per-problem figures as the problem files
// name them, in its Tables III/IV column order.
var rztPaperCols = []struct{ key, label string }{
	{"sims_without_rzt", "paper w/o"}, {"sims_with_rzt", "paper w/"}, {"seconds_with_rzt", "paper s"},
	{"entries", "paper #entry"}, {"lookups", "paper #lookup"}, {"hits", "paper #hit"},
}

// WriteRZTSection writes the pattern table's section into outDir: per
// problem set, Table III/IV of paper 000 (simulations without and with the
// table, the table's entries, lookups, lookup time, hits, comparisons and
// cost) beside the paper's figures, the node ratio on the problems both
// solves prove, and Fig. 4: the traversal cost of the four table settings
// per problem, as a table and a log-scale plot.
func WriteRZTSection(outDir, settings string, rows []RZTRow) error {
	var b strings.Builder
	b.WriteString(settings + " Each problem is solved without the table and with the radix tree and timestamps (TR-TS); " +
		"the same insertions and lookups also go to TR-NT, LR-TS and LR-NT (linear list, no timestamps), " +
		"which hit on the same lookups, so the four costs are of one search. Cost: index nodes visited + entries compared (paper 000's traversing cost). " +
		"The time with the table leaves out the three other tables.\n\n")
	var sets []string
	bySet := map[string][]RZTRow{}
	for _, r := range rows {
		if _, ok := bySet[r.Set]; !ok {
			sets = append(sets, r.Set)
		}
		bySet[r.Set] = append(bySet[r.Set], r)
	}
	for _, set := range sets {
		md, err := rztSetMarkdown(outDir, set, bySet[set])
		if err != nil {
			return err
		}
		b.WriteString(md)
	}
	return WriteSection(outDir, RZTSectionTitle, b.String())
}

func rztSetMarkdown(outDir, set string, rows []RZTRow) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "### %s: Table %s of paper 000\n\n", set, map[bool]string{true: "III", false: "IV"}[strings.Contains(set, "7x7")])
	var paper []int // indexes of the paper columns some row has
	for i, c := range rztPaperCols {
		for _, r := range rows {
			if _, ok := r.Paper[c.key]; ok {
				paper = append(paper, i)
				break
			}
		}
	}
	header := []string{"id", "w/o RZT", "w/ RZT", "time (s)", "#entry", "#lookup", "lookup time (s)", "#hit", "#compare", "#cost"}
	for _, i := range paper {
		header = append(header, rztPaperCols[i].label)
	}
	var table [][]string
	var both, nodesWithout, nodesWith int64
	solvedWithout, solvedWith := 0, 0
	for _, r := range rows {
		tr := r.Tables[0]
		row := []string{r.ID, rztCell(r.Without), rztCell(r.With), strconv.FormatFloat(r.With.Seconds, 'f', 2, 64),
			strconv.Itoa(tr.Entries), strconv.FormatInt(tr.Lookups, 10), strconv.FormatFloat(float64(tr.LookupNanos)/1e9, 'f', 3, 64),
			strconv.FormatInt(tr.Hits, 10), strconv.FormatInt(tr.Compares, 10), strconv.FormatInt(tr.Cost, 10)}
		for _, i := range paper {
			row = append(row, orDash(r.Paper[rztPaperCols[i].key]))
		}
		table = append(table, row)
		w, wo := r.With.Result != ResultUnknown, r.Without.Result != ResultUnknown
		if wo {
			solvedWithout++
		}
		if w {
			solvedWith++
		}
		if w && wo {
			both++
			nodesWithout += r.Without.Nodes
			nodesWith += r.With.Nodes
		}
	}
	b.WriteString(MarkdownTable(header, table))
	fmt.Fprintf(&b, "\nw/o and w/ RZT: simulations (nodes), `*` when not proven within the budget. Proven without the table %d of %d, with it %d.",
		solvedWithout, len(rows), solvedWith)
	if both > 0 && nodesWith > 0 {
		fmt.Fprintf(&b, " On the %d problems both prove: %d nodes without, %d with, %.2fx fewer (paper 000: 4.57x on 7x7, 4.74x on 19x19, with its FTL networks).",
			both, nodesWithout, nodesWith, float64(nodesWithout)/float64(nodesWith))
	}
	b.WriteString("\n\n")
	md, err := rztFig4(outDir, set, rows)
	if err != nil {
		return "", err
	}
	return b.String() + md, nil
}

// rztCell is a solve's nodes, starred when unproven.
func rztCell(s RZTSolve) string {
	n := strconv.FormatInt(s.Nodes, 10)
	if s.Result == ResultUnknown {
		return n + "*"
	}
	return n
}

// rztFig4 is Fig. 4 of paper 000 for one set: the traversal cost of each
// setting per problem, problems in ascending order of the LR-TS cost.
func rztFig4(outDir, set string, rows []RZTRow) (string, error) {
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	lrts := func(r RZTRow) int64 { return r.Tables[2].Cost }
	sort.SliceStable(order, func(a, b int) bool { return lrts(rows[order[a]]) < lrts(rows[order[b]]) })
	header := []string{"rank", "id", "lookups"}
	for _, k := range rztKinds {
		header = append(header, k.name)
	}
	header = append(header, "TS/NT tree", "LR-TS/TR-TS")
	series := make([]Series, len(rztKinds))
	for i, k := range rztKinds {
		series[i].Name = k.name
	}
	var table [][]string
	for rank, i := range order {
		r := rows[i]
		row := []string{strconv.Itoa(rank + 1), r.ID, strconv.FormatInt(r.Tables[0].Lookups, 10)}
		for j, st := range r.Tables {
			row = append(row, strconv.FormatInt(st.Cost, 10))
			series[j].X = append(series[j].X, float64(rank+1))
			series[j].Y = append(series[j].Y, float64(st.Cost))
		}
		row = append(row, ratioCell(r.Tables[1].Cost, r.Tables[0].Cost), ratioCell(r.Tables[2].Cost, r.Tables[0].Cost))
		table = append(table, row)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: traversal cost of the four settings (paper 000, Fig. 4), problems by ascending LR-TS cost:\n\n", set)
	b.WriteString(MarkdownTable(header, table))
	positive := false
	for _, s := range series {
		for _, y := range s.Y {
			positive = positive || y > 0
		}
	}
	if !positive { // a log axis has nothing to show
		return b.String() + "\n", nil
	}
	file, err := SaveLinePlot(outDir, "rzt-cost-"+plotSlug(set, map[string]bool{}), LinePlot{
		Title: set + ": table traversal cost (Fig. 4)", XLabel: "problem (by LR-TS cost)", YLabel: "traversal cost", LogY: true, Series: series})
	if err != nil {
		return "", err
	}
	b.WriteString("\n" + Image(set+": traversal cost per problem, four settings", file) + "\n\n")
	return b.String(), nil
}

func ratioCell(a, b int64) string {
	if b == 0 {
		return "-"
	}
	return strconv.FormatFloat(float64(a)/float64(b), 'f', 2, 64)
}
