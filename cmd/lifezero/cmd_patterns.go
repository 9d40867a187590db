package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"lifezero/datasets"
	"lifezero/evaluate"
	"lifezero/game"
	"lifezero/internal/optflags"
	"lifezero/tsumego"
)

const patternsSynopsis = "patterns build --killall N --out DIR [--seed S] [--moves MIN-MAX] [--exclude DIR]... [solve's flags: --budget N --features-model DIR --workers N ...]"

// defaultPatternsBudget is the node budget of each position's search when
// --budget is not given: a pattern database wants many positions searched
// briefly more than a few searched long (most entries of a long search are
// proven in its first nodes' subtrees too).
const defaultPatternsBudget = 20000

// patternsFlags are the parsed flags of "lifezero patterns build".
type patternsFlags struct {
	cfg                evaluate.SolveConfig
	killAll            int
	seed               uint64
	minMoves, maxMoves int // 0: tsumego.KillAllConfig's defaults
	out                string
	exclude            stringList
	ranker             string
}

func parsePatternsFlags(args []string, stderr io.Writer) (*patternsFlags, error) {
	fs := newFlagSet("patterns build", patternsSynopsis, stderr)
	f := &patternsFlags{}
	opts := defaultSolveOptions()
	opts.Budget = defaultPatternsBudget
	// The databases were built and measured with ldb (with the FPU
	// reduction), before one search's default became ldb-nakade.
	opts.Evaluator = evaluate.DefaultLeadEvaluator
	var moves string
	if err := optflags.Bind(fs, &opts); err != nil {
		return nil, err
	}
	fs.IntVar(&f.killAll, "killall", 0, "search `N` random 7x7 kill-all positions (the papers' rules; as tsumego train --killall draws them)")
	fs.Uint64Var(&f.seed, "seed", 1, "the random positions' `SEED`")
	fs.StringVar(&moves, "moves", "", "play `MIN-MAX` moves after Black's two opening stones (default 16-28, as tsumego train --killall; the papers' problems stand 4-17 moves in)")
	fs.StringVar(&f.out, "out", "", "save each position's pattern table to `DIR`/<id>/: the solver's --rzt-load DIR")
	fs.Var(&f.exclude, "exclude", "problem `DIR`s (or files) to be measured: a position whose stones sit inside one of theirs, or that holds all the stones of one, is left out (repeatable)")
	fs.StringVar(&f.ranker, "features-model", "", "order the searches as the solver's --features-model `DIR`")
	rest, err := parseArgs(fs, args)
	if err != nil {
		return nil, err
	}
	switch {
	case len(rest) > 0:
		return nil, usagef("patterns build: unexpected arguments %q (the positions are drawn, not read)", rest)
	case f.out == "":
		return nil, usagef("patterns build: --out DIR is required")
	case f.killAll <= 0:
		return nil, usagef("patterns build: --killall N: want a positive number of positions")
	}
	if f.cfg, err = opts.config(); err != nil {
		return nil, flagError(err)
	}
	if moves != "" {
		if f.minMoves, f.maxMoves, err = parseMoveRange(moves); err != nil {
			return nil, usagef("patterns build: --moves %q: %v", moves, err)
		}
	}
	if f.cfg.Algo != evaluate.AlgoMCTS {
		return nil, usagef("patterns build: --algo %s: the pattern table is the mcts form's", f.cfg.Algo)
	}
	if f.cfg.RZT == evaluate.RZTNone {
		return nil, usagef("patterns build: --rzt none: the searches must keep a pattern table to save")
	}
	if f.ranker != "" {
		if err := loadSolveRanker(&f.cfg, f.ranker); err != nil {
			return nil, fmt.Errorf("--features-model: %w", err)
		}
	}
	f.cfg.RZTSave = f.out
	return f, nil
}

// cmdPatterns builds a pattern database from positions that are not the
// measured problems (issue 14's lever 5): each position is searched with
// the pattern table and its table saved, and lz solve --rzt-load then
// preloads every table of a problem's rules. A killed build resumes: a
// position whose table is saved is not searched again.
func cmdPatterns(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "build" {
		return usagef("want a subcommand: %s", patternsSynopsis)
	}
	f, err := parsePatternsFlags(args[1:], stderr)
	if err != nil {
		return err
	}
	if err := checkOutDir("--out", f.out); err != nil {
		return err
	}
	measured, err := loadMeasured(f.exclude)
	if err != nil {
		return err
	}
	positions, err := tsumego.KillAllPositions(ctx, tsumego.KillAllConfig{
		Positions: f.killAll, Seed: f.seed, MinMoves: f.minMoves, MaxMoves: f.maxMoves})
	if err != nil {
		return err
	}
	tasks, dropped, done := patternTasks(positions, measured, f.out, f.positionPrefix())
	fmt.Fprintf(stdout, "patterns: %d random kill-all positions (seed %d): %d left out as measured positions, %d saved before, %d to search\n",
		len(positions), f.seed, dropped, done, len(tasks))
	out := newSolveOutput(stdout, stderr, false, tasks)
	var rows []evaluate.SolveRow
	entries := 0
	began := time.Now()
	err = evaluate.SolveProblems(ctx, tasks, f.cfg, func(s evaluate.Solved) error {
		rows = append(rows, s.Row)
		if s.RZT != nil {
			entries += s.RZT.Entries
		}
		return out.row(s.Row, s.RZT)
	})
	out.summary(rows, len(tasks), time.Since(began), err)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "saved %d pattern tables (%d entries) to %s; preload them with lz solve --rzt-load %s\n",
		len(rows), entries, f.out, f.out)
	return nil
}

// positionPrefix names the build's positions: killall-<seed>, and the move
// range when --moves is given, so that a resumed build into the same
// directory with other positions never takes their tables for its own.
func (f *patternsFlags) positionPrefix() string {
	if f.minMoves == 0 {
		return fmt.Sprintf("killall-%d", f.seed)
	}
	return fmt.Sprintf("killall-%d-m%d-%d", f.seed, f.minMoves, f.maxMoves)
}

// parseMoveRange reads MIN-MAX, 1 <= MIN <= MAX.
func parseMoveRange(s string) (lo, hi int, err error) {
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		return 0, 0, fmt.Errorf("want MIN-MAX")
	}
	if lo, err = strconv.Atoi(a); err != nil {
		return 0, 0, fmt.Errorf("MIN: %w", err)
	}
	if hi, err = strconv.Atoi(b); err != nil {
		return 0, 0, fmt.Errorf("MAX: %w", err)
	}
	if lo < 1 || hi < lo {
		return 0, 0, fmt.Errorf("want 1 <= MIN <= MAX")
	}
	return lo, hi, nil
}

// patternTasks names the positions (<prefix>-<i>, a directory name)
// and keeps those to search: not overlapping a measured problem (see
// measuredHit: the stones of one inside the other either way) and not
// already saved in out. It returns the tasks and the counts left out.
func patternTasks(positions []*game.Problem, measured []*game.Problem, out, prefix string) (tasks []evaluate.SolveTask, dropped, done int) {
	for i, pr := range positions {
		pr.ID = fmt.Sprintf("%s-%04d", prefix, i)
		pr.Source = pr.ID
		if measuredHit(tsumego.Problem{Name: pr.ID, Position: pr.Start}, measured, true) != "" {
			dropped++
			continue
		}
		if _, err := os.Stat(filepath.Join(out, pr.ID, datasets.ManifestName)); err == nil {
			done++
			continue
		}
		tasks = append(tasks, evaluate.SolveTask{Problem: pr, Set: tsumego.KillAllName})
	}
	return tasks, dropped, done
}
