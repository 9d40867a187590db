package datasets

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
)

// WriterOptions configures a Writer.
type WriterOptions struct {
	// MaxRowsPerFile starts a new file once the current one holds this many
	// rows (record batches are split to fit). Zero means one file.
	MaxRowsPerFile int64
	// FilePrefix names the files <prefix>-00000.arrow, ...; default "part".
	FilePrefix string
}

// Writer writes a dataset: record batches go to numbered Arrow IPC files
// and Commit writes the manifest last. Until Commit the directory holds no
// manifest, so an interrupted write leaves no dataset behind.
type Writer struct {
	dir    string
	schema *arrow.Schema
	opts   WriterOptions
	cur    *FileWriter
	files  []FileEntry
	base   []FileEntry // files of the dataset being appended to (see newAppendWriter)
}

// NewWriter prepares dir (created if needed) for a new dataset. If dir
// already holds a dataset its manifest is removed first, so the old dataset
// stops existing before any of its files is replaced. To protect unrelated
// data, dir may only contain dataset files (the manifest, *.arrow files and
// temporary files).
func NewWriter(dir string, schema *arrow.Schema, opts WriterOptions) (*Writer, error) {
	if opts.FilePrefix == "" {
		opts.FilePrefix = "part"
	}
	if opts.MaxRowsPerFile < 0 {
		return nil, fmt.Errorf("datasets: writer for %s: MaxRowsPerFile %d is negative", dir, opts.MaxRowsPerFile)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("datasets: create dataset dir: %w", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("datasets: create dataset: %w", err)
	}
	for _, e := range entries {
		if !isDatasetFile(e.Name()) {
			return nil, fmt.Errorf("datasets: %s holds %q, which is not a dataset file; refusing to write a dataset there (choose an empty or dataset directory)", dir, e.Name())
		}
	}
	for _, e := range entries {
		if e.Name() == ManifestName || strings.HasPrefix(e.Name(), ".") {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return nil, fmt.Errorf("datasets: remove old %s: %w", e.Name(), err)
			}
		}
	}
	return &Writer{dir: dir, schema: schema, opts: opts}, nil
}

func isDatasetFile(name string) bool {
	return name == ManifestName || strings.HasSuffix(name, FileExt) ||
		(strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp-"))
}

// Dir is the dataset directory.
func (w *Writer) Dir() string { return w.dir }

// Rows is the number of rows written so far.
func (w *Writer) Rows() int64 {
	n := int64(0)
	for _, f := range w.files {
		n += f.Rows
	}
	if w.cur != nil {
		n += w.cur.Rows()
	}
	return n
}

// Write appends a record batch, splitting it across files as needed.
func (w *Writer) Write(rec arrow.Record) error {
	if !w.schema.Equal(rec.Schema()) {
		return fmt.Errorf("datasets: write to %s: record schema %v, want %v", w.dir, rec.Schema(), w.schema)
	}
	for off := int64(0); off < rec.NumRows(); {
		if err := w.openFile(); err != nil {
			return err
		}
		n := rec.NumRows() - off
		if max := w.opts.MaxRowsPerFile; max > 0 && w.cur.Rows()+n > max {
			n = max - w.cur.Rows()
		}
		if err := w.writeSlice(rec, off, n); err != nil {
			return err
		}
		off += n
		if max := w.opts.MaxRowsPerFile; max > 0 && w.cur.Rows() >= max {
			if err := w.closeFile(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *Writer) writeSlice(rec arrow.Record, off, n int64) error {
	if off == 0 && n == rec.NumRows() {
		return w.cur.Write(rec)
	}
	s := rec.NewSlice(off, off+n)
	defer s.Release()
	return w.cur.Write(s)
}

func (w *Writer) openFile() error {
	if w.cur != nil {
		return nil
	}
	name := fmt.Sprintf("%s-%05d", w.opts.FilePrefix, len(w.files))
	f, err := CreateFile(w.dir, name, w.schema)
	if err != nil {
		return err
	}
	w.cur = f
	return nil
}

func (w *Writer) closeFile() error {
	if w.cur == nil {
		return nil
	}
	e, err := w.cur.Close()
	w.cur = nil
	if err != nil {
		return err
	}
	w.files = append(w.files, e)
	return nil
}

// Commit finishes the last file, removes *.arrow files of an earlier
// dataset that this one did not rewrite, and writes the manifest from m
// (Files and Rows are filled in). An empty dataset gets one empty file so
// that readers still learn its schema.
func (w *Writer) Commit(m Manifest) (*Manifest, error) {
	if len(w.files) == 0 {
		if err := w.openFile(); err != nil {
			return nil, err
		}
	}
	if err := w.closeFile(); err != nil {
		return nil, err
	}
	if err := w.removeStale(); err != nil {
		return nil, err
	}
	m.Files = append(append([]FileEntry(nil), w.base...), w.files...)
	m.Rows = 0
	if err := WriteManifest(w.dir, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

func (w *Writer) removeStale() error {
	keep := make(map[string]bool, len(w.base)+len(w.files))
	for _, list := range [][]FileEntry{w.base, w.files} {
		for _, f := range list {
			keep[f.Name] = true
		}
	}
	old, err := filepath.Glob(filepath.Join(w.dir, "*"+FileExt))
	if err != nil {
		return fmt.Errorf("datasets: list %s: %w", w.dir, err)
	}
	for _, p := range old {
		if !keep[filepath.Base(p)] {
			if err := os.Remove(p); err != nil {
				return fmt.Errorf("datasets: remove stale %s: %w", p, err)
			}
		}
	}
	return nil
}

// Abort drops the file being written. Completed files stay, but there is no
// manifest, so there is no dataset.
func (w *Writer) Abort() {
	if w.cur != nil {
		w.cur.Abort()
		w.cur = nil
	}
}

// Reader iterates over the record batches of a dataset, file by file in
// manifest order.
type Reader struct {
	dir    string
	m      *Manifest
	schema *arrow.Schema
	file   int // index of cur in m.Files
	cur    *FileReader
	rows   int64 // rows read from cur
}

// Open verifies the dataset in dir (manifest, sizes, checksums) and opens
// it for reading. Every file must have the first file's schema.
func Open(dir string) (*Reader, error) {
	m, err := Verify(dir)
	if err != nil {
		return nil, err
	}
	r := &Reader{dir: dir, m: m, file: -1}
	if len(m.Files) > 0 {
		if err := r.openNext(); err != nil {
			return nil, err
		}
		r.schema = r.cur.Schema()
	}
	return r, nil
}

// OpenKind is Open that also checks the dataset's kind and schema version.
func OpenKind(dir, kind string, schemaVersion int) (*Reader, error) {
	r, err := Open(dir)
	if err != nil {
		return nil, err
	}
	if err := checkKind(dir, r.m, kind, schemaVersion); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// checkKind fails unless m, the manifest of the dataset in dir, has the
// given kind and schema version.
func checkKind(dir string, m *Manifest, kind string, schemaVersion int) error {
	if m.Kind != kind || m.SchemaVersion != schemaVersion {
		return fmt.Errorf("datasets: %s is a %q dataset, schema version %d; want %q version %d (rebuild it with this version of lifezero)",
			dir, m.Kind, m.SchemaVersion, kind, schemaVersion)
	}
	return nil
}

// Manifest is the dataset's verified manifest.
func (r *Reader) Manifest() *Manifest { return r.m }

// Schema is the dataset's schema (nil for a dataset without files).
func (r *Reader) Schema() *arrow.Schema { return r.schema }

func (r *Reader) openNext() error {
	if r.cur != nil {
		if err := r.cur.Close(); err != nil {
			return err
		}
		r.cur = nil
	}
	r.file++
	r.rows = 0
	if r.file >= len(r.m.Files) {
		return io.EOF
	}
	f, err := OpenFile(r.dir, r.m.Files[r.file], r.schema)
	if err != nil {
		return err
	}
	r.cur = f
	return nil
}

// Next returns the next record batch, or io.EOF after the last. The record
// is valid until the next call to Next or Close; Retain it to keep it longer.
func (r *Reader) Next() (arrow.Record, error) {
	for r.cur != nil {
		rec, err := r.cur.Next()
		if err == nil {
			r.rows += rec.NumRows()
			return rec, nil
		}
		if !errors.Is(err, io.EOF) {
			return nil, err
		}
		e := r.m.Files[r.file]
		if r.rows != e.Rows {
			return nil, fmt.Errorf("datasets: %s: %d rows, manifest says %d", r.cur.path, r.rows, e.Rows)
		}
		if err := r.openNext(); err != nil {
			return nil, err
		}
	}
	return nil, io.EOF
}

// Close closes the current file.
func (r *Reader) Close() error {
	if r.cur == nil {
		return nil
	}
	err := r.cur.Close()
	r.cur = nil
	return err
}

// ForEach opens the dataset in dir and calls fn with every record batch
// (valid only during the call). It stops at the first error, or when ctx is
// done.
func ForEach(ctx context.Context, dir string, fn func(arrow.Record) error) (*Manifest, error) {
	r, err := Open(dir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if err := r.forEach(ctx, fn); err != nil {
		return nil, err
	}
	return r.m, nil
}

func (r *Reader) forEach(ctx context.Context, fn func(arrow.Record) error) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(rec); err != nil {
			return err
		}
	}
}
