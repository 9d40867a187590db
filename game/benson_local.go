package game

// BensonIfAlive returns Benson(c) and the points of seeds it finds
// unconditionally alive, and an empty set without Benson(c) when it finds
// none: the judges' question, whose answer is almost always no. On a board larger
// than smallBoard it asks AliveAmong first and runs Benson only for a yes;
// on a small board the part AliveAmong reads is most of the board, and
// Benson's single flood costs less (killall7x7 at 50,000 nodes: 46.5 s
// user with Benson alone, 48.8 s with AliveAmong first in the safety
// reading, run side by side; docs/results/tsumego.md, session 27).
func (b *Board) BensonIfAlive(seeds *PointSet, c Color) (u UCA, alive PointSet) {
	if b.size > smallBoard && !b.AliveAmong(seeds, c) {
		return UCA{}, PointSet{}
	}
	u = b.Benson(c)
	return u, u.Alive.Intersect(*seeds)
}

// smallBoard is the largest board on which BensonIfAlive runs Benson
// without asking AliveAmong first.
const smallBoard = 9

// AliveAmong reports whether Benson's algorithm for colour c finds a block
// holding a stone of seeds unconditionally alive, as Benson(c).Alive
// intersecting seeds would, but it reads only the part of the board that
// decides it. The judges ask this at every node of a search, where the
// answer is almost always no and Benson floods the whole board.
//
// Why the part suffices. Benson's alive blocks and regions are the
// largest set in which every block has two vital regions and every region
// has all the blocks next to it. The part read here starts from the
// seeds' blocks and takes, for every block taken, the regions vital to it
// and, for every region taken, all the blocks next to it. Each region
// vital to a block taken is taken, and each region taken has its blocks,
// so Benson's algorithm run on the part (its blocks and regions only, the
// rest of the board left out) keeps exactly the blocks of the part that it
// keeps on the whole board: what it keeps on the part is a set of that
// kind on the board, and the alive blocks reachable from a seed that
// Benson keeps on the board, with their vital regions, lie wholly in the
// part and form one.
//
// A region is read from a block only until its first empty point that is
// not a liberty of that block (or a point next to an earlier such reading
// of the same region), so the large open regions of 19x19 problems cost a
// few steps. When no seed's block has two vital regions,
// nothing more is read. It allocates nothing.
func (b *Board) AliveAmong(seeds *PointSet, c Color) bool {
	var w bensonWork
	var l localBenson
	seeds.ForEach(func(p Point) {
		if b.color[p] == c {
			l.take(&w, b.head[p])
		}
	})
	if l.n == 0 {
		return false
	}
	nSeeds := l.n
	for i := 0; i < l.n; i++ {
		b.readBlock(c, &w, &l, l.queue[i])
		if i == nSeeds-1 && !w.twoVital(nSeeds, &l) {
			return false
		}
	}
	w.settle()
	for i := 0; i < nSeeds; i++ {
		if w.blockAlive[w.blockOf[l.queue[i]]] {
			return true
		}
	}
	return false
}

// localBenson is AliveAmong's working state: the blocks taken, in the
// order they are read (the seeds' first) and numbered in the bensonWork in
// that order, and the points of the regions recorded there.
type localBenson struct {
	n        int
	queue    [MaxCells]int16 // heads of the blocks taken
	taken    PointSet        // their heads
	recorded PointSet        // points of the regions recorded
	stack    [MaxCells]Point
	flood    [MaxCells]Point // the points of the region being read
}

// take adds the block with head h, once, numbering it in w.
func (l *localBenson) take(w *bensonWork, h int16) {
	if !l.taken.Has(Point(h)) {
		l.taken.Add(Point(h))
		l.queue[l.n] = h
		l.n++
		w.blockOf[h] = int16(w.nBlocks)
		w.head[w.nBlocks] = Point(h)
		w.nBlocks++
	}
}

// readBlock records every region vital to the block with head h that is
// not recorded yet, and takes the blocks next to each.
func (b *Board) readBlock(c Color, w *bensonWork, l *localBenson, h int16) {
	// failed holds the points of this block's floods that stopped: their
	// regions are not vital to it, though a flood did not reach all of a
	// region, so a later flood that meets one stops too.
	var seen, failed PointSet
	p := Point(h)
	for {
		for _, start := range b.Neighbors(p) {
			if col := b.color[start]; col == c || col == Border || seen.Has(start) || l.recorded.Has(start) {
				continue
			}
			if n, ok := b.floodVital(c, l, h, start, &seen, &failed); ok {
				b.recordRegion(c, w, l, l.flood[:n])
			}
		}
		if p = Point(b.next[p]); p == Point(h) {
			return
		}
	}
}

// floodVital floods the region of start into l.flood, adding its points
// to seen, and reports whether every empty point of it is a liberty of the
// block with head h; n counts the points flooded. It stops at the first
// that is not, or at a point next to one of failed (the same region,
// known not to be vital), adding every point it has seen to failed.
func (b *Board) floodVital(c Color, l *localBenson, h int16, start Point, seen, failed *PointSet) (n int, ok bool) {
	seen.Add(start)
	l.stack[0] = start
	for top := 1; top > 0; {
		top--
		p := l.stack[top]
		l.flood[n] = p
		n++
		stop := b.color[p] == Empty && b.adjacency(p, h) == 0
		for _, q := range b.Neighbors(p) {
			stop = stop || failed.Has(q)
		}
		if stop {
			for _, q := range l.flood[:n] {
				failed.Add(q)
			}
			for _, q := range l.stack[:top] {
				failed.Add(q)
			}
			return n, false
		}
		for _, q := range b.Neighbors(p) {
			if col := b.color[q]; col != c && col != Border && !seen.Has(q) {
				seen.Add(q)
				l.stack[top] = q
				top++
			}
		}
	}
	return n, true
}

// recordRegion takes the blocks next to the region of points and records
// the region in w, with its pairs.
func (b *Board) recordRegion(c Color, w *bensonWork, l *localBenson, points []Point) {
	for _, p := range points {
		for _, q := range b.Neighbors(p) {
			if b.color[q] == c {
				l.take(w, b.head[q])
			}
		}
		l.recorded.Add(p)
	}
	b.addRegion(c, w, points)
}

// twoVital reports whether one of the first n blocks of l has two regions
// recorded that are vital to it. After those blocks are read, every region
// vital to them is recorded.
func (w *bensonWork) twoVital(n int, l *localBenson) bool {
	for r := 0; r < w.nRegions; r++ {
		for k := w.first[r]; k < w.first[r+1]; k++ {
			if w.vital(r, int(k)) {
				w.count[w.pairBlock[k]]++
			}
		}
	}
	for i := 0; i < n; i++ {
		if w.count[w.blockOf[l.queue[i]]] >= 2 {
			return true
		}
	}
	return false
}
