package rzs

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

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

// TestPatternsRoundTrip exports a table and imports it into fresh linear
// and tree tables: same entries in the same order, stamps before the
// search's, and the same answer to every lookup. (Package rztstore checks
// the same through a pattern database on disk.)
func TestPatternsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	pr := killAllProblem(t, 7)
	tb, pool := filledTable(t, rng, pr, 250)
	if k := tb.PatternKey(); k.Fingerprint != ProblemFingerprint(pr) || k.BoardSize != 7 || k.ProblemID != pr.ID {
		t.Fatalf("key %+v", k)
	}
	recs := tb.ExportPatterns()
	if len(recs) != 250 {
		t.Fatalf("exported %d records, want 250", len(recs))
	}
	kos := 0
	for i, r := range recs {
		if r.Stamp != uint64(i+1) {
			t.Fatalf("record %d has stamp %d", i, r.Stamp)
		}
		if r.Ko >= 0 {
			kos++
		}
	}
	if kos == 0 {
		t.Fatal("no exported record has a ko point; the test does not cover ko")
	}
	for _, fresh := range []rztTable{NewLinearTable(pr, TableOptions{}), NewTreeTable(pr, TableOptions{})} {
		importer := fresh.(interface{ ImportPatterns([]PatternRecord) error })
		if err := importer.ImportPatterns(recs); err != nil {
			t.Fatal(err)
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
				t.Fatalf("lookup after import: %v %v, before %v %v", ok2, z2.Points(), ok1, z1.Points())
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

// TestImportPatternsErrors checks the refusals: a table that already has
// entries, and malformed records, each with an error that says what is
// wrong and which record, leaving the table empty.
func TestImportPatternsErrors(t *testing.T) {
	pr := killAllProblem(t, 7)
	tb, _ := filledTable(t, rand.New(rand.NewPCG(7, 10)), pr, 5)
	if err := tb.ImportPatterns(tb.ExportPatterns()); !errors.Is(err, ErrTableNotEmpty) {
		t.Errorf("import into a filled table: %v, want ErrTableNotEmpty", err)
	}
	rec := func(mod func(r *PatternRecord)) PatternRecord {
		r := PatternRecord{ToMove: game.Black, Ko: -1, Zone: []int{0, 1, 7}, Contents: "BW.", Crucial: []int{1}}
		mod(&r)
		return r
	}
	cases := []struct {
		name, want string
		index      int
		recs       []PatternRecord
	}{
		{"to move", "is not B or W", 0, []PatternRecord{rec(func(r *PatternRecord) { r.ToMove = game.Empty })}},
		{"contents length", "contents has 2 characters", 0, []PatternRecord{rec(func(r *PatternRecord) { r.Contents = "BW" })}},
		{"contents char", "is not B, W or .", 0, []PatternRecord{rec(func(r *PatternRecord) { r.Contents = "BWx" })}},
		{"point off board", "off a 7x7 board", 0, []PatternRecord{rec(func(r *PatternRecord) { r.Zone[2] = 49 })}},
		{"ko off board", "ko", 0, []PatternRecord{rec(func(r *PatternRecord) { r.Ko = -5 })}},
		{"repeated point", "repeated", 0, []PatternRecord{rec(func(r *PatternRecord) { r.Zone[2] = 1 })}},
		{"crucial outside zone", "not in the zone", 0, []PatternRecord{rec(func(r *PatternRecord) { r.Crucial = []int{20} })}},
		{"crucial off board", "crucial", 0, []PatternRecord{rec(func(r *PatternRecord) { r.Crucial = []int{-1} })}},
		{"second record", "pattern 1", 1, []PatternRecord{rec(func(*PatternRecord) {}), rec(func(r *PatternRecord) { r.ToMove = game.Empty })}},
	}
	for _, c := range cases {
		fresh := NewTreeTable(pr, TableOptions{})
		err := fresh.ImportPatterns(c.recs)
		var re *PatternRecordError
		if !errors.As(err, &re) || re.Index != c.index || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want record %d saying %q", c.name, err, c.index, c.want)
		}
		if fresh.Len() != 0 {
			t.Errorf("%s: %d entries kept after the error", c.name, fresh.Len())
		}
	}
	good := NewTreeTable(pr, TableOptions{})
	if err := good.ImportPatterns([]PatternRecord{rec(func(*PatternRecord) {})}); err != nil || good.Len() != 1 {
		t.Errorf("valid record: %d entries: %v", good.Len(), err)
	}
}
