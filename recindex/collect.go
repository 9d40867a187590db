package recindex

import (
	"container/heap"
	"math/bits"
	"slices"
)

// collector accumulates one worker's hits: the count, the games, the
// continuation counts, and the hits themselves (all of them, or the first
// limit in hit order).
type collector struct {
	limit int
	n     int
	hits  hitHeap  // with a limit, a max-heap on hitKey
	games []uint64 // bitset
	conts []contCount
}

// contCount counts one continuation: index player*MaxSide*MaxSide +
// y*MaxSide + x, the last entry for none.
type contCount struct{ count, wins, losses int }

const noneCont = 2 * MaxSide * MaxSide

func newCollector(games, limit int) *collector {
	return &collector{limit: limit, games: make([]uint64, (games+63)/64), conts: make([]contCount, noneCont+1)}
}

func (c *collector) add(h Hit) {
	c.n++
	c.games[h.Game/64] |= 1 << (h.Game % 64)
	i := noneCont
	if h.Next.Move > 0 {
		i = h.Next.Y*MaxSide + h.Next.X
		if h.Next.Player == 'O' {
			i += MaxSide * MaxSide
		}
	}
	cc := &c.conts[i]
	cc.count++
	switch h.Next.Result {
	case 1:
		cc.wins++
	case -1:
		cc.losses++
	}
	switch {
	case c.limit <= 0:
		c.hits = append(c.hits, h)
	case len(c.hits) < c.limit:
		heap.Push(&c.hits, h)
	case hitKey(&h) < hitKey(&c.hits[0]):
		c.hits[0] = h
		heap.Fix(&c.hits, 0)
	}
}

// merge folds the collectors into a result: hits sorted (and cut to the
// limit), games counted, continuations ranked.
func merge(cs []*collector, limit int, res *Result) {
	all := cs[0]
	for _, c := range cs[1:] {
		all.n += c.n
		for i, w := range c.games {
			all.games[i] |= w
		}
		for i, cc := range c.conts {
			all.conts[i].count += cc.count
			all.conts[i].wins += cc.wins
			all.conts[i].losses += cc.losses
		}
		all.hits = append(all.hits, c.hits...)
	}
	res.NumHits = all.n
	for _, w := range all.games {
		res.Games += bits.OnesCount64(w)
	}
	res.Hits = all.hits
	sortHits(res.Hits)
	if limit > 0 && len(res.Hits) > limit {
		res.Hits = res.Hits[:limit]
	}
	res.Continuations = rankContinuations(all.conts)
}

func rankContinuations(conts []contCount) []ContStat {
	var out []ContStat
	for i, cc := range conts {
		if cc.count == 0 {
			continue
		}
		st := ContStat{Count: cc.count, Wins: cc.wins, Losses: cc.losses}
		if i == noneCont {
			st.None = true
		} else {
			st.Player = 'X'
			if i >= MaxSide*MaxSide {
				st.Player, i = 'O', i-MaxSide*MaxSide
			}
			st.X, st.Y = i%MaxSide, i/MaxSide
		}
		out = append(out, st)
	}
	slices.SortFunc(out, compareConts)
	return out
}

// hitHeap is a max-heap of hits on hitKey.
type hitHeap []Hit

func (h hitHeap) Len() int           { return len(h) }
func (h hitHeap) Less(i, j int) bool { return hitKey(&h[i]) > hitKey(&h[j]) }
func (h hitHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *hitHeap) Push(x any)        { *h = append(*h, x.(Hit)) }
func (h *hitHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
