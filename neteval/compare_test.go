package neteval

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"lifezero/game"
	"lifezero/rzs"
)

// TestSolveComparison is a measurement, not a check: it solves the 7x7
// kill-all problems with the uniform evaluator and with the network of
// $LIFEZERO_COMPARE_NET in FTL and plain-value mode, and prints a Markdown
// table of solved problems and nodes. It runs only when that variable is
// set:
//
//	LIFEZERO_COMPARE_NET=net.lznn LIFEZERO_COMPARE_BUDGET=100000 \
//	  go test ./neteval -run SolveComparison -v -timeout 0
//
// LIFEZERO_COMPARE_WORKERS (default 2) problems are solved at once;
// LIFEZERO_COMPARE_CONFIGS (default "uniform,ftl,value") picks the
// evaluators; LIFEZERO_COMPARE_PROBLEMS a comma-separated list of ids.
func TestSolveComparison(t *testing.T) {
	netPath := os.Getenv("LIFEZERO_COMPARE_NET")
	if netPath == "" {
		t.Skip("set LIFEZERO_COMPARE_NET to a weights file to run the solve comparison")
	}
	budget := envInt(t, "LIFEZERO_COMPARE_BUDGET", 100000)
	workers := envInt(t, "LIFEZERO_COMPARE_WORKERS", 2)
	configs := strings.Split(envString("LIFEZERO_COMPARE_CONFIGS", "uniform,ftl,value"), ",")
	problems, err := game.LoadProblemDir(sharedData(t, "problems/killall7x7"))
	if err != nil {
		t.Fatal(err)
	}
	if ids := os.Getenv("LIFEZERO_COMPARE_PROBLEMS"); ids != "" {
		keep := map[string]bool{}
		for _, id := range strings.Split(ids, ",") {
			keep[id] = true
		}
		var sel []*game.Problem
		for _, pr := range problems {
			if keep[pr.ID] {
				sel = append(sel, pr)
			}
		}
		problems = sel
	}
	evals := map[string]rzs.Evaluator{"uniform": rzs.Uniform{}, "heuristic": rzs.Heuristic{}}
	for _, mode := range []Mode{FTL, Value} {
		e, err := Load(netPath, mode)
		if err != nil {
			t.Fatal(err)
		}
		evals[mode.String()] = e
	}
	type job struct{ p, c int }
	results := make([][]rzs.Result, len(problems))
	for i := range results {
		results[i] = make([]rzs.Result, len(configs))
	}
	jobs := make(chan job)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				ev, ok := evals[configs[j.c]]
				if !ok {
					t.Errorf("unknown config %q", configs[j.c])
					continue
				}
				res := rzs.Solve(context.Background(), problems[j.p], rzs.Options{Evaluator: ev, Budget: budget})
				res.Tree = nil
				results[j.p][j.c] = res
				t.Logf("%s %s: %v, %d nodes, %.1fs", problems[j.p].ID, configs[j.c], res.Status, res.Nodes, res.Seconds)
			}
		}()
	}
	began := time.Now()
	for c := range configs {
		for p := range problems {
			jobs <- job{p, c}
		}
	}
	close(jobs)
	wg.Wait()
	var b strings.Builder
	fmt.Fprintf(&b, "budget %d nodes, network %s, %.0fs\n\n| id | paper FTL+RZS |", budget, filepath.Base(netPath), time.Since(began).Seconds())
	for _, c := range configs {
		fmt.Fprintf(&b, " %s |", c)
	}
	b.WriteString("\n| --- | ---: |" + strings.Repeat(" ---: |", len(configs)) + "\n")
	solved := make([]int, len(configs))
	for p, pr := range problems {
		fmt.Fprintf(&b, "| %s | %s |", pr.ID, pr.PaperNodes["ftl_rzs"])
		for c := range configs {
			r := results[p][c]
			if r.Status == rzs.Win || r.Status == rzs.Loss {
				solved[c]++
				fmt.Fprintf(&b, " %d |", r.Nodes)
			} else {
				b.WriteString(" - |")
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("| solved | 20 |")
	for c := range configs {
		fmt.Fprintf(&b, " %d |", solved[c])
	}
	b.WriteString("\n")
	fmt.Println(b.String())
}

func envInt(t *testing.T, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		t.Fatalf("%s=%q: want a positive number", name, v)
	}
	return n
}

func envString(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
