package datasets

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

// encodeSGF writes text in enc, as an SGF editor of that locale would.
func encodeSGF(t *testing.T, enc encoding.Encoding, text string) string {
	t.Helper()
	out, err := enc.NewEncoder().String(text)
	if err != nil {
		t.Fatalf("encode %q: %v", text, err)
	}
	return out
}

// TestImportCharsets: issue 12, item 8. The CA[] charset was ignored and
// raw GB2312 (etc.) bytes landed in the Arrow UTF-8 columns.
func TestImportCharsets(t *testing.T) {
	in := t.TempDir()
	gb := encodeSGF(t, simplifiedchinese.GBK, "(;FF[4]CA[GB2312]SZ[9]DT[2010-05-01]PB[柯洁]PW[古力]BR[九段]RE[黑中盘胜];B[aa];W[bb])")
	if utf8.ValidString(gb) || !strings.Contains(gb, "\xbf\xc2\xbd\xe0") { // 柯洁 in GB2312
		t.Fatalf("the GB2312 test file is not GB2312: %q", gb)
	}
	writeSGF(t, in, "gb2312.sgf", gb)
	// Big5 and Shift_JIS have characters whose second byte is '\' (許 is
	// B3 5C, ソ is 83 5C): read raw, they would escape the closing ']'.
	writeSGF(t, in, "big5.sgf", encodeSGF(t, traditionalchinese.Big5, "(;CA[big5]SZ[9]PB[許功]PW[林海峰];B[aa])"))
	writeSGF(t, in, "sjis.sgf", encodeSGF(t, japanese.ShiftJIS, "(;CA[Shift_JIS]SZ[9]PB[ソ表]PW[本因坊];B[aa])"))
	writeSGF(t, in, "latin1.sgf", encodeSGF(t, charmap.ISO8859_1, "(;CA[ISO-8859-1]SZ[9]PB[José]PW[Müller];B[aa])"))
	// Two trees, two charsets, in one file.
	writeSGF(t, in, "mixed.sgf", "(;CA[UTF-8]SZ[9]PB[白];B[aa])\n"+encodeSGF(t, simplifiedchinese.GBK, "(;CA[GB2312]SZ[9]PB[黑];B[bb])"))
	games, sum := importInto(t, ImportOptions{Inputs: []string{in}})
	want := map[string][2]string{
		"gb2312.sgf#0": {"柯洁", "古力"}, "big5.sgf#0": {"許功", "林海峰"}, "sjis.sgf#0": {"ソ表", "本因坊"},
		"latin1.sgf#0": {"José", "Müller"}, "mixed.sgf#0": {"白", ""}, "mixed.sgf#1": {"黑", ""},
	}
	if len(games) != len(want) || len(sum.Skipped) != 0 {
		t.Fatalf("%d games (skipped %v), want %d", len(games), sum.Skipped, len(want))
	}
	for _, g := range games {
		w, ok := want[g.Source]
		if !ok || g.Black != w[0] || g.White != w[1] {
			t.Errorf("%s: PB %q PW %q, want %q", g.Source, g.Black, g.White, w)
		}
		if g.Source == "gb2312.sgf#0" && (g.BlackRank != "九段" || g.Result != "黑中盘胜") {
			t.Errorf("%s: BR %q RE %q", g.Source, g.BlackRank, g.Result)
		}
	}
}

// TestImportRefusesNonUTF8: without a charset the import can decode, bytes
// that are not UTF-8 refuse the game (strictly: the import; with SkipBad:
// the game, counted as malformed), naming the file, the place, the
// property and what to do. No invalid UTF-8 reaches a column.
func TestImportRefusesNonUTF8(t *testing.T) {
	gbName := encodeSGF(t, simplifiedchinese.GBK, "柯洁")
	tests := []struct{ name, text, want string }{
		{"noca.sgf", "(;SZ[9]PB[" + gbName + "];B[aa])",
			"noca.sgf:1:1: game 0: PB: byte 0 (0xbf) is not valid UTF-8 and the game has no CA[] naming its charset: add CA[...] with the file's charset (e.g. CA[GB2312]) or convert the file to UTF-8"},
		{"utf8ca.sgf", "(;CA[UTF-8]SZ[9]PW[ok]RE[B+" + gbName + "];B[aa])",
			"utf8ca.sgf:1:1: game 0: RE: byte 2 (0xbf) is not valid UTF-8 and the game declares CA[UTF-8]"},
		{"unknown.sgf", "(;CA[KLINGON]SZ[9]PB[x];B[aa])",
			"unknown.sgf:1:1: game 0: CA[KLINGON]: unknown charset, so its text cannot be stored as UTF-8"},
	}
	for _, tc := range tests {
		in := t.TempDir()
		path := writeSGF(t, in, tc.name, tc.text)
		_, err := ImportRecords(context.Background(), ImportOptions{Inputs: []string{path}, OutDir: t.TempDir()})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v\nwant %q", tc.name, err, tc.want)
		}
		writeSGF(t, in, "good.sgf", "(;SZ[9]PB[好];B[aa])")
		games, sum := importInto(t, ImportOptions{Inputs: []string{in}, SkipBad: true})
		if len(games) != 1 || games[0].Black != "好" || sum.Skipped[SkipMalformed] != 1 {
			t.Errorf("%s with SkipBad: %d games %+v, skipped %v", tc.name, len(games), games, sum.Skipped)
		}
	}
}

// TestDateBounds: issue 12, item 7. "2010-13-45" had the right shape and
// selected no game at all.
func TestDateBounds(t *testing.T) {
	for s, want := range map[string]string{
		"2010": "", "2010-12": "", "2012-02-29": "", "1999-12-31": "",
		"2010-13-45": `"2010-13-45": month 13 is not 01..12`,
		"2010-00":    `"2010-00": month 00 is not 01..12`,
		"2010-02-30": `"2010-02-30": day 30 is not a day of 2010-02`,
		"2011-02-29": `"2011-02-29": day 29 is not a day of 2011-02`,
		"2010-04-00": `"2010-04-00": day 00 is not a day of 2010-04`,
		"2010-1":     `"2010-1": want YYYY, YYYY-MM or YYYY-MM-DD`,
	} {
		err := CheckDateBound(s)
		if (want == "") != (err == nil) || err != nil && err.Error() != want {
			t.Errorf("CheckDateBound(%q) = %v, want %q", s, err, want)
		}
	}
	_, err := ImportRecords(context.Background(), ImportOptions{Inputs: []string{"x"}, OutDir: t.TempDir(), FromDate: "2010-13-45"})
	if want := `datasets: import: FromDate "2010-13-45": month 13 is not 01..12`; err == nil || err.Error() != want {
		t.Errorf("import from 2010-13-45: %v, want %q", err, want)
	}
	if err := (DateRange{From: "2010", To: "2010-02-30"}).Check(); err == nil || !strings.Contains(err.Error(), `to "2010-02-30": day 30`) {
		t.Errorf("date range to 2010-02-30: %v", err)
	}
}

// TestNotARegularFile: issue 12, item 4. An SGF input or a manifest that is
// /dev/zero (or a symlink to it) was read until memory ran out.
func TestNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "zero.sgf")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"/dev/zero", link} {
		_, err := ImportRecords(context.Background(), ImportOptions{Inputs: []string{in}, OutDir: t.TempDir()})
		if want := in + ": not a regular file (it is a character device)"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("import %s: %v, want %q", in, err, want)
		}
	}
	ds := filepath.Join(dir, "ds")
	if err := os.Mkdir(ds, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(ds, ManifestName)); err != nil {
		t.Fatal(err)
	}
	_, err := ReadManifest(ds)
	if want := filepath.Join(ds, ManifestName) + ": not a regular file"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("ReadManifest: %v, want %q", err, want)
	}
}
