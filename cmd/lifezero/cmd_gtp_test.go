package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"lifezero/gtp"
	"lifezero/gtpengine"
	"lifezero/match"
	"lifezero/nn"
)

// gtpModelDir writes a features-train style directory (model.weights and
// features.json) holding a seeded Bradley-Terry model over the built-in
// feature set.
func gtpModelDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := gtpengine.WriteRandomModel(dir, 8); err != nil {
		t.Fatal(err)
	}
	return dir
}

// lifezeroGtp returns the command line of a "lifezero gtp ARGS..." process:
// this test binary running main (TestMainProcess) with the arguments in
// the environment, which the children inherit.
func lifezeroGtp(t *testing.T, args ...string) string {
	t.Helper()
	if strings.ContainsAny(os.Args[0], " \t") {
		t.Skipf("the test binary's path %q holds a space", os.Args[0])
	}
	t.Setenv(mainEnv, strings.Join(append([]string{"gtp"}, args...), "\n"))
	return os.Args[0] + " -test.run=^TestMainProcess$"
}

// TestGtpSession talks to a real "lifezero gtp" process over pipes, as a
// GUI does: it sets up a 9x9 game, plays, asks for moves, takes one back,
// loads a record and scores.
func TestGtpSession(t *testing.T) {
	ctx := context.Background()
	cmd := strings.Fields(lifezeroGtp(t, "--features-model", gtpModelDir(t), "--size", "9", "--komi", "6.5"))
	e, err := gtp.Start(ctx, cmd[0], cmd[1:]...)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	record := filepath.Join(t.TempDir(), "g.sgf")
	if err := os.WriteFile(record, []byte("(;SZ[9]KM[0.5];B[ee];W[ce];B[ge])"), 0o644); err != nil {
		t.Fatal(err)
	}
	vertex := `[A-HJ][1-9]`
	steps := []struct{ cmd, want string }{
		{"protocol_version", `2`},
		{"name", `lifezero`},
		{"version", `.* \(bt\)`},
		{"known_command loadsgf", `true`},
		{"boardsize 9", ``},
		{"clear_board", ``},
		{"komi 7.5", ``},
		{"play B E5", ``},
		{"genmove W", vertex},
		{"genmove B", vertex},
		{"undo", ``},
		{"showboard", `\n(?s:.*)B to move, komi 7\.5(?s:.*)`},
		{"loadsgf " + record, `white`},
		{"final_score", `B\+0\.5`}, // 2 stones to 1, komi 0.5 from the record
		{"genmove w", vertex},
		{"boardsize 25", `\? unacceptable size`},
		{"play b X9", `\? invalid coordinate`},
		{"nonsense", `\? unknown command`},
	}
	var cmds []string
	for _, s := range steps {
		cmds = append(cmds, s.cmd)
	}
	replies, err := e.Batch(ctx, cmds)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range steps {
		got := replies[i].Text
		if !replies[i].OK {
			got = "? " + got
		}
		if !regexp.MustCompile(`^(?:` + s.want + `)$`).MatchString(got) {
			t.Errorf("%q: got %q, want /%s/", s.cmd, got, s.want)
		}
	}
	if err := e.Close(); err != nil {
		t.Errorf("quit: %v", err)
	}
}

func TestGtpNetPlayers(t *testing.T) {
	cfg, err := nn.Preset(nn.Preset2x16, 7)
	if err != nil {
		t.Fatal(err)
	}
	w, err := nn.NewWeights(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	net := filepath.Join(t.TempDir(), "network.lznn")
	if err := w.Save(net); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--net", net}, {"--net", net, "--simulations", "16"}, {"--net", net, "--simulations", "16", "--batch", "4"}} {
		var out, errb strings.Builder
		in := strings.NewReader("1 genmove b\n2 genmove w\n3 boardsize 9\n4 boardsize 7\nquit\n")
		if err := runGtp(context.Background(), args, in, &out, &errb); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		re := regexp.MustCompile(`^=1 [A-G][1-7]\n\n=2 [A-G][1-7]\n\n\?3 unacceptable size\n\n=4 \n\n= \n\n$`)
		if !re.MatchString(out.String()) {
			t.Errorf("%v: transcript:\n%s", args, out.String())
		}
	}
}

func TestGtpUsageErrors(t *testing.T) {
	model := gtpModelDir(t)
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"gtp"}, 2, "name one player"},
		{[]string{"gtp", "--features-model", model, "--net", "x"}, 2, "name one player"},
		{[]string{"gtp", "--features-model", model, "--simulations", "5"}, 2, "--simulations goes with --net"},
		{[]string{"gtp", "--net", "x", "--batch", "4"}, 2, "--batch goes with --simulations"},
		{[]string{"gtp", "--net", "x", "--simulations", "5", "--batch", "0"}, 2, "--batch 0: want at least 1"},
		{[]string{"gtp", "--net", "x", "--features", "y"}, 2, "--features goes with --features-model"},
		{[]string{"gtp", "--features-model", model, "extra"}, 2, "takes no arguments"},
		{[]string{"gtp", "--features-model", model, "--size", "3"}, 1, "board size 3"},
		{[]string{"gtp", "--features-model", filepath.Join(model, "missing")}, 1, "missing"},
		{[]string{"gtp", "--net", filepath.Join(model, "missing.lznn")}, 1, "missing.lznn"},
	} {
		code, _, stderr := lifezero(t, tt.args...)
		if code != tt.code || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d with %q", tt.args, code, stderr, tt.code, tt.want)
		}
	}
}

// TestMatchCommand plays "lifezero match" between a lifezero gtp process
// and GNU Go level 1: one game on 9x9, then a rerun that plays nothing.
func TestMatchCommand(t *testing.T) {
	const gnugo = "/usr/games/gnugo"
	if _, err := os.Stat(gnugo); err != nil {
		t.Skipf("GNU Go is not installed at %s (apt-get install gnugo)", gnugo)
	}
	lz := lifezeroGtp(t, "--features-model", gtpModelDir(t), "--size", "9")
	out := filepath.Join(t.TempDir(), "m")
	args := []string{"match", "--black", lz, "--white", gnugo + " --mode gtp --level 1 --chinese-rules", "--games", "1", "--out", out}
	code, stdout, stderr := lifezero(t, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "1 games (0 from an earlier run)") || !strings.Contains(stdout, "95% CI") {
		t.Errorf("stdout:\n%s", stdout)
	}
	data, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum match.Summary
	if err := json.Unmarshal(data, &sum); err != nil || len(sum.Games) != 1 || sum.Games[0].White != "GNU Go 3.8" {
		t.Errorf("results.json: %v %+v", err, sum)
	}
	code, stdout, _ = lifezero(t, args...)
	if code != 0 || !strings.Contains(stdout, "1 games (1 from an earlier run)") {
		t.Errorf("rerun: exit %d\n%s", code, stdout)
	}
}

func TestMatchUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"match", "--white", "b", "--out", "x"}, "--black CMD and --white CMD are required"},
		{[]string{"match", "--black", "a", "--white", "b"}, "--out DIR is required"},
		{[]string{"match", "--black", "a", "--white", "b", "--out", "x", "--games", "0"}, "--games 0"},
		{[]string{"match", "--black", "a", "--white", "b", "--out", "x", "--handicap", "10"}, "--handicap 10"},
		{[]string{"match", "--black", "a", "--white", "b", "--out", "x", "--max-moves", "-1"}, "--max-moves -1"},
		{[]string{"match", "--black", "a", "--white", "b", "--out", "x", "stray"}, "takes no arguments"},
	} {
		code, _, stderr := lifezero(t, tt.args...)
		if code != 2 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 with %q", tt.args, code, stderr, tt.want)
		}
	}
}
