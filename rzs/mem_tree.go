package rzs

import (
	"encoding/binary"
	"math"
	mbits "math/bits"

	"lifezero/game"
)

// memTree is the MCTS solver's search tree, laid out for memory. The
// mcts.Tree it replaces spent 32 bytes on every child of every expansion
// (about 125 on a 19x19 problem) although almost all of them are never
// visited. Here an expansion writes one block of bytes: its moves as a
// bitset over the problem's region and its priors as a palette of distinct
// values with one byte per child (the heuristic gives few distinct values).
// A child gets a node record (memNode) only when the search first visits
// it; the records of a node's visited children form a list in child order.
// Selection chooses exactly as mcts.Tree.SelectChild does (an unvisited
// child has no record and scores like an mcts child with no visits), so
// the search is the same move for move; it reads the visited children's
// records and the unvisited child of highest prior (see selectChild).
type memTree struct {
	nodes     *arena[memNode]
	data      *byteArena
	rankPoint []game.Point // region rank -> point
	pointRank []int16      // point -> region rank (-1 outside)
	words     int          // bitset words of a block
	scratch   []game.Point // scanUnvisited's moves
	palBuf    []uint32
	palIdx    []uint8 // each child's palette index, while expand writes a block
	palette   paletteIndex
	// virtual counts, while several leaves are in flight (the parallel
	// form, a batch), the leaves' paths through a record (flagVirtual
	// set): virtual losses, which steer the other descents to other lines
	// until the backup. They live
	// beside the records, since only a few paths are in flight at once.
	virtual map[int32]int32
	// fpuReduction lowers the first-play urgency of a node's unvisited
	// children by fpuReduction × √(prior mass of its visited children)
	// (Options.FPUReduction).
	fpuReduction float64
	// proofBonus (Options.ProofBonus) adds to a living move's score
	// proofBonus × (fewest killer moves left at a sibling / left at it).
	proofBonus float64
	left       []int32 // movesLeft's counts for the node being selected
	// selected is the record searchTree.SelectChild chose last: the search
	// plays its move next, and the solver's path records it (see playPath).
	selected int32
}

// memNode is a visited node. Index 0 of the arena is unused; the root is 1.
type memNode struct {
	visits   int32
	valueSum float32
	parent   int32 // 0: none (the root)
	firstRec int32 // first visited child, in child order (0: none)
	nextSib  int32 // next visited sibling
	zone     int32 // zoneArena reference of a won node (0: none)
	aux      int32 // AND node's proof state (andState arena; 0: none yet)
	kids     blockRef
	childIdx uint16 // index among the parent's children
	// nextKid caches selectChild's unvisited candidate among the node's
	// children (see bestUnvisited): its index + 1, 0 when not known,
	// noneUnvisited when every unvisited child is skipped.
	nextKid uint16
	move    game.Point
	status  Status
	// flags holds the flag bits below and, from playerShift up, who played
	// move (player): a record stays 44 bytes with nextKid.
	flags uint8
}

const (
	flagExpanded   = 1 << iota // children created (createChildren ran)
	flagHistoryDep             // proof may rest on the path's superko history
	flagVirtual                // it has virtual losses (memTree.virtual)
	flagKidDep                 // an unproven node's refuted move rests on the history (see update)
	flagCoarse                 // its children's priors wait for PriorRefiner.Refine (see refine)
)

// playerShift is where memNode.flags keeps the colour that played the
// record's move, above the flag bits.
const playerShift = 6

// player returns who played the record's move.
func (n *memNode) player() game.Color { return game.Color(n.flags >> playerShift) }

// rootNode is the root's record index.
const rootNode int32 = 1

// blockHeader is the size of a children block's header: nKids uint16,
// nPal uint16 (0: raw float32 priors), words, hasPass, player, and the
// block's slack (see byteArena.alloc).
const blockHeader = 8

func newMemTree(region *game.PointSet, cells int, lastMover game.Color, bound int64) *memTree {
	t := &memTree{nodes: newArena[memNode](), data: &byteArena{chunk: byteChunkFor(bound)}, pointRank: make([]int16, max(cells, game.MaxCells))}
	for i := range t.pointRank {
		t.pointRank[i] = -1
	}
	region.ForEach(func(p game.Point) {
		t.pointRank[p] = int16(len(t.rankPoint))
		t.rankPoint = append(t.rankPoint, p)
	})
	t.words = (len(t.rankPoint) + 63) / 64
	r := t.nodes.alloc()
	*t.nodes.at(r) = memNode{move: game.NoPoint, flags: uint8(lastMover) << playerShift}
	return t
}

func (t *memTree) node(id int32) *memNode { return t.nodes.at(id) }

// children is a decoded view of a node's children block.
type children struct {
	n       int
	hasPass bool
	player  game.Color
	words   []byte
	pal     []byte // nPal float32s, or nil
	prior   []byte // one palette index per child, or n raw float32s
}

func blockSize(nKids, nPal, words int) int {
	if nPal > 0 {
		return blockHeader + 8*words + 4*nPal + nKids
	}
	return blockHeader + 8*words + 4*nKids
}

func (t *memTree) kidsOf(id int32) (children, bool) {
	r := t.node(id).kids
	if r.chunk == 0 {
		return children{}, false
	}
	h := t.data.block(r, blockHeader)
	n, nPal, words := int(binary.LittleEndian.Uint16(h)), int(binary.LittleEndian.Uint16(h[2:])), int(h[4])
	b := t.data.block(r, blockSize(n, nPal, words))
	c := children{n: n, hasPass: h[5] != 0, player: game.Color(h[6])}
	off := blockHeader
	c.words = b[off : off+8*words]
	off += 8 * words
	if nPal > 0 {
		c.pal = b[off : off+4*nPal]
		off += 4 * nPal
	}
	c.prior = b[off:]
	return c, true
}

func (c *children) priorOf(i int) float32 {
	if c.pal != nil {
		k := int(c.prior[i])
		return math.Float32frombits(binary.LittleEndian.Uint32(c.pal[4*k:]))
	}
	return math.Float32frombits(binary.LittleEndian.Uint32(c.prior[4*i:]))
}

// moves appends the children's moves in order to dst.
func (t *memTree) moves(c *children, dst []game.Point) []game.Point {
	for w := 0; w*8 < len(c.words); w++ {
		bits := binary.LittleEndian.Uint64(c.words[8*w:])
		for bits != 0 {
			dst = append(dst, t.rankPoint[w*64+mbits.TrailingZeros64(bits)])
			bits &= bits - 1
		}
	}
	if c.hasPass {
		dst = append(dst, game.Pass)
	}
	return dst
}

// expand creates the children of id: moves (region points in increasing
// order, then possibly the pass, as LegalMovesSuperko gives them) with their
// priors, played by player.
func (t *memTree) expand(id int32, player game.Color, moves []game.Point, priors []float32) {
	n := t.node(id)
	if n.kids.chunk != 0 || len(moves) == 0 {
		return
	}
	hasPass := moves[len(moves)-1] == game.Pass
	board := moves
	if hasPass {
		board = moves[:len(moves)-1]
	}
	// Palette of distinct priors (by bits), in order of first appearance.
	pal, idx := t.palBuf[:0], t.palIdx[:0]
	usePal := true
	t.palette.reset()
	for _, p := range priors {
		b := math.Float32bits(p)
		k, found := t.palette.find(b, len(pal))
		if !found {
			if len(pal) == 255 {
				usePal = false
				break
			}
			pal = append(pal, b)
		}
		idx = append(idx, k)
	}
	t.palBuf, t.palIdx = pal, idx
	if usePal && 4*len(pal)+len(moves) >= 4*len(moves) {
		usePal = false
	}
	nPal := 0
	if usePal {
		nPal = len(pal)
	}
	size := blockSize(len(moves), nPal, t.words)
	ref, slack := t.data.alloc(size)
	b := t.data.block(ref, size)
	clear(b[:blockHeader+8*t.words]) // the rest is written below: one prior per move
	b[7] = byte(slack)
	binary.LittleEndian.PutUint16(b, uint16(len(moves)))
	binary.LittleEndian.PutUint16(b[2:], uint16(nPal))
	b[4] = byte(t.words)
	if hasPass {
		b[5] = 1
	}
	b[6] = byte(player)
	last := -1
	for _, m := range board {
		r := int(t.pointRank[m])
		if r <= last {
			panic("rzs: children moves not in increasing region order")
		}
		last = r
		w := blockHeader + 8*(r/64)
		binary.LittleEndian.PutUint64(b[w:], binary.LittleEndian.Uint64(b[w:])|1<<uint(r%64))
	}
	off := blockHeader + 8*t.words
	if usePal {
		for i, q := range pal {
			binary.LittleEndian.PutUint32(b[off+4*i:], q)
		}
		off += 4 * nPal
		copy(b[off:], idx)
	} else {
		for i, p := range priors {
			binary.LittleEndian.PutUint32(b[off+4*i:], math.Float32bits(p))
		}
	}
	t.node(id).kids = ref
	t.node(id).nextKid = 0 // new children, new priors: see bestUnvisited
}

// q is mcts.Node.Q for a record (no virtual losses in the solver).
func (n *memNode) q(fpu float64) float64 {
	if n.visits == 0 {
		return fpu
	}
	return float64(n.valueSum) / float64(n.visits)
}

// movesLeft fills t.left, in child order, with the killer moves left to
// refute at each visited child of id (skipper.remaining; 0 where not
// known), so that selection reads each once, and returns the fewest of
// them (0: none known).
func (t *memTree) movesLeft(id int32, skip skipper) int {
	t.left = t.left[:0]
	least := 0
	for r := t.node(id).firstRec; r != 0; r = t.node(r).nextSib {
		n, _ := skip.remaining(r)
		t.left = append(t.left, int32(n))
		if n > 0 && (least == 0 || n < least) {
			least = n
		}
	}
	return least
}

// visitedPrior is the prior mass of id's visited children.
func (t *memTree) visitedPrior(id int32, c *children) float64 {
	var sum float64
	for r := t.node(id).firstRec; r != 0; {
		n := t.node(r)
		sum += float64(c.priorOf(int(n.childIdx)))
		r = n.nextSib
	}
	return sum
}

// child returns the record of child idx of id, creating it (as visited
// from now on) if needed.
func (t *memTree) child(id int32, idx int, move game.Point) int32 {
	prev := int32(0)
	r := t.node(id).firstRec
	for r != 0 && int(t.node(r).childIdx) < idx {
		prev, r = r, t.node(r).nextSib
	}
	if r != 0 && int(t.node(r).childIdx) == idx {
		return r
	}
	c, _ := t.kidsOf(id)
	nr := t.nodes.alloc()
	*t.node(nr) = memNode{parent: id, nextSib: r, childIdx: uint16(idx), move: move, flags: uint8(c.player) << playerShift}
	if prev == 0 {
		t.node(id).firstRec = nr
	} else {
		t.node(prev).nextSib = nr
	}
	return nr
}

// backup adds value (in [0,1], for forPlayer) to every node from id up to
// the root, as mcts.Tree.Backup does.
func (t *memTree) backup(id int32, value float64, forPlayer game.Color) {
	for ; id != 0; id = t.node(id).parent {
		n := t.node(id)
		n.visits++
		if n.player() == forPlayer {
			n.valueSum += float32(value)
		} else {
			n.valueSum += float32(1 - value)
		}
	}
}

// visited calls f for the records of id's visited children, in child order.
func (t *memTree) visited(id int32, f func(rec int32)) {
	for r := t.node(id).firstRec; r != 0; r = t.node(r).nextSib {
		f(r)
	}
}

// mostVisited returns the child of id with the most visits, as
// mcts.Tree.MostVisited: the first on ties, an unvisited child counting 0.
// rec is 0 for an unvisited child; ok is false when id has no children.
func (t *memTree) mostVisited(id int32) (idx int, move game.Point, rec int32, ok bool) {
	c, has := t.kidsOf(id)
	if !has {
		return 0, game.NoPoint, 0, false
	}
	best, most := -1, int32(-1)
	r := t.node(id).firstRec
	for i := 0; i < c.n; i++ {
		v, cur := int32(0), int32(0)
		if r != 0 && int(t.node(r).childIdx) == i {
			cur, v = r, t.node(r).visits
			r = t.node(r).nextSib
		}
		if v > most {
			best, most, rec = i, v, cur
		}
	}
	moves := t.moves(&c, nil)
	return best, moves[best], rec, true
}

// childMoves returns the non-pass moves of id's children as a set.
func (t *memTree) childMoves(id int32) game.PointSet {
	var s game.PointSet
	c, has := t.kidsOf(id)
	if !has {
		return s
	}
	for w := 0; w*8 < len(c.words); w++ {
		bits := binary.LittleEndian.Uint64(c.words[8*w:])
		for bits != 0 {
			s.Add(t.rankPoint[w*64+mbits.TrailingZeros64(bits)])
			bits &= bits - 1
		}
	}
	return s
}

// bytes returns the memory the tree holds.
func (t *memTree) bytes() int64 { return t.nodes.bytes() + t.data.bytes() }

// visit counts a leaf in flight below a record as a virtual loss for the
// side that moved into it, until unvisitOne.
func (t *memTree) visit(id int32) {
	t.virtual[id]++
	t.node(id).flags |= flagVirtual
}

// unvisitOne takes back one virtual loss of a record.
func (t *memTree) unvisitOne(id int32) {
	if t.virtual[id]--; t.virtual[id] == 0 {
		delete(t.virtual, id)
		t.node(id).flags &^= flagVirtual
	}
}

// stats returns a visited child's visits and mean value for selection,
// counting its virtual losses.
func (t *memTree) stats(rn *memNode, rec int32, fpu float64) (visits int32, q float64) {
	visits = rn.visits
	if rn.flags&flagVirtual != 0 {
		visits += t.virtual[rec]
		return visits, float64(rn.valueSum) / float64(visits)
	}
	return visits, rn.q(fpu)
}

// paletteIndex finds a prior's place in the palette expand is building: an
// open-addressing table of the bits seen, twice the palette's largest
// size, emptied by a new generation instead of a clear.
type paletteIndex struct {
	gen   uint32
	stamp [paletteSlots]uint32 // gen of the expansion that filled the slot
	key   [paletteSlots]uint32
	index [paletteSlots]uint8
}

const paletteSlots = 512

// reset empties the table.
func (x *paletteIndex) reset() {
	x.gen++
	if x.gen == 0 { // wrapped: stamps of 0 would read as filled
		x.stamp = [paletteSlots]uint32{}
		x.gen = 1
	}
}

// find returns the palette index of bits, or, when it is new, records it
// at next (the palette's length) and returns next and false.
func (x *paletteIndex) find(bits uint32, next int) (uint8, bool) {
	h := (bits * 0x9e3779b1) >> (32 - 9) // 9 bits: paletteSlots
	for {
		if x.stamp[h] != x.gen {
			x.stamp[h], x.key[h], x.index[h] = x.gen, bits, uint8(next)
			return uint8(next), false
		}
		if x.key[h] == bits {
			return x.index[h], true
		}
		h = (h + 1) & (paletteSlots - 1)
	}
}
