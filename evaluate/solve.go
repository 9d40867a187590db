package evaluate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"

	"lifezero/datasets"
	"lifezero/game"
	"lifezero/rzs"
	"lifezero/rztstore"
)

// Pattern table kinds.
const (
	RZTTree   = "tree"
	RZTLinear = "linear"
	RZTNone   = "none"
)

// patternTable is what solveOne needs of an RZ pattern table.
type patternTable interface {
	rzs.SizedTable
	rztstore.Table
}

// newTable builds the problem's pattern table and preloads the saved
// databases, or returns nil when the table is off.
func (c SolveConfig) newTable(ctx context.Context, pr *game.Problem) (patternTable, error) {
	t := c.emptyTable(pr)
	if t == nil || c.RZTLoad == "" {
		return t, nil
	}
	dirs := []string{c.RZTLoad}
	if _, err := os.Stat(filepath.Join(c.RZTLoad, datasets.ManifestName)); err != nil {
		entries, err := os.ReadDir(c.RZTLoad)
		if err != nil {
			return nil, fmt.Errorf("rzt-load: %w", err)
		}
		dirs = dirs[:0]
		for _, e := range entries {
			// Stat follows a symbolic link, so that a directory of links
			// to databases saved elsewhere loads them all.
			d := filepath.Join(c.RZTLoad, e.Name())
			if fi, err := os.Stat(d); err == nil && fi.IsDir() {
				dirs = append(dirs, d)
			}
		}
	}
	// Every database of the problem's rules is loaded, a problem's own
	// saved table and those of other problems under the same rules alike
	// (rztstore.LoadAll).
	if _, err := rztstore.LoadAll(ctx, dirs, t); err != nil {
		return nil, fmt.Errorf("rzt-load: %w", err)
	}
	return t, nil
}

// emptyTable builds the problem's pattern table with nothing preloaded,
// or returns nil when the table is off.
func (c SolveConfig) emptyTable(pr *game.Problem) patternTable {
	if c.RZT == "" || c.RZT == RZTNone {
		return nil
	}
	opts := rzs.TableOptions{NoTimestamps: c.RZTNoTimestamps, Symmetric: c.RZTSymmetric}
	if c.RZT == RZTLinear {
		return rzs.NewLinearTable(pr, opts)
	}
	return rzs.NewTreeTable(pr, opts)
}

// SolveTask is a problem to solve and the set it belongs to.
type SolveTask struct {
	Problem *game.Problem
	Set     string // the problem set: its directory's name
}

// Solved is a finished solve.
type Solved struct {
	Index  int // the task's index in the input
	Task   SolveTask
	Result rzs.Result
	Row    SolveRow
	// RZT holds the pattern table's statistics when it was on.
	RZT *rzs.TableStats
	// Err is a failure around the solve (loading or saving patterns).
	Err error
}

// SolveProblems solves tasks with cfg.Workers goroutines and calls emit
// with each finished solve in input order (emit runs on the caller's
// goroutine). A solve stopped by its timeout or budget counts as finished,
// its result unknown. When ctx is cancelled the solves under way stop,
// those that finished are still emitted in input order (skipping the
// unfinished), and ctx's error is returned. An emit error stops everything
// and is returned.
func SolveProblems(ctx context.Context, tasks []SolveTask, cfg SolveConfig, emit func(Solved) error) error {
	if err := cfg.validateLoaded(); err != nil {
		return fmt.Errorf("evaluate: solve: %w", err)
	}
	cfg = cfg.withDefaults()
	defer setSolverGC()()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	work := make(chan int)
	done := make(chan *Solved)
	var wg sync.WaitGroup
	for range min(cfg.Workers, max(len(tasks), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				done <- solveOne(ctx, i, tasks[i], cfg)
			}
		}()
	}
	go func() {
		defer close(work)
		for i := range tasks {
			select {
			case work <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(done)
	}()
	return emitInOrder(ctx, len(tasks), done, emit, cancel)
}

// solveOne solves a task; it returns nil when ctx stopped it.
func solveOne(ctx context.Context, i int, t SolveTask, cfg SolveConfig) *Solved {
	if ctx.Err() != nil {
		return nil
	}
	if cfg.NetCheck != nil {
		if err := cfg.NetCheck(t.Problem); err != nil {
			return &Solved{Index: i, Task: t, Err: fmt.Errorf("problem %s: network: %w", t.Problem.ID, err)}
		}
	}
	table, err := cfg.newTable(ctx, t.Problem)
	if err != nil {
		return &Solved{Index: i, Task: t, Err: fmt.Errorf("problem %s: %w", t.Problem.ID, err)}
	}
	opts := cfg.options()
	var res rzs.Result
	provedBy := ""
	switch cfg.Algo {
	case AlgoDFS:
		res = rzs.SolveDFS(ctx, t.Problem, opts)
	case AlgoDFPN:
		res = rzs.SolveDFPN(ctx, t.Problem, opts)
	default:
		if cfg.Portfolio > 1 {
			var err error
			res, table, provedBy, err = cfg.solvePortfolio(ctx, t.Problem, table)
			if err != nil {
				return &Solved{Index: i, Task: t, Err: fmt.Errorf("problem %s: %w", t.Problem.ID, err)}
			}
			break
		}
		if table != nil {
			opts.Table = table
		}
		res = rzs.Solve(ctx, t.Problem, opts)
	}
	if res.Aborted && ctx.Err() != nil {
		return nil
	}
	s := &Solved{Index: i, Task: t, Result: res, Row: SolveRowOf(t, res, cfg)}
	s.Row.ProvedBy = provedBy
	if table != nil {
		st := table.Stats()
		s.RZT = &st
		if cfg.RZTSave != "" {
			dir := filepath.Join(cfg.RZTSave, t.Problem.ID)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				s.Err = fmt.Errorf("rzt-save: %w", err)
			} else if _, err := rztstore.Save(dir, table, datasets.Manifest{Stage: "solve"}); err != nil {
				s.Err = fmt.Errorf("rzt-save %s: %w", dir, err)
			}
		}
	}
	return s
}

// emitInOrder receives finished solves and emits them in input order; after
// a cancellation or an emit error it drains the workers and emits (only
// after a cancellation) what finished.
func emitInOrder(ctx context.Context, n int, done <-chan *Solved, emit func(Solved) error, cancel func()) error {
	finished := make([]*Solved, n)
	next := 0
	var emitErr error
	for s := range done {
		if s == nil || emitErr != nil {
			continue
		}
		finished[s.Index] = s
		for next < n && finished[next] != nil && ctx.Err() == nil {
			emitErr = finished[next].Err
			if emitErr == nil {
				emitErr = emit(*finished[next])
			}
			if emitErr != nil {
				cancel()
				break
			}
			finished[next] = nil
			next++
		}
	}
	if emitErr != nil {
		return emitErr
	}
	if err := ctx.Err(); err != nil {
		for _, s := range finished[next:] {
			if s == nil {
				continue
			}
			if e := emit(*s); e != nil {
				return errors.Join(err, e)
			}
		}
		return err
	}
	return nil
}

// solverGCPercent is the garbage collector's target while problems are
// solved. The solver's trees, zones and tables live in arenas outside the
// Go heap, so the heap stays small and the collector, at the default 100%,
// runs all the time: at 400% cho19-dev 001 at 200,000 nodes takes 17-18
// CPU-s instead of 20.7 for 20 MB more resident memory
// (docs/results/rzs-forms.md). The runtime's memory still counts towards
// the solver's memory bound.
const solverGCPercent = 400

// setSolverGC raises the collector's target for a solve, unless the user
// set GOGC, and returns the function that restores it.
func setSolverGC() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(solverGCPercent)
	return func() { debug.SetGCPercent(old) }
}
