package datasets

import (
	"path/filepath"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"

	"lifezero/sgf"
)

// FuzzGameFromSGF runs the import's conversion of one SGF text (charset
// decoding, parsing, the games row) on arbitrary bytes, seeded from the
// sample game records and encoded files: no panic, and a game it accepts
// holds only valid UTF-8 in its string columns (issue 12, item 8).
func FuzzGameFromSGF(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "samples", "games", "*.sgf"))
	if len(files) == 0 {
		f.Fatal("no SGF files under ../samples/games to seed the fuzzer")
	}
	for _, path := range files {
		c, err := sgf.ParseFile(path)
		if err != nil {
			f.Fatal(err)
		}
		for _, root := range c[:min(len(c), 3)] {
			f.Add(sgf.Collection{root}.String())
		}
	}
	for _, s := range []string{"(;CA[GB2312]SZ[9]PB[柯洁]PW[古力];B[aa])", "(;CA[Big5]SZ[9]PB[許功];B[aa])"} {
		gbk, _ := simplifiedchinese.GBK.NewEncoder().String(s)
		big5, _ := traditionalchinese.Big5.NewEncoder().String(s)
		f.Add(gbk)
		f.Add(big5)
	}
	f.Add("(;SZ[9]PB[\xbf\xc2];B[aa])(;CA[UTF-8]PW[x])")
	f.Fuzz(func(t *testing.T, in string) {
		c, err := sgf.ParseString(decodeSGF(in))
		if err != nil {
			return
		}
		for _, root := range c {
			g, err := gameFromTree(root)
			if err != nil {
				continue
			}
			for _, s := range []string{g.GameID, g.Date, g.Black, g.White, g.BlackRank, g.WhiteRank, g.Result, g.Moves} {
				if !utf8.ValidString(s) {
					t.Fatalf("game %+v holds invalid UTF-8 %q", g, s)
				}
			}
		}
	})
}
