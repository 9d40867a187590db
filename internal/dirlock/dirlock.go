// Package dirlock keeps two processes from working in one directory at
// once. The lock is an OS file lock (flock on Unix) on a lock file in the
// directory, so it goes away with its process, however that process ends:
// a kill -9 leaves no stale lock behind. The lock file holds the pid of its
// holder, which the error of a refused Acquire names.
package dirlock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// FileName is the lock file Acquire creates in the directory. It stays when
// the lock is released: removing it could let two processes lock two
// different files of that name.
const FileName = "_lock"

// Lock is a held lock on a directory.
type Lock struct {
	f    *os.File
	path string
}

// BusyError is returned by Acquire when another process (or another Lock
// of this one) holds the directory.
type BusyError struct {
	Dir  string
	Path string // the lock file
	PID  int    // the holder's pid; 0 when the lock file does not say
}

func (e *BusyError) Error() string {
	holder := "pid unknown"
	if e.PID > 0 {
		holder = "pid " + strconv.Itoa(e.PID)
	}
	return fmt.Sprintf("%s is in use by another lifezero process (%s, holding the lock on %s); "+
		"wait for it to finish or stop it, or choose another directory", e.Dir, holder, e.Path)
}

// errLocked is what lockFile returns when the file is locked elsewhere.
var errLocked = errors.New("locked")

// Acquire locks dir (which must exist) for this process, or returns a
// *BusyError naming the holder's pid if another holds it. It never waits.
func Acquire(dir string) (*Lock, error) {
	path := filepath.Join(dir, FileName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		if errors.Is(err, errLocked) {
			return nil, &BusyError{Dir: dir, Path: path, PID: readPID(path)}
		}
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	// The holder's pid, for the error of whoever comes next.
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &Lock{f: f, path: path}, nil
}

// Release unlocks the directory. The OS releases the lock anyway when the
// process ends.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	l.f.Truncate(0) // no pid of a process that no longer holds the lock
	err := unlockFile(l.f)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	return err
}

// readPID reads the holder's pid. The holder writes it just after taking
// the lock, so an empty file gets a few short retries.
func readPID(path string) int {
	for try := 0; try < 10; try++ {
		b, err := os.ReadFile(path)
		if err != nil {
			return 0
		}
		if s := strings.TrimSpace(string(b)); s != "" {
			pid, err := strconv.Atoi(s)
			if err != nil || pid <= 0 {
				return 0
			}
			return pid
		}
		time.Sleep(10 * time.Millisecond)
	}
	return 0
}
