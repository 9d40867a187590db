package evaluate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lifezero/game"
)

// TestOwlProblems asks the real GNU Go about the problems the repository
// ships and checks its verdicts against the files' winners and book moves.
func TestOwlProblems(t *testing.T) {
	if _, err := os.Stat(DefaultGNUGo); err != nil {
		t.Skipf("%s not found (apt-get install -y gnugo): %v", DefaultGNUGo, err)
	}
	var tasks []SolveTask
	for _, set := range []string{"killall7x7", "cho19-dev"} {
		probs, err := game.LoadProblemDir(filepath.Join("..", "samples", "problems", set))
		if err != nil {
			t.Fatal(err)
		}
		for _, pr := range probs {
			tasks = append(tasks, SolveTask{Problem: pr, Set: set})
		}
	}
	var rows []OwlRow
	cfg := OwlConfig{Level: 10}
	if err := OwlProblems(context.Background(), tasks, cfg, func(r OwlRow) error { rows = append(rows, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(tasks) {
		t.Fatalf("%d rows for %d problems", len(rows), len(tasks))
	}
	for i, r := range rows {
		pr := tasks[i].Problem
		wantCmd := "owl_attack"
		if pr.Start.ToMove() == pr.Living() {
			wantCmd = "owl_defend"
		}
		if r.Command != wantCmd || r.Stones == "" || len(strings.Fields(r.Codes)) == 0 {
			t.Errorf("%s: command %q on %q (codes %q), want %s on the living side's stones", r.ID, r.Command, r.Stones, r.Codes, wantCmd)
		}
		if a, known := r.Agrees(); tasks[i].Set == "cho19-dev" && (!known || !a) {
			t.Errorf("cho19-dev %s: owl says the living side %ss, the file's winner is %s", r.ID, r.Verdict, r.Winner)
		}
	}
	// 001: owl finds the book's vital point (the papers' problem, B to live at sr).
	for _, r := range rows {
		if r.Set == "cho19-dev" && r.ID == "001" && (r.Move != "sr" || r.Answer != "sr") {
			t.Errorf("001: owl move %q, book %q, want sr", r.Move, r.Answer)
		}
	}
	out := t.TempDir()
	solves := []SolveStage{{Stage: "solve-x", Rows: []SolveRow{{ID: "001", Set: "cho19-dev", Result: ResultWin, Living: "B", Winner: "B", Nodes: 42, FirstMove: "sr", Answer: "sr"}}}}
	if err := WriteOwlSection(out, cfg, rows, solves); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSection(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| solve-x | 3 | 1 | 1 | 0 | 1 |", "| 001 | B | B | win | yes | sr | sr |", "win (42)"} {
		if !strings.Contains(s.Markdown, want) {
			t.Errorf("section lacks %q:\n%s", want, s.Markdown)
		}
	}
	if len(s.Images) != 1 {
		t.Errorf("images %v, want the bar chart", s.Images)
	}
}

func TestOwlErrors(t *testing.T) {
	pr, err := game.LoadProblem(filepath.Join("..", "samples", "problems", "cho19-dev", "001.json"))
	if err != nil {
		t.Fatal(err)
	}
	tasks := []SolveTask{{Problem: pr, Set: "cho19-dev"}}
	emit := func(OwlRow) error { return nil }
	for _, tc := range []struct {
		cfg  OwlConfig
		want string
	}{
		{OwlConfig{Level: 0}, "level 0"},
		{OwlConfig{Level: 5, GNUGo: filepath.Join(t.TempDir(), "no-gnugo")}, "no-gnugo"},
	} {
		if err := OwlProblems(context.Background(), tasks, tc.cfg, emit); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err %v, want one naming %q", tc.cfg, err, tc.want)
		}
	}
	for _, tc := range []struct {
		reply string
		ok    bool
	}{{"0", true}, {"1 S2", true}, {"3 PASS", true}, {"", false}, {"7 A1", false}, {"x", false}} {
		if _, _, err := parseOwlReply(tc.reply); (err == nil) != tc.ok {
			t.Errorf("parseOwlReply(%q): err %v", tc.reply, err)
		}
	}
}
