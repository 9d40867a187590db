package sgf

import "testing"

// TestParseFileNotRegular: issue 12, item 4. /dev/zero was read until memory
// ran out.
func TestParseFileNotRegular(t *testing.T) {
	_, err := ParseFile("/dev/zero")
	if want := "sgf: /dev/zero: not a regular file (it is a character device)"; err == nil || err.Error() != want {
		t.Errorf("ParseFile(/dev/zero): %v, want %q", err, want)
	}
}
