package gtpengine

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestTranscript drives one engine through every command, the failure
// replies included, as a controller would.
func TestTranscript(t *testing.T) {
	dir := t.TempDir()
	sgfPath := filepath.Join(dir, "game.sgf")
	if err := os.WriteFile(sgfPath, []byte("(;GM[1]FF[4]SZ[9]KM[5.5]AB[cc][gg]AW[ee];W[ef];B[fe];W[dd])"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := newBTEngine(t, Options{Version: "test", Size: 9, Komi: 7.5})
	list := "= " + strings.Join([]string{"protocol_version", "name", "version", "known_command", "list_commands", "quit",
		"boardsize", "clear_board", "komi", "play", "genmove", "undo", "showboard", "loadsgf", "final_score",
		"fixed_handicap", "set_free_handicap", "set_random_seed", "time_settings", "time_left",
		"gogui-analyze_commands", "lz-solve", "lz-solve-gfx"}, "\n") + "\n\n"
	vertex := `[A-HJ][1-9]`
	for _, step := range []struct {
		in, want string // want: a regular expression for the whole reply
	}{
		{"protocol_version", `= 2`},
		{"1 name", `=1 lifezero`},
		{"2 version", `=2 test \(bt\)`},
		{"known_command play", `= true`},
		{"known_command gogui-analyze_commands", `= true`},
		{"known_command gogui-unknown", `= false`},
		{"known_command", `\? syntax error: known_command NAME`},
		{"list_commands", regexp.QuoteMeta(strings.TrimSuffix(list, "\n\n"))},
		{"boardsize 4", `\? unacceptable size`},
		{"boardsize 20", `\? unacceptable size`},
		{"boardsize nine", `\? boardsize not an integer`},
		{"boardsize", `\? syntax error: boardsize SIZE`},
		{"10 boardsize 9", `=10 `},
		{"komi x", `\? komi not a float`},
		{"komi NaN", `\? komi not a float`},
		{"komi 6.5", `= `},
		{"play black E5", `= `},
		{"play white e5", `\? illegal move`},
		{"play white Z1", `\? invalid coordinate`},
		{"play white I1", `\? invalid coordinate`},
		{"play white J10", `\? invalid coordinate`},
		{"play white E0", `\? invalid coordinate`},
		{"play purple D4", `\? invalid color`},
		{"play white", `\? syntax error: play COLOR VERTEX`},
		{"play\tw\tPASS", `= `},
		{"final_score", `= B\+74\.5`},
		{"3 genmove b", `=3 ` + vertex},
		{"undo", `= `},
		{"showboard", `= \n(?s:.*) 5  \. \. \. \. X \. \. \. \.  5\n(?s:.*)B to move, komi 6\.5, captured stones: black 0, white 0`},
		{"genmove purple", `\? invalid color`},
		{"genmove", `\? syntax error: genmove COLOR`},
		{"undo", `= `},
		{"undo", `= `},
		{"final_score", `= W\+6\.5`},
		{"undo", `\? cannot undo`},
		{"fixed_handicap 3", `= C3 G7 C7`},
		{"fixed_handicap 3", `\? board not empty`},
		{"genmove w", `= ` + vertex},
		{"clear_board", `= `},
		{"fixed_handicap 10", `\? invalid number of stones`},
		{"fixed_handicap many", `\? number of stones not an integer`},
		{"set_free_handicap A1", `\? invalid number of stones`},
		{"set_free_handicap A1 A1", `\? bad vertex list: .*`},
		{"set_free_handicap A1 pass", `\? bad vertex list`},
		{"set_free_handicap A1 J9", `= `},
		{"final_score", `= B\+74\.5`},
		{"loadsgf " + sgfPath, `= black`},
		{"final_score", `= W\+5\.5`}, // komi from KM[5.5]
		{"loadsgf " + sgfPath + " 3", `= white`},
		{"loadsgf " + sgfPath + " 2", `= black`},
		{"loadsgf " + sgfPath + " x", `\? syntax error: move number not an integer`},
		{"loadsgf " + filepath.Join(dir, "missing.sgf"), `\? cannot load file: .*`},
		{"loadsgf", `\? syntax error: loadsgf FILE \[MOVE_NUMBER\]`},
		{"set_random_seed 42", `= `},
		{"set_random_seed -1", `\? seed not a non-negative integer`},
		{"set_random_seed", `\? syntax error: set_random_seed SEED`},
		{"time_settings 300 30 5", `= `},
		{"time_settings 300 thirty 5", `\? syntax error: time_settings .*`},
		{"time_left b 120 0", `= `},
		{"time_left purple 120 0", `\? invalid color`},
		{"time_left b", `\? syntax error: time_left COLOR TIME STONES`},
		{"4 foo", `\?4 unknown command`},
		{"GENMOVE b", `\? unknown command`},
		{"99", `\?99 missing command`},
		{"5 quit", `=5 `},
	} {
		got := send(t, e, step.in)
		if !regexp.MustCompile(`^(?:` + step.want + `)\n\n$`).MatchString(got) {
			t.Errorf("%q: got %q, want /%s/", step.in, got, step.want)
		}
	}
}

// TestHandleNoReply: empty lines and comments get no reply; quit says so.
func TestHandleNoReply(t *testing.T) {
	e := newBTEngine(t, Options{Size: 9})
	for _, line := range []string{"", "   ", "# a comment", "\t# tabbed", "\x01\x02"} {
		if reply, quit := e.Handle(context.Background(), line); reply != "" || quit {
			t.Errorf("%q: reply %q quit %v, want none", line, reply, quit)
		}
	}
	if reply, quit := e.Handle(context.Background(), "quit # bye"); reply != "= \n\n" || !quit {
		t.Errorf("quit: reply %q quit %v", reply, quit)
	}
}

// TestServe runs a session through Serve: ids echoed, replies in order,
// stop at quit (later lines unread).
func TestServe(t *testing.T) {
	e := newBTEngine(t, Options{Size: 9})
	in := strings.NewReader("1 boardsize 9\n\n# comment\n2 play b C3\n3 genmove w\nbogus\n4 quit\n5 name\n")
	var out strings.Builder
	if err := e.Serve(context.Background(), in, &out); err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`^=1 \n\n=2 \n\n=3 [A-HJ][1-9]\n\n\? unknown command\n\n=4 \n\n$`)
	if !re.MatchString(out.String()) {
		t.Errorf("transcript:\n%s", out.String())
	}
}

// TestServeCancelled: a cancelled context stops Serve even while the
// controller sends nothing.
func TestServeCancelled(t *testing.T) {
	e := newBTEngine(t, Options{Size: 9})
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.Serve(ctx, r, &strings.Builder{}) }()
	cancel()
	if err := <-done; err != context.Canceled {
		t.Errorf("Serve = %v, want context.Canceled", err)
	}
}

// FuzzHandle: no input line makes the engine panic, and every reply is a
// well-formed success or failure.
func FuzzHandle(f *testing.F) {
	for _, s := range []string{"play b D4", "genmove w", "boardsize 7", "loadsgf /nonexistent 3", "komi 1e309",
		"set_free_handicap A1 B2 C3", "fixed_handicap 9", "undo", "12 showboard", "play b pass", "boardsize -1", "play w A99999999999"} {
		f.Add(s)
	}
	e := newBTEngine(f, Options{Size: 9})
	re := regexp.MustCompile(`^[=?][0-9]* [^\n]*(\n[^\n]+)*\n\n$`)
	f.Fuzz(func(t *testing.T, line string) {
		if strings.Contains(line, "loadsgf") || strings.Contains(line, "quit") {
			return // files named by the fuzzer; quit ends nothing here anyway
		}
		reply, _ := e.Handle(context.Background(), line)
		if reply != "" && !re.MatchString(reply) {
			t.Fatalf("%q: malformed reply %q", line, reply)
		}
	})
}

// TestSetRandomSeed: after set_random_seed the drawn opening is the same
// whatever the engine played before.
func TestSetRandomSeed(t *testing.T) {
	opening := func(e *Engine) string {
		okText(t, e, "clear_board")
		okText(t, e, "set_random_seed 77")
		var moves []string
		for i := range 10 {
			moves = append(moves, okText(t, e, "genmove "+[]string{"b", "w"}[i%2]))
		}
		return strings.Join(moves, " ")
	}
	a := newBTEngine(t, Options{Size: 9, SampleMoves: 10, Seed: 1})
	b := newBTEngine(t, Options{Size: 9, SampleMoves: 10, Seed: 2})
	for range 3 {
		okText(t, b, "genmove b")
	}
	first := opening(a)
	if second := opening(b); first != second {
		t.Errorf("same seed, different openings:\n%s\n%s", first, second)
	}
}
