//go:build unix

package sgf

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWriteFileMode: a written SGF file is 0644 under the umask, as
// internal/atomicfile makes every file, not a fixed 0644 that ignores a
// stricter umask.
func TestWriteFileMode(t *testing.T) {
	dir := t.TempDir()
	c := Collection{chain(node(prop("GM", "1")), node(prop("B", "pd")))}
	for _, tt := range []struct {
		umask int
		want  os.FileMode
	}{{0o027, 0o640}, {0o077, 0o600}, {0o022, 0o644}} {
		path := filepath.Join(dir, "out.sgf")
		old := syscall.Umask(tt.umask)
		err := c.WriteFile(path)
		syscall.Umask(old)
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != tt.want {
			t.Errorf("umask %03o: mode %03o, want %03o", tt.umask, got, tt.want)
		}
	}
}
