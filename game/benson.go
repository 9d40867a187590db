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

// bensonRegion is a maximal connected set of points not of the colour under
// test.
type bensonRegion struct {
	points  PointSet
	empties PointSet
	blocks  []int // indices of the adjacent blocks of the colour
}

// Benson runs Benson's algorithm for colour c: it finds the blocks that
// cannot be captured even if c always passes, and their vital regions.
//
// A region (a connected set of points not of colour c) is vital to an
// adjacent block when every empty point of the region is a liberty of that
// block. The algorithm repeatedly drops blocks with fewer than two vital
// regions and regions that touch a dropped block; what remains is alive.
func (b *Board) Benson(c Color) UCA {
	var heads []Point
	var libs []PointSet
	// index maps a block's head to its place in heads (an array, not a
	// map: Benson runs at every node of a solve).
	var index [MaxCells]int32
	for i := 0; i < b.cells; i++ {
		p := Point(i)
		if b.color[p] == c && b.head[p] == int16(p) {
			index[p] = int32(len(heads))
			heads = append(heads, p)
			libs = append(libs, b.Liberties(p))
		}
	}
	if len(heads) == 0 {
		return UCA{}
	}
	regions := b.bensonRegions(c, &index)
	// vital[r] lists the blocks region r is vital to.
	vital := make([][]int, len(regions))
	for r := range regions {
		for _, k := range regions[r].blocks {
			if regions[r].empties.SubsetOf(&libs[k]) {
				vital[r] = append(vital[r], k)
			}
		}
	}
	blockAlive := make([]bool, len(heads))
	regionAlive := make([]bool, len(regions))
	for i := range blockAlive {
		blockAlive[i] = true
	}
	for r := range regionAlive {
		regionAlive[r] = len(regions[r].blocks) > 0
	}
	for changed := true; changed; {
		changed = false
		count := make([]int, len(heads))
		for r := range regions {
			if regionAlive[r] {
				for _, k := range vital[r] {
					count[k]++
				}
			}
		}
		for k := range heads {
			if blockAlive[k] && count[k] < 2 {
				blockAlive[k] = false
				changed = true
			}
		}
		for r := range regions {
			if !regionAlive[r] {
				continue
			}
			for _, k := range regions[r].blocks {
				if !blockAlive[k] {
					regionAlive[r] = false
					changed = true
					break
				}
			}
		}
	}
	var u UCA
	for k, h := range heads {
		if blockAlive[k] {
			b.BlockStones(h, u.Alive.Add)
		}
	}
	for r := range regions {
		if regionAlive[r] && len(vital[r]) > 0 {
			u.Vital = u.Vital.Union(regions[r].points)
		}
	}
	return u
}

// bensonRegions flood-fills the points not of colour c into regions and
// records, for each, its empty points and adjacent blocks of colour c.
func (b *Board) bensonRegions(c Color, index *[MaxCells]int32) []bensonRegion {
	var seen PointSet
	var regions []bensonRegion
	stack := make([]Point, 0, 64)
	for i := 0; i < b.cells; i++ {
		start := Point(i)
		if col := b.color[start]; col == c || col == Border || seen.Has(start) {
			continue
		}
		var r bensonRegion
		var adj PointSet // heads of adjacent blocks, to list each once
		seen.Add(start)
		stack = append(stack[:0], start)
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			r.points.Add(p)
			if b.color[p] == Empty {
				r.empties.Add(p)
			}
			for _, q := range b.Neighbors(p) {
				switch col := b.color[q]; {
				case col == c:
					h := Point(b.head[q])
					if !adj.Has(h) {
						adj.Add(h)
						r.blocks = append(r.blocks, int(index[h]))
					}
				case col != Border && !seen.Has(q):
					seen.Add(q)
					stack = append(stack, q)
				}
			}
		}
		regions = append(regions, r)
	}
	return regions
}
