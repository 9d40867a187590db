// Package atomicfile writes files so that readers never see a partial one:
// the data goes to a temp file in the same directory, is synced, and is
// renamed over the target, and the directory is synced so that the rename
// itself survives a crash. Every package that writes a result file uses
// it, which is what lets a killed stage leave either the old file or the
// new one, never half of one.
//
// Files get mode 0644 under the process's umask, as os.Create gives them
// (os.CreateTemp would make them 0600, private to their writer).
package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Mode is the permission a written file gets before the umask applies.
const Mode fs.FileMode = 0o644

// WriteFile writes data to path atomically. The error names the path.
func WriteFile(path string, data []byte) error {
	return WriteFunc(path, func(f *os.File) error {
		_, err := f.Write(data)
		return err
	})
}

// WriteFunc writes path atomically: write fills a temporary file in the
// same directory, which is then synced, closed and renamed over path, and
// the directory synced. Nothing is left behind on failure. The error names
// the path.
func WriteFunc(path string, write func(f *os.File) error) error {
	tmp, err := CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	name := tmp.Name()
	err = write(tmp)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(name, path)
	}
	if err != nil {
		os.Remove(name)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := SyncDir(filepath.Dir(path)); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// CreateTemp is os.CreateTemp (the last "*" of pattern becomes a random
// string; without one it is appended) except that the file gets Mode under
// the umask instead of 0600, so that renaming it into place gives an
// ordinary file.
func CreateTemp(dir, pattern string) (*os.File, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	if strings.ContainsRune(pattern, os.PathSeparator) {
		return nil, fmt.Errorf("atomicfile: pattern %q contains a path separator", pattern)
	}
	prefix, suffix := pattern, ""
	if i := strings.LastIndex(pattern, "*"); i >= 0 {
		prefix, suffix = pattern[:i], pattern[i+1:]
	}
	for try := 0; ; try++ {
		var b [8]byte
		rand.Read(b[:])
		name := filepath.Join(dir, prefix+hex.EncodeToString(b[:])+suffix)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, Mode)
		if errors.Is(err, fs.ErrExist) && try < 100 {
			continue
		}
		return f, err
	}
}

// SyncDir syncs directory dir, making the renames and removals in it
// durable. Where directories cannot be synced (Windows) it does nothing.
func SyncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync dir: %w", err)
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("sync dir %s: %w", dir, err)
	}
	return nil
}
