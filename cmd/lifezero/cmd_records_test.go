package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lifezero/datasets"
)

// TestImportErrorNamesSkipBad: a malformed game stops an import with advice
// in the user's terms: the --skip-bad flag on the command line, the
// skip_bad param in a pipeline, never the library's SkipBad field.
func TestImportErrorNamesSkipBad(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "sgf", "bad.sgf")
	if err := os.MkdirAll(filepath.Dir(bad), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("(;FF[4]GM[1]SZ[9];B[ee];W[cc"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := lifezero(t, "records", "import", "--out", filepath.Join(dir, "games"), bad)
	if code != 1 || !strings.Contains(errs, "add --skip-bad to skip and count malformed games") || strings.Contains(errs, "set SkipBad") {
		t.Errorf("records import: exit %d, stderr:\n%s", code, errs)
	}

	pipeline := filepath.Join(dir, "pipeline.yaml")
	if err := os.WriteFile(pipeline, []byte("name: p\nstages:\n  games:\n    kind: records-import\n    inputs: [sgf]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = lifezero(t, "run", pipeline, "--workdir", filepath.Join(dir, "runs"))
	if code != 1 || !strings.Contains(errs, "set skip_bad: true in the stage's params to skip and count malformed games") || strings.Contains(errs, "set SkipBad") {
		t.Errorf("run: exit %d, stderr:\n%s", code, errs)
	}
}

func TestNameSkipBadKeepsChain(t *testing.T) {
	base := errors.New("boom (set SkipBad to skip)")
	err := nameSkipBad(base, "add --skip-bad")
	if err.Error() != "boom (add --skip-bad to skip)" || !errors.Is(err, base) {
		t.Errorf("%v", err)
	}
	if other := errors.New("x"); nameSkipBad(other, "y") != other {
		t.Error("an error without the hint was changed")
	}
}

// sampleGames returns the game trees of a bundled sample collection, one
// per line as the file holds them.
func sampleGames(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("../../samples/games", name))
	if err != nil {
		t.Fatal(err)
	}
	var games []string
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "(;") {
			games = append(games, line)
		}
	}
	return games
}

// stageStatuses parses the summary table of lifezero run: stage -> status.
func stageStatuses(out string) map[string]string {
	st := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) >= 3 && f[0] != "STAGE" {
			st[f[0]] = f[2]
		}
	}
	return st
}

// TestRetrainPipelineRerunsOnlyWhatChanged runs the retraining flow of
// retrain.yaml on records split into base, new and test, then adds new
// records (one of them a duplicate of a base game) and checks that the
// rerun redoes only the stages that read them, and that the append added
// exactly the games that were new.
func TestRetrainPipelineRerunsOnlyWhatChanged(t *testing.T) {
	dir := t.TempDir()
	dec, jan := sampleGames(t, "tom9d-2009-12-first150.sgf"), sampleGames(t, "tom9d-2010-01-first150.sgf")
	write := func(rel string, games []string) {
		path := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(strings.Join(games, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("base/a.sgf", dec[:40])
	write("new/b.sgf", dec[40:70])
	write("test/c.sgf", jan[:30])
	pipeline := `name: rt
stages:
  games: {kind: records-import, inputs: [base]}
  games-new: {kind: records-import, inputs: [stage:games, new], params: {append: true}}
  games-test: {kind: records-import, inputs: [test]}
  cands-base: {kind: movecands, inputs: [stage:games], params: {positions_per_game: 4, learn_diamonds: 5}}
  cands-new: {kind: movecands, inputs: [stage:games-new, stage:cands-base], params: {appended_only: true, positions_per_game: 4}}
  cands-test: {kind: movecands, inputs: [stage:games-test, stage:cands-base], params: {positions_per_game: 4}}
  fbt-base: {kind: features-train, inputs: [stage:cands-base], params: {model: fbt, epochs: 1}}
  fbt-retrained: {kind: features-train, inputs: [stage:cands-new, stage:fbt-base], params: {model: fbt, epochs: 1}}
  movepred: {kind: movepred, inputs: [stage:cands-test, stage:fbt-base, stage:fbt-retrained]}
`
	write("retrain.yaml", []string{pipeline})
	work := filepath.Join(dir, "runs")
	run := func() map[string]string {
		code, out, errs := lifezero(t, "run", filepath.Join(dir, "retrain.yaml"), "--workdir", work)
		if code != 0 {
			t.Fatalf("run: exit %d\n%s\n%s", code, out, errs)
		}
		return stageStatuses(out)
	}
	first := run()
	for _, s := range []string{"games", "games-new", "cands-new", "fbt-base", "fbt-retrained", "movepred"} {
		if first[s] != "ran" {
			t.Fatalf("first run: %s %q, want ran (%v)", s, first[s], first)
		}
	}
	// The retrained model continued from the base model's weights.
	m, err := datasets.ReadManifest(filepath.Join(work, "fbt-retrained"))
	if err != nil || !strings.Contains(m.Meta["settings"], "warm start") {
		t.Fatalf("fbt-retrained settings %q (%v): no warm start", m.Meta["settings"], err)
	}

	write("new/c.sgf", append([]string{dec[3]}, dec[70:90]...)) // dec[3] is a base game
	second := run()
	want := map[string]string{"games": "cached", "games-test": "cached", "cands-base": "cached", "cands-test": "cached",
		"fbt-base": "cached", "games-new": "ran", "cands-new": "ran", "fbt-retrained": "ran", "movepred": "ran"}
	for s, w := range want {
		if second[s] != w {
			t.Errorf("after adding records: %s %q, want %q", s, second[s], w)
		}
	}
	games, m, err := datasets.ReadGames(context.Background(), filepath.Join(work, "games-new"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := datasets.AppendSummaryOf(m, 1)
	if err != nil || len(games) != 90 || sum.Written != 50 || sum.Skipped[datasets.SkipDuplicateID] != 1 {
		t.Errorf("games-new: %d games, append %+v (%v); want 90 games, 50 appended, 1 duplicate", len(games), sum, err)
	}
	view := filepath.Join(dir, "view")
	if _, err := datasets.AppendedView(filepath.Join(work, "games-new"), view); err != nil {
		t.Fatal(err)
	}
	if newGames, _, err := datasets.ReadGames(context.Background(), view); err != nil || len(newGames) != 50 {
		t.Errorf("new games: %d (%v), want 50", len(newGames), err)
	}
}

// TestAppendInPlaceRerunsReaders: a games dataset given to a pipeline by
// path and appended to with records import --append is a changed input,
// so the stage reading it reruns; without an append it stays cached.
func TestAppendInPlaceRerunsReaders(t *testing.T) {
	dir := t.TempDir()
	dec := sampleGames(t, "tom9d-2009-12-first150.sgf")
	for name, games := range map[string][]string{"base/a.sgf": dec[:20], "new/b.sgf": dec[15:30]} {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(strings.Join(games, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	games := filepath.Join(dir, "games")
	if code, out, errs := lifezero(t, "records", "import", "--out", games, filepath.Join(dir, "base")); code != 0 {
		t.Fatalf("import: exit %d\n%s%s", code, out, errs)
	}
	pipeline := filepath.Join(dir, "p.yaml")
	yaml := "name: p\nstages:\n  cands: {kind: movecands, inputs: [games], params: {positions_per_game: 2}}\n"
	if err := os.WriteFile(pipeline, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func() (status, rows string) {
		code, out, errs := lifezero(t, "run", pipeline, "--workdir", filepath.Join(dir, "runs"))
		if code != 0 {
			t.Fatalf("run: exit %d\n%s%s", code, out, errs)
		}
		for _, line := range strings.Split(out, "\n") {
			if f := strings.Fields(line); len(f) >= 5 && f[0] == "cands" {
				return f[2], f[4]
			}
		}
		t.Fatalf("no cands row in\n%s", out)
		return "", ""
	}
	if st, rows := run(); st != "ran" || rows != "40" {
		t.Fatalf("first run: %s, %s rows; want ran, 40", st, rows)
	}
	if st, _ := run(); st != "cached" {
		t.Fatalf("second run: %s, want cached", st)
	}
	code, out, errs := lifezero(t, "records", "import", "--append", "--out", games, filepath.Join(dir, "new"))
	if code != 0 || !strings.Contains(out, "appended 10 games") || !strings.Contains(out, "skipped 5: duplicate_game_id") {
		t.Fatalf("append: exit %d\n%s%s", code, out, errs)
	}
	if st, rows := run(); st != "ran" || rows != "60" {
		t.Errorf("after the append: %s, %s rows; want ran, 60", st, rows)
	}
}
