package game

// zobristKeys holds the random keys of the position hash. It is computed once
// from a fixed seed and never written afterwards, so hashes are the same in
// every run and every process (the transposition table and the pattern
// databases on disk rely on that).
type zobristKeys struct {
	stone  [MaxCells][2]uint64 // [point][colour-1]
	ko     [MaxCells]uint64
	toMove [2]uint64
	passes [3]uint64
}

var zobrist = newZobristKeys(0x6c69666573657264)

// splitmix64 is a tiny, well-mixed generator used only to fill the key table.
func splitmix64(state *uint64) uint64 {
	*state += 0x9e3779b97f4a7c15
	z := *state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func newZobristKeys(seed uint64) *zobristKeys {
	k := new(zobristKeys)
	for p := range k.stone {
		k.stone[p][0] = splitmix64(&seed)
		k.stone[p][1] = splitmix64(&seed)
		k.ko[p] = splitmix64(&seed)
	}
	k.toMove[0] = splitmix64(&seed)
	k.toMove[1] = splitmix64(&seed)
	for i := range k.passes {
		k.passes[i] = splitmix64(&seed)
	}
	return k
}
