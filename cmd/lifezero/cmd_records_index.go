package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"math/rand/v2"

	"lifezero/internal/optflags"
	"lifezero/internal/readfile"
	"lifezero/recindex"
	"lifezero/sgf"
)

func cmdRecordsIndex(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("records index", "records index --out DIR DATASET...", stderr)
	out := fs.String("out", "", "write the record index to `DIR` (required)")
	paths, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if *out == "" {
		return usagef("--out DIR is required")
	}
	if len(paths) == 0 {
		return usagef("name at least one games dataset (made by records import)")
	}
	pr := commandProgress(stderr, newLogger(stderr, false), "index")
	m, err := recindex.Build(ctx, recindex.BuildOptions{Datasets: paths, OutDir: *out, Progress: pr})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "indexed %d games, %d moves (%d move events, %d capture events) into %s: %.1f MB in %.1f s\n",
		m.Games, m.Moves, m.MoveEvents, m.Captures, *out, float64(m.DataBytes)/1e6, m.BuildSeconds)
	for r, n := range m.Skipped {
		fmt.Fprintf(stdout, "  skipped %d: %s\n", n, r)
	}
	return nil
}

const searchSynopsis = "records search --index DIR [--json] [--limit N] [--fixed] [--no-swap] [--no-symmetry] PATTERN"

func cmdRecordsSearch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("records search", searchSynopsis+
		"\n\nPATTERN is a file: an SGF (AB/AW stones, VW rectangle, MA don't-care) or an ASCII diagram\n"+
		"(X black, O white, . empty, ? don't care, x black-or-empty, o white-or-empty, * any stone;\n"+
		"a line \"at COL ROW\" fixes its place), or - for standard input.", stderr)
	opts := defaultRecordsSearchOptions()
	if err := optflags.Bind(fs, &opts); err != nil {
		return err
	}
	index := fs.String("index", "", "the record index `DIR` (required)")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	paths, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if *index == "" || len(paths) != 1 {
		return usagef("want --index DIR and one PATTERN")
	}
	if err := opts.Validate(); err != nil {
		return flagError(err)
	}
	p, err := readPattern(paths[0], opts.Fixed, os.Stdin)
	if err != nil {
		return err
	}
	x, err := recindex.Open(*index)
	if err != nil {
		return err
	}
	defer x.Close()
	start := time.Now()
	res, err := x.Search(ctx, p, opts.searchOptions())
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	if *asJSON {
		return printSearchJSON(stdout, x, p, res, elapsed)
	}
	printSearch(stdout, x, p, res, elapsed)
	return nil
}

// readPattern reads PATTERN: an SGF file (by its extension or content) or
// a diagram; "-" reads stdin.
func readPattern(path string, fixed bool, stdin io.Reader) (*recindex.Pattern, error) {
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(io.LimitReader(stdin, readfile.MaxProblem+1))
		if err == nil && len(data) > readfile.MaxProblem {
			err = fmt.Errorf("pattern on standard input: more than %d bytes", readfile.MaxProblem)
		}
	} else {
		data, err = readfile.Read(path, readfile.MaxProblem)
	}
	if err != nil {
		return nil, err
	}
	var p *recindex.Pattern
	if strings.EqualFold(filepath.Ext(path), ".sgf") || strings.HasPrefix(strings.TrimSpace(string(data)), "(;") {
		p, err = recindex.ParseSGF(data, fixed)
	} else {
		p, err = recindex.ParseDiagram(data)
		if err == nil && fixed && !p.Fixed {
			err = fmt.Errorf("--fixed: the diagram has no \"at COL ROW\" line")
		}
	}
	if err != nil {
		return nil, fmt.Errorf("pattern %s: %w", path, err)
	}
	return p, nil
}

// searchJSON is what records search --json prints.
type searchJSON struct {
	Pattern       string              `json:"pattern"`
	Variants      int                 `json:"variants"`
	NumHits       int                 `json:"num_hits"`
	Games         int                 `json:"games"`
	Millis        float64             `json:"millis"`
	Continuations []recindex.ContStat `json:"continuations"`
	Hits          []hitJSON           `json:"hits"`
}

type hitJSON struct {
	GameID string `json:"game_id"`
	Source string `json:"source"`
	recindex.Hit
}

func printSearchJSON(w io.Writer, x *recindex.Index, p *recindex.Pattern, res *recindex.Result, elapsed time.Duration) error {
	out := searchJSON{
		Pattern: p.String(), Variants: res.Variants, NumHits: res.NumHits, Games: res.Games,
		Millis: float64(elapsed.Microseconds()) / 1000, Continuations: res.Continuations, Hits: []hitJSON{},
	}
	for _, h := range res.Hits {
		out.Hits = append(out.Hits, hitJSON{GameID: x.GameID(h.Game), Source: x.Source(h.Game), Hit: h})
	}
	enc := json.NewEncoder(w)
	return enc.Encode(out)
}

func printSearch(w io.Writer, x *recindex.Index, p *recindex.Pattern, res *recindex.Result, elapsed time.Duration) {
	fmt.Fprintf(w, "%d hits in %d games (%d pattern forms, %.1f ms)\n", res.NumHits, res.Games, res.Variants,
		float64(elapsed.Microseconds())/1000)
	fmt.Fprint(w, labelledDiagram(p, res.Continuations))
	if len(res.Continuations) > 0 {
		fmt.Fprintf(w, "\ncontinuations (first later move inside the pattern):\n  %-4s %-6s %8s %7s %9s\n", "", "point", "count", "freq", "win rate")
	}
	labels := contLabels(res.Continuations)
	for i, c := range res.Continuations {
		label, point := labels[i], "none"
		if !c.None {
			point = fmt.Sprintf("%v %c%d", c.Player, 'a'+c.X, c.Y+1)
		}
		rate := "-"
		if c.Wins+c.Losses > 0 {
			rate = fmt.Sprintf("%.1f%%", 100*c.WinRate())
		}
		fmt.Fprintf(w, "  %-4s %-6s %8d %6.1f%% %9s\n", label, point, c.Count, 100*c.Freq(res.NumHits), rate)
	}
	if len(res.Hits) > 0 {
		fmt.Fprintf(w, "\nhits (game, move, top-left corner of the match):\n")
	}
	for _, h := range res.Hits {
		form := fmt.Sprintf("sym %d", h.Sym)
		if h.Swapped {
			form += ", colours swapped"
		}
		fmt.Fprintf(w, "  %s %-22s move %3d at %s (%s)\n", x.GameID(h.Game), x.Source(h.Game), h.Move,
			sgf.FormatPoint(h.X, h.Y, false), form)
	}
	if more := res.NumHits - len(res.Hits); more > 0 {
		fmt.Fprintf(w, "  ... %d more (--limit)\n", more)
	}
}

// contLabels numbers the nine most frequent continuations ("1".."9"; " "
// for the others and for none).
func contLabels(conts []recindex.ContStat) []string {
	out := make([]string, len(conts))
	n := 0
	for i, c := range conts {
		out[i] = " "
		if !c.None && n < 9 {
			n++
			out[i] = fmt.Sprint(n)
		}
	}
	return out
}

// labelledDiagram draws the pattern with the numbered continuations on
// their points (the first label wins a point played by both colours).
func labelledDiagram(p *recindex.Pattern, conts []recindex.ContStat) string {
	rows := strings.Split(strings.TrimSuffix(p.String(), "\n"), "\n")
	if p.Fixed {
		rows = rows[1:]
	}
	cells := make([][]byte, len(rows))
	for i, r := range rows {
		cells[i] = []byte(r)
	}
	for i, l := range contLabels(conts) {
		c := conts[i]
		if l == " " || c.Y >= len(cells) || 2*c.X >= len(cells[c.Y]) {
			continue
		}
		if ch := cells[c.Y][2*c.X]; ch < '1' || ch > '9' {
			cells[c.Y][2*c.X] = l[0]
		}
	}
	var b strings.Builder
	for _, r := range cells {
		b.WriteString("  ")
		b.Write(r)
		b.WriteByte('\n')
	}
	return b.String()
}

func cmdRecordsBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("records bench", "records bench --index DIR [--n N] [--seed S] [--min 3] [--max 7] [--workers N] [--json] [--cpuprofile FILE]", stderr)
	index := fs.String("index", "", "the record index `DIR` (required)")
	n := fs.Int("n", 1000, "search `N` random patterns")
	seed := fs.Uint64("seed", 1, "random seed of the patterns")
	minSide := fs.Int("min", 3, "smallest pattern side")
	maxSide := fs.Int("max", 7, "largest pattern side")
	workers := fs.Int("workers", 1, "search with `N` goroutines")
	asJSON := fs.Bool("json", false, "print the measurement as JSON")
	profile := fs.String("cpuprofile", "", "write a CPU profile of the searches to `FILE` (go tool pprof)")
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	if *index == "" || *n < 1 || *minSide < 1 || *maxSide < *minSide || *maxSide > recindex.MaxSide {
		return usagef("want --index DIR, --n >= 1 and 1 <= --min <= --max <= %d", recindex.MaxSide)
	}
	start := time.Now()
	x, err := recindex.Open(*index)
	if err != nil {
		return err
	}
	defer x.Close()
	opened := time.Since(start)
	r := rand.New(rand.NewPCG(*seed, 0))
	patterns := make([]*recindex.Pattern, *n)
	for i := range patterns {
		patterns[i] = x.SamplePattern(r, *minSide, *maxSide)
	}
	if *profile != "" {
		stop, err := startCPUProfile(*profile)
		if err != nil {
			return err
		}
		defer stop()
	}
	m, err := x.Measure(ctx, patterns, recindex.Options{Workers: *workers, Limit: 20})
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(m)
	}
	meta := x.Meta()
	fmt.Fprintf(stdout, "index %s: %d games, %d moves, %.1f MB, built in %.1f s, opened in %v\n",
		*index, meta.Games, meta.Moves, float64(meta.DataBytes)/1e6, meta.BuildSeconds, opened.Round(time.Millisecond))
	fmt.Fprintf(stdout, "%d random patterns (%dx%d..%dx%d, up to half don't-care, seed %d): median %v, p95 %v, max %v, mean %v\n",
		m.Patterns, *minSide, *minSide, *maxSide, *maxSide, *seed, m.Median.Round(time.Microsecond),
		m.P95.Round(time.Microsecond), m.Max.Round(time.Microsecond), m.Mean.Round(time.Microsecond))
	fmt.Fprintf(stdout, "hits per pattern: median %d, max %d; candidates verified: median %d; keys scanned: median %d\n",
		m.HitsMedian, m.HitsMax, m.VerifiedMedian, m.ScannedMedian)
	fmt.Fprintf(stdout, "CPU per pattern: median %v, p95 %v, max %v, total %v\n",
		m.CPUMedian.Round(time.Microsecond), m.CPUP95.Round(time.Microsecond), m.CPUMax.Round(time.Microsecond), m.CPUTotal.Round(time.Millisecond))
	for side := *minSide; side <= *maxSide; side++ {
		if t, ok := m.BySide[side]; ok {
			fmt.Fprintf(stdout, "  %dx%d: median %v (CPU %v)\n", side, side, t.Round(time.Microsecond), m.CPUBySide[side].Round(time.Microsecond))
		}
	}
	return nil
}
