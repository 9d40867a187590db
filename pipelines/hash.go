package pipelines

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"lifezero/datasets"
)

// InputHash returns the hex SHA-256 that identifies a stage run: the kind's
// name and version, the params as canonical JSON (so equal params written
// differently hash alike, defaults included) and, for each input in order,
// the name, size and checksum of each of its files: a stage input's data
// files from its manifest, plus, for a kind that reads reports
// (Kind.ReadsReports), the files of its report/ directory; a path input's
// files by reading them (hidden files skipped). The layout is
// datasets.InputHasher's, which the builders run outside a pipeline share.
func InputHash(ctx context.Context, kind *Kind, params any, inputs []InputRef) (string, error) {
	h, err := datasets.NewInputHasher(kind.Name, kind.Version, params)
	if err != nil {
		return "", fmt.Errorf("pipelines: %w", err)
	}
	for i, in := range inputs {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		if in.Manifest != nil && in.Stage != "" {
			fmt.Fprintf(h, "input %d dataset %q schema %d\n", i, in.Manifest.Kind, in.Manifest.SchemaVersion)
			files := append([]datasets.FileEntry(nil), in.Manifest.Files...)
			sort.Slice(files, func(a, b int) bool { return files[a].Name < files[b].Name })
			for _, f := range files {
				h.File(f.Name, f.Bytes, f.SHA256)
			}
			// Only a kind that reads the report section hashes it: the
			// report holds timings, so hashing it for every kind would rerun
			// everything downstream of a rebuilt stage whose data is
			// byte-identical. (The manifest checksums the report so an edit
			// to it is still caught, by Verify.)
			report := filepath.Join(in.Path, ReportDir)
			if _, err := os.Stat(report); err == nil && kind.ReadsReports {
				fmt.Fprintf(h, "input %d report\n", i)
				if err := hashPath(ctx, h, report); err != nil {
					return "", err
				}
			}
			continue
		}
		fmt.Fprintf(h, "input %d path\n", i)
		if err := hashPath(ctx, h, in.Path); err != nil {
			return "", err
		}
	}
	return h.Sum(), nil
}

// hashPath adds the name, size and SHA-256 of every non-hidden file under
// root (or of root itself if it is a file) to h, in name order.
func hashPath(ctx context.Context, h *datasets.InputHasher, root string) error {
	st, err := os.Stat(root)
	if err != nil {
		return fmt.Errorf("pipelines: input %w", err)
	}
	if !st.IsDir() {
		return hashOne(h, root, filepath.Base(root))
	}
	var files []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("pipelines: input %s: %w", root, err)
		}
		if path != root && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(files) // WalkDir's lexical order per directory is not a global order
	for _, path := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return fmt.Errorf("pipelines: input %s: %w", path, err)
		}
		if err := hashOne(h, path, filepath.ToSlash(rel)); err != nil {
			return err
		}
	}
	return nil
}

func hashOne(h *datasets.InputHasher, path, name string) error {
	sha, size, err := datasets.HashFile(path)
	if err != nil {
		return fmt.Errorf("pipelines: input %w", err)
	}
	h.File(name, size, sha)
	return nil
}
