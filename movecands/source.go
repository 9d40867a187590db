package movecands

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"lifezero/datasets"
	"lifezero/featmodel"
	"lifezero/features"
)

// Data is one or more movecands datasets built with the same feature set,
// read as training or evaluation samples. It implements featmodel.SampleSource:
// every Scan streams the rows from disk (verifying the files again), so the
// memory it needs is that of one file; Load reads them into memory instead.
type Data struct {
	dirs      []string
	manifests []*datasets.Manifest
	features  *features.Extractor
	positions int64
}

// Open checks that every dir holds a movecands dataset (manifest, kind,
// schema version) and that all were built with the same feature set.
func Open(dirs ...string) (*Data, error) {
	if len(dirs) == 0 {
		return nil, errors.New("movecands: no datasets given")
	}
	d := &Data{dirs: append([]string(nil), dirs...)}
	var set string
	for i, dir := range dirs {
		m, err := datasets.ReadManifest(dir)
		if err != nil {
			return nil, err
		}
		if m.Kind != datasets.MoveCandsKind || m.SchemaVersion != datasets.MoveCandsSchemaVersion {
			return nil, fmt.Errorf("movecands: %s is a %q dataset, schema version %d; want %q version %d (build it with \"lifezero features build\")",
				dir, m.Kind, m.SchemaVersion, datasets.MoveCandsKind, datasets.MoveCandsSchemaVersion)
		}
		if i == 0 {
			set = m.Meta[metaFeatureSet]
			if d.features, err = FeatureSet(m); err != nil {
				return nil, fmt.Errorf("%s: %w", dir, err)
			}
		} else if m.Meta[metaFeatureSet] != set {
			return nil, fmt.Errorf("movecands: %s and %s were built with different feature sets; their feature ids do not mean the same", dirs[0], dir)
		}
		d.manifests = append(d.manifests, m)
		d.positions += m.Rows
	}
	return d, nil
}

// Dirs returns the datasets' directories.
func (d *Data) Dirs() []string { return append([]string(nil), d.dirs...) }

// Manifests returns the datasets' manifests, in the order of Dirs.
func (d *Data) Manifests() []*datasets.Manifest {
	return append([]*datasets.Manifest(nil), d.manifests...)
}

// Features returns the feature set the data was built with.
func (d *Data) Features() *features.Extractor { return d.features }

// NumFeatures is the number of feature ids of the feature set.
func (d *Data) NumFeatures() int { return d.features.NumFeatures() }

// Positions is the number of positions (rows) in all the datasets.
func (d *Data) Positions() int64 { return d.positions }

// Scan visits every position of every dataset, in order, as a freshly
// allocated featmodel.Sample (the visitor may keep it). It stops at the first
// error, or when ctx is done.
func (d *Data) Scan(ctx context.Context, visit func(*featmodel.Sample) error) error {
	for _, dir := range d.dirs {
		_, err := datasets.ForEachMoveCands(ctx, dir, func(r *datasets.MoveCands) error {
			s := SampleOf(r)
			return visit(&s)
		})
		if err != nil {
			return err
		}
	}
	return ctx.Err()
}

// ScanShuffled visits every position once, as Scan does, but takes the data
// files of all the datasets in an order drawn from rng; rows keep their order
// inside a file. The SGD trainers stream through it under their shuffle
// buffer: a dataset stores its positions game by game in the games' input
// order (tom9d: by date), which a buffer alone mixes only across its window
// of a few dozen games, in the same order every epoch.
func (d *Data) ScanShuffled(ctx context.Context, rng *rand.Rand, visit func(*featmodel.Sample) error) error {
	type fileRef struct{ dataset, file int }
	var refs []fileRef
	for i, m := range d.manifests {
		for j := range m.Files {
			refs = append(refs, fileRef{i, j})
		}
	}
	rng.Shuffle(len(refs), func(i, j int) { refs[i], refs[j] = refs[j], refs[i] })
	for _, r := range refs {
		err := datasets.ForEachMoveCandsFile(ctx, d.dirs[r.dataset], d.manifests[r.dataset], r.file, func(row *datasets.MoveCands) error {
			s := SampleOf(row)
			return visit(&s)
		})
		if err != nil {
			return err
		}
	}
	return ctx.Err()
}

// Load reads every position into memory.
func (d *Data) Load(ctx context.Context) (featmodel.Samples, error) {
	out := make(featmodel.Samples, 0, d.positions)
	err := d.Scan(ctx, func(s *featmodel.Sample) error {
		out = append(out, *s)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// SampleOf returns a row as a featmodel.Sample; the candidates share the row's
// feature slices.
func SampleOf(r *datasets.MoveCands) featmodel.Sample {
	cands := make([]featmodel.Candidate, len(r.Features))
	for i, f := range r.Features {
		cands[i] = f
	}
	return featmodel.Sample{Candidates: cands, Played: int(r.Played), MoveNumber: int(r.MoveNumber)}
}
