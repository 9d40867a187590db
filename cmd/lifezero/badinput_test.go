package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadInputRefused holds the command-line cases of issue 12, items 4, 6
// and 7: each input used to be accepted (or to run the machine out of
// memory); each is now refused with an error naming the file and the place.
// (The bad --from-date of records import is a usage error now, exit 2:
// TestRecordsOptions.)
func TestBadInputRefused(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	pipeline := func(name, kind, params string) string {
		return write(name, "name: bad\nstages:\n  g:\n    kind: "+kind+"\n    inputs: [x]\n    params:\n"+params)
	}
	frac := pipeline("frac.yaml", "records-import", "      from_date: \"2010\"\n      max_games: 10.7\n")
	date := pipeline("date.yaml", "records-import", "      from_date: \"2010-13-45\"\n")
	candsDate := pipeline("cands.yaml", "movecands", "      from_date: \"2010\"\n      to_date: \"2010-02-30\"\n")
	zeroJSON := filepath.Join(dir, "zero.json")
	if err := os.Symlink("/dev/zero", zeroJSON); err != nil {
		t.Fatal(err)
	}
	goalX := write("goalX.json", `{"id":"x","sgf":"(;SZ[7];B[dc])","goal":{"X":"kill_all","W":"live_any"}}`)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"run", frac}, frac + `:8: stage "g": param "max_games": 10.7 is not a whole number`},
		{[]string{"run", date}, date + `:7: stage "g": param "from_date": "2010-13-45": month 13 is not 01..12`},
		{[]string{"run", candsDate}, candsDate + `:8: stage "g": param "to_date": "2010-02-30": day 30 is not a day of 2010-02`},
		{[]string{"problem", "show", "/dev/zero"}, "game: problem /dev/zero: want a .json or .sgf file"},
		{[]string{"problem", "show", zeroJSON}, zeroJSON + ": not a regular file (it is a character device)"},
		{[]string{"problem", "show", goalX}, goalX + `: field "goal": unknown key "X" (want "B" and "W")`},
		{[]string{"records", "import", "--out", filepath.Join(dir, "out"), "/dev/zero"}, "/dev/zero: not a regular file (it is a character device)"},
	} {
		code, _, errs := lifezero(t, tt.args...)
		if code != 1 || !strings.Contains(errs, tt.want) {
			t.Errorf("lifezero %v: exit %d, stderr\n%s\nwant exit 1 and %q", tt.args, code, errs, tt.want)
		}
	}
}
