package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.json")
	for _, content := range []string{"first", "second, longer"} {
		if err := WriteFile(path, []byte(content)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != content {
			t.Fatalf("read %q, %v; want %q", got, err, content)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temp files left behind: %v", entries)
	}
	err := WriteFile(filepath.Join(dir, "missing", "y"), []byte("z"))
	if err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("error %v should name the path", err)
	}
}

func TestCreateTempNames(t *testing.T) {
	dir := t.TempDir()
	seen := map[string]bool{}
	for i := 0; i < 20; i++ {
		f, err := CreateTemp(dir, ".data.arrow.tmp-*")
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		base := filepath.Base(f.Name())
		if filepath.Dir(f.Name()) != dir || !strings.HasPrefix(base, ".data.arrow.tmp-") || len(base) <= len(".data.arrow.tmp-") || seen[base] {
			t.Errorf("temp file %s", f.Name())
		}
		seen[base] = true
	}
	if _, err := CreateTemp(dir, "a/b*"); err == nil {
		t.Error("a pattern with a separator: no error")
	}
}
