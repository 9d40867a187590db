package evaluate

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"lifezero/game"
)

// TestRZTProblems solves a shipped kill-all problem without and with the
// table and checks the four settings against each other and the solve
// with the table against an ordinary solve (SolveProblems, tree table).
func TestRZTProblems(t *testing.T) {
	pr, err := game.LoadProblem(filepath.Join("..", "samples", "problems", "killall7x7", "01.json"))
	if err != nil {
		t.Fatal(err)
	}
	tasks := []SolveTask{{Problem: pr, Set: "killall7x7"}}
	cfg := SolveConfig{Budget: 20000}
	var rows []RZTRow
	if err := RZTProblems(context.Background(), tasks, cfg, func(r RZTRow) error { rows = append(rows, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || len(rows[0].Tables) != 4 {
		t.Fatalf("rows %+v", rows)
	}
	r := rows[0]
	var plain []Solved
	withTable := cfg
	withTable.RZT = RZTTree
	if err := SolveProblems(context.Background(), tasks, withTable, func(s Solved) error { plain = append(plain, s); return nil }); err != nil {
		t.Fatal(err)
	}
	if r.With.Result != plain[0].Row.Result || r.With.Nodes != plain[0].Row.Nodes {
		t.Errorf("with the table: %+v, an ordinary solve with the tree table: %s in %d nodes", r.With, plain[0].Row.Result, plain[0].Row.Nodes)
	}
	if r.With.Result != ResultWin || r.Without.Result != ResultWin {
		t.Errorf("01 is solved within 20,000 nodes with and without the table: %+v / %+v", r.Without, r.With)
	}
	tr := r.Tables[0]
	if tr.Kind != "TR-TS" || tr.Lookups == 0 || tr.Hits == 0 {
		t.Errorf("TR-TS stats %+v", tr)
	}
	for _, st := range r.Tables[1:] {
		if st.Entries != tr.Entries || st.Lookups != tr.Lookups || st.Hits != tr.Hits {
			t.Errorf("%s: %d entries, %d lookups, %d hits; TR-TS %d, %d, %d", st.Kind, st.Entries, st.Lookups, st.Hits, tr.Entries, tr.Lookups, tr.Hits)
		}
	}
	// Timestamps only skip work; the list costs more than the tree.
	if !(tr.Cost < r.Tables[1].Cost && r.Tables[2].Cost < r.Tables[3].Cost && tr.Cost < r.Tables[2].Cost) {
		t.Errorf("costs TR-TS %d, TR-NT %d, LR-TS %d, LR-NT %d", tr.Cost, r.Tables[1].Cost, r.Tables[2].Cost, r.Tables[3].Cost)
	}
	out := t.TempDir()
	if err := WriteRZTSection(out, "settings.", rows); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSection(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.Markdown, "Table III") || !strings.Contains(s.Markdown, "| 01 | "+strconv.FormatInt(r.Without.Nodes, 10)+" | "+strconv.FormatInt(r.With.Nodes, 10)+" |") || len(s.Images) != 1 {
		t.Errorf("section (images %v):\n%s", s.Images, s.Markdown)
	}
}
