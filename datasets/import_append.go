package datasets

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Manifest meta keys of appends. "appends" counts them; the keys of append
// k start with "append.k.": data_files (the files it added, one per line),
// inputs, files (input files read), games_read, games_written and
// skipped.REASON. The import's own
// keys (files, games_read, games_written, skipped.REASON) are kept as the
// totals over the import and every append.
const (
	metaAppends     = "appends"
	metaAppendFiles = "data_files"
)

// AppendRecords imports the SGF files of opts.Inputs into the games dataset
// already in opts.OutDir, adding data files after its own. A game already
// in the dataset, or added earlier in this append, is skipped with the
// reason SkipDuplicateID (same game id) or SkipDuplicateMoves (same board
// size, handicap and move sequence, passes written either way), and
// reported to OnSkip with the source of the game it repeats; the returned
// summary counts this append only. Games with no moves are compared by
// game id alone.
//
// The append is atomic: the new files get names of their own
// ("appendNNN-*.arrow") and the dataset's manifest is replaced, by rename,
// only once they are complete. Until then readers see the dataset as it
// was; a killed append leaves only unlisted files, which the next append
// overwrites or removes, so rerunning the same command resumes it. An
// append that finds no new game leaves the dataset untouched (unless
// opts.RecordEmptyAppend). Two appends must not run on one dataset at once.
func AppendRecords(ctx context.Context, opts ImportOptions) (*Manifest, ImportSummary, error) {
	if err := opts.check(); err != nil {
		return nil, ImportSummary{}, err
	}
	base, err := Verify(opts.OutDir)
	if errors.Is(err, ErrNoDataset) {
		return nil, ImportSummary{}, fmt.Errorf("datasets: append to %s: no games dataset there to append to (import the first records without append): %w", opts.OutDir, err)
	}
	if err != nil {
		return nil, ImportSummary{}, fmt.Errorf("datasets: append: %w", err)
	}
	if err := checkKind(opts.OutDir, base, GamesKind, GamesSchemaVersion); err != nil {
		return nil, ImportSummary{}, fmt.Errorf("datasets: append: %w", err)
	}
	seen, err := loadSeenGames(ctx, opts.OutDir)
	if err != nil {
		return nil, ImportSummary{}, err
	}
	files, err := listInputs(opts.Inputs)
	if err != nil {
		return nil, ImportSummary{}, err
	}
	opts = opts.withDefaults()
	hash, err := newImportHash(opts)
	if err != nil {
		return nil, ImportSummary{}, err
	}
	k := appendCount(base) + 1
	w := &Writer{dir: opts.OutDir, schema: GamesSchema(), base: base.Files,
		opts: WriterOptions{MaxRowsPerFile: opts.RowsPerFile, FilePrefix: fmt.Sprintf("append%03d", k)}}
	imp := newImporterTo(opts, files, w, hash)
	imp.seen = seen
	defer imp.w.Abort()
	defer imp.gb.Release()
	if err := imp.run(ctx); err != nil {
		return nil, imp.sum, err
	}
	if imp.sum.Written == 0 && !opts.RecordEmptyAppend {
		return base, imp.sum, nil
	}
	if imp.gb.Len() > 0 {
		if err := writeGameBatch(imp.w, imp.gb); err != nil {
			return nil, imp.sum, err
		}
	}
	if len(imp.w.files) == 0 { // an empty append: one empty file, as Commit would make
		if err := imp.w.openFile(); err != nil {
			return nil, imp.sum, err
		}
	}
	if err := imp.w.closeFile(); err != nil { // so that imp.w.files lists every new file
		return nil, imp.sum, err
	}
	inputHash := opts.InputHash
	if inputHash == "" {
		inputHash = SubHash(base.InputHash, "append "+imp.hash.Sum())
	}
	m, err := imp.w.Commit(Manifest{Kind: GamesKind, SchemaVersion: GamesSchemaVersion, Stage: base.Stage,
		InputHash: inputHash, Report: base.Report, Meta: appendMeta(base, k, imp)})
	return m, imp.sum, err
}

// appendCount is the number of appends a games manifest records.
func appendCount(m *Manifest) int {
	n, _ := strconv.Atoi(m.Meta[metaAppends])
	return n
}

// appendMeta is base's meta with append k's summary added and the totals
// updated.
func appendMeta(base *Manifest, k int, imp *importer) map[string]string {
	meta := make(map[string]string, len(base.Meta)+8)
	for key, v := range base.Meta {
		meta[key] = v
	}
	prefix := fmt.Sprintf("append.%d.", k)
	add := func(key string, n int) {
		old, _ := strconv.Atoi(meta[key])
		meta[key] = strconv.Itoa(old + n)
		meta[prefix+key] = strconv.Itoa(n)
	}
	add("files", imp.sum.Files)
	add("games_read", imp.sum.Read)
	add("games_written", imp.sum.Written)
	for reason, n := range imp.sum.Skipped {
		add("skipped."+reason, n)
	}
	names := make([]string, len(imp.w.files))
	for i, f := range imp.w.files {
		names[i] = f.Name
	}
	meta[metaAppends] = strconv.Itoa(k)
	meta[prefix+metaAppendFiles] = strings.Join(names, "\n")
	meta[prefix+"inputs"] = strings.Join(imp.opts.Inputs, "\n")
	return meta
}

// LastAppend returns the number of the last append a games dataset's
// manifest records (0: none) and the data files it added.
func LastAppend(m *Manifest) (k int, files []string) {
	k = appendCount(m)
	if k == 0 {
		return 0, nil
	}
	if v := m.Meta[fmt.Sprintf("append.%d.%s", k, metaAppendFiles)]; v != "" {
		files = strings.Split(v, "\n")
	}
	return k, files
}

// AppendSummaryOf reads the summary of append k from a games manifest.
func AppendSummaryOf(m *Manifest, k int) (ImportSummary, error) {
	prefix := fmt.Sprintf("append.%d.", k)
	sub := &Manifest{Kind: m.Kind, Meta: map[string]string{}}
	for key, v := range m.Meta {
		if rest, ok := strings.CutPrefix(key, prefix); ok && rest != metaAppendFiles && rest != "inputs" {
			sub.Meta[rest] = v
		}
	}
	if len(sub.Meta) == 0 {
		return ImportSummary{}, fmt.Errorf("datasets: manifest records no append %d", k)
	}
	return ImportSummaryOf(sub)
}

// AppendedView writes to dst a games dataset of the games that the last
// append to the games dataset in src added (hard links to its files, or
// copies where links fail), so that a stage can read the new records only.
func AppendedView(src, dst string) (*Manifest, error) {
	m, err := Verify(src)
	if err != nil {
		return nil, err
	}
	if err := checkKind(src, m, GamesKind, GamesSchemaVersion); err != nil {
		return nil, err
	}
	k, names := LastAppend(m)
	if k == 0 {
		return nil, fmt.Errorf("datasets: %s records no append (add records with records import --append first)", src)
	}
	byName := map[string]FileEntry{}
	for _, f := range m.Files {
		byName[f.Name] = f
	}
	view := Manifest{Kind: GamesKind, SchemaVersion: GamesSchemaVersion, Stage: m.Stage,
		InputHash: m.InputHash + fmt.Sprintf(":append%d", k), Meta: map[string]string{"view_of": src, "append": strconv.Itoa(k)}}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return nil, fmt.Errorf("datasets: appended view: %w", err)
	}
	for _, name := range names {
		f, ok := byName[name]
		if !ok {
			return nil, fmt.Errorf("datasets: %s: append %d lists %q, which the manifest's files do not", src, k, name)
		}
		if err := linkOrCopy(filepath.Join(src, name), filepath.Join(dst, name)); err != nil {
			return nil, err
		}
		view.Files = append(view.Files, f)
	}
	if err := WriteManifest(dst, &view); err != nil {
		return nil, err
	}
	return &view, nil
}

// LinkDataset makes dst (empty or absent) a copy of the dataset in src:
// its data files hard-linked (copied where links fail) and its manifest
// without the report section, which stays src's.
func LinkDataset(src, dst string) (*Manifest, error) {
	m, err := Verify(src)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return nil, fmt.Errorf("datasets: link dataset: %w", err)
	}
	for _, f := range m.Files {
		if err := linkOrCopy(filepath.Join(src, f.Name), filepath.Join(dst, f.Name)); err != nil {
			return nil, err
		}
	}
	c := *m
	c.Report = nil
	if err := WriteManifest(dst, &c); err != nil {
		return nil, err
	}
	return &c, nil
}

// linkOrCopy makes dst hold src's content: a hard link, or a copy (through
// a temp file and rename) when linking fails, e.g. across file systems.
// An existing dst is replaced.
func linkOrCopy(src, dst string) error {
	if err := os.Remove(dst); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("datasets: replace %s: %w", dst, err)
	}
	if os.Link(src, dst) == nil {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("datasets: copy: %w", err)
	}
	defer in.Close()
	tmp, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".tmp-*")
	if err != nil {
		return fmt.Errorf("datasets: copy %s: %w", src, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, in); err != nil {
		tmp.Close()
		return fmt.Errorf("datasets: copy %s to %s: %w", src, dst, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("datasets: copy %s: %w", src, err)
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return fmt.Errorf("datasets: copy %s: %w", src, err)
	}
	return nil
}

// seenGames holds the games of a dataset by game id and by move sequence,
// each with the source of its first copy.
type seenGames struct {
	ids   map[string]string
	moves map[[16]byte]string
}

// loadSeenGames reads every game of the games dataset in dir.
func loadSeenGames(ctx context.Context, dir string) (*seenGames, error) {
	s := &seenGames{ids: map[string]string{}, moves: map[[16]byte]string{}}
	_, err := ForEachGame(ctx, dir, func(g Game) error {
		s.add(g)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("datasets: append: read the games already in %s: %w", dir, err)
	}
	return s, nil
}

// add records g (the first copy of an id or a sequence is kept).
func (s *seenGames) add(g Game) {
	if _, ok := s.ids[g.GameID]; !ok {
		s.ids[g.GameID] = g.Source
	}
	if g.NumMoves == 0 {
		return
	}
	if key := moveKey(g); s.moves[key] == "" {
		s.moves[key] = g.Source
	}
}

// find says whether g repeats a recorded game: the skip reason and the
// source of the game it repeats, or "".
func (s *seenGames) find(g Game) (reason, first string) {
	if src, ok := s.ids[g.GameID]; ok {
		return SkipDuplicateID, src
	}
	if g.NumMoves == 0 {
		return "", ""
	}
	if src, ok := s.moves[moveKey(g)]; ok {
		return SkipDuplicateMoves, src
	}
	return "", ""
}

// moveKey identifies a game's play: board size, handicap and the moves,
// with a pass written B[] or B[tt] (on boards up to 19x19) alike.
func moveKey(g Game) [16]byte {
	moves := g.Moves
	if g.BoardSize <= 19 {
		moves = strings.ReplaceAll(moves, "[tt]", "[]")
	}
	h := sha256.Sum256(fmt.Appendf(nil, "%d\x00%d\x00%s", g.BoardSize, g.Handicap, moves))
	var k [16]byte
	copy(k[:], h[:])
	return k
}
