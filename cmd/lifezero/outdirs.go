package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"lifezero/datasets"
	"lifezero/internal/atomicfile"
)

// Output checks run before a command does any work, so that a bad output
// location (a file where a directory is expected, a read-only folder, a
// dataset that must not be replaced) is an error at once rather than after
// hours of solving. They create nothing.

// checkOutDir checks that files can be written in directory dir, or that
// dir can be created. flag names it in errors ("--sgf-dir").
func checkOutDir(flag, dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case err == nil && !fi.IsDir():
		return fmt.Errorf("%s %s: exists and is not a directory", flag, dir)
	case err == nil:
		return probeWritable(flag, dir, dir)
	case !missing(err):
		return fmt.Errorf("%s %s: %w", flag, dir, err)
	}
	// dir is to be created: its nearest existing ancestor must be a
	// writable directory.
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("%s %s: %w", flag, dir, err)
	}
	for parent := filepath.Dir(abs); ; parent = filepath.Dir(parent) {
		fi, err := os.Stat(parent)
		switch {
		case err == nil && !fi.IsDir():
			return fmt.Errorf("%s %s: cannot be created: %s is not a directory", flag, dir, parent)
		case err == nil:
			return probeWritable(flag, dir, parent)
		case !missing(err):
			return fmt.Errorf("%s %s: %w", flag, dir, err)
		case parent == filepath.Dir(parent):
			return fmt.Errorf("%s %s: no existing parent directory", flag, dir)
		}
	}
}

// missing reports whether a stat error says the path does not exist (a
// file on the way, ENOTDIR, is found and reported walking up).
func missing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// probeWritable creates and removes a temp file in dir, the only sure test
// (permissions, read-only mounts, ACLs, quotas of zero).
func probeWritable(flag, target, dir string) error {
	f, err := atomicfile.CreateTemp(dir, ".lifezero-write-check.tmp-*")
	if err != nil {
		if dir == target {
			return fmt.Errorf("%s %s: not writable: %w", flag, target, err)
		}
		return fmt.Errorf("%s %s: cannot be created: %w", flag, target, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// checkDatasetOut checks that a dataset of kind may be written to dir: dir
// is writable (or creatable) and holds nothing but dataset files; a
// dataset of another kind there is never replaced, and one of the same
// kind only with overwrite (the --overwrite flag).
func checkDatasetOut(flag, dir, kind string, overwrite bool) error {
	if err := checkOutDir(flag, dir); err != nil {
		return err
	}
	m, err := datasets.ReadManifest(dir)
	switch {
	case err == nil && m.Kind != kind:
		return fmt.Errorf("%s %s holds a %s dataset; refusing to replace a dataset of another kind with a %s dataset "+
			"(choose another %s)", flag, dir, m.Kind, kind, flag)
	case err == nil && !overwrite:
		return fmt.Errorf("%s %s already holds a %s dataset (%d rows); add --overwrite to replace it, or choose another %s",
			flag, dir, kind, m.Rows, flag)
	case err == nil:
		return nil
	case !errors.Is(err, datasets.ErrNoDataset):
		return fmt.Errorf("%s %s: %w; refusing to write over what may be a dataset (remove it by hand if it is not wanted)", flag, dir, err)
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // to be created
	} else if err != nil {
		return fmt.Errorf("%s %s: %w", flag, dir, err)
	}
	for _, e := range entries {
		if !isDatasetEntry(e) {
			return fmt.Errorf("%s %s holds %q, which is not a dataset file; refusing to write a dataset there "+
				"(choose an empty or new directory)", flag, dir, e.Name())
		}
	}
	return nil
}

// isDatasetEntry mirrors what datasets.NewWriter accepts in a directory it
// writes a dataset to: data files and the temp files of killed writes.
func isDatasetEntry(e fs.DirEntry) bool {
	name := e.Name()
	return !e.IsDir() && (strings.HasSuffix(name, datasets.FileExt) ||
		(strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp-")))
}
