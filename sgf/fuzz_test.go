package sgf

import (
	"errors"
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
