package features

import (
	"fmt"

	"lifezero/game"
)

// Config chooses the variable part of a feature set. The fixed groups do
// not depend on it; the number of 3x3 pattern ids and the diamond ids do.
type Config struct {
	// Pattern3Liberties adds to the 3x3 patterns the liberty bucket (1, 2,
	// 3+) of the blocks of the four orthogonal neighbours.
	Pattern3Liberties bool
	// Diamonds is the diamond vocabulary (see LearnDiamonds): canonical
	// codes, in the order of their ids. Nil means no diamond features.
	Diamonds []DiamondCount
	// Shapes is the vocabulary of large nested shape patterns (see
	// LearnShapes). Nil means no shape features.
	Shapes []ShapeCount
	// NoLadders skips the ladder reads: every block counts as escaping,
	// so the ladder ids never fire and captures, extensions and ataris
	// take their not_ladder/other ids. The ids keep their meaning. A
	// solver that extracts features at every node of a search saves a
	// third of its time this way (the reads dominate the profile).
	NoLadders bool
}

// DefaultConfig returns the configuration used when none is given: 3x3
// patterns with liberties, no diamonds.
func DefaultConfig() Config { return Config{Pattern3Liberties: true} }

// History is the recent move history a position does not keep. Points are
// the opponent's last move and our previous move (the one before it):
// on-board points, game.Pass, or anything else (game.NoPoint, the zero
// value) when unknown.
type History struct {
	Last    game.Point
	OwnPrev game.Point
}

// HistoryOf returns the History after the given moves, oldest first.
func HistoryOf(moves []game.Point) History {
	h := History{Last: game.NoPoint, OwnPrev: game.NoPoint}
	if n := len(moves); n >= 1 {
		h.Last = moves[n-1]
		if n >= 2 {
			h.OwnPrev = moves[n-2]
		}
	}
	return h
}

// Extractor computes the feature ids of moves. It is built once (New, Load)
// and read-only afterwards, so one Extractor serves any number of
// goroutines, each with its own Moves.
type Extractor struct {
	cfg      Config
	geos     []*geometry
	pat3     *pat3Table
	canon    *diamondCanon
	diamonds *diamondIndex
	shapes   *shapeTable
	names    []string
	groups   []Group
	groupOf  []int16
	byName   map[string]int32
}

// New builds the feature set of cfg: the 3x3 pattern table and the diamond
// index are computed here. It fails on a diamond vocabulary with a code that
// is not canonical or repeats.
func New(cfg Config) (*Extractor, error) {
	e := &Extractor{
		geos:  newGeometries(),
		pat3:  newPat3Table(cfg.Pattern3Liberties),
		canon: newDiamondCanon(),
	}
	cfg.Diamonds = append([]DiamondCount(nil), cfg.Diamonds...)
	cfg.Shapes = append([]ShapeCount(nil), cfg.Shapes...)
	e.cfg = cfg
	codes := make([]uint32, len(cfg.Diamonds))
	seen := make(map[uint32]bool, len(codes))
	for i, d := range cfg.Diamonds {
		if d.Code >= 1<<diamondBits || e.canon.canonical(d.Code) != d.Code {
			return nil, fmt.Errorf("features: diamond %d: code %#x is not a canonical diamond code", i, d.Code)
		}
		if seen[d.Code] {
			return nil, fmt.Errorf("features: diamond %d: code %#x repeats", i, d.Code)
		}
		seen[d.Code] = true
		codes[i] = d.Code
	}
	e.diamonds = newDiamondIndex(codes)
	var err error
	if e.shapes, err = newShapeTable(cfg.Shapes); err != nil {
		return nil, fmt.Errorf("features: %w", err)
	}
	e.buildNames()
	return e, nil
}

// Config returns the configuration the extractor was built from.
func (e *Extractor) Config() Config {
	c := e.cfg
	c.Diamonds = append([]DiamondCount(nil), c.Diamonds...)
	c.Shapes = append([]ShapeCount(nil), c.Shapes...)
	return c
}

// NumFeatures returns the number of feature ids: ids are 0..NumFeatures-1.
func (e *Extractor) NumFeatures() int { return len(e.names) }

func (e *Extractor) pat3Base() int32    { return numFixed }
func (e *Extractor) diamondBase() int32 { return numFixed + int32(len(e.pat3.codes)) }
func (e *Extractor) shapeBase() int32   { return e.diamondBase() + int32(len(e.cfg.Diamonds)) }

func (e *Extractor) buildNames() {
	for _, g := range fixedGroups() {
		e.addGroup(g.name, g.doc, len(g.values), func(i int) string { return g.values[i] })
	}
	e.addGroup("pat3x3", "3x3 pattern around the move, canonical under the 8 symmetries, colours relative to the side to move; the name is the canonical code in hex", len(e.pat3.codes),
		func(i int) string { return fmt.Sprintf("%05x", e.pat3.codes[i]) })
	e.addGroup("diamond", "diamond of the 12 points within Manhattan distance 2, canonical code in hex, from the learned vocabulary", len(e.cfg.Diamonds),
		func(i int) string { return fmt.Sprintf("%06x", e.cfg.Diamonds[i].Code) })
	e.addGroup("shape", "the largest nested shape pattern of the learned vocabulary around the move: all points at distance dx+dy+max(dx,dy) <= size (5..14), canonical under the 8 symmetries, colours relative to the side to move; the name is the size and the pattern's hash in hex", len(e.cfg.Shapes),
		func(i int) string { return fmt.Sprintf("%d:%015x", e.cfg.Shapes[i].Size, e.shapes.hashes[i]) })
	e.byName = make(map[string]int32, len(e.names))
	for i, n := range e.names {
		e.byName[n] = int32(i)
	}
}

func (e *Extractor) addGroup(name, doc string, count int, value func(int) string) {
	g := Group{Name: name, First: int32(len(e.names)), Count: int32(count), Exclusive: true, Doc: doc}
	for i := 0; i < count; i++ {
		e.names = append(e.names, name+":"+value(i))
		e.groupOf = append(e.groupOf, int16(len(e.groups)))
	}
	e.groups = append(e.groups, g)
}

// Names returns the name of every feature, indexed by id ("line:1",
// "dist_prev:2", "pat3x3:0a041", "atari:ladder"). The slice is a copy.
func (e *Extractor) Names() []string { return append([]string(nil), e.names...) }

// Name returns the name of feature id, or "" for an id out of range.
func (e *Extractor) Name(id int32) string {
	if id < 0 || int(id) >= len(e.names) {
		return ""
	}
	return e.names[id]
}

// ID returns the id of a feature name.
func (e *Extractor) ID(name string) (int32, bool) {
	id, ok := e.byName[name]
	return id, ok
}

// Groups returns the feature groups in id order. The slice is a copy.
func (e *Extractor) Groups() []Group { return append([]Group(nil), e.groups...) }

// GroupOf returns the index in Groups of the group of feature id, or -1.
func (e *Extractor) GroupOf(id int32) int {
	if id < 0 || int(id) >= len(e.groupOf) {
		return -1
	}
	return int(e.groupOf[id])
}

// Describe returns a diagram of a pattern feature (3x3 or diamond), or its
// group's documentation for the other features.
func (e *Extractor) Describe(id int32) string {
	switch g := e.GroupOf(id); {
	case g < 0:
		return ""
	case id >= e.shapeBase():
		return describeShape(e.cfg.Shapes[id-e.shapeBase()])
	case id >= e.diamondBase():
		return describeDiamond(e.cfg.Diamonds[id-e.diamondBase()].Code)
	case id >= e.pat3Base():
		return e.pat3.describe(id - e.pat3Base())
	default:
		return e.groups[g].Doc
	}
}

// Moves holds the candidate moves of one position and their feature ids,
// plus the scratch space of extraction. Reuse one per goroutine: extraction
// then allocates nothing once the slices have grown.
type Moves struct {
	points []game.Point
	start  []int32
	ids    []int32
	nb     neighbourhood
	a      analysis
}

// Len returns the number of candidate moves.
func (m *Moves) Len() int { return len(m.points) }

// Move returns candidate i.
func (m *Moves) Move(i int) game.Point { return m.points[i] }

// Points returns the candidate moves; the caller must not modify them.
func (m *Moves) Points() []game.Point { return m.points }

// Features returns the ids of candidate i in increasing order; the slice
// is valid until the next extraction into m.
func (m *Moves) Features(i int) []int32 { return m.ids[m.start[i]:m.start[i+1]] }

// Liberties returns the liberties of the block at stone p of the position
// last extracted into m, as its analysis found them (game.Board.Liberties
// without walking the block again); valid until the next extraction.
func (m *Moves) Liberties(p game.Point) game.PointSet { return m.a.block(p).libs }

// Index returns the position of move p among the candidates, or -1.
func (m *Moves) Index(p game.Point) int {
	for i, q := range m.points {
		if q == p {
			return i
		}
	}
	return -1
}

// Extract computes the features of every legal move of pos for the side to
// move, then of the pass, into out (in that order).
func (e *Extractor) Extract(pos *game.Position, h History, out *Moves) {
	out.points = pos.LegalMoves(out.points[:0], nil)
	out.points = append(out.points, game.Pass)
	e.extract(pos, h, out)
}

// ExtractMoves computes the features of the given candidate moves only
// (points or game.Pass). It fails, leaving out empty, when one is neither
// the pass nor an empty point of the board. The callers pass legal moves;
// the check is only that every feature is defined, which holds on any empty
// point, so it leaves out the suicide and superko tests: a solver that has
// just generated the moves by the rules spent a twentieth of its time
// repeating them here.
func (e *Extractor) ExtractMoves(pos *game.Position, h History, moves []game.Point, out *Moves) error {
	out.points = out.points[:0]
	out.start, out.ids = out.start[:0], out.ids[:0]
	for _, m := range moves {
		if m != game.Pass && (!pos.OnBoard(m) || pos.At(m) != game.Empty) {
			return fmt.Errorf("features: move %s is not an empty point for %v", pos.PointString(m), pos.ToMove())
		}
	}
	out.points = append(out.points, moves...)
	e.extract(pos, h, out)
	return nil
}

func (e *Extractor) extract(pos *game.Position, h History, out *Moves) {
	a := &out.a
	a.reset(e.geos[pos.Size()], pos, h)
	a.noLadders = e.cfg.NoLadders
	if len(e.cfg.Shapes) > 0 {
		a.shapes.fill(&pos.Board, a.me)
	}
	out.start, out.ids = out.start[:0], out.ids[:0]
	phase := idPhase + int32(min(pos.MoveNumber()/phaseLength, numPhases-1))
	for _, m := range out.points {
		out.start = append(out.start, int32(len(out.ids)))
		if m == game.Pass {
			id := idPassNew
			if a.lastPass {
				id = idPassConsecutive
			}
			out.ids = append(out.ids, id, phase)
			continue
		}
		out.ids = e.appendMove(a, &out.nb, m, phase, out.ids)
	}
	out.start = append(out.start, int32(len(out.ids)))
}

// appendMove appends the ids of the on-board move m in increasing order.
func (e *Extractor) appendMove(a *analysis, nb *neighbourhood, m game.Point, phase int32, ids []int32) []int32 {
	g := a.geo
	ids = a.tactical(m, nb, ids)
	ids = append(ids, idLine+int32(min(g.line[m], 5)-1))
	if a.last != game.NoPoint {
		if d := fuegoDistance(g, m, a.last); d >= 2 && d <= maxDistFeat {
			ids = append(ids, idDistPrev+int32(d-2))
		}
	}
	if a.ownPrev != game.NoPoint {
		switch d := fuegoDistance(g, m, a.ownPrev); {
		case d == 0:
			ids = append(ids, idDistOwn)
		case d >= 2 && d <= maxDistFeat:
			ids = append(ids, idDistOwn+int32(d-1))
		}
	}
	if a.last != game.NoPoint {
		if d := a.cfgLast[m]; d >= 1 {
			ids = append(ids, idCFGLast+int32(d-1))
		}
	}
	if a.ownPrev != game.NoPoint {
		ids = append(ids, idCFGOwn+int32(a.cfgOwn[m]))
	}
	if d := a.closeOwn[m]; d != noDistance {
		ids = append(ids, idClosestOwn+closestBucket(d))
	}
	if d := a.closeOpp[m]; d != noDistance {
		ids = append(ids, idClosestOpp+closestBucket(d))
	}
	ids = append(ids, phase)
	if id := e.pat3.ids[e.pat3Code(a, m)]; id >= 0 {
		ids = append(ids, e.pat3Base()+id)
	}
	if len(e.cfg.Diamonds) > 0 {
		code := e.canon.canonical(diamondCode(g, &a.pos.Board, m, a.me))
		if id := e.diamonds.lookup(code); id >= 0 {
			ids = append(ids, e.diamondBase()+id)
		}
	}
	if len(e.cfg.Shapes) > 0 {
		if id := e.shapes.id(&a.shapes, a.shapes.at(g, m)); id >= 0 {
			ids = append(ids, e.shapeBase()+id)
		}
	}
	return ids
}

// closestBucket maps a distance >= 2 to the buckets 2..19, 20+.
func closestBucket(d uint8) int32 {
	return int32(min(int(d), closestBuckets+1) - 2)
}

// pat3Code returns the 3x3 pattern code of move m.
func (e *Extractor) pat3Code(a *analysis, m game.Point) uint32 {
	t := e.pat3
	var code uint32
	for i, q := range a.geo.ring[m] {
		var v uint32
		switch {
		case q < 0:
			v = diagOff // == orthOff
		case a.pos.At(game.Point(q)) == game.Empty:
			v = diagEmpty // == orthEmpty
		case !t.orth[i]:
			v = diagOwn
			if a.pos.At(game.Point(q)) != a.me {
				v = diagOpp
			}
		default:
			bucket := uint32(libBucket3)
			if t.libs {
				bucket = uint32(min(a.block(game.Point(q)).nlibs, 3) - 1)
			}
			v = orthOwn1 + bucket
			if a.pos.At(game.Point(q)) != a.me {
				v = orthOpp1 + bucket
			}
		}
		code |= v << t.shift[i]
	}
	return code
}
