package testdata

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// WantFileMode is 0644 under the process's umask (read from /proc, Linux,
// without changing it): the mode every file lifezero writes should have.
// It skips the test where /proc gives no umask.
func WantFileMode(tb testing.TB) os.FileMode {
	tb.Helper()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		tb.Skipf("no /proc/self/status to read the umask from: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "Umask:"); ok {
			n, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32)
			if err != nil {
				tb.Fatal(err)
			}
			return 0o644 &^ os.FileMode(n)
		}
	}
	tb.Skip("/proc/self/status has no Umask line")
	return 0
}

// CheckFileMode fails the test unless path has WantFileMode's mode.
func CheckFileMode(tb testing.TB, path string) {
	tb.Helper()
	want := WantFileMode(tb)
	fi, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != want {
		tb.Errorf("%s: mode %03o, want %03o (0644 under the umask)", path, got, want)
	}
}
