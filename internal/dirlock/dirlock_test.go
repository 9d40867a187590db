package dirlock

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

// holderEnv makes the test binary a process that holds a lock until killed.
const holderEnv = "LIFEZERO_DIRLOCK_HOLDER"

// TestHolderProcess is the lock holder of TestLockAcrossProcesses.
func TestHolderProcess(t *testing.T) {
	dir := os.Getenv(holderEnv)
	if dir == "" {
		t.Skip("helper process for TestLockAcrossProcesses")
	}
	l, err := Acquire(dir)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("locked")
	// Until killed. The lock must stay reachable: a dropped *Lock's file
	// is closed by the garbage collector, and closing it drops the flock,
	// which made TestLockAcrossProcesses fail under a loaded CI.
	for {
		time.Sleep(time.Hour)
		runtime.KeepAlive(l)
	}
}

func TestLockAcrossProcesses(t *testing.T) {
	if runtime.GOOS == "windows" || testing.Short() {
		t.Skip("needs flock and a subprocess")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHolderProcess$")
	cmd.Env = append(os.Environ(), holderEnv+"="+dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if line != "locked\n" {
		t.Fatalf("holder said %q", line)
	}

	_, err = Acquire(dir)
	var be *BusyError
	if !errors.As(err, &be) || be.PID != cmd.Process.Pid {
		t.Fatalf("Acquire while another process holds the lock: %v, want a BusyError with pid %d", err, cmd.Process.Pid)
	}
	for _, want := range []string{dir, fmt.Sprintf("pid %d", cmd.Process.Pid), "in use by another lifezero process"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}

	// kill -9: the OS drops the lock with the process, nothing stale stays.
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	l, err := Acquire(dir)
	if err != nil {
		t.Fatalf("Acquire after the holder was killed: %v", err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
}

func TestLockInOneProcess(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no flock")
	}
	dir := t.TempDir()
	l, err := Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Acquire(dir)
	var be *BusyError
	if !errors.As(err, &be) || be.PID != os.Getpid() {
		t.Fatalf("second Acquire: %v, want a BusyError with this pid", err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	l2, err := Acquire(dir)
	if err != nil {
		t.Fatalf("Acquire after Release: %v", err)
	}
	l2.Release()
	if _, err := Acquire(dir + "/missing"); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("Acquire of a missing dir: %v", err)
	}
}
