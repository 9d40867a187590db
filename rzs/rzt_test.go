package rzs

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"lifezero/game"
)

// rztTable is what the tests need of both tables.
type rztTable interface {
	PatternTable
	Stats() TableStats
	Len() int
}

// tableKinds are the four settings of the paper's Fig. 4.
var tableKinds = []struct {
	name string
	make func(*game.Problem, TableOptions) rztTable
	opts TableOptions
}{
	{"LR-NT", newLR, TableOptions{NoTimestamps: true}},
	{"LR-TS", newLR, TableOptions{}},
	{"TR-NT", newTR, TableOptions{NoTimestamps: true}},
	{"TR-TS", newTR, TableOptions{}},
	{"TR-TS-locked", newLockedTR, TableOptions{}},
}

func newLR(pr *game.Problem, o TableOptions) rztTable { return NewLinearTable(pr, o) }
func newTR(pr *game.Problem, o TableOptions) rztTable { return NewTreeTable(pr, o) }

// newLockedTR is the tree table as a portfolio shares it: the lookups
// LockedTable answers without the table must count and answer as the
// table's own.
func newLockedTR(pr *game.Problem, o TableOptions) rztTable {
	return NewLockedTable(NewTreeTable(pr, o))
}

// killAllProblem returns game.KillAll's problem: the empty board of the
// size, whole board as region, White to live, ko rules of the problem files.
func killAllProblem(t testing.TB, size int) *game.Problem {
	pr, err := game.KillAll(size)
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

// place builds a position from rows of "B", "W" and "." (row 0 on top).
func place(t testing.TB, rows []string, toMove game.Color) *game.Position {
	pos, err := game.NewPosition(len(rows))
	if err != nil {
		t.Fatal(err)
	}
	for y, row := range rows {
		for x, c := range row {
			col := map[rune]game.Color{'B': game.Black, 'W': game.White}[c]
			if col != game.Empty {
				if err := pos.Place(col, pos.Point(x, y)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	pos.SetToMove(toMove)
	return pos
}

func pointsAt(pos *game.Position, xy ...[2]int) game.PointSet {
	var s game.PointSet
	for _, c := range xy {
		s.Add(pos.Point(c[0], c[1]))
	}
	return s
}

// TestMatchRules checks each matching condition on hand-built positions: a
// stored pattern matches whatever lies outside its zone, and nothing that
// differs inside it, in the side to move, the ko point or a crucial stone.
func TestMatchRules(t *testing.T) {
	pr := killAllProblem(t, 7)
	base := []string{
		"BW.....",
		".W.B...",
		"WW.....",
		".......",
		"...B...",
		".......",
		"......W",
	}
	stored := place(t, base, game.Black)
	// Zone: the top-left 3x3 corner.
	var zone game.PointSet
	for y := 0; y < 3; y++ {
		for x := 0; x < 3; x++ {
			zone.Add(stored.Point(x, y))
		}
	}
	standing := pointsAt(stored, [2]int{1, 0}, [2]int{6, 6})

	outside := place(t, []string{
		"BW.....",
		".W.B...",
		"WW..W..",
		"B......",
		".......",
		"...W...",
		"B.....W",
	}, game.Black)
	inside := place(t, []string{
		"BW.....",
		".WBB...",
		"WW.....",
		".......",
		"...B...",
		".......",
		"......W",
	}, game.Black)
	whiteToMove := place(t, base, game.White)
	cases := []struct {
		name     string
		pos      *game.Position
		standing game.PointSet
		hit      bool
	}{
		{"same position", stored, standing, true},
		{"changed outside the zone", outside, standing, true},
		{"stone added inside the zone", inside, standing, false},
		{"other side to move", whiteToMove, standing, false},
		{"crucial stone lost", stored, pointsAt(stored, [2]int{6, 6}), false},
		{"more crucial stones standing", stored, pointsAt(stored, [2]int{1, 0}, [2]int{0, 2}, [2]int{6, 6}), true},
	}
	for _, kind := range tableKinds {
		t.Run(kind.name, func(t *testing.T) {
			tb := kind.make(pr, kind.opts)
			tb.Insert(stored, &standing, zone)
			for _, c := range cases {
				got, ok, now := tb.Lookup(c.pos, &c.standing, 0)
				if ok != c.hit {
					t.Errorf("%s: hit %v, want %v", c.name, ok, c.hit)
				}
				if ok && got != zone {
					t.Errorf("%s: zone %v, want %v", c.name, pointNames(c.pos, &got), pointNames(c.pos, &zone))
				}
				if now != 1 {
					t.Errorf("%s: clock %d, want 1", c.name, now)
				}
			}
			if s := tb.Stats(); s.Entries != 1 || s.Lookups != int64(len(cases)) || s.Hits != 3 {
				t.Errorf("stats: %d entries, %d lookups, %d hits; want 1, %d, 3", s.Entries, s.Lookups, s.Hits, len(cases))
			}
		})
	}
}

// koPair returns the same stones with White to move twice: once right after
// Black took a ko at B6 (White may not retake at once), once set up
// without a ko point.
func koPair(t *testing.T) (withKo, without *game.Position) {
	withKo = place(t, []string{
		".BW....",
		"BW.W...",
		".BW....",
		".......",
		".......",
		".......",
		".......",
	}, game.Black)
	if err := withKo.Play(withKo.Point(2, 1)); err != nil {
		t.Fatal(err)
	}
	if withKo.Ko() != withKo.Point(1, 1) {
		t.Fatalf("ko point %v, want B6", withKo.GTPString(withKo.Ko()))
	}
	without = place(t, []string{
		".BW....",
		"B.BW...",
		".BW....",
		".......",
		".......",
		".......",
		".......",
	}, game.White)
	return withKo, without
}

// TestMatchNeedsSameKo checks that the ko point is part of a pattern.
func TestMatchNeedsSameKo(t *testing.T) {
	pr := killAllProblem(t, 7)
	withKo, without := koPair(t)
	var zone game.PointSet
	for y := 0; y < 3; y++ {
		for x := 0; x < 4; x++ {
			zone.Add(withKo.Point(x, y))
		}
	}
	var none game.PointSet
	for _, kind := range tableKinds {
		for _, stored := range []*game.Position{withKo, without} {
			tb := kind.make(pr, kind.opts)
			tb.Insert(stored, &none, zone)
			for _, probe := range []*game.Position{withKo, without} {
				_, ok, _ := tb.Lookup(probe, &none, 0)
				if want := probe == stored; ok != want {
					t.Errorf("%s: stored ko %v, probe ko %v: hit %v, want %v", kind.name,
						stored.Ko(), probe.Ko(), ok, want)
				}
			}
		}
	}
}

// TestSymmetricLookup checks that a mirrored position hits only with
// symmetric lookups, and that the zone comes back mirrored (the images are
// written out by hand).
func TestSymmetricLookup(t *testing.T) {
	pr := killAllProblem(t, 7)
	rows := []string{
		"BW.....",
		".W.B...",
		"WW.....",
		".......",
		"...B...",
		".......",
		"......W",
	}
	stored := place(t, rows, game.Black)
	zone := pointsAt(stored, [2]int{0, 0}, [2]int{1, 0}, [2]int{0, 1}, [2]int{1, 1}, [2]int{0, 2})
	var none game.PointSet
	cases := []struct {
		name string
		rows []string
		zone game.PointSet
	}{
		{"columns flipped", []string{
			".....WB",
			"...B.W.",
			".....WW",
			".......",
			"...B...",
			".......",
			"W......",
		}, pointsAt(stored, [2]int{6, 0}, [2]int{5, 0}, [2]int{6, 1}, [2]int{5, 1}, [2]int{6, 2})},
		{"transposed", []string{
			"B.W....",
			"WWW....",
			".......",
			".B..B..",
			".......",
			".......",
			"......W",
		}, pointsAt(stored, [2]int{0, 0}, [2]int{0, 1}, [2]int{1, 0}, [2]int{1, 1}, [2]int{2, 0})},
		{"rotated half a turn", []string{
			"W......",
			".......",
			"...B...",
			".......",
			".....WW",
			"...B.W.",
			".....WB",
		}, pointsAt(stored, [2]int{6, 6}, [2]int{5, 6}, [2]int{6, 5}, [2]int{5, 5}, [2]int{6, 4})},
	}
	for _, kind := range tableKinds {
		for _, sym := range []bool{false, true} {
			opts := kind.opts
			opts.Symmetric = sym
			tb := kind.make(pr, opts)
			tb.Insert(stored, &none, zone)
			for _, c := range cases {
				probe := place(t, c.rows, game.Black)
				got, ok, _ := tb.Lookup(probe, &none, 0)
				if ok != sym {
					t.Errorf("%s sym=%v %s: hit %v, want %v", kind.name, sym, c.name, ok, sym)
				}
				if ok && got != c.zone {
					t.Errorf("%s %s: zone %v, want %v", kind.name, c.name, pointNames(probe, &got), pointNames(probe, &c.zone))
				}
			}
			if st := tb.Stats(); sym && (st.SymHits != int64(len(cases)) || st.Symmetries != 8) {
				t.Errorf("%s: %d symmetric hits over %d symmetries, want %d over 8", kind.name, st.SymHits, st.Symmetries, len(cases))
			}
		}
	}
}

// TestProblemSymmetries checks which symmetries a problem keeps: all eight
// on an open board, two when the region is a mirror-symmetric strip, one
// when a crucial stone breaks the mirror.
func TestProblemSymmetries(t *testing.T) {
	pr := killAllProblem(t, 7)
	if got := ProblemSymmetries(pr); len(got) != 8 || got[0] != game.Identity {
		t.Errorf("open board: %v, want all 8 with the identity first", got)
	}
	strip := *pr
	strip.Region = game.PointSet{}
	for x := 0; x < 7; x++ {
		strip.Region.Add(pr.Start.Point(x, 0)) // the top row: only the column flip keeps it
	}
	if got := ProblemSymmetries(&strip); !slices.Equal(got, []game.Symmetry{0, 1}) {
		t.Errorf("top row: %v, want [0 1]", got)
	}
	live := strip
	live.Start = place(t, []string{"W......", ".......", ".......", ".......", ".......", ".......", "......."}, game.Black)
	live.Crucial = pointsAt(live.Start, [2]int{0, 0})
	live.Goal[game.White], live.Goal[game.Black] = game.GoalLive, game.GoalKill
	if got := ProblemSymmetries(&live); !slices.Equal(got, []game.Symmetry{0}) {
		t.Errorf("crucial corner stone: %v, want [0]", got)
	}
}

// randomGamePositions plays random games (legal moves, a pass now and then)
// from the problem's start and returns every position reached.
func randomGamePositions(rng *rand.Rand, pr *game.Problem, games, moves int) []*game.Position {
	var out []*game.Position
	for g := 0; g < games; g++ {
		pos := pr.StartPosition()
		for m := 0; m < moves; m++ {
			legal := pos.LegalMoves(nil, nil)
			move := game.Pass
			if len(legal) > 0 && rng.IntN(10) > 0 {
				move = legal[rng.IntN(len(legal))]
			}
			if err := pos.Play(move); err != nil {
				panic(err)
			}
			out = append(out, pos.Copy())
		}
	}
	return out
}

// randomSubset keeps each point of set with probability p.
func randomSubset(rng *rand.Rand, set game.PointSet, p float64) game.PointSet {
	var out game.PointSet
	set.ForEach(func(q game.Point) {
		if rng.Float64() < p {
			out.Add(q)
		}
	})
	return out
}

// storedPattern is the oracle's copy of an insertion.
type storedPattern struct {
	pos            *game.Position
	standing, zone game.PointSet
	points         []game.Point // the zone's points
	stamp          uint64
}

// oracleZones returns the zones that a correct lookup may return: g(zone)
// for every stored pattern newer than since and every symmetry g under
// which the probe matches it, read point by point from the positions. The
// identity's zones come first, counted by nIdentity.
func oracleZones(stored []storedPattern, probe *game.Position, standing *game.PointSet, since uint64, syms []game.Symmetry) (zones []game.PointSet, nIdentity int) {
	b := &probe.Board
	for _, g := range syms {
		for i := range stored {
			e := &stored[i]
			if e.stamp <= since || e.pos.ToMove() != probe.ToMove() || b.Transform(g, e.pos.Ko()) != probe.Ko() {
				continue
			}
			ok := true
			for _, p := range e.points {
				q := b.Transform(g, p)
				if probe.At(q) != e.pos.At(p) || (e.standing.Has(p) && !standing.Has(q)) {
					ok = false
					break
				}
			}
			if ok {
				zones = append(zones, b.TransformSet(g, &e.zone))
			}
		}
		if g == game.Identity {
			nIdentity = len(zones)
		}
	}
	return zones, nIdentity
}

// TestTablesAgreeWithOracle runs randomized insert/lookup streams through
// the linear and the tree table, with and without timestamps and
// symmetric lookups: each lookup hits iff a point-by-point oracle finds a
// stored pattern newer than the caller's clock that matches, and returns
// one of the oracle's zones (an unmirrored one when there is one). So the
// tree finds a hit exactly when the linear table does.
func TestTablesAgreeWithOracle(t *testing.T) {
	inserts := 1200
	if testing.Short() {
		inserts = 400
	}
	pr := killAllProblem(t, 5)
	for _, ts := range []bool{false, true} {
		for _, sym := range []bool{false, true} {
			t.Run(fmt.Sprintf("timestamps=%v,symmetric=%v", ts, sym), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(21, uint64(len(fmt.Sprint(ts, sym)))))
				opts := TableOptions{NoTimestamps: !ts, Symmetric: sym}
				runOracleStream(t, rng, pr, opts, inserts)
			})
		}
	}
}

func runOracleStream(t *testing.T, rng *rand.Rand, pr *game.Problem, opts TableOptions, inserts int) {
	pool := randomGamePositions(rng, pr, 30, 30)
	tables := []rztTable{NewLinearTable(pr, opts), NewTreeTable(pr, opts)}
	syms := []game.Symmetry{game.Identity}
	if opts.Symmetric {
		syms = ProblemSymmetries(pr)
	}
	var stored []storedPattern
	var hits, misses, symHits int
	for i := 0; i < inserts; i++ {
		pos := pool[rng.IntN(len(pool))]
		whites := stonesOf(pos, game.White)
		sp := storedPattern{pos: pos, standing: randomSubset(rng, whites, 0.5),
			zone: randomRegion(rng, pos, 4+rng.IntN(10)), stamp: uint64(i + 1)}
		sp.points = sp.zone.Points()
		stored = append(stored, sp)
		for _, tb := range tables {
			tb.Insert(pos, &sp.standing, sp.zone)
		}
		for k := 0; k < 5; k++ {
			probe := pool[rng.IntN(len(pool))]
			standing := randomSubset(rng, stonesOf(probe, game.White), 0.8)
			since := uint64(rng.IntN(len(stored) + 1))
			oracleSince := since
			if opts.NoTimestamps {
				oracleSince = 0
			}
			zones, nIdentity := oracleZones(stored, probe, &standing, oracleSince, syms)
			for _, tb := range tables {
				zone, ok, now := tb.Lookup(probe, &standing, since)
				if now != uint64(len(stored)) {
					t.Fatalf("%s: clock %d after %d inserts", tb.Stats().Kind, now, len(stored))
				}
				if ok != (len(zones) > 0) {
					t.Fatalf("%s: lookup %d after %d inserts (since %d): hit %v, oracle finds %d matches\n%v",
						tb.Stats().Kind, k, len(stored), since, ok, len(zones), probe)
				}
				allowed := zones
				if nIdentity > 0 {
					allowed = zones[:nIdentity]
				}
				if ok && !slices.Contains(allowed, zone) {
					t.Fatalf("%s: returned zone %v is not one the oracle allows", tb.Stats().Kind, pointNames(probe, &zone))
				}
			}
			switch {
			case nIdentity > 0:
				hits++
			case len(zones) > 0:
				hits++
				symHits++
			default:
				misses++
			}
		}
	}
	for _, tb := range tables {
		st := tb.Stats()
		if st.Hits != int64(hits) || st.SymHits != int64(symHits) || st.Entries != inserts {
			t.Errorf("%s: %d hits (%d symmetric), %d entries; oracle %d (%d), %d", st.Kind, st.Hits, st.SymHits, st.Entries, hits, symHits, inserts)
		}
	}
	if hits < inserts/4 || misses < inserts/4 || (opts.Symmetric && symHits < 20) {
		t.Errorf("weak stream: %d hits (%d symmetric), %d misses", hits, symHits, misses)
	}
	t.Logf("%d hits (%d symmetric), %d misses; tree: %d nodes, OCI %v", hits, symHits, misses,
		tables[1].Stats().IndexSize, tables[1].Stats().OCI)
}

// TestRebuildSchedule checks the schedule of Section III-B-3: a rebuild
// (and a growth sample) every 100 entries up to 1,000, then each time the
// table has grown by 10%.
func TestRebuildSchedule(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pr := killAllProblem(t, 7)
	want := []int{100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1210, 1331, 1465}
	tb, _ := filledTable(t, rng, pr, 1500)
	var got []int
	for _, g := range tb.Stats().Growth {
		got = append(got, g.Entries)
	}
	if !slices.Equal(got, want) {
		t.Errorf("rebuilds at %v, want %v", got, want)
	}
	if st := tb.Stats(); st.Rebuilds == 0 || len(st.OCI) == 0 || len(st.OCI) > maxOCILevels {
		t.Errorf("%d rebuilds, OCI %v", st.Rebuilds, st.OCI)
	}
}

// TestChooseOCI checks the choice of the ordered crucial intersections:
// the hottest points until 80% of the zone occurrences are covered, ties
// in point order, at most 20.
func TestChooseOCI(t *testing.T) {
	cases := []struct {
		name   string
		counts map[game.Point]int64
		want   []game.Point
	}{
		{"80% in two points", map[game.Point]int64{12: 10, 10: 50, 13: 10, 11: 30}, []game.Point{10, 11}},
		{"just short of 80%", map[game.Point]int64{10: 50, 11: 29, 12: 11, 13: 10}, []game.Point{10, 11, 12}},
		{"ties in point order", map[game.Point]int64{14: 5, 12: 5, 13: 5, 11: 5, 10: 5}, []game.Point{10, 11, 12, 13}},
		{"at most 20 levels", func() map[game.Point]int64 {
			m := map[game.Point]int64{}
			for p := game.Point(20); p < 50; p++ {
				m[p] = 1
			}
			return m
		}(), func() []game.Point {
			var pts []game.Point
			for p := game.Point(20); p < 40; p++ {
				pts = append(pts, p)
			}
			return pts
		}()},
	}
	for _, c := range cases {
		ti := &treeIndex{counts: make([]int64, 64)}
		for p, n := range c.counts {
			ti.counts[p] = n
			ti.total += n
		}
		if got := ti.chooseOCI(); !slices.Equal(got, c.want) {
			t.Errorf("%s: OCI %v, want %v", c.name, got, c.want)
		}
	}
}

// TestTimestampSkip checks Section III-C-2 on each kind: after a failed
// lookup, a lookup with the returned clock costs one node visit and no
// comparison while nothing was inserted; after insertions it compares
// only what is new (the tree not even that when the new entry is for the
// other side to move), and it finds a new matching entry.
func TestTimestampSkip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pr := killAllProblem(t, 7)
	pool := randomGamePositions(rng, pr, 4, 20)
	probe := pool[len(pool)-1]
	var none game.PointSet
	all := probe.AllPoints()
	for _, kind := range tableKinds {
		if kind.opts.NoTimestamps {
			continue
		}
		tb := kind.make(pr, kind.opts)
		for _, pos := range pool[:len(pool)-1] {
			if pos.ToMove() == probe.ToMove() {
				tb.Insert(pos, &none, all) // whole-board patterns: never match the probe
			}
		}
		cost := func(since uint64) (int64, int64, bool, uint64) {
			before := tb.Stats()
			_, ok, now := tb.Lookup(probe, &none, since)
			after := tb.Stats()
			return after.NodeVisits - before.NodeVisits, after.Compares - before.Compares, ok, now
		}
		if _, c, ok, _ := cost(0); ok || c == 0 {
			t.Fatalf("%s: first lookup hit %v after %d compares", kind.name, ok, c)
		}
		_, _, _, now := cost(0)
		if v, c, ok, _ := cost(now); ok || v != 1 || c != 0 {
			t.Errorf("%s: repeated lookup: %d visits, %d compares, hit %v; want 1, 0, false", kind.name, v, c, ok)
		}
		other := pool[0]
		if other.ToMove() == probe.ToMove() {
			other = pool[1]
		}
		tb.Insert(other, &none, all)
		wantCompares := int64(1)
		if strings.HasPrefix(kind.name, "TR-TS") {
			wantCompares = 0
		}
		if _, c, ok, _ := cost(now); ok || c != wantCompares {
			t.Errorf("%s: after an entry for the other side: %d compares, want %d", kind.name, c, wantCompares)
		}
		var corner game.PointSet
		corner.Add(probe.Point(0, 0))
		tb.Insert(probe, &none, corner)
		if _, c, ok, _ := cost(now); !ok || c > 2 {
			t.Errorf("%s: after a matching entry: hit %v after %d compares, want a hit after at most 2", kind.name, ok, c)
		}
	}
}
