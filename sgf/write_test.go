package sgf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteText(t *testing.T) {
	c := Collection{
		chain(node(prop("GM", "1"), prop("C", `a]b\c:d`)), branch(node(prop("B", "aa")),
			node(prop("W", "bb")), chain(node(prop("W", "cc")), node(prop("B", ""))))),
		node(prop("AB", "aa", "bb"), prop("LB", "aa:x:y")),
	}
	want := "(;GM[1]C[a\\]b\\\\c:d];B[aa]\n(;W[bb])\n(;W[cc];B[]))\n" +
		"(;AB[aa][bb]LB[aa:x:y])\n"
	if got := c.String(); got != want {
		t.Fatalf("String() =\n%s\nwant\n%s", got, want)
	}
	roundTrip(t, "hand-built", c)
}

func TestWriteRejectsUnwritableTrees(t *testing.T) {
	tests := []struct {
		name string
		c    Collection
		msg  string
	}{
		{"nil root", Collection{nil}, "game 1: nil root node"},
		{"nil child", Collection{node(), branch(node(), node(), nil)}, "game 2: node 1 (in file order): nil child"},
		{"empty identifier", Collection{node(prop("", "x"))}, `property identifier "" is not`},
		{"lower-case identifier", Collection{chain(node(), node(prop("b", "aa")))}, `node 2 (in file order): property identifier "b"`},
		{"no values", Collection{node(Property{ID: "KO"})}, `property "KO" has no value`},
	}
	for _, tc := range tests {
		err := tc.c.Write(new(strings.Builder))
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: Write error = %v, want one containing %q", tc.name, err, tc.msg)
		}
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.sgf")
	c := Collection{chain(node(prop("GM", "1")), node(prop("B", "pd")))}
	if err := c.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	back, err := ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := diffCollections(back, c); d != "" {
		t.Fatal(d)
	}
	if err := (Collection{nil}).WriteFile(path); err == nil {
		t.Fatal("WriteFile of a nil tree succeeded")
	}
	// The failed write must leave the old file and no temporary behind.
	if back, err := ParseFile(path); err != nil || diffCollections(back, c) != "" {
		t.Fatalf("failed WriteFile damaged the old file: %v", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Fatalf("directory holds %d entries after WriteFile, want 1", len(entries))
	}
}
