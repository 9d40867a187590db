package datasets

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// sampleGames returns n distinct games with every field set.
func sampleGames(n int) []Game {
	games := make([]Game, n)
	for i := range games {
		moves := strings.Repeat("B[pd];W[dp];", i%7) + "B[]"
		games[i] = Game{
			GameID: fmt.Sprintf("id%04d", i), Source: fmt.Sprintf("x.sgf#%d", i),
			Date: fmt.Sprintf("2004-%02d-01", i%12+1), Black: "黑" + fmt.Sprint(i), White: "w",
			BlackRank: "9d", WhiteRank: "", Komi: 6.5 + float64(i%3), Result: "B+R",
			BoardSize: int32(9 + i%11), Handicap: int32(i % 4), Moves: moves, NumMoves: int32(2*(i%7) + 1),
		}
	}
	return games
}

func TestGamesRoundTrip(t *testing.T) {
	tests := []struct {
		name      string
		n         int
		perFile   int64
		wantFiles int
	}{
		{"empty", 0, 0, 1},
		{"one file", 10, 0, 1},
		{"exact files", 30, 10, 3},
		{"split batches", 10000, 3000, 4}, // batches of 4096 straddle files
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			games := sampleGames(tc.n)
			m, err := WriteGames(dir, games, Manifest{Stage: "test", InputHash: "h"}, WriterOptions{MaxRowsPerFile: tc.perFile})
			if err != nil {
				t.Fatal(err)
			}
			if m.Rows != int64(tc.n) || len(m.Files) != tc.wantFiles {
				t.Fatalf("manifest rows %d files %d, want %d and %d", m.Rows, len(m.Files), tc.n, tc.wantFiles)
			}
			for _, f := range m.Files {
				if tc.perFile > 0 && f.Rows > tc.perFile {
					t.Errorf("%s has %d rows, limit %d", f.Name, f.Rows, tc.perFile)
				}
			}
			got, m2, err := ReadGames(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) == 0 && len(games) == 0 {
				got = games // nil vs empty
			}
			if !reflect.DeepEqual(got, games) {
				t.Errorf("read back %d games differing from the %d written", len(got), len(games))
			}
			if m2.Kind != GamesKind || m2.SchemaVersion != GamesSchemaVersion || m2.InputHash != "h" {
				t.Errorf("manifest %+v", m2)
			}
		})
	}
}

func TestRewriteReplacesDataset(t *testing.T) {
	dir := t.TempDir()
	if _, err := WriteGames(dir, sampleGames(50), Manifest{}, WriterOptions{MaxRowsPerFile: 10}); err != nil {
		t.Fatal(err)
	}
	want := sampleGames(5)
	if _, err := WriteGames(dir, want, Manifest{}, WriterOptions{MaxRowsPerFile: 10}); err != nil {
		t.Fatal(err)
	}
	got, _, err := ReadGames(context.Background(), dir)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("after rewrite: %d games, err %v", len(got), err)
	}
	arrows, _ := filepath.Glob(filepath.Join(dir, "*"+FileExt))
	if len(arrows) != 1 {
		t.Errorf("stale files left: %v", arrows)
	}
}

func TestWriterRefusesForeignDir(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644)
	_, err := NewWriter(dir, GamesSchema(), WriterOptions{})
	if err == nil || !strings.Contains(err.Error(), "notes.txt") {
		t.Fatalf("NewWriter in a dir with other files: err %v", err)
	}
}

func TestAbortLeavesNoDataset(t *testing.T) {
	dir := t.TempDir()
	if _, err := WriteGames(dir, sampleGames(5), Manifest{}, WriterOptions{}); err != nil {
		t.Fatal(err)
	}
	w, err := NewWriter(dir, GamesSchema(), WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	gb := NewGameBuilder()
	defer gb.Release()
	gb.Append(sampleGames(1)[0])
	if err := writeGameBatch(w, gb); err != nil {
		t.Fatal(err)
	}
	w.Abort()
	if _, err := Open(dir); !errors.Is(err, ErrNoDataset) {
		t.Errorf("after an aborted rewrite Open gives %v, want ErrNoDataset", err)
	}
}

func TestOpenKindMismatch(t *testing.T) {
	dir := t.TempDir()
	if _, err := WriteGames(dir, sampleGames(3), Manifest{}, WriterOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenKind(dir, "solve-results", 1); err == nil || !strings.Contains(err.Error(), `"games"`) {
		t.Errorf("OpenKind with the wrong kind: %v", err)
	}
}

// writeSample writes a one-file games dataset and returns its dir and file path.
func writeSample(t *testing.T, n int) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	m, err := WriteGames(dir, sampleGames(n), Manifest{}, WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return dir, filepath.Join(dir, m.Files[0].Name)
}

func TestCorruptDataRefused(t *testing.T) {
	tests := []struct {
		name    string
		damage  func(path string, size int64) error
		mention string
	}{
		{"truncated", func(p string, size int64) error { return os.Truncate(p, size/2) }, "truncated"},
		{"flipped byte", func(p string, size int64) error { return flipByte(p, size/2) }, "sha256"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, path := writeSample(t, 200)
			st, _ := os.Stat(path)
			if err := tc.damage(path, st.Size()); err != nil {
				t.Fatal(err)
			}
			for what, err := range map[string]error{
				"Verify": func() error { _, err := Verify(dir); return err }(),
				"Open":   func() error { _, err := Open(dir); return err }(),
				"ReadGames": func() error {
					_, _, err := ReadGames(context.Background(), dir)
					return err
				}(),
			} {
				if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.mention) {
					t.Errorf("%s: error %v, want one naming %s and saying %q", what, err, path, tc.mention)
				}
			}
		})
	}
}

func flipByte(path string, at int64) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	data[at] ^= 0x5a
	return os.WriteFile(path, data, 0o644)
}

func TestOpenFileChecksContent(t *testing.T) {
	// Damage after Verify: the file reader itself must refuse the file.
	dir, path := writeSample(t, 100)
	m, err := Verify(dir)
	if err != nil {
		t.Fatal(err)
	}
	e := m.Files[0]
	if err := flipByte(path, e.Bytes/2); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenFile(dir, e, GamesSchema()); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "sha256") {
		t.Errorf("OpenFile on a flipped byte: %v", err)
	}
	if err := os.Truncate(path, 100); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenFile(dir, e, GamesSchema()); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("OpenFile on a truncated file: %v", err)
	}
}

// readAllRecords parses an in-memory file and decodes every record.
func readAllRecords(name string, data []byte, maxBuffer int) (rows int64, err error) {
	r, err := parseFile(name, data, GamesSchema(), maxBuffer)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return rows, err
		}
		games, err := GamesFromRecord(rec)
		if err != nil {
			return rows, err
		}
		rows += int64(len(games))
	}
}

// recordRegion returns the byte range of an Arrow IPC file between the
// schema message and the footer: the record batch messages. Layout:
// "ARROW1\0\0", schema message (0xFFFFFFFF, int32 metadata length, metadata),
// record batches, footer, int32 footer length, "ARROW1".
func recordRegion(t *testing.T, data []byte) (from, to int) {
	t.Helper()
	metaLen := int(binary.LittleEndian.Uint32(data[12:]))
	footerLen := int(binary.LittleEndian.Uint32(data[len(data)-10:]))
	from, to = 16+metaLen, len(data)-10-footerLen
	if from <= 16 || to <= from {
		t.Fatalf("unexpected IPC layout: records in [%d, %d) of %d bytes", from, to, len(data))
	}
	return from, to
}

// TestFileReaderNeverPanics feeds the IPC parser every truncation of a real
// file and every single-byte corruption of its record batches (message
// metadata and compressed bodies), bypassing the checksum. Each must give
// either an error naming the file or a readable file, never a panic. The
// schema and footer are left out: Arrow allocates from lengths found there
// with plain make, beyond any recover, which is why OpenFile checks the
// SHA-256 of the bytes before parsing them. A low allocation cap keeps the
// test fast.
func TestFileReaderNeverPanics(t *testing.T) {
	_, path := writeSample(t, 50)
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const name = "bad.arrow"
	check := func(what string, data []byte) {
		if _, err := readAllRecords(name, data, 1<<20); err != nil && !strings.Contains(err.Error(), name) {
			t.Errorf("%s: error does not name the file: %v", what, err)
		}
	}
	for n := 0; n < len(orig); n++ {
		check(fmt.Sprintf("truncated to %d", n), orig[:n])
	}
	from, to := recordRegion(t, orig)
	for i := from; i < to; i++ {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			data := append([]byte(nil), orig...)
			data[i] ^= x
			check(fmt.Sprintf("byte %d ^ %#x", i, x), data)
		}
	}
	if rows, err := readAllRecords(name, orig, maxBufferBytes); err != nil || rows != 50 {
		t.Errorf("intact file: %d rows, %v", rows, err)
	}
}
