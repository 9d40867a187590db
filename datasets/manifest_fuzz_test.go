package datasets

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// FuzzParseManifest checks that no manifest text makes the parser panic,
// that every error names the file, and that whatever it accepts lists only
// distinct local file names with sizes and rows >= 0 and survives
// WriteManifest and a parse unchanged. The seeds are manifests WriteManifest
// wrote, with and without report files and meta.
func FuzzParseManifest(f *testing.F) {
	dir := f.TempDir()
	sha := strings.Repeat("ab", 32)
	for i, m := range []*Manifest{
		{SchemaVersion: 1, Kind: "games", Stage: "import", InputHash: sha,
			Files: []FileEntry{{Name: "part-00000.arrow", Rows: 10, Bytes: 1234, SHA256: sha}}},
		{SchemaVersion: 2, Kind: "solve-results", Meta: map[string]string{"algo": "mcts"},
			Files:  []FileEntry{{Name: "a.arrow", Rows: 1, Bytes: 1, SHA256: sha}, {Name: "sub/b.arrow", SHA256: sha}},
			Report: []FileEntry{{Name: "report/section.md", Bytes: 40, SHA256: sha}, {Name: "report/p.png", SHA256: sha}}},
		{Kind: "report", Created: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)},
	} {
		sub := filepath.Join(dir, string(rune('a'+i)))
		if err := os.Mkdir(sub, 0o755); err != nil {
			f.Fatal(err)
		}
		if err := WriteManifest(sub, m); err != nil {
			f.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(sub, ManifestName))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"kind":"x","files":[{"name":"../a"}]}`))
	f.Add([]byte(`{"kind":"x","rows":-1,"files":null,"report":[]}`))
	const path = "/data/ds/" + ManifestName
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := parseManifest(path, data)
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Fatalf("error %q does not name %s", err, path)
			}
			return
		}
		seen := map[string]bool{}
		for _, e := range append(append([]FileEntry(nil), m.Files...), m.Report...) {
			if !filepath.IsLocal(e.Name) || e.Rows < 0 || e.Bytes < 0 || seen[e.Name] {
				t.Fatalf("accepted entry %+v (seen before: %v)", e, seen[e.Name])
			}
			seen[e.Name] = true
		}
		if m.Kind == "" || m.Rows < 0 {
			t.Fatalf("accepted kind %q, rows %d", m.Kind, m.Rows)
		}
		again, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("accepted manifest does not encode: %v", err)
		}
		m2, err := parseManifest(path, again)
		if err != nil {
			t.Fatalf("re-encoded manifest does not parse: %v\n%s", err, again)
		}
		if !reflect.DeepEqual(normalized(m), normalized(m2)) {
			t.Fatalf("manifest changed in a round trip:\n%+v\n%+v", m, m2)
		}
	})
}

// normalized returns m with empty lists and maps as nil and the time in
// UTC, which JSON does not tell apart from the original.
func normalized(m *Manifest) Manifest {
	n := *m
	if len(n.Files) == 0 {
		n.Files = nil
	}
	if len(n.Report) == 0 {
		n.Report = nil
	}
	if len(n.Meta) == 0 {
		n.Meta = nil
	}
	n.Created = n.Created.UTC().Round(0)
	return n
}
