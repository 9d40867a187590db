package datasets

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"lifezero/internal/testdata"
)

// writeSGF writes an SGF file under dir and returns its path.
func writeSGF(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// importInto runs ImportRecords into a fresh dir and reads the games back.
func importInto(t *testing.T, opts ImportOptions) ([]Game, ImportSummary) {
	t.Helper()
	opts.OutDir = t.TempDir()
	m, err := ImportRecords(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	games, m2, err := ReadGames(context.Background(), opts.OutDir)
	if err != nil {
		t.Fatal(err)
	}
	if m2.Rows != m.Rows || int(m.Rows) != len(games) {
		t.Fatalf("manifest rows %d / %d, read %d", m.Rows, m2.Rows, len(games))
	}
	sum, err := ImportSummaryOf(m2)
	if err != nil {
		t.Fatal(err)
	}
	return games, sum
}

func TestImportFields(t *testing.T) {
	in := t.TempDir()
	writeSGF(t, in, "a.sgf", `(;GM[1]FF[4]SZ[9]KM[7]HA[2]DT[2009-12-31]PB[Black \] Guy]PW[白]BR[3d]WR[9d]RE[W+1.5]
AB[cc][gg];W[ee]C[comment B[zz\]];B[];W[tt](;B[aa];W[ab])(;B[ba]))`)
	games, sum := importInto(t, ImportOptions{Inputs: []string{in}})
	want := Game{Source: "a.sgf#0", Date: "2009-12-31", Black: "Black ] Guy", White: "白", BlackRank: "3d",
		WhiteRank: "9d", Komi: 7, Result: "W+1.5", BoardSize: 9, Handicap: 2,
		Moves: "W[ee];B[];W[tt];B[aa];W[ab]", NumMoves: 5}
	if len(games) != 1 {
		t.Fatalf("%d games, want 1", len(games))
	}
	got := games[0]
	if len(got.GameID) != 16 {
		t.Errorf("game id %q, want 16 hex digits", got.GameID)
	}
	got.GameID = ""
	if got != want {
		t.Errorf("imported\n%+v\nwant\n%+v", got, want)
	}
	if sum.Files != 1 || sum.Read != 1 || sum.Written != 1 || len(sum.Skipped) != 0 {
		t.Errorf("summary %+v", sum)
	}
}

// dateCorpus is a small input dir: games with the given dates, spread over
// two files, one of them in a subdirectory.
func dateCorpus(t *testing.T) string {
	in := t.TempDir()
	game := func(dt string) string { return "(;GM[1]SZ[19]DT[" + dt + "];B[pd];W[dp])\n" }
	writeSGF(t, in, "x.sgf", game("2008-05-01")+game("2009-12-31,2010-01-01")+game("2010-01-01"))
	writeSGF(t, in, "sub/y.sgf", game("2010-12-31")+game("")+game("2011-01-01")+game("Jan 2010"))
	writeSGF(t, in, "ignored.txt", game("2010-06-06"))
	return in
}

func TestImportDateFilterAndLimit(t *testing.T) {
	in := dateCorpus(t)
	tests := []struct {
		name     string
		opts     ImportOptions
		sources  []string
		skipped  map[string]int
		readWant int
	}{
		{"all", ImportOptions{},
			[]string{"sub/y.sgf#0", "sub/y.sgf#1", "sub/y.sgf#2", "sub/y.sgf#3", "x.sgf#0", "x.sgf#1", "x.sgf#2"},
			map[string]int{}, 7},
		{"2010 only", ImportOptions{FromDate: "2010", ToDate: "2010"},
			[]string{"sub/y.sgf#0", "x.sgf#2"},
			map[string]int{SkipNoDate: 2, SkipAfterTo: 1, SkipBeforeFrom: 2}, 7},
		{"to month", ImportOptions{ToDate: "2009-12"},
			[]string{"x.sgf#0", "x.sgf#1"},
			map[string]int{SkipNoDate: 2, SkipAfterTo: 3}, 7},
		{"from day", ImportOptions{FromDate: "2009-12-31"},
			[]string{"sub/y.sgf#0", "sub/y.sgf#2", "x.sgf#1", "x.sgf#2"},
			map[string]int{SkipNoDate: 2, SkipBeforeFrom: 1}, 7},
		{"max games", ImportOptions{MaxGames: 2}, []string{"sub/y.sgf#0", "sub/y.sgf#1"}, map[string]int{}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Inputs = []string{in}
			var skips []SkippedGame
			tc.opts.OnSkip = func(s SkippedGame) { skips = append(skips, s) }
			games, sum := importInto(t, tc.opts)
			var sources []string
			for _, g := range games {
				sources = append(sources, g.Source)
			}
			if fmt.Sprint(sources) != fmt.Sprint(tc.sources) {
				t.Errorf("sources %v, want %v", sources, tc.sources)
			}
			if fmt.Sprint(sum.Skipped) != fmt.Sprint(tc.skipped) || sum.Read != tc.readWant || sum.Written != len(tc.sources) {
				t.Errorf("summary %+v, want read %d, skipped %v", sum, tc.readWant, tc.skipped)
			}
			if len(skips) != sum.Read-sum.Written {
				t.Errorf("OnSkip called %d times for %d skipped games", len(skips), sum.Read-sum.Written)
			}
			for _, s := range skips {
				// Every game is on its own line: line = index + 1, column 1.
				if s.Line != s.Index+1 || s.Column != 1 || !strings.Contains(s.String(), s.File) {
					t.Errorf("skip reported at %d:%d for game %d: %s", s.Line, s.Column, s.Index, s)
				}
			}
		})
	}
}

func TestImportBadDateOptions(t *testing.T) {
	for _, d := range []string{"2010-1", "10", "2010/01", "2010-01-01x"} {
		_, err := ImportRecords(context.Background(), ImportOptions{Inputs: []string{"x"}, OutDir: t.TempDir(), FromDate: d})
		if err == nil || !strings.Contains(err.Error(), "FromDate") {
			t.Errorf("FromDate %q: %v", d, err)
		}
	}
}

// badFile has good and malformed games, one per line:
//
//	line 1: good (game 0)
//	line 2: syntax error at column 20 (game 1)
//	line 3: KM not a number (game 2)
//	line 4: stray text
//	line 5: move outside the board (game 3)
//	line 6: good (game 4)
const badFile = "(;GM[1]SZ[9];B[aa];W[bb])\n" +
	"(;GM[1]SZ[9];B[cc]X)\n" +
	"(;GM[1]SZ[9]KM[abc];B[dd])\n" +
	"hello\n" +
	"(;GM[1]SZ[9];B[zz])\n" +
	"(;GM[1]SZ[9];B[ee])\n"

func TestImportMalformedSkipped(t *testing.T) {
	in := t.TempDir()
	path := writeSGF(t, in, "bad.sgf", badFile)
	var skips []string
	games, sum := importInto(t, ImportOptions{Inputs: []string{in}, SkipBad: true,
		OnSkip: func(s SkippedGame) { skips = append(skips, s.String()) }})
	if len(games) != 2 || games[0].Moves != "B[aa];W[bb]" || games[1].Source != "bad.sgf#4" {
		t.Errorf("kept %+v", games)
	}
	if sum.Read != 6 || sum.Written != 2 || sum.Skipped[SkipMalformed] != 4 {
		t.Errorf("summary %+v", sum)
	}
	want := []string{path + ":2:20: game 1", path + ":3:1: game 2", path + ":4:1: text between game trees",
		path + ":5:1: game 3"}
	if len(skips) != len(want) {
		t.Fatalf("skips %q", skips)
	}
	for i, w := range want {
		if !strings.HasPrefix(skips[i], w) {
			t.Errorf("skip %d: %q, want it to start with %q", i, skips[i], w)
		}
	}
	for i, w := range []string{"'['", "KM[abc]", "outside any game tree", "B[zz]"} {
		if !strings.Contains(skips[i], w) {
			t.Errorf("skip %d: %q does not say %q", i, skips[i], w)
		}
	}
}

func TestImportMalformedFails(t *testing.T) {
	tests := []struct {
		name, text, where string
	}{
		{"syntax", badFile, "bad.sgf:2:20: game 1"},
		{"value", "(;SZ[9];B[aa])\n\n(;SZ[9];B[aa];W[bb]\n;B[jj])", "bad.sgf:3:1: game 1"},
		{"two moves in a node", "(;SZ[9];B[aa]W[bb])", "bad.sgf:1:1: game 0"},
		{"stray text", "(;SZ[9];B[aa]) junk (;SZ[9])", "bad.sgf:1:16: between game trees"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := t.TempDir()
			writeSGF(t, in, "bad.sgf", tc.text)
			out := t.TempDir()
			_, err := ImportRecords(context.Background(), ImportOptions{Inputs: []string{in}, OutDir: out})
			if err == nil || !strings.Contains(err.Error(), tc.where) {
				t.Errorf("error %v, want it to name %q", err, tc.where)
			}
			if _, err := ReadManifest(out); !errors.Is(err, ErrNoDataset) {
				t.Errorf("a failed import left a manifest: %v", err)
			}
		})
	}
}

func TestImportCancelledAndRerun(t *testing.T) {
	in := dateCorpus(t)
	out := t.TempDir()
	if _, err := WriteGames(out, sampleGames(20), Manifest{}, WriterOptions{MaxRowsPerFile: 3}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ImportRecords(ctx, ImportOptions{Inputs: []string{in}, OutDir: out}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled import: %v", err)
	}
	if _, err := Open(out); !errors.Is(err, ErrNoDataset) {
		t.Errorf("after a cancelled import the old dataset is still there: %v", err)
	}
	m, err := ImportRecords(context.Background(), ImportOptions{Inputs: []string{in}, OutDir: out, RowsPerFile: 2})
	if err != nil {
		t.Fatal(err)
	}
	games, _, err := ReadGames(context.Background(), out)
	if err != nil || len(games) != 7 || len(m.Files) != 4 {
		t.Fatalf("rerun: %d games in %d files, %v", len(games), len(m.Files), err)
	}
	left, _ := filepath.Glob(filepath.Join(out, "*"))
	if len(left) != len(m.Files)+1 {
		t.Errorf("files left in the dataset dir: %v", left)
	}
}

func TestImportProgressDuplicatesAndHash(t *testing.T) {
	in := t.TempDir()
	game := "(;SZ[9]DT[2001-01-01];B[aa])"
	writeSGF(t, in, "a.sgf", game+game+"(;SZ[9];B[bb])")
	writeSGF(t, in, "b.sgf", game)
	var calls [][2]int
	opts := ImportOptions{Inputs: []string{in}, OutDir: t.TempDir(),
		Progress: func(done, total int) { calls = append(calls, [2]int{done, total}) }}
	m, err := ImportRecords(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	total := 3*len(game) + len("(;SZ[9];B[bb])")
	if len(calls) == 0 || calls[len(calls)-1] != [2]int{total, total} {
		t.Errorf("progress calls %v, want to end at %d of %d", calls, total, total)
	}
	for i := 1; i < len(calls); i++ {
		if calls[i][0] < calls[i-1][0] || calls[i][1] != total {
			t.Errorf("progress %v goes backwards or changes total", calls)
		}
	}
	sum, _ := ImportSummaryOf(m)
	if sum.Duplicates != 2 {
		t.Errorf("%d duplicates, want 2", sum.Duplicates)
	}
	// Same inputs and options: same hash; a changed input: another hash.
	opts.OutDir, opts.Progress = t.TempDir(), nil
	m2, err := ImportRecords(context.Background(), opts)
	if err != nil || m2.InputHash != m.InputHash {
		t.Errorf("rerun hash %s, first %s (%v)", m2.InputHash, m.InputHash, err)
	}
	writeSGF(t, in, "b.sgf", game+" ")
	m3, err := ImportRecords(context.Background(), opts)
	if err != nil || m3.InputHash == m.InputHash {
		t.Errorf("changed input kept hash %s (%v)", m3.InputHash, err)
	}
}

func TestSplitTrees(t *testing.T) {
	tests := []struct {
		src  string
		want []string // the spans' texts, stray text prefixed with "junk:"
	}{
		{"", nil},
		{"  \n", nil},
		{"no games", []string{"junk:no games"}},
		{"header (x) (;A[1])", []string{"(;A[1])"}},
		{"(;C[a\\]b(c)])(;B[aa](;W[bb])(;W[cc]))", []string{"(;C[a\\]b(c)])", "(;B[aa](;W[bb])(;W[cc]))"}},
		{"(;B[aa]) junk ( ; W[bb])\n", []string{"(;B[aa])", "junk:junk ", "( ; W[bb])"}},
		{"(;B[aa] C[unclosed", []string{"(;B[aa] C[unclosed"}},
		{"(;B[aa])(;C[x\\", []string{"(;B[aa])", "(;C[x\\"}},
	}
	for _, tc := range tests {
		var got []string
		for _, sp := range splitTrees(tc.src) {
			s := tc.src[sp.start:sp.end]
			if sp.junk {
				s = "junk:" + s
			}
			got = append(got, s)
		}
		if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tc.want) {
			t.Errorf("splitTrees(%q) = %q, want %q", tc.src, got, tc.want)
		}
	}
}

func TestLineCounter(t *testing.T) {
	src := "ab\ncd\r\nef\rgé h"
	tests := []struct{ offset, line, col int }{
		{0, 1, 1}, {2, 1, 3}, {3, 2, 1}, {7, 3, 1}, {10, 4, 1}, {13, 4, 3}, {14, 4, 4}, {1, 1, 2}, {99, 4, 5},
	}
	lc := newLineCounter(src)
	for _, tc := range tests {
		if line, col := lc.at(tc.offset); line != tc.line || col != tc.col {
			t.Errorf("at(%d) = %d:%d, want %d:%d", tc.offset, line, col, tc.line, tc.col)
		}
	}
}

// sharedData returns <repo root>/../shared/data/<rel>, skipping the test
// if it is missing. The repo root is the nearest parent holding go.mod.
func sharedData(tb testing.TB, rel string) string { return testdata.Path(tb, rel) }

// TestImportRealGames imports two months of tom9d and checks every row
// against the raw text: these files hold one game per line without
// variations, so a regular expression recovers each game's moves and info
// independently of any SGF parser.
func TestImportRealGames(t *testing.T) {
	tom := sharedData(t, "games/tom9d")
	months := []string{"2009-12.sgf", "2010-01.sgf"}
	var inputs []string
	raw := map[string][]string{} // file -> lines
	for _, m := range months {
		path := filepath.Join(tom, m)
		inputs = append(inputs, path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			if strings.Count(line, "(") != 1 || !strings.HasPrefix(line, "(;") {
				t.Fatalf("%s: expected one game per line: %.60q", m, line)
			}
			raw[m] = append(raw[m], line)
		}
	}
	games, sum := importInto(t, ImportOptions{Inputs: inputs, RowsPerFile: 1000})
	want := len(raw[months[0]]) + len(raw[months[1]])
	if len(games) != want || sum.Read != want || sum.Written != want {
		t.Fatalf("imported %d games (summary %+v), the files hold %d", len(games), sum, want)
	}
	moveRE := regexp.MustCompile(`;([BW])\[([a-s]{0,2})\]`)
	prop := func(line, id string) string {
		m := regexp.MustCompile(`[^A-Z]` + id + `\[([^\]]*)\]`).FindStringSubmatch(line)
		if m == nil {
			return ""
		}
		return m[1]
	}
	for _, g := range games {
		file, idx, _ := strings.Cut(g.Source, "#")
		i, _ := strconv.Atoi(idx)
		line := raw[file][i]
		var moves []string
		for _, m := range moveRE.FindAllStringSubmatch(line, -1) {
			moves = append(moves, m[1]+"["+m[2]+"]")
		}
		komi, _ := strconv.ParseFloat(prop(line, "KM"), 64)
		if g.Moves != strings.Join(moves, ";") || int(g.NumMoves) != len(moves) || g.Date != prop(line, "DT") ||
			g.Black != prop(line, "PB") || g.White != prop(line, "PW") || g.Result != prop(line, "RE") ||
			g.Komi != komi || g.BoardSize != 19 {
			t.Fatalf("%s differs from its text:\n%+v\n%.300s", g.Source, g, line)
		}
	}
	// 2010 only: exactly the second month.
	only2010, sum := importInto(t, ImportOptions{Inputs: inputs, FromDate: "2010", ToDate: "2010"})
	if len(only2010) != len(raw[months[1]]) || sum.Skipped[SkipBeforeFrom] != len(raw[months[0]]) {
		t.Errorf("2010 filter kept %d games, skipped %v; want %d", len(only2010), sum.Skipped, len(raw[months[1]]))
	}
}

// TestSplitMatchesParserOnRealData checks splitTrees against the sgf
// parser's game count on every tom9d file.
func TestSplitMatchesParserOnRealData(t *testing.T) {
	if testing.Short() {
		t.Skip("parses all of tom9d")
	}
	tom := sharedData(t, "games/tom9d")
	files, _ := filepath.Glob(filepath.Join(tom, "*.sgf"))
	total := 0
	for _, f := range files {
		pf := parseInput(context.Background(), inputFile{path: f, rel: filepath.Base(f)}, false)
		if pf.err != nil {
			t.Fatal(pf.err)
		}
		pf.position(0)
		if len(pf.starts) != len(pf.games) {
			t.Errorf("%s: splitTrees finds %d trees, the parser %d", f, len(pf.starts), len(pf.games))
		}
		total += len(pf.games)
	}
	if total != 44329 {
		t.Errorf("%d games in tom9d, its README says 44,329", total)
	}
}
