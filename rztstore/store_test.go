package rztstore

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"lifezero/datasets"
	"lifezero/game"
	"lifezero/rzs"
)

// killAllProblem is game.KillAll's empty size x size board, White to live
// anywhere.
func killAllProblem(t testing.TB, size int) *game.Problem {
	pr, err := game.KillAll(size)
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

// filledTable returns a tree table of pr holding n entries inserted from
// random games (every tenth from a position with a ko point), so that
// every column, the ko included, holds real values.
func filledTable(t *testing.T, rng *rand.Rand, pr *game.Problem, n int) *rzs.TreeTable {
	var pool []*game.Position
	for g := 0; g < 10; g++ {
		pos := pr.StartPosition()
		for m := 0; m < 25; m++ {
			legal := pos.LegalMoves(nil, nil)
			move := game.Pass
			if len(legal) > 0 && rng.IntN(10) > 0 {
				move = legal[rng.IntN(len(legal))]
			}
			if err := pos.Play(move); err != nil {
				t.Fatal(err)
			}
			pool = append(pool, pos.Copy())
		}
	}
	withKo := koPosition(t, pr.Start.Size())
	tb := rzs.NewTreeTable(pr, rzs.TableOptions{})
	for i := 0; i < n; i++ {
		pos := pool[rng.IntN(len(pool))]
		if i%10 == 0 {
			pos = withKo
		}
		var standing, zone game.PointSet
		all := pos.AllPoints()
		all.ForEach(func(p game.Point) {
			if rng.IntN(3) == 0 {
				zone.Add(p)
				if pos.At(p) == game.White && rng.IntN(2) == 0 {
					standing.Add(p)
				}
			}
		})
		tb.Insert(pos, &standing, zone)
	}
	return tb
}

// koPosition returns a position of the size in which White may not retake
// a ko at once.
func koPosition(t *testing.T, size int) *game.Position {
	pos, err := game.NewPosition(size)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct {
		c    game.Color
		x, y int
	}{{game.Black, 1, 0}, {game.White, 2, 0}, {game.Black, 0, 1}, {game.White, 1, 1}, {game.White, 3, 1}, {game.Black, 1, 2}, {game.White, 2, 2}} {
		if err := pos.Place(s.c, pos.Point(s.x, s.y)); err != nil {
			t.Fatal(err)
		}
	}
	pos.SetToMove(game.Black)
	if err := pos.Play(pos.Point(2, 1)); err != nil {
		t.Fatal(err)
	}
	if pos.Ko() != pos.Point(1, 1) {
		t.Fatalf("ko point %v, want B%d", pos.GTPString(pos.Ko()), size-1)
	}
	return pos
}

// TestRoundTrip saves a table and loads it into fresh linear and tree
// tables: the manifest says what the database holds, and the loaded
// tables export the same entries in the same order, all preloaded.
func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	pr := killAllProblem(t, 7)
	tb := filledTable(t, rng, pr, 250)
	want := tb.ExportPatterns()
	kos := 0
	for _, r := range want {
		if r.Ko >= 0 {
			kos++
		}
	}
	if kos == 0 {
		t.Fatal("no entry has a ko point; the test does not cover ko")
	}
	dir := filepath.Join(t.TempDir(), "patterns")
	m, err := Save(dir, tb, datasets.Manifest{Stage: "test", Meta: map[string]string{"keep": "me"}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Kind != Kind || m.Rows != 250 || m.Meta["fingerprint"] != rzs.ProblemFingerprint(pr) || m.Meta["board_size"] != "7" ||
		m.Meta["problem"] != pr.ID || m.Meta["keep"] != "me" || m.InputHash != rzs.ProblemFingerprint(pr) {
		t.Fatalf("manifest %+v", m)
	}
	for _, fresh := range []interface {
		Table
		Stats() rzs.TableStats
	}{rzs.NewLinearTable(pr, rzs.TableOptions{}), rzs.NewTreeTable(pr, rzs.TableOptions{})} {
		loaded, skipped, err := Load(context.Background(), dir, fresh)
		if err != nil || loaded != 250 || skipped != 0 {
			t.Fatalf("loaded %d, skipped %d: %v", loaded, skipped, err)
		}
		if got := fresh.ExportPatterns(); !reflect.DeepEqual(got, want) {
			t.Fatalf("%T exports after the round trip:\n%+v\nwant\n%+v", fresh, got[:3], want[:3])
		}
		if st := fresh.Stats(); st.Preloaded != 250 || st.Entries != 250 {
			t.Errorf("stats: %d preloaded of %d entries", st.Preloaded, st.Entries)
		}
	}
}

// TestOnlyForSameRules checks that patterns are preloaded only into
// problems with the same fingerprint: another region, other crucial
// stones, another ko rule, another board size all load nothing.
func TestOnlyForSameRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 9))
	pr := killAllProblem(t, 7)
	tb := filledTable(t, rng, pr, 40)
	dir := filepath.Join(t.TempDir(), "patterns")
	if _, err := Save(dir, tb, datasets.Manifest{}); err != nil {
		t.Fatal(err)
	}
	region := *pr
	region.Region.Remove(pr.Start.Point(0, 0))
	ko := *pr
	ko.Start = pr.Start.Copy()
	ko.Start.SetKoRule(game.White, game.PositionalSuperko)
	live := *pr
	live.Start = pr.Start.Copy()
	if err := live.Start.Place(game.White, live.Start.Point(0, 0)); err != nil {
		t.Fatal(err)
	}
	live.Crucial.Add(live.Start.Point(0, 0))
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
		loaded, skipped, err := Load(context.Background(), dir, rzs.NewTreeTable(c.pr, rzs.TableOptions{}))
		if err != nil || loaded != c.want || loaded+skipped != 40 {
			t.Errorf("%s: loaded %d, skipped %d, want %d loaded: %v", c.name, loaded, skipped, c.want, err)
		}
	}
}

// TestLoadErrors checks the refusals: a table that already has entries, a
// dataset of another kind, a missing directory, malformed rows, a
// cancelled context and saving over a directory that is not a dataset,
// each with an error that says what is wrong.
func TestLoadErrors(t *testing.T) {
	pr := killAllProblem(t, 7)
	base := t.TempDir()
	tb := filledTable(t, rand.New(rand.NewPCG(7, 10)), pr, 5)
	good := filepath.Join(base, "good")
	if _, err := Save(good, tb, datasets.Manifest{}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Load(context.Background(), good, tb); !errors.Is(err, rzs.ErrTableNotEmpty) {
		t.Errorf("load into a filled table: %v, want ErrTableNotEmpty", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := Load(ctx, good, rzs.NewTreeTable(pr, rzs.TableOptions{})); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled load: %v", err)
	}
	fp := rzs.ProblemFingerprint(pr)
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
		{"row after another problem's", "row 1:", []patternRow{row(func(r *patternRow) { r.fp = "other" }), row(func(r *patternRow) { r.contents = "BW" })}},
	}
	for _, c := range cases {
		dir := filepath.Join(base, strings.ReplaceAll(c.name, " ", "_"))
		writePatternRows(t, dir, c.rows)
		fresh := rzs.NewTreeTable(pr, rzs.TableOptions{})
		_, _, err := Load(context.Background(), dir, fresh)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), dir) {
			t.Errorf("%s: error %v, want one naming %s and saying %q", c.name, err, dir, c.want)
		}
		if fresh.Len() != 0 {
			t.Errorf("%s: %d entries kept after the error", c.name, fresh.Len())
		}
	}
	other := filepath.Join(base, "games")
	if _, err := datasets.WriteGames(other, nil, datasets.Manifest{}, datasets.WriterOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Load(context.Background(), other, rzs.NewTreeTable(pr, rzs.TableOptions{})); err == nil || !strings.Contains(err.Error(), Kind) {
		t.Errorf("games dataset: %v", err)
	}
	if _, _, err := Load(context.Background(), filepath.Join(base, "missing"), rzs.NewTreeTable(pr, rzs.TableOptions{})); !errors.Is(err, datasets.ErrNoDataset) {
		t.Errorf("missing dataset: %v", err)
	}
	if err := os.WriteFile(filepath.Join(base, "junk.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Save(base, tb, datasets.Manifest{}); err == nil {
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
	w, err := datasets.NewWriter(dir, datasets.RZPatternsSchema(), datasets.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.NewGoAllocator(), datasets.RZPatternsSchema())
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
	if _, err := w.Commit(datasets.Manifest{Kind: Kind, SchemaVersion: SchemaVersion}); err != nil {
		t.Fatal(err)
	}
}

// TestLoadAllMerges loads three databases at once: two saved by searches
// of different problems under the same rules (one sharing entries with
// the other) and one of other rules. The table gets the first database's
// entries, then the second's that are new, in their order; the shared
// ones are counted as duplicates and the other rules' rows as skipped. A
// malformed row names its own database and row.
func TestLoadAllMerges(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 19))
	pr := killAllProblem(t, 7)
	first := filledTable(t, rng, pr, 30)
	other := *pr
	other.ID = "another position, same rules"
	second := rzs.NewTreeTable(&other, rzs.TableOptions{})
	recs := first.ExportPatterns()
	fresh := filledTable(t, rng, pr, 20).ExportPatterns()
	if err := second.ImportPatterns(append(append([]rzs.PatternRecord{}, recs[:10]...), fresh...)); err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	dirs := []string{filepath.Join(base, "a"), filepath.Join(base, "b"), filepath.Join(base, "c")}
	for i, tb := range []Table{first, second, filledTable(t, rng, killAllProblem(t, 9), 15)} {
		if _, err := Save(dirs[i], tb, datasets.Manifest{}); err != nil {
			t.Fatal(err)
		}
	}
	got := rzs.NewTreeTable(pr, rzs.TableOptions{})
	st, err := LoadAll(context.Background(), dirs, got)
	if err != nil {
		t.Fatal(err)
	}
	// filledTable may insert one pattern twice; LoadAll keeps it once.
	want := dedupe(append(recs, fresh...))
	if st.Loaded != len(want) || st.Loaded+st.Duplicates != 60 || st.Skipped != 15 {
		t.Errorf("loaded %d, duplicates %d, skipped %d; want %d loaded of 60, 15 skipped", st.Loaded, st.Duplicates, st.Skipped, len(want))
	}
	if !reflect.DeepEqual(stampless(got.ExportPatterns()), stampless(want)) {
		t.Errorf("the merged table's entries are not the two databases' distinct entries in order")
	}
	bad := filepath.Join(base, "bad")
	writePatternRows(t, bad, []patternRow{
		{fp: "other rules", size: 7, toMove: "B", ko: -1, zone: []int16{0}, contents: "B"},
		{fp: rzs.ProblemFingerprint(pr), size: 7, toMove: "B", ko: -1, zone: []int16{0, 1, 7}, contents: "BW"},
	})
	_, err = LoadAll(context.Background(), []string{dirs[0], bad}, rzs.NewTreeTable(pr, rzs.TableOptions{}))
	if err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "row 1:") {
		t.Errorf("a malformed row in the second database: %v, want an error naming %s and row 1", err, bad)
	}
}

// dedupe keeps the first of records equal but for their stamps.
func dedupe(recs []rzs.PatternRecord) []rzs.PatternRecord {
	var out []rzs.PatternRecord
	seen := map[string]bool{}
	for _, r := range recs {
		if id := recordIdentity(&r); !seen[id] {
			seen[id] = true
			out = append(out, r)
		}
	}
	return out
}

func stampless(recs []rzs.PatternRecord) []rzs.PatternRecord {
	out := make([]rzs.PatternRecord, len(recs))
	for i, r := range recs {
		r.Stamp = 0
		out[i] = r
	}
	return out
}
