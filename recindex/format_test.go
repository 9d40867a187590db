package recindex

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyIndex copies the test index into a fresh directory to damage.
func copyIndex(t *testing.T) string {
	t.Helper()
	src := buildTestIndex(t).index
	dir := t.TempDir()
	for _, name := range []string{DataFile, MetaFile} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestDamagedIndex: a truncated, corrupt or missing file gives an error
// naming it, never a panic or a wrong answer.
func TestDamagedIndex(t *testing.T) {
	for _, c := range []struct {
		name    string
		damage  func(dir string) error
		file    string // the file the error names
		corrupt bool   // the error wraps ErrCorrupt
	}{
		{"truncated", func(dir string) error {
			path := filepath.Join(dir, DataFile)
			st, err := os.Stat(path)
			if err != nil {
				return err
			}
			return os.Truncate(path, st.Size()/2)
		}, DataFile, true},
		{"truncated header", func(dir string) error { return os.Truncate(filepath.Join(dir, DataFile), 10) }, DataFile, true},
		{"empty", func(dir string) error { return os.Truncate(filepath.Join(dir, DataFile), 0) }, DataFile, true},
		{"flipped byte", func(dir string) error { return flipByte(filepath.Join(dir, DataFile), 0.6) }, DataFile, true},
		{"bad magic", func(dir string) error { return flipByte(filepath.Join(dir, DataFile), 0) }, DataFile, true},
		{"no data file", func(dir string) error { return os.Remove(filepath.Join(dir, DataFile)) }, DataFile, false},
		{"no meta", func(dir string) error { return os.Remove(filepath.Join(dir, MetaFile)) }, MetaFile, false},
		{"meta not json", func(dir string) error { return os.WriteFile(filepath.Join(dir, MetaFile), []byte("{"), 0o644) }, MetaFile, true},
		{"meta counts wrong", func(dir string) error {
			path := filepath.Join(dir, MetaFile)
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(path, []byte(strings.Replace(string(data), `"games": `, `"games": 1`, 1)), 0o644)
		}, DataFile, true},
		{"other version", func(dir string) error {
			path := filepath.Join(dir, MetaFile)
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(path, []byte(strings.Replace(string(data), fmt.Sprintf(`"version": %d`, FormatVersion), `"version": 99`, 1)), 0o644)
		}, MetaFile, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := copyIndex(t)
			if err := c.damage(dir); err != nil {
				t.Fatal(err)
			}
			x, err := Open(dir)
			if err == nil {
				x.Close()
				t.Fatal("opened a damaged index")
			}
			if !strings.Contains(err.Error(), filepath.Join(dir, c.file)) && !strings.Contains(err.Error(), c.file) {
				t.Errorf("error %q does not name %s", err, c.file)
			}
			if errors.Is(err, ErrCorrupt) != c.corrupt {
				t.Errorf("error %q: wraps ErrCorrupt %v, want %v", err, errors.Is(err, ErrCorrupt), c.corrupt)
			}
		})
	}
}

func flipByte(path string, at float64) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	data[int(at*float64(len(data)-1))] ^= 0x5a
	return os.WriteFile(path, data, 0o644)
}

// TestRebuildReplaces: building into an existing index directory replaces
// it, and the new index answers like the old.
func TestRebuildReplaces(t *testing.T) {
	td := buildTestIndex(t)
	dir := copyIndex(t)
	if _, err := Build(context.Background(), BuildOptions{Datasets: []string{td.games}, OutDir: dir}); err != nil {
		t.Fatal(err)
	}
	old, err := Open(td.index)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	x, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	p := mustDiagram(t, "X O\n. X")
	a, err := old.Search(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := x.Search(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a.NumHits != b.NumHits || a.NumHits == 0 {
		t.Errorf("rebuilt index: %d hits, the first %d", b.NumHits, a.NumHits)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("index dir holds %d files, want 2 (no temporary files left)", len(entries))
	}
}

// TestSearchCancelled: a cancelled context stops a search with its error.
func TestSearchCancelled(t *testing.T) {
	x := openTestIndex(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := x.Search(ctx, mustDiagram(t, "X"), Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}
