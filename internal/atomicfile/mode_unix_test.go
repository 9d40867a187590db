//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWriteFileMode: a written file is 0644 under the umask, like one from
// os.Create, not the 0600 that os.CreateTemp gives.
func TestWriteFileMode(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		umask int
		want  os.FileMode
	}{{0o022, 0o644}, {0o027, 0o640}, {0o002, 0o644}} {
		old := syscall.Umask(tt.umask)
		path := filepath.Join(dir, "x.json")
		err := WriteFile(path, []byte("{}"))
		f, terr := CreateTemp(dir, ".y.tmp-*")
		syscall.Umask(old)
		if err != nil || terr != nil {
			t.Fatal(err, terr)
		}
		f.Close()
		for _, p := range []string{path, f.Name()} {
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Mode().Perm(); got != tt.want {
				t.Errorf("umask %03o: %s has mode %03o, want %03o", tt.umask, filepath.Base(p), got, tt.want)
			}
		}
		os.Remove(f.Name())
	}
}
