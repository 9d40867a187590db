package gtp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// ErrClosed is returned by calls on an engine that was closed, killed after
// a cancelled call, or whose process ended.
var ErrClosed = errors.New("gtp: engine closed")

// Error is a failure reply ("? message") to a command.
type Error struct {
	Command string
	Message string
}

func (e *Error) Error() string {
	return fmt.Sprintf("gtp: %q failed: %s", e.Command, e.Message)
}

// Reply is the answer to one command of a batch.
type Reply struct {
	// OK is true for a success reply ("= ...") and false for a failure
	// ("? ...").
	OK bool
	// Text is the reply without its "=" or "?" and the separating space;
	// the lines of a multi-line reply are joined by "\n".
	Text string
}

// Err returns nil for a success reply and an *Error naming command
// otherwise.
func (r Reply) Err(command string) error {
	if r.OK {
		return nil
	}
	return &Error{Command: command, Message: r.Text}
}

// closeTimeout bounds how long Close waits for the engine to quit by itself
// before killing it.
const closeTimeout = 5 * time.Second

// Engine is a running GTP engine. Its methods may be called from several
// goroutines; calls are served one at a time.
type Engine struct {
	name  string
	cmd   *exec.Cmd
	stdin io.WriteCloser
	// replies delivers the parsed replies in order; it is closed when the
	// engine's output ends, after readErr is set.
	replies chan Reply
	readErr error
	stderr  *tailBuffer
	exited  chan struct{} // closed once the process has been waited for
	waitErr error
	done    chan struct{} // closed by Close, so the reader never blocks

	mu     sync.Mutex // serialises calls: one command stream at a time
	closed bool
}

// Start runs the engine at path with args (for GNU Go:
// "--mode", "gtp") and returns once the process has started. The context
// bounds only the start; use Close to stop the engine.
func Start(ctx context.Context, path string, args ...string) (*Engine, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("gtp: start %s: %w", path, err)
	}
	cmd := exec.Command(path, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("gtp: start %s: %w", path, err)
	}
	// A plain pipe rather than StdoutPipe: Wait must not close the read
	// end while the last replies are still being read.
	stdout, stdoutW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("gtp: start %s: %w", path, err)
	}
	cmd.Stdout = stdoutW
	e := &Engine{
		name:    path,
		cmd:     cmd,
		stdin:   stdin,
		replies: make(chan Reply, 256),
		stderr:  &tailBuffer{max: 4096},
		exited:  make(chan struct{}),
		done:    make(chan struct{}),
	}
	cmd.Stderr = e.stderr
	err = cmd.Start()
	_ = stdoutW.Close() // the child holds its own copy
	if err != nil {
		_ = stdout.Close()
		return nil, fmt.Errorf("gtp: start %s: %w", path, err)
	}
	go e.read(stdout)
	go func() {
		e.waitErr = cmd.Wait()
		close(e.exited)
	}()
	return e, nil
}

// read parses the engine's output into replies until it ends.
func (e *Engine) read(stdout io.ReadCloser) {
	defer close(e.replies)
	defer stdout.Close()
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for {
		r, err := scanReply(sc)
		if err != nil {
			e.readErr = err
			return
		}
		select {
		case e.replies <- r:
		case <-e.done:
			return
		}
	}
}

// scanReply reads one reply: blank lines, then a line starting with '=' or
// '?' (an optional numeric id follows), then more lines up to a blank line.
func scanReply(sc *bufio.Scanner) (Reply, error) {
	var lines []string
	var r Reply
	for sc.Scan() {
		line := CleanLine(sc.Text())
		if lines == nil {
			if strings.TrimSpace(line) == "" {
				continue
			}
			switch line[0] {
			case '=':
				r.OK = true
			case '?':
			default:
				return r, fmt.Errorf("gtp: reply starts with %q, want '=' or '?'", line)
			}
			line = strings.TrimLeft(line[1:], "0123456789")
			line = strings.TrimPrefix(line, " ")
			lines = append(lines, line)
			continue
		}
		if line == "" {
			r.Text = strings.Join(lines, "\n")
			return r, nil
		}
		lines = append(lines, line)
	}
	if err := sc.Err(); err != nil {
		return r, fmt.Errorf("gtp: reading engine output: %w", err)
	}
	if lines != nil {
		return r, fmt.Errorf("gtp: engine output ended inside a reply: %w", io.ErrUnexpectedEOF)
	}
	return r, io.EOF
}

// CleanLine applies the protocol's preprocessing of received lines: drop
// CR and other control characters, turn tabs into spaces, and trim
// trailing spaces. Engines (package gtpengine) apply it to commands too.
func CleanLine(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\t':
			sb.WriteByte(' ')
		case c < 32 || c == 127:
		default:
			sb.WriteByte(c)
		}
	}
	return strings.TrimRight(sb.String(), " ")
}

// Command sends one command and returns the text of its success reply, or
// an *Error for a failure reply.
func (e *Engine) Command(ctx context.Context, command string) (string, error) {
	replies, err := e.Batch(ctx, []string{command})
	if err != nil {
		return "", err
	}
	return replies[0].Text, replies[0].Err(command)
}

// Batch sends every command in a single write and returns their replies in
// order. A failure reply ("?") is not an error of Batch: check each Reply.
// The error is for the stream itself: a bad command, the engine gone, or
// the context done (the engine is then killed, since its replies would no
// longer match the commands).
func (e *Engine) Batch(ctx context.Context, commands []string) ([]Reply, error) {
	var req strings.Builder
	for i, c := range commands {
		if strings.ContainsAny(c, "\n\r") || strings.TrimSpace(c) == "" {
			return nil, fmt.Errorf("gtp: command %d %q is empty or holds a line break", i, c)
		}
		req.WriteString(c)
		req.WriteByte('\n')
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil, ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("gtp: %s: %w", e.name, err)
	}
	// Write in the background: a large batch fills the pipe, and the
	// engine only drains it while its replies are being read.
	written := make(chan error, 1)
	go func() {
		_, err := io.WriteString(e.stdin, req.String())
		written <- err
	}()
	out := make([]Reply, 0, len(commands))
	for len(out) < len(commands) {
		select {
		case r, ok := <-e.replies:
			if !ok {
				why := e.streamErr()
				e.closeLocked()
				return out, fmt.Errorf("gtp: %s stopped after %d of %d replies: %w%s",
					e.name, len(out), len(commands), why, e.stderr.suffix())
			}
			out = append(out, r)
		case <-ctx.Done():
			e.closeLocked()
			return out, fmt.Errorf("gtp: %s: %w", e.name, ctx.Err())
		}
	}
	if err := <-written; err != nil {
		e.closeLocked()
		return out, fmt.Errorf("gtp: writing to %s: %w", e.name, err)
	}
	return out, nil
}

// streamErr says why the reply stream ended. The stream has ended, so
// readErr is set; the process may take a moment longer to be reaped.
func (e *Engine) streamErr() error {
	if e.readErr != nil && !errors.Is(e.readErr, io.EOF) {
		return e.readErr
	}
	select {
	case <-e.exited:
		if e.waitErr != nil {
			return fmt.Errorf("%w (%v)", ErrClosed, e.waitErr)
		}
	case <-time.After(time.Second):
	}
	return ErrClosed
}

// Close asks the engine to quit, waits a few seconds for it to exit, and
// kills it otherwise. Closing twice is harmless.
func (e *Engine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil
	}
	e.closed = true
	close(e.done)
	// Write in the background: an engine that stopped reading must not
	// block Close.
	go func() {
		_, _ = io.WriteString(e.stdin, "quit\n")
		_ = e.stdin.Close()
	}()
	select {
	case <-e.exited:
		return nil
	case <-time.After(closeTimeout):
		_ = e.cmd.Process.Kill()
		<-e.exited
		return fmt.Errorf("gtp: %s did not quit within %v and was killed", e.name, closeTimeout)
	}
}

// closeLocked kills the engine after its stream went wrong. e.mu is held.
func (e *Engine) closeLocked() {
	if e.closed {
		return
	}
	e.closed = true
	close(e.done)
	_ = e.stdin.Close()
	_ = e.cmd.Process.Kill()
	<-e.exited
}

// tailBuffer keeps the last max bytes written to it (the engine's stderr,
// quoted in errors).
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

// suffix returns ": stderr: ..." when the engine wrote to stderr.
func (t *tailBuffer) suffix() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(string(t.buf))
	if s == "" {
		return ""
	}
	return "; stderr: " + s
}
