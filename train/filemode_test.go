package train

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// wantFileMode is 0644 under the process's umask (read from /proc, Linux).
func wantFileMode(t *testing.T) os.FileMode {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc/self/status to read the umask from: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "Umask:"); ok {
			n, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32)
			if err != nil {
				t.Fatal(err)
			}
			return 0o644 &^ os.FileMode(n)
		}
	}
	t.Skip("/proc/self/status has no Umask line")
	return 0
}

func checkFileMode(t *testing.T, path string) {
	t.Helper()
	want := wantFileMode(t)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != want {
		t.Errorf("%s: mode %03o, want %03o (0644 under the umask)", path, got, want)
	}
}

func TestSaveModelFileMode(t *testing.T) {
	samples := smallSamples(6, 50)
	m, err := trainers[0].train(t.Context(), samples, newRand(9), nil)
	if err != nil {
		t.Fatal(err)
	}
	path := t.TempDir() + "/model.weights"
	if err := SaveModel(path, m); err != nil {
		t.Fatal(err)
	}
	checkFileMode(t, path)
}
