package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recordsIndex imports the sample records and indexes them.
func recordsIndex(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	games, index := filepath.Join(dir, "games"), filepath.Join(dir, "index")
	if code, _, errs := lifezero(t, "records", "import", "--out", games, "../../samples/games"); code != 0 {
		t.Fatalf("records import: exit %d\n%s", code, errs)
	}
	code, out, errs := lifezero(t, "records", "index", "--out", index, games)
	if code != 0 || !strings.Contains(out, "indexed 300 games") {
		t.Fatalf("records index: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	return index
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRecordsIndexSearch builds an index of the sample records and
// searches it with a diagram and an SGF pattern, as text and as JSON.
func TestRecordsIndexSearch(t *testing.T) {
	index := recordsIndex(t)
	dir := t.TempDir()
	diagram := writeFile(t, dir, "hane.txt", "X O .\n. X ?\n")
	code, out, errs := lifezero(t, "records", "search", "--index", index, "--limit", "3", diagram)
	if code != 0 || !strings.Contains(out, "hits in") || !strings.Contains(out, "continuations") || !strings.Contains(out, "more (--limit)") {
		t.Fatalf("search: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	code, out, errs = lifezero(t, "records", "search", "--index", index, "--json", "--limit", "2", diagram)
	var res struct {
		NumHits       int `json:"num_hits"`
		Games         int `json:"games"`
		Continuations []struct {
			Count  int    `json:"count"`
			Player string `json:"player"`
		} `json:"continuations"`
		Hits []struct {
			GameID string `json:"game_id"`
			Move   int    `json:"move"`
		} `json:"hits"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("search --json: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	sum := 0
	for _, c := range res.Continuations {
		sum += c.Count
	}
	if res.NumHits == 0 || len(res.Hits) != 2 || res.Hits[0].GameID == "" || res.Hits[0].Move < 1 || sum != res.NumHits {
		t.Errorf("search --json: %+v", res)
	}
	sgfPattern := writeFile(t, dir, "p.sgf", "(;SZ[19]AB[dd][ed]AW[de]VW[cc:ee])")
	if code, out, errs := lifezero(t, "records", "search", "--index", index, "--fixed", sgfPattern); code != 0 || !strings.Contains(out, "hits in") {
		t.Errorf("search SGF: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

// TestRecordsSearchErrors: bad patterns, a missing or truncated index
// give exit status 1 or 2 and an error naming the cause.
func TestRecordsSearchErrors(t *testing.T) {
	index := recordsIndex(t)
	dir := t.TempDir()
	good := writeFile(t, dir, "good.txt", "X O\n")
	truncated := filepath.Join(dir, "truncated")
	if err := os.MkdirAll(truncated, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"index.json", "index.bin"} {
		data, err := os.ReadFile(filepath.Join(index, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "index.bin" {
			data = data[:len(data)-100]
		}
		writeFile(t, truncated, name, string(data))
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"bad char", []string{"--index", index, writeFile(t, dir, "bad.txt", "X Q\n")}, "bad.txt: line 1: column 3: 'Q' is not a point"},
		{"no stone", []string{"--index", index, writeFile(t, dir, "empty.txt", ". ?\n")}, "no point that requires a stone"},
		{"fixed without at", []string{"--index", index, "--fixed", good}, "no \"at COL ROW\" line"},
		{"missing pattern file", []string{"--index", index, filepath.Join(dir, "nope.txt")}, "nope.txt"},
		{"not an index", []string{"--index", dir, good}, "is not a record index"},
		{"truncated index", []string{"--index", truncated, good}, filepath.Join(truncated, "index.bin") + ": "},
		{"no index flag", []string{good}, "want --index DIR"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, errs := lifezero(t, append([]string{"records", "search"}, c.args...)...)
			if code == 0 || !strings.Contains(errs, c.want) || strings.Contains(errs, "panic") {
				t.Errorf("exit %d, stderr:\n%s\nwant it to contain %q", code, errs, c.want)
			}
		})
	}
}
