package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lifezero/evaluate"
)

// TestBenchmarkStages runs the owl and rzt stages beside a solve on the
// shipped problems and checks their data, the report and its HTML page.
func TestBenchmarkStages(t *testing.T) {
	if _, err := os.Stat(evaluate.DefaultGNUGo); err != nil {
		t.Skipf("%s not found (apt-get install -y gnugo): %v", evaluate.DefaultGNUGo, err)
	}
	dir := t.TempDir()
	probs, err := filepath.Abs(filepath.Join("..", "..", "samples", "problems"))
	if err != nil {
		t.Fatal(err)
	}
	sets := "[" + filepath.Join(probs, "killall7x7") + ", " + filepath.Join(probs, "cho19-dev") + "]"
	text := "name: b\nstages:\n" +
		"  solve:\n    kind: solve\n    inputs: " + sets + "\n    params: {budget: 3000}\n" +
		"  owl:\n    kind: owl\n    inputs: [" + filepath.Join(probs, "cho19-dev") + ", stage:solve]\n" +
		"  rzt:\n    kind: rzt\n    inputs: " + sets + "\n    params: {budget: 3000}\n" +
		"  report:\n    kind: report\n    inputs: [stage:solve, stage:owl, stage:rzt]\n"
	pipeline := filepath.Join(dir, "benchmark.yaml")
	if err := os.WriteFile(pipeline, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(dir, "runs")
	code, out, errs := lifezero(t, "run", pipeline, "--workdir", work)
	if code != 0 || strings.Count(out, " ran") != 4 {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errs)
	}
	var owl []evaluate.OwlRow
	readJSON(t, filepath.Join(work, "owl", "owl.json"), &owl)
	if len(owl) != 3 || owl[0].ID != "001" || owl[0].Command != "owl_defend" {
		t.Errorf("owl rows %+v", owl)
	}
	var rzt []evaluate.RZTRow
	readJSON(t, filepath.Join(work, "rzt", "rzt.json"), &rzt)
	if len(rzt) != 6 || len(rzt[0].Tables) != 4 || rzt[0].Paper["sims_with_rzt"] != "277" {
		t.Errorf("rzt rows %+v", rzt)
	}
	report, err := os.ReadFile(filepath.Join(work, "report", "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## GNU Go owl baseline", "| solve | 3 |", "## RZ pattern table (paper 000)", "Table III", "Table IV", "(rzt-rzt-cost-killall7x7.png)"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	page, err := os.ReadFile(filepath.Join(work, "report", evaluate.ReportHTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(page), "<table>"); n < 8 || !strings.Contains(string(page), `<img src="data:image/png;base64,`) {
		t.Errorf("report.html: %d tables, images inlined: %v", n, strings.Contains(string(page), "data:image/png"))
	}
	code, out, errs = lifezero(t, "run", pipeline, "--workdir", work)
	if code != 0 || strings.Count(out, " cached ") != 4 {
		t.Errorf("second run: exit %d, want 4 cached stages:\n%s\n%s", code, out, errs)
	}
	bad := strings.Replace(text, "kind: owl\n", "kind: owl\n    params: {level: 11}\n", 1)
	if err := os.WriteFile(pipeline, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := lifezero(t, "run", pipeline, "--workdir", work); code != 1 || !strings.Contains(errs, `param "level": 11: want 1..10`) {
		t.Errorf("level 11: exit %d: %s", code, errs)
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
