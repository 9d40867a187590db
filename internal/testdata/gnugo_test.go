package testdata

import (
	"fmt"
	"strings"
	"testing"
)

// recorder is a testing.TB that records Fatalf and Skipf instead of
// stopping the test.
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Helper()                           {}
func (r *recorder) Fatalf(format string, args ...any) { r.fatal = fmt.Sprintf(format, args...) }
func (r *recorder) Skipf(format string, args ...any)  { r.skip = fmt.Sprintf(format, args...) }

// TestRequireBinary: issue 12, item 12. A test needing GNU Go skipped
// silently where it was missing, so CI could pass without running it.
func TestRequireBinary(t *testing.T) {
	const missing = "/nonexistent/gnugo"
	t.Setenv("CI", "true")
	r := &recorder{TB: t}
	if got := requireBinary(r, "GNU Go", missing, GNUGoInstall); got != "" || r.skip != "" ||
		!strings.Contains(r.fatal, "GNU Go not found at /nonexistent/gnugo, and CI=true needs every test to run: install it with `apt-get install -y gnugo`") {
		t.Errorf("CI=true: returned %q, fatal %q, skip %q", got, r.fatal, r.skip)
	}
	t.Setenv("CI", "")
	r = &recorder{TB: t}
	if got := requireBinary(r, "GNU Go", missing, GNUGoInstall); got != "" || r.fatal != "" ||
		!strings.Contains(r.skip, "GNU Go not found at /nonexistent/gnugo: install it with `apt-get install -y gnugo` to run this test") {
		t.Errorf("no CI: returned %q, fatal %q, skip %q", got, r.fatal, r.skip)
	}
	r = &recorder{TB: t}
	if got := requireBinary(r, "sh", "/bin/sh", "-"); got != "/bin/sh" || r.fatal != "" || r.skip != "" {
		t.Errorf("present: returned %q, fatal %q, skip %q", got, r.fatal, r.skip)
	}
}
