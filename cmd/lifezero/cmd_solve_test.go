package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"lifezero/datasets"
	"lifezero/evaluate"
	"lifezero/game"
	"lifezero/sgf"
)

// Hand-checked 5x5 problems, in file-name order. White's group on the top edge has the eye
// space aa, ba, ca (a straight three) or aa..da (a straight four), where
// alone moves may be played. A straight three lives or dies by who takes
// its middle point ba first; a straight four lives whoever starts, so with
// Black to play the side to play fails (first move tt).
var tinyProblems = []struct {
	file, text   string
	result, move string // the living side's result, the side to play's first move
	agrees       any    // true, or nil when the file names no winner
}{
	{"four-b.sgf", "(;FF[4]SZ[5]AB[ac][bc][cc][dc][ec]AW[ea][ab][bb][cb][db][eb]PL[B]TR[ab]MA[aa][ba][ca][da])",
		"win", "tt", nil},
	{"three-b.json", `{"id": "three-b", "sgf": "(;FF[4]SZ[5]AB[ea][eb][ac][bc][cc][dc][ec]AW[da][ab][bb][cb][db]PL[B])",
		"to_play": "B", "winner": "B", "goal": {"B": "kill", "W": "live"}, "ko": {"B": "allow_ko", "W": "disallow_ko"},
		"crucial_stones": "ab", "region": "aa,ba,ca", "answer_first_move": "ba",
		"paper_nodes": {"no_rzs": "-", "rzs": "40", "ftl": "-", "ftl_rzs": "9"}}`, "loss", "ba", true},
	{"three-w.json", `{"id": "three-w", "sgf": "(;FF[4]SZ[5]AB[ea][eb][ac][bc][cc][dc][ec]AW[da][ab][bb][cb][db]PL[W])",
		"to_play": "W", "winner": "W", "goal": {"B": "kill", "W": "live"}, "ko": {"B": "allow_ko", "W": "disallow_ko"},
		"crucial_stones": "ab", "region": "aa,ba,ca", "answer_first_move": "ba",
		"paper_nodes": {"no_rzs": "-", "rzs": "12", "ftl": "30", "ftl_rzs": "5"}}`, "win", "ba", true},
}

// tinyDir writes the tiny problems into <tmp>/tiny.
func tinyDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "tiny")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range tinyProblems {
		if err := os.WriteFile(filepath.Join(dir, p.file), []byte(p.text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestSolveJSON(t *testing.T) {
	dir := tinyDir(t)
	// search records the settings that ordered the search (the defaults:
	// one search of the mcts form is ldb-nakade without the FPU
	// reduction, a depth-first form ldb).
	search := map[string]string{"mcts": "depth_discount=0.9 fpu_reduction=0 safety=true proof_bonus=0.1", "dfs": "safety=true"}
	evaluator := map[string]string{"mcts": evaluate.EvaluatorLDBNakade, "dfs": evaluate.EvaluatorLDB}
	for _, algo := range []string{"mcts", "dfs"} {
		code, out, errs := lifezero(t, "solve", dir, "--json", "--budget", "5000", "--algo", algo, "--workers", "2")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", algo, code, errs)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != len(tinyProblems) {
			t.Fatalf("%s: %d lines, want %d:\n%s", algo, len(lines), len(tinyProblems), out)
		}
		for i, line := range lines {
			var got map[string]any
			if err := json.Unmarshal([]byte(line), &got); err != nil {
				t.Fatalf("%s: line %d: %v: %s", algo, i, err, line)
			}
			p := tinyProblems[i] // file-name order, the same as the table's
			want := map[string]any{"id": strings.TrimSuffix(p.file, filepath.Ext(p.file)), "set": "tiny", "result": p.result,
				"first_move": p.move, "algo": algo, "rz": true, "tt": true, "agrees": p.agrees, "living": "W", "budget": 5000.0,
				"evaluator": evaluator[algo], "table_hits": 0.0, "aborted": false, "search": search[algo]}
			for k, v := range want {
				if !reflect.DeepEqual(got[k], v) {
					t.Errorf("%s: %s: %s = %#v, want %#v", algo, want["id"], k, got[k], v)
				}
			}
			for _, k := range []string{"nodes", "seconds", "rz_size", "tt_hits", "winner"} {
				if _, ok := got[k]; !ok {
					t.Errorf("%s: %s: no %q in %s", algo, want["id"], k, line)
				}
			}
			if n := got["nodes"].(float64); n < 1 || n > 5000 {
				t.Errorf("%s: %s: %v nodes", algo, want["id"], n)
			}
			if rz := got["rz_size"].(float64); (rz > 0) != (p.result == "win") {
				t.Errorf("%s: %s: RZ of %v points for a %s", algo, want["id"], rz, p.result)
			}
		}
		if !strings.Contains(errs, "solved 3 of 3 (win 2, loss 1, unknown 0); 2 agree with the file's winner, 0 disagree") {
			t.Errorf("%s: summary on stderr:\n%s", algo, errs)
		}
	}
}

func TestSolveTable(t *testing.T) {
	dir := tinyDir(t)
	code, out, errs := lifezero(t, "solve", filepath.Join(dir, "three-b.json"), filepath.Join(dir, "four-b.sgf"), "--budget", "5000")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 {
		t.Fatalf("want header, 2 rows and 2 summary lines:\n%s", out)
	}
	for i, want := range [][]string{
		{"id", "set", "result", "move", "nodes", "seconds", "rz", "paper nodes"},
		{"three-b", "tiny", "loss", "ba", "-", "no_rzs=- rzs=40 ftl=- ftl_rzs=9"},
		{"four-b", "tiny", "win", "tt", "-"},
		{"solved 2 of 2 (win 1, loss 1, unknown 0); 1 agree with the file's winner, 0 disagree"},
		{" nodes in ", "nodes/s"},
	} {
		for _, w := range want {
			if !strings.Contains(lines[i], w) {
				t.Errorf("line %d lacks %q:\n%s", i, w, out)
			}
		}
	}
}

func TestSolveSGFAndDataset(t *testing.T) {
	dir := tinyDir(t)
	sgfDir := filepath.Join(t.TempDir(), "sgf")
	outDir := filepath.Join(t.TempDir(), "results")
	for run := 0; run < 2; run++ { // the second run replaces the first's outputs
		// --no-safety: with the judge's safety the straight four on the edge
		// (four-b) is alive at the root, and these trees are to hold moves
		// to replay.
		args := []string{"solve", dir, "--budget", "5000", "--sgf-dir", sgfDir, "--out", outDir, "--no-safety"}
		if run == 1 {
			args = append(args, "--overwrite")
		}
		code, _, errs := lifezero(t, args...)
		if code != 0 {
			t.Fatalf("run %d: exit %d: %s", run, code, errs)
		}
	}
	rows, m, err := evaluate.ReadSolveResults(context.Background(), outDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(tinyProblems) || m.Kind != "solve-results" || m.SchemaVersion != evaluate.SolveResultsSchemaVersion {
		t.Fatalf("%d rows, manifest %+v", len(rows), m)
	}
	for i, r := range rows {
		p := tinyProblems[i]
		if r.Result != p.result || r.FirstMove != p.move || r.Set != "tiny" || r.Size != 5 || r.Budget != 5000 ||
			r.Algo != "mcts" || !r.RZ || !r.TT || r.Evaluator != evaluate.DefaultEvaluator || r.Nodes <= 0 ||
			!strings.Contains(r.Search, "safety=false") {
			t.Errorf("row %d: %+v", i, r)
		}
	}
	if rows[2].Winner != "W" || rows[2].Answer != "ba" || rows[2].PaperNodes != `{"ftl":"30","ftl_rzs":"5","no_rzs":"-","rzs":"12"}` || rows[0].Winner != "" {
		t.Errorf("file columns: %+v / %+v", rows[2], rows[0])
	}
	sec, err := evaluate.ReadSection(outDir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sec.Markdown, "| three-w | W | win | yes | ba | ba |") || len(sec.Images) != 2 {
		t.Errorf("section (images %v):\n%s", sec.Images, sec.Markdown)
	}

	for _, p := range tinyProblems {
		id := strings.TrimSuffix(p.file, filepath.Ext(p.file))
		checkSolutionSGF(t, filepath.Join(sgfDir, id+".sgf"), p.result == "win")
	}
}

// checkSolutionSGF parses a written solution, checks its root position is
// the problem's, that won solutions mark zones with SQ, and replays every
// move of the tree on the game rules.
func checkSolutionSGF(t *testing.T, path string, won bool) {
	t.Helper()
	coll, err := sgf.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(coll) != 1 {
		t.Fatalf("%s: %d games", path, len(coll))
	}
	// The root alone (AB/AW, PL, TR) is the problem again; LoadProblem
	// would play the main line on it.
	rootOnly := filepath.Join(t.TempDir(), filepath.Base(path))
	if err := (sgf.Collection{{Properties: coll[0].Properties}}).WriteFile(rootOnly); err != nil {
		t.Fatal(err)
	}
	pr, err := game.LoadProblem(rootOnly)
	if err != nil {
		t.Fatal(err)
	}
	moves, squares := 0, 0
	var walk func(n *sgf.Node, pos *game.Position)
	walk = func(n *sgf.Node, pos *game.Position) {
		squares += len(n.GetAll("SQ"))
		for _, sq := range n.GetAll("SQ") {
			if _, err := pos.ParsePoint(sq); err != nil {
				t.Errorf("%s: SQ[%s]: %v", path, sq, err)
			}
		}
		for _, c := range n.Children {
			next := pos.Copy()
			for _, col := range []game.Color{game.Black, game.White} {
				v, ok := c.Get(col.String())
				if !ok {
					continue
				}
				m, err := next.ParsePoint(v)
				if err != nil {
					t.Fatalf("%s: move %s[%s]: %v", path, col, v, err)
				}
				if col != next.ToMove() {
					t.Errorf("%s: %s[%s] played out of turn", path, col, v)
				}
				if err := next.Play(m); err != nil {
					t.Errorf("%s: %s[%s] is illegal: %v", path, col, v, err)
				}
				moves++
			}
			walk(c, next)
		}
	}
	walk(coll[0], pr.StartPosition())
	if moves == 0 {
		t.Errorf("%s: no move in the solution tree", path)
	}
	if won && squares == 0 {
		t.Errorf("%s: a won problem without SQ zone marks", path)
	}
}

func TestSolveErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"id": "bad", "sgf": "(;SZ[5]`), 0o644); err != nil {
		t.Fatal(err)
	}
	badSGF := filepath.Join(dir, "bad.sgf")
	if err := os.WriteFile(badSGF, []byte("(;SZ[5]AB[zz])"), 0o644); err != nil {
		t.Fatal(err)
	}
	tiny := tinyDir(t)
	dup := filepath.Join(t.TempDir(), "other")
	if err := os.Mkdir(dup, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dup, "four-b.sgf"), []byte(tinyProblems[0].text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"solve", bad}, 1, []string{bad, "malformed JSON"}},
		{[]string{"solve", badSGF}, 1, []string{badSGF}},
		{[]string{"solve", dir}, 1, []string{bad}},
		{[]string{"solve", filepath.Join(dir, "missing.json")}, 1, []string{"missing.json", "no such file"}},
		{[]string{"solve"}, 2, []string{"at least one problem file"}},
		{[]string{"solve", tiny, "--algo", "bfs"}, 2, []string{`--algo "bfs": want mcts, dfs or dfpn`}},
		{[]string{"solve", tiny, "--evaluator", "net"}, 2, []string{`--evaluator "net"`}},
		{[]string{"solve", tiny, "--budget", "0"}, 2, []string{"--budget 0: must be positive"}},
		{[]string{"solve", tiny, "--workers", "0"}, 2, []string{"--workers 0"}},
		{[]string{"solve", tiny, "--timeout", "soon"}, 2, []string{"-timeout"}},
		{[]string{"solve", tiny, dup, "--sgf-dir", t.TempDir()}, 1, []string{"four-b.sgf", "would both be written"}},
	} {
		code, _, errs := lifezero(t, tt.args...)
		if code != tt.code {
			t.Errorf("%v: exit %d, want %d: %s", tt.args, code, tt.code, errs)
		}
		for _, w := range tt.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%v: stderr lacks %q:\n%s", tt.args, w, errs)
			}
		}
	}
}

func TestSolveCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // as after Ctrl-C
	var out, errb bytes.Buffer
	outDir := filepath.Join(t.TempDir(), "results")
	code := realMain(ctx, []string{"solve", tinyDir(t), "--out", outDir}, &out, &errb)
	if code != 1 || !strings.Contains(out.String(), "interrupted: 0 of 3 problems done") || !strings.Contains(errb.String(), "context canceled") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
	}
	if _, err := os.Stat(outDir); !os.IsNotExist(err) {
		t.Errorf("an interrupted run wrote %s (%v)", outDir, err)
	}
}

func TestSolveStage(t *testing.T) {
	dir := t.TempDir()
	tiny := tinyDir(t)
	if err := os.Rename(tiny, filepath.Join(dir, "tiny")); err != nil {
		t.Fatal(err)
	}
	pipeline := filepath.Join(dir, "pipeline.yaml")
	text := "name: t\nstages:\n  solve:\n    kind: solve\n    inputs: [tiny]\n    params: {budget: 3000, workers: 2}\n" +
		"  solve-dfs:\n    kind: solve\n    inputs: [tiny/three-w.json]\n    params: {algo: dfs, rz: false, evaluator: uniform, timeout: 1m}\n" +
		"  report:\n    kind: report\n    inputs: [stage:solve, stage:solve-dfs]\n"
	if err := os.WriteFile(pipeline, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(dir, "runs")
	code, out, errs := lifezero(t, "run", pipeline, "--workdir", work)
	if code != 0 || strings.Count(out, " ran") != 3 {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errs)
	}
	rows, _, err := evaluate.ReadSolveResults(context.Background(), filepath.Join(work, "solve"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || rows[0].FirstMove != "tt" || rows[1].Result != "loss" || rows[2].Result != "win" || rows[0].Budget != 3000 {
		t.Errorf("solve rows: %+v", rows)
	}
	dfs, _, err := evaluate.ReadSolveResults(context.Background(), filepath.Join(work, "solve-dfs"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dfs) != 1 || dfs[0].Algo != "dfs" || dfs[0].RZ || dfs[0].Evaluator != "uniform" || dfs[0].Result != "win" || dfs[0].Budget != 500000 {
		t.Errorf("solve-dfs rows: %+v", dfs)
	}
	report, err := os.ReadFile(filepath.Join(work, "report", "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Solving L&D problems", "### tiny", "| three-b | B | loss | yes | ba | ba |",
		"(solve-solve-nodes-tiny.png)", "(solve-solve-solved-tiny.png)", "(solve-dfs-solve-solved-tiny.png)"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	code, out, errs = lifezero(t, "run", pipeline, "--workdir", work)
	if code != 0 || strings.Count(out, " cached ") != 3 {
		t.Errorf("second run: exit %d, want 3 cached stages:\n%s\n%s", code, out, errs)
	}

	// Bad params are caught when the pipeline loads, at their line.
	bad := strings.Replace(text, "budget: 3000", "budget: 3000, algo: bfs", 1)
	if err := os.WriteFile(pipeline, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = lifezero(t, "run", pipeline, "--workdir", work)
	if code != 1 || !strings.Contains(errs, `pipeline.yaml:6: stage "solve": param "algo": "bfs": want mcts, dfs or dfpn`) {
		t.Errorf("bad algo: exit %d: %s", code, errs)
	}
	for _, tt := range []struct{ edit, want string }{
		{"budget: 3000, net_mode: fast", `param "net_mode": neteval: unknown value mode "fast"`},
		// A stage input gives a network; a solve-results dataset is no network.
		{"budget: 3000, workers: 2}\n  again:\n    kind: solve\n    inputs: [tiny, stage:solve]\n    params: {budget: 10",
			`input stage:solve is a "solve-results" dataset; solve reads problem paths, "network" and "tsumego-model" stages`},
		{"budget: 3000, workers: 2}\n  again:\n    kind: solve\n    inputs: [stage:solve]\n    params: {budget: 10",
			"no problem path"},
	} {
		bad := strings.Replace(text, "budget: 3000", tt.edit, 1)
		if err := os.WriteFile(pipeline, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errs = lifezero(t, "run", pipeline, "--workdir", work)
		if code != 1 || !strings.Contains(errs, tt.want) {
			t.Errorf("%s: exit %d, want an error with %q: %s", tt.edit, code, tt.want, errs)
		}
	}
}

// TestSolveOutputsCheckedFirst: every output location is checked before any
// solving: a dataset of another kind at --out is never replaced, one of
// the same kind only with --overwrite, and a file where a directory is
// expected or an unwritable folder is refused at once, with no problem
// solved (nothing on stdout).
func TestSolveOutputsCheckedFirst(t *testing.T) {
	tiny := tinyDir(t)
	tmp := t.TempDir()
	games := filepath.Join(tmp, "games")
	sgfFile := filepath.Join(tmp, "g.sgf")
	if err := os.WriteFile(sgfFile, []byte("(;FF[4]GM[1]SZ[9]DT[2010-01-01];B[ee];W[cc])"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := lifezero(t, "records", "import", "--out", games, sgfFile); code != 0 {
		t.Fatalf("records import: exit %d: %s", code, errs)
	}
	results := filepath.Join(tmp, "results")
	if code, _, errs := lifezero(t, "solve", tiny, "--budget", "2000", "--out", results); code != 0 {
		t.Fatalf("solve: exit %d: %s", code, errs)
	}
	file := filepath.Join(tmp, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	foreign := filepath.Join(tmp, "foreign")
	if err := os.MkdirAll(foreign, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(foreign, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--out", games}, 1, "--out " + games + " holds a games dataset; refusing to replace a dataset of another kind"},
		{[]string{"--out", games, "--overwrite"}, 1, "--out " + games + " holds a games dataset; refusing to replace"},
		{[]string{"--out", results}, 1, "--out " + results + " already holds a solve-results dataset (3 rows); add --overwrite to replace it"},
		{[]string{"--out", file}, 1, "--out " + file + ": exists and is not a directory"},
		{[]string{"--out", filepath.Join(file, "sub")}, 1, "--out " + filepath.Join(file, "sub") + ": cannot be created: " + file + " is not a directory"},
		{[]string{"--out", foreign}, 1, "--out " + foreign + ` holds "notes.txt", which is not a dataset file`},
		{[]string{"--sgf-dir", file}, 1, "--sgf-dir " + file + ": exists and is not a directory"},
		{[]string{"--sgf-dir", filepath.Join(file, "a", "b")}, 1, "--sgf-dir " + filepath.Join(file, "a", "b") + ": cannot be created"},
		{[]string{"--rzt", "tree", "--rzt-save", file}, 1, "--rzt-save " + file + ": exists and is not a directory"},
		{[]string{"--overwrite"}, 2, "--overwrite without --out"},
	} {
		args := append([]string{"solve", tiny, "--budget", "2000"}, tt.args...)
		code, out, errs := lifezero(t, args...)
		if code != tt.code || !strings.Contains(errs, tt.want) || out != "" {
			t.Errorf("%v: exit %d, want %d with %q and nothing solved\nstdout:\n%s\nstderr:\n%s", tt.args, code, tt.code, tt.want, out, errs)
		}
	}
	if m, err := datasets.ReadManifest(games); err != nil || m.Kind != "games" {
		t.Errorf("the games dataset: %+v, %v", m, err)
	}
	if code, _, errs := lifezero(t, "solve", tiny, "--budget", "2000", "--out", results, "--overwrite"); code != 0 {
		t.Errorf("--overwrite of a solve-results dataset: exit %d: %s", code, errs)
	}
}

// TestSolveReadOnlyOutputs: unwritable --out and --sgf-dir folders are
// refused before any solving.
func TestSolveReadOnlyOutputs(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into read-only folders (checked by hand with a read-only bind mount)")
	}
	tiny := tinyDir(t)
	ro := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(ro, 0o755)
	for _, tt := range []struct{ flag, dir, want string }{
		{"--out", ro, "--out " + ro + ": not writable"},
		{"--sgf-dir", ro, "--sgf-dir " + ro + ": not writable"},
		{"--out", filepath.Join(ro, "new"), "--out " + filepath.Join(ro, "new") + ": cannot be created"},
	} {
		code, out, errs := lifezero(t, "solve", tiny, "--budget", "2000", tt.flag, tt.dir)
		if code != 1 || !strings.Contains(errs, tt.want) || out != "" {
			t.Errorf("%s %s: exit %d, want 1 with %q and nothing solved\nstdout:\n%s\nstderr:\n%s", tt.flag, tt.dir, code, tt.want, out, errs)
		}
	}
}
