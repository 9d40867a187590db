package features

import (
	"testing"

	"lifezero/game"
)

// TestRealGamesAgainstRules extracts every legal move of positions from real
// 19x19 games and checks the features that the rules engine decides on its
// own: each candidate move is played on a copy of the position and the
// result compared with what extraction claimed without playing.
func TestRealGamesAgainstRules(t *testing.T) {
	max, minChecked := 2000, 20000
	if testing.Short() {
		max, minChecked = 600, 5000
	}
	recs := gameRecords(t, "2010-12.sgf", max)
	e := testExtractor(t, true)
	id := func(name string) int32 {
		i, ok := e.ID(name)
		if !ok {
			t.Fatalf("no feature %s", name)
		}
		return i
	}
	var out Moves
	checked := 0
	for ri, r := range recs {
		if ri%7 != 0 {
			continue
		}
		e.Extract(r.pos, r.history, &out)
		if out.Index(r.move) < 0 {
			t.Fatalf("record %d: the played move %s is not a candidate", ri, r.pos.GTPString(r.move))
		}
		dist := bruteCFG(r.pos, r.history.Last)
		for i := range out.Len() {
			m := out.Move(i)
			if m == game.Pass {
				continue
			}
			got := map[string]int32{} // group name -> id
			ids := out.Features(i)
			for k, f := range ids {
				g := e.Groups()[e.GroupOf(f)].Name
				if _, dup := got[g]; dup {
					t.Fatalf("record %d, %s: two features of group %s", ri, r.pos.GTPString(m), g)
				}
				if k > 0 && ids[k-1] >= f {
					t.Fatalf("record %d, %s: ids not increasing: %v", ri, r.pos.GTPString(m), ids)
				}
				got[g] = f
			}
			want := rulesTruth(r.pos, m)
			check := func(group string, wantID int32, present bool) {
				t.Helper()
				f, ok := got[group]
				if ok != present || (present && f != wantID) {
					t.Fatalf("record %d, %s: group %s has %q (present %v), rules say %q (present %v)\n%s",
						ri, r.pos.GTPString(m), group, e.Name(f), ok, e.Name(wantID), present, r.pos)
				}
			}
			check("kill", idKill+stoneBucket(want.killed), want.killed > 0)
			if want.killed > 0 {
				if _, ok := got["capture"]; !ok {
					t.Fatalf("record %d, %s: captures without a capture feature", ri, r.pos.GTPString(m))
				}
			} else if _, ok := got["capture"]; ok {
				t.Fatalf("record %d, %s: capture feature without a capture", ri, r.pos.GTPString(m))
			}
			check("self_atari", idSelfAtari+stoneBucket(want.blockSize), want.killed == 0 && want.libs == 1)
			_, atari := got["atari"]
			if atari != (want.ataried > 0) {
				t.Fatalf("record %d, %s: atari feature %v, rules say %d blocks put in atari", ri, r.pos.GTPString(m), atari, want.ataried)
			}
			if want.ataried >= 2 {
				check("double_atari", id("double_atari:atari"), true)
			}
			check("save", idSave+stoneBucket(want.saved), want.saved > 0)
			check("connect", idConnect2+int32(min(want.joined, 3)-2), want.joined >= 2)
			_, ext := got["extension"]
			if ext != (want.extends && want.killed == 0 && want.libs >= 2) {
				t.Fatalf("record %d, %s: extension feature %v, rules: extends %v, libs %d", ri, r.pos.GTPString(m), ext, want.extends, want.libs)
			}
			x, y := r.pos.XY(m)
			check("line", idLine+int32(min(x, y, 18-x, 18-y, 4)), true)
			if r.history.Last != game.NoPoint && r.history.Last != game.Pass {
				check("cfg_last", idCFGLast+int32(min(dist[m], 4)-1), true)
			}
			checkClosest(t, e, r.pos, m, got)
			checked++
		}
	}
	if checked < minChecked {
		t.Fatalf("checked only %d moves", checked)
	}
}

// truth is what the rules engine says about a move.
type truth struct {
	killed    int  // stones captured
	libs      int  // liberties of the move's block after the move
	blockSize int  // stones of that block
	ataried   int  // opponent blocks left with one liberty next to the move
	saved     int  // own stones in atari before, with two liberties or more after
	joined    int  // distinct own blocks next to the move
	extends   bool // the move touches an own block in atari
}

func rulesTruth(pos *game.Position, m game.Point) truth {
	me := pos.ToMove()
	var tr truth
	heads := map[game.Point]bool{}
	inAtari := map[game.Point]int{} // head -> stones, own blocks in atari
	for i := 0; i < pos.Cells(); i++ {
		p := game.Point(i)
		if pos.At(p) == me && pos.BlockHead(p) == p && pos.LibertyCount(p) == 1 {
			inAtari[p] = pos.BlockSize(p)
		}
	}
	for _, q := range pos.Neighbors(m) {
		if pos.At(q) == me && !heads[pos.BlockHead(q)] {
			heads[pos.BlockHead(q)] = true
			tr.joined++
			if inAtari[pos.BlockHead(q)] > 0 {
				tr.extends = true
			}
		}
	}
	after := pos.Copy()
	if err := after.Play(m); err != nil {
		panic(err) // m is a legal candidate
	}
	tr.killed = pos.CaptureCount(me, m)
	tr.libs = after.LibertyCount(m)
	tr.blockSize = after.BlockSize(m)
	seen := map[game.Point]bool{}
	for _, q := range after.Neighbors(m) {
		if after.At(q) == me.Opponent() && !seen[after.BlockHead(q)] {
			seen[after.BlockHead(q)] = true
			if after.LibertyCount(q) == 1 {
				tr.ataried++
			}
		}
	}
	for head, stones := range inAtari {
		if after.At(head) == me && after.LibertyCount(head) >= 2 {
			tr.saved += stones
		}
	}
	return tr
}

// bruteCFG computes common-fate-graph distances from the point from by
// relaxing edges until nothing changes: 0 between stones of one block, 1
// between any other neighbours. It is slow and independent of the
// extraction's breadth-first search.
func bruteCFG(pos *game.Position, from game.Point) []int {
	dist := make([]int, pos.Cells())
	for i := range dist {
		dist[i] = 1 << 20
	}
	if !pos.OnBoard(from) {
		return dist
	}
	dist[from] = 0
	for changed := true; changed; {
		changed = false
		for i := range dist {
			p := game.Point(i)
			if !pos.OnBoard(p) {
				continue
			}
			for _, q := range pos.Neighbors(p) {
				if !pos.OnBoard(q) {
					continue
				}
				w := 1
				if c := pos.At(p); c != game.Empty && c == pos.At(q) && pos.BlockHead(p) == pos.BlockHead(q) {
					w = 0
				}
				if dist[q]+w < dist[p] {
					dist[p] = dist[q] + w
					changed = true
				}
			}
		}
	}
	return dist
}

// checkClosest compares the closest-stone features with a scan of every
// stone.
func checkClosest(t *testing.T, e *Extractor, pos *game.Position, m game.Point, got map[string]int32) {
	t.Helper()
	mx, my := pos.XY(m)
	best := map[game.Color]int{game.Black: 1 << 20, game.White: 1 << 20}
	for i := 0; i < pos.Cells(); i++ {
		p := game.Point(i)
		if c := pos.At(p); c == game.Black || c == game.White {
			x, y := pos.XY(p)
			dx, dy := abs(x-mx), abs(y-my)
			best[c] = min(best[c], dx+dy+max(dx, dy))
		}
	}
	for group, c := range map[string]game.Color{"closest_own": pos.ToMove(), "closest_opp": pos.ToMove().Opponent()} {
		f, ok := got[group]
		want := best[c]
		if want == 1<<20 {
			if ok {
				t.Fatalf("%s: %s %q without such stones", pos.GTPString(m), group, e.Name(f))
			}
			continue
		}
		first, _ := e.ID(group + ":2")
		if !ok || f != first+int32(min(want, 20)-2) {
			t.Fatalf("%s: %s is %q, distance is %d", pos.GTPString(m), group, e.Name(f), want)
		}
	}
}
