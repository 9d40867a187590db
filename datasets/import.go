package datasets

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// DefaultRowsPerFile is the file size of an import when none is given.
const DefaultRowsPerFile = 50_000

// ImportOptions configures ImportRecords.
type ImportOptions struct {
	// Inputs are SGF files, or directories searched recursively for *.sgf
	// files (read in sorted order).
	Inputs []string `json:"-"` // their content is hashed, file by file
	// OutDir receives the games dataset.
	OutDir string `json:"-"`
	// RowsPerFile caps the games per data file; 0 means DefaultRowsPerFile.
	RowsPerFile int64
	// FromDate and ToDate keep only games whose SGF DT starts with a date
	// in [FromDate, ToDate], compared on the options' own precision: "YYYY",
	// "YYYY-MM" or "YYYY-MM-DD". Empty means no bound. With a bound, games
	// without a YYYY-MM-DD date are skipped (and counted).
	FromDate, ToDate string
	// MaxGames stops the import after writing this many games; 0 means all.
	MaxGames int
	// SkipBad skips malformed games (and stray text between game trees),
	// counting them in the summary and reporting each to OnSkip. Without
	// it the first malformed game fails the import.
	SkipBad bool
	// Stage is recorded in the manifest (default "import-records").
	Stage string `json:"-"`
	// InputHash is recorded in the manifest. Empty means a hash
	// (InputHasher) of the options not tagged json:"-" and of the content
	// of every input file read.
	InputHash string `json:"-"`
	// Workers is the number of files parsed in parallel; 0 means GOMAXPROCS.
	Workers int `json:"-"`
	// Progress, if set, is called as the import advances, in bytes of SGF
	// input: done of total. It is called from the importing goroutine.
	Progress func(done, total int) `json:"-"`
	// OnSkip, if set, is called with every game that is not written, with
	// where it is and why.
	OnSkip func(SkippedGame) `json:"-"`
	// RecordEmptyAppend makes AppendRecords record an append that adds no
	// game (as one empty file), so that the games of the last append are
	// known to be none; by default such an append leaves the dataset as it
	// was.
	RecordEmptyAppend bool
}

// SkippedGame is a game (or stray text) left out of an import.
type SkippedGame struct {
	File         string // input file path
	Index        int    // index of the game tree in its file; -1 for stray text
	Line, Column int    // position of the problem (1-based)
	Reason       string // one of the Skip* reasons
	Err          error  // for SkipMalformed: what is wrong
}

func (s SkippedGame) String() string {
	what := fmt.Sprintf("game %d", s.Index)
	if s.Index < 0 {
		what = "text between game trees"
	}
	msg := fmt.Sprintf("%s:%d:%d: %s skipped: %s", s.File, s.Line, s.Column, what, s.Reason)
	if s.Err != nil {
		msg += ": " + s.Err.Error()
	}
	return msg
}

// Reasons for skipping a game.
const (
	SkipMalformed  = "malformed"
	SkipNoDate     = "no_date"
	SkipBeforeFrom = "before_from_date"
	SkipAfterTo    = "after_to_date"
	// An append (AppendRecords) skips a game already in the dataset, or
	// added earlier in the same append: the same game id (the same record),
	// or the same board size, handicap and moves under other game info (the
	// same game from another source).
	SkipDuplicateID    = "duplicate_game_id"
	SkipDuplicateMoves = "duplicate_moves"
)

// ImportSummary counts what an import did. ImportRecords stores it in the
// manifest's Meta; ImportSummaryOf reads it back.
type ImportSummary struct {
	Files      int            // input files read
	Read       int            // game trees read (and stray texts between trees, counted as malformed)
	Written    int            // games written
	Skipped    map[string]int // games skipped, by reason
	Duplicates int            // written games whose game_id was already written
}

// validDateBound accepts the FromDate/ToDate forms YYYY, YYYY-MM and
// YYYY-MM-DD, of a real month and day.
func validDateBound(s string) bool { return CheckDateBound(s) == nil }

// CheckDateBound checks a date bound (FromDate, ToDate, a DateRange end):
// YYYY, YYYY-MM or YYYY-MM-DD, with a month 01..12 and a day that month
// has. "2010-13-45" is refused: as a bound it would select nothing, or
// everything, without a word.
func CheckDateBound(s string) error {
	if !(len(s) == 4 || len(s) == 7 || len(s) == 10) || !hasDatePrefix(s, len(s)) {
		return fmt.Errorf("%q: want YYYY, YYYY-MM or YYYY-MM-DD", s)
	}
	if len(s) == 4 {
		return nil
	}
	if m, _ := strconv.Atoi(s[5:7]); m < 1 || m > 12 {
		return fmt.Errorf("%q: month %s is not 01..12", s, s[5:7])
	}
	if len(s) == 10 {
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return fmt.Errorf("%q: day %s is not a day of %s", s, s[8:10], s[:7])
		}
	}
	return nil
}

// hasDatePrefix reports whether s starts with the first n bytes of the
// shape YYYY-MM-DD.
func hasDatePrefix(s string, n int) bool {
	const shape = "dddd-dd-dd"
	if len(s) < n || n > len(shape) {
		return false
	}
	for i := 0; i < n; i++ {
		if shape[i] == 'd' && (s[i] < '0' || s[i] > '9') || shape[i] == '-' && s[i] != '-' {
			return false
		}
	}
	return true
}

func (o *ImportOptions) check() error {
	if len(o.Inputs) == 0 {
		return errors.New("datasets: import: no inputs given")
	}
	if o.OutDir == "" {
		return errors.New("datasets: import: no output dir given")
	}
	for _, d := range []struct{ name, v string }{{"FromDate", o.FromDate}, {"ToDate", o.ToDate}} {
		if d.v != "" {
			if err := CheckDateBound(d.v); err != nil {
				return fmt.Errorf("datasets: import: %s %w", d.name, err)
			}
		}
	}
	if o.RowsPerFile < 0 || o.MaxGames < 0 || o.Workers < 0 {
		return errors.New("datasets: import: RowsPerFile, MaxGames and Workers must not be negative")
	}
	return nil
}

// ImportRecords reads SGF collections and writes a games dataset (one row
// per game tree) to opts.OutDir. The manifest is written last; its Meta
// holds the ImportSummary and the options.
//
// Resume: an import that is interrupted (error, cancelled ctx, killed
// process) leaves no manifest, so no dataset. A rerun starts over: SGF
// parsing is fast (tens of thousands of games per second), so reusing
// partial output is not worth the risk of mixing runs.
func ImportRecords(ctx context.Context, opts ImportOptions) (*Manifest, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	files, err := listInputs(opts.Inputs)
	if err != nil {
		return nil, err
	}
	imp, err := newImporter(opts, files)
	if err != nil {
		return nil, err
	}
	defer imp.w.Abort()
	defer imp.gb.Release()
	if err := imp.run(ctx); err != nil {
		return nil, err
	}
	return imp.commit()
}

// inputFile is one SGF file to import.
type inputFile struct {
	path string
	rel  string // name in the source column: relative to its input dir
	size int64
}

// listInputs expands the inputs into SGF files, in order.
func listInputs(inputs []string) ([]inputFile, error) {
	var files []inputFile
	seen := map[string]bool{}
	add := func(path, rel string, size int64) {
		key, err := filepath.Abs(path)
		if err != nil {
			key = filepath.Clean(path)
		}
		if !seen[key] {
			seen[key] = true
			// rel names the game in the Source column (UTF-8): a file name
			// that is not UTF-8 is stored with U+FFFD for its bad bytes
			// (replaced, not refused: it labels the game, path holds the
			// real name).
			files = append(files, inputFile{path: path, rel: strings.ToValidUTF8(filepath.ToSlash(rel), "\uFFFD"), size: size})
		}
	}
	for _, in := range inputs {
		st, err := os.Stat(in)
		if err != nil {
			return nil, fmt.Errorf("datasets: import input: %w", err)
		}
		if !st.IsDir() {
			add(in, filepath.Base(in), st.Size())
			continue
		}
		err = filepath.WalkDir(in, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.EqualFold(filepath.Ext(path), ".sgf") {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(in, path)
			if err != nil {
				return err
			}
			add(path, rel, info.Size())
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("datasets: import: list %s: %w", in, err)
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("datasets: import: no .sgf files in %s", strings.Join(inputs, ", "))
	}
	return files, nil
}

// dateSkip says why a game with SGF date dt falls outside [from, to], or "".
func dateSkip(dt, from, to string) string {
	if from == "" && to == "" {
		return ""
	}
	if !hasDatePrefix(dt, 10) {
		return SkipNoDate
	}
	if from != "" && dt[:len(from)] < from {
		return SkipBeforeFrom
	}
	if to != "" && dt[:len(to)] > to {
		return SkipAfterTo
	}
	return ""
}

// ImportSummaryOf reads the summary an import stored in its manifest.
func ImportSummaryOf(m *Manifest) (ImportSummary, error) {
	s := ImportSummary{Skipped: map[string]int{}}
	fields := map[string]*int{"files": &s.Files, "games_read": &s.Read, "games_written": &s.Written,
		"duplicate_game_ids": &s.Duplicates}
	for k, v := range m.Meta {
		n, err := strconv.Atoi(v)
		if ptr, ok := fields[k]; ok {
			if err != nil {
				return s, fmt.Errorf("datasets: manifest meta %s=%q: %w", k, v, err)
			}
			*ptr = n
		} else if reason, ok := strings.CutPrefix(k, "skipped."); ok {
			if err != nil {
				return s, fmt.Errorf("datasets: manifest meta %s=%q: %w", k, v, err)
			}
			s.Skipped[reason] = n
		}
	}
	if _, ok := m.Meta["games_read"]; !ok {
		return s, fmt.Errorf("datasets: manifest of kind %q holds no import summary", m.Kind)
	}
	return s, nil
}

// meta encodes the summary and options for the manifest.
func (s ImportSummary) meta(opts ImportOptions) map[string]string {
	m := map[string]string{
		"files":              strconv.Itoa(s.Files),
		"games_read":         strconv.Itoa(s.Read),
		"games_written":      strconv.Itoa(s.Written),
		"duplicate_game_ids": strconv.Itoa(s.Duplicates),
		"inputs":             strings.Join(opts.Inputs, "\n"),
		"from_date":          opts.FromDate,
		"to_date":            opts.ToDate,
		"max_games":          strconv.Itoa(opts.MaxGames),
		"skip_bad":           strconv.FormatBool(opts.SkipBad),
	}
	for reason, n := range s.Skipped {
		m["skipped."+reason] = strconv.Itoa(n)
	}
	return m
}

// newImportHash starts the input hash of an import: its options (with
// defaults; every field not tagged json:"-") and then, as they are read, its
// input files.
func newImportHash(opts ImportOptions) (*InputHasher, error) {
	return NewInputHasher("datasets.ImportRecords", GamesSchemaVersion, opts)
}
