// Package readfile reads a user-given file whole, safely: the path (after
// following symlinks) must be a regular file, so /dev/zero, a FIFO or a
// directory is refused before anything is read; where the caller expects
// certain extensions the name is checked first; and the read stops at a size
// limit, so no file can exhaust memory. Every error names the path and says
// what was wrong.
package readfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Size limits of the files the commands read whole. They are far above any
// real file of each kind and far below what would exhaust memory.
const (
	MaxProblem  = 16 << 20 // a problem file (.json or .sgf)
	MaxPipeline = 4 << 20  // a pipeline file (YAML)
	MaxManifest = 64 << 20 // a dataset manifest
	MaxSGF      = 1 << 30  // an SGF collection (game records)
	MaxWeights  = 2 << 30  // a network weights or optimiser state file
	MaxText     = 64 << 20 // a report section or other text file
)

// ErrTooLarge is wrapped by the error for a file above its limit.
var ErrTooLarge = errors.New("file too large")

// ErrNotRegular is wrapped by the error for a path that is not a regular
// file (a device, FIFO, socket or directory), after following symlinks.
var ErrNotRegular = errors.New("not a regular file")

// Read returns the content of the file at path. It must be a regular file
// (symlinks are followed) of at most limit bytes and, when exts are given,
// its name must end in one of them (compared without case, ".json" style).
// Errors name the path; a missing file's error wraps fs.ErrNotExist.
func Read(path string, limit int64, exts ...string) ([]byte, error) {
	if err := CheckExt(path, exts...); err != nil {
		return nil, err
	}
	st, err := os.Stat(path) // before opening: opening a FIFO would block
	if err != nil {
		return nil, err
	}
	if err := checkRegular(path, st); err != nil {
		return nil, err
	}
	if st.Size() > limit {
		return nil, tooLarge(path, st.Size(), limit)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil { // what was opened, should the path have changed
		return nil, err
	}
	if err := checkRegular(path, st); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(data)) > limit { // grew since the stat
		return nil, tooLarge(path, int64(len(data)), limit)
	}
	return data, nil
}

// CheckExt reports an error naming path when exts are given and its name
// ends in none of them.
func CheckExt(path string, exts ...string) error {
	if len(exts) == 0 {
		return nil
	}
	ext := filepath.Ext(path)
	for _, e := range exts {
		if strings.EqualFold(ext, e) {
			return nil
		}
	}
	return fmt.Errorf("%s: want a %s file", path, strings.Join(exts, " or "))
}

func checkRegular(path string, st fs.FileInfo) error {
	if st.Mode().IsRegular() {
		return nil
	}
	return fmt.Errorf("%s: %w (it is %s)", path, ErrNotRegular, modeName(st.Mode()))
}

func modeName(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "mode " + m.String()
}

func tooLarge(path string, size, limit int64) error {
	return fmt.Errorf("%s: %w: %s, more than the %s this file may hold", path, ErrTooLarge, bytesText(size), bytesText(limit))
}

func bytesText(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
