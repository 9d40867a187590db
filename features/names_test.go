package features

import (
	"slices"
	"strings"
	"testing"
)

// TestFixedIDs pins fixed ids to names: these ids are a stable interface
// (saved models refer to them), so a change here must be deliberate.
func TestFixedIDs(t *testing.T) {
	e := testExtractor(t, false)
	for id, want := range map[int32]string{
		0:   "pass:new",
		1:   "pass:consecutive",
		2:   "capture:adj_atari",
		7:   "capture:ladder",
		8:   "extension:not_ladder",
		10:  "atari:ladder",
		12:  "atari:other",
		13:  "self_atari:1",
		19:  "self_atari:21+",
		20:  "double_atari:atari",
		22:  "ladder:save",
		24:  "ladder:self",
		25:  "save:1",
		32:  "kill:1",
		39:  "connect:2",
		41:  "cut:2",
		43:  "line:1",
		47:  "line:5+",
		48:  "dist_prev:2",
		63:  "dist_prev:17",
		64:  "dist_own_prev:0",
		65:  "dist_own_prev:2",
		81:  "cfg_last:1",
		84:  "cfg_last:4+",
		85:  "cfg_own:0",
		90:  "closest_own:2",
		108: "closest_own:20+",
		109: "closest_opp:2",
		127: "closest_opp:20+",
		128: "phase:0-49",
		139: "phase:550+",
	} {
		if got := e.Name(id); got != want {
			t.Errorf("id %d is %q, want %q", id, got, want)
		}
	}
	if numFixed != 140 {
		t.Errorf("%d fixed features, want 140", numFixed)
	}
}

func TestNamesAndGroups(t *testing.T) {
	for _, libs := range []bool{false, true} {
		e := testExtractor(t, libs)
		names := e.Names()
		if len(names) != e.NumFeatures() {
			t.Fatalf("%d names for %d features", len(names), e.NumFeatures())
		}
		seen := map[string]bool{}
		for id, n := range names {
			if seen[n] {
				t.Errorf("name %q repeats", n)
			}
			seen[n] = true
			if got, ok := e.ID(n); !ok || got != int32(id) {
				t.Errorf("ID(%q) = %d, %v; want %d", n, got, ok, id)
			}
		}
		// Groups tile the ids in order, and GroupOf agrees with them.
		next := int32(0)
		for gi, g := range e.Groups() {
			if g.First != next || g.Count < 0 || !g.Exclusive || g.Name == "" || g.Doc == "" {
				t.Errorf("group %d %+v does not follow id %d", gi, g, next)
			}
			for id := g.First; id < g.First+g.Count; id++ {
				if e.GroupOf(id) != gi {
					t.Errorf("GroupOf(%d) = %d, want %d (%s)", id, e.GroupOf(id), gi, g.Name)
				}
				if prefix := g.Name + ":"; len(names[id]) <= len(prefix) || names[id][:len(prefix)] != prefix {
					t.Errorf("id %d %q is not named after its group %s", id, names[id], g.Name)
				}
			}
			next = g.First + g.Count
		}
		if int(next) != e.NumFeatures() {
			t.Errorf("groups end at %d, features at %d", next, e.NumFeatures())
		}
		if e.Name(-1) != "" || e.Name(int32(e.NumFeatures())) != "" || e.GroupOf(-1) != -1 {
			t.Error("out-of-range ids must have no name and no group")
		}
	}
}

func TestWriteList(t *testing.T) {
	e := testExtractor(t, false)
	var sb strings.Builder
	if err := e.WriteList(&sb, false); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(sb.String(), "\n"), "\n")
	if len(lines) != e.NumFeatures()+1 || lines[0] != "id\tgroup\tname" {
		t.Fatalf("%d lines starting %q, want a header and %d features", len(lines), lines[0], e.NumFeatures())
	}
	for _, want := range []string{"0\tpass\tpass:new", "43\tline\tline:1", "48\tdist_prev\tdist_prev:2", "10\tatari\tatari:ladder"} {
		if !slices.Contains(lines, want) {
			t.Errorf("list lacks %q", want)
		}
	}
	sb.Reset()
	if err := e.WriteList(&sb, true); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sb.String(), "\t\t  . . .\n\t\t  . * .\n\t\t  . . .\n") {
		t.Error("described list lacks the empty 3x3 pattern")
	}
	sb.Reset()
	if err := e.WriteGroups(&sb); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sb.String(), "43\t5\tline\t") {
		t.Errorf("groups list lacks the line group:\n%s", sb.String())
	}
}
