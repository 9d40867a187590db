package datasets

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"lifezero/internal/atomicfile"
	"lifezero/internal/readfile"
)

// ManifestName is the file that makes a directory a dataset.
const ManifestName = "_manifest.json"

// ReportDir is the subdirectory of a dataset that holds the report section
// and plots of the stage that wrote it (see Manifest.Report).
const ReportDir = "report"

// ErrNoDataset is returned (wrapped) when a directory has no manifest.
var ErrNoDataset = errors.New("datasets: no dataset (missing " + ManifestName + ")")

// FileEntry describes one data file of a dataset.
type FileEntry struct {
	Name   string `json:"name"` // relative to the dataset dir
	Rows   int64  `json:"rows"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// Manifest is the content of a dataset's _manifest.json.
type Manifest struct {
	SchemaVersion int         `json:"schema_version"` // version of the dataset kind's schema
	Kind          string      `json:"kind"`           // "games", "solve-results", ...
	Stage         string      `json:"stage,omitempty"`
	InputHash     string      `json:"input_hash"` // hash of producing stage's config + inputs
	Rows          int64       `json:"rows"`
	Files         []FileEntry `json:"files"`
	// Report lists the files under ReportDir (names relative to the dataset
	// dir, "report/section.md"): the stage's write-up and plots, which no
	// data reader opens. They are checksummed so that Verify notices an
	// edited report, but kept apart from Files so that readers, row counts
	// and the input hashes of later stages see only the data.
	Report  []FileEntry       `json:"report,omitempty"`
	Created time.Time         `json:"created"`
	Meta    map[string]string `json:"meta,omitempty"`
}

// ReadManifest reads dir's manifest. A missing manifest gives an error
// wrapping ErrNoDataset.
func ReadManifest(dir string) (*Manifest, error) {
	path := filepath.Join(dir, ManifestName)
	data, err := readfile.Read(path, readfile.MaxManifest)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", ErrNoDataset, path)
	}
	if err != nil {
		return nil, fmt.Errorf("datasets: read manifest: %w", err)
	}
	return parseManifest(path, data)
}

// parseManifest decodes the manifest at path from data and checks what its
// users rely on without further checks: the kind is set, and every file entry
// names a distinct local path with sizes and rows >= 0 and a SHA-256 in hex.
// Errors name path and the problem.
func parseManifest(path string, data []byte) (*Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("datasets: manifest %s is malformed (delete the dataset and rebuild it): %w", path, err)
	}
	if m.Kind == "" {
		return nil, fmt.Errorf("datasets: manifest %s has no kind", path)
	}
	if m.Rows < 0 {
		return nil, fmt.Errorf("datasets: manifest %s: rows %d is negative", path, m.Rows)
	}
	seen := map[string]bool{}
	for _, list := range []struct {
		key     string
		entries []FileEntry
	}{{"files", m.Files}, {"report", m.Report}} {
		for i, f := range list.entries {
			if err := checkEntry(f, list.key == "report"); err != nil {
				return nil, fmt.Errorf("datasets: manifest %s: %s[%d]: %w", path, list.key, i, err)
			}
			if seen[f.Name] {
				return nil, fmt.Errorf("datasets: manifest %s: %s[%d]: file %q is listed twice", path, list.key, i, f.Name)
			}
			seen[f.Name] = true
		}
	}
	return &m, nil
}

// checkEntry checks one file entry of a manifest; a report entry must lie
// under ReportDir and a data entry must not (Verify would count it twice).
func checkEntry(f FileEntry, report bool) error {
	switch {
	case !filepath.IsLocal(f.Name):
		return fmt.Errorf("file name %q is not a local path", f.Name)
	case report != strings.HasPrefix(filepath.ToSlash(f.Name), ReportDir+"/"):
		if report {
			return fmt.Errorf("report file %q is not under %s/", f.Name, ReportDir)
		}
		return fmt.Errorf("data file %q is under %s/, which holds the report", f.Name, ReportDir)
	case f.Rows < 0:
		return fmt.Errorf("file %q: rows %d is negative", f.Name, f.Rows)
	case f.Bytes < 0:
		return fmt.Errorf("file %q: bytes %d is negative", f.Name, f.Bytes)
	case !isSHA256(f.SHA256):
		return fmt.Errorf("file %q: sha256 %q is not 64 lowercase hex digits", f.Name, f.SHA256)
	}
	return nil
}

func isSHA256(s string) bool {
	if len(s) != 2*sha256.Size {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// WriteManifest writes m to dir atomically (temp file + rename). If m.Rows is
// zero it is set to the sum of the files' rows; a zero Created is set to now.
func WriteManifest(dir string, m *Manifest) error {
	if m.Kind == "" {
		return fmt.Errorf("datasets: write manifest in %s: kind is empty", dir)
	}
	if m.Rows == 0 {
		for _, f := range m.Files {
			m.Rows += f.Rows
		}
	}
	if m.Created.IsZero() {
		m.Created = time.Now().UTC()
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("datasets: encode manifest for %s: %w", dir, err)
	}
	data = append(data, '\n')
	return atomicfile.WriteFile(filepath.Join(dir, ManifestName), data)
}

// Verify reads dir's manifest and checks that every file it lists, data and
// report, exists with the recorded size and SHA-256, and, when it lists a
// report, that the report directory holds no other file. Errors name the
// file and the problem.
func Verify(dir string) (*Manifest, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	var sum int64
	for _, f := range m.Files {
		if err := verifyFile(dir, f); err != nil {
			return nil, err
		}
		sum += f.Rows
	}
	for _, f := range m.Report {
		if err := verifyFile(dir, f); err != nil {
			return nil, err
		}
	}
	if len(m.Report) > 0 {
		// A file added to the report (a section or plot the report stage
		// would pick up) is as much a change as an edited one.
		have, err := ReportEntries(dir)
		if err != nil {
			return nil, err
		}
		listed := map[string]bool{}
		for _, f := range m.Report {
			listed[f.Name] = true
		}
		for _, f := range have {
			if !listed[f.Name] {
				return nil, fmt.Errorf("datasets: %s: not listed in the manifest's report files", filepath.Join(dir, f.Name))
			}
		}
	}
	if sum != m.Rows {
		return nil, fmt.Errorf("datasets: manifest %s: rows %d but files hold %d",
			filepath.Join(dir, ManifestName), m.Rows, sum)
	}
	return m, nil
}

func verifyFile(dir string, f FileEntry) error {
	path := filepath.Join(dir, f.Name)
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("datasets: %s: missing (listed in the manifest)", path)
	}
	if err != nil {
		return fmt.Errorf("datasets: %s: %w", path, err)
	}
	if err := checkSize(path, st.Size(), f); err != nil {
		return err // don't hash a file of the wrong size
	}
	sha, size, err := HashFile(path)
	if err != nil {
		return err
	}
	return checkContent(path, size, sha, f)
}

// checkSize compares a file's size with its manifest entry.
func checkSize(path string, size int64, f FileEntry) error {
	switch {
	case size < f.Bytes:
		return fmt.Errorf("datasets: %s: truncated: %d bytes, manifest says %d", path, size, f.Bytes)
	case size > f.Bytes:
		return fmt.Errorf("datasets: %s: too long: %d bytes, manifest says %d", path, size, f.Bytes)
	}
	return nil
}

// checkContent compares a file's size and SHA-256 with its manifest entry.
func checkContent(path string, size int64, sha string, f FileEntry) error {
	if err := checkSize(path, size, f); err != nil {
		return err
	}
	if sha != f.SHA256 {
		return fmt.Errorf("datasets: %s: corrupt: sha256 %s, manifest says %s", path, sha, f.SHA256)
	}
	return nil
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// ReportEntries returns the entries of the files under dir's ReportDir, in
// name order, hashing each; hidden files (an interrupted atomic write's temp
// file) are skipped, as no report reader opens them. A dataset without a
// report gives none.
func ReportEntries(dir string) ([]FileEntry, error) {
	root := filepath.Join(dir, ReportDir)
	if _, err := os.Stat(root); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	var out []FileEntry
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("datasets: report of %s: %w", dir, err)
		}
		if path != root && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("datasets: %s: not a regular file in a report", path)
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return fmt.Errorf("datasets: report of %s: %w", dir, err)
		}
		sha, size, err := HashFile(path)
		if err != nil {
			return err
		}
		out = append(out, FileEntry{Name: filepath.ToSlash(rel), Bytes: size, SHA256: sha})
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// HashFile returns the hex SHA-256 and the size of the file at path.
func HashFile(path string) (sha string, size int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, fmt.Errorf("datasets: hash: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	size, err = io.Copy(h, f)
	if err != nil {
		return "", 0, fmt.Errorf("datasets: hash %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), size, nil
}
