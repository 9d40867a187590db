package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lifezero/datasets"
	"lifezero/evaluate"
	"lifezero/featmodel"
	"lifezero/movecands"
)

// buildSampleCands builds movecands data from the bundled sample games with
// the command line: 12 games of the given month, 6 positions each.
func buildSampleCands(t *testing.T, dir, month string, extra ...string) {
	t.Helper()
	args := append([]string{"features", "build", "--out", dir, "--from-date", month, "--to-date", month,
		"--max-games", "12", "--positions-per-game", "6", "--seed", "3"}, extra...)
	args = append(args, "../../samples/games")
	code, out, errs := lifezero(t, args...)
	if code != 0 {
		t.Fatalf("features build: exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(out, "built 72 positions") || !strings.Contains(out, "from 12 of 12 sampled games") {
		t.Errorf("features build summary:\n%s", out)
	}
}

func TestFeaturesBuildTrainMovepred(t *testing.T) {
	work := t.TempDir()
	trainDir, validDir := filepath.Join(work, "train"), filepath.Join(work, "valid")
	buildSampleCands(t, trainDir, "2009-12", "--learn-diamonds", "3", "--learn-shapes", "3")
	buildSampleCands(t, validDir, "2010-01", "--features", trainDir)
	for _, c := range []struct{ dir, prefix string }{{trainDir, "2009-12-"}, {validDir, "2010-01-"}} {
		_, err := datasets.ForEachMoveCands(context.Background(), c.dir, func(r *datasets.MoveCands) error {
			if !strings.HasPrefix(r.Date, c.prefix) {
				t.Fatalf("%s holds a position of a game dated %s", c.dir, r.Date)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	d, err := movecands.Open(trainDir, validDir)
	if err != nil {
		t.Fatalf("the validation data must share the training feature set: %v", err)
	}
	if cfg := d.Features().Config(); len(cfg.Diamonds) == 0 || len(cfg.Shapes) == 0 {
		t.Errorf("learned %d diamonds and %d shapes; want some of each", len(cfg.Diamonds), len(cfg.Shapes))
	}

	var weights []string
	for _, model := range []string{"bt", "lfr", "fbt"} {
		w := filepath.Join(work, model+".weights")
		args := []string{"features", "train", "--model", model, "--data", trainDir, "--out", w, "--epochs", "2", "--factors", "4"}
		if model == "lfr" {
			args = append(args, "--sampling", "warp")
		}
		if model == "fbt" {
			args = append(args, "--no-in-memory", "--shuffle-buffer", "5")
		}
		code, out, errs := lifezero(t, args...)
		if code != 0 {
			t.Fatalf("features train %s: exit %d\n%s\n%s", model, code, out, errs)
		}
		if model == "lfr" && !strings.Contains(out, "WARP sampling") {
			t.Errorf("features train lfr --sampling warp does not say it samples by WARP:\n%s", out)
		}
		if model == "fbt" && !strings.Contains(out, "streamed: files in random order, shuffle buffer 5") {
			t.Errorf("features train fbt --no-in-memory --shuffle-buffer 5 does not say how it streamed:\n%s", out)
		}
		if !strings.Contains(out, "trained "+model+" on 72 positions") || !strings.Contains(out, "2 epochs") {
			t.Errorf("features train %s:\n%s", model, out)
		}
		m, err := featmodel.LoadModel(w)
		if err != nil {
			t.Fatal(err)
		}
		if m.Name() != model {
			t.Errorf("%s holds a %s model", w, m.Name())
		}
		if st, err := os.Stat(filepath.Join(work, model+"-loss.png")); err != nil || st.Size() == 0 {
			t.Errorf("loss plot of %s: %v", model, err)
		}
		weights = append(weights, w)
	}

	checkWarmStart(t, trainDir, work, weights)

	args := []string{"movepred", "--data", validDir, "--random", "--json", "--frequencies"}
	for _, w := range weights {
		args = append(args, "--model", w)
	}
	code, out, errs := lifezero(t, args...)
	if code != 0 {
		t.Fatalf("movepred: exit %d\n%s\n%s", code, out, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var players []string
	for _, l := range lines {
		var r struct {
			Player    string    `json:"player"`
			Positions int       `json:"positions"`
			Top1      float64   `json:"top1"`
			Top5      float64   `json:"top5"`
			TopK      []float64 `json:"top_k"`
			Features  []any     `json:"features"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("movepred --json line %q: %v", l, err)
		}
		if r.Positions != 72 || r.Top1 < 0 || r.Top5 < r.Top1 || r.Top5 > 1 || len(r.TopK) < 5 || len(r.Features) == 0 {
			t.Errorf("result %s", l)
		}
		players = append(players, r.Player)
	}
	if strings.Join(players, ",") != "bt,lfr,fbt,random" {
		t.Errorf("players %v", players)
	}
	reportDir := filepath.Join(work, "rep")
	code, out, _ = lifezero(t, "movepred", "--data", validDir, "--model", weights[0], "--model", weights[0], "--report", reportDir)
	if code != 0 || !strings.Contains(out, "bt(bt.weights)") || !strings.Contains(out, "top-1 per game phase") {
		t.Errorf("movepred tables, one model twice: exit %d\n%s", code, out)
	}
	sec, err := evaluate.ReadSection(reportDir)
	if err != nil || !strings.Contains(sec.Markdown, "| bt(bt.weights) | 72 |") || len(sec.Images) != 1 {
		t.Errorf("movepred --report: %v\n%+v", err, sec)
	}

	// A model of another feature set is refused.
	other := filepath.Join(work, "other")
	buildSampleCands(t, other, "2010-01", "--no-pattern3-liberties")
	code, _, errs = lifezero(t, "movepred", "--data", other, "--model", weights[0])
	if code != 1 || !strings.Contains(errs, "trained on another feature set") {
		t.Errorf("model of another feature set: exit %d: %s", code, errs)
	}
}

func TestMovepredCommandErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"features", "build", "x.sgf"}, "--out DIR is required"},
		{[]string{"features", "build", "--out", "x"}, "at least one games dataset"},
		{[]string{"features", "build", "--out", "x", "--from-date", "2010-1", "y"}, `--from-date "2010-1"`},
		{[]string{"features", "train", "--data", "x", "--out", "y"}, "--model bt|lfr|fbt is required"},
		{[]string{"features", "train", "--model", "svm", "--data", "x", "--out", "y"}, `"svm": want bt, lfr or fbt`},
		{[]string{"features", "train", "--model", "bt", "--out", "y"}, "--data DATASET is required"},
		{[]string{"features", "train", "--model", "lfr", "--sampling", "hard", "--data", "x", "--out", "y"}, `--sampling "hard": want uniform, softmax or warp`},
		{[]string{"features", "train", "--model", "fbt", "--shuffle-buffer", "-1", "--data", "x", "--out", "y"}, `--shuffle-buffer must not be negative`},
		{[]string{"features", "frobnicate"}, "want: list, build or train"},
		{[]string{"movepred", "--data", "x"}, "--model WEIGHTS or --random"},
		{[]string{"movepred", "--random"}, "--data DATASET is required"},
	} {
		code, _, errs := lifezero(t, tt.args...)
		if code != 2 || !strings.Contains(errs, tt.want) {
			t.Errorf("lifezero %v: exit %d, stderr\n%s\nwant exit 2 and %q", tt.args, code, errs, tt.want)
		}
	}
}

// TestMovePredStages runs a small pipeline of the feature-knowledge stage
// kinds over the bundled samples.
func TestMovePredStages(t *testing.T) {
	work := t.TempDir()
	samples, err := filepath.Abs("../../samples/games")
	if err != nil {
		t.Fatal(err)
	}
	pipeline := `name: fk
stages:
  games:
    kind: records-import
    inputs: [` + samples + `]
  train:
    kind: movecands
    inputs: [stage:games]
    params: {from_date: "2009", to_date: "2009", max_games: 10, positions_per_game: 5, learn_diamonds: 3, learn_shapes: 3}
  valid:
    kind: movecands
    inputs: [stage:games, stage:train]
    params: {from_date: "2010", max_games: 10, positions_per_game: 5}
  bt:
    kind: features-train
    inputs: [stage:train]
    params: {model: bt, epochs: 3}
  fbt:
    kind: features-train
    inputs: [stage:train]
    params: {model: fbt, epochs: 2, factors: 3}
  fbt2:
    kind: features-train
    inputs: [stage:train]
    params: {model: fbt, epochs: 1, optimizer: sgd, learning_rate: 0.01}
  movepred:
    kind: movepred
    inputs: [stage:valid, stage:bt, stage:fbt, stage:fbt2]
  report:
    kind: report
    inputs: [stage:train, stage:bt, stage:movepred]
`
	file := filepath.Join(work, "fk.yaml")
	if err := os.WriteFile(file, []byte(pipeline), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := lifezero(t, "run", file, "--workdir", filepath.Join(work, "runs"))
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	results, _, err := evaluate.ReadMovePredResults(context.Background(), filepath.Join(work, "runs", "movepred"))
	if err != nil {
		t.Fatal(err)
	}
	var players []string
	for _, r := range results {
		players = append(players, r.Player)
		if r.Positions != 50 || len(r.Features) == 0 || len(r.Phases) == 0 {
			t.Errorf("%s: %d positions, %d features, %d phases", r.Player, r.Positions, len(r.Features), len(r.Phases))
		}
	}
	if strings.Join(players, ",") != "bt,fbt,fbt2,random" {
		t.Errorf("players %v: want bt, the two fbt models by stage name, random", players)
	}
	report, err := os.ReadFile(filepath.Join(work, "runs", "report", "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Move candidates 2009", "| positions | 50 |", "## Feature model: bt", "(bt-loss-bt.png)",
		"## Move prediction", "Evaluated on 50 positions of 10 games dated 2010..", "(movepred-movepred-phases.png)", "| fbt2 | 50 |"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}

	// Bad params are caught when the pipeline is loaded.
	bad := strings.Replace(pipeline, "{model: bt, epochs: 3}", "{model: bt, epochs: -3}", 1)
	if err := os.WriteFile(file, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = lifezero(t, "run", file, "--workdir", filepath.Join(work, "runs"))
	if code != 1 || !strings.Contains(errs, `param "epochs": must not be negative`) {
		t.Errorf("negative epochs: exit %d: %s", code, errs)
	}
}

// checkWarmStart continues the lfr and fbt models of weights (bt, lfr, fbt)
// for one more epoch with features train --init, and checks the refusals:
// bt, a model of the other kind, a missing file.
func checkWarmStart(t *testing.T, trainDir, work string, weights []string) {
	t.Helper()
	for i, model := range []string{"lfr", "fbt"} {
		out := filepath.Join(work, model+"-more.weights")
		code, stdout, errs := lifezero(t, "features", "train", "--model", model, "--data", trainDir, "--out", out,
			"--epochs", "1", "--init", weights[1+i])
		if code != 0 || !strings.Contains(stdout, "warm start") || !strings.Contains(stdout, "k 4") {
			t.Fatalf("features train %s --init: exit %d\n%s\n%s", model, code, stdout, errs)
		}
	}
	for _, tc := range []struct {
		model, init, want string
	}{
		{"bt", weights[0], "not bt"},
		{"lfr", weights[2], "a fbt model"},
		{"fbt", filepath.Join(work, "missing.weights"), "missing.weights"},
	} {
		code, _, errs := lifezero(t, "features", "train", "--model", tc.model, "--data", trainDir,
			"--out", filepath.Join(work, "x.weights"), "--init", tc.init)
		if code == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("--model %s --init %s: exit %d, stderr %q; want an error with %q", tc.model, tc.init, code, errs, tc.want)
		}
	}
}
