package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"lifezero/datasets"
	"lifezero/evaluate"
	"lifezero/rzs"
)

const solveSynopsis = "solve FILE|DIR... [--budget N] [--algo mcts|dfs|dfpn] [--no-rz] [--no-tt] [--evaluator ldb|ld|heuristic|...] " +
	"[--timeout 5m] [--max-memory SIZE] [--workers N] [--threads N] [--json] [--sgf-dir DIR] [--out DIR [--overwrite]]"

// solveFlags are the parsed flags of "lifezero solve": the solver's
// options (shared with the solve stage) and the command's own inputs and
// outputs.
type solveFlags struct {
	opts      solveOptions
	cfg       evaluate.SolveConfig
	json      bool
	sgfDir    string
	out       string
	overwrite bool
	net       string
	priors    string
	priors2   string
	profile   string
	paths     []string
}

func parseSolveFlags(args []string, stderr io.Writer) (*solveFlags, error) {
	fs := newFlagSet("solve", solveSynopsis, stderr)
	f := &solveFlags{opts: defaultSolveOptions()}
	if err := f.opts.bindFlags(fs); err != nil {
		return nil, err
	}
	fs.StringVar(&f.net, "net", "", "order the search with the network weights `FILE` (a train stage's network.lznn) instead of --evaluator")
	fs.StringVar(&f.priors, "features-model", "", "reweight the evaluator's move priors by the tsumego feature model in `DIR` (lifezero tsumego train)")
	fs.StringVar(&f.priors2, "portfolio-features-model", "", "a second tsumego feature model in `DIR`: a portfolio's members alternate between it and --features-model, in pairs of the same settings")
	fs.StringVar(&f.cfg.RZTLoad, "rzt-load", "", "preload the pattern databases of each problem's rules saved under `DIR` (its subdirectories, or links to them: --rzt-save and patterns build write them)")
	fs.StringVar(&f.cfg.RZTSave, "rzt-save", "", "save each problem's pattern table to `DIR`/<id>/")
	fs.BoolVar(&f.json, "json", false, "print one JSON object per problem per line (the summary goes to stderr)")
	fs.StringVar(&f.sgfDir, "sgf-dir", "", "write each solution tree to `DIR`/<id>.sgf (relevance zones as SQ marks; an unproven root keeps its most visited line, each node commented with the living side's value and the moves visited, refuted and left to refute)")
	fs.StringVar(&f.out, "out", "", "write a solve-results dataset (with its report section) to `DIR`")
	fs.StringVar(&f.profile, "cpuprofile", "", "write a CPU profile of the solving to `FILE` (go tool pprof)")
	fs.BoolVar(&f.overwrite, "overwrite", false, "replace the solve-results dataset already in --out (a dataset of another kind is never replaced)")
	paths, err := parseArgs(fs, args)
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, usagef("name at least one problem file (.json, .sgf) or directory")
	}
	cfg, err := f.opts.config()
	if err != nil {
		return nil, flagError(err)
	}
	cfg.RZTLoad, cfg.RZTSave = f.cfg.RZTLoad, f.cfg.RZTSave
	f.cfg = cfg
	if f.net != "" {
		if err := loadSolveNet(&f.cfg, f.net, f.opts.NetMode); err != nil {
			return nil, fmt.Errorf("--net: %w", err)
		}
	}
	if f.priors != "" {
		if err := loadSolveRanker(&f.cfg, f.priors); err != nil {
			return nil, fmt.Errorf("--features-model: %w", err)
		}
	}
	if f.priors2 != "" {
		if err := loadPortfolioRanker(&f.cfg, f.priors2); err != nil {
			return nil, fmt.Errorf("--portfolio-features-model: %w", err)
		}
	}
	if err := paramError(f.cfg.ValidateModels()); err != nil {
		return nil, flagError(err)
	}
	f.paths = paths
	return f, nil
}

func cmdSolve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := parseSolveFlags(args, stderr)
	if err != nil {
		return err
	}
	if err := f.checkOutputs(); err != nil {
		return err
	}
	tasks, err := loadSolveTasks(f.paths)
	if err != nil {
		return err
	}
	var sgfNames map[int]string
	if f.sgfDir != "" {
		if sgfNames, err = solutionNames(tasks); err != nil {
			return err
		}
		if err := os.MkdirAll(f.sgfDir, 0o755); err != nil {
			return fmt.Errorf("--sgf-dir: %w", err)
		}
	}
	if f.profile != "" {
		stop, err := startCPUProfile(f.profile)
		if err != nil {
			return err
		}
		defer stop()
	}
	out := newSolveOutput(stdout, stderr, f.json, tasks)
	var rows []evaluate.SolveRow
	began := time.Now()
	err = evaluate.SolveProblems(ctx, tasks, f.cfg, func(s evaluate.Solved) error {
		rows = append(rows, s.Row)
		if sgfNames != nil {
			path := filepath.Join(f.sgfDir, sgfNames[s.Index])
			if err := rzs.SolutionSGF(s.Task.Problem, s.Result).WriteFile(path); err != nil {
				return fmt.Errorf("problem %s: %w", s.Row.Source, err)
			}
		}
		return out.row(s.Row, s.RZT)
	})
	out.summary(rows, len(tasks), time.Since(began), err)
	if err != nil {
		return err
	}
	if f.out != "" {
		m := datasets.Manifest{Stage: "solve", Meta: map[string]string{"command": "lifezero " + strings.Join(append([]string{"solve"}, args...), " ")}}
		if _, err := evaluate.WriteSolveResults(ctx, f.out, rows, m); err != nil {
			return err
		}
		fmt.Fprintf(out.summaryW, "wrote %d results to %s\n", len(rows), f.out)
	}
	return nil
}

// checkOutputs checks every output location before any solving, so that
// a bad one is an error at once and not after the whole run.
func (f *solveFlags) checkOutputs() error {
	if f.out != "" {
		if err := checkDatasetOut("--out", f.out, evaluate.SolveResultsKind, f.overwrite); err != nil {
			return err
		}
	} else if f.overwrite {
		return usagef("--overwrite without --out: nothing to overwrite")
	}
	if f.sgfDir != "" {
		if err := checkOutDir("--sgf-dir", f.sgfDir); err != nil {
			return err
		}
	}
	if f.cfg.RZTSave != "" {
		if err := checkOutDir("--rzt-save", f.cfg.RZTSave); err != nil {
			return err
		}
	}
	return nil
}

// loadSolveTasks loads the problems of every path (a problem file or a
// directory of them); a problem's set is its directory's name.
func loadSolveTasks(paths []string) ([]evaluate.SolveTask, error) {
	var tasks []evaluate.SolveTask
	for _, p := range paths {
		probs, err := loadProblems(p)
		if err != nil {
			return nil, err
		}
		for _, pr := range probs {
			abs, err := filepath.Abs(pr.Source)
			if err != nil {
				abs = pr.Source
			}
			tasks = append(tasks, evaluate.SolveTask{Problem: pr, Set: filepath.Base(filepath.Dir(abs))})
		}
	}
	return tasks, nil
}

var unsafeFileChars = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// solutionNames gives each task its solution file name, <id>.sgf; ids must
// be unique so that no solution overwrites another.
func solutionNames(tasks []evaluate.SolveTask) (map[int]string, error) {
	names := make(map[int]string, len(tasks))
	seen := map[string]string{}
	for i, t := range tasks {
		name := strings.Trim(unsafeFileChars.ReplaceAllString(t.Problem.ID, "_"), ".")
		if name == "" {
			name = "problem"
		}
		name += ".sgf"
		if prev, dup := seen[name]; dup {
			return nil, fmt.Errorf("--sgf-dir: problems %s and %s would both be written to %s; solve them in separate runs",
				prev, t.Problem.Source, name)
		}
		seen[name] = t.Problem.Source
		names[i] = name
	}
	return names, nil
}

// solveOutput prints the results: a table or JSON lines on stdout, and a
// progress bar over the problems on a terminal.
type solveOutput struct {
	w, summaryW io.Writer
	json        bool
	idWidth     int
	setWidth    int
	bar         *progressbar.ProgressBar
	header      bool
}

func newSolveOutput(stdout, stderr io.Writer, asJSON bool, tasks []evaluate.SolveTask) *solveOutput {
	o := &solveOutput{w: stdout, summaryW: stdout, json: asJSON, idWidth: 2, setWidth: 3}
	if asJSON {
		o.summaryW = stderr
	}
	for _, t := range tasks {
		o.idWidth = max(o.idWidth, len(t.Problem.ID))
		o.setWidth = max(o.setWidth, len(t.Set))
	}
	if isTerminal(stderr) {
		o.bar = progressbar.NewOptions(len(tasks),
			progressbar.OptionSetWriter(stderr),
			progressbar.OptionSetDescription("solve"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetWidth(30),
			progressbar.OptionClearOnFinish(),
		)
		o.bar.RenderBlank()
	}
	return o
}

// row prints one result, keeping the progress bar below the printed lines.
func (o *solveOutput) row(r evaluate.SolveRow, rzt *rzs.TableStats) error {
	if o.bar != nil {
		o.bar.Clear()
	}
	var err error
	if o.json {
		err = writeSolveJSON(o.w, r, rzt)
	} else {
		if !o.header {
			o.header = true
			_, err = fmt.Fprintf(o.w, "%-*s  %-*s  %-7s  %-4s  %9s  %8s  %4s  %s\n", o.idWidth, "id", o.setWidth, "set",
				"result", "move", "nodes", "seconds", "rz", "paper nodes")
		}
		if err == nil {
			_, err = fmt.Fprintln(o.w, o.tableLine(r))
		}
	}
	if o.bar != nil {
		o.bar.Add(1)
	}
	return err
}

func (o *solveOutput) tableLine(r evaluate.SolveRow) string {
	result := r.Result
	if a, known := r.Agrees(); known && !a {
		result += "!" // the file's winner says otherwise
	}
	move := r.FirstMove
	if move == "" {
		move = "-"
	}
	rz := "-"
	if r.Result == evaluate.ResultWin {
		rz = fmt.Sprint(r.RZSize)
	}
	return fmt.Sprintf("%-*s  %-*s  %-7s  %-4s  %9d  %8.2f  %4s  %s", o.idWidth, r.ID, o.setWidth, r.Set, result, move,
		r.Nodes, r.Seconds, rz, paperNodesText(r.PaperNodes))
}

// paperNodesText writes the papers' node counts as "rzs=255314 ftl=76780".
func paperNodesText(js string) string {
	r := evaluate.SolveRow{PaperNodes: js}
	paper := r.Paper()
	if len(paper) == 0 {
		return "-"
	}
	keys := make([]string, 0, len(paper))
	for k := range paper {
		keys = append(keys, k)
	}
	evaluate.SortPaperMethods(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + paper[k]
	}
	return strings.Join(parts, " ")
}

// solveJSON is a result as "lifezero solve --json" prints it.
type solveJSON struct {
	ID         string          `json:"id"`
	Set        string          `json:"set"`
	Source     string          `json:"source"`
	Result     string          `json:"result"`
	FirstMove  *string         `json:"first_move"` // null when unproven
	Nodes      int64           `json:"nodes"`
	Seconds    float64         `json:"seconds"`
	RZSize     int32           `json:"rz_size"`
	TTHits     int64           `json:"tt_hits"`
	TableHits  int64           `json:"table_hits"`
	Aborted    bool            `json:"aborted"`
	Reason     string          `json:"reason,omitempty"`    // why an unproven solve stopped early (memory bound)
	ProvedBy   string          `json:"proved_by,omitempty"` // the portfolio member whose proof it is
	Search     string          `json:"search"`              // the settings that order the search, and the judge's safety
	Algo       string          `json:"algo"`
	RZ         bool            `json:"rz"`
	TT         bool            `json:"tt"`
	Evaluator  string          `json:"evaluator"`
	Budget     int64           `json:"budget"`
	ToPlay     string          `json:"to_play"`
	Living     string          `json:"living"`
	Winner     *string         `json:"winner"` // null when the file does not say
	Agrees     *bool           `json:"agrees"` // null when unknown
	Answer     *string         `json:"answer_first_move"`
	PaperNodes json.RawMessage `json:"paper_nodes,omitempty"`
	RZT        *rzs.TableStats `json:"rzt,omitempty"` // pattern table statistics (Tables III/IV of paper 000)
}

func writeSolveJSON(w io.Writer, r evaluate.SolveRow, rzt *rzs.TableStats) error {
	j := solveJSON{ID: r.ID, Set: r.Set, Source: r.Source, Result: r.Result, FirstMove: nonEmpty(r.FirstMove),
		Nodes: r.Nodes, Seconds: r.Seconds, RZSize: r.RZSize, TTHits: r.TTHits, TableHits: r.TableHits, Aborted: r.Aborted,
		Reason: r.Reason, ProvedBy: r.ProvedBy, Search: r.Search, Algo: r.Algo, RZ: r.RZ, TT: r.TT, Evaluator: r.Evaluator, Budget: r.Budget, ToPlay: r.ToPlay, Living: r.Living,
		Winner: nonEmpty(r.Winner), Answer: nonEmpty(r.Answer), RZT: rzt}
	if a, known := r.Agrees(); known {
		j.Agrees = &a
	}
	if r.PaperNodes != "" {
		j.PaperNodes = json.RawMessage(r.PaperNodes)
	}
	b, err := json.Marshal(j)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// summary prints the totals; after an interruption it says how far the
// run got.
func (o *solveOutput) summary(rows []evaluate.SolveRow, total int, wall time.Duration, runErr error) {
	if o.bar != nil {
		o.bar.Exit()
	}
	var nodes int64
	var secs float64
	var win, loss, agree, disagree int
	for i := range rows {
		r := &rows[i]
		nodes += r.Nodes
		secs += r.Seconds
		switch r.Result {
		case evaluate.ResultWin:
			win++
		case evaluate.ResultLoss:
			loss++
		}
		if a, known := r.Agrees(); known && a {
			agree++
		} else if known {
			disagree++
		}
	}
	solved := win + loss
	w := o.summaryW
	if errors.Is(runErr, context.Canceled) {
		fmt.Fprintf(w, "interrupted: %d of %d problems done\n", len(rows), total)
	}
	fmt.Fprintf(w, "solved %d of %d (win %d, loss %d, unknown %d); %d agree with the file's winner, %d disagree\n",
		solved, len(rows), win, loss, len(rows)-solved, agree, disagree)
	rate := 0.0
	if secs > 0 {
		rate = float64(nodes) / secs
	}
	fmt.Fprintf(w, "%d nodes in %.2f s of solving (%.0f nodes/s), %.2f s wall\n", nodes, secs, rate, wall.Seconds())
}

// startCPUProfile profiles the process's CPU into path until stop is called.
func startCPUProfile(path string) (stop func(), err error) {
	file, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(file); err != nil {
		file.Close()
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		file.Close()
	}, nil
}
