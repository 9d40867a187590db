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
	"time"

	"lifezero/internal/atomicfile"
	"lifezero/internal/readfile"
)

// ManifestName is the file that makes a directory a dataset.
const ManifestName = "_manifest.json"

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
	SchemaVersion int               `json:"schema_version"` // version of the dataset kind's schema
	Kind          string            `json:"kind"`           // "games", "solve-results", ...
	Stage         string            `json:"stage,omitempty"`
	InputHash     string            `json:"input_hash"` // hash of producing stage's config + inputs
	Rows          int64             `json:"rows"`
	Files         []FileEntry       `json:"files"`
	Created       time.Time         `json:"created"`
	Meta          map[string]string `json:"meta,omitempty"`
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
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("datasets: manifest %s is malformed (delete the dataset and rebuild it): %w", path, err)
	}
	if m.Kind == "" {
		return nil, fmt.Errorf("datasets: manifest %s has no kind", path)
	}
	for _, f := range m.Files {
		if !filepath.IsLocal(f.Name) {
			return nil, fmt.Errorf("datasets: manifest %s: file name %q is not a local path", path, f.Name)
		}
	}
	return &m, nil
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

// Verify reads dir's manifest and checks that every file it lists exists
// with the recorded size and SHA-256. Errors name the file and the problem.
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
