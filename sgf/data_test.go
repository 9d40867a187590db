package sgf

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// shortMonths are the tom9d files read in -short mode; without -short every
// month is read.
var shortMonths = []string{"2003-09.sgf", "2005-01.sgf", "2010-12.sgf"}

// TestRealData parses every SGF file under shared/data (tom9d limited to a
// few months in -short mode), checks each against counts taken from the raw
// text, and round-trips it through Write.
func TestRealData(t *testing.T) {
	data := dataDir(t)
	var files []string
	err := filepath.WalkDir(data, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".sgf") {
			return nil
		}
		if testing.Short() && filepath.Base(filepath.Dir(path)) == "tom9d" && !slices.Contains(shortMonths, d.Name()) {
			return nil
		}
		files = append(files, path)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 900 {
		t.Fatalf("found only %d SGF files under %s", len(files), data)
	}
	tom9dGames := 0
	for _, path := range files {
		c, err := ParseFile(path)
		if err != nil {
			t.Errorf("%v", err) // names the file, line and column
			continue
		}
		checkAgainstText(t, path, c)
		roundTrip(t, path, c)
		if filepath.Base(filepath.Dir(path)) == "tom9d" {
			tom9dGames += len(c)
		}
	}
	// shared/README.md: 44,329 games in tom9d.
	if !testing.Short() && tom9dGames != 44329 {
		t.Errorf("tom9d holds %d games, want 44329", tom9dGames)
	}
}

// checkAgainstText compares the parsed collection with counts made on the
// raw file: games are "(;" at line starts, moves are ";B[" and ";W[". The
// shared data has no such text inside values, which makes the counts exact.
func checkAgainstText(t *testing.T, path string, c Collection) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	wantMoves := strings.Count(text, ";B[") + strings.Count(text, ";W[")
	moves, nodes := 0, 0
	for _, root := range c {
		stack := []*Node{root}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			nodes++
			if len(n.Properties) > 0 && (n.Properties[0].ID == "B" || n.Properties[0].ID == "W") {
				moves++
			}
			stack = append(stack, n.Children...)
		}
	}
	if moves != wantMoves {
		t.Errorf("%s: %d move nodes, the text has %d", path, moves, wantMoves)
	}
	if want := strings.Count(text, ";"); nodes != want {
		t.Errorf("%s: %d nodes, the text has %d ';'", path, nodes, want)
	}
	if want := strings.Count("\n"+text, "\n(;"); len(c) != want {
		t.Errorf("%s: %d games, the text starts %d lines with '(;'", path, len(c), want)
	}
}

// TestKnownGame checks fields of the first game of 2005-01 as read by eye
// from the file.
func TestKnownGame(t *testing.T) {
	c, err := ParseFile(filepath.Join(dataDir(t), "games", "tom9d", "2005-01.sgf"))
	if err != nil {
		t.Fatal(err)
	}
	root := c[0]
	for id, want := range map[string]string{"PB": "美杜莎", "PW": "tom123w", "KM": "6.5", "RE": "B+Resign", "GN": "tom-8548205"} {
		if got, _ := root.Get(id); got != want {
			t.Errorf("%s = %q, want %q", id, got, want)
		}
	}
	line := root.MainLine()
	wantStart := []Property{prop("B", "qd"), prop("W", "dc"), prop("B", "pq"), prop("W", "dq")}
	for i, want := range wantStart {
		if d := diffProperties(line[i+1].Properties, []Property{want}); d != "" {
			t.Errorf("move %d: %s", i+1, d)
		}
	}
	if got := line[len(line)-1].Properties; len(got) != 1 || got[0].ID != "B" || got[0].Values[0] != "hg" {
		t.Errorf("last move = %v, want B[hg]", got)
	}
}

// TestProblemJSONRecords parses the SGF text held in the problem JSON files
// (the prepared position and the book's original record with variations).
func TestProblemJSONRecords(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(dataDir(t), "problems", "*", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Skip("no problem JSON files")
	}
	for _, path := range paths {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var rec map[string]any
		if err := json.Unmarshal(raw, &rec); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, field := range []string{"sgf", "book_sgf"} {
			text, ok := rec[field].(string)
			if !ok || text == "" {
				continue
			}
			c, err := ParseString(text)
			if err != nil {
				t.Errorf("%s field %s: %v", path, field, err)
				continue
			}
			roundTrip(t, path+" "+field, c)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join(dataDir(b), "games", "tom9d", "2005-01.sgf"))
	if err != nil {
		b.Fatal(err)
	}
	text := string(raw)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseString(text); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWrite(b *testing.B) {
	c, err := ParseFile(filepath.Join(dataDir(b), "games", "tom9d", "2005-01.sgf"))
	if err != nil {
		b.Fatal(err)
	}
	var sb strings.Builder
	if err := c.Write(&sb); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(sb.Len()))
	b.ReportAllocs()
	for b.Loop() {
		sb.Reset()
		if err := c.Write(&sb); err != nil {
			b.Fatal(err)
		}
	}
}

// TestTruncatedRealFile cuts a real month file inside a value and checks
// that the error names the file and the line and column of the end of the
// input, computed here from the text.
func TestTruncatedRealFile(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(dataDir(t), "games", "tom9d", "2005-01.sgf"))
	if err != nil {
		t.Fatal(err)
	}
	cut := strings.LastIndex(string(raw[:len(raw)/2]), "PB[") + len("PB[美") // inside a player name
	text := string(raw[:cut])
	path := filepath.Join(t.TempDir(), "truncated.sgf")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ParseFile(path)
	se, ok := errors.AsType[*SyntaxError](err)
	if !ok {
		t.Fatalf("error = %v, want a *SyntaxError", err)
	}
	wantLine := strings.Count(text, "\n") + 1
	lastLine := text[strings.LastIndex(text, "\n")+1:]
	wantColumn := utf8.RuneCountInString(lastLine) + 1
	if se.File != path || se.Line != wantLine || se.Column != wantColumn || se.Offset != len(text) {
		t.Fatalf("error %v at line %d, column %d, offset %d; want %s line %d, column %d, offset %d",
			err, se.Line, se.Column, se.Offset, path, wantLine, wantColumn, len(text))
	}
	if !strings.Contains(se.Msg, `value of property "PB"`) {
		t.Fatalf("message %q does not say which value is unclosed", se.Msg)
	}
}
