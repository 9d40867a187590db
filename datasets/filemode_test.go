package datasets

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"lifezero/internal/testdata"
)

// TestDatasetFilesMode: the data files and the manifest are 0644 under the
// umask, readable by others like any written file, not 0600.
func TestDatasetFilesMode(t *testing.T) {
	want := testdata.WantFileMode(t)
	dir := t.TempDir()
	schema := arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int64}}, nil)
	w, err := NewWriter(dir, schema, WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	b := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).Append(7)
	rec := b.NewRecord()
	defer rec.Release()
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	m, err := w.Commit(Manifest{Kind: "test", SchemaVersion: 1})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{ManifestName}
	for _, f := range m.Files {
		names = append(names, f.Name)
	}
	for _, name := range names {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s: mode %03o, want %03o", name, got, want)
		}
	}
}
