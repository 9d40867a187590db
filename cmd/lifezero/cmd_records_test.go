package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportErrorNamesSkipBad: a malformed game stops an import with advice
// in the user's terms: the --skip-bad flag on the command line, the
// skip_bad param in a pipeline, never the library's SkipBad field.
func TestImportErrorNamesSkipBad(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "sgf", "bad.sgf")
	if err := os.MkdirAll(filepath.Dir(bad), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("(;FF[4]GM[1]SZ[9];B[ee];W[cc"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := lifezero(t, "records", "import", "--out", filepath.Join(dir, "games"), bad)
	if code != 1 || !strings.Contains(errs, "add --skip-bad to skip and count malformed games") || strings.Contains(errs, "set SkipBad") {
		t.Errorf("records import: exit %d, stderr:\n%s", code, errs)
	}

	pipeline := filepath.Join(dir, "pipeline.yaml")
	if err := os.WriteFile(pipeline, []byte("name: p\nstages:\n  games:\n    kind: records-import\n    inputs: [sgf]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = lifezero(t, "run", pipeline, "--workdir", filepath.Join(dir, "runs"))
	if code != 1 || !strings.Contains(errs, "set skip_bad: true in the stage's params to skip and count malformed games") || strings.Contains(errs, "set SkipBad") {
		t.Errorf("run: exit %d, stderr:\n%s", code, errs)
	}
}

func TestNameSkipBadKeepsChain(t *testing.T) {
	base := errors.New("boom (set SkipBad to skip)")
	err := nameSkipBad(base, "add --skip-bad")
	if err.Error() != "boom (add --skip-bad to skip)" || !errors.Is(err, base) {
		t.Errorf("%v", err)
	}
	if other := errors.New("x"); nameSkipBad(other, "y") != other {
		t.Error("an error without the hint was changed")
	}
}
