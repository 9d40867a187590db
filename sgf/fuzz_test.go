package sgf

import (
	"errors"
	"path/filepath"
	"testing"
)

// FuzzParse checks that no input makes the parser panic, that every error is
// a *SyntaxError pointing inside the input, and that whatever parses comes
// back as the same tree after Write, with Write's output stable.
func FuzzParse(f *testing.F) {
	for _, tc := range trickyCases() {
		f.Add(tc.in)
	}
	for _, s := range []string{
		"(;C[abc", "(;B[aa](;W[bb]);B[cc])", "(;abc[aa])", "(;B)", "(;B[aa]) x",
		"(;C[\\", "(;C[a\\\r", "(;PB[美杜莎]é)", "(;B[aa]\r\n;W[bb]\r\n!)",
	} {
		f.Add(s)
	}
	for _, s := range realSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		c, err := ParseString(in)
		if err != nil {
			se, ok := errors.AsType[*SyntaxError](err)
			if !ok {
				t.Fatalf("error %v is not a *SyntaxError", err)
			}
			if se.Line < 1 || se.Column < 1 || se.Offset < 0 || se.Offset > len(in) {
				t.Fatalf("error position out of range: %+v", se)
			}
			return
		}
		if len(c) == 0 {
			t.Fatal("parse succeeded with no game tree")
		}
		roundTrip(t, "fuzz input", c)
	})
}

// FuzzWriteValue checks that any value, whatever bytes it holds, survives
// Write and a parse, in a list and alone.
func FuzzWriteValue(f *testing.F) {
	for _, s := range []string{"", "]", `\`, "a\\\nb", "\\\r\n", "x:y", "美杜莎]", "\\]\\"} {
		f.Add(s, s+s)
	}
	f.Fuzz(func(t *testing.T, v1, v2 string) {
		root := node(prop("C", v1), prop("AB", v1, v2))
		root.Children = []*Node{node(prop("N", v2)), node()}
		roundTrip(t, "values", Collection{root})
	})
}

// realSeeds returns real SGF texts the repository ships: the first game
// trees of the sample game records (each on its own, and one file's start as
// a collection) and the problem files.
func realSeeds(f *testing.F) []string {
	var seeds []string
	games, _ := filepath.Glob(filepath.Join("..", "samples", "games", "*.sgf"))
	problems, _ := filepath.Glob(filepath.Join("..", "samples", "problems", "*", "*.sgf"))
	if len(games) == 0 || len(problems) == 0 {
		f.Fatal("no SGF files under ../samples to seed the fuzzer")
	}
	for _, path := range append(games, problems...) {
		c, err := ParseFile(path)
		if err != nil {
			f.Fatal(err)
		}
		for i, root := range c[:min(len(c), 5)] {
			seeds = append(seeds, Collection{root}.String())
			if i == 1 {
				seeds = append(seeds, Collection{c[0], root}.String())
			}
		}
	}
	return seeds
}
