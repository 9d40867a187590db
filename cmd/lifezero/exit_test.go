package main

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// mainEnv makes the test binary run main() with the arguments in it
// (separated by newlines), as the lifezero binary would.
const mainEnv = "LIFEZERO_TEST_MAIN_ARGS"

// TestMainProcess is the lifezero process of TestSIGINTExits130.
func TestMainProcess(t *testing.T) {
	args := os.Getenv(mainEnv)
	if args == "" {
		t.Skip("helper process for TestSIGINTExits130")
	}
	os.Args = append([]string{"lifezero"}, strings.Split(args, "\n")...)
	main() // exits
}

// TestSIGINTExits130: Ctrl-C stops a command cleanly (it says how far it
// got) and the process exits 130, as shells report a process stopped by
// SIGINT, not 1 as for a failure.
func TestSIGINTExits130(t *testing.T) {
	if runtime.GOOS == "windows" || testing.Short() {
		t.Skip("sends SIGINT to a subprocess")
	}
	// A 19x19 problem with a huge budget: far longer than the test.
	cmd := exec.Command(os.Args[0], "-test.run=^TestMainProcess$")
	cmd.Env = append(os.Environ(), mainEnv+"=solve\n../../samples/problems/cho19-dev/001.json\n--budget\n1000000000\n--max-memory\n200MB")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond) // past signal.Notify, into the solve
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the command did not stop within 60 s of SIGINT")
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("exit %d after SIGINT, want 130\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "interrupted: 0 of 1 problems done") {
		t.Errorf("stdout does not say the run was interrupted:\n%s", stdout.String())
	}
}

func TestExitCode(t *testing.T) {
	for _, tt := range []struct {
		code int
		sig  os.Signal
		want int
	}{{0, nil, 0}, {1, nil, 1}, {2, nil, 2}, {1, os.Interrupt, 130}, {0, os.Interrupt, 130}, {1, syscall.SIGTERM, 143}} {
		if got := exitCode(tt.code, tt.sig); got != tt.want {
			t.Errorf("exitCode(%d, %v) = %d, want %d", tt.code, tt.sig, got, tt.want)
		}
	}
}
