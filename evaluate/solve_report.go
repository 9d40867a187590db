package evaluate

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// SolveSectionTitle is the title of the solve-results report section.
const SolveSectionTitle = "Solving L&D problems"

// paperMethods orders the papers' node-count columns as the papers do:
// killall7x7 (paper 001, Table 2) has no_rzs, rzs, ftl, ftl_rzs; cho19 has
// elf, elf_rz, ftl, ftl_rz, t_exp. One order keeps both.
var paperMethods = []string{"no_rzs", "rzs", "elf", "elf_rz", "ftl", "ftl_rzs", "ftl_rz", "t_exp"}

// WriteSolveSection writes the report section of solve results into outDir:
// the solver's settings, then per problem set its solved counts next to the
// papers', a table of the problems with the papers' node counts, a log-log
// scatter plot of our nodes against the papers' and a bar chart of solved
// counts. A pipeline may solve more than once (with and without a
// network), so a non-empty stage name is added to the title.
func WriteSolveSection(outDir, stage string, rows []SolveRow) error {
	md, err := SolveMarkdown(outDir, rows)
	if err != nil {
		return err
	}
	title := SolveSectionTitle
	if stage != "" {
		title += ": " + stage
	}
	return WriteSection(outDir, title, md)
}

// SolveMarkdown is the body of the solve-results section; its plots are
// written into outDir's report directory.
func SolveMarkdown(outDir string, rows []SolveRow) (string, error) {
	var b strings.Builder
	if len(rows) == 0 {
		return "No problem was solved.\n", nil
	}
	b.WriteString(solveSettings(rows) + "\n\n")
	used := map[string]bool{}
	for _, set := range problemSets(rows) {
		md, err := setMarkdown(outDir, set.name, plotSlug(set.name, used), set.rows)
		if err != nil {
			return "", err
		}
		b.WriteString(md)
	}
	return b.String(), nil
}

// solveSettings is the line that says how the problems were solved.
func solveSettings(rows []SolveRow) string {
	var nodes int64
	var secs float64
	solved := 0
	configs := map[string]bool{}
	for i := range rows {
		r := &rows[i]
		nodes += r.Nodes
		secs += r.Seconds
		if r.Solved() {
			solved++
		}
		configs[fmt.Sprintf("%s, RZ %s, TT %s, %s evaluator, budget %d nodes", r.Algo, onOff(r.RZ), onOff(r.TT), r.Evaluator, r.Budget)] = true
	}
	keys := make([]string, 0, len(configs))
	for k := range configs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	s := fmt.Sprintf("Solver: %s. Solved %d of %d problems; %d nodes in %.1f s", strings.Join(keys, "; "), solved, len(rows), nodes, secs)
	if secs > 0 {
		s += fmt.Sprintf(" (%.0f nodes/s)", float64(nodes)/secs)
	}
	return s + ". A result is the living side's: win (it lives), loss (it is killed), unknown (budget or time ran out); " +
		"first move `tt` means the side to play fails. Paper columns are the papers' node counts (`-`: not solved within 500,000 simulations or 5 minutes)."
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// rowSet is the rows of one problem set.
type rowSet[R any] struct {
	name string
	rows []R
}

// groupBySet groups rows by the set setOf names, in order of first
// appearance.
func groupBySet[R any](rows []R, setOf func(*R) string) []rowSet[R] {
	var sets []rowSet[R]
	idx := map[string]int{}
	for i := range rows {
		name := setOf(&rows[i])
		j, ok := idx[name]
		if !ok {
			j = len(sets)
			idx[name] = j
			sets = append(sets, rowSet[R]{name: name})
		}
		sets[j].rows = append(sets[j].rows, rows[i])
	}
	return sets
}

// problemSets groups solve rows by set, in order of first appearance.
func problemSets(rows []SolveRow) []rowSet[SolveRow] {
	return groupBySet(rows, func(r *SolveRow) string { return r.Set })
}

// paperKeys lists the paper methods any row of a set has, in
// SortPaperMethods order.
func paperKeys(rows []SolveRow) []string {
	have := map[string]bool{}
	for i := range rows {
		for k := range rows[i].Paper() {
			have[k] = true
		}
	}
	keys := make([]string, 0, len(have))
	for k := range have {
		keys = append(keys, k)
	}
	SortPaperMethods(keys)
	return keys
}

// SortPaperMethods sorts the papers' method keys (paper_nodes) as the
// papers order their columns, unknown keys last by name.
func SortPaperMethods(keys []string) {
	rank := func(k string) int {
		for i, m := range paperMethods {
			if m == k {
				return i
			}
		}
		return len(paperMethods)
	}
	sort.Slice(keys, func(i, j int) bool {
		ri, rj := rank(keys[i]), rank(keys[j])
		if ri != rj {
			return ri < rj
		}
		return keys[i] < keys[j]
	})
}

// paperCount parses a paper node count; ok is false for "-" or no value.
func paperCount(s string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return v, err == nil && v >= 0 && !math.IsInf(v, 0)
}

// plotSlug makes a set's name fit plot file names, unique among used.
func plotSlug(set string, used map[string]bool) string {
	slug := strings.Trim(unsafePlotChars.ReplaceAllString(set, "_"), "_.-")
	if slug == "" {
		slug = "set"
	}
	for i := 2; used[slug]; i++ {
		slug = strings.TrimSuffix(slug, "-"+strconv.Itoa(i-1)) + "-" + strconv.Itoa(i)
	}
	used[slug] = true
	return slug
}

func setMarkdown(outDir, set, slug string, rows []SolveRow) (string, error) {
	var b strings.Builder
	keys := paperKeys(rows)
	name := set
	if name == "" {
		name = "(no set)"
	}
	fmt.Fprintf(&b, "### %s\n\n", name)
	counts := solvedCounts(rows, keys)
	b.WriteString(MarkdownTable([]string{"problems", "solved", "win", "loss", "unknown", "agree with file", "disagree"},
		[][]string{{strconv.Itoa(len(rows)), strconv.Itoa(counts.solved), strconv.Itoa(counts.win), strconv.Itoa(counts.loss),
			strconv.Itoa(len(rows) - counts.solved), strconv.Itoa(counts.agree), strconv.Itoa(counts.disagree)}}))
	if len(keys) > 0 {
		var parts []string
		for i, k := range keys {
			parts = append(parts, fmt.Sprintf("%s %d", k, counts.paper[i]))
		}
		fmt.Fprintf(&b, "\nSolved in the papers (same problems): %s.\n", strings.Join(parts, ", "))
	}
	b.WriteString(searchLine(rows))
	portfolio := slices.ContainsFunc(rows, func(r SolveRow) bool { return r.ProvedBy != "" })
	b.WriteString("\n" + MarkdownTable(solveTableHeader(keys, portfolio), solveTableRows(rows, keys, portfolio)))
	if disagree := disagreements(rows); disagree != "" {
		b.WriteString("\n**Disagrees with the file's winner:** " + disagree + ".\n")
	}
	plots, err := setPlots(outDir, set, slug, rows, keys, counts)
	if err != nil {
		return "", err
	}
	b.WriteString(plots)
	return b.String() + "\n", nil
}

type setCounts struct {
	solved, win, loss, agree, disagree int
	paper                              []int // solved per paper key
}

func solvedCounts(rows []SolveRow, keys []string) setCounts {
	c := setCounts{paper: make([]int, len(keys))}
	for i := range rows {
		r := &rows[i]
		switch r.Result {
		case ResultWin:
			c.win++
		case ResultLoss:
			c.loss++
		}
		if agrees, known := r.Agrees(); known && agrees {
			c.agree++
		} else if known {
			c.disagree++
		}
		paper := r.Paper()
		for j, k := range keys {
			if _, ok := paperCount(paper[k]); ok {
				c.paper[j]++
			}
		}
	}
	c.solved = c.win + c.loss
	return c
}

// searchLine names the search settings the set's results were reached
// with (SolveRow.Search), each with its count of problems when they differ.
func searchLine(rows []SolveRow) string {
	count := map[string]int{}
	var order []string
	for i := range rows {
		s := rows[i].Search
		if s == "" {
			continue
		}
		if count[s] == 0 {
			order = append(order, s)
		}
		count[s]++
	}
	switch len(order) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("\nSearch settings: `%s`.\n", order[0])
	}
	parts := make([]string, len(order))
	for i, s := range order {
		parts[i] = fmt.Sprintf("`%s` (%d)", s, count[s])
	}
	return fmt.Sprintf("\nSearch settings: %s.\n", strings.Join(parts, ", "))
}

// solveTableHeader is the per-problem table's header; a portfolio's table
// (some row has ProvedBy) says which member proved each problem.
func solveTableHeader(keys []string, portfolio bool) []string {
	h := []string{"id", "to play", "result", "agrees", "first move", "book move", "nodes", "seconds", "RZ size", "TT hits"}
	if portfolio {
		h = append(h, "proved by")
	}
	for _, k := range keys {
		h = append(h, "paper "+k)
	}
	return h
}

func solveTableRows(rows []SolveRow, keys []string, portfolio bool) [][]string {
	table := make([][]string, len(rows))
	for i := range rows {
		r := &rows[i]
		agrees := "-"
		if a, known := r.Agrees(); known {
			agrees = map[bool]string{true: "yes", false: "**no**"}[a]
		}
		rz := "-"
		if r.Result == ResultWin {
			rz = strconv.Itoa(int(r.RZSize))
		}
		result := r.Result
		switch {
		case r.Reason != "":
			result += " (" + r.Reason + ")"
		case r.Aborted:
			result += " (timeout)"
		}
		row := []string{r.ID, r.ToPlay, result, agrees, orDash(r.FirstMove), orDash(r.Answer),
			strconv.FormatInt(r.Nodes, 10), strconv.FormatFloat(r.Seconds, 'f', 2, 64), rz, strconv.FormatInt(r.TTHits, 10)}
		if portfolio {
			row = append(row, orDash(r.ProvedBy))
		}
		paper := r.Paper()
		for _, k := range keys {
			row = append(row, orDash(paper[k]))
		}
		table[i] = row
	}
	return table
}

func disagreements(rows []SolveRow) string {
	var ids []string
	for i := range rows {
		if a, known := rows[i].Agrees(); known && !a {
			ids = append(ids, fmt.Sprintf("%s (%s, file: %s wins)", rows[i].ID, rows[i].Result, rows[i].Winner))
		}
	}
	return strings.Join(ids, ", ")
}

var unsafePlotChars = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// setPlots draws the set's scatter plot (when some problem is solved by us
// and by a paper method) and its bar chart of solved counts.
func setPlots(outDir, set, slug string, rows []SolveRow, keys []string, c setCounts) (string, error) {
	var b strings.Builder
	sc := ScatterPlot{Title: set + ": nodes to solve", XLabel: "paper's nodes", YLabel: "our nodes", LogX: true, LogY: true, Diagonal: true}
	for _, k := range keys {
		s := Series{Name: "vs " + k}
		for i := range rows {
			x, ok := paperCount(rows[i].Paper()[k])
			if ok && x > 0 && rows[i].Solved() && rows[i].Nodes > 0 {
				s.X = append(s.X, x)
				s.Y = append(s.Y, float64(rows[i].Nodes))
			}
		}
		if len(s.X) > 0 {
			sc.Series = append(sc.Series, s)
		}
	}
	if len(sc.Series) > 0 {
		file, err := SaveScatterPlot(outDir, "solve-nodes-"+slug, sc)
		if err != nil {
			return "", err
		}
		b.WriteString("\n" + Image(set+": our nodes against the papers'", file) + "\n")
	} else if len(keys) > 0 {
		b.WriteString("\nNo problem is solved both by us and in the papers, so there is no node-count plot.\n")
	}
	bars := BarChart{Title: fmt.Sprintf("%s: problems solved (of %d)", set, len(rows)), YLabel: "problems solved",
		Categories: []string{"ours"}, Groups: []BarGroup{{Name: "solved", Values: []float64{float64(c.solved)}}}}
	for i, k := range keys {
		bars.Categories = append(bars.Categories, k)
		bars.Groups[0].Values = append(bars.Groups[0].Values, float64(c.paper[i]))
	}
	file, err := SaveBarChart(outDir, "solve-solved-"+slug, bars)
	if err != nil {
		return "", err
	}
	b.WriteString("\n" + Image(set+": problems solved, ours and the papers'", file) + "\n")
	return b.String(), nil
}
