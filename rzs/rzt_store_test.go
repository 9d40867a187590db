package rzs

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"lifezero/datasets"
	"lifezero/game"
)

// filledTable returns a table of the problem holding n random patterns
// (some with a ko point) from random games.
func filledTable(t *testing.T, rng *rand.Rand, pr *game.Problem, n int) (*TreeTable, []*game.Position) {
	pool := randomGamePositions(rng, pr, 10, 25)
	withKo, _ := koPair(t)
	if withKo.Size() == pr.Start.Size() {
		pool = append(pool, withKo)
	}
	tb := NewTreeTable(pr, TableOptions{})
	for i := 0; i < n; i++ {
		pos := pool[rng.IntN(len(pool))]
		if i%10 == 0 && withKo.Size() == pr.Start.Size() {
			pos = withKo
		}
		standing := randomSubset(rng, stonesOf(pos, game.White), 0.5)
		tb.Insert(pos, &standing, randomRegion(rng, pos, 3+rng.IntN(10)))
	}
	return tb, pool
}

// TestPatternsRoundTrip saves a table and loads it into fresh linear and
// tree tables: same entries in the same order, stamps before the search's,
// and the same answer to every lookup.
func TestPatternsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	pr := killAllProblem(t, 7)
	tb, pool := filledTable(t, rng, pr, 250)
	dir := filepath.Join(t.TempDir(), "patterns")
	m, err := tb.SavePatterns(dir, datasets.Manifest{Stage: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Kind != PatternsKind || m.Rows != 250 || m.Meta["fingerprint"] != ProblemFingerprint(pr) || m.Meta["board_size"] != "7" {
		t.Fatalf("manifest %+v", m)
	}
	for _, fresh := range []rztTable{NewLinearTable(pr, TableOptions{}), NewTreeTable(pr, TableOptions{})} {
		loader := fresh.(interface {
			LoadPatterns(context.Context, string) (int, int, error)
		})
		loaded, skipped, err := loader.LoadPatterns(context.Background(), dir)
		if err != nil || loaded != 250 || skipped != 0 {
			t.Fatalf("loaded %d, skipped %d: %v", loaded, skipped, err)
		}
		got := storeOf(fresh)
		for i := range tb.entries {
			if got.entries[i] != tb.entries[i] {
				t.Fatalf("entry %d: %+v, want %+v", i, got.entries[i], tb.entries[i])
			}
		}
		if st := fresh.Stats(); st.Preloaded != 250 || st.Entries != 250 {
			t.Errorf("stats: %d preloaded of %d entries", st.Preloaded, st.Entries)
		}
		for _, pos := range pool {
			standing := stonesOf(pos, game.White)
			z1, ok1, _ := tb.Lookup(pos, &standing, 0)
			z2, ok2, _ := fresh.Lookup(pos, &standing, 0)
			if ok1 != ok2 || (ok1 && !matchesSome(tb, pos, &standing, z2)) {
				t.Fatalf("lookup after load: %v %v, before %v %v", ok2, z2.Points(), ok1, z1.Points())
			}
		}
		pos := pool[0]
		var none game.PointSet
		fresh.Insert(pos, &none, pos.AllPoints())
		if n := storeOf(fresh).entries[250].stamp; n != 251 {
			t.Errorf("first entry of the search has stamp %d, want 251", n)
		}
	}
}

func storeOf(tb rztTable) *patternStore {
	switch x := tb.(type) {
	case *LinearTable:
		return &x.patternStore
	case *TreeTable:
		return &x.patternStore
	}
	panic("unknown table")
}

// matchesSome reports whether zone is the zone of an entry of tb that pos
// matches.
func matchesSome(tb *TreeTable, pos *game.Position, standing *game.PointSet, zone game.PointSet) bool {
	q := queryOf(pos, standing)
	for i := range tb.entries {
		if e := &tb.entries[i]; e.zone == zone && e.matches(&q, tb.words) {
			return true
		}
	}
	return false
}

// TestPatternsOnlyForSameRules checks that patterns are preloaded only into
// problems with the same fingerprint: another region, other crucial
// stones, another ko rule, another board size all load nothing.
func TestPatternsOnlyForSameRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 9))
	pr := killAllProblem(t, 7)
	tb, _ := filledTable(t, rng, pr, 40)
	dir := filepath.Join(t.TempDir(), "patterns")
	if _, err := tb.SavePatterns(dir, datasets.Manifest{}); err != nil {
		t.Fatal(err)
	}
	region := *pr
	region.Region.Remove(pr.Start.Point(0, 0))
	ko := *pr
	ko.Start = pr.Start.Copy()
	ko.Start.SetKoRule(game.White, game.PositionalSuperko)
	live := *pr
	live.Start = place(t, []string{"W......", ".......", ".......", ".......", ".......", ".......", "......."}, game.Black)
	live.Crucial = pointsAt(live.Start, [2]int{0, 0})
	live.Goal[game.White], live.Goal[game.Black] = game.GoalLive, game.GoalKill
	same := *pr
	same.ID = "another id, same rules"
	cases := []struct {
		name string
		pr   *game.Problem
		want int
	}{
		{"same rules", &same, 40},
		{"other region", &region, 0},
		{"other ko rule", &ko, 0},
		{"crucial stones", &live, 0},
		{"board size", killAllProblem(t, 9), 0},
	}
	for _, c := range cases {
		loaded, skipped, err := NewTreeTable(c.pr, TableOptions{}).LoadPatterns(context.Background(), dir)
		if err != nil || loaded != c.want || loaded+skipped != 40 {
			t.Errorf("%s: loaded %d, skipped %d, want %d loaded: %v", c.name, loaded, skipped, c.want, err)
		}
	}
}

// TestLoadPatternsErrors checks the refusals: a table that already has
// entries, a dataset of another kind, a missing directory, and malformed
// rows, each with an error that says what is wrong.
func TestLoadPatternsErrors(t *testing.T) {
	pr := killAllProblem(t, 7)
	base := t.TempDir()
	rng := rand.New(rand.NewPCG(7, 10))
	tb, _ := filledTable(t, rng, pr, 5)
	good := filepath.Join(base, "good")
	if _, err := tb.SavePatterns(good, datasets.Manifest{}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := tb.LoadPatterns(context.Background(), good); !errors.Is(err, ErrTableNotEmpty) {
		t.Errorf("load into a filled table: %v, want ErrTableNotEmpty", err)
	}
	fp := ProblemFingerprint(pr)
	row := func(mod func(r *patternRow)) patternRow {
		r := patternRow{fp: fp, size: 7, toMove: "B", ko: -1, zone: []int16{0, 1, 7}, contents: "BW.", crucial: []int16{1}}
		mod(&r)
		return r
	}
	cases := []struct {
		name, want string
		rows       []patternRow
	}{
		{"to_move", "to_move", []patternRow{row(func(r *patternRow) { r.toMove = "X" })}},
		{"contents length", "contents has 2 characters", []patternRow{row(func(r *patternRow) { r.contents = "BW" })}},
		{"contents char", "is not B, W or .", []patternRow{row(func(r *patternRow) { r.contents = "BWx" })}},
		{"point off board", "off a 7x7 board", []patternRow{row(func(r *patternRow) { r.zone[2] = 49 })}},
		{"ko off board", "ko", []patternRow{row(func(r *patternRow) { r.ko = -5 })}},
		{"repeated point", "repeated", []patternRow{row(func(r *patternRow) { r.zone[2] = 1 })}},
		{"crucial outside zone", "not in the zone", []patternRow{row(func(r *patternRow) { r.crucial = []int16{20} })}},
		{"second row", "row 1", []patternRow{row(func(*patternRow) {}), row(func(r *patternRow) { r.toMove = "" })}},
	}
	for _, c := range cases {
		dir := filepath.Join(base, strings.ReplaceAll(c.name, " ", "_"))
		writePatternRows(t, dir, c.rows)
		fresh := NewTreeTable(pr, TableOptions{})
		_, _, err := fresh.LoadPatterns(context.Background(), dir)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
		if fresh.Len() != 0 {
			t.Errorf("%s: %d entries kept after the error", c.name, fresh.Len())
		}
	}
	other := filepath.Join(base, "games")
	if _, err := datasets.WriteGames(other, nil, datasets.Manifest{}, datasets.WriterOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := NewTreeTable(pr, TableOptions{}).LoadPatterns(context.Background(), other); err == nil || !strings.Contains(err.Error(), PatternsKind) {
		t.Errorf("games dataset: %v", err)
	}
	if _, _, err := NewTreeTable(pr, TableOptions{}).LoadPatterns(context.Background(), filepath.Join(base, "missing")); !errors.Is(err, datasets.ErrNoDataset) {
		t.Errorf("missing dataset: %v", err)
	}
	if err := os.WriteFile(filepath.Join(base, "junk.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := tb.SavePatterns(base, datasets.Manifest{}); err == nil {
		t.Error("saving over a directory with other files succeeded")
	}
}

// patternRow is a raw row of a pattern database, for malformed files.
type patternRow struct {
	fp            string
	size          int32
	toMove        string
	ko            int16
	zone, crucial []int16
	contents      string
}

func writePatternRows(t *testing.T, dir string, rows []patternRow) {
	w, err := datasets.NewWriter(dir, PatternsSchema(), datasets.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.NewGoAllocator(), PatternsSchema())
	defer b.Release()
	f := b.Fields()
	for i, r := range rows {
		f[0].(*array.StringBuilder).Append("test")
		f[1].(*array.StringBuilder).Append(r.fp)
		f[2].(*array.Int32Builder).Append(r.size)
		f[3].(*array.Int64Builder).Append(int64(i + 1))
		f[4].(*array.StringBuilder).Append(r.toMove)
		f[5].(*array.Int16Builder).Append(r.ko)
		for _, l := range []struct {
			col int
			pts []int16
		}{{6, r.zone}, {8, r.crucial}} {
			lb := f[l.col].(*array.ListBuilder)
			lb.Append(true)
			lb.ValueBuilder().(*array.Int16Builder).AppendValues(l.pts, nil)
		}
		f[7].(*array.StringBuilder).Append(r.contents)
	}
	rec := b.NewRecord()
	defer rec.Release()
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Commit(datasets.Manifest{Kind: PatternsKind, SchemaVersion: PatternsSchemaVersion}); err != nil {
		t.Fatal(err)
	}
}
