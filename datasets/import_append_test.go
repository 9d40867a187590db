package datasets

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// appendBase imports three games into a fresh dataset and returns its dir
// and the directory for the SGF files to append.
func appendBase(t *testing.T) (dir, in string) {
	t.Helper()
	root := t.TempDir()
	dir, in = filepath.Join(root, "games"), filepath.Join(root, "new")
	base := writeSGF(t, root, "base/a.sgf", `(;SZ[9]DT[2008-01-01]PB[p]PW[q]RE[B+R];B[cc];W[gg];B[];W[ee])
(;SZ[9]DT[2008-01-02]PB[p]PW[q]RE[W+R];B[dd];W[ff])
(;SZ[9]DT[2008-01-03]PB[r]PW[s]RE[B+1];B[ee];W[cc];B[gc])`)
	if _, err := ImportRecords(context.Background(), ImportOptions{Inputs: []string{base}, OutDir: dir}); err != nil {
		t.Fatal(err)
	}
	return dir, in
}

// appendCorpus is b.sgf: games 0, 3 and 5 are new; 1 is base game 0
// verbatim, 2 is base game 0's play under other names with the pass
// written B[tt], 4 repeats game 3 and 6 is base game 1's play with
// another date.
const appendCorpus = `(;SZ[9]DT[2009-01-01]PB[x]PW[y]RE[B+R];B[cc];W[gg];B[ee])
(;SZ[9]DT[2008-01-01]PB[p]PW[q]RE[B+R];B[cc];W[gg];B[];W[ee])
(;SZ[9]DT[2009-02-01]PB[other]PW[names]RE[W+3];B[cc];W[gg];B[tt];W[ee])
(;SZ[9]DT[2009-03-01]PB[u]PW[v]RE[W+R];B[gg];W[cc])
(;SZ[9]DT[2009-03-01]PB[u]PW[v]RE[W+R];B[gg];W[cc])
(;SZ[9]DT[2009-04-01]PB[u]PW[v]RE[B+R];B[gg];W[cc];B[ee])
(;SZ[9]DT[2009-05-01]PB[p]PW[q]RE[W+R];B[dd];W[ff])`

func TestAppendRecords(t *testing.T) {
	ctx := context.Background()
	dir, in := appendBase(t)
	writeSGF(t, in, "b.sgf", appendCorpus)
	var skips []SkippedGame
	m, sum, err := AppendRecords(ctx, ImportOptions{Inputs: []string{in}, OutDir: dir,
		OnSkip: func(s SkippedGame) { skips = append(skips, s) }})
	if err != nil {
		t.Fatal(err)
	}
	games, m2, err := ReadGames(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range games {
		got = append(got, g.Source)
	}
	want := []string{"a.sgf#0", "a.sgf#1", "a.sgf#2", "b.sgf#0", "b.sgf#3", "b.sgf#5"}
	if strings.Join(got, " ") != strings.Join(want, " ") || m2.Rows != m.Rows {
		t.Fatalf("games after the append: %v (rows %d/%d), want %v", got, m.Rows, m2.Rows, want)
	}
	wantSkip := map[int]string{1: SkipDuplicateID + " a.sgf#0", 2: SkipDuplicateMoves + " a.sgf#0",
		4: SkipDuplicateID + " b.sgf#3", 6: SkipDuplicateMoves + " a.sgf#1"}
	if len(skips) != len(wantSkip) {
		t.Fatalf("skips %v, want %v", skips, wantSkip)
	}
	for _, s := range skips {
		w := wantSkip[s.Index]
		reason, first, _ := strings.Cut(w, " ")
		if s.Reason != reason || s.Err == nil || !strings.Contains(s.Err.Error(), first) || s.Line != s.Index+1 {
			t.Errorf("skip %+v, want reason %s naming %s at line %d", s, reason, first, s.Index+1)
		}
	}
	if sum.Read != 7 || sum.Written != 3 || sum.Skipped[SkipDuplicateID] != 2 || sum.Skipped[SkipDuplicateMoves] != 2 {
		t.Errorf("append summary %+v", sum)
	}
	total, err := ImportSummaryOf(m2)
	if err != nil || total.Read != 10 || total.Written != 6 || total.Files != 2 {
		t.Errorf("totals %+v (%v), want 10 read, 6 written, 2 files", total, err)
	}
	last, err := AppendSummaryOf(m2, 1)
	if err != nil || last.Written != 3 || last.Skipped[SkipDuplicateMoves] != 2 {
		t.Errorf("append 1 summary %+v (%v)", last, err)
	}
	k, files := LastAppend(m2)
	if k != 1 || len(files) != 1 || !strings.HasPrefix(files[0], "append001-") {
		t.Fatalf("last append %d %v", k, files)
	}

	// The view of the new games holds exactly them.
	view := filepath.Join(t.TempDir(), "view")
	if _, err := AppendedView(dir, view); err != nil {
		t.Fatal(err)
	}
	newGames, _, err := ReadGames(ctx, view)
	if err != nil || len(newGames) != 3 || newGames[0].Source != "b.sgf#0" || newGames[2].Source != "b.sgf#5" {
		t.Fatalf("view: %d games (%v)", len(newGames), err)
	}

	// Appending the same files again adds nothing and leaves the manifest
	// as it was.
	before, _ := os.ReadFile(filepath.Join(dir, ManifestName))
	_, sum, err = AppendRecords(ctx, ImportOptions{Inputs: []string{in}, OutDir: dir})
	after, _ := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil || sum.Written != 0 || sum.Skipped[SkipDuplicateID] != 5 || sum.Skipped[SkipDuplicateMoves] != 2 || !bytes.Equal(before, after) {
		t.Errorf("second append: %+v, %v; manifest changed: %t", sum, err, !bytes.Equal(before, after))
	}
	// Recorded, the empty append is the last one, and its view is empty.
	m, _, err = AppendRecords(ctx, ImportOptions{Inputs: []string{in}, OutDir: dir, RecordEmptyAppend: true})
	if err != nil {
		t.Fatal(err)
	}
	if k, files := LastAppend(m); k != 2 || len(files) != 1 || m.Rows != 6 {
		t.Fatalf("empty append recorded as %d %v, %d rows", k, files, m.Rows)
	}
	view = filepath.Join(t.TempDir(), "empty")
	if _, err := AppendedView(dir, view); err != nil {
		t.Fatal(err)
	}
	if g, _, err := ReadGames(ctx, view); err != nil || len(g) != 0 {
		t.Errorf("view of the empty append: %d games, %v", len(g), err)
	}
}

// An append that is interrupted leaves the dataset as it was; the rerun
// completes it, replacing what the interrupted one left.
func TestAppendRecordsInterruptedAndRerun(t *testing.T) {
	dir, in := appendBase(t)
	writeSGF(t, in, "b.sgf", appendCorpus)
	before, _ := os.ReadFile(filepath.Join(dir, ManifestName))
	// What a killed append leaves: a complete unlisted file, and a temp file.
	for _, name := range []string{"append001-00000.arrow", ".append001-00001.arrow.tmp-1"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := AppendRecords(ctx, ImportOptions{Inputs: []string{in}, OutDir: dir}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled append: %v", err)
	}
	after, _ := os.ReadFile(filepath.Join(dir, ManifestName))
	if !bytes.Equal(before, after) {
		t.Fatal("a cancelled append changed the manifest")
	}
	if games, _, err := ReadGames(context.Background(), dir); err != nil || len(games) != 3 {
		t.Fatalf("after the cancelled append: %d games, %v", len(games), err)
	}
	if _, _, err := AppendRecords(context.Background(), ImportOptions{Inputs: []string{in}, OutDir: dir}); err != nil {
		t.Fatal(err)
	}
	games, _, err := ReadGames(context.Background(), dir)
	if err != nil || len(games) != 6 {
		t.Fatalf("after the rerun: %d games, %v", len(games), err)
	}
	arrows, _ := filepath.Glob(filepath.Join(dir, "*.arrow"))
	if len(arrows) != 2 {
		t.Errorf("data files after the rerun: %v, want the import's and the append's", arrows)
	}
}

func TestAppendRecordsErrors(t *testing.T) {
	dir, in := appendBase(t)
	writeSGF(t, in, "b.sgf", appendCorpus)
	tests := []struct {
		name, out, want string
	}{
		{"no dataset", t.TempDir(), "no games dataset there to append to"},
		{"damaged dataset", dir, "part-00000.arrow"},
	}
	if err := os.WriteFile(filepath.Join(dir, "part-00000.arrow"), []byte("damaged"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := AppendRecords(context.Background(), ImportOptions{Inputs: []string{in}, OutDir: tc.out})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
	if _, err := AppendedView(filepath.Join(t.TempDir(), "x"), t.TempDir()); err == nil {
		t.Error("a view of no dataset was made")
	}
}
