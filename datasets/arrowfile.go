package datasets

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"lifezero/internal/atomicfile"
)

// FileExt is the extension of a dataset's data files.
const FileExt = ".arrow"

// FileWriter writes record batches to one zstd-compressed Arrow IPC file.
// The file is written under a temporary name and renamed into place by
// Close, so a killed writer never leaves a file that looks complete.
type FileWriter struct {
	dir, name string // name includes FileExt
	tmp       *os.File
	w         *ipc.FileWriter
	rows      int64
	done      bool
}

// CreateFile starts <dir>/<name>.arrow (name is given without the
// extension) with the given schema. Call Close to finish it or Abort to drop it.
func CreateFile(dir, name string, schema *arrow.Schema) (*FileWriter, error) {
	name += FileExt
	if !filepath.IsLocal(name) {
		return nil, fmt.Errorf("datasets: create %q in %s: not a local file name", name, dir)
	}
	tmp, err := atomicfile.CreateTemp(dir, "."+name+".tmp-*") // 0644 under the umask, not 0600
	if err != nil {
		return nil, fmt.Errorf("datasets: create %s: %w", filepath.Join(dir, name), err)
	}
	w, err := ipc.NewFileWriter(tmp, ipc.WithSchema(schema), ipc.WithZstd(),
		ipc.WithAllocator(memory.NewGoAllocator()))
	if err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("datasets: create %s: %w", filepath.Join(dir, name), err)
	}
	return &FileWriter{dir: dir, name: name, tmp: tmp, w: w}, nil
}

// Path is the final path of the file.
func (w *FileWriter) Path() string { return filepath.Join(w.dir, w.name) }

// Rows is the number of rows written so far.
func (w *FileWriter) Rows() int64 { return w.rows }

// Write appends one record batch. Its schema must equal the file's.
func (w *FileWriter) Write(rec arrow.Record) error {
	if w.done {
		return fmt.Errorf("datasets: write %s: file already closed", w.Path())
	}
	if err := w.w.Write(rec); err != nil {
		return fmt.Errorf("datasets: write %s: %w", w.Path(), err)
	}
	w.rows += rec.NumRows()
	return nil
}

// Close writes the footer, syncs, renames the file into place and returns
// its manifest entry. The directory is synced when the manifest is written
// (datasets.WriteManifest), which makes every rename before it durable.
func (w *FileWriter) Close() (FileEntry, error) {
	if w.done {
		return FileEntry{}, fmt.Errorf("datasets: close %s: already closed", w.Path())
	}
	w.done = true
	tmpName := w.tmp.Name()
	err := w.w.Close()
	if err == nil {
		err = w.tmp.Sync()
	}
	if cerr := w.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmpName, w.Path())
	}
	if err != nil {
		os.Remove(tmpName)
		return FileEntry{}, fmt.Errorf("datasets: finish %s: %w", w.Path(), err)
	}
	sha, size, err := HashFile(w.Path())
	if err != nil {
		return FileEntry{}, err
	}
	return FileEntry{Name: w.name, Rows: w.rows, Bytes: size, SHA256: sha}, nil
}

// Abort drops the file. It is a no-op after Close.
func (w *FileWriter) Abort() {
	if w.done {
		return
	}
	w.done = true
	w.tmp.Close()
	os.Remove(w.tmp.Name())
}

// FileReader reads the record batches of one data file of a dataset.
//
// The file is read into memory and checked against its manifest entry
// (size and SHA-256) before the Arrow library sees a byte of it: the
// library trusts lengths in a file's metadata and can exhaust memory on a
// corrupt one, which no recover can catch. Parsing the very bytes that were
// hashed leaves no window for the file to change in between. As a second
// line of defence every library call is guarded (a panic becomes an error
// naming the file), buffer allocations are capped, and each record's buffers
// are checked before it is returned so later value accesses cannot run out
// of bounds.
type FileReader struct {
	path     string
	r        *ipc.FileReader
	nRecords int
	next     int
	rec      arrow.Record
}

// OpenFile opens the data file e of the dataset in dir after checking it
// against e. If schema is not nil the file's schema must equal it.
func OpenFile(dir string, e FileEntry, schema *arrow.Schema) (*FileReader, error) {
	path := filepath.Join(dir, e.Name)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("datasets: %s: missing (listed in the manifest)", path)
	}
	if err != nil {
		return nil, fmt.Errorf("datasets: open %s: %w", path, err)
	}
	if err := checkContent(path, int64(len(data)), sha256Hex(data), e); err != nil {
		return nil, err
	}
	return parseFile(path, data, schema, maxBufferBytes)
}

// parseFile opens an in-memory Arrow IPC file, allocating no buffer larger
// than maxBuffer.
func parseFile(path string, data []byte, schema *arrow.Schema, maxBuffer int) (*FileReader, error) {
	var (
		r        *ipc.FileReader
		nRecords int
	)
	err := guard(func() error {
		var err error
		r, err = ipc.NewFileReader(bytes.NewReader(data), ipc.WithAllocator(&cappedAllocator{max: maxBuffer}))
		if err == nil {
			nRecords = r.NumRecords()
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("datasets: %s: not a readable Arrow IPC file (truncated or corrupt?): %w", path, err)
	}
	if schema != nil && !schema.Equal(r.Schema()) {
		guard(r.Close)
		return nil, fmt.Errorf("datasets: %s: schema %v, want %v", path, r.Schema(), schema)
	}
	return &FileReader{path: path, r: r, nRecords: nRecords}, nil
}

// Schema is the file's schema.
func (r *FileReader) Schema() *arrow.Schema { return r.r.Schema() }

// NumRecords is the number of record batches in the file.
func (r *FileReader) NumRecords() int { return r.nRecords }

// Next returns the next record batch, or io.EOF after the last. The record
// is valid until the next call to Next or Close; Retain it to keep it longer.
func (r *FileReader) Next() (arrow.Record, error) {
	r.releaseRecord()
	if r.next >= r.nRecords {
		return nil, io.EOF
	}
	i := r.next
	r.next++
	var rec arrow.Record
	err := guard(func() error {
		var err error
		rec, err = r.r.RecordAt(i)
		if err != nil {
			return err
		}
		return validateRecord(rec)
	})
	if err != nil {
		if rec != nil {
			guard(func() error { rec.Release(); return nil })
		}
		return nil, fmt.Errorf("datasets: %s: record batch %d: corrupt: %w", r.path, i, err)
	}
	r.rec = rec
	return rec, nil
}

func (r *FileReader) releaseRecord() {
	if r.rec != nil {
		r.rec.Release()
		r.rec = nil
	}
}

// Close releases the current record and closes the file.
func (r *FileReader) Close() error {
	r.releaseRecord()
	if err := guard(r.r.Close); err != nil {
		return fmt.Errorf("datasets: close %s: %w", r.path, err)
	}
	return nil
}

// guard runs fn and turns a panic inside it (the Arrow library panics on
// some corrupt inputs) into an error.
func guard(fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("arrow panicked: %v", p)
		}
	}()
	return fn()
}
