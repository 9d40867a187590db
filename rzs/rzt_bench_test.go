package rzs

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"lifezero/game"
)

// recordedStream is the pattern-table traffic of a real solve: every
// insertion and every lookup with the caller's clock, in order. Positions
// are kept once each, as queries.
type recordedStream struct {
	name    string
	pr      *game.Problem
	queries []query
	zones   []game.PointSet
	ops     []streamOp
	nodes   int
	status  Status
}

// streamOp is an insertion (zone >= 0) or a lookup with its since.
type streamOp struct {
	q     int32
	zone  int32
	since uint64
}

// streamRecorder records the traffic of the table it wraps.
type streamRecorder struct {
	PatternTable
	s     *recordedStream
	index map[uint64]int32
}

func (r *streamRecorder) queryIndex(pos *game.Position, standing *game.PointSet) int32 {
	key := ttKey(pos, standing)
	if i, ok := r.index[key]; ok {
		return i
	}
	r.s.queries = append(r.s.queries, queryOf(pos, standing))
	r.index[key] = int32(len(r.s.queries) - 1)
	return int32(len(r.s.queries) - 1)
}

func (r *streamRecorder) Lookup(pos *game.Position, standing *game.PointSet, since uint64) (game.PointSet, bool, uint64) {
	r.s.ops = append(r.s.ops, streamOp{q: r.queryIndex(pos, standing), zone: -1, since: since})
	return r.PatternTable.Lookup(pos, standing, since)
}

func (r *streamRecorder) Insert(pos *game.Position, standing *game.PointSet, zone game.PointSet) {
	r.s.ops = append(r.s.ops, streamOp{q: r.queryIndex(pos, standing), zone: int32(len(r.s.zones))})
	r.s.zones = append(r.s.zones, zone)
	r.PatternTable.Insert(pos, standing, zone)
}

// recordStream solves a shared problem (set/id) with a TR-TS table and
// records its traffic.
func recordStream(b *testing.B, set, id string, budget int) *recordedStream {
	pr, err := game.LoadProblem(filepath.Join(sharedProblemDir(b, set), id+".json"))
	if err != nil {
		b.Fatal(err)
	}
	s := &recordedStream{name: set + "-" + id, pr: pr}
	rec := &streamRecorder{PatternTable: NewTreeTable(pr, TableOptions{}), s: s, index: map[uint64]int32{}}
	res := Solve(context.Background(), pr, Options{Budget: budget, Table: rec})
	s.nodes, s.status = res.Nodes, res.Status
	return s
}

// replay runs the stream through a table. The table's clock equals the
// recording table's at every step (all kinds hit on the same lookups), so
// the recorded since values are valid.
func (s *recordedStream) replay(t *patternStore) {
	for _, op := range s.ops {
		if op.zone >= 0 {
			t.insert(&s.queries[op.q], s.zones[op.zone])
		} else {
			t.lookup(&s.queries[op.q], op.since, time.Now())
		}
	}
}

// BenchmarkRZTLookup replays the table traffic recorded from solving the
// shared 7x7 kill-all problems 01 and 02 (budget 100,000 nodes; both are
// solved) and 15 (unsolved within the budget, but the largest table), or
// the problems listed in $LIFEZERO_RZT_PROBLEMS (set/id, comma separated,
// for example killall7x7/20,cho19-dev/005) at $LIFEZERO_RZT_BUDGET nodes,
// through the four settings of paper 000's Fig. 4, LR-NT, LR-TS, TR-NT and TR-TS,
// and TR-TS with symmetric lookups.
// Per lookup it reports the traversal cost (node visits + entries
// compared), its parts and the time; per setting the cost exponent
// log c / log n of the last rebuild phase (c: traversal cost without the
// leaf lists, n: index size). The log holds the TS/NT cost ratios (the
// paper reports 9.31 for the tree) and the growth samples as JSON.
func BenchmarkRZTLookup(b *testing.B) {
	problems := []string{"killall7x7/01", "killall7x7/02", "killall7x7/15"}
	if env := os.Getenv("LIFEZERO_RZT_PROBLEMS"); env != "" {
		problems = strings.Split(env, ",")
	}
	budget := 100_000
	if env := os.Getenv("LIFEZERO_RZT_BUDGET"); env != "" {
		n, err := strconv.Atoi(env)
		if err != nil || n <= 0 {
			b.Fatalf("LIFEZERO_RZT_BUDGET=%q: want a positive node count", env)
		}
		budget = n
	}
	for _, name := range problems {
		set, id, ok := strings.Cut(strings.TrimSpace(name), "/")
		if !ok {
			b.Fatalf("LIFEZERO_RZT_PROBLEMS: %q: want set/id", name)
		}
		s := recordStream(b, set, id, budget)
		lookups := 0
		for _, op := range s.ops {
			if op.zone < 0 {
				lookups++
			}
		}
		var summary []string
		cost := map[string]float64{}
		kinds := append(tableKinds, struct {
			name string
			make func(*game.Problem, TableOptions) rztTable
			opts TableOptions
		}{"TR-TS+SYM", newTR, TableOptions{Symmetric: true}})
		for _, kind := range kinds {
			var st TableStats
			b.Run(s.name+"/"+kind.name, func(b *testing.B) {
				for b.Loop() {
					tb := kind.make(s.pr, kind.opts)
					s.replay(storeOf(tb))
					st = tb.Stats()
				}
				n := float64(st.Lookups)
				b.ReportMetric(float64(st.Cost)/n, "cost/lookup")
				b.ReportMetric(float64(st.NodeVisits)/n, "visits/lookup")
				b.ReportMetric(float64(st.Compares)/n, "compares/lookup")
				b.ReportMetric(float64(st.LookupNanos)/n, "ns/lookup")
				b.ReportMetric(float64(st.Hits), "hits")
				b.ReportMetric(float64(st.SymHits), "sym-hits")
				b.ReportMetric(lastExponent(st), "miss-exponent")
			})
			cost[kind.name] = float64(st.Cost)
			g, _ := json.Marshal(st.Growth)
			summary = append(summary, fmt.Sprintf("%s: %d entries, %d lookups, %d hits, %d compares, cost %d, index %d; growth %s",
				kind.name, st.Entries, st.Lookups, st.Hits, st.Compares, st.Cost, st.IndexSize, g))
		}
		b.Logf("%s: %v in %d nodes, %d lookups; cost ratio NT/TS: tree %.2f, list %.2f\n%s", s.name, s.status, s.nodes, lookups,
			cost["TR-NT"]/cost["TR-TS"], cost["LR-NT"]/cost["LR-TS"], strings.Join(summary, "\n"))
	}
}

// lastExponent is the miss exponent of the last growth sample that has
// one (NaN when none has).
func lastExponent(st TableStats) float64 {
	for i := len(st.Growth) - 1; i >= 0; i-- {
		if e := st.Growth[i].MissExponent(); !math.IsNaN(e) {
			return e
		}
	}
	return math.NaN()
}
