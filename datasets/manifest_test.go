package datasets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeDataFile writes content as name in dir and returns its entry.
func writeDataFile(t *testing.T, dir, name string, content []byte, rows int64) FileEntry {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
	sha, size, err := HashFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return FileEntry{Name: name, Rows: rows, Bytes: size, SHA256: sha}
}

func TestManifestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	files := []FileEntry{
		writeDataFile(t, dir, "a.bin", []byte("hello"), 3),
		writeDataFile(t, dir, "b.bin", []byte("world!"), 4),
	}
	in := &Manifest{SchemaVersion: 2, Kind: "test", Stage: "s", InputHash: "abc", Files: files,
		Meta: map[string]string{"k": "v"}}
	if err := WriteManifest(dir, in); err != nil {
		t.Fatal(err)
	}
	if in.Rows != 7 {
		t.Errorf("Rows filled as %d, want 7", in.Rows)
	}
	out, err := Verify(dir)
	if err != nil {
		t.Fatal(err)
	}
	if out.Rows != 7 || out.Kind != "test" || out.SchemaVersion != 2 || out.InputHash != "abc" ||
		len(out.Files) != 2 || out.Files[1] != files[1] || out.Meta["k"] != "v" || !out.Created.Equal(in.Created) {
		t.Errorf("read back %+v, wrote %+v", out, in)
	}
	// "hello" has a well-known SHA-256.
	if files[0].SHA256 != "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824" || files[0].Bytes != 5 {
		t.Errorf("HashFile(hello) = %s, %d", files[0].SHA256, files[0].Bytes)
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".*tmp*"))
	if len(leftovers) != 0 {
		t.Errorf("temp files left: %v", leftovers)
	}
}

func TestManifestErrors(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T, dir string)
		noData  bool     // error must wrap ErrNoDataset
		mention []string // substrings the error must contain
	}{
		{name: "missing manifest", setup: func(t *testing.T, dir string) {}, noData: true,
			mention: []string{ManifestName}},
		{name: "corrupt json", setup: func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, ManifestName), []byte(`{"kind": "games", "rows": `), 0o644)
		}, mention: []string{ManifestName, "malformed"}},
		{name: "truncated file", setup: func(t *testing.T, dir string) {
			f := writeDataFile(t, dir, "part-0.arrow", []byte("0123456789"), 1)
			mustWriteManifest(t, dir, f)
			os.Truncate(filepath.Join(dir, f.Name), 4)
		}, mention: []string{"part-0.arrow", "truncated: 4 bytes, manifest says 10"}},
		{name: "flipped byte", setup: func(t *testing.T, dir string) {
			f := writeDataFile(t, dir, "part-0.arrow", []byte("0123456789"), 1)
			mustWriteManifest(t, dir, f)
			os.WriteFile(filepath.Join(dir, f.Name), []byte("01234X6789"), 0o644)
		}, mention: []string{"part-0.arrow", "sha256"}},
		{name: "missing file", setup: func(t *testing.T, dir string) {
			f := writeDataFile(t, dir, "part-0.arrow", []byte("0123456789"), 1)
			mustWriteManifest(t, dir, f)
			os.Remove(filepath.Join(dir, f.Name))
		}, mention: []string{"part-0.arrow", "missing"}},
		{name: "edited report file", setup: func(t *testing.T, dir string) {
			f := writeDataFile(t, dir, "part-0.arrow", []byte("0123456789"), 1)
			writeReport(t, dir, f)
			os.WriteFile(filepath.Join(dir, ReportDir, "section.md"), []byte("## forged\n"), 0o644)
		}, mention: []string{filepath.Join(ReportDir, "section.md"), "manifest says"}},
		{name: "added report file", setup: func(t *testing.T, dir string) {
			f := writeDataFile(t, dir, "part-0.arrow", []byte("0123456789"), 1)
			writeReport(t, dir, f)
			os.WriteFile(filepath.Join(dir, ReportDir, "plot.png"), []byte("png"), 0o644)
		}, mention: []string{filepath.Join(ReportDir, "plot.png"), "not listed"}},
		{name: "negative size", setup: func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, ManifestName),
				[]byte(`{"kind":"x","files":[{"name":"a","bytes":-1,"sha256":"`+strings.Repeat("0", 64)+`"}]}`), 0o644)
		}, mention: []string{ManifestName, "files[0]", "bytes -1 is negative"}},
		{name: "bad sha256", setup: func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, ManifestName),
				[]byte(`{"kind":"x","files":[{"name":"a","sha256":"xyz"}]}`), 0o644)
		}, mention: []string{ManifestName, "files[0]", `sha256 "xyz"`}},
		{name: "file listed twice", setup: func(t *testing.T, dir string) {
			f := writeDataFile(t, dir, "part-0.arrow", []byte("0123456789"), 1)
			mustWriteManifest(t, dir, f, f)
		}, mention: []string{ManifestName, "files[1]", "listed twice"}},
		{name: "report entry outside report dir", setup: func(t *testing.T, dir string) {
			f := writeDataFile(t, dir, "part-0.arrow", []byte("0123456789"), 1)
			WriteManifest(dir, &Manifest{Kind: "x", Files: []FileEntry{f}, Report: []FileEntry{f}})
		}, mention: []string{ManifestName, "report[0]", "not under report/"}},
		{name: "escaping file name", setup: func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, ManifestName),
				[]byte(`{"kind":"x","files":[{"name":"../etc/passwd"}]}`), 0o644)
		}, mention: []string{"../etc/passwd"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tc.setup(t, dir)
			_, err := Verify(dir)
			if err == nil {
				t.Fatal("Verify accepted a broken dataset")
			}
			if errors.Is(err, ErrNoDataset) != tc.noData {
				t.Errorf("errors.Is(err, ErrNoDataset) = %v, want %v (err: %v)", !tc.noData, tc.noData, err)
			}
			for _, s := range tc.mention {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
		})
	}
}

func mustWriteManifest(t *testing.T, dir string, files ...FileEntry) {
	t.Helper()
	if err := WriteManifest(dir, &Manifest{SchemaVersion: 1, Kind: "test", Files: files}); err != nil {
		t.Fatal(err)
	}
}

// writeReport writes a report section into dir and a manifest listing data
// and it, as the pipeline runner does.
func writeReport(t *testing.T, dir string, data FileEntry) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, ReportDir), 0o755); err != nil {
		t.Fatal(err)
	}
	writeDataFile(t, dir, filepath.Join(ReportDir, "section.md"), []byte("## s\n\ntext\n"), 0)
	report, err := ReportEntries(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(report) != 1 || report[0].Name != "report/section.md" {
		t.Fatalf("ReportEntries: %+v, want report/section.md", report)
	}
	if err := WriteManifest(dir, &Manifest{SchemaVersion: 1, Kind: "test", Files: []FileEntry{data}, Report: report}); err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(dir); err != nil {
		t.Fatalf("a dataset with its report listed does not verify: %v", err)
	}
}
