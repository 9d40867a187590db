package pipelines

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"lifezero/datasets"
)

// hashFormat versions the input-hash layout itself.
const hashFormat = "lifezero-input-hash/1"

// InputHash returns the hex SHA-256 that identifies a stage run: the kind's
// name and version, the params as canonical JSON (so equal params written
// differently hash alike, defaults included) and, for each input in order,
// the name, size and checksum of each of its files: a stage input's data
// files from its manifest, plus, for a kind that reads reports
// (Kind.ReadsReports), the files of its report/ directory; a path input's
// files by reading them (hidden files skipped).
func InputHash(ctx context.Context, kind *Kind, params any, inputs []InputRef) (string, error) {
	h := sha256.New()
	canon, err := json.Marshal(params)
	if err != nil {
		return "", fmt.Errorf("pipelines: hash params of kind %s: %w", kind.Name, err)
	}
	fmt.Fprintf(h, "%s\nkind %q\nversion %d\nparams %s\n", hashFormat, kind.Name, kind.Version, canon)
	for i, in := range inputs {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		if in.Manifest != nil && in.Stage != "" {
			fmt.Fprintf(h, "input %d dataset %q schema %d\n", i, in.Manifest.Kind, in.Manifest.SchemaVersion)
			files := append([]datasets.FileEntry(nil), in.Manifest.Files...)
			sort.Slice(files, func(a, b int) bool { return files[a].Name < files[b].Name })
			for _, f := range files {
				fmt.Fprintf(h, "file %q %d %s\n", f.Name, f.Bytes, f.SHA256)
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
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashPath writes the name, size and SHA-256 of every non-hidden file under
// root (or of root itself if it is a file) to w, in name order.
func hashPath(ctx context.Context, w io.Writer, root string) error {
	st, err := os.Stat(root)
	if err != nil {
		return fmt.Errorf("pipelines: input %w", err)
	}
	if !st.IsDir() {
		return hashOne(w, root, filepath.Base(root))
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
		if err := hashOne(w, path, filepath.ToSlash(rel)); err != nil {
			return err
		}
	}
	return nil
}

func hashOne(w io.Writer, path, name string) error {
	sha, size, err := datasets.HashFile(path)
	if err != nil {
		return fmt.Errorf("pipelines: input %w", err)
	}
	fmt.Fprintf(w, "file %q %d %s\n", name, size, sha)
	return nil
}
