package datasets

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// sampleMoveCands returns n rows of varied shapes: candidate counts from 1 to
// 40, empty and long feature lists, both colours, passes.
func sampleMoveCands(n int) []*MoveCands {
	rows := make([]*MoveCands, n)
	for i := range rows {
		size := int32(9 + i%11)
		k := 1 + (i*7)%40
		r := &MoveCands{
			GameID: fmt.Sprintf("g%03d", i/5), Date: fmt.Sprintf("20%02d-%02d-01", 3+i%8, 1+i%12),
			MoveNumber: int32(i % 300), BoardSize: size, ToMove: ToMoveBlack + int8(i%2), Played: int32(i % k),
			Moves: make([]int16, k), Features: make([][]int32, k),
		}
		for c := range k {
			r.Moves[c] = int16((c*13 + i) % int(size*size))
			if c == k-1 {
				r.Moves[c] = PassMove
			}
			for f := range (c + i) % 6 {
				r.Features[c] = append(r.Features[c], int32(f*1000+c+i))
			}
			if r.Features[c] == nil {
				r.Features[c] = []int32{}
			}
		}
		rows[i] = r
	}
	return rows
}

func writeMoveCands(t *testing.T, dir string, rows []*MoveCands, perFile int64) *Manifest {
	t.Helper()
	w, err := NewMoveCandsWriter(dir, WriterOptions{MaxRowsPerFile: perFile})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	for _, r := range rows {
		if err := w.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	if got := w.Rows(); got != int64(len(rows)) {
		t.Errorf("Rows() = %d before commit, want %d", got, len(rows))
	}
	m, err := w.Commit(Manifest{Stage: "test", InputHash: "h", Meta: map[string]string{"feature_set": "{}"}})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestMoveCandsRoundTrip(t *testing.T) {
	tests := []struct {
		name      string
		n         int
		perFile   int64
		wantFiles int
	}{
		{"empty", 0, 0, 1},
		{"one batch", 7, 0, 1},
		{"batches straddle files", 1000, 300, 4}, // 256-row batches
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			rows := sampleMoveCands(tc.n)
			m := writeMoveCands(t, dir, rows, tc.perFile)
			if m.Kind != MoveCandsKind || m.SchemaVersion != MoveCandsSchemaVersion || m.Rows != int64(tc.n) || len(m.Files) != tc.wantFiles {
				t.Fatalf("manifest kind %q v%d rows %d files %d, want %q v%d, %d rows, %d files",
					m.Kind, m.SchemaVersion, m.Rows, len(m.Files), MoveCandsKind, MoveCandsSchemaVersion, tc.n, tc.wantFiles)
			}
			var got []*MoveCands
			m2, err := ForEachMoveCands(context.Background(), dir, func(r *MoveCands) error {
				got = append(got, r) // rows may be kept
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if m2.Meta["feature_set"] != "{}" {
				t.Errorf("meta not kept: %v", m2.Meta)
			}
			if len(got) != len(rows) {
				t.Fatalf("read %d rows, wrote %d", len(got), len(rows))
			}
			for i := range rows {
				if !reflect.DeepEqual(got[i], rows[i]) {
					t.Fatalf("row %d:\n got %+v\nwant %+v", i, got[i], rows[i])
				}
			}
		})
	}
}

// The rows handed to the callback own their memory: keeping them while later
// batches are decoded must not change them.
func TestMoveCandsRowsAreIndependent(t *testing.T) {
	dir := t.TempDir()
	rows := sampleMoveCands(600)
	writeMoveCands(t, dir, rows, 0)
	var kept []*MoveCands
	_, err := ForEachMoveCands(context.Background(), dir, func(r *MoveCands) error {
		kept = append(kept, r)
		if len(kept) > 1 {
			kept[len(kept)-2].Features[0] = append(kept[len(kept)-2].Features[0], -5) // must not reach r
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(kept); i++ {
		if !reflect.DeepEqual(kept[i].Features[1:], rows[i].Features[1:]) {
			t.Fatalf("row %d changed by an append to its neighbour", i)
		}
	}
}

func TestMoveCandsRejectsBadRows(t *testing.T) {
	good := func() *MoveCands {
		return &MoveCands{GameID: "g", BoardSize: 9, ToMove: ToMoveWhite, Played: 1,
			Moves: []int16{0, 80, PassMove}, Features: [][]int32{{1}, {2, 3}, {0}}}
	}
	tests := []struct {
		name string
		edit func(*MoveCands)
		want string
	}{
		{"played out of range", func(r *MoveCands) { r.Played = 3 }, "played index 3"},
		{"negative played", func(r *MoveCands) { r.Played = -1 }, "played index -1"},
		{"lists differ", func(r *MoveCands) { r.Features = r.Features[:2] }, "3 moves but 2 feature lists"},
		{"no candidates", func(r *MoveCands) { r.Moves, r.Features, r.Played = nil, nil, 0 }, "no candidate moves"},
		{"off board", func(r *MoveCands) { r.Moves[1] = 81 }, "move code 81"},
		{"bad colour", func(r *MoveCands) { r.ToMove = 0 }, "to_move 0"},
		{"bad size", func(r *MoveCands) { r.BoardSize = 0 }, "board size 0"},
	}
	if err := good().Check(); err != nil {
		t.Fatalf("good row: %v", err)
	}
	b := NewMoveCandsBuilder()
	defer b.Release()
	for _, tc := range tests {
		r := good()
		tc.edit(r)
		err := b.Append(r)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Append error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	if b.Len() != 0 {
		t.Errorf("%d rows appended, want none", b.Len())
	}
}

func TestMoveCandsWrongKindAndCallbackError(t *testing.T) {
	games := t.TempDir()
	if _, err := WriteGames(games, sampleGames(3), Manifest{}, WriterOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := ForEachMoveCands(context.Background(), games, func(*MoveCands) error { return nil }); err == nil ||
		!strings.Contains(err.Error(), `"games" dataset`) {
		t.Errorf("reading a games dataset as movecands: %v", err)
	}
	dir := t.TempDir()
	writeMoveCands(t, dir, sampleMoveCands(10), 0)
	stop := errors.New("stop here")
	n := 0
	_, err := ForEachMoveCands(context.Background(), dir, func(*MoveCands) error {
		n++
		if n == 4 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || err.Error() != "stop here" || n != 4 {
		t.Errorf("callback error came back as %v after %d rows, want it unchanged after 4", err, n)
	}
	// A corrupt file is caught by its checksum before any row is decoded.
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, m.Files[0].Name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0xff
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ForEachMoveCands(context.Background(), dir, func(*MoveCands) error { return nil }); err == nil ||
		!strings.Contains(err.Error(), "corrupt") {
		t.Errorf("corrupt file: %v", err)
	}
}

func TestDateRange(t *testing.T) {
	tests := []struct {
		r      DateRange
		date   string
		reason string
	}{
		{DateRange{"2003", "2009"}, "2003-09-01", ""},
		{DateRange{"2003", "2009"}, "2009-12-31", ""},
		{DateRange{"2003", "2009"}, "2010-01-01", SkipAfterTo},
		{DateRange{"2003", "2009"}, "2002-12-31", SkipBeforeFrom},
		{DateRange{"2010", "2010"}, "2010-06-15", ""},
		{DateRange{"2010", "2010"}, "2009-12-31", SkipBeforeFrom},
		{DateRange{"2009-12", "2010-01"}, "2010-01-31", ""},
		{DateRange{"2009-12-02", ""}, "2009-12-01", SkipBeforeFrom},
		{DateRange{"2010", ""}, "2010", SkipNoDate},
		{DateRange{"2010", ""}, "", SkipNoDate},
		{DateRange{}, "", ""},
	}
	for _, tc := range tests {
		if got := tc.r.Skip(tc.date); got != tc.reason {
			t.Errorf("%v.Skip(%q) = %q, want %q", tc.r, tc.date, got, tc.reason)
		}
	}
	for _, bad := range []DateRange{{"2010-1", ""}, {"", "20x0"}, {"2010", "2009"}, {"2009-12-02", "2009-12-01"}} {
		if err := bad.Check(); err == nil {
			t.Errorf("%+v.Check() = nil, want an error", bad)
		}
	}
	for _, ok := range []DateRange{{}, {"2003", "2009"}, {"2010", "2010"}, {"2009-12", "2009"}} {
		if err := ok.Check(); err != nil {
			t.Errorf("%+v.Check() = %v", ok, err)
		}
	}
}

// TestDateSplitTom9d splits the whole tom9d collection into its training
// years (2003-2009) and its validation year (2010): every game falls in
// exactly one part, and the parts hold the dates they should.
func TestDateSplitTom9d(t *testing.T) {
	tom := sharedData(t, "games/tom9d")
	dir := t.TempDir()
	if _, err := ImportRecords(context.Background(), ImportOptions{Inputs: []string{tom}, OutDir: dir}); err != nil {
		t.Fatal(err)
	}
	trainRange, validRange := DateRange{"2003", "2009"}, DateRange{"2010", "2010"}
	var trainN, validN, total int
	years := map[string]int{}
	_, err := ForEachGame(context.Background(), dir, func(g Game) error {
		total++
		inTrain, inValid := trainRange.Skip(g.Date) == "", validRange.Skip(g.Date) == ""
		switch {
		case inTrain && inValid:
			t.Fatalf("game %s dated %s is in both parts", g.GameID, g.Date)
		case inTrain:
			trainN++
		case inValid:
			validN++
		default:
			t.Fatalf("game %s dated %q is in neither part (%s, %s)", g.GameID, g.Date, trainRange.Skip(g.Date), validRange.Skip(g.Date))
		}
		if inValid && !strings.HasPrefix(g.Date, "2010-") || inTrain && (g.Date < "2003" || g.Date >= "2010") {
			t.Fatalf("game %s dated %s in the wrong part", g.GameID, g.Date)
		}
		years[g.Date[:4]]++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if total != 44329 || trainN+validN != total || validN != years["2010"] || validN < 1000 || trainN < 10000 {
		t.Errorf("%d games: %d train, %d validation (years %v)", total, trainN, validN, years)
	}
	t.Logf("tom9d: %d games, %d in 2003-2009, %d in 2010", total, trainN, validN)
}

// Visiting a dataset's files one at a time, in any order, yields each file's
// rows as ForEachMoveCands does; bad file indices, a wrong kind, a row count
// that disagrees with the manifest and a corrupt file are errors.
func TestForEachMoveCandsFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	rows := sampleMoveCands(1000)
	m := writeMoveCands(t, dir, rows, 300)
	if len(m.Files) != 4 {
		t.Fatalf("%d files, want 4", len(m.Files))
	}
	start := []int{0, 300, 600, 900, 1000}
	for _, file := range []int{3, 1, 0, 2} {
		var got []*MoveCands
		err := ForEachMoveCandsFile(ctx, dir, m, file, func(r *MoveCands) error {
			got = append(got, r)
			return nil
		})
		if err != nil {
			t.Fatalf("file %d: %v", file, err)
		}
		if want := rows[start[file]:start[file+1]]; !reflect.DeepEqual(got, want) {
			t.Fatalf("file %d: %d rows differ from the %d written", file, len(got), len(want))
		}
	}
	stop := errors.New("stop here")
	if err := ForEachMoveCandsFile(ctx, dir, m, 0, func(*MoveCands) error { return stop }); err != stop {
		t.Errorf("callback error came back as %v, want it unchanged", err)
	}

	bad := func(edit func(m *Manifest)) *Manifest {
		c := *m
		c.Files = append([]FileEntry(nil), m.Files...)
		edit(&c)
		return &c
	}
	tests := []struct {
		name string
		m    *Manifest
		file int
		want string
	}{
		{"negative index", m, -1, "no data file -1"},
		{"index past the end", m, 4, "no data file 4 (the manifest lists 4)"},
		{"wrong kind", bad(func(m *Manifest) { m.Kind = GamesKind }), 0, `"games" dataset`},
		{"row count", bad(func(m *Manifest) { m.Files[1].Rows = 299 }), 1, "300 rows, manifest says 299"},
		{"checksum", bad(func(m *Manifest) { m.Files[2].SHA256 = strings.Repeat("0", 64) }), 2, m.Files[2].Name + ": corrupt: sha256"},
	}
	for _, tc := range tests {
		err := ForEachMoveCandsFile(ctx, dir, tc.m, tc.file, func(*MoveCands) error { return nil })
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}
