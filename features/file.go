package features

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"lifezero/internal/atomicfile"
)

// File format: one JSON object,
//
//	{
//	  "format": "lifezero-features",
//	  "version": 1,
//	  "pattern3_liberties": true,
//	  "num_features": 27314,
//	  "diamonds": [{"code": 5, "count": 1234}, ...],
//	  "shapes": [{"size": 5, "pattern": "X..O....#...", "count": 99}, ...]
//	}
//
// "shapes" is left out when there are none, so files without shapes read
// as before.
//
// The configuration is all that is stored: the fixed groups and the 3x3
// table are rebuilt from it, and num_features guards against a file written
// by a version of the package with a different id layout.
const (
	fileFormat  = "lifezero-features"
	fileVersion = 1
)

type fileData struct {
	Format            string         `json:"format"`
	Version           int            `json:"version"`
	Pattern3Liberties bool           `json:"pattern3_liberties"`
	NumFeatures       int            `json:"num_features"`
	Diamonds          []DiamondCount `json:"diamonds"`
	Shapes            []ShapeCount   `json:"shapes,omitempty"`
	NoLadders         bool           `json:"no_ladders,omitempty"`
}

// WriteJSON writes the feature set in the file format above.
func (e *Extractor) WriteJSON(w io.Writer) error {
	data := fileData{
		Format:            fileFormat,
		Version:           fileVersion,
		Pattern3Liberties: e.cfg.Pattern3Liberties,
		NumFeatures:       e.NumFeatures(),
		Diamonds:          e.cfg.Diamonds,
		Shapes:            e.cfg.Shapes,
		NoLadders:         e.cfg.NoLadders,
	}
	if data.Diamonds == nil {
		data.Diamonds = []DiamondCount{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	if err := enc.Encode(data); err != nil {
		return fmt.Errorf("features: writing feature set: %w", err)
	}
	return nil
}

// ReadJSON reads a feature set written by WriteJSON.
func ReadJSON(r io.Reader) (*Extractor, error) {
	var data fileData
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&data); err != nil {
		return nil, fmt.Errorf("features: reading feature set: %w", err)
	}
	if data.Format != fileFormat {
		return nil, fmt.Errorf("features: reading feature set: format %q, want %q", data.Format, fileFormat)
	}
	if data.Version != fileVersion {
		return nil, fmt.Errorf("features: reading feature set: version %d, this program reads version %d", data.Version, fileVersion)
	}
	e, err := New(Config{Pattern3Liberties: data.Pattern3Liberties, Diamonds: data.Diamonds, Shapes: data.Shapes, NoLadders: data.NoLadders})
	if err != nil {
		return nil, fmt.Errorf("features: reading feature set: %w", err)
	}
	if data.NumFeatures != e.NumFeatures() {
		return nil, fmt.Errorf("features: reading feature set: it has %d features but this program builds %d from its configuration: the id layout changed, so the set (and models trained on it) must be rebuilt", data.NumFeatures, e.NumFeatures())
	}
	return e, nil
}

// Save writes the feature set to path atomically (a temporary file in the
// same directory, then a rename).
func (e *Extractor) Save(path string) (err error) {
	tmp, err := atomicfile.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*") // 0644 under the umask
	if err != nil {
		return fmt.Errorf("features: saving %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := e.WriteJSON(tmp); err != nil {
		return fmt.Errorf("features: saving %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("features: saving %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("features: saving %s: %w", path, err)
	}
	if err := atomicfile.SyncDir(filepath.Dir(path)); err != nil {
		return fmt.Errorf("features: saving %s: %w", path, err)
	}
	return nil
}

// Load reads a feature set saved by Save.
func Load(path string) (*Extractor, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("features: loading: %w", err)
	}
	defer f.Close()
	e, err := ReadJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return e, nil
}
