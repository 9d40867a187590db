package match

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"lifezero/game"
	"lifezero/gtpengine"
	"lifezero/sgf"
)

// engineEnv makes the test binary a lifezero GTP engine playing the BT
// model in the directory it names (see TestMain): a real engine process
// over pipes, without building the lifezero command.
const engineEnv = "LIFEZERO_MATCH_TEST_ENGINE"

const gnugo = "/usr/games/gnugo"

func TestMain(m *testing.M) {
	if dir := os.Getenv(engineEnv); dir != "" {
		os.Exit(serveEngine(dir))
	}
	os.Exit(m.Run())
}

func serveEngine(dir string) int {
	p, err := gtpengine.LoadFeaturePlayer(dir, "")
	if err == nil {
		var e *gtpengine.Engine
		noResign := slices.Contains(os.Args[1:], "--no-resign")
		e, err = gtpengine.New(p, gtpengine.Options{Size: 9, SampleMoves: 6, Seed: uint64(os.Getpid()), NoResign: noResign})
		if err == nil {
			err = e.Serve(context.Background(), os.Stdin, os.Stdout)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// lifezeroEngine returns the command line of a lifezero engine (this test
// binary) playing a seeded random BT model; add " --no-resign" to turn
// resigning off.
func lifezeroEngine(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := gtpengine.WriteRandomModel(dir, 4); err != nil {
		t.Fatal(err)
	}
	t.Setenv(engineEnv, dir) // read by the engine processes only
	if strings.ContainsAny(os.Args[0], " \t") {
		t.Skipf("the test binary's path %q holds a space", os.Args[0])
	}
	return os.Args[0]
}

func needGnuGo(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(gnugo); err != nil {
		t.Skipf("GNU Go is not installed at %s (apt-get install gnugo)", gnugo)
	}
	return gnugo + " --mode gtp --level 1 --chinese-rules"
}

// TestMatchAgainstGnuGo plays two real games on 9x9 and checks the
// records: colours alternate, every SGF replays legally to its result,
// games ending by passes (lifezero does not resign here) are scored by GNU
// Go.
func TestMatchAgainstGnuGo(t *testing.T) {
	gg := needGnuGo(t)
	lz := lifezeroEngine(t)
	out := t.TempDir()
	sum, err := Run(context.Background(), Options{A: lz + " --no-resign", B: gg, Games: 2, Size: 9, Komi: 7.5, OutDir: out})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Games) != 2 || sum.Stats.Games != 2 || sum.Skipped != 0 {
		t.Fatalf("summary %+v", sum)
	}
	for i, r := range sum.Games {
		t.Logf("game %d: %s (B) vs %s (W): %s by %s after %d moves, %.1f s", r.Game, r.Black, r.White, r.RE, r.End, r.Moves, r.Seconds)
		wantA := []string{"B", "W"}[i]
		if r.AColour != wantA {
			t.Errorf("game %d: A played %s, want %s", r.Game, r.AColour, wantA)
		}
		if gnu := map[string]string{"B": r.White, "W": r.Black}[r.AColour]; gnu != "GNU Go 3.8" && !strings.HasPrefix(gnu, "GNU Go") {
			t.Errorf("game %d: GNU Go's side is named %q", r.Game, gnu)
		}
		if r.End != EndPasses && r.End != EndResign || (r.End == EndResign && r.Winner == r.AColour) {
			t.Errorf("game %d ended by %s (winner %s): want passes, or GNU Go resigning", r.Game, r.End, r.Winner)
		}
		if r.End == EndPasses && r.ScoredBy != "gnugo" {
			t.Errorf("game %d ended by passes but was scored by %q", r.Game, r.ScoredBy)
		}
		checkRecord(t, filepath.Join(out, "games", r.SGF), r)
	}
	data, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var back Summary
	if err := json.Unmarshal(data, &back); err != nil || len(back.Games) != 2 {
		t.Errorf("results.json: %v, %d games", err, len(back.Games))
	}
	rows, err := ReadResults(context.Background(), filepath.Join(out, ResultsDir))
	if err != nil || !reflect.DeepEqual(rows, sum.Games) {
		t.Errorf("results dataset: %v\n%+v\nwant %+v", err, rows, sum.Games)
	}
}

// checkRecord replays an SGF record by the rules and compares it with the
// result.
func checkRecord(t *testing.T, path string, r Result) {
	t.Helper()
	c, err := sgf.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	root := c[0]
	if re, _ := root.Get("RE"); re != r.RE {
		t.Errorf("%s: RE[%s], result says %s", path, re, r.RE)
	}
	pos, err := game.NewPosition(9)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range root.GetAll("AB") {
		p, err := pos.ParsePoint(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := pos.Place(game.Black, p); err != nil {
			t.Fatal(err)
		}
	}
	moves := 0
	for _, n := range root.MainLine()[1:] {
		for _, id := range []string{"B", "W"} {
			v, ok := n.Get(id)
			if !ok {
				continue
			}
			c, _ := game.ParseColor(id)
			if moves == 0 && len(root.GetAll("AB")) > 0 && c != game.White {
				t.Errorf("%s: Black moves first after handicap", path)
			}
			m, err := pos.ParsePoint(v)
			if err != nil {
				t.Fatal(err)
			}
			pos.SetToMove(c)
			if err := pos.Play(m); err != nil {
				t.Fatalf("%s: move %d: %v", path, moves+1, err)
			}
			moves++
		}
	}
	if moves != r.Moves {
		t.Errorf("%s: %d moves, result says %d", path, moves, r.Moves)
	}
	if r.End == EndPasses && pos.Passes() < 2 {
		t.Errorf("%s: ended by passes without two passes at the end", path)
	}
}

// cancelAfter is a Progress that cancels the match after n games.
type cancelAfter struct {
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) Start(int, string) {}
func (c *cancelAfter) Finish()           {}
func (c *cancelAfter) Add(k int) {
	if c.n -= k; c.n <= 0 {
		c.cancel()
	}
}

// TestMatchResume: a run stopped after one game keeps it, a rerun plays
// only the missing ones, another rerun plays nothing, the games are those
// of a run straight through, and a rerun with other settings is refused.
func TestMatchResume(t *testing.T) {
	gg := needGnuGo(t)
	lz := lifezeroEngine(t)
	out := t.TempDir()
	o := Options{A: gg, B: lz, Games: 3, Size: 9, Komi: 6.5, OutDir: out}
	ctx, cancel := context.WithCancel(context.Background())
	o.Progress = &cancelAfter{n: 1, cancel: cancel}
	if _, err := Run(ctx, o); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v, want context.Canceled", err)
	}
	first, err := os.ReadFile(filepath.Join(out, "games", "game-0001.sgf"))
	if err != nil {
		t.Fatalf("the finished game was not kept: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "games", "game-0002.json")); err == nil {
		t.Fatal("the interrupted game has a result")
	}
	o.Progress = nil
	sum, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Skipped != 1 || len(sum.Games) != 3 {
		t.Errorf("resumed: skipped %d, %d games; want 1, 3", sum.Skipped, len(sum.Games))
	}
	again, err := os.ReadFile(filepath.Join(out, "games", "game-0001.sgf"))
	if err != nil || string(again) != string(first) {
		t.Errorf("game 1 was replayed (%v)", err)
	}
	sum, err = Run(context.Background(), o)
	if err != nil || sum.Skipped != 3 {
		t.Errorf("complete rerun: skipped %d (%v), want 3", sum.Skipped, err)
	}
	// The same match in one run plays the same games (set_random_seed).
	straight := o
	straight.OutDir = t.TempDir()
	if _, err := Run(context.Background(), straight); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 3; i++ {
		name := filepath.Join("games", gameName(i)+".sgf")
		a, err1 := os.ReadFile(filepath.Join(out, name))
		b, err2 := os.ReadFile(filepath.Join(straight.OutDir, name))
		if err1 != nil || err2 != nil || string(a) != string(b) {
			t.Errorf("game %d differs between the resumed and the straight run (%v, %v):\n%s\n%s", i, err1, err2, a, b)
		}
	}
	o.Komi = 0.5
	if _, err := Run(context.Background(), o); err == nil || !strings.Contains(err.Error(), "another match") {
		t.Errorf("rerun with another komi: %v, want a refusal", err)
	}
}

// TestMatchHandicapAndAreaScore: two lifezero engines, two handicap
// stones: White moves first, the game is scored by area.
func TestMatchHandicapAndAreaScore(t *testing.T) {
	lz := lifezeroEngine(t)
	out := t.TempDir()
	sum, err := Run(context.Background(), Options{A: lz, B: lz, Games: 1, Size: 9, Komi: 0.5, Handicap: 2, OutDir: out})
	if err != nil {
		t.Fatal(err)
	}
	r := sum.Games[0]
	if r.End == EndPasses || r.End == EndMoveCap {
		if r.ScoredBy != "area" {
			t.Errorf("scored by %q, want area", r.ScoredBy)
		}
	}
	c, err := sgf.ParseFile(filepath.Join(out, "games", r.SGF))
	if err != nil {
		t.Fatal(err)
	}
	if ha, _ := c[0].Get("HA"); ha != "2" || len(c[0].GetAll("AB")) != 2 {
		t.Errorf("HA[%s] AB%v, want 2 handicap stones", ha, c[0].GetAll("AB"))
	}
	checkRecord(t, filepath.Join(out, "games", r.SGF), r)
}

func TestMatchBadInput(t *testing.T) {
	out := t.TempDir()
	for _, tt := range []struct {
		name string
		o    Options
		want string
	}{
		{"no engine", Options{A: " ", B: "x", Games: 1, Size: 9, OutDir: out}, "command lines"},
		{"no games", Options{A: "x", B: "y", Games: 0, Size: 9, OutDir: out}, "0 games"},
		{"board", Options{A: "x", B: "y", Games: 1, Size: 4, OutDir: out}, "board size 4"},
		{"handicap", Options{A: "x", B: "y", Games: 1, Size: 9, Handicap: 12, OutDir: out}, "handicap 12"},
		{"no out", Options{A: "x", B: "y", Games: 1, Size: 9}, "output directory"},
		{"missing engine", Options{A: "/nonexistent/engine", B: "/nonexistent/engine", Games: 1, Size: 9, OutDir: t.TempDir()}, "/nonexistent/engine"},
		{"not GTP", Options{A: "/bin/false", B: "/bin/false", Games: 1, Size: 9, OutDir: t.TempDir()}, "/bin/false"},
	} {
		_, err := Run(context.Background(), tt.o)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error with %q", tt.name, err, tt.want)
		}
	}
}

// TestMatchPrograms: a program name mapped to a path starts that path,
// and match.json keeps the name, so the same match resumes when the
// binary lives elsewhere.
func TestMatchPrograms(t *testing.T) {
	lz := lifezeroEngine(t)
	out := t.TempDir()
	o := Options{A: "lz-engine --no-resign", B: "lz-engine", Games: 1, Size: 9, Komi: 7.5, OutDir: out,
		Programs: map[string]string{"lz-engine": lz}}
	sum, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Games) != 1 || sum.Skipped != 0 {
		t.Fatalf("%d games, %d skipped; want 1 played", len(sum.Games), sum.Skipped)
	}
	data, err := os.ReadFile(filepath.Join(out, "match.json"))
	if err != nil || !strings.Contains(string(data), `"lz-engine --no-resign"`) || strings.Contains(string(data), lz) {
		t.Errorf("match.json should name the program, not its path (%v):\n%s", err, data)
	}
	o.Programs = map[string]string{"lz-engine": "/nonexistent/moved"} // nothing left to play: not started
	if sum, err := Run(context.Background(), o); err != nil || sum.Skipped != 1 {
		t.Errorf("resume with the binary elsewhere: skipped %d, err %v", sum.Skipped, err)
	}
}
