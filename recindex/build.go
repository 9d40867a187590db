package recindex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"lifezero/datasets"
	"lifezero/game"
	"lifezero/internal/atomicfile"
	"lifezero/progress"
	"lifezero/sgf"
)

// Files of an index directory. The meta file is written last: a directory
// without it is not an index.
const (
	DataFile = "index.bin"
	MetaFile = "index.json"
)

// BuildOptions configures Build.
type BuildOptions struct {
	Datasets []string // games datasets, indexed in order
	OutDir   string
	Progress progress.Reporter // nil: none
}

// Meta is the index's description, MetaFile.
type Meta struct {
	Format       string         `json:"format"`
	Version      int            `json:"version"`
	Datasets     []string       `json:"datasets"`
	Games        int            `json:"games"`
	Moves        int            `json:"moves"`
	MoveEvents   int            `json:"move_events"`
	Captures     int            `json:"capture_events"`
	Skipped      map[string]int `json:"skipped,omitempty"`
	DataBytes    int64          `json:"data_bytes"`
	BuildSeconds float64        `json:"build_seconds"`
}

// metaFormat names the format in MetaFile.
const metaFormat = "lifezero-record-index"

// Build indexes every game of the datasets into opts.OutDir.
func Build(ctx context.Context, opts BuildOptions) (*Meta, error) {
	start := time.Now()
	pr := progress.Or(opts.Progress)
	total := 0
	for _, dir := range opts.Datasets {
		m, err := datasets.ReadManifest(dir)
		if err != nil {
			return nil, fmt.Errorf("recindex: %w", err)
		}
		total += int(m.Rows)
	}
	if err := os.MkdirAll(opts.OutDir, 0o755); err != nil {
		return nil, fmt.Errorf("recindex: %w", err)
	}
	// An old meta file goes first, so a half-rebuilt index is not an index.
	if err := os.Remove(filepath.Join(opts.OutDir, MetaFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("recindex: %w", err)
	}
	b := newBuilder()
	pr.Start(total, "games")
	for _, dir := range opts.Datasets {
		_, err := datasets.ForEachGame(ctx, dir, func(g datasets.Game) error {
			pr.Add(1)
			return b.addGame(&g)
		})
		if err != nil {
			pr.Finish()
			return nil, fmt.Errorf("recindex: %w", err)
		}
	}
	pr.Finish()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	meta := b.meta(opts.Datasets)
	pr.Start(-1, "sort and write")
	secs := b.sections()
	path := filepath.Join(opts.OutDir, DataFile)
	if err := writeSections(path, secs); err != nil {
		pr.Finish()
		return nil, err
	}
	pr.Finish()
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("recindex: %w", err)
	}
	meta.DataBytes = st.Size()
	meta.BuildSeconds = time.Since(start).Seconds()
	data, err := json.MarshalIndent(meta, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := atomicfile.WriteFile(filepath.Join(opts.OutDir, MetaFile), append(data, '\n')); err != nil {
		return nil, fmt.Errorf("recindex: %w", err)
	}
	return meta, nil
}

// entry is an event: its key, the key's extension and the global number
// of its move.
type entry struct {
	key, ext uint64
	ref      uint32
}

// builder accumulates the arrays of the index file.
type builder struct {
	moveBase, srcOff, pointBase, chgBase []uint32
	moves, pointOff, changes             []uint16
	snaps                                []uint64 // snapWords per move
	sizes, results, ids, src             []byte
	entries                              []entry
	captures                             int
	skipped                              map[string]int

	hist  [][]uint16 // per point of the game being added: its changes
	board []uint8    // codes of the game being added
}

func newBuilder() *builder {
	return &builder{
		moveBase: []uint32{0}, srcOff: []uint32{0}, pointBase: []uint32{0}, chgBase: []uint32{0},
		skipped: map[string]int{},
		hist:    make([][]uint16, MaxSide*MaxSide),
	}
}

// Reasons a game is not indexed (Meta.Skipped).
const (
	skipHandicap = "handicap"   // setup stones are not in the moves
	skipSize     = "board_size" // outside 5..19
	skipBad      = "bad_move"   // a move that cannot be read or played
	skipLong     = "too_long"   // more than 32,767 moves
)

// A move in moves: its point (or movePass) in the low bits, moveWhite for
// a white move, moveCaptures when it captured stones.
const (
	moveWhite    = 1 << 15
	moveCaptures = 1 << 14
	movePoint    = moveCaptures - 1
	movePass     = movePoint
	maxMoves     = 1<<15 - 1
)

// addGame replays g and appends its moves, timelines and events; a game
// that cannot be replayed is counted in skipped.
func (b *builder) addGame(g *datasets.Game) error {
	size := int(g.BoardSize)
	switch {
	case g.Handicap > 0:
		b.skipped[skipHandicap]++
		return nil
	case size < game.MinSize || size > game.MaxSize:
		b.skipped[skipSize]++
		return nil
	case g.NumMoves > maxMoves:
		b.skipped[skipLong]++
		return nil
	}
	nEntries, nMoves := len(b.entries), len(b.moves)
	caps, err := b.replay(g, size)
	if err != nil {
		b.entries, b.moves, b.snaps = b.entries[:nEntries], b.moves[:nMoves], b.snaps[:nMoves*snapWords]
		b.skipped[skipBad]++
		return nil
	}
	changes := 0
	for p := range size * size {
		changes += len(b.hist[p])
	}
	if changes > 1<<16-1 {
		b.entries, b.moves, b.snaps = b.entries[:nEntries], b.moves[:nMoves], b.snaps[:nMoves*snapWords]
		b.skipped[skipLong]++
		return nil
	}
	b.captures += caps
	b.commitGame(g, size)
	return nil
}

// replay plays the game's moves, recording moves, point histories and
// events. It returns the number of capture events.
func (b *builder) replay(g *datasets.Game, size int) (int, error) {
	pos, err := game.NewPosition(size)
	if err != nil {
		return 0, err
	}
	b.board = slices.Grow(b.board[:0], size*size)[:size*size]
	clear(b.board)
	for i := range size * size {
		b.hist[i] = b.hist[i][:0]
	}
	base := b.moveBase[len(b.moveBase)-1]
	caps := 0
	for _, part := range strings.Split(g.Moves, ";") {
		if part == "" {
			continue
		}
		colour, x, y, pass, err := parseMove(part, size)
		if err != nil {
			return 0, err
		}
		if pass {
			b.moves = append(b.moves, uint16(colour)*moveWhite|movePass)
			b.snaps = append(b.snaps, make([]uint64, snapWords)...)
			if err := playAs(pos, colour, game.Pass); err != nil {
				return 0, err
			}
			continue
		}
		b.moves = append(b.moves, uint16(colour)*moveWhite|uint16(y*size+x))
		opp := game.White
		if colour == 1 {
			opp = game.Black
		}
		before := pos.Captured(opp)
		if err := playAs(pos, colour, pos.Point(x, y)); err != nil {
			return 0, err
		}
		n, ref := len(b.moves)-int(base), uint32(len(b.moves)-1)
		caps += b.record(pos, colour, x, y, n, ref, pos.Captured(opp) != before)
		snap := snapshot(b.board, size, x, y)
		b.snaps = append(b.snaps, snap[:]...)
	}
	return caps, nil
}

// playAs plays m for colour, whoever the position says is to move.
func playAs(pos *game.Position, colour int, m game.Point) error {
	c := game.Black
	if colour == 1 {
		c = game.White
	}
	if pos.ToMove() != c {
		pos.SetToMove(c)
	}
	return pos.Play(m)
}

// record updates the board codes after move n of colour at (x, y), with
// the stones it captured, and appends the events.
func (b *builder) record(pos *game.Position, colour, x, y, n int, ref uint32, captures bool) int {
	size := pos.Size()
	p := y*size + x
	b.board[p] = uint8(colour + 1)
	b.hist[p] = append(b.hist[p], uint16(n<<1|colour))
	var captured []int
	if captures {
		captured = b.removeCaptured(pos, n)
	}
	if len(captured) > 0 {
		b.moves[ref] |= moveCaptures
	}
	for v := 0; v < numViews; v++ {
		b.entries = append(b.entries, entry{eventKey(kindMove, colour, v, b.board, size, x, y), eventExt(v, b.board, size, x, y), ref})
		for _, p := range captured {
			px, py := p%size, p/size
			b.entries = append(b.entries, entry{eventKey(kindCapture, 1-colour, v, b.board, size, px, py), eventExt(v, b.board, size, px, py), ref})
		}
	}
	return len(captured)
}

// removeCaptured clears the points the position emptied at move n.
func (b *builder) removeCaptured(pos *game.Position, n int) []int {
	size := pos.Size()
	var captured []int
	for q, c := range b.board {
		if c != codeEmpty && pos.At(pos.Point(q%size, q/size)) == game.Empty {
			captured = append(captured, q)
			b.board[q] = codeEmpty
			b.hist[q] = append(b.hist[q], uint16(n<<1))
		}
	}
	return captured
}

// parseMove reads one "B[pd]" of a games row.
func parseMove(s string, size int) (colour, x, y int, pass bool, err error) {
	if len(s) < 3 || s[1] != '[' || s[len(s)-1] != ']' || (s[0] != 'B' && s[0] != 'W') {
		return 0, 0, 0, false, fmt.Errorf("move %q: want B[..] or W[..]", s)
	}
	if s[0] == 'W' {
		colour = 1
	}
	x, y, pass, err = sgf.ParsePoint(s[2:len(s)-1], size)
	return colour, x, y, pass, err
}

// commitGame appends the game's tables once its replay succeeded.
func (b *builder) commitGame(g *datasets.Game, size int) {
	b.moveBase = append(b.moveBase, uint32(len(b.moves)))
	b.sizes = append(b.sizes, uint8(size))
	b.results = append(b.results, resultCode(g.Result))
	id := make([]byte, idLen)
	copy(id, g.GameID)
	b.ids = append(b.ids, id...)
	b.src = append(b.src, g.Source...)
	b.srcOff = append(b.srcOff, uint32(len(b.src)))
	start := len(b.changes)
	for p := range size * size {
		b.pointOff = append(b.pointOff, uint16(len(b.changes)-start))
		b.changes = append(b.changes, b.hist[p]...)
	}
	b.pointOff = append(b.pointOff, uint16(len(b.changes)-start))
	b.pointBase = append(b.pointBase, uint32(len(b.pointOff)))
	b.chgBase = append(b.chgBase, uint32(len(b.changes)))
}

// idLen is the bytes kept of a game id (datasets ids are 16 hex digits).
const idLen = 16

// Results of a game, as stored.
const (
	resultUnknown = 0
	resultBlack   = 1
	resultWhite   = 2
	resultDraw    = 3
)

func resultCode(re string) uint8 {
	re = strings.ToUpper(strings.TrimSpace(re))
	switch {
	case strings.HasPrefix(re, "B+"):
		return resultBlack
	case strings.HasPrefix(re, "W+"):
		return resultWhite
	case re == "0" || re == "DRAW" || re == "JIGO":
		return resultDraw
	}
	return resultUnknown
}

func (b *builder) meta(dirs []string) *Meta {
	return &Meta{
		Format: metaFormat, Version: FormatVersion, Datasets: dirs,
		Games: len(b.sizes), Moves: len(b.moves),
		MoveEvents: len(b.entries)/numViews - b.captures, Captures: b.captures,
		Skipped: b.skipped,
	}
}

// sections sorts the events and lays the arrays out for the index file.
func (b *builder) sections() []section {
	slices.SortFunc(b.entries, func(x, y entry) int {
		if x.key != y.key {
			if x.key < y.key {
				return -1
			}
			return 1
		}
		return int(x.ref) - int(y.ref)
	})
	keys := make([]uint64, len(b.entries))
	exts := make([]uint64, len(b.entries))
	refs := make([]uint32, len(b.entries))
	for i, e := range b.entries {
		keys[i], exts[i], refs[i] = e.key, e.ext, e.ref
	}
	b.entries = nil
	return []section{
		{"keys", asBytes(keys)}, {"exts", asBytes(exts)}, {"refs", asBytes(refs)},
		{"movebase", asBytes(b.moveBase)}, {"moves", asBytes(b.moves)}, {"snaps", asBytes(b.snaps)},
		{"sizes", b.sizes}, {"results", b.results}, {"ids", b.ids},
		{"srcoff", asBytes(b.srcOff)}, {"src", b.src},
		{"pointbase", asBytes(b.pointBase)}, {"chgbase", asBytes(b.chgBase)},
		{"pointoff", asBytes(b.pointOff)}, {"changes", asBytes(b.changes)},
	}
}
