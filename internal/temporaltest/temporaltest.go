// Package temporaltest starts a real Temporal development server (the
// temporal CLI's "server start-dev", SQLite file database) for tests, on
// free ports, and stops it when the test ends. Tests that need it skip,
// saying how to install the CLI, when the binary is missing.
package temporaltest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
)

// InstallHint says how to get the CLI.
const InstallHint = "go install github.com/temporalio/cli/cmd/temporal@v1.5.1"

// Binary returns the temporal CLI's path ($TEMPORAL_CLI, then PATH, then
// $GOPATH/bin), or "" when there is none.
func Binary() string {
	if p := os.Getenv("TEMPORAL_CLI"); p != "" {
		return p
	}
	if p, err := exec.LookPath("temporal"); err == nil {
		return p
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		if home, err := os.UserHomeDir(); err == nil {
			gopath = filepath.Join(home, "go")
		}
	}
	if p := filepath.Join(gopath, "bin", "temporal"); gopath != "" {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// Server is a running development server.
type Server struct {
	HostPort string // the frontend, 127.0.0.1:PORT
	DB       string // its database file
	bin      string
	ports    [3]int
	cmd      *exec.Cmd
	exited   chan struct{} // closed when cmd has ended (its one Wait)
	log      *os.File
}

// Start starts a server with its database in a temp dir of t, or skips t
// when the CLI is missing. The server stops when t ends.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := Binary()
	if bin == "" {
		t.Skipf("the temporal CLI is not installed (%s; or set TEMPORAL_CLI)", InstallHint)
	}
	dir := t.TempDir()
	s := &Server{bin: bin, DB: filepath.Join(dir, "temporal.db")}
	for i := range s.ports {
		s.ports[i] = freePort(t)
	}
	s.HostPort = "127.0.0.1:" + strconv.Itoa(s.ports[0])
	var err error
	if s.log, err = os.Create(filepath.Join(dir, "server.log")); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Stop(); s.log.Close() })
	// The ports were free when picked, but another process may take one
	// before the server binds it; the server then exits, and a start on
	// fresh ports is tried (at most three in all).
	for try := 1; ; try++ {
		err := s.Restart(t)
		if err == nil {
			return s
		}
		if !errors.Is(err, errExited) || try == 3 {
			t.Fatal(err)
		}
		for i := range s.ports {
			s.ports[i] = freePort(t)
		}
		s.HostPort = "127.0.0.1:" + strconv.Itoa(s.ports[0])
	}
}

// errExited is Restart's error when the server process ends before it
// answers.
var errExited = errors.New("the server exited before it answered")

// Restart starts the server process (again, after Kill) on the same ports
// and database, and waits until it answers.
func (s *Server) Restart(t testing.TB) error {
	t.Helper()
	s.cmd = exec.Command(s.bin, "server", "start-dev", "--headless", "--ip", "127.0.0.1",
		"--port", strconv.Itoa(s.ports[0]), "--http-port", strconv.Itoa(s.ports[1]),
		"--metrics-port", strconv.Itoa(s.ports[2]), "--db-filename", s.DB, "--log-level", "error")
	s.cmd.Stdout, s.cmd.Stderr = s.log, s.log
	if err := s.cmd.Start(); err != nil {
		return fmt.Errorf("temporaltest: start %s: %w", s.bin, err)
	}
	cmd, exited := s.cmd, make(chan struct{})
	s.exited = exited
	go func() { cmd.Wait(); close(exited) }()
	deadline := time.Now().Add(90 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		c, err := client.DialContext(ctx, client.Options{HostPort: s.HostPort, Logger: quiet{}})
		cancel()
		if err == nil {
			c.Close()
			return nil
		}
		select {
		case <-exited:
			return fmt.Errorf("temporaltest: at %s (log %s): %w", s.HostPort, s.log.Name(), errExited)
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("temporaltest: the server at %s did not answer in 90 s (log %s): %w", s.HostPort, s.log.Name(), err)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// Kill kills the server process at once (SIGKILL), keeping its database.
func (s *Server) Kill() {
	if s.cmd != nil && s.cmd.Process != nil {
		s.cmd.Process.Kill()
		<-s.exited
		s.cmd = nil
	}
}

// Stop stops the server (SIGTERM, then SIGKILL after 10 s).
func (s *Server) Stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-s.exited
	}
	s.cmd = nil
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// quiet is a Temporal SDK logger that drops everything (the dial retries
// above would fill the test log).
type quiet struct{}

func (quiet) Debug(string, ...any) {}
func (quiet) Info(string, ...any)  {}
func (quiet) Warn(string, ...any)  {}
func (quiet) Error(string, ...any) {}
