package game

// UCA is the result of Benson's algorithm for one colour: the stones of its
// unconditionally alive blocks and their vital regions.
type UCA struct {
	// Alive holds every stone of the unconditionally alive blocks.
	Alive PointSet
	// Vital holds the points of the regions that are vital to at least one
	// alive block (empty points and any opponent stones inside them).
	Vital PointSet
}

// Area returns the alive stones together with their vital regions: what the
// colour controls unconditionally, and the relevance zone of a won leaf.
func (u *UCA) Area() PointSet { return u.Alive.Union(u.Vital) }

// maxPairs bounds the (region, adjacent block) pairs of one board: each
// pair rests on at least one stone of the block next to a point of the
// region, and a stone has four neighbours.
const maxPairs = 4 * MaxCells

// bensonWork is Benson's working memory, fixed arrays sized for the
// largest board so that it lives on the caller's stack: the solvers run
// Benson at every node, and the game package allocates nothing per move
// or per judgement. Blocks (of the colour under test) and regions (maximal
// connected sets of points not of that colour) are numbered in board
// order; the pairs of a region with its adjacent blocks are numbered
// region by region, so region r's pairs are first[r] to first[r+1]-1.
type bensonWork struct {
	nBlocks, nRegions, nPairs int
	blockOf                   [MaxCells]int16 // block number at each head
	head                      [MaxCells]Point // head of each block
	regionOf                  [MaxCells]int16 // region number of each point not of the colour
	empties                   [MaxCells]int16 // empty points of each region
	first                     [MaxCells + 1]int16
	pairBlock                 [maxPairs]int16 // the block of each pair
	pairLibs                  [maxPairs]int16 // the region's empty points that are liberties of the block
	// pairOf[k] is block k's pair in the region being flooded when
	// pairIn[k] is that region's number plus one.
	pairOf, pairIn [MaxCells]int16
	blockAlive     [MaxCells]bool
	regionAlive    [MaxCells]bool
	count          [MaxCells]int16 // alive vital regions of each block
}

// Benson runs Benson's algorithm for colour c: it finds the blocks that
// cannot be captured even if c always passes, and their vital regions.
//
// A region (a connected set of points not of colour c) is vital to an
// adjacent block when every empty point of the region is a liberty of that
// block. The algorithm repeatedly drops blocks with fewer than two vital
// regions and regions that touch a dropped block; what remains is alive.
// It allocates nothing.
func (b *Board) Benson(c Color) UCA {
	var w bensonWork
	if b.numberBlocks(c, &w); w.nBlocks == 0 {
		return UCA{}
	}
	b.bensonRegions(c, &w)
	w.settle()
	var u UCA
	for k := 0; k < w.nBlocks; k++ {
		if w.blockAlive[k] {
			b.BlockStones(w.head[k], u.Alive.Add)
		}
	}
	for i := 0; i < b.cells; i++ {
		if col := b.color[i]; col != c && col != Border && w.vitalAlive(int(w.regionOf[i])) {
			u.Vital.Add(Point(i))
		}
	}
	return u
}

// numberBlocks numbers the blocks of colour c in board order.
func (b *Board) numberBlocks(c Color, w *bensonWork) {
	for i := 0; i < b.cells; i++ {
		p := Point(i)
		if b.color[p] == c && b.head[p] == int16(p) {
			w.blockOf[p] = int16(w.nBlocks)
			w.head[w.nBlocks] = p
			w.nBlocks++
		}
	}
}

// vital reports whether pair k's region is vital to its block: every empty
// point of the region is a liberty of the block (true for a region of
// opponent stones alone).
func (w *bensonWork) vital(r, k int) bool { return w.pairLibs[k] == w.empties[r] }

// vitalAlive reports whether region r is alive and vital to one of its
// blocks: a region of the result's Vital set.
func (w *bensonWork) vitalAlive(r int) bool {
	if !w.regionAlive[r] {
		return false
	}
	for k := w.first[r]; k < w.first[r+1]; k++ {
		if w.vital(r, int(k)) {
			return true
		}
	}
	return false
}

// settle drops, until nothing changes, the blocks with fewer than two
// alive vital regions and the regions next to a dropped block. A region
// with no adjacent block never counts.
func (w *bensonWork) settle() {
	for k := 0; k < w.nBlocks; k++ {
		w.blockAlive[k] = true
	}
	for r := 0; r < w.nRegions; r++ {
		w.regionAlive[r] = w.first[r+1] > w.first[r]
	}
	for changed := true; changed; {
		changed = false
		clear(w.count[:w.nBlocks])
		for r := 0; r < w.nRegions; r++ {
			if !w.regionAlive[r] {
				continue
			}
			for k := w.first[r]; k < w.first[r+1]; k++ {
				if w.vital(r, int(k)) {
					w.count[w.pairBlock[k]]++
				}
			}
		}
		for k := 0; k < w.nBlocks; k++ {
			if w.blockAlive[k] && w.count[k] < 2 {
				w.blockAlive[k] = false
				changed = true
			}
		}
		for r := 0; r < w.nRegions; r++ {
			if !w.regionAlive[r] {
				continue
			}
			for k := w.first[r]; k < w.first[r+1]; k++ {
				if !w.blockAlive[w.pairBlock[k]] {
					w.regionAlive[r] = false
					changed = true
					break
				}
			}
		}
	}
}

// bensonRegions flood-fills the points not of colour c into regions and
// records, for each, its number of empty points and its pairs: the
// adjacent blocks of colour c with how many of the region's empty points
// are their liberties.
func (b *Board) bensonRegions(c Color, w *bensonWork) {
	var seen PointSet
	var stack, points [MaxCells]Point
	for i := 0; i < b.cells; i++ {
		start := Point(i)
		if col := b.color[start]; col == c || col == Border || seen.Has(start) {
			continue
		}
		seen.Add(start)
		stack[0] = start
		n := 0
		for top := 1; top > 0; {
			top--
			p := stack[top]
			points[n] = p
			n++
			for _, q := range b.Neighbors(p) {
				if col := b.color[q]; col != c && col != Border && !seen.Has(q) {
					seen.Add(q)
					stack[top] = q
					top++
				}
			}
		}
		b.addRegion(c, w, points[:n])
	}
}

// addRegion records points, a region of points not of colour c, as w's
// next region: its empty points, and its pairs with the blocks next to it,
// counting each point as a liberty of each such block once.
func (b *Board) addRegion(c Color, w *bensonWork, points []Point) {
	r := int16(w.nRegions)
	w.first[r] = int16(w.nPairs)
	for _, p := range points {
		w.regionOf[p] = r
		empty := b.color[p] == Empty
		if empty {
			w.empties[r]++
		}
		var libOf [4]int16 // blocks p is a liberty of, each once
		nLib := 0
		for _, q := range b.Neighbors(p) {
			if b.color[q] != c {
				continue
			}
			k := w.blockOf[b.head[q]]
			pair := w.pairFor(r, k)
			if empty && !contains16(libOf[:nLib], k) {
				libOf[nLib] = k
				nLib++
				w.pairLibs[pair]++
			}
		}
	}
	w.nRegions++
	w.first[w.nRegions] = int16(w.nPairs)
}

// pairFor returns the pair of region r (the one being flooded) with block
// k, adding it on first sight.
func (w *bensonWork) pairFor(r, k int16) int16 {
	if w.pairIn[k] == r+1 {
		return w.pairOf[k]
	}
	pair := int16(w.nPairs)
	w.nPairs++
	w.pairBlock[pair] = k
	w.pairIn[k], w.pairOf[k] = r+1, pair
	return pair
}

func contains16(s []int16, v int16) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
