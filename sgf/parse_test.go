package sgf

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type parseCase struct {
	name string
	in   string
	want Collection
}

// trickyCases are hand-written inputs with hand-built expected trees; they
// also seed FuzzParse.
func trickyCases() []parseCase {
	return []parseCase{
		{"escapes", `(;FF[4]C[a\]b\\c])`,
			Collection{node(prop("FF", "4"), prop("C", `a]b\c`))}},
		{"escaped ordinary characters", `(;C[\a\b\:c]LB[aa:x\:y])`,
			Collection{node(prop("C", "ab:c"), prop("LB", "aa:x:y"))}},
		{"value ending in backslash", `(;C[\\]GN[x])`,
			Collection{node(prop("C", `\`), prop("GN", "x"))}},
		{"soft line breaks", "(;C[ab\\\ncd\\\r\nef\\\rgh\\\n\rij])",
			Collection{node(prop("C", "abcdefghij"))}},
		{"soft break then escape", "(;C[a\\\n\\]b])",
			Collection{node(prop("C", "a]b"))}},
		{"escaped backslash before a hard line break", "(;C[a\\\\\nb])",
			Collection{node(prop("C", "a\\\nb"))}},
		{"hard line breaks kept", "(;C[line 1\nline 2\r\nline 3])",
			Collection{node(prop("C", "line 1\nline 2\r\nline 3"))}},
		{"nested variations", `(;GM[1];B[aa](;W[bb](;B[cc])(;B[dd];W[ee]))(;W[ff];B[gg]))`,
			Collection{chain(node(prop("GM", "1")), branch(node(prop("B", "aa")),
				branch(node(prop("W", "bb")), node(prop("B", "cc")), chain(node(prop("B", "dd")), node(prop("W", "ee")))),
				chain(node(prop("W", "ff")), node(prop("B", "gg")))))}},
		{"single variation is the main line", `(;GM[1](;B[aa](;W[bb])))`,
			Collection{chain(node(prop("GM", "1")), node(prop("B", "aa")), node(prop("W", "bb")))}},
		{"empty values and passes", `(;B[];W[tt]C[]KO[])`,
			Collection{chain(node(prop("B", "")), node(prop("W", "tt"), prop("C", ""), prop("KO", "")))}},
		{"nodes without properties", `(;;;B[aa])`,
			Collection{chain(node(), node(), node(prop("B", "aa")))}},
		{"multiple games", "(;GN[1])(;GN[2])\n\n(;GN[3];B[aa])\n",
			Collection{node(prop("GN", "1")), node(prop("GN", "2")), chain(node(prop("GN", "3")), node(prop("B", "aa")))}},
		{"unicode", `(;PB[美杜莎]C[héllo ☃ \]])`,
			Collection{node(prop("PB", "美杜莎"), prop("C", "héllo ☃ ]"))}},
		{"white space between tokens", " \n ( ; B [aa] \t [bb] \r\n ; W[cc] ( ;B[dd] ) ( ;B[ee] ) ) \n",
			Collection{chain(node(prop("B", "aa", "bb")), branch(node(prop("W", "cc")), node(prop("B", "dd")), node(prop("B", "ee"))))}},
		{"lower-case letters in identifiers", `(;AddBlack[aa][bb]CoPyright[x]FF[3])`,
			Collection{node(prop("AB", "aa", "bb"), prop("CP", "x"), prop("FF", "3"))}},
		{"compressed point list", `(;AB[aa:cc][dd])`,
			Collection{node(prop("AB", "aa:cc", "dd"))}},
		{"repeated property kept", `(;AB[aa]AB[bb])`,
			Collection{node(prop("AB", "aa"), prop("AB", "bb"))}},
		{"text before the first game", "From: someone\nSubject: game (c) 2005\n\uFEFF(;GM[1])",
			Collection{node(prop("GM", "1"))}},
		{"brackets and parentheses inside values", `(;C[(;B[aa\])]N[;)(])`,
			Collection{node(prop("C", "(;B[aa])"), prop("N", ";)("))}},
	}
}

func TestParseTricky(t *testing.T) {
	for _, tc := range trickyCases() {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseString(tc.in)
			if err != nil {
				t.Fatalf("ParseString(%q): %v", tc.in, err)
			}
			if d := diffCollections(got, tc.want); d != "" {
				t.Fatalf("ParseString(%q): %s", tc.in, d)
			}
			roundTrip(t, tc.name, got)
		})
	}
}

func TestParseReader(t *testing.T) {
	in := `(;GM[1];B[aa](;W[bb])(;W[cc]))`
	got, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want, err := ParseString(in)
	if err != nil {
		t.Fatal(err)
	}
	if d := diffCollections(got, want); d != "" {
		t.Fatal(d)
	}
}

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		in           string
		line, column int
		msg          string
	}{
		{"(;C[abc", 1, 8, `expected ']' to close the value of property "C" opened at line 1, column 4, found end of input`},
		{"(;GM[1]\n;B[aa]\n;C[unclosed\\]", 3, 14, `expected ']' to close the value of property "C" opened at line 3, column 3, found end of input`},
		{"", 1, 1, "expected '(;' to start a game tree, found end of input"},
		{"  hello", 1, 3, "expected '(;' to start a game tree, found 'h'"},
		{"(B[aa])", 1, 2, "expected ';' after '(' to start a game tree, found 'B'"},
		{"notes (c) 2005\n(B[aa])", 1, 8, "expected ';' after '(' to start a game tree, found 'c'"},
		{"(;B[aa]", 1, 8, "expected ')' to close the game tree opened at line 1, column 1, found end of input"},
		{"(;B[aa]\n(;W[bb]", 2, 8, "expected ')' to close the game tree opened at line 2, column 1, found end of input"},
		{"(;B[aa](;W[bb]);B[cc])", 1, 16, "expected '(' to start a variation or ')' to close the game tree, found ';'"},
		{"(;B[aa]1)", 1, 8, "expected a property identifier, ';', '(' or ')', found '1'"},
		{"(;B)", 1, 4, `expected '[' to start a value of property "B", found ')'`},
		{"(;B", 1, 4, `expected '[' to start a value of property "B", found end of input`},
		{"(;abc[aa])", 1, 3, `property identifier "abc" has no upper-case letter`},
		{"(;B[aa]) x", 1, 10, "expected '(' to start another game tree or end of input, found 'x'"},
		{"(;B[aa])(B[bb])", 1, 10, "expected ';' to start a node, found 'B'"},
		{"(;B[aa]()", 1, 9, "expected ';' to start a node, found ')'"},
		{"(;PB[美杜莎]é)", 1, 10, "expected a property identifier, ';', '(' or ')', found 'é'"},
		{"(;B[aa]\r\n;W[bb]\r\n!)", 3, 1, "found '!'"},
		{"(;B[aa]\r;W[bb]\r\r!)", 4, 1, "found '!'"},
	}
	for _, tc := range tests {
		_, err := ParseString(tc.in)
		se, ok := errors.AsType[*SyntaxError](err)
		if !ok {
			t.Errorf("ParseString(%q) error = %v, want a *SyntaxError", tc.in, err)
			continue
		}
		if se.Line != tc.line || se.Column != tc.column || !strings.Contains(se.Msg, tc.msg) {
			t.Errorf("ParseString(%q) = line %d, column %d, %q; want line %d, column %d, %q",
				tc.in, se.Line, se.Column, se.Msg, tc.line, tc.column, tc.msg)
		}
		if se.Offset < 0 || se.Offset > len(tc.in) {
			t.Errorf("ParseString(%q): offset %d outside the input", tc.in, se.Offset)
		}
	}
}

func TestSyntaxErrorText(t *testing.T) {
	_, err := ParseString("(;GM[1]\n;B[aa]\n;W[bb]C[never closed")
	want := `sgf: line 3, column 21: expected ']' to close the value of property "C" opened at line 3, column 8, found end of input`
	if err == nil || err.Error() != want {
		t.Fatalf("error = %v\nwant    %s", err, want)
	}
}

func TestParseFileErrorNamesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "broken.sgf")
	if err := os.WriteFile(path, []byte("(;GM[1]\n;B[aa];W[bb]\n;B[cc]C[oops"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ParseFile(path)
	se, ok := errors.AsType[*SyntaxError](err)
	if !ok {
		t.Fatalf("ParseFile error = %v, want a *SyntaxError", err)
	}
	if se.File != path || se.Line != 3 || se.Column != 13 {
		t.Fatalf("error at %s line %d column %d, want %s line 3 column 13", se.File, se.Line, se.Column, path)
	}
	if !strings.HasPrefix(err.Error(), "sgf: "+path+": line 3, column 13: ") {
		t.Fatalf("error text %q does not name the file, line and column", err)
	}

	_, err = ParseFile(filepath.Join(t.TempDir(), "missing.sgf"))
	if err == nil || !strings.Contains(err.Error(), "missing.sgf") {
		t.Fatalf("missing file error = %v, want it to name the file", err)
	}
}

// TestParseDeepNesting checks that deeply nested variations and very long
// lines neither overflow the stack nor lose nodes.
func TestParseDeepNesting(t *testing.T) {
	const depth = 200000
	in := strings.Repeat("(;B[aa]", depth) + strings.Repeat(")", depth)
	c, err := ParseString(in)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(c[0].MainLine()); n != depth {
		t.Fatalf("main line has %d nodes, want %d", n, depth)
	}
	roundTrip(t, "deep", c)
}
