// Package testdata locates the shared data the tests read: ../shared/data
// beside the repository root (the nearest directory above the test's
// working directory that holds go.mod). A test that needs it and finds it
// missing is skipped with a message naming the path, as DESIGN.md asks;
// CI always has it.
package testdata

import (
	"os"
	"path/filepath"
	"testing"
)

// Path returns ../shared/data joined with parts, or skips the test when the
// repository root or the path cannot be found.
func Path(tb testing.TB, parts ...string) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Skip("no go.mod above the test directory, so no ../shared/data")
		}
		dir = parent
	}
	path := filepath.Join(append([]string{dir, "..", "shared", "data"}, parts...)...)
	if _, err := os.Stat(path); err != nil {
		tb.Skipf("shared data %s not found", path)
	}
	return path
}
