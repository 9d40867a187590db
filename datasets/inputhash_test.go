package datasets

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"lifezero/internal/testdata"
)

// The layout is the one the pipeline's stage hashes have always had, so
// that outputs cached before the hash moved here stay valid: check it
// against a digest of the layout written out by hand.
func TestInputHasherLayout(t *testing.T) {
	ih, err := NewInputHasher("solve", 3, map[string]any{"budget": 10, "a": "x"})
	if err != nil {
		t.Fatal(err)
	}
	ih.Write([]byte("input 0 path\n"))
	ih.File("p/01.json", 12, "ab")
	want := sha256.Sum256([]byte("lifezero-input-hash/1\nkind \"solve\"\nversion 3\nparams {\"a\":\"x\",\"budget\":10}\n" +
		"input 0 path\nfile \"p/01.json\" 12 ab\n"))
	if got := ih.Sum(); got != hex.EncodeToString(want[:]) {
		t.Errorf("hash %s, want %s", got, hex.EncodeToString(want[:]))
	}
}

func TestInputHasherOptions(t *testing.T) {
	type v1 struct{ A int }
	type v2 struct{ A, B int }
	sum := func(p any) string {
		ih, err := NewInputHasher("k", 1, p)
		if err != nil {
			t.Fatal(err)
		}
		return ih.Sum()
	}
	if sum(v1{A: 1}) == sum(v2{A: 1}) {
		t.Error("a new option, even at its zero value, leaves the hash as it was")
	}
	if sum(v1{A: 1}) != sum(v1{A: 1}) {
		t.Error("equal options hash differently")
	}
	if _, err := NewInputHasher("k", 1, struct{ F func() }{}); err == nil {
		t.Error("an untagged func field was hashed silently")
	}
}

func TestImportHashCoversOptions(t *testing.T) {
	base := ImportOptions{Inputs: []string{"a.sgf"}, OutDir: "out", RowsPerFile: 10, FromDate: "2001",
		ToDate: "2002", MaxGames: 5, Stage: "s", Workers: 2}
	testdata.CheckHashCoversFields(t, base, func(o ImportOptions) string {
		ih, err := newImportHash(o)
		if err != nil {
			t.Fatal(err)
		}
		return ih.Sum()
	})
}

func TestSubHash(t *testing.T) {
	tests := []struct{ h, what string }{{"h", "shard 0 of 2"}, {"h", "shard 1 of 2"}, {"g", "shard 0 of 2"}, {"h", "append x"}}
	seen := map[string]int{}
	for i, tt := range tests {
		s := SubHash(tt.h, tt.what)
		if j, ok := seen[s]; ok {
			t.Errorf("cases %d and %d hash alike", j, i)
		}
		seen[s] = i
		if SubHash(tt.h, tt.what) != s {
			t.Errorf("case %d is not deterministic", i)
		}
	}
}
