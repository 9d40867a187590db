package testdata

import (
	"os"
	"os/exec"
	"testing"
)

// GNUGoPath is where Debian's gnugo package installs GNU Go, the reference
// rules engine some tests compare against.
const GNUGoPath = "/usr/games/gnugo"

// GNUGoInstall is the command that installs it (as .ci/run does).
const GNUGoInstall = "apt-get install -y gnugo"

// GNUGo returns GNUGoPath when GNU Go is installed there. When it is not,
// the test is skipped, saying how to install it, or, when the environment
// has CI=true, fails: CI must run every test, and a silent skip there
// would let the README's test command pass without the rules check.
func GNUGo(tb testing.TB) string {
	tb.Helper()
	return requireBinary(tb, "GNU Go", GNUGoPath, GNUGoInstall)
}

// requireBinary is GNUGo for any program: path if it is an executable,
// else a skip or (CI=true) a failure naming install.
func requireBinary(tb testing.TB, name, path, install string) string {
	tb.Helper()
	_, err := exec.LookPath(path)
	if err == nil {
		return path
	}
	if os.Getenv("CI") == "true" {
		tb.Fatalf("%s not found at %s, and CI=true needs every test to run: install it with `%s` (%v)", name, path, install, err)
		return ""
	}
	tb.Skipf("%s not found at %s: install it with `%s` to run this test (with CI=true it fails instead) (%v)", name, path, install, err)
	return ""
}
