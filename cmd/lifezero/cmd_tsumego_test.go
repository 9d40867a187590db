package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lifezero/evaluate"
	gm "lifezero/game"
	"lifezero/tsumego"
)

func TestTsumegoTrain(t *testing.T) {
	out := filepath.Join(t.TempDir(), "model")
	code, stdout, stderr := lifezero(t, "tsumego", "train", "--folds", "2", "--iterations", "5", "--out", out,
		"--exclude", "../../samples/problems/cho19-dev", "../../samples/tsumego/cho-elementary")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "tsumego: 300 problems") || !strings.Contains(stdout, "2-fold cross-validation: top-1") {
		t.Errorf("stdout:\n%s", stdout)
	}
	if _, meta, err := tsumego.LoadRanker(out); err != nil || meta.Problems+len(meta.Excluded) != 300 || meta.Folds != 2 {
		t.Errorf("model: %+v, %v", meta, err)
	}
	// The model orders a portfolio's searches beside a second one (here
	// the same model again), and a proof names the member's model.
	tiny := tinyDir(t)
	code, stdout, stderr = lifezero(t, "solve", "--json", "--portfolio", "2", "--threads", "2",
		"--features-model", out, "--portfolio-features-model", out, tiny)
	if code != 0 || !strings.Contains(stdout, `ranker=`) {
		t.Errorf("solve with two models: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// The searches learn from their proofs with --online, which needs the
	// model whose priors it corrects.
	code, stdout, stderr = lifezero(t, "solve", "--json", "--online", "--features-model", out, tiny)
	if code != 0 || !strings.Contains(stdout, `online=true`) {
		t.Errorf("solve online: exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, _, stderr = lifezero(t, "solve", "--online", tiny)
	if code != 2 || !strings.Contains(stderr, "--online true: the search learns corrections of a features model's priors, and none is given") {
		t.Errorf("online without a model: exit %d\n%s", code, stderr)
	}
	code, _, stderr = lifezero(t, "solve", "--features-model", out, "--portfolio-features-model", out, tiny)
	if code == 0 || !strings.Contains(stderr, "--portfolio-features-model") || !strings.Contains(stderr, "portfolio of 2 or more") {
		t.Errorf("second model without a portfolio: exit %d\n%s", code, stderr)
	}

	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "broken.sgf"), []byte("(;SZ[19]AB[aa"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--folds", "1", "--out", out, "x"}, 2, "--folds 1: want at least 2"},
		{[]string{"../../samples/tsumego/cho-elementary"}, 2, "--out DIR is required"},
		{[]string{"--out", out, filepath.Join(bad, "none")}, 1, "no such file or directory"},
		{[]string{"--out", out, bad}, 1, "broken.sgf"},
		{[]string{"--out", out, "--exclude", filepath.Join(bad, "none"), "../../samples/tsumego/cho-elementary"}, 1, "--exclude"},
		{[]string{"--out", out, "--killall", "-1", "x"}, 2, "killall"},
		{[]string{"--out", out, "--proof-model", out, "x"}, 2, "--proof-model goes with --proofs N, --killall N or --variations N"},
		{[]string{"--out", out, "--samples-from", filepath.Join(bad, "broken.sgf"), "../../samples/tsumego/cho-elementary"}, 1, "--samples-from"},
	} {
		code, _, stderr := lifezero(t, append([]string{"tsumego", "train"}, tt.args...)...)
		if code != tt.code || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, want %d with %q: %s", tt.args, code, tt.code, tt.want, stderr)
		}
	}
}

// TestTsumegoStageParams: bad params are caught when the pipeline loads, at
// their line.
func TestTsumegoStageParams(t *testing.T) {
	dir := t.TempDir()
	pipeline := filepath.Join(dir, "pipeline.yaml")
	text := "name: t\nstages:\n  tsumego:\n    kind: tsumego-train\n    inputs: [x]\n    params: {folds: 1}\n"
	if err := os.WriteFile(pipeline, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := lifezero(t, "run", pipeline, "--workdir", filepath.Join(dir, "runs"))
	if code != 1 || !strings.Contains(stderr, `pipeline.yaml:6: stage "tsumego": param "folds": 1: want at least 2`) {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

// TestTsumegoTrainSamples: --killall labels random kill-all positions by
// proof and saves them beside the model; --samples-from fits them again
// without proving; a model trained without extra samples leaves no stale
// samples file behind; a file's sample from a problem not trained on is
// refused by name.
func TestTsumegoTrainSamples(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	book := "../../samples/tsumego/cho-elementary"
	run := func(args ...string) string {
		t.Helper()
		code, stdout, stderr := lifezero(t, append([]string{"tsumego", "train", "--folds", "2", "--iterations", "5"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s\n%s", args, code, stdout, stderr)
		}
		return stdout
	}
	out := run("--killall", "12", "--out", a, book)
	_, metaA, err := tsumego.LoadRanker(a)
	if err != nil {
		t.Fatal(err)
	}
	samples, err := tsumego.LoadSamples(filepath.Join(a, tsumego.SamplesFile))
	if err != nil {
		t.Fatal(err)
	}
	if metaA.ProofSamples == 0 || len(samples) != metaA.ProofSamples || !strings.Contains(out, "positions labelled by the solver's proofs") {
		t.Fatalf("meta says %d samples, the file holds %d:\n%s", metaA.ProofSamples, len(samples), out)
	}
	run("--samples-from", filepath.Join(a, tsumego.SamplesFile), "--out", b, book)
	if _, metaB, err := tsumego.LoadRanker(b); err != nil || metaB.ProofSamples != metaA.ProofSamples {
		t.Errorf("refitted from the file: %d samples (%v), want %d", metaB.ProofSamples, err, metaA.ProofSamples)
	}
	// A measured position holding a sample's stones leaves the sample out,
	// and the model's meta and the summary count it.
	measured := filepath.Join(dir, "measured.json")
	writeSampleProblem(t, samples[0], measured)
	out = run("--samples-from", filepath.Join(a, tsumego.SamplesFile), "--exclude", measured, "--out", b, book)
	if _, metaB, err := tsumego.LoadRanker(b); err != nil || metaB.ProofSamplesExcluded < 1 ||
		metaB.ProofSamples+metaB.ProofSamplesExcluded != metaA.ProofSamples ||
		!strings.Contains(out, fmt.Sprintf("(%d left out as overlapping measured positions)", metaB.ProofSamplesExcluded)) {
		t.Errorf("with %s measured: %+v (%v), want sample 1 left out of %d and counted:\n%s", measured, metaB, err, metaA.ProofSamples, out)
	}
	run("--out", a, book)
	if _, err := os.Stat(filepath.Join(a, tsumego.SamplesFile)); !os.IsNotExist(err) {
		t.Errorf("a model trained without samples kept the old samples file (%v)", err)
	}

	samples[0].From = "not-a-problem"
	bad := filepath.Join(dir, "bad.sgf")
	if err := tsumego.SaveSamples(bad, samples[:1]); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := lifezero(t, "tsumego", "train", "--folds", "2", "--out", b, "--samples-from", bad, book)
	if code != 1 || !strings.Contains(stderr, bad+": game 1 comes from \"not-a-problem\"") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

// writeSampleProblem writes a kill-all problem file whose position is the
// sample's (its setup, without the labelled move).
func writeSampleProblem(t *testing.T, s tsumego.Problem, path string) {
	t.Helper()
	one := path + ".sgf"
	if err := tsumego.SaveSamples(one, []tsumego.Problem{s}); err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(one)
	if err != nil {
		t.Fatal(err)
	}
	game := strings.TrimSpace(string(text))
	game = game[:strings.LastIndex(game, ";")] + ")" // drop the labelled move
	toPlay := "B"
	if s.Position.ToMove() == gm.White {
		toPlay = "W"
	}
	p := map[string]any{
		"id": "measured", "sgf": game, "to_play": toPlay, "winner": "W",
		"goal": map[string]string{"B": "kill_all", "W": "live_any"},
		"ko":   map[string]string{"B": "allow_ko", "W": "disallow_ko"},
	}
	data, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestTsumegoStageSamplesInput: a tsumego-train stage given an earlier
// one's output fits that model's proof-labelled positions again without
// proving (the stage form of --samples-from); an earlier model fitted
// without such positions is refused by name.
func TestTsumegoStageSamplesInput(t *testing.T) {
	dir := t.TempDir()
	book, _ := filepath.Abs("../../samples/tsumego/cho-elementary")
	pipeline := filepath.Join(dir, "pipeline.yaml")
	text := fmt.Sprintf(`name: t
stages:
  first:
    kind: tsumego-train
    inputs: [%[1]s]
    params: {folds: 2, iterations: 5, killall: 12}
  again:
    kind: tsumego-train
    inputs: [%[1]s, "stage:first"]
    params: {folds: 2, iterations: 5}
  plain:
    kind: tsumego-train
    inputs: [%[1]s]
    params: {folds: 2, iterations: 5}
  both:
    kind: solve
    inputs: [%[2]s, "stage:first", "stage:plain"]
    params: {budget: 2000, portfolio: 2, threads: 2}
`, book, tinyDir(t))
	if err := os.WriteFile(pipeline, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(dir, "runs")
	code, out, errs := lifezero(t, "run", pipeline, "--workdir", work)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	_, first, err := tsumego.LoadRanker(filepath.Join(work, "first"))
	if err != nil {
		t.Fatal(err)
	}
	_, again, err := tsumego.LoadRanker(filepath.Join(work, "again"))
	if err != nil {
		t.Fatal(err)
	}
	if first.ProofSamples == 0 || again.ProofSamples != first.ProofSamples {
		t.Errorf("stage:first's %d proof samples, fitted again: %d", first.ProofSamples, again.ProofSamples)
	}
	// Two models given to a solve stage alternate among its portfolio's
	// members (the solve-results dataset does not keep which member
	// proved a problem: the log says which model orders which members).
	if !strings.Contains(errs, `model=first as="features model"`) || !strings.Contains(errs, `model=plain as="the portfolio's second model"`) {
		t.Errorf("stage both's log does not name both models:\n%s", errs)
	}
	rows, _, err := evaluate.ReadSolveResults(context.Background(), filepath.Join(work, "both"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 {
		t.Errorf("stage both: %d rows, want 3", len(rows))
	}
	for _, r := range rows {
		if agrees, known := r.Agrees(); known && !agrees {
			t.Errorf("stage both: %s: %s against the winner %s", r.ID, r.Result, r.Winner)
		}
		if r.Evaluator != "ldb+tsumego/plain" {
			t.Errorf("stage both: %s: evaluator recorded as %q", r.ID, r.Evaluator)
		}
	}

	bad := strings.Replace(text, `"stage:first"`, `"stage:plain"`, 1)
	if err := os.WriteFile(pipeline, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = lifezero(t, "run", pipeline, "--workdir", work)
	if code == 0 || !strings.Contains(errs, "input stage:plain: its model was fitted without proof-labelled positions") {
		t.Errorf("a model without samples as input: exit %d: %s", code, errs)
	}
	for _, tt := range []struct{ from, to, want string }{
		{`{budget: 2000, portfolio: 2, threads: 2}`, `{budget: 2000}`,
			`input stage:plain: portfolio_features_model: a second model alternates with the first`},
		{`"stage:first", "stage:plain"]`, `"stage:first", "stage:plain", "stage:again"]`,
			`input stage:again: a third "tsumego-model" input`},
	} {
		if err := os.WriteFile(pipeline, []byte(strings.Replace(text, tt.from, tt.to, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errs := lifezero(t, "run", pipeline, "--workdir", work)
		if code == 0 || !strings.Contains(errs, tt.want) {
			t.Errorf("%s: exit %d, want an error with %q: %s", tt.to, code, tt.want, errs)
		}
	}
}
