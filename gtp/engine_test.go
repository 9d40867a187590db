package gtp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"lifezero/internal/testdata"
)

// gnugoPath is where Debian's gnugo package installs the binary.
const gnugoPath = testdata.GNUGoPath

// TestMain lets the test binary act as a tiny fake engine (see fakeEngine)
// when started with GTP_FAKE_ENGINE=1, so the stream handling is tested
// without any external program.
func TestMain(m *testing.M) {
	if os.Getenv("GTP_FAKE_ENGINE") == "1" {
		fakeEngine()
		return
	}
	os.Exit(m.Run())
}

// fakeEngine answers "echo X" with "= X", "fail X" with "? X", "multi"
// with a three-line reply, "die" by exiting mid-stream, "hang" by never
// answering, and "quit" by quitting.
func fakeEngine() {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		cmd, arg, _ := strings.Cut(in.Text(), " ")
		switch cmd {
		case "echo":
			fmt.Fprintf(out, "= %s\n\n", arg)
		case "fail":
			fmt.Fprintf(out, "? %s\n\n", arg)
		case "multi":
			fmt.Fprint(out, "=7 one\r\ntwo\tthree\n\n")
		case "die":
			out.Flush()
			fmt.Fprintln(os.Stderr, "fake engine dying")
			os.Exit(3)
		case "hang":
			out.Flush()
			time.Sleep(time.Hour)
		case "quit":
			fmt.Fprint(out, "=\n\n")
			out.Flush()
			return
		default:
			fmt.Fprint(out, "? unknown command\n\n")
		}
		out.Flush()
	}
}

func startFake(t *testing.T) *Engine {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GTP_FAKE_ENGINE", "1")
	e, err := Start(context.Background(), exe)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func TestScanReply(t *testing.T) {
	tests := []struct {
		name, in string
		want     []Reply
		wantErr  bool
	}{
		{"success", "= hello\n\n", []Reply{{OK: true, Text: "hello"}}, false},
		{"empty success", "=\n\n", []Reply{{OK: true, Text: ""}}, false},
		{"failure", "? illegal move\n\n", []Reply{{OK: false, Text: "illegal move"}}, false},
		{"with id", "=42 D4\n\n?7 bad\n\n", []Reply{{OK: true, Text: "D4"}, {Text: "bad"}}, false},
		{"multi-line, CR and tab", "= a\r\nb\tc\r\n\r\n", []Reply{{OK: true, Text: "a\nb c"}}, false},
		{"leading blank lines", "\n\n= x\n\n", []Reply{{OK: true, Text: "x"}}, false},
		{"cut inside reply", "= x\n", nil, true},
		{"garbage", "hello\n\n", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := bufio.NewScanner(strings.NewReader(tt.in))
			var got []Reply
			var err error
			for {
				var r Reply
				r, err = scanReply(sc)
				if err != nil {
					break
				}
				got = append(got, r)
			}
			if errors.Is(err, io.EOF) {
				err = nil
			}
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want error %v", err, tt.wantErr)
			}
			if !tt.wantErr && fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestFakeEngineCommands(t *testing.T) {
	e := startFake(t)
	ctx := context.Background()
	got, err := e.Command(ctx, "echo hi there")
	if err != nil || got != "hi there" {
		t.Fatalf("echo: %q, %v", got, err)
	}
	got, err = e.Command(ctx, "multi")
	if err != nil || got != "one\ntwo three" {
		t.Fatalf("multi: %q, %v", got, err)
	}
	_, err = e.Command(ctx, "fail no way")
	var gerr *Error
	if !errors.As(err, &gerr) || gerr.Message != "no way" || gerr.Command != "fail no way" {
		t.Fatalf("fail: %v, want *Error with message %q", err, "no way")
	}
	if _, err := e.Command(ctx, "echo a\nquit"); err == nil {
		t.Fatal("a command with a line break was sent")
	}
	// The engine must still be in step after the refused command.
	if got, err := e.Command(ctx, "echo still"); err != nil || got != "still" {
		t.Fatalf("after refused command: %q, %v", got, err)
	}
	if err := e.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := e.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := e.Command(ctx, "echo x"); !errors.Is(err, ErrClosed) {
		t.Fatalf("command after Close: %v, want ErrClosed", err)
	}
}

// A batch much larger than a pipe's buffer must not deadlock.
func TestFakeEngineLargeBatch(t *testing.T) {
	e := startFake(t)
	const n = 20000
	cmds := make([]string, n)
	for i := range cmds {
		cmds[i] = fmt.Sprintf("echo %d %s", i, strings.Repeat("x", 40))
	}
	replies, err := e.Batch(context.Background(), cmds)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range replies {
		if want := cmds[i][len("echo "):]; !r.OK || r.Text != want {
			t.Fatalf("reply %d = %+v, want %q", i, r, want)
		}
	}
}

func TestFakeEngineDies(t *testing.T) {
	e := startFake(t)
	replies, err := e.Batch(context.Background(), []string{"echo 1", "die", "echo 2"})
	if err == nil {
		t.Fatal("no error from an engine that exited mid-batch")
	}
	if len(replies) != 1 || !strings.Contains(err.Error(), "fake engine dying") {
		t.Fatalf("replies %v, error %v: want one reply and the engine's stderr quoted", replies, err)
	}
	if _, err := e.Command(context.Background(), "echo x"); !errors.Is(err, ErrClosed) {
		t.Fatalf("command after death: %v, want ErrClosed", err)
	}
}

func TestFakeEngineCancel(t *testing.T) {
	e := startFake(t)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := e.Command(ctx, "hang")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("hanging command: %v, want DeadlineExceeded", err)
	}
	if _, err := e.Command(context.Background(), "echo x"); !errors.Is(err, ErrClosed) {
		t.Fatalf("command after cancel: %v, want ErrClosed", err)
	}
	done, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if _, err := Start(done, "/bin/true"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Start with a done context: %v", err)
	}
}

func TestStartMissingBinary(t *testing.T) {
	if _, err := Start(context.Background(), "/nonexistent/engine"); err == nil {
		t.Fatal("no error starting a missing binary")
	}
}

func startGNUGo(t *testing.T) *Engine {
	t.Helper()
	testdata.GNUGo(t) // skips, or fails under CI=true, when GNU Go is missing
	e, err := Start(context.Background(), gnugoPath, "--mode", "gtp")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := e.Close(); err != nil {
			t.Error(err)
		}
	})
	return e
}

func TestGNUGo(t *testing.T) {
	e := startGNUGo(t)
	ctx := context.Background()
	if v, err := e.Command(ctx, "protocol_version"); err != nil || v != "2" {
		t.Fatalf("protocol_version = %q, %v", v, err)
	}
	// Black captures a white stone at A1: B A2, W A1, B B1.
	replies, err := e.Batch(ctx, []string{
		"boardsize 9", "clear_board",
		"play black A2", "play white A1", "play black B1",
		"list_stones black", "list_stones white", "captures black",
		"is_legal white A1", "play white A1",
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []Reply{
		{OK: true}, {OK: true}, {OK: true}, {OK: true}, {OK: true},
		{OK: true, Text: "B1 A2"}, {OK: true}, {OK: true, Text: "1"},
		{OK: true, Text: "0"}, {OK: false, Text: "illegal move"},
	}
	for i := range want {
		r := replies[i]
		if i == 5 { // the order of listed stones is the engine's own
			r.Text = sortedFields(r.Text)
			want[i].Text = sortedFields(want[i].Text)
		}
		if r != want[i] {
			t.Errorf("reply %d = %+v, want %+v", i, replies[i], want[i])
		}
	}
	_, err = e.Command(ctx, "no_such_command")
	var gerr *Error
	if !errors.As(err, &gerr) || gerr.Message != "unknown command" {
		t.Fatalf("unknown command: %v", err)
	}
}

func sortedFields(s string) string {
	f := strings.Fields(s)
	slices.Sort(f)
	return strings.Join(f, " ")
}
