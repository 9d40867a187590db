package recindex

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"lifezero/internal/readfile"
)

// Index is an open record index: the index file mapped read-only and
// used in place. It is safe for concurrent searches; Close it when done.
type Index struct {
	dir  string
	meta Meta
	file *mappedFile

	keys []uint64 // events, once per view, sorted
	exts []uint64 // each key's extension (eventExt)
	refs []uint32 // global move number of each key's event
	// buckets[p] is the first key whose top prefixBits bits are >= p
	// (len 1<<prefixBits + 1), built by Open: a seek jumps straight to its
	// target's bucket instead of galloping across the 400 MB of keys.
	buckets []uint32

	moveBase []uint32 // first global move of each game, games+1
	moves    []uint16 // colour bit and point (or movePass) of every move
	snaps    []uint64 // snapWords per move: the block around its point after it

	sizes, results, ids, src []byte
	srcOff                   []uint32

	// Timelines: the changes of point p of game g are
	// changes[chgBase[g]+pointOff[pointBase[g]+p] : ...+pointOff[pointBase[g]+p+1]],
	// each (move<<1 | colour) for a stone placed, (move<<1) for one removed.
	pointBase, chgBase []uint32
	pointOff, changes  []uint16
}

// Open opens the index in dir. Every error names the file at fault;
// damaged files give errors wrapping ErrCorrupt.
func Open(dir string) (*Index, error) {
	metaPath := filepath.Join(dir, MetaFile)
	data, err := readfile.Read(metaPath, readfile.MaxManifest)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("recindex: %s is not a record index (no %s): build one with lifezero records index", dir, MetaFile)
	}
	if err != nil {
		return nil, fmt.Errorf("recindex: %w", err)
	}
	x := &Index{dir: dir}
	if err := json.Unmarshal(data, &x.meta); err != nil {
		return nil, corruptf(metaPath, "%v", err)
	}
	if x.meta.Format != metaFormat || x.meta.Version != FormatVersion {
		return nil, fmt.Errorf("recindex: %s: format %q version %d, want %q version %d: rebuild the index with lifezero records index",
			metaPath, x.meta.Format, x.meta.Version, metaFormat, FormatVersion)
	}
	if x.file, err = openSections(filepath.Join(dir, DataFile)); err != nil {
		return nil, err
	}
	if err := x.load(); err != nil {
		x.file.close()
		return nil, err
	}
	return x, nil
}

// Meta returns the index's description.
func (x *Index) Meta() Meta { return x.meta }

// Close unmaps the index file; the Index must not be used afterwards.
func (x *Index) Close() error { return x.file.close() }

// Games returns the number of indexed games.
func (x *Index) Games() int { return len(x.sizes) }

// GameID returns the dataset's id of game g.
func (x *Index) GameID(g int) string { return string(trimZero(x.ids[g*idLen : (g+1)*idLen])) }

// Source returns where game g came from (file#index).
func (x *Index) Source(g int) string { return string(x.src[x.srcOff[g]:x.srcOff[g+1]]) }

// NumMoves returns the number of moves of game g.
func (x *Index) NumMoves(g int) int { return int(x.moveBase[g+1] - x.moveBase[g]) }

// BoardSize returns the board size of game g.
func (x *Index) BoardSize(g int) int { return int(x.sizes[g]) }

func (x *Index) load() error {
	m, f := &x.meta, x.file
	g, e := m.Games, numViews*(m.MoveEvents+m.Captures)
	var err error
	get := func(dst *[]uint32, name string, n int) {
		if err == nil {
			*dst, err = sectionOf[uint32](f, name, n)
		}
	}
	get16 := func(dst *[]uint16, name string, n int) {
		if err == nil {
			*dst, err = sectionOf[uint16](f, name, n)
		}
	}
	get8 := func(dst *[]byte, name string, n int) {
		if err == nil {
			*dst, err = sectionOf[uint8](f, name, n)
		}
	}
	if x.keys, err = sectionOf[uint64](f, "keys", e); err != nil {
		return err
	}
	get(&x.refs, "refs", e)
	if err == nil {
		x.exts, err = sectionOf[uint64](f, "exts", e)
	}
	get(&x.moveBase, "movebase", g+1)
	get16(&x.moves, "moves", m.Moves)
	if err == nil {
		x.snaps, err = sectionOf[uint64](f, "snaps", snapWords*m.Moves)
	}
	get8(&x.sizes, "sizes", g)
	get8(&x.results, "results", g)
	get8(&x.ids, "ids", g*idLen)
	get(&x.srcOff, "srcoff", g+1)
	get8(&x.src, "src", -1)
	get(&x.pointBase, "pointbase", g+1)
	get(&x.chgBase, "chgbase", g+1)
	get16(&x.pointOff, "pointoff", -1)
	get16(&x.changes, "changes", -1)
	if err != nil {
		return err
	}
	return x.check()
}

// check verifies the invariants that searches rely on, so that a file
// whose checksum matches but whose content is inconsistent gives an error
// instead of a crash.
func (x *Index) check() error {
	path := x.file.path
	g := len(x.sizes)
	for _, a := range []struct {
		name string
		s    []uint32
		last int
	}{
		{"movebase", x.moveBase, len(x.moves)}, {"srcoff", x.srcOff, len(x.src)},
		{"pointbase", x.pointBase, len(x.pointOff)}, {"chgbase", x.chgBase, len(x.changes)},
	} {
		if a.s[0] != 0 || int(a.s[len(a.s)-1]) != a.last || !sort.SliceIsSorted(a.s, func(i, j int) bool { return a.s[i] < a.s[j] }) {
			return corruptf(path, "section %q is not a list of offsets ending at %d", a.name, a.last)
		}
	}
	for i := 0; i < g; i++ {
		s := int(x.sizes[i])
		if s < 1 || s > MaxSide || int(x.pointBase[i+1]-x.pointBase[i]) != s*s+1 {
			return corruptf(path, "game %d: board size %d does not fit its timelines", i, s)
		}
		off := x.pointOff[x.pointBase[i]:x.pointBase[i+1]]
		if off[0] != 0 || int(off[s*s]) != int(x.chgBase[i+1]-x.chgBase[i]) || !sort.SliceIsSorted(off, func(i, j int) bool { return off[i] < off[j] }) {
			return corruptf(path, "game %d: timeline offsets do not match its changes", i)
		}
		for _, mv := range x.moves[x.moveBase[i]:x.moveBase[i+1]] {
			if p := mv & movePoint; p != movePass && int(p) >= s*s {
				return corruptf(path, "game %d: a move off its %dx%d board", i, s, s)
			}
		}
	}
	return x.checkEvents()
}

// checkEvents checks that the keys are sorted and the events in range, a
// chunk at a time, releasing each chunk once read.
func (x *Index) checkEvents() error {
	const chunk = 1 << 22
	x.buckets = make([]uint32, 1<<prefixBits+1)
	next := 0 // the next bucket to start
	for lo := 0; lo < len(x.keys); lo += chunk {
		hi := min(len(x.keys), lo+chunk)
		for i := lo; i < hi; i++ {
			if int(x.refs[i]) >= len(x.moves) || x.keys[i]&pointMask >= MaxSide*MaxSide || (i > 0 && x.keys[i] < x.keys[i-1]) {
				return corruptf(x.file.path, "event %d out of range", i)
			}
			for p := int(x.keys[i] >> prefixShift); next <= p; next++ {
				x.buckets[next] = uint32(i)
			}
		}
		releaseSlice(x.file, x.keys[lo:hi])
		releaseSlice(x.file, x.refs[lo:hi])
	}
	for ; next < len(x.buckets); next++ {
		x.buckets[next] = uint32(len(x.keys))
	}
	return nil
}

// Buckets of the keys by their top bits (kind, colour, view and the
// nearest points).
const (
	prefixBits  = 20
	prefixShift = 64 - prefixBits
)

// seek returns the first index in [i, hi) whose key is >= k (hi when
// none), searching only k's bucket.
func (x *Index) seek(i, hi int, k uint64) int {
	p := k >> prefixShift
	i = max(i, int(x.buckets[p]))
	return lowerBound(x.keys, i, min(hi, int(x.buckets[p+1])), k)
}

// gameOf returns the game of global move ref.
func (x *Index) gameOf(ref uint32) int {
	return sort.Search(len(x.moveBase)-1, func(i int) bool { return x.moveBase[i+1] > ref })
}

// statesAt returns the codes of point p of game g after move n-1 and
// after move n (after move 0 is the empty board).
func (x *Index) statesAt(g, p, n int) (before, after uint8) {
	base := x.chgBase[g]
	pb := int(x.pointBase[g]) + p
	lo, hi := base+uint32(x.pointOff[pb]), base+uint32(x.pointOff[pb+1])
	for i := lo; i < hi; i++ {
		c := x.changes[i]
		t := int(c >> 1)
		if t > n {
			break
		}
		st := uint8(codeEmpty)
		if (i-lo)%2 == 0 {
			st = uint8(c&1) + 1
		}
		if t < n {
			before = st
		}
		after = st
	}
	return before, after
}

// Board returns the codes of game g's board after move n (row-major).
func (x *Index) board(g, n int) []uint8 {
	s := int(x.sizes[g])
	out := make([]uint8, s*s)
	for p := range out {
		_, out[p] = x.statesAt(g, p, n)
	}
	return out
}
