package rzs

import (
	"errors"
	"fmt"

	"lifezero/game"
)

// This file is the pattern table's export and import in plain Go values:
// its entries as board-independent records, oldest first. Package
// rztstore persists them as a pattern database (a dataset); keeping the
// file format there keeps Arrow and the datasets package out of the
// solver's dependencies.

// PatternKey says which problems a table's patterns are valid in. A
// pattern is only valid under the rules it was proven under, so a pattern
// database keeps the fingerprint (ProblemFingerprint: board size, goals,
// ko rules, region, crucial stones) beside every record, and a table takes
// only the records of its own fingerprint and board size.
type PatternKey struct {
	ProblemID   string
	Fingerprint string
	BoardSize   int
}

// PatternRecord is one table entry. Points are row-major indices
// y*BoardSize+x, which do not depend on the board's internal layout.
type PatternRecord struct {
	// Stamp is the entry's insertion index (from 1) in the table it was
	// exported from. Import ignores it: imported entries are numbered anew.
	Stamp  uint64
	ToMove game.Color // Black or White
	Ko     int        // the ko point, or -1 when there is none
	// Zone lists the zone's points in increasing order; Contents holds one
	// character per zone point, in the same order: 'B', 'W' or '.' (empty).
	Zone     []int
	Contents string
	// Crucial lists the crucial stones the win relied on, all in the zone.
	Crucial []int
}

// ErrTableNotEmpty is returned when patterns are imported into a table
// that already holds entries: imported entries must be the oldest.
var ErrTableNotEmpty = errors.New("rzs: pattern table not empty; load patterns before the search")

// PatternRecordError is an imported record that is not a valid entry of
// the table's board; Index is its position in the imported slice.
type PatternRecordError struct {
	Index int
	Err   error
}

func (e *PatternRecordError) Error() string { return fmt.Sprintf("pattern %d: %v", e.Index, e.Err) }
func (e *PatternRecordError) Unwrap() error { return e.Err }

// PatternKey returns the key of the table's problem.
func (s *patternStore) PatternKey() PatternKey {
	return PatternKey{ProblemID: s.problem.id, Fingerprint: s.problem.fingerprint, BoardSize: s.problem.size}
}

// ExportPatterns returns the table's entries, preloaded ones included,
// oldest first.
func (s *patternStore) ExportPatterns() []PatternRecord {
	out := make([]PatternRecord, len(s.entries))
	for i := range s.entries {
		out[i] = s.export(&s.entries[i])
	}
	return out
}

func (s *patternStore) export(e *patternEntry) PatternRecord {
	board := s.problem.board
	r := PatternRecord{Stamp: e.stamp, ToMove: e.toMove, Ko: -1}
	if e.ko >= 0 {
		r.Ko = rowMajor(board, e.ko)
	}
	contents := make([]byte, 0, e.zone.Len())
	e.zone.ForEach(func(p game.Point) {
		r.Zone = append(r.Zone, rowMajor(board, p))
		contents = append(contents, e.contentAt(p).String()[0])
	})
	r.Contents = string(contents)
	e.crucial.ForEach(func(p game.Point) { r.Crucial = append(r.Crucial, rowMajor(board, p)) })
	return r
}

// ImportPatterns preloads records, which the caller has checked belong to
// the table's PatternKey, in their order: they get the oldest stamps,
// before every entry of the search. The table must be empty. An invalid
// record is a *PatternRecordError and leaves the table empty.
func (s *patternStore) ImportPatterns(recs []PatternRecord) error {
	if len(s.entries) > 0 {
		return ErrTableNotEmpty
	}
	entries := make([]patternEntry, len(recs))
	for i := range recs {
		e, err := s.entryOf(&recs[i])
		if err != nil {
			return &PatternRecordError{Index: i, Err: err}
		}
		e.stamp = uint64(i + 1)
		entries[i] = e
	}
	s.entries = append(s.entries, entries...)
	s.preloaded = len(s.entries)
	for i := range s.entries {
		s.idx.add(int32(i))
	}
	if len(s.entries) >= firstRebuild {
		s.idx.rebuild()
		s.nextPhase = nextRebuildAfter(len(s.entries))
	}
	return nil
}

// entryOf checks a record against the table's board and converts it.
func (s *patternStore) entryOf(r *PatternRecord) (patternEntry, error) {
	var e patternEntry
	if r.ToMove != game.Black && r.ToMove != game.White {
		return e, fmt.Errorf("to_move %v is not B or W", r.ToMove)
	}
	e.toMove = r.ToMove
	e.ko = game.NoPoint
	if r.Ko != -1 {
		p, err := s.pointAt(r.Ko)
		if err != nil {
			return e, fmt.Errorf("ko: %w", err)
		}
		e.ko = p
	}
	if len(r.Contents) != len(r.Zone) {
		return e, fmt.Errorf("contents has %d characters for %d zone points", len(r.Contents), len(r.Zone))
	}
	for k, i := range r.Zone {
		p, err := s.pointAt(i)
		if err != nil {
			return e, fmt.Errorf("zone: %w", err)
		}
		if e.zone.Has(p) {
			return e, fmt.Errorf("zone: point %d repeated", i)
		}
		e.zone.Add(p)
		switch r.Contents[k] {
		case 'B':
			e.black.Add(p)
		case 'W':
			e.white.Add(p)
		case '.':
		default:
			return e, fmt.Errorf("contents: %q at %d is not B, W or .", r.Contents[k], k)
		}
	}
	for _, i := range r.Crucial {
		p, err := s.pointAt(i)
		if err != nil {
			return e, fmt.Errorf("crucial: %w", err)
		}
		if !e.zone.Has(p) {
			return e, fmt.Errorf("crucial point %d is not in the zone", i)
		}
		e.crucial.Add(p)
	}
	return e, nil
}

// pointAt converts a row-major index to a point of the table's board.
func (s *patternStore) pointAt(k int) (game.Point, error) {
	n := s.problem.size
	if k < 0 || k >= n*n {
		return game.NoPoint, fmt.Errorf("point index %d is off a %dx%d board", k, n, n)
	}
	return s.problem.board.Point(k%n, k/n), nil
}
